/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/search-path.h"

/* Each directory with the range of versions whose search path contains it, in priority order. The vendor
 * directories are listed as Debian/Ubuntu use them: /lib/systemd/system (the data dir up to bookworm), then
 * /usr/lib/systemd/system; on merged-/usr roots both resolve to one directory and the loader keeps the first,
 * under the name listed first (which is the name systemd reports). */
static const struct {
        const char *dir;
        Feature when; /* the version fact that puts it in the search path (rules/features.xml), or -1: always */
} search_path_table[] = {
        { "/etc/systemd/system.control", FEATURE_SEARCH_PATH_CONTROL },
        { "/run/systemd/system.control", FEATURE_SEARCH_PATH_CONTROL },
        { "/run/systemd/transient", FEATURE_SEARCH_PATH_TRANSIENT },
        { "/run/systemd/generator.early", _FEATURE_INVALID },
        { "/etc/systemd/system", _FEATURE_INVALID },
        { "/etc/systemd/system.attached", FEATURE_SEARCH_PATH_ATTACHED },
        { "/run/systemd/system", _FEATURE_INVALID },
        { "/run/systemd/system.attached", FEATURE_SEARCH_PATH_ATTACHED },
        { "/run/systemd/generator", _FEATURE_INVALID },
        { "/usr/local/lib/systemd/system", _FEATURE_INVALID },
        { "/lib/systemd/system", FEATURE_SEARCH_PATH_LIB },
        { "/usr/lib/systemd/system", _FEATURE_INVALID },
        { "/run/systemd/generator.late", _FEATURE_INVALID },
};

static int defaults(const FeatureSet *fs, char ***l) {
        for (size_t i = 0; i < ELEMENTSOF(search_path_table); i++) {
                if (search_path_table[i].when >= 0 && !feature_enabled(fs, search_path_table[i].when))
                        continue;
                if (strv_extend_unique(l, search_path_table[i].dir) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int search_path_for(const FeatureSet *fs, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        const char *e = getenv("SYSTEMD_UNIT_PATH");

        if (!isempty(e)) {
                _cleanup_(freep) char *copy = strdup(e);
                char *save = NULL;
                bool append = endswith(e, ":") != NULL;

                if (!copy)
                        return -ENOMEM;
                for (char *w = strtok_r(copy, ":", &save); w; w = strtok_r(NULL, ":", &save))
                        if (path_is_absolute(w) && strv_extend_unique(&l, w) < 0)
                                return -ENOMEM;
                if (append && defaults(fs, &l) < 0)
                        return -ENOMEM;
        } else if (defaults(fs, &l) < 0)
                return -ENOMEM;

        if (!l && !(l = calloc(1, sizeof(char *))))
                return -ENOMEM;
        *ret = TAKE_PTR(l);
        return 0;
}

bool search_path_is_generator(const char *dir) {
        return startswith(dir, "/run/systemd/generator") != NULL;
}

bool search_path_is_runtime(const char *dir) {
        return startswith(dir, "/run/") != NULL;
}
