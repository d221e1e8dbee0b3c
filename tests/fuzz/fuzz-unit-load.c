/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes loading a unit from a small tree: name map, aliases, drop-in merge in systemd's order, .wants
 * links, masks, .include, then the settings classification, unit_verify() and value expansion, at several
 * systemd versions. The input describes the tree (one scratch directory, emptied for every input):
 *
 *     lines of the fragment              etc/systemd/system/a-b@.service (the unit loaded is a-b@c.service)
 *     --- NAME                           a drop-in: etc/systemd/system/a-b@c.service.d/NAME
 *     --- DIR/PATH                       any file under the root (relative; no "." or ".." components)
 *     --- PATH -> TARGET                 a symlink (TARGET as written: absolute, relative, dangling, ...)
 *     --- PATH |                         a FIFO
 *
 * Invariants checked besides "no crash, no leak": every file read is shown under the root, and every setting
 * names a file that was read. FUZZ_DEBUG=1 prints what was loaded (to check that a seed builds what it
 * means). */

#include <fcntl.h>
#include <sys/stat.h>

#include "fuzz-util.h"
#include "fuzz.h"
#include "load/loader.h"
#include "load/unit-settings.h"
#include "load/unit-values.h"
#include "load/unit-verify.h"
#include "rules/rules.h"

#define ENTRIES_MAX 32
#define INPUT_MAX (64 * 1024)
#define SEP "--- "

static Rules *rules;

static void rules_release(void) {
        rules = rules_free(rules);
}

static void setup(void) {
        _cleanup_(diag_list_done) DiagList d = {};

        if (rules)
                return;
        unsetenv("SYSTEMD_UNIT_PATH");
        if (rules_load(fuzz_rules_dir(), &rules, &d) < 0) {
                diag_list_print(&d, stderr, DIAG_WARNING);
                fprintf(stderr, "fuzz: cannot load the rules from %s (set BOOTRACE_RULES_DIR)\n",
                        fuzz_rules_dir());
                abort();
        }
        atexit(rules_release);
}

/* Creates one entry of the tree. Bad entries (unsafe paths, duplicates) are skipped: not the point here. */
static void make_entry(int root_fd, const char *header, const char *body, size_t body_len) {
        _cleanup_(freep) char *path = NULL;
        _cleanup_(closep) int dfd = -EBADF, fd = -EBADF;
        const char *name, *arrow, *target = NULL;
        bool fifo = false;
        size_t l;

        arrow = strstr(header, " -> ");
        if (arrow) {
                path = strndup_safe(header, arrow - header);
                target = arrow + 4;
        } else if ((l = strlen(header)) >= 2 && streq(header + l - 2, " |")) {
                path = strndup_safe(header, l - 2);
                fifo = true;
        } else
                path = strdup(header);
        if (path && !strchr(path, '/')) {
                char *p = strjoin("etc/systemd/system/a-b@c.service.d/", path);
                free(path);
                path = p;
        }
        if (!path || strlen(path) > 512)
                return;

        dfd = fuzz_mkdir_parents(root_fd, path, &name);
        if (dfd < 0)
                return;
        if (target) {
                (void) symlinkat(target, dfd, name);
                return;
        }
        if (fifo) {
                (void) mkfifoat(dfd, name, 0644);
                return;
        }
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return;
        while (body_len > 0) {
                ssize_t k = write(fd, body, body_len);
                if (k <= 0)
                        abort(); /* a scratch directory we cannot write to is a broken setup */
                body += k;
                body_len -= (size_t) k;
        }
}

/* The next line at or after p (p is at the start of a line) that starts with SEP, or NULL. */
static const char *find_sep(const char *p, const char *end) {
        while (p && (size_t) (end - p) >= strlen(SEP)) {
                const char *nl;

                if (memcmp(p, SEP, strlen(SEP)) == 0)
                        return p;
                nl = memchr(p, '\n', end - p);
                p = nl ? nl + 1 : NULL;
        }
        return NULL;
}

