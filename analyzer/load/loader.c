/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The loader (loader.h): the name map of a search path (every unit name, alias and link), and loading a unit
 * from it with its drop-ins and dependency links. Finding those directories is loader-dirs.c's. */

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>

#include "load/loader-internal.h"
#include "load/prefetch.h"
#include "load/search-path.h"
#include "load/unit-file.h"

#define ALIAS_HOPS_MAX 32

static void name_entry_free(NameEntry *e) {
        if (!e)
                return;
        if (!e->name_in_path)
                free(e->name);
        free(e->path);
        free(e->link);
        free(e->alias);
        free(e);
}

Loader *loader_free(Loader *l) {
        if (!l)
                return NULL;
        for (size_t i = 0; i < l->n_dirs; i++) {
                free(l->dirs[i].path);
                free(l->dirs[i].resolved);
                HASHMAP_FOREACH_ENTRY(e, &l->dirs[i].name_set)
                        free(e->value); /* the key */
                hashmap_done(&l->dirs[i].name_set);
        }
        free(l->dirs);
        HASHMAP_FOREACH_ENTRY(e, &l->ids)
                name_entry_free(e->value);
        hashmap_done(&l->ids);
        HASHMAP_FOREACH_ENTRY(e, &l->rnames) {
                NameList *nl = e->value;
                free(nl->key);
                strv_free(nl->names);
                free(nl);
        }
        hashmap_done(&l->rnames);
        root_free(l->host);
        free(l);
        return NULL;
}

static int add_dir(Loader *l, const Root *root, const char *path, bool extra, DiagList *diags) {
        _cleanup_(freep) char *resolved = NULL, *p = NULL;
        UnitDir *n;
        int r;

        r = root_chase(root, path, 0, &resolved, NULL);
        if (r == -ELOOP) {
                _cleanup_(freep) char *d = root_display_path(root, path);
                (void) diag_add(diags, DIAG_WARNING, d, 0, "symlink loop, directory ignored");
        }
        if (r < 0)
                resolved = NULL;
        else {
                /* a directory reached twice (merged /usr: /lib -> usr/lib) is searched once, at its first place */
                for (size_t i = 0; i < l->n_dirs; i++)
                        if (l->dirs[i].root == root && streq_ptr(l->dirs[i].resolved, resolved))
                                return 0;
        }
        p = strdup(path);
        if (!p)
                return -ENOMEM;
        n = realloc(l->dirs, sizeof(UnitDir) * (l->n_dirs + 1));
        if (!n)
                return -ENOMEM;
        l->dirs = n;
        l->dirs[l->n_dirs++] = (UnitDir) {
                .root = root,
                .path = TAKE_PTR(p),
                .resolved = TAKE_PTR(resolved),
                .extra = extra,
        };
        return 0;
}

/* Is the in-root path inside one of the search directories (by listed or resolved name), as a direct child? */
static bool in_search_path(const Loader *l, const char *path) {
        for (size_t i = 0; i < l->n_dirs; i++) {
                const char *cands[2] = { l->dirs[i].path, l->dirs[i].resolved };
                for (size_t k = 0; k < 2; k++) {
                        const char *t;
                        if (!cands[k])
                                continue;
                        t = startswith(path, cands[k]);
                        if (t && t[0] == '/' && t[1] && !strchr(t + 1, '/'))
                                return true;
                }
        }
        return false;
}

/* systemd accepts an alias symlink only between names of the same type, template to template and instance to
 * instance with the same instance. */
static bool alias_is_valid(const char *src, const char *dst) {
        _cleanup_(freep) char *si = NULL, *di = NULL;

        if (unit_name_to_type(src) != unit_name_to_type(dst))
                return false;
        if (unit_name_is_valid(src, UNIT_NAME_TEMPLATE) != unit_name_is_valid(dst, UNIT_NAME_TEMPLATE))
                return false;
        if (unit_name_to_instance(src, &si) < 0 || unit_name_to_instance(dst, &di) < 0)
                return false;
        return streq(strempty(si), strempty(di));
}

