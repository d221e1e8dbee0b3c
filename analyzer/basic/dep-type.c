/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/dep-type.h"

static const char * const dep_type_table[_DEP_TYPE_MAX] = {
        [DEP_REQUIRES] = "Requires",
        [DEP_REQUISITE] = "Requisite",
        [DEP_WANTS] = "Wants",
        [DEP_BINDS_TO] = "BindsTo",
        [DEP_PART_OF] = "PartOf",
        [DEP_UPHOLDS] = "Upholds",
        [DEP_CONFLICTS] = "Conflicts",
        [DEP_BEFORE] = "Before",
        [DEP_AFTER] = "After",
        [DEP_ON_FAILURE] = "OnFailure",
        [DEP_ON_SUCCESS] = "OnSuccess",
        [DEP_TRIGGERS] = "Triggers",
        [DEP_PROPAGATES_RELOAD_TO] = "PropagatesReloadTo",
        [DEP_RELOAD_PROPAGATED_FROM] = "ReloadPropagatedFrom",
        [DEP_JOINS_NAMESPACE_OF] = "JoinsNamespaceOf",
        [DEP_TRIGGERED_BY] = "TriggeredBy",
        [DEP_PROPAGATES_STOP_TO] = "PropagatesStopTo",
        [DEP_STOP_PROPAGATED_FROM] = "StopPropagatedFrom",
};

static const char * const sd_origin_table[_SD_ORIGIN_MAX] = {
        [SD_ORIGIN_FILE] = "file",
        [SD_ORIGIN_IMPLICIT] = "implicit",
        [SD_ORIGIN_DEFAULT] = "default",
        [SD_ORIGIN_UDEV] = "udev",
        [SD_ORIGIN_PATH] = "path",
        [SD_ORIGIN_MOUNT_FILE] = "mount-file",
        [SD_ORIGIN_MOUNTINFO] = "mountinfo",
        [SD_ORIGIN_PROC_SWAP] = "proc-swap",
        [SD_ORIGIN_SLICE_PROPERTY] = "slice-property",
};

const char *dep_type_to_string(DepType t) {
        return t >= 0 && t < _DEP_TYPE_MAX ? dep_type_table[t] : NULL;
}

DepType dep_type_from_string(const char *s) {
        int i = s ? string_table_lookup(dep_type_table, ELEMENTSOF(dep_type_table), s) : -EINVAL;
        return i < 0 ? _DEP_TYPE_INVALID : (DepType) i;
}

DepType dep_type_from_key(const char *key) {
        static const struct {
                const char *key;
                DepType type;
        } old[] = {
                { "BindTo", DEP_BINDS_TO },
                { "RequiresOverridable", DEP_REQUIRES },
                { "RequisiteOverridable", DEP_REQUISITE },
                { "PropagateReloadTo", DEP_PROPAGATES_RELOAD_TO },
                { "PropagateReloadFrom", DEP_RELOAD_PROPAGATED_FROM },
        };
        DepType t = dep_type_from_string(key);

        if (t >= 0)
                return t == DEP_TRIGGERS || t == DEP_TRIGGERED_BY ? _DEP_TYPE_INVALID : t; /* not unit-file keys */
        for (size_t i = 0; key && i < ELEMENTSOF(old); i++)
                if (streq(key, old[i].key))
                        return old[i].type;
        return _DEP_TYPE_INVALID;
}

int dep_type_mask_from_string(const char *s, unsigned *ret) {
        unsigned mask = 0;

        while (s && *s) {
                char w[32];
                size_t l;
                DepType t;

                s += strspn(s, " \t\n");
                l = strcspn(s, " \t\n");
                if (l == 0)
                        break;
                if (l >= sizeof(w))
                        return -EINVAL;
                memcpy(w, s, l);
                w[l] = 0;
                s += l;
                t = dep_type_from_string(w);
                if (t < 0)
                        return -EINVAL;
                mask |= DEP_MASK(t);
        }
        if (mask == 0)
                return -EINVAL;
        *ret = mask;
        return 0;
}

const char *sd_origin_to_string(SdOrigin o) {
        return o >= 0 && o < _SD_ORIGIN_MAX ? sd_origin_table[o] : NULL;
}

SdOrigin sd_origin_from_string(const char *s) {
        int i = s ? string_table_lookup(sd_origin_table, ELEMENTSOF(sd_origin_table), s) : -EINVAL;
        return i < 0 ? _SD_ORIGIN_INVALID : (SdOrigin) i;
}
