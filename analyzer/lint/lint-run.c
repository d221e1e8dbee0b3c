/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>

#include "basic/unit-name.h"
#include "lint/check-common.h"
#include "lint/exec-writes.h"
#include "lint/lint-profile.h"
#include "lint/lint-run.h"
#include "load/fstab-generator.h"
#include "load/unit-words.h"

/* Units given as files count as enabled the way their [Install] section says, as packaging helpers
 * (deb-systemd-helper, %systemd_post) enable them: WantedBy=X becomes X Wants=unit, and so on. */
int lint_enable_by_install(Model *m, ModelUnit *u) {
        static const struct {
                const char *key;
                DepType type;
        } install[] = {
                { "WantedBy", DEP_WANTS },
                { "RequiredBy", DEP_REQUIRES },
                { "UpheldBy", DEP_UPHOLDS },
        };
        Graph *g = model_graph(m);

        for (size_t i = 0; i < u->unit->n_settings; i++) {
                const Setting *s = &u->unit->settings[i];
                _cleanup_(strv_freep) char **words = NULL;

                if (!streq(s->section, "Install") || (u->st && u->st[i] != SETTING_EFFECTIVE))
                        continue;
                for (size_t k = 0; k < ELEMENTSOF(install); k++) {
                        if (!streq(s->key, install[k].key))
                                continue;
                        if (words_split_plain(s->value, &words) < 0)
                                return -ENOMEM;
                        STRV_FOREACH(w, words) {
                                ModelUnit *t = NULL;
                                uint32_t origin;
                                Origin o = {
                                        .kind = ORIGIN_LINK,
                                        .file = u->unit->sources[s->source].path,
                                        .line = s->line,
                                        .detail = install[k].key,
                                };
                                if (!unit_name_is_valid(*w, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE))
                                        continue;
                                if (model_add(m, *w, &t) < 0 || !t)
                                        continue;
                                if (graph_add_origin(g, &o, &origin) < 0 ||
                                    graph_add_edge(g, t->node, install[k].type, u->node, origin) < 0)
                                        return -ENOMEM;
                        }
                }
        }
        return 0;
}

int lint_unit_name(const char *name, char **ret) {
        if (unit_name_is_valid(name, UNIT_NAME_TEMPLATE))
                return unit_name_replace_instance(name, "lint-instance", ret);
        *ret = strdup(name);
        return *ret ? 0 : -ENOMEM;
}

static int collect_file(const char *path, const char *base, char ***names, char ***files) {
        _cleanup_(freep) char *name = NULL;

        if (lint_unit_name(base, &name) < 0)
                return -ENOMEM;
        if (strv_contains(*names, name))
                return 0;
        if (strv_extend(names, name) < 0 || (files && strv_extend(files, path) < 0))
                return -ENOMEM;
        return 0;
}

int lint_collect_path(const char *arg, const struct stat *st, char ***names, char ***extra, char ***files) {
        _cleanup_(freep) char *abs = NULL, *dir = NULL;
        const char *base;
        int r;

        if (arg[0] == '/')
                abs = path_simplify_dup(arg);
        else {
                _cleanup_(freep) char *cwd = getcwd(NULL, 0), *j = NULL;
                if (!cwd)
                        return -errno;
                j = path_join(cwd, arg);
                abs = j ? path_simplify_dup(j) : NULL;
        }
        if (!abs)
                return -ENOMEM;
        if (S_ISDIR(st->st_mode)) {
                _cleanup_(freep) struct dirent **de = NULL;
                int n = scandir(abs, &de, NULL, alphasort), found = 0;

                if (n < 0)
                        return -errno;
                r = 0;
                for (int i = 0; i < n; i++) {
                        _cleanup_(freep) char *p = path_join(abs, de[i]->d_name);
                        struct stat fst;

                        if (!p)
                                r = -ENOMEM;
                        else if (r >= 0 && unit_name_is_valid(de[i]->d_name, UNIT_NAME_ANY) &&
                                 lstat(p, &fst) >= 0 && S_ISREG(fst.st_mode)) {
                                r = collect_file(p, de[i]->d_name, names, files);
                                found++;
                        }
                        free(de[i]);
                }
                if (r < 0)
                        return r;
                return strv_extend_unique(extra, abs) < 0 ? -ENOMEM : found;
        }
        base = path_basename(abs);
        if (!unit_name_is_valid(base, UNIT_NAME_ANY))
                return -EINVAL;
        dir = strndup_safe(abs, base - abs > 1 ? (size_t) (base - abs - 1) : 1);
        if (!dir || collect_file(abs, base, names, files) < 0 || strv_extend_unique(extra, dir) < 0)
                return -ENOMEM;
        return 1;
}