static int add_symlink_entry(Loader *l, size_t dir_index, const char *name, const char *link, NameEntry *e,
                             DiagList *diags) {
        const UnitDir *d = &l->dirs[dir_index];
        _cleanup_(freep) char *target = NULL, *abs = NULL, *simplified = NULL, *disp = NULL;
        int r;

        r = root_readlink(d->root, link, &target);
        if (r < 0)
                return r;
        abs = target[0] == '/' ? strdup(target) : path_join(d->path, target);
        if (!abs)
                return -ENOMEM;
        /* resolve "." and ".." and directories on the way, not the link target itself */
        r = root_chase(d->root, abs, CHASE_NOFOLLOW_LAST | CHASE_NONEXISTENT, &simplified, NULL);
        if (r < 0) {
                disp = root_display_path(d->root, link);
                (void) diag_add(diags, DIAG_WARNING, disp, 0, "cannot resolve symlink to %s: %s, ignored", target,
                                strerror(-r));
                return 0; /* ignored like systemd does */
        }
        e->link = strdup(link);
        if (!e->link)
                return -ENOMEM;

        if (in_search_path(l, simplified) && !streq(path_basename(simplified), name)) {
                const char *dst = path_basename(simplified);
                if (!unit_name_is_valid(dst, UNIT_NAME_ANY) || !alias_is_valid(name, dst)) {
                        disp = root_display_path(d->root, link);
                        (void) diag_add(diags, DIAG_WARNING, disp, 0,
                                        "invalid alias symlink %s -> %s (names must be of the same type and kind), "
                                        "ignored",
                                        name, dst);
                        return 0;
                }
                e->alias = strdup(dst);
                if (!e->alias)
                        return -ENOMEM;
                return 1;
        }
        /* a linked unit (or a mask): loaded through the link itself */
        e->path = strdup(link);
        if (!e->path)
                return -ENOMEM;
        e->linked = true;
        return 1;
}

/* A directory's listing while the name map is built; its names are taken by name_set and name entries, and what
 * is left is freed (a large tree lists 100k names: the loader does not keep them twice). */
typedef struct Listing {
        char **names;
        unsigned char *types; /* d_type of each */
        size_t n;
} Listing;

static void listing_done(Listing *x) {
        for (size_t k = 0; k < x->n; k++)
                free(x->names[k]); /* holes where a name was taken */
        free(x->names);
        free(x->types);
}

static int build_name_map(Loader *l, DiagList *diags) {
        int r;

        for (size_t i = 0; i < l->n_dirs; i++) {
                UnitDir *d = &l->dirs[i];

                _cleanup_(listing_done) Listing ls = {};

                if (!d->resolved)
                        continue;
                r = root_list_dir_types(d->root, d->path, &ls.names, &ls.types);
                d->listed = r >= 0;
                ls.n = r >= 0 ? strv_length(ls.names) : 0;
                for (size_t k = 0; k < ls.n; k++) {
                        int s = loader_dir_suffix_index(ls.names[k]), q;
                        if (s < 0)
                                continue;
                        q = hashmap_put(&d->name_set, ls.names[k], ls.names[k]);
                        if (q == -ENOMEM)
                                return -ENOMEM;
                        if (q < 0)
                                continue;
                        d->n_dir_suffix[s]++;
                        ls.names[k] = NULL; /* the set's now */
                }
                if (r == -ENOENT || r == -ENOTDIR)
                        continue;
                if (r < 0) {
                        _cleanup_(freep) char *disp = root_display_path(d->root, d->path);
                        (void) diag_add(diags, DIAG_WARNING, disp, 0, "cannot list directory: %s", strerror(-r));
                        continue;
                }
                for (size_t k = 0; k < ls.n; k++) {
                        _cleanup_(freep) char *p = NULL;
                        char **n = &ls.names[k];
                        NameEntry *e;
                        int t;

                        if (!*n || !unit_name_is_valid(*n, UNIT_NAME_ANY))
                                continue;
                        if (hashmap_get(&l->ids, *n))
                                continue; /* a higher-priority directory has it */
                        p = path_join(d->path, *n);
                        if (!p)
                                return -ENOMEM;
                        /* the listing's type, if it gives one of these; else a look at the entry itself */
                        t = ls.types[k];
                        if (t != DT_REG && t != DT_LNK && t != DT_DIR)
                                t = root_entry_type(d->root, p);
                        if (t == DT_UNKNOWN) {
                                /* systemd skips FIFOs, devices and sockets silently; say so */
                                _cleanup_(freep) char *disp = root_display_path(d->root, p);
                                (void) diag_add(diags, DIAG_WARNING, disp, 0,
                                                "not a regular file or symlink (FIFO, device or socket), ignored");
                        }
                        if (t != DT_REG && t != DT_LNK)
                                continue;
                        e = calloc(1, sizeof(NameEntry));
                        if (!e)
                                return -ENOMEM;
                        e->dir = i;
                        if (t == DT_REG) {
                                /* the name is the end of the path: one allocation for both */
                                e->path = TAKE_PTR(p);
                                e->name = e->path + strlen(e->path) - strlen(*n);
                                e->name_in_path = true;
                        } else {
                                e->name = TAKE_PTR(*n); /* the listing's copy */
                                r = add_symlink_entry(l, i, e->name, p, e, diags);
                                if (r <= 0) {
                                        name_entry_free(e);
                                        if (r < 0 && r != -ENOMEM)
                                                continue;
                                        if (r < 0)
                                                return r;
                                        continue;
                                }
                        }
                        r = hashmap_put(&l->ids, e->name, e);
                        if (r < 0) {
                                name_entry_free(e);
                                return r;
                        }
                }
        }
        return 0;
}

