/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace lint: the race checks over unit files or a whole root, judged for one systemd version. */

#include <dirent.h>
#include <sys/stat.h>

#include "check-common.h"
#include "fstab-generator.h"
#include "loader.h"
#include "report.h"
#include "suppress.h"
#include "unit-name.h"
#include "unit-words.h"
#include "verbs.h"
#include "version.h"

static const char lint_help[] =
        "Usage: bootrace lint [--root=DIR] [--target=NAME|--systemd=N] [--format=text|json|sarif|junit]\n"
        "                     [--fail-on=error|warning|info] [--suppressions=FILE] [PATH...]\n\n"
        "Check unit files for boot-ordering races judged for one systemd version. A PATH is a unit file or a\n"
        "directory laid out as a unit directory (e.g. debian/tmp/lib/systemd/system); they are searched before\n"
        "the root (or the embedded model of the target version when there is no --root). Findings are reported\n"
        "for the units given; without PATH, for every unit of --root.\n\n"
        "  --suppressions=FILE   lines \"UNIT: CHECK  # reason\" (UNIT may be *) to accept findings\n"
        "  --transaction=UNIT    the boot target whose transaction is checked for cycles (default.target)\n\n"
        "Exit status: 0 nothing at or above --fail-on (default warning), 1 findings, 2 usage or input error.\n"
        "'bootrace explain' lists the checks.\n";

enum {
        ARG_SUPPRESSIONS = ARG_VERB_BASE,
        ARG_TRANSACTION,
};

typedef struct LintArgs {
        char *suppressions;
        char *transaction;
} LintArgs;

