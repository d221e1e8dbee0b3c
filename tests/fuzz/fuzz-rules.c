/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes the rules loader: the input becomes one rules file in a scratch rules directory that links the real
 * RelaxNG schemas, so every input goes through the XML reader, the schema validation and, when valid, the
 * parse function. The file it becomes is the real one with the same root element ("<targets>" ->
 * targets.xml; one of the base-*.xml for "<base>", chosen by the input's length), targets.xml when none has
 * it. For inputs of odd length the directory also links every other real rules file, so the cross-file
 * checks run too; inputs of even length are loaded alone (rules_load() reports the missing files and still
 * validates and parses the input), which is many times faster. A loaded result is queried the way the verbs
 * do. FUZZ_DEBUG=1 prints what became of each input. */

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "fuzz-util.h"
#include "fuzz.h"
#include "rules/rules.h"

#define INPUT_MAX (1024 * 1024)

static char *real_dir;    /* absolute path of the real rules */
static char **real_xml;   /* the real *.xml file names, sorted */
static char **real_roots; /* their root elements, parallel */
/* the two scratch rules directories */
static int full_fd = -EBADF, alone_fd = -EBADF;

static char *root_element(const char *data, size_t size);

static void release(void) {
        real_dir = mfree(real_dir);
        real_xml = strv_free(real_xml);
        real_roots = strv_free(real_roots);
        closep(&full_fd);
        closep(&alone_fd);
}

static int link_real(int dfd, const char *name) {
        _cleanup_(freep) char *target = path_join(real_dir, name);

        if (!target)
                return -ENOMEM;
        return symlinkat(target, dfd, name) < 0 ? -errno : 0;
}

static int open_subdir(int dfd, const char *name) {
        if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
                return -errno;
        return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void setup(int dfd) {
        DIR *d;
        struct dirent *de;

        if (real_dir)
                return;
        real_dir = realpath(fuzz_rules_dir(), NULL);
        if (!real_dir || !(d = opendir(real_dir))) {
                fprintf(stderr, "fuzz: no rules directory at %s (set BOOTRACE_RULES_DIR)\n",
                        fuzz_rules_dir());
                abort();
        }
        while ((de = readdir(d)))
                if (de->d_name[0] != '.' && endswith(de->d_name, ".xml") &&
                    strv_extend(&real_xml, de->d_name) < 0)
                        abort();
        closedir(d);
        if (!real_xml)
                abort();
        strv_sort(real_xml);
        STRV_FOREACH(n, real_xml) {
                _cleanup_(freep) char *p = path_join(real_dir, *n);
                char buf[4096];
                ssize_t l = -1;
                int fd = p ? open(p, O_RDONLY | O_CLOEXEC) : -1;

                if (fd >= 0) {
                        l = read(fd, buf, sizeof buf);
                        close(fd);
                }
                if (l < 0 || strv_push(&real_roots, root_element(buf, (size_t) l) ?: strdup("")) < 0)
                        abort();
        }
        full_fd = open_subdir(dfd, "full");
        alone_fd = open_subdir(dfd, "alone");
        if (full_fd < 0 || alone_fd < 0 || link_real(full_fd, "schema") < 0 ||
            link_real(alone_fd, "schema") < 0)
                abort();
        STRV_FOREACH(n, real_xml)
        if (link_real(full_fd, *n) < 0)
                abort();
        atexit(release);
}

/* The real file the input stands in for. */
static const char *pick_file(const char *data, size_t size) {
        _cleanup_(freep) char *root = root_element(data, size);
        size_t n = 0, k = 0;

        if (root)
                for (size_t i = 0; real_xml[i]; i++)
                        n += streq(real_roots[i], root);
        if (n == 0)
                return "targets.xml";
        for (size_t i = 0; real_xml[i]; i++)
                if (streq(real_roots[i], root) && k++ == size % n)
                        return real_xml[i];
        return "targets.xml";
}

static bool is_name_start(char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_name_char(char c) {
        return is_name_start(c) || c == '-' || c == '.' || (c >= '0' && c <= '9');
}

/* The name of the document's root element: the first '<' that starts a name (which skips <?xml ?>, comments
 * and declarations, roughly: good enough to pick the file). */
static char *root_element(const char *data, size_t size) {
        for (size_t i = 0; i + 1 < size; i++) {
                size_t n = 0;

                if (data[i] != '<' || !is_name_start(data[i + 1]))
                        continue;
                while (i + 1 + n < size && n < 64 && is_name_char(data[i + 1 + n]))
                        n++;
                return strndup_safe(data + i + 1, n);
        }
        return NULL;
}

static void query(const Rules *r) {
        static const char *const probes[] = {"ubuntu-xenial", "xenial",   "16.04",
                                             "debian-12",     "nonsense", ""};
        _cleanup_(strv_freep) char **names = rules_target_names(r), **paths = rules_file_paths(r);

        if (paths && strv_length(paths) == 0)
                abort(); /* loaded from no file at all? */
        (void) rules_newest_version(r);
        STRV_FOREACH(n, names) {
                unsigned v;
                const char *canon;
                (void) rules_target_version(r, *n, &v, &canon);
                (void) rules_target_note(r, *n);
        }
        for (size_t i = 0; i < ELEMENTSOF(probes); i++) {
                unsigned v;
                const char *canon;
                (void) rules_target_version(r, probes[i], &v, &canon);
        }
        for (size_t i = 0; i < rules_key_count(r); i++) {
                const KeyInfo *k = rules_key_get(r, i);

                for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++)
                        (void) rules_key_lookup(r, t, k->section, k->name, 252);
                (void) rules_key_lookup_any(r, k->name);
                (void) rules_key_value_known(k, "yes", 229);
                STRV_FOREACH(val, k->values) {
                        unsigned since, until;
                        (void) rules_key_value_known(k, *val, 252);
                        (void) rules_key_value_since(k, *val, &since, &until);
                }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_(closep) int dfd = -EBADF, fd = -EBADF;
        _cleanup_(freep) char *path = NULL;
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        const char *file;
        bool full = size % 2 == 1;
        int sub;

        if (size > INPUT_MAX)
                return 0;
        dfd = open(fuzz_scratch_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                abort();
        setup(dfd);
        sub = full ? full_fd : alone_fd;
        file = pick_file((const char *) data, size);

        if (unlinkat(sub, file, 0) < 0 && errno != ENOENT)
                abort();
        fd = openat(sub, file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t) size))
                abort();
        closep(&fd);
        fd = -EBADF;

        path = path_join(fuzz_scratch_dir(), full ? "full" : "alone");
        if (!path)
                abort();
        if (rules_load(path, &r, &d) >= 0)
                query(r);
        if (getenv("FUZZ_DEBUG")) {
                fprintf(stderr, "as %s (%s): %s\n", file, full ? "with the real files" : "alone",
                        r ? "loaded" : "refused");
                diag_list_print(&d, stderr, DIAG_NOTICE);
        }

        /* leave the directory as it was for the next input */
        if (unlinkat(sub, file, 0) < 0 || (full && link_real(sub, file) < 0))
                abort();
        return 0;
}
