/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/search-path.h"

/* Each directory with the range of versions whose search path contains it, in priority order. The vendor
 * directories are listed as Debian/Ubuntu use them: /lib/systemd/system (the data dir up to bookworm), then
 * /usr/lib/systemd/system; on merged-/usr roots both resolve to one directory and the loader keeps the first,
 * under the name listed first (which is the name systemd reports). */
static const struct {
        const char *dir;
        unsigned since, until; /* 0 = unbounded */
} search_path_table[] = {
        { "/etc/systemd/system.control", 230, 0 },
        { "/run/systemd/system.control", 230, 0 },
        { "/run/systemd/transient", 230, 0 },
        { "/run/systemd/generator.early", 0, 0 },
        { "/etc/systemd/system", 0, 0 },
        { "/etc/systemd/system.attached", 240, 0 },
        { "/run/systemd/system", 0, 0 },
        { "/run/systemd/system.attached", 240, 0 },
        { "/run/systemd/generator", 0, 0 },
        { "/usr/local/lib/systemd/system", 0, 0 },
        { "/lib/systemd/system", 0, 254 }, /* from 255 only on split-/usr images, which bootrace does not model */
        { "/usr/lib/systemd/system", 0, 0 },
        { "/run/systemd/generator.late", 0, 0 },
};

static int defaults(unsigned v, char ***l) {
        for (size_t i = 0; i < ELEMENTSOF(search_path_table); i++) {
                if (v && search_path_table[i].since && v < search_path_table[i].since)
                        continue;
                if (v && search_path_table[i].until && v > search_path_table[i].until)
                        continue;
                if (strv_extend_unique(l, search_path_table[i].dir) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int search_path_for_version(unsigned systemd, char ***ret) {
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
                if (append && defaults(systemd, &l) < 0)
                        return -ENOMEM;
        } else if (defaults(systemd, &l) < 0)
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