int lint_generate(const Root *root, const FeatureSet *fs, char **ret_dir, DiagList *diags) {
        _cleanup_(freep) char *dir = NULL;
        const char *tmp = getenv("TMPDIR");
        int r;

        *ret_dir = NULL;
        if (!root)
                return 0;
        if (asprintf_safe(&dir, "%s/bootrace-generator.XXXXXX", isempty(tmp) ? "/tmp" : tmp) < 0)
                return -ENOMEM;
        if (!mkdtemp(dir))
                return -errno;
        r = fstab_generate(root, fs, dir, diags);
        if (r < 0) {
                fstab_generated_remove(dir);
                return r;
        }
        *ret_dir = TAKE_PTR(dir);
        return 0;
}

void lint_generated_removep(char **dir) {
        if (*dir)
                fstab_generated_remove(*dir);
        *dir = mfree(*dir);
}

LintRun *lint_run_free(LintRun *r) {
        if (!r)
                return NULL;
        for (size_t i = 0; r->unit_writes && i < r->n_units; i++)
                exec_write_list_done(&r->unit_writes[i]);
        free(r->unit_writes);
        cycle_list_free(r->cycles, r->n_cycles);
        transaction_free(r->transaction);
        free(r->units);
        strv_free(r->linted);
        strv_free(r->load_errors);
        finding_list_done(&r->findings);
        tmpfiles_list_done(&r->boot_tmpfiles_own);
        model_free(r->model);
        free(r);
        return NULL;
}

LintRun *lint_run_release(LintRun *r) {
        if (r)
                model_release(TAKE_PTR(r->model));
        return lint_run_free(r);
}

/* Does l say anything about /tmp itself? A root's tmpfiles.d that does is the configuration its boot runs. */
static bool configures_tmp(const TmpfilesList *l) {
        for (size_t i = 0; l && i < l->n; i++)
                if (streq(l->items[i].path, "/tmp") || streq(l->items[i].path, "/tmp/"))
                        return true;
        return false;
}

/* The tmpfiles.d lines the boot removes with: the root's (o->tmpfiles, else read here) when they configure /tmp,
 * else the target's lines of rules/target-tmpfiles.xml, parsed into own. */
static int boot_tmpfiles(const LintRunOptions *o, const Rules *rules, TmpfilesList *own,
                         const TmpfilesList **ret) {
        _cleanup_(diag_list_done) DiagList scratch = {};
        const TargetTmpfiles *t;
        int r;

        if (o->root && !o->tmpfiles) {
                r = tmpfiles_load(o->root, own, &scratch);
                if (r < 0)
                        return r;
                if (configures_tmp(own)) {
                        *ret = own;
                        return 0;
                }
                tmpfiles_list_done(own);
        } else if (o->root && configures_tmp(o->tmpfiles)) {
                *ret = o->tmpfiles;
                return 0;
        }
        *ret = own;
        t = rules_target_tmpfiles(rules, o->target, o->version);
        if (!t)
                return 0;
        /* one line at a time, so that each entry names its own line of the rules file */
        for (size_t i = 0; t->lines && t->lines[i]; i++) {
                size_t first = own->n;
                r = tmpfiles_parse(t->lines[i], path_basename(t->file), own, &scratch);
                if (r < 0)
                        return r;
                for (size_t k = first; k < own->n; k++)
                        own->items[k].line = t->line_numbers[i];
        }
        return 0;
}

