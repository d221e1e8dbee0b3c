/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <limits.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdarg.h>

#include "basic/xml-util.h"
#include "rules/rules-internal.h"

/* Every kind of rules file: adding one is a schema, a parse function and an entry here. */
static const RulesFileKind rules_file_kinds[] = {
        {
                .pattern = "features.xml",
                .schema = "features.rng",
                .required = true,
                .parse = rules_parse_features,
                .finish = rules_features_finish,
                .done = rules_features_done,
        },
        {
                .pattern = "checks.xml",
                .schema = "checks.rng",
                .required = true,
                .parse = rules_parse_checks,
                .done = rules_checks_done,
        },
        {
                .pattern = "targets.xml",
                .schema = "targets.rng",
                .required = true,
                .parse = rules_parse_targets,
                .done = rules_targets_done,
        },
        {
                .pattern = "unit-keys.xml",
                .schema = "unit-keys.rng",
                .required = true,
                .parse = rules_parse_unit_keys,
                .finish = rules_unit_keys_finish,
                .done = rules_unit_keys_done,
        },
        {
                .pattern = "value-words.xml",
                .schema = "value-words.rng",
                .required = false,
                .parse = rules_parse_value_words,
                .done = rules_value_words_done,
        },
        {
                .pattern = "dependencies.xml",
                .schema = "dependencies.rng",
                .required = true,
                .parse = rules_parse_dependencies,
                .done = rules_dependencies_done,
        },
        {
                .pattern = "messages.xml",
                .schema = "messages.rng",
                .required = true,
                .parse = rules_parse_messages,
                .done = rules_messages_done,
        },
        {
                .pattern = "exec-writes.xml",
                .schema = "exec-writes.rng",
                .required = false,
                .parse = rules_parse_exec_writes,
                .finish = rules_exec_writes_finish,
                .done = rules_exec_writes_done,
        },
        {
                .pattern = "target-tmpfiles.xml",
                .schema = "target-tmpfiles.rng",
                .required = false,
                .parse = rules_parse_target_tmpfiles,
                .done = rules_target_tmpfiles_done,
        },
        {
                .pattern = "base-*.xml",
                .schema = "base.rng",
                .required = false,
                .parse = rules_parse_base,
                .finish = rules_base_finish,
                .done = rules_base_done,
        },
        {
                /* after targets.xml: a profile names its target */
                .pattern = "profile-*.xml",
                .schema = "profile.rng",
                .required = false,
                .parse = rules_parse_profiles,
                .done = rules_profiles_done,
        },
};

static const char * const type_section_table[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = "Service",
        [UNIT_SOCKET] = "Socket",
        [UNIT_TARGET] = NULL, /* targets and devices have no section of their own */
        [UNIT_DEVICE] = NULL,
        [UNIT_MOUNT] = "Mount",
        [UNIT_AUTOMOUNT] = "Automount",
        [UNIT_SWAP] = "Swap",
        [UNIT_TIMER] = "Timer",
        [UNIT_PATH] = "Path",
        [UNIT_SLICE] = "Slice",
        [UNIT_SCOPE] = "Scope",
};

const char *rules_type_section(UnitType t) {
        return t >= 0 && t < _UNIT_TYPE_MAX ? type_section_table[t] : NULL;
}

bool rules_section_is_valid(UnitType t, const char *section) {
        const char *own = rules_type_section(t);

        if (!section)
                return false;
        if (streq(section, "Unit") || streq(section, "Install"))
                return t >= 0 && t < _UNIT_TYPE_MAX;
        return own && streq(section, own);
}

/* An uninstalled bootrace (built in the source tree) finds the rules beside its executable, before any installed
 * ones. No build path is compiled in, so an installed binary behaves the same wherever it was built. */
