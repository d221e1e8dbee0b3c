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
        _VERSION_SOURCE_MAX,
        _VERSION_SOURCE_INVALID = -EINVAL,
} VersionSource;

const char *version_source_to_string(VersionSource s);

/* Finds the systemd version installed under root from libsystemd-shared-NNN.so (or dpkg's status file).
 * Returns 0 and the version, or -ENOENT. */
int systemd_version_of_root(const Root *root, unsigned *ret);