static const char * const anchors[] = {
        "systemd-remount-fs.service", "local-fs.target", "systemd-tmpfiles-setup.service", "sysinit.target",
        NULL,
};

static bool wants_install(const LintRunOptions *o, const ModelUnit *u) {
        if (!o->install_names)
                return u->unit->from_extra_dir;
        STRV_FOREACH(n, u->unit->names)
                if (strv_contains(o->install_names, *n))
                        return true;
        return strv_contains(o->install_names, u->unit->id);
}

static bool wants_check(const LintRunOptions *o, const ModelUnit *u) {
        if (!o->check_only)
                return true;
        STRV_FOREACH(n, u->unit->names)
                if (strv_contains(o->check_only, *n))
                        return true;
        return strv_contains(o->check_only, u->unit->id);
}

int lint_run(const LintRunOptions *o, const Rules *rules, LintRun **ret, DiagList *diags) {
        _cleanup_(lint_run_freep) LintRun *run = NULL;
        const char *anchor = o->anchor ?: "default.target";
        int r;

        run = calloc(1, sizeof(LintRun));
        if (!run)
                return -ENOMEM;
        r = model_new(&(ModelOptions) { .root = o->root, .extra_dirs = o->extra_dirs, .systemd = o->version,
                                        .package_root = o->package_root, .package_dirs = o->package_dirs,
                                        .distro = o->distro, .target = o->target,
                                        .generator_dir = o->generator_dir, .profile = o->profile },
                      rules, &run->model, diags);
        if (r < 0)
                return r;
        /* a second thread loads ahead for large trees; if it cannot be started, one thread does it all */
        (void) model_prefetch(run->model, strv_length(o->names));
        size_t n_linted = 0, allocated_linted = 0;
        run->units = calloc(strv_length(o->names) + 1, sizeof(ModelUnit *));
        if (!run->units)
                return -ENOMEM;
        for (size_t i = 0, ahead = 0, n_names = strv_length(o->names); i < n_names; i++) {
                const char *n = o->names[i];
                ModelUnit *mu = NULL;
                char *e = NULL;

                model_hint_names(run->model, o->names, n_names, i, &ahead);
                r = model_add(run->model, n, &mu);
                if (r < 0 || !mu) {
                        if (asprintf_safe(&e, "%s: cannot load: %s", n, strerror(-r)) < 0 ||
                            strv_push(&run->load_errors, e) < 0)
                                return -ENOMEM;
                        run->input_error = true;
                        continue;
                }
                if (mu->unit->load_state != LOAD_LOADED) {
                        if (asprintf_safe(&e, "%s: %s%s%s", n, load_state_to_string(mu->unit->load_state),
                                          mu->unit->fragment_path ? ", " : "",
                                          strempty(mu->unit->fragment_path)) < 0 ||
                            strv_push(&run->load_errors, e) < 0)
                                return -ENOMEM;
                        run->input_error = true;
                        continue;
                }
                run->units[run->n_units++] = mu;
                if (strv_push_grow(&run->linted, &n_linted, &allocated_linted, strdup(mu->unit->id)) < 0)
                        return -ENOMEM;
        }
        for (const char * const *a = anchors; *a; a++)
                (void) model_add(run->model, *a, NULL);
        (void) model_add(run->model, anchor, NULL);
        for (size_t i = 0; i < run->n_units; i++)
                if (wants_install(o, run->units[i]) && lint_enable_by_install(run->model, run->units[i]) < 0)
                        return -ENOMEM;
        /* the mount units of every path the linted units write or need before exec (rules/exec-writes.xml),
         * so that the model knows which exist; the writes are kept for the checks when they stay the same */
        if (lint_exec_writes_settled(rules, o->version)) {
                run->unit_writes = calloc(run->n_units + 1, sizeof(ExecWriteList));
                if (!run->unit_writes)
                        return -ENOMEM;
        }
        for (size_t i = 0; i < run->n_units; i++) {
                _cleanup_(exec_write_list_done) ExecWriteList scratch = {};
                ExecWriteList *writes = run->unit_writes ? &run->unit_writes[i] : &scratch;
                LintContext pre = { .model = run->model, .rules = rules, .version = o->version };
                if (lint_exec_writes(&pre, run->units[i], writes) < 0)
                        return -ENOMEM;
                for (size_t k = 0; k < writes->n; k++) {
                        _cleanup_(strv_freep) char **mounts = NULL;
                        if (unit_name_mounts_of_path(writes->items[k].under, &mounts) < 0)
                                return -ENOMEM;
                        STRV_FOREACH(m, mounts)
                                (void) model_add(run->model, *m, NULL);
                }
        }
        r = model_finish(run->model);
        if (r < 0) {
                (void) diag_add(diags, DIAG_ERROR, NULL, 0, "cannot finish the model: %s", strerror(-r));
                return r;
        }

        /* the boot transaction and its ordering cycles */
        r = transaction_build(run->model, anchor, &run->transaction, diags);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                (void) diag_add(diags, o->anchor_given ? DIAG_ERROR : DIAG_NOTICE, NULL, 0,
                                "%s cannot be loaded: no boot transaction, no ordering-cycle check", anchor);
        else {
                r = transaction_cycles(run->transaction, 256, &run->cycles, &run->n_cycles,
                                       &run->cycles_truncated);
                if (r < 0)
                        return r;
        }
        if (!run->transaction && o->anchor_given)
                run->input_error = true;

        r = boot_tmpfiles(o, rules, &run->boot_tmpfiles_own, &run->boot_tmpfiles);
        if (r < 0)
                return r;
        _cleanup_(lint_unit_writes_done) LintUnitWrites writes = {};
        LintContext lc = {
                .model = run->model, .rules = rules, .version = o->version, .units = run->units,
                .n_units = run->n_units, .diags = diags, .transaction = run->transaction,
                .transaction_anchor = anchor, .cycles = run->cycles, .n_cycles = run->n_cycles,
                .cycles_truncated = run->cycles_truncated, .tmpfiles = o->tmpfiles,
                .boot_tmpfiles = run->boot_tmpfiles, .root = o->root, .target = o->target, .writes = &writes,
        };
        _cleanup_(freep) size_t *diag_index = NULL;
        r = lint_index_diags(&lc, &diag_index);
        if (r < 0)
                return r;
        for (size_t i = 0; i < run->n_units; i++) {
                size_t before = run->findings.n;

                if (!wants_check(o, run->units[i]))
                        continue;
                if (run->unit_writes) {
                        /* the unit's writes as the checks would make them (lint_unit_writes()) */
                        lint_unit_writes_done(&writes);
                        writes.list = run->unit_writes[i];
                        run->unit_writes[i] = (ExecWriteList) {};
                        writes.unit = run->units[i];
                }
                for (size_t k = 0; k < check_table_size; k++) {
                        r = check_table[k].run(&lc, run->units[i], &run->findings);
                        if (r < 0) {
                                (void) diag_add(diags, DIAG_ERROR, NULL, 0, "%s: check %s failed: %s",
                                                run->units[i]->unit->id, check_table[k].id, strerror(-r));
                                return r;
                        }
                }
                r = lint_profile_annotate(&lc, o->profile, &run->findings, before);
                if (r < 0)
                        return r;
                r = suppress_findings(&run->findings, before, run->units[i]->unit, o->suppressions);
                if (r < 0)
                        return r;
        }
        *ret = TAKE_PTR(run);
        return 0;
}
