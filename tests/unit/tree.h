/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Small trees for tests: files and symlinks under a directory (from mkdtemp()), parents made as needed. A file or
 * link that cannot be made bails out (TAP "Bail out!"): the checks on the tree would test nothing. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline void tree_bail(const char *what, const char *path) {
        printf("Bail out! %s %s: %s\n", what, path, strerror(errno));
        fflush(stdout);
        exit(EXIT_FAILURE);
}

static inline void tree_parents(const char *path) {
        char cmd[600];

        snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
        if (system(cmd) != 0) {
                errno = EIO;
                tree_bail("cannot make the parents of", path);
        }
}

/* top/rel with content */
static inline void tree_put(const char *top, const char *rel, const char *content) {
        char p[512];
        FILE *f;

        snprintf(p, sizeof p, "%s/%s", top, rel);
        tree_parents(p);
        f = fopen(p, "we");
        if (!f)
                tree_bail("cannot create", p);
        if (fputs(content, f) < 0 || fclose(f) != 0)
                tree_bail("cannot write", p);
}

/* top/rel, a symlink to target */
static inline void tree_ln(const char *top, const char *target, const char *rel) {
        char p[512];

        snprintf(p, sizeof p, "%s/%s", top, rel);
        tree_parents(p);
        if (symlink(target, p) < 0)
                tree_bail("cannot make the symlink", p);
}