static int lint_option(int c, const char *arg, void *userdata) {
        LintArgs *a = userdata;
        char **p = c == ARG_SUPPRESSIONS ? &a->suppressions : c == ARG_TRANSACTION ? &a->transaction : NULL;

        if (!p)
                return -EINVAL;
        if (c == ARG_TRANSACTION && !unit_name_is_valid(arg, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                log_error("--transaction=%s: not a unit name", arg);
                return -EINVAL;
        }
        free(*p);
        *p = strdup(arg);
        return *p ? 0 : -ENOMEM;
}

/* Units given as files count as enabled the way their [Install] section says, as packaging helpers
 * (deb-systemd-helper, %systemd_post) enable them: WantedBy=X becomes X Wants=unit, and so on. */
static int add_install_edges(Model *m, ModelUnit *u) {
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

/* A template is linted as an instance, as systemd-analyze verify does. */
static int lint_name(const char *name, char **ret) {
        if (unit_name_is_valid(name, UNIT_NAME_TEMPLATE))
                return unit_name_replace_instance(name, "lint-instance", ret);
        *ret = strdup(name);
        return *ret ? 0 : -ENOMEM;
}

static int add_unit_dir(const char *dir, char ***names, char ***extra) {
        _cleanup_(freep) struct dirent **de = NULL;
        int n = scandir(dir, &de, NULL, alphasort);

        if (n < 0)
                return -errno;
        for (int i = 0; i < n; i++) {
                _cleanup_(freep) char *p = path_join(dir, de[i]->d_name), *name = NULL;
                struct stat st;

                if (p && unit_name_is_valid(de[i]->d_name, UNIT_NAME_ANY) && lstat(p, &st) >= 0 &&
                    S_ISREG(st.st_mode) && lint_name(de[i]->d_name, &name) >= 0)
                        (void) strv_extend_unique(names, name);
                free(de[i]);
        }
        return strv_extend_unique(extra, dir);
}

static int collect_args(int argc, char *argv[], int first, char ***names, char ***extra) {
        for (int i = first; i < argc; i++) {
                _cleanup_(freep) char *abs = NULL, *dir = NULL, *name = NULL;
                struct stat st;
                const char *base;

                if (stat(argv[i], &st) < 0) {
                        log_error("%s: %s", argv[i], strerror(errno));
                        return -errno;
                }
                if (argv[i][0] == '/')
                        abs = path_simplify_dup(argv[i]);
                else {
                        _cleanup_(freep) char *cwd = getcwd(NULL, 0), *j = NULL;
                        if (!cwd)
                                return -errno;
                        j = path_join(cwd, argv[i]);
                        abs = j ? path_simplify_dup(j) : NULL;
                }
                if (!abs)
                        return -ENOMEM;
                if (S_ISDIR(st.st_mode)) {
                        if (add_unit_dir(abs, names, extra) < 0) {
                                log_error("%s: cannot read the directory", argv[i]);
                                return -EIO;
                        }
                        continue;
                }
                base = path_basename(abs);
                if (!unit_name_is_valid(base, UNIT_NAME_ANY)) {
                        log_error("%s: \"%s\" is not a valid unit file name (NAME.service, NAME.socket, ...)",
                                  argv[i], base);
                        return -EINVAL;
                }
                dir = strndup_safe(abs, base - abs > 1 ? (size_t) (base - abs - 1) : 1);
                if (!dir || lint_name(base, &name) < 0 || strv_extend_unique(names, name) < 0 ||
                    strv_extend_unique(extra, dir) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* Every unit file of the root (aliases and masks are not units of their own). */
static int collect_root_units(const Root *root, unsigned v, char ***names, DiagList *diags) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(strv_freep) char **all = NULL;
        int r;

        r = loader_new(&(LoaderOptions) { .root = root, .systemd = v }, &l, diags);
        if (r < 0)
                return r;
        r = loader_list_names(l, &all);
        if (r < 0)
                return r;
        STRV_FOREACH(n, all) {
                _cleanup_(unit_freep) Unit *u = NULL;
                _cleanup_(freep) char *name = NULL;

                if (lint_name(*n, &name) < 0)
                        return -ENOMEM;
                if (loader_load(l, name, &u, NULL) < 0 || u->load_state == LOAD_MASKED || !u->fragment_path)
                        continue;
                if (strv_extend_unique(names, u->id) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* Runs our model of systemd-fstab-generator for the root into a fresh temporary directory. */
static int generate(const Root *root, unsigned version, char **ret_dir, DiagList *diags) {
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
        r = fstab_generate(root, version, dir, diags);
        if (r < 0) {
                fstab_generated_remove(dir);
                return r;
        }
        *ret_dir = TAKE_PTR(dir);
        return 0;
}

static void generated_removep(char **dir) {
        if (*dir)
                fstab_generated_remove(*dir);
        *dir = mfree(*dir);
}

/* Paths below the working directory are shown relative to it, as the user typed them. */
static char *relative(const char *s, const char *cwd) {
        size_t n = strlen(cwd), k = 0;
        char *r = malloc(strlen(s) + 1), *o = r;

        if (!r)
                return NULL;
        while (s[k]) {
                if (strncmp(s + k, cwd, n) == 0 && s[k + n] == '/' && (k == 0 || s[k - 1] == ' ' || s[k - 1] == '(')) {
                        k += n + 1;
                        continue;
                }
                *o++ = s[k++];
        }
        *o = 0;
        return r;
}

static void relativize_findings(FindingList *l) {
        _cleanup_(freep) char *cwd = getcwd(NULL, 0);

        if (!cwd || streq(cwd, "/"))
                return;
        for (size_t i = 0; i < l->n; i++) {
                Finding *f = &l->items[i];
                char *x;
                if (f->file && (x = relative(f->file, cwd))) {
                        free(f->file);
                        f->file = x;
                }
                if (f->message && (x = relative(f->message, cwd))) {
                        free(f->message);
                        f->message = x;
                }
                for (char **e = f->evidence; e && *e; e++)
                        if ((x = relative(*e, cwd))) {
                                free(*e);
                                *e = x;
                        }
                if (f->suppressed && (x = relative(f->suppressed, cwd))) {
                        free(f->suppressed);
                        f->suppressed = x;
                }
        }
}

static const char * const anchors[] = {
        "systemd-remount-fs.service", "local-fs.target", "systemd-tmpfiles-setup.service", "sysinit.target",
        NULL,
};

int verb_lint(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF, FORMAT_JUNIT,
                                                _FORMAT_INVALID };
        static const struct option options[] = {
                { "suppressions", required_argument, NULL, ARG_SUPPRESSIONS },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                {},
        };
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(model_freep) Model *model = NULL;
        _cleanup_(strv_freep) char **names = NULL, **extra = NULL, **linted = NULL;
        _cleanup_(generated_removep) char *generated = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(finding_list_done) FindingList findings = {};
        _cleanup_(suppression_file_done) SuppressionFile supp = {};
        _cleanup_(freep) ModelUnit **units = NULL;
        _cleanup_(freep) char *distro = NULL, *anchor = NULL;
        _cleanup_(transaction_freep) Transaction *tr = NULL;
        Cycle *cycles = NULL;
        size_t n_cycles = 0;
        bool truncated = false;
        LintArgs args = {};
        VersionSource vsrc;
        const char *target_name = NULL;
        unsigned version;
        size_t n_units = 0;
        bool input_error = false;
        int r, first;

        r = cli_parse(argc, argv, ctx, options, NULL, lint_option, &args, lint_help, &first);
        anchor = args.transaction;
        if (r != 0) {
                free(args.suppressions);
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        }
        if (args.suppressions) {
                r = suppression_file_load(args.suppressions, &supp, &diags);
                free(args.suppressions);
                if (r < 0) {
                        diag_list_print(&diags, stderr, DIAG_ERROR);
                        return EXIT_ERROR;
                }
        }
        if (cli_check_format(ctx, "lint", formats) < 0)
                return EXIT_ERROR;
        if (first >= argc && !ctx->root) {
                log_error("lint: give unit files or directories, or --root=DIR; see 'bootrace lint --help'");
                return EXIT_ERROR;
        }
        if (ctx->root) {
                r = root_open(ctx->root, &root);
                if (r < 0) {
                        log_error("--root=%s: %s", ctx->root, strerror(-r));
                        return EXIT_ERROR;
                }
        }
        r = rules_load(NULL, &rules, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("cannot read the rules in %s", rules_default_dir());
                return EXIT_ERROR;
        }
        r = context_resolve_version(ctx, root, &version, &vsrc);
        if (r < 0)
                return EXIT_ERROR;
        if (ctx->target && rules_target_version(rules, ctx->target, NULL, &target_name) >= 0) {
                distro = strndup_safe(target_name, strcspn(target_name, "-"));
                if (!distro)
                        return EXIT_ERROR;
        }
        if (vsrc == VERSION_FROM_DEFAULT && !ctx->quiet)
                log_warning("no --target or --systemd given%s: judging for systemd %u",
                            root ? " and no systemd found in the root" : "", version);

        r = collect_args(argc, argv, first, &names, &extra);
        if (r < 0)
                return EXIT_ERROR;
        if (first >= argc && collect_root_units(root, version, &names, &diags) < 0) {
                log_error("--root=%s: cannot list its units", ctx->root);
                return EXIT_ERROR;
        }
        r = generate(root, version, &generated, &diags);
        if (r < 0) {
                log_error("cannot write the generated units: %s", strerror(-r));
                return EXIT_ERROR;
        }

        r = model_new(&(ModelOptions) { .root = root, .extra_dirs = extra, .systemd = version, .distro = distro,
                                        .generator_dir = generated },
                      rules, &model, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("cannot build the model for systemd %u: %s", version, strerror(-r));
                return EXIT_ERROR;
        }
        units = calloc(strv_length(names) + 1, sizeof(ModelUnit *));
        if (!units)
                return EXIT_ERROR;
        STRV_FOREACH(n, names) {
                ModelUnit *mu = NULL;
                r = model_add(model, *n, &mu);
                if (r < 0 || !mu) {
                        log_error("%s: cannot load: %s", *n, strerror(-r));
                        input_error = true;
                        continue;
                }
                if (mu->unit->load_state != LOAD_LOADED) {
                        log_error("%s: %s%s%s", *n, load_state_to_string(mu->unit->load_state),
                                  mu->unit->fragment_path ? ", " : "", strempty(mu->unit->fragment_path));
                        input_error = true;
                        continue;
                }
                units[n_units++] = mu;
                if (strv_extend(&linted, mu->unit->id) < 0)
                        return EXIT_ERROR;
        }
        for (const char * const *a = anchors; *a; a++)
                (void) model_add(model, *a, NULL);
        (void) model_add(model, anchor ?: "default.target", NULL);
        for (size_t i = 0; i < n_units; i++)
                if (units[i]->unit->from_extra_dir && add_install_edges(model, units[i]) < 0)
                        return EXIT_ERROR;
        /* the mount units of every path the linted units need, so that the model knows which exist */
        for (size_t i = 0; i < n_units; i++) {
                _cleanup_(lint_paths_done) LintPaths paths = {};
                if (lint_unit_paths(units[i], rules, version, &paths) < 0)
                        return EXIT_ERROR;
                for (size_t k = 0; k < paths.n; k++) {
                        _cleanup_(strv_freep) char **mounts = NULL;
                        if (lint_path_mount_names(paths.items[k].path, &mounts) < 0)
                                return EXIT_ERROR;
                        STRV_FOREACH(m, mounts)
                                (void) model_add(model, *m, NULL);
                }
        }
        r = model_finish(model);
        if (r < 0) {
                log_error("cannot finish the model: %s", strerror(-r));
                return EXIT_ERROR;
        }

        /* the boot transaction and its ordering cycles */
        r = transaction_build(model, anchor ?: "default.target", &tr, &diags);
        if (r == -ENOMEM)
                return EXIT_ERROR;
        if (r < 0)
                (void) diag_add(&diags, anchor ? DIAG_ERROR : DIAG_NOTICE, NULL, 0,
                                "%s cannot be loaded: no boot transaction, no ordering-cycle check",
                                anchor ?: "default.target");
        else if (transaction_cycles(tr, 256, &cycles, &n_cycles, &truncated) < 0)
                return EXIT_ERROR;
        if (r < 0 && anchor)
                input_error = true;

        LintContext lc = {
                .model = model, .rules = rules, .version = version, .units = units, .n_units = n_units,
                .diags = &diags, .transaction = tr, .transaction_anchor = anchor ?: "default.target",
                .cycles = cycles, .n_cycles = n_cycles, .cycles_truncated = truncated,
        };
        for (size_t i = 0; i < n_units; i++) {
                size_t before = findings.n;
                for (size_t k = 0; k < check_table_size; k++) {
                        r = check_table[k].run(&lc, units[i], &findings);
                        if (r < 0) {
                                cycle_list_free(cycles, n_cycles);
                                log_error("%s: check %s failed: %s", units[i]->unit->id, check_table[k].id,
                                          strerror(-r));
                                return EXIT_ERROR;
                        }
                }
                r = suppress_findings(&findings, before, units[i]->unit, supp.path ? &supp : NULL);
                if (r < 0) {
                        cycle_list_free(cycles, n_cycles);
                        return EXIT_ERROR;
                }
        }
        cycle_list_free(cycles, n_cycles);
        relativize_findings(&findings);
        finding_list_sort(&findings);

        ReportMeta meta = {
                .tool_version = PACKAGE_VERSION, .systemd = version, .target = target_name, .rules = rules,
                .units = linted, .color = ctx->color, .quiet = ctx->quiet,
        };
        switch (ctx->format) {
        case FORMAT_JSON:
                r = report_json(&findings, &meta, stdout);
                break;
        case FORMAT_SARIF:
                r = report_sarif(&findings, &meta, stdout);
                break;
        case FORMAT_JUNIT:
                r = report_junit(&findings, &meta, stdout);
                break;
        default:
                r = report_text(&findings, &meta, stdout);
                break;
        }
        fflush(stdout);
        /* load warnings became findings (unknown-key, invalid-value); errors and notices are said here */
        for (size_t i = 0; i < diags.n; i++)
                if (diags.items[i].level == DIAG_ERROR || (!ctx->quiet && diags.items[i].level == DIAG_NOTICE)) {
                        DiagList one = { .items = &diags.items[i], .n = 1 };
                        diag_list_print(&one, stderr, DIAG_NOTICE);
                }
        for (size_t k = 0; supp.units && supp.units[k]; k++)
                if (!supp.used[k] && !ctx->quiet)
                        log_warning("%s:%u: suppression of %s for %s matched no finding", supp.path, supp.lines[k],
                                    supp.checks[k], supp.units[k]);
        if (r < 0) {
                log_error("cannot write the report: %s", strerror(-r));
                return EXIT_ERROR;
        }
        if (input_error)
                return EXIT_ERROR;
        return finding_list_count_at_least(&findings, ctx->fail_on) > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}
