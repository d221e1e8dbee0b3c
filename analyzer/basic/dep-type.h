/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Dependency types as unit files name them, and the origin labels systemd prints for them ("origin-file", ...).
 * Shared by the rules (which add dependencies), the graph (which stores them) and the reports. */

#include "basic/util.h"

typedef enum DepType {
        DEP_REQUIRES,
        DEP_REQUISITE,
        DEP_WANTS,
        DEP_BINDS_TO,
        DEP_PART_OF,
        DEP_UPHOLDS,
        DEP_CONFLICTS,
        DEP_BEFORE,
        DEP_AFTER,
        DEP_ON_FAILURE,
        DEP_ON_SUCCESS,
        DEP_TRIGGERS,
        DEP_PROPAGATES_RELOAD_TO,
        DEP_RELOAD_PROPAGATED_FROM,
        DEP_JOINS_NAMESPACE_OF,
        DEP_TRIGGERED_BY, /* the reverse of Triggers; a service's Sockets= adds it in the file's name */
        DEP_PROPAGATES_STOP_TO, /* v249 */
        DEP_STOP_PROPAGATED_FROM,
        _DEP_TYPE_MAX,
        _DEP_TYPE_INVALID = -EINVAL,
} DepType;

#define DEP_MASK(t) (1U << (t))
#define DEP_MASK_ORDER (DEP_MASK(DEP_BEFORE) | DEP_MASK(DEP_AFTER))
#define DEP_MASK_PULL                                                                                         \
        (DEP_MASK(DEP_REQUIRES) | DEP_MASK(DEP_REQUISITE) | DEP_MASK(DEP_WANTS) | DEP_MASK(DEP_BINDS_TO) |     \
         DEP_MASK(DEP_UPHOLDS))

const char *dep_type_to_string(DepType t); /* "Requires", ..., as in unit files */
DepType dep_type_from_string(const char *s);
/* The unit-file key that adds t (and the older spellings systemd still accepts), or _DEP_TYPE_INVALID. */
DepType dep_type_from_key(const char *key);
/* Parses "Requires After" into a mask of DEP_MASK() bits. Returns 0 or -EINVAL (unknown word or empty). */
int dep_type_mask_from_string(const char *s, unsigned *ret);

/* How systemd labels where a dependency came from (UnitDependencyMask; printed as "origin-NAME"). */
typedef enum SdOrigin {
        SD_ORIGIN_FILE,
        SD_ORIGIN_IMPLICIT,
        SD_ORIGIN_DEFAULT,
        SD_ORIGIN_UDEV,
        SD_ORIGIN_PATH,
        SD_ORIGIN_MOUNT_FILE,
        SD_ORIGIN_MOUNTINFO,
        SD_ORIGIN_PROC_SWAP,
        SD_ORIGIN_SLICE_PROPERTY,
        _SD_ORIGIN_MAX,
        _SD_ORIGIN_INVALID = -EINVAL,
} SdOrigin;

const char *sd_origin_to_string(SdOrigin o); /* "file", "implicit", ... (without "origin-") */
SdOrigin sd_origin_from_string(const char *s);
