/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The mount table of a running system as PID 1 reads it (/proc/self/mountinfo), in its order: which mount
 * points exist, with their file system type and source. The model takes file system types and the order in
 * which PID 1 enumerated the mounts from here; nothing here prints. */

#include "basic/util.h"
#include "rules/rules.h"

typedef struct MountEntry {
        char *where;   /* mount point, unescaped */
        char *what;    /* source, unescaped */
        char *fstype;  /* "tmpfs", "ext4", ... */
} MountEntry;

typedef struct MountTable {
        MountEntry *entries; /* in the table's order; a mount point may appear more than once */
        size_t n_entries;
} MountTable;

void mount_table_done(MountTable *t);

/* Parses the text of a mountinfo file; other lines are skipped. Returns 0, -ENOMEM. */
int mount_table_parse_mountinfo(const char *text, MountTable *ret);

/* The last entry for mount point where (the one PID 1's unit ends up describing), or NULL. */
const MountEntry *mount_table_find(const MountTable *t, const char *where);

/* Mount points PID 1 never makes units for at version v: API file systems, what container managers bind in, and
 * autofs (the <mount-point> roles api and ignored of rules/dependencies.xml). */
bool mount_entry_ignored(const MountEntry *e, const Rules *r, unsigned v);