static const char *rules_dir_next_to_exe(void) {
        static char dir[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - sizeof "/rules/targets.xml");
        char *slash;

        if (n <= 0)
                return NULL;
        dir[n] = 0;
        slash = strrchr(dir, '/');
        if (!slash)
                return NULL;
        strcpy(slash, "/rules/targets.xml");
        if (access(dir, R_OK) < 0)
                return NULL;
        slash[sizeof "/rules" - 1] = 0;
        return dir;
}

const char *rules_default_dir(void) {
        const char *e = getenv("BOOTRACE_RULES_DIR"), *x;

        if (!isempty(e))
                return e;
        if ((x = rules_dir_next_to_exe()))
                return x;
        return PKGDATADIR "/rules";
}

int rules_bad(DiagList *diags, const char *file, unsigned line, const char *fmt, ...) {
        _cleanup_(freep) char *m = NULL;
        va_list ap;
        int k;

        va_start(ap, fmt);
        k = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (k < 0) {
                m = NULL;
                return -ENOMEM;
        }
        return diag_add(diags, DIAG_ERROR, file, line, "%s", m) ?: -EBADMSG;
}

int rules_parse_version(const RulesFile *f, xmlNode *n, const char *attr, bool required, unsigned *ret,
                        DiagList *diags) {
        const char *s = xml_attr(n, attr);
        unsigned v;

        if (!s) {
                if (required)
                        return diag_add(diags, DIAG_ERROR, f->path, xml_line(n), "<%s> needs %s=", n->name, attr)
                               ?: -EBADMSG;
                *ret = 0;
                return 0;
        }
        /* safe_atou() would take "+5" or " 5"; a version is digits only, at most 9 of them */
        if (isempty(s) || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9 || safe_atou(s, &v) < 0)
                return diag_add(diags, DIAG_ERROR, f->path, xml_line(n),
                                "%s=\"%s\" of <%s> is not a systemd version number", attr, s, n->name)
                       ?: -EBADMSG;
        *ret = v;
        return 0;
}

int rules_parse_range(const RulesFile *f, xmlNode *n, unsigned *ret_since, unsigned *ret_until, DiagList *diags) {
        unsigned since, until;
        int q = rules_parse_version(f, n, "since", false, &since, diags);

        if (q >= 0)
                q = rules_parse_version(f, n, "until", false, &until, diags);
        if (q < 0)
                return q;
        if (until > 0 && since > until)
                return rules_bad(diags, f->path, xml_line(n), "<%s>: since=%u is after until=%u", n->name, since,
                                 until);
        *ret_since = since;
        *ret_until = until;
        return 0;
}

Rules *rules_ref(Rules *r) {
        if (r)
                r->n_ref++;
        return r;
}

Rules *rules_free(Rules *r) {
        if (!r || --r->n_ref > 0)
                return NULL;
        for (size_t i = 0; i < ELEMENTSOF(rules_file_kinds); i++)
                if (rules_file_kinds[i].done)
                        rules_file_kinds[i].done(r);
        for (size_t i = 0; i < r->n_files; i++)
                free(r->files[i].path);
        for (size_t i = 0; i < r->n_pending_bases; i++)
                free(r->pending_bases[i].path);
        free(r->pending_bases);
        free(r->files);
        free(r->dir);
        return mfree(r);
}

char **rules_file_paths(const Rules *r) {
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t i = 0; i < r->n_files; i++)
                if (strv_extend(&l, r->files[i].path) < 0)
                        return NULL;
        if (!l)
                l = calloc(1, sizeof(char *));
        return TAKE_PTR(l);
}

static int list_dir(const char *dir, char ***ret) {
        _cleanup_(strv_freep) char **names = NULL;
        DIR *d;
        struct dirent *de;
        int r = 0;

        d = opendir(dir);
        if (!d)
                return -errno;
        errno = 0;
        while ((de = readdir(d))) {
                if (de->d_name[0] == '.')
                        continue;
                r = strv_extend(&names, de->d_name);
                if (r < 0)
                        break;
        }
        if (r == 0 && errno != 0)
                r = -errno;
        closedir(d);
        if (r < 0)
                return r;
        strv_sort(names);
        *ret = TAKE_PTR(names);
        return 0;
}

