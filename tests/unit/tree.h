/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Small trees for tests: files and symlinks under a directory (from mkdtemp()), parents made as needed. */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline int tree_parents(const char *path) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
        return system(cmd) == 0 ? 0 : -1;
}

/* top/rel with content */
static inline void tree_put(const char *top, const char *rel, const char *content) {
        char p[512];
        FILE *f;

        snprintf(p, sizeof p, "%s/%s", top, rel);
        if (tree_parents(p) < 0)
                return;
        f = fopen(p, "w");
        if (f) {
                fputs(content, f);
                fclose(f);
        }
}

/* top/rel, a symlink to target */
static inline void tree_ln(const char *top, const char *target, const char *rel) {
        char p[512];

        snprintf(p, sizeof p, "%s/%s", top, rel);
        if (tree_parents(p) < 0 || symlink(target, p) < 0)
                perror("symlink");
}
