/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* tmpfiles.d entries (tmpfiles.d(5)): what systemd-tmpfiles-setup.service creates at boot. Read the way
 * systemd-tmpfiles reads them: every *.conf of the tmpfiles.d directories, a name in a higher directory
 * replacing the same name further down, an empty file or a link to /dev/null masking it. Only the lines are
 * kept; nothing is created. Malformed lines are warnings in the DiagList, like systemd-tmpfiles logs them. */

#include "basic/diag.h"
#include "load/root.h"

typedef struct TmpfilesEntry {
        char *type;      /* as written, with its modifiers: "d", "L+", "f!" */
        char *path;      /* as written (specifiers not expanded) */
        char *mode, *user, *group, *age; /* NULL for "-" or when missing */
        char *argument;  /* the rest of the line, or NULL */
        char *file;      /* display path of the file */
        unsigned line;
} TmpfilesEntry;

typedef struct TmpfilesList {
        TmpfilesEntry *items;
        size_t n, allocated;
} TmpfilesList;

void tmpfiles_list_done(TmpfilesList *l);

/* Parses the text of one tmpfiles.d file (file is its display path). Returns 0 or -ENOMEM. */
int tmpfiles_parse(const char *text, const char *file, TmpfilesList *l, DiagList *diags);

/* Reads the tmpfiles.d directories of root (in systemd-tmpfiles' order). Returns 0 or -ENOMEM. */
int tmpfiles_load(const Root *root, TmpfilesList *l, DiagList *diags);

/* Does the type create its path at boot when it is missing (d, D, v, q, Q, f, F, L, p, c, b, C, ...)? */
bool tmpfiles_type_creates(const char *type);

/* The entry that creates path itself at boot, or NULL. path is absolute and normalised. */
const TmpfilesEntry *tmpfiles_find_creator(const TmpfilesList *l, const char *path);