static bool kind_matches(const RulesFileKind *k, const char *name) {
        return fnmatch(k->pattern, name, FNM_PERIOD) == 0;
}

/* Loads, validates and parses one file. Returns 0 or a negative error (diagnostics added). */
static int load_file(Rules *r, const RulesFileKind *k, xmlRelaxNG *schema, const char *path, DiagList *diags) {
        _cleanup_(xmlFreeDocp) xmlDoc *doc = NULL;
        _cleanup_(freep) char *p = NULL;
        RulesFile *f;
        int q;

        q = xml_read_file(path, &doc, diags);
        if (q == -ENOMEM)
                return q;
        if (q < 0) {
                if (q != -EBADMSG && diag_add(diags, DIAG_ERROR, path, 0, "cannot read rules file: %s",
                                              strerror(-q)) < 0)
                        return -ENOMEM;
                return q;
        }
        q = xml_validate(schema, doc, path, diags);
        if (q < 0)
                return q;

        p = strdup(path);
        if (!p || GREEDY_REALLOC(r->files, r->allocated_files, r->n_files + 1) < 0)
                return -ENOMEM;
        f = &r->files[r->n_files++];
        *f = (RulesFile) { .path = TAKE_PTR(p), .kind = k };
        return k->parse(r, f, doc, diags);
}

/* Keeps the first error, but ENOMEM wins: it means the results are incomplete for another reason. */
static void keep_error(int *first, int q) {
        if (q >= 0)
                return;
        if (*first == 0 || q == -ENOMEM)
                *first = q;
}

/* A base model file name base-NNN.xml: NNN, else 0. */
static unsigned base_file_version(const char *name) {
        unsigned v = 0;
        int n = 0;

        if (sscanf(name, "base-%u.xml%n", &v, &n) < 1 || n <= 0 || (size_t) n != strlen(name) ||
            !startswith(name, "base-") || !(name[5] >= '1' && name[5] <= '9'))
                return 0;
        return v;
}

int rules_load_pending_base(Rules *r, size_t i, DiagList *diags) {
        _cleanup_(xmlRelaxNGFreep) xmlRelaxNG *schema = NULL;
        _cleanup_(freep) char *schema_path = NULL, *path = NULL;
        const RulesFileKind *k = NULL;
        PendingBase pb;
        size_t before = r->n_bases;
        int q;

        assert(i < r->n_pending_bases);
        pb = r->pending_bases[i];
        path = pb.path;
        memmove(r->pending_bases + i, r->pending_bases + i + 1, (r->n_pending_bases - i - 1) * sizeof(PendingBase));
        r->n_pending_bases--;

        for (size_t j = 0; j < ELEMENTSOF(rules_file_kinds); j++)
                if (rules_file_kinds[j].parse == rules_parse_base)
                        k = &rules_file_kinds[j];
        assert(k);
        schema_path = strjoin(r->dir, "/schema/", k->schema);
        if (!schema_path)
                return -ENOMEM;
        q = xml_schema_load(schema_path, &schema, diags);
        if (q < 0 && q != -EBADMSG && q != -ENOMEM)
                q = diag_add(diags, DIAG_ERROR, schema_path, 0, "cannot read schema: %s", strerror(-q)) ?: q;
        if (q < 0)
                return q;
        q = load_file(r, k, schema, path, diags);
        if (q < 0)
                return q;
        if (r->n_bases != before + 1 || base_model_version(r->bases[before]) != pb.version)
                return diag_add(diags, DIAG_ERROR, path, 0, "the file name says systemd %u, the file does not",
                                pb.version) ?: -EBADMSG;
        return 0;
}

int rules_load(const char *dir, Rules **ret, DiagList *diags) {
        return rules_load_flags(dir, 0, ret, diags);
}

int rules_load_on_demand(const char *dir, Rules **ret, DiagList *diags) {
        return rules_load_flags(dir, RULES_BASES_ON_DEMAND, ret, diags);
}