/* Follows aliases to the entry that has a file. Returns NULL when the chain ends nowhere or loops. */
static const NameEntry *ids_get(const Loader *l, const char *name) {
        const NameEntry *e = hashmap_get(&l->ids, name);

        for (unsigned hops = 0; e && e->alias; hops++) {
                if (hops >= ALIAS_HOPS_MAX)
                        return NULL;
                e = hashmap_get(&l->ids, e->alias);
        }
        return e;
}

static int entry_is_mask(const Loader *l, const NameEntry *e) {
        return root_null_or_empty(l->dirs[e->dir].root, e->path);
}

static bool is_own_name(const char *name, const NameEntry *fin) {
        return streq(path_basename(fin->path), name) && !unit_name_is_valid(name, UNIT_NAME_TEMPLATE);
}

static int build_reverse_names(Loader *l) {
        HASHMAP_FOREACH_ENTRY(he, &l->ids) {
                const NameEntry *src = he->value, *fin = ids_get(l, src->name);
                _cleanup_(freep) char *dst = NULL, *inst = NULL;
                NameList *nl;

                if (!fin)
                        continue;
                /* a name that leads to a file of its own name (most names) would only list itself: add_names()
                 * knows that without a list, and without asking whether the file is a mask */
                if (is_own_name(src->name, fin))
                        continue;
                if (entry_is_mask(l, fin) != 0)
                        continue;
                dst = strdup(path_basename(fin->path));
                if (!dst)
                        return -ENOMEM;
                /* a symlink from an instance to a template aliases just that instance */
                if (unit_name_is_valid(dst, UNIT_NAME_TEMPLATE)) {
                        if (unit_name_to_instance(src->name, &inst) < 0)
                                continue;
                        if (!isempty(inst)) {
                                char *di = NULL;
                                if (unit_name_replace_instance(dst, inst, &di) < 0)
                                        continue;
                                free(dst);
                                dst = di;
                        }
                }
                nl = hashmap_get(&l->rnames, dst);
                if (!nl) {
                        nl = calloc(1, sizeof(NameList));
                        if (!nl)
                                return -ENOMEM;
                        nl->key = TAKE_PTR(dst);
                        if (hashmap_put(&l->rnames, nl->key, nl) < 0) {
                                free(nl->key);
                                free(nl);
                                return -ENOMEM;
                        }
                }
                if (strv_extend_unique(&nl->names, src->name) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int loader_new(const LoaderOptions *opts, Loader **ret, DiagList *diags) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(strv_freep) char **sp = NULL;
        int r;

        if (!opts->features)
                return -EINVAL;
        l = calloc(1, sizeof(Loader));
        if (!l)
                return -ENOMEM;
        l->opts = *opts;
        l->features = *opts->features;
        l->opts.features = &l->features;
        hashmap_init(&l->ids);
        hashmap_init(&l->rnames);

        /* directories given on the command line are the host's */
        r = root_open("/", &l->host);
        if (r < 0)
                return r;
        if (!l->opts.root)
                l->opts.root = l->host;

        STRV_FOREACH(d, opts->extra_dirs) {
                r = add_dir(l, l->host, *d, true, diags);
                if (r < 0)
                        return r;
        }
        STRV_FOREACH(d, opts->package_dirs) {
                r = add_dir(l, opts->package_root, *d, true, diags);
                if (r < 0)
                        return r;
        }
        if (!opts->no_search_path) {
                r = search_path_for(&l->features, &sp);
                if (r < 0)
                        return r;
        }
        STRV_FOREACH(d, sp) {
                /* generators do not run offline: their output, when we made it, stands in for theirs */
                if (opts->generator_dir && streq(*d, "/run/systemd/generator"))
                        r = add_dir(l, l->host, opts->generator_dir, false, diags);
                else
                        r = add_dir(l, l->opts.root, *d, false, diags);
                if (r < 0)
                        return r;
        }
        r = build_name_map(l, diags);
        if (r < 0)
                return r;
        r = build_reverse_names(l);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(l);
        return 0;
}

char **loader_search_path(const Loader *l) {
        char **r = calloc(1, sizeof(char *));
        if (!r)
                return NULL;
        for (size_t i = 0; i < l->n_dirs; i++) {
                char *p = root_display_path(l->dirs[i].root, l->dirs[i].path);
                if (strv_push(&r, p) < 0)
                        return strv_free(r);
        }
        return r;
}

int loader_list_names(const Loader *l, char ***ret) {
        _cleanup_(strv_freep) char **names = calloc(hashmap_size(&l->ids) + 1, sizeof(char *));
        size_t n = 0;

        if (!names)
                return -ENOMEM;
        HASHMAP_FOREACH_ENTRY(e, &l->ids)
                if (!(names[n++] = strdup(e->key)))
                        return -ENOMEM;
        strv_sort(names);
        *ret = TAKE_PTR(names);
        return 0;
}

/* ---- names of a unit (systemd's add_names / unit_file_find_fragment) */

static int add_names(const Loader *l, const char *unit_name, const char *fragment_basename, bool is_template,
                     const char *instance, char ***names, const char *name) {
        const NameList *nl = hashmap_get(&l->rnames, name);
        char **aliases = nl ? nl->names : NULL;

        if (!is_template) {
                if (strv_extend_unique(names, name) < 0)
                        return -ENOMEM;
        } else if (!unit_name_is_valid(name, UNIT_NAME_TEMPLATE)) {
                /* the name's own entry, which build_reverse_names() leaves out of the list */
                const NameEntry *fin = ids_get(l, name);
                if (fin && is_own_name(name, fin) && entry_is_mask(l, fin) == 0 &&
                    strv_extend_unique(names, name) < 0)
                        return -ENOMEM;
        }
        STRV_FOREACH(a, aliases) {
                if (instance && unit_name_is_valid(*a, UNIT_NAME_TEMPLATE)) {
                        _cleanup_(freep) char *inst = NULL;
                        const NameEntry *ie;

                        if (unit_name_replace_instance(*a, instance, &inst) < 0)
                                continue;
                        /* an instance that has a fragment of its own elsewhere is not our alias */
                        ie = ids_get(l, inst);
                        if (ie && fragment_basename && !streq(path_basename(ie->path), fragment_basename))
                                continue;
                        if (strv_extend_unique(names, inst) < 0)
                                return -ENOMEM;
                } else if (strv_extend_unique(names, *a) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* ---- reading one file into the unit */

#define UNIT_FILE_SIZE_MAX (64u << 20) /* bigger is not a unit file; systemd reads lines up to 1 MiB */

static int add_source(Unit *u, const char *display, bool dropin, bool masked, size_t *ret_index) {
        Source *n = realloc(u->sources, sizeof(Source) * (u->n_sources + 1));
        /* the fragment's path is the unit's fragment_path: one string for both (a large tree has 100k) */
        bool shared = !dropin && u->fragment_path && streq(display, u->fragment_path);

        if (!n)
                return -ENOMEM;
        u->sources = n;
        u->sources[u->n_sources] = (Source) {
                .path = shared ? u->fragment_path : strdup(display),
                .dropin = dropin,
                .masked = masked,
                .shared = shared,
        };
        if (!u->sources[u->n_sources].path)
                return -ENOMEM;
        *ret_index = u->n_sources++;
        return 0;
}

#define INCLUDE_DEPTH_MAX 8

/* A unit file opened for reading, with what fstat() said of it. */
typedef struct OpenedFile {
        int fd;
        struct stat st;
} OpenedFile;

static void opened_file_done(OpenedFile *f) {
        closep(&f->fd);
}

/* Reads the file at path into u: from opened (an fd of it with its stat, which this takes over), else opened here. */
static int read_into_unit_depth(const Loader *l, Unit *u, const Root *root, const char *path, OpenedFile *opened,
                                bool dropin, unsigned depth, DiagList *diags) {
        _cleanup_(closep) int fd = opened ? TAKE_FD(opened->fd) : -EBADF;
        _cleanup_(freep) char *data = NULL, *display = NULL;
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        const char *sections[] = { "Unit", rules_type_section(u->type), "Install", NULL };
        struct stat st;
        ParseOptions po = { .features = &l->features };
        size_t size, src;
        int r = 0, refused;

        display = root_display_path(root, path);
        if (!display)
                return -ENOMEM;
        if (fd >= 0)
                st = opened->st;
        else
                r = root_open_file_stat(root, path, &fd, NULL, &st);
        if (r >= 0)
                r = read_full_fd_stat(fd, &st, UNIT_FILE_SIZE_MAX, &data, &size);
        if (r < 0) {
                const char *why = r == -EFBIG  ? "file too large to be a unit file"
                                  : r == -EBADFD ? "not a regular file (FIFO, device or socket)"
                                  : r == -ELOOP  ? "symlink loop"
                                                 : strerror(-r);
                if (depth > 0 && r == -ENOENT)
                        return 0; /* a missing .include file is silently ignored */
                (void) diag_add(diags, DIAG_ERROR, display, 0, "cannot read: %s", why);
                return r == -ENOMEM ? r : -EIO;
        }
        /* unknown sections are skipped with a warning while parsing, as systemd does (a line without '=' in
         * one does not fail the file before 243) */
        if (!sections[1]) {
                sections[1] = "Install";
                sections[2] = NULL;
        }
        po.sections = sections;
        /* a refused file still gives the assignments before the line that refused it: systemd's config_parse()
         * has read them, and warned about their keys and values, before it gave up. The unit is an error, so
         * nothing else reads them. */
        refused = unit_file_parse(display, data, size, &po, &f, diags);
        if (refused == -ENOMEM)
                return refused;
        if (!f)
                return -EBADMSG;
        r = add_source(u, display, dropin, false, &src);
        if (r < 0)
                return r;
        u->sources[src].included = depth > 0;
        u->sources[src].refused = refused < 0;
        u->sources[src].pool = TAKE_PTR(f->pool); /* the settings below point into it */
        r = source_ignores_parse(data, size, &u->sources[src].ignores, &u->sources[src].n_ignores);
        if (r < 0)
                return r;
        for (size_t i = 0; i < f->n_assignments; i++) {
                Assignment *a = &f->assignments[i];

                if (streq(a->key, UNIT_FILE_INCLUDE_KEY)) {
                        _cleanup_(freep) char *dir = NULL, *inc = NULL;

                        /* .include (systemd <= 245): another file's lines, spliced in here; fragments only */
                        if (dropin) {
                                (void) diag_add(diags, DIAG_WARNING, display, a->line,
                                                ".include not allowed in drop-ins, ignored");
                                continue;
                        }
                        if (depth >= INCLUDE_DEPTH_MAX) {
                                (void) diag_add(diags, DIAG_ERROR, display, a->line,
                                                ".include nested too deeply (a loop?)");
                                return -EBADMSG;
                        }
                        if (!path_is_absolute(a->value)) {
                                const char *slash = strrchr(path, '/');
                                dir = slash && slash != path ? strndup_safe(path, slash - path) : strdup("/");
                                if (!dir)
                                        return -ENOMEM;
                                inc = path_join(dir, a->value);
                        } else
                                inc = strdup(a->value);
                        if (!inc)
                                return -ENOMEM;
                        r = read_into_unit_depth(l, u, root, inc, NULL, false, depth + 1, diags);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (!a->section)
                        continue;
                if (GREEDY_REALLOC(u->settings, u->allocated_settings, u->n_settings + 1) < 0)
                        return -ENOMEM;
                u->settings[u->n_settings++] = (Setting) {
                        .section = a->section, .key = a->key, .value = a->value,
                        .source = (uint32_t) src, .line = a->line,
                };
        }
        return refused < 0 ? -EBADMSG : 0;
}

static int read_into_unit(const Loader *l, Unit *u, const Root *root, const char *path, OpenedFile *opened,
                          bool dropin, DiagList *diags) {
        return read_into_unit_depth(l, u, root, path, opened, dropin, 0, diags);
}

/* Is the unit file at path a mask (1), or not (0, and if it could be opened as a regular file, it is open in
 * *ret for read_into_unit())? One open and one fstat() answer both for a regular file: it is a mask when empty,
 * or when it is the tree's own /dev/null. Whatever else (a symlink to /dev/null that dangles in the tree, a
 * device, a FIFO, a missing target) root_null_or_empty() decides, and its error is returned. */
static int open_unless_mask(const Root *root, const char *path, OpenedFile *ret) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *resolved = NULL;
        struct stat st;
        int m;

        *ret = (OpenedFile) { .fd = -EBADF };
        if (root_open_file_stat(root, path, &fd, &resolved, &st) >= 0) {
                if (st.st_size == 0 || streq(resolved, "/dev/null"))
                        return 1;
                *ret = (OpenedFile) { .fd = TAKE_FD(fd), .st = st };
                return 0;
        }
        m = root_null_or_empty(root, path);
        return m > 0 ? 1 : m;
}

static bool fragment_required(UnitType t) {
        /* mount, swap, slice, scope and device units also exist without a file (mountinfo, kernel, manager) */
        return !(t == UNIT_MOUNT || t == UNIT_SWAP || t == UNIT_SLICE || t == UNIT_SCOPE || t == UNIT_DEVICE);
}

static int load_links(const Loader *l, Unit *u, DiagList *diags) {
        _cleanup_(freep) char *instance = NULL;
        int r;

        if (unit_name_to_instance(u->id, &instance) < 0 || isempty(instance))
                instance = mfree(instance);
        for (LinkKind k = 0; k < _LINK_KIND_MAX; k++) {
                _cleanup_(found_dirs_done) FoundDirs dirs = {};
                ConfFile *files = NULL;
                size_t n = 0;

                if (k == LINK_UPHOLDS && !loader_has(l, FEATURE_UPHOLDS_DIRS))
                        continue;
                r = loader_collect_dirs(l, u->names, link_kind_dir_suffix(k), false, &dirs, diags);
                if (r < 0)
                        return r;
                r = loader_list_conf_files(&dirs, NULL, &files, &n);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < n; i++) {
                        _cleanup_(freep) char *display = root_display_path(files[i].root, files[i].path),
                                             *target = NULL, *name = NULL;
                        DirLink *nl;
                        int masked;

                        if (!display) {
                                conf_files_free(files, n);
                                return -ENOMEM;
                        }
                        if (!unit_name_is_valid(files[i].name, UNIT_NAME_ANY)) {
                                (void) diag_add(diags, DIAG_WARNING, display, 0,
                                                "%s dependency is not a valid unit name, ignored",
                                                link_kind_to_string(k));
                                continue;
                        }
                        if (unit_name_is_valid(files[i].name, UNIT_NAME_TEMPLATE)) {
                                if (!instance) {
                                        (void) diag_add(diags, DIAG_WARNING, display, 0,
                                                        "%s dependency on a template in a non-instance unit's "
                                                        "directory, ignored",
                                                        link_kind_to_string(k));
                                        continue;
                                }
                                if (unit_name_replace_instance(files[i].name, instance, &name) < 0)
                                        continue;
                        } else if (!(name = strdup(files[i].name))) {
                                conf_files_free(files, n);
                                return -ENOMEM;
                        }
                        masked = root_null_or_empty(files[i].root, files[i].path);
                        if (root_entry_type(files[i].root, files[i].path) == DT_LNK) {
                                if (root_readlink(files[i].root, files[i].path, &target) >= 0 &&
                                    !streq(path_basename(target), files[i].name) && masked <= 0)
                                        (void) diag_add(diags, DIAG_NOTICE, display, 0,
                                                        "symlink name %s differs from its target %s; the name "
                                                        "is the dependency",
                                                        files[i].name, target);
                        } else
                                (void) diag_add(diags, DIAG_WARNING, display, 0,
                                                "%s dependency is not a symlink, used anyway",
                                                link_kind_to_string(k));
                        nl = realloc(u->links, sizeof(DirLink) * (u->n_links + 1));
                        if (!nl) {
                                conf_files_free(files, n);
                                return -ENOMEM;
                        }
                        u->links = nl;
                        u->links[u->n_links++] = (DirLink) {
                                .kind = k,
                                .name = TAKE_PTR(name),
                                .path = TAKE_PTR(display),
                                .target = TAKE_PTR(target),
                                .masked = masked > 0,
                        };
                }
                conf_files_free(files, n);
        }
        return 0;
}

static int load_dropins(const Loader *l, Unit *u, DiagList *diags) {
        _cleanup_(found_dirs_done) FoundDirs dirs = {};
        ConfFile *files = NULL;
        size_t n = 0;
        int r;

        r = loader_collect_dirs(l, u->names, ".d", true, &dirs, diags);
        if (r < 0)
                return r;
        r = loader_list_conf_files(&dirs, ".conf", &files, &n);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++) {
                _cleanup_(opened_file_done) OpenedFile of = { .fd = -EBADF };
                int m = open_unless_mask(files[i].root, files[i].path, &of);
                if (m > 0) {
                        /* read like any drop-in (systemd lists it too), it just has nothing in it */
                        _cleanup_(freep) char *d = root_display_path(files[i].root, files[i].path);
                        size_t idx;
                        if (!d || add_source(u, d, true, true, &idx) < 0) {
                                r = -ENOMEM;
                                break;
                        }
                        continue;
                }
                r = read_into_unit(l, u, files[i].root, files[i].path, &of, true, diags);
                if (r == -ENOMEM)
                        break;
                if (r < 0 && u->load_state == LOAD_LOADED) {
                        u->load_state = LOAD_ERROR;
                        u->load_error = r;
                }
                r = 0;
        }
        conf_files_free(files, n);
        return r;
}

static int load_unit(const Loader *l, const char *name, char * const *also, bool identify_only, Unit **ret,
                     DiagList *diags) {
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(freep) char *instance = NULL, *template = NULL;
        const NameEntry *frag;
        bool is_template;
        int r;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        u = calloc(1, sizeof(Unit));
        if (!u)
                return -ENOMEM;
        u->id = strdup(name);
        if (!u->id)
                return -ENOMEM;
        u->type = unit_name_to_type(name);
        u->load_state = LOAD_LOADED;
        r = unit_name_to_instance(name, &instance);
        if (r < 0)
                return r;
        if (isempty(instance))
                instance = mfree(instance); /* a template's empty instance is no instance */
        is_template = unit_name_is_valid(name, UNIT_NAME_TEMPLATE);

        r = add_names(l, name, NULL, is_template, instance, &u->names, name);
        if (r < 0)
                return r;
        frag = ids_get(l, name);
        if (!frag && hashmap_get(&l->ids, name)) {
                /* the name exists but its alias chain goes nowhere: a loop, or an alias of a missing unit */
                const NameEntry *e = hashmap_get(&l->ids, name), *x = e;
                _cleanup_(freep) char *d = root_display_path(l->dirs[e->dir].root, e->link ?: e->name);
                unsigned hops = 0;

                while (x && x->alias && hops++ < ALIAS_HOPS_MAX)
                        x = hashmap_get(&l->ids, x->alias);
                if (x) {
                        (void) diag_add(diags, DIAG_ERROR, d, 0, "alias symlink loop starting at %s -> %s", name,
                                        strna(e->alias));
                        u->load_state = LOAD_ERROR;
                        u->load_error = -ELOOP;
                } else {
                        (void) diag_add(diags, DIAG_ERROR, d, 0, "alias %s -> %s: no such unit", name,
                                        strna(e->alias));
                        u->load_state = LOAD_NOT_FOUND;
                        u->load_error = -ENOENT;
                }
                *ret = TAKE_PTR(u);
                return 0;
        }
        if (!frag && instance) {
                r = unit_name_template(name, &template);
                if (r < 0)
                        return r;
                frag = ids_get(l, template);
        }
        if (frag && !streq(path_basename(frag->path), name)) {
                r = add_names(l, name, path_basename(frag->path), is_template, instance, &u->names,
                              path_basename(frag->path));
                if (r < 0)
                        return r;
        }
        if (is_template && !strv_contains(u->names, name) && strv_extend(&u->names, name) < 0)
                return -ENOMEM;
        /* an instance takes template names with its own instance (systemd's unit_add_name) */
        if (instance) {
                _cleanup_(strv_freep) char **fixed = NULL;
                STRV_FOREACH(n, u->names) {
                        _cleanup_(freep) char *in = NULL;
                        if (unit_name_is_valid(*n, UNIT_NAME_TEMPLATE)) {
                                if (unit_name_replace_instance(*n, instance, &in) < 0)
                                        return -ENOMEM;
                        } else if (!(in = strdup(*n)))
                                return -ENOMEM;
                        if (strv_extend_unique(&fixed, in) < 0)
                                return -ENOMEM;
                }
                strv_free(u->names);
                u->names = TAKE_PTR(fixed);
        }
        /* loaded through an alias, the unit goes by its fragment's name (with our instance) */
        if (frag && !frag->linked && !is_template) {
                _cleanup_(freep) char *main_name = NULL;
                const char *fb = path_basename(frag->path);
                if (instance && unit_name_is_valid(fb, UNIT_NAME_TEMPLATE)) {
                        if (unit_name_replace_instance(fb, instance, &main_name) < 0)
                                return -ENOMEM;
                } else if (!(main_name = strdup(fb)))
                        return -ENOMEM;
                if (strv_contains(u->names, main_name))
                        unit_set_id(u, TAKE_PTR(main_name));
        }
        for (char * const *a = also; a && *a; a++)
                if (strv_extend_unique(&u->names, *a) < 0)
                        return -ENOMEM;
        name = u->id;
        /* id first, the other names sorted */
        {
                size_t n = strv_length(u->names);
                for (size_t i = 0; i < n; i++)
                        if (streq(u->names[i], name)) {
                                char *t = u->names[0];
                                u->names[0] = u->names[i];
                                u->names[i] = t;
                        }
                if (n > 1)
                        strv_sort(u->names + 1);
        }

        if (frag) {
                _cleanup_(opened_file_done) OpenedFile of = { .fd = -EBADF };
                const Root *root = l->dirs[frag->dir].root;
                const NameEntry *own = hashmap_get(&l->ids, name);
                int m = identify_only ? entry_is_mask(l, frag) : open_unless_mask(root, frag->path, &of);

                u->fragment_path = NULL;
                if (frag->linked && !loader_has(l, FEATURE_NAME_MAP_LINKED)) {
                        /* before the name map learned about linked units (v250), the fragment was the target */
                        _cleanup_(freep) char *target = NULL;
                        if (root_chase(root, frag->path, 0, &target, NULL) >= 0)
                                u->fragment_path = root_display_path(root, target);
                }
                if (!u->fragment_path)
                        u->fragment_path = root_display_path(root, frag->path);
                if (!u->fragment_path)
                        return -ENOMEM;
                if (own && own->link) {
                        u->fragment_link = root_display_path(l->dirs[own->dir].root, own->link);
                        if (!u->fragment_link)
                                return -ENOMEM;
                }
                u->linked = frag->linked;
                u->generated = search_path_is_generator(l->dirs[frag->dir].path);
                u->from_extra_dir = l->dirs[frag->dir].extra;
                if (m > 0) {
                        u->load_state = LOAD_MASKED;
                        *ret = TAKE_PTR(u);
                        return 0;
                }
                if (frag->linked && m == -ENOENT) {
                        /* a symlink leading outside the search path to nothing (inside the root) */
                        _cleanup_(freep) char *target = NULL;
                        (void) root_readlink(root, frag->path, &target);
                        (void) diag_add(diags, DIAG_ERROR, u->fragment_path, 0,
                                        "symlink to %s, which does not exist under the root", strna(target));
                        u->load_state = LOAD_NOT_FOUND;
                        u->load_error = -ENOENT;
                        *ret = TAKE_PTR(u);
                        return 0;
                }
                /* scope_load(): a scope is never loaded from a file (unit_verify() says so), so its file is not
                 * even read: systemd warns about nothing in it */
                r = identify_only || u->type == UNIT_SCOPE ? 0
                                                           : read_into_unit(l, u, root, frag->path, &of, false, diags);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        u->load_state = LOAD_ERROR;
                        u->load_error = r;
                }
        } else if (fragment_required(u->type) || is_template) {
                u->load_state = LOAD_NOT_FOUND;
                u->load_error = -ENOENT;
        }

        if (identify_only) {
                *ret = TAKE_PTR(u);
                return 0;
        }
        r = load_dropins(l, u, diags);
        if (r < 0)
                return r;
        r = load_links(l, u, diags);
        if (r < 0)
                return r;
        /* a large tree keeps every unit: give back what the growing array reserved */
        if (u->n_settings > 0 && u->allocated_settings > u->n_settings) {
                Setting *t = realloc(u->settings, sizeof(Setting) * u->n_settings);
                if (t) {
                        u->settings = t;
                        u->allocated_settings = u->n_settings;
                }
        }
        *ret = TAKE_PTR(u);
        return 0;
}

int loader_load(const Loader *l, const char *name, Unit **ret, DiagList *diags) {
        return load_unit(l, name, NULL, false, ret, diags);
}

int loader_load_also(const Loader *l, const char *name, char * const *also, Unit **ret, DiagList *diags) {
        return load_unit(l, name, also, false, ret, diags);
}

int loader_identify(const Loader *l, const char *name, Unit **ret, DiagList *diags) {
        return load_unit(l, name, NULL, true, ret, diags);
}

typedef struct IdentifyPart {
        const Loader *l;
        char * const *names;
        char **ids;
        size_t from, to;
        int r;
} IdentifyPart;

static void *identify_part(void *userdata) {
        IdentifyPart *p = userdata;

        for (size_t i = p->from; i < p->to && p->r >= 0; i++) {
                _cleanup_(unit_freep) Unit *u = NULL;
                int r = loader_identify(p->l, p->names[i], &u, NULL);
                if (r == -ENOMEM)
                        p->r = r;
                if (r < 0 || u->load_state == LOAD_MASKED || !u->fragment_path)
                        continue;
                p->ids[i] = strdup(u->id);
                if (!p->ids[i])
                        p->r = -ENOMEM;
        }
        return NULL;
}

int loader_identify_ids(const Loader *l, char * const *names, size_t n, char ***ret) {
        _cleanup_(freep) char **ids = calloc(n + 1, sizeof(char *));
        IdentifyPart a, b;
        pthread_t thread;
        bool two;

        if (!ids)
                return -ENOMEM;
        /* the second half on a thread of its own: the parts write to disjoint slots of ids */
        two = prefetch_wanted(n);
        a = (IdentifyPart) { .l = l, .names = names, .ids = ids, .from = 0, .to = two ? n / 2 : n };
        b = (IdentifyPart) { .l = l, .names = names, .ids = ids, .from = a.to, .to = n };
        if (two) {
                loader_freeze(l, true);
                if (pthread_create(&thread, NULL, identify_part, &b) != 0) {
                        loader_freeze(l, false);
                        two = false;
                        a.to = n;
                }
        }
        identify_part(&a);
        if (two) {
                pthread_join(thread, NULL);
                loader_freeze(l, false);
        }
        if (a.r < 0 || b.r < 0) {
                for (size_t i = 0; i < n; i++)
                        free(ids[i]);
                return -ENOMEM;
        }
        *ret = TAKE_PTR(ids);
        return 0;
}

void loader_freeze(const Loader *l, bool frozen) {
        for (size_t i = 0; i < l->n_dirs; i++)
                root_freeze(l->dirs[i].root, frozen); /* a root of several directories: more than once, alike */
}