/* Splits the input at lines starting with SEP and builds the tree. */
static void make_tree(int root_fd, const char *data, size_t size) {
        const char *end = data + size, *p = data;
        _cleanup_(freep) char *header = NULL;
        bool skip = false;

        for (unsigned n = 0;; n++) {
                const char *next = find_sep(p, end), *h, *nl;

                if (!skip && (header || next != p))
                        make_entry(root_fd, header ?: "etc/systemd/system/a-b@.service", p,
                                   (next ?: end) - p);
                if (!next || n >= ENTRIES_MAX)
                        break;
                h = next + strlen(SEP);
                nl = memchr(h, '\n', end - h);
                free(header);
                header = strndup_safe(h, (nl ?: end) - h);
                if (!header)
                        return;
                skip = memchr(h, 0, (nl ?: end) - h) != NULL; /* a NUL in the path: no entry */
                p = nl ? nl + 1 : end;
        }
}

static void check_unit(const Unit *u, const char *root_path) {
        for (size_t i = 0; i < u->n_sources; i++)
                if (!startswith(u->sources[i].path, root_path)) {
                        fprintf(stderr, "fuzz: read %s, outside the root %s\n", u->sources[i].path,
                                root_path);
                        abort();
                }
        for (size_t i = 0; i < u->n_settings; i++)
                if (u->settings[i].source >= u->n_sources)
                        abort();
}

static void load_one(Loader *l, const char *name, unsigned v, const char *root_path, DiagList *d) {
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(freep) SettingStatus *st = NULL;

        if (loader_load(l, name, &u, d) < 0)
                return;
        check_unit(u, root_path);
        if (unit_settings_classify(u, rules, v, &st, d) < 0)
                return;
        (void) unit_verify(u, st, fuzz_features(v), d);
        if (getenv("FUZZ_DEBUG")) {
                /* for writing seeds: what the tree became */
                fprintf(stderr, "systemd %u: %s (%s): %zu files, %zu settings, %zu links\n", v, u->id,
                        load_state_to_string(u->load_state), u->n_sources, u->n_settings, u->n_links);
                for (size_t i = 0; i < u->n_sources; i++)
                        fprintf(stderr, "  %s\n", u->sources[i].path);
        }
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                const KeyInfo *k;
                _cleanup_(freep) char *e = NULL;
                _cleanup_(strv_freep) char **w = NULL;

                if (st[i] != SETTING_EFFECTIVE)
                        continue;
                k = rules_key_lookup(rules, u->type, s->section, s->key, v);
                if (!k)
                        continue;
                /* both may return a result along with an error (-ENXIO: kept unexpanded) */
                (void) setting_words(u, s, k, fuzz_features(v), &w, d);
                if (k->type != VALUE_EXEC)
                        (void) setting_expand(u, s, fuzz_features(v), &e, d);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const unsigned versions[] = {229, 245, 257};
        static const char *const names[] = {"a-b@c.service", "a-b@.service", "d.service"};
        _cleanup_(closep) int root_fd = -EBADF;
        _cleanup_(root_freep) Root *root = NULL;
        const char *dir;

        if (size > INPUT_MAX)
                return 0;
        setup();
        dir = fuzz_scratch_dir();
        root_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root_fd < 0 || fuzz_rm_children(root_fd) < 0)
                abort();
        make_tree(root_fd, (const char *) data, size);
        if (root_open(dir, &root) < 0)
                abort();

        for (size_t i = 0; i < ELEMENTSOF(versions); i++) {
                _cleanup_(loader_freep) Loader *l = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                _cleanup_(strv_freep) char **list = NULL, **sp = NULL;

                if (loader_new(&(LoaderOptions){.root = root, .features = fuzz_features(versions[i])}, &l, &d) < 0)
                        continue;
                (void) loader_list_names(l, &list);
                sp = loader_search_path(l);
                for (size_t k = 0; k < ELEMENTSOF(names); k++)
                        load_one(l, names[k], versions[i], dir, &d);
                if (getenv("FUZZ_DEBUG"))
                        diag_list_print(&d, stderr, DIAG_NOTICE);
        }
        return 0;
}
