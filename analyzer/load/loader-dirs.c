/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The drop-in and dependency directories of a unit (systemd's unit_file_find_dirs), looked up in the listings the
 * name map keeps, and the files in them (conf_files_list). */

#include <dirent.h>

#include "load/loader-internal.h"
#include "load/unit-file.h"

static const char * const dir_suffixes[4] = { ".d", ".wants", ".requires", ".upholds" };

/* Which of the four directory suffixes name ends with, or -1. */
int loader_dir_suffix_index(const char *name) {
        for (int i = 0; i < (int) ELEMENTSOF(dir_suffixes); i++)
                if (endswith(name, dir_suffixes[i]))
                        return i;
        return -1;
}

void found_dirs_done(FoundDirs *f) {
        for (size_t i = 0; i < f->n; i++)
                free(f->items[i].path);
        free(f->items);
}

static int found_dirs_add(FoundDirs *f, const Root *root, const char *path, DiagList *diags) {
        _cleanup_(freep) char *resolved = NULL;
        _cleanup_(closep) int fd = -EBADF;
        int r;

        r = root_chase(root, path, 0, &resolved, &fd);
        if (r == -ELOOP || r == -ENOTDIR || r == -EACCES) {
                _cleanup_(freep) char *d = root_display_path(root, path);
                (void) diag_add(diags, DIAG_WARNING, d, 0, "%s, directory ignored",
                                r == -ELOOP ? "symlink loop" : strerror(-r));
                return 0;
        }
        if (r < 0)
                return 0; /* missing: most units have no such directory */
        if (root_entry_type(root, resolved) != DT_DIR)
                return 0;
        for (size_t i = 0; i < f->n; i++)
                if (f->items[i].root == root && streq(f->items[i].path, resolved))
                        return 0;
        if (GREEDY_REALLOC(f->items, f->allocated, f->n + 1) < 0)
                return -ENOMEM;
        f->items[f->n++] = (FoundDir) { root, TAKE_PTR(resolved) };
        return 0;
}

/* Is entry (a name.d, .wants, .requires or .upholds directory) in the directory's listing? A directory that could
 * not be listed might have it. */
static bool dir_has_entry(const UnitDir *d, const char *entry) {
        if (!d->listed)
                return true;
        return hashmap_get(&d->name_set, entry);
}

static int find_dirs(const Loader *l, const UnitDir *d, const char *name, const char *suffix, FoundDirs *out,
                     unsigned depth, DiagList *diags) {
        _cleanup_(freep) char *prefix = NULL, *instance = NULL, *built = NULL;
        bool is_instance = unit_name_is_valid(name, UNIT_NAME_INSTANCE);
        char entry[UNIT_NAME_MAX + 16];
        int r;

        if (depth > 16)
                return 0;
        /* the directory was listed when the name map was built: most units have no such directory, and looking
         * it up in the listing is much cheaper than resolving the path (and than making it) */
        if (strlen(name) + strlen(suffix) >= sizeof entry)
                return 0; /* no unit name is that long */
        strcpy(stpcpy(entry, name), suffix);
        if (dir_has_entry(d, entry)) {
                _cleanup_(freep) char *path = strjoin(d->path, "/", entry);
                if (!path)
                        return -ENOMEM;
                r = found_dirs_add(out, d->root, path, diags);
                if (r < 0)
                        return r;
        }

        if (is_instance) {
                _cleanup_(freep) char *template = NULL;
                r = unit_name_template(name, &template);
                if (r < 0)
                        return r;
                r = find_dirs(l, d, template, suffix, out, depth + 1, diags);
                if (r < 0)
                        return r;
        }

        /* prefix drop-ins ("a-b-.service.d", "a-.service.d") exist from v239; a name without a dash has none */
        if (!loader_has(l, FEATURE_DROPIN_PREFIX_DIRS) || !strchr(name, '-'))
                return 0;
        if (unit_name_to_prefix(name, &prefix) < 0)
                return 0;
        {
                bool chopped = false;
                for (;;) {
                        char *dash = strrchr(prefix, '-');
                        size_t n;

                        if (!dash)
                                return 0;
                        n = (size_t) (dash - prefix);
                        if (n == 0)
                                return 0;
                        if (prefix[n + 1] != 0 || chopped) {
                                prefix[n + 1] = 0;
                                break;
                        }
                        prefix[n] = 0; /* a trailing dash is chopped once */
                        chopped = true;
                }
        }
        if (is_instance && unit_name_to_instance(name, &instance) < 0)
                return 0;
        {
                const char *type = unit_type_to_string(unit_name_to_type(name));
                if (!type)
                        return 0;
                built = instance ? strjoin(prefix, "@", instance, ".", type) : strjoin(prefix, ".", type);
                if (!built)
                        return -ENOMEM;
        }
        if (!unit_name_is_valid(built, UNIT_NAME_ANY))
                return 0;
        return find_dirs(l, d, built, suffix, out, depth + 1, diags);
}

int loader_collect_dirs(const Loader *l, char * const *names, const char *suffix, bool type_level,
                        FoundDirs *out, DiagList *diags) {
        int s = loader_dir_suffix_index(suffix), r;

        STRV_FOREACH(n, names)
                for (size_t i = 0; i < l->n_dirs; i++) {
                        if (!l->dirs[i].resolved)
                                continue;
                        /* a listed directory without a single directory of this kind: nothing to look up */
                        if (l->dirs[i].listed && s >= 0 && l->dirs[i].n_dir_suffix[s] == 0)
                                continue;
                        r = find_dirs(l, &l->dirs[i], *n, suffix, out, 0, diags);
                        if (r < 0)
                                return r;
                }
        /* type-level drop-ins ("service.d") come last, v244+: the most generic, overridden by the rest */
        if (type_level && loader_has(l, FEATURE_DROPIN_TYPE_DIRS) && names && names[0]) {
                const char *type = unit_type_to_string(unit_name_to_type(names[0]));
                for (size_t i = 0; type && i < l->n_dirs; i++) {
                        _cleanup_(freep) char *p = NULL;
                        if (!l->dirs[i].resolved)
                                continue;
                        p = strjoin(l->dirs[i].path, "/", type, suffix);
                        if (!p)
                                return -ENOMEM;
                        if (!dir_has_entry(&l->dirs[i], p + strlen(l->dirs[i].path) + 1))
                                continue;
                        r = found_dirs_add(out, l->dirs[i].root, p, diags);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

static int conf_file_cmp(const void *a, const void *b) {
        return strcmp(((const ConfFile *) a)->name, ((const ConfFile *) b)->name);
}

int loader_list_conf_files(const FoundDirs *dirs, const char *file_suffix, ConfFile **ret, size_t *ret_n) {
        ConfFile *files = NULL;
        size_t n = 0, allocated = 0;
        Hashmap seen;
        int r = 0;

        hashmap_init(&seen);
        for (size_t i = 0; i < dirs->n; i++) {
                _cleanup_(strv_freep) char **names = NULL;

                if (root_list_dir(dirs->items[i].root, dirs->items[i].path, &names) < 0)
                        continue;
                STRV_FOREACH(nm, names) {
                        if (file_suffix && !endswith(*nm, file_suffix))
                                continue;
                        if (hashmap_get(&seen, *nm))
                                continue;
                        if (GREEDY_REALLOC(files, allocated, n + 1) < 0) {
                                r = -ENOMEM;
                                goto finish;
                        }
                        files[n] = (ConfFile) {
                                .root = dirs->items[i].root,
                                .name = strdup(*nm),
                                .path = path_join(dirs->items[i].path, *nm),
                        };
                        if (!files[n].name || !files[n].path) {
                                free(files[n].name);
                                free(files[n].path);
                                r = -ENOMEM;
                                goto finish;
                        }
                        r = hashmap_put(&seen, files[n].name, &files[n]);
                        n++;
                        if (r < 0)
                                goto finish;
                }
        }
        if (n > 1)
                qsort_safe(files, n, sizeof(ConfFile), conf_file_cmp);
finish:
        hashmap_done(&seen);
        if (r < 0) {
                for (size_t i = 0; i < n; i++) {
                        free(files[i].name);
                        free(files[i].path);
                }
                free(files);
                return r;
        }
        *ret = files;
        *ret_n = n;
        return 0;
}

void conf_files_free(ConfFile *f, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(f[i].name);
                free(f[i].path);
        }
        free(f);
}
