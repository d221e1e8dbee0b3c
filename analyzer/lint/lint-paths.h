/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The paths a unit needs writable when it starts, and the setting that asks for each: PrivateTmp= (/tmp and
 * /var/tmp; also implied by DynamicUser= from 232 to 256), StateDirectory=/CacheDirectory=/LogsDirectory=/
 * ConfigurationDirectory= (235+), ReadWritePaths= (231+; and ReadWriteDirectories= before), WorkingDirectory=. */

#include "model/model.h"

typedef enum LintPathSource {
        LINT_PATH_PRIVATE_TMP,
        LINT_PATH_DIRECTORY,     /* State/Cache/Logs/ConfigurationDirectory= */
        LINT_PATH_READ_WRITE,    /* ReadWritePaths= */
        LINT_PATH_WORKING_DIR,
        _LINT_PATH_SOURCE_MAX,
} LintPathSource;

typedef struct LintPath {
        char *path;              /* absolute, normalised */
        LintPathSource source;
        const Setting *setting;  /* the assignment that asks for it */
} LintPath;

typedef struct LintPaths {
        LintPath *items;
        size_t n, allocated;
} LintPaths;

void lint_paths_done(LintPaths *p);
/* Collects the paths of u for systemd v. Returns 0 or -ENOMEM. */
int lint_unit_paths(const ModelUnit *u, const Rules *rules, const FeatureSet *fs, LintPaths *ret);