int rules_load_flags(const char *dir, RulesLoadFlags flags, Rules **ret, DiagList *diags) {
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(strv_freep) char **names = NULL;
        int q, error = 0;

        if (!dir)
                dir = rules_default_dir();

        r = calloc(1, sizeof(Rules));
        if (!r)
                return -ENOMEM;
        r->n_ref = 1;
        hashmap_init(&r->keys_by_name);
        r->dir = strdup(dir);
        if (!r->dir)
                return -ENOMEM;

        q = list_dir(dir, &names);
        if (q < 0)
                return diag_add(diags, DIAG_ERROR, dir, 0, "cannot open the rules directory: %s "
                                "(set BOOTRACE_RULES_DIR to where bootrace's rules/ are)", strerror(-q)) ?: q;

        for (size_t i = 0; i < ELEMENTSOF(rules_file_kinds); i++) {
                const RulesFileKind *k = &rules_file_kinds[i];
                _cleanup_(xmlRelaxNGFreep) xmlRelaxNG *schema = NULL;
                _cleanup_(freep) char *schema_path = NULL;
                bool found = false;

                STRV_FOREACH(n, names) {
                        _cleanup_(freep) char *path = NULL;

                        if (!kind_matches(k, *n))
                                continue;
                        found = true;
                        if ((flags & RULES_BASES_ON_DEMAND) && k->parse == rules_parse_base &&
                            base_file_version(*n) > 0) {
                                PendingBase *np = realloc(r->pending_bases,
                                                          sizeof(PendingBase) * (r->n_pending_bases + 1));
                                if (!np)
                                        return -ENOMEM;
                                r->pending_bases = np;
                                np[r->n_pending_bases] = (PendingBase) {
                                        .path = strjoin(dir, "/", *n),
                                        .version = base_file_version(*n),
                                };
                                if (!np[r->n_pending_bases++].path)
                                        return -ENOMEM;
                                continue;
                        }
                        if (!schema) {
                                schema_path = strjoin(dir, "/schema/", k->schema);
                                if (!schema_path)
                                        return -ENOMEM;
                                q = xml_schema_load(schema_path, &schema, diags);
                                if (q < 0 && q != -EBADMSG && q != -ENOMEM)
                                        q = diag_add(diags, DIAG_ERROR, schema_path, 0, "cannot read schema: %s",
                                                     strerror(-q)) ?: q;
                                if (q < 0) {
                                        keep_error(&error, q);
                                        break;
                                }
                        }
                        path = strjoin(dir, "/", *n);
                        if (!path)
                                return -ENOMEM;
                        keep_error(&error, load_file(r, k, schema, path, diags));
                        if (error == -ENOMEM)
                                return error;
                }
                if (!found && k->required) {
                        _cleanup_(freep) char *path = strjoin(dir, "/", k->pattern);
                        if (!path)
                                return -ENOMEM;
                        keep_error(&error, diag_add(diags, DIAG_ERROR, path, 0, "missing rules file") ?: -ENOENT);
                }
        }

        /* cross-file work (indexes, references) only makes sense on complete data */
        if (error == 0)
                for (size_t i = 0; i < ELEMENTSOF(rules_file_kinds); i++)
                        if (rules_file_kinds[i].finish)
                                keep_error(&error, rules_file_kinds[i].finish(r, diags));

        STRV_FOREACH(n, names) {
                bool known = false;

                if (!endswith(*n, ".xml"))
                        continue;
                for (size_t i = 0; i < ELEMENTSOF(rules_file_kinds); i++)
                        known = known || kind_matches(&rules_file_kinds[i], *n);
                if (!known) {
                        _cleanup_(freep) char *path = strjoin(dir, "/", *n);
                        if (!path || diag_add(diags, DIAG_WARNING, path, 0, "unknown kind of rules file, ignored") < 0)
                                return -ENOMEM;
                }
        }

        if (error < 0)
                return error;
        *ret = TAKE_PTR(r);
        return 0;
}
