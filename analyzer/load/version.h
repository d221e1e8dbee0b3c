/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Which systemd version to judge for: --systemd=N, else --target's release, else the version installed in the
 * root (or on the host), else the newest modelled one (rules_newest_modelled()). */

#include "load/root.h"

typedef enum VersionSource {
        VERSION_FROM_OPTION,
        VERSION_FROM_TARGET,
        VERSION_FROM_ROOT,
        VERSION_FROM_DEFAULT,
        VERSION_FROM_LIVE,    /* the running systemd's (drift) */
        _VERSION_SOURCE_MAX,
        _VERSION_SOURCE_INVALID = -EINVAL,
} VersionSource;

const char *version_source_to_string(VersionSource s);

/* The version a verb judges with. asked differs from version only with --nearest-model, when the version asked
 * for (by --systemd, --target, the root or the running systemd) lies outside the modelled range oldest..newest
 * and version is the nearest end of it; reports then say so. */
typedef struct VersionChoice {
        unsigned version;
        unsigned asked;
        unsigned oldest, newest;
        VersionSource source;
        char what[128];       /* where asked comes from, for messages: "--target=debian-forky", "--systemd" */
} VersionChoice;

static inline bool version_choice_nearest(const VersionChoice *c) {
        return c && c->asked != c->version;
}

/* Finds the systemd version installed under root from libsystemd-shared-NNN.so (or dpkg's status file).
 * Returns 0 and the version, or -ENOENT. */
int systemd_version_of_root(const Root *root, unsigned *ret);
