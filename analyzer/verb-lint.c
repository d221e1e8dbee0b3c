/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace lint: the race checks over unit files or a whole root, judged for one systemd version. */

#include <sys/stat.h>

#include "basic/unit-name.h"
#include "fix/fix-search.h"
#include "lint/check-common.h"
#include "lint/lint-run.h"
#include "lint/suppress.h"
#include "load/loader.h"
#include "load/package.h"
#include "load/unit-words.h"
#include "load/version.h"
#include "report/report.h"
#include "verbs.h"

static const char lint_help[] =
        "Usage: bootrace lint [--root=DIR] [--target=NAME|--systemd=N] [--profile=NAME]\n"
        "                     [--format=text|json|sarif|junit] [--fail-on=error|warning|info]\n"
        "                     [--suppressions=FILE] [PATH...]\n\n"
        "Check unit files for boot-ordering races judged for one systemd version. A PATH is a unit file, a\n"
        "directory laid out as a unit directory (e.g. debian/tmp/lib/systemd/system), a Debian package (.deb,\n"
        "read in memory) or an unpacked package tree (debian/tmp, debian/foo: their unit and tmpfiles.d\n"
        "directories); they are searched before the root (or the embedded model of the target version when\n"
        "there is no --root). Findings are reported for the units given (PACKAGE:PATH:LINE for packages);\n"
        "without PATH, for every unit of --root.\n\n"
        "  --profile=NAME        what a default installation of the --target release adds to the boot\n"
        "                        (default: its server profile: Debian's ifupdown, Ubuntu's netplan and\n"
        "                        networkd, RHEL's NetworkManager and firewalld; cloud: and cloud-init;\n"
        "                        desktop: NetworkManager; minimal: systemd's units only). Not with --root\n"
        "  --suppressions=FILE   lines \"UNIT: CHECK  # reason\" (UNIT may be *) to accept findings\n"
        "  --transaction=UNIT    the boot target whose transaction is checked for cycles (default.target)\n\n"
        "Exit status: 0 nothing at or above --fail-on (default warning), 1 findings, 2 usage or input error.\n"
        "'bootrace explain' lists the checks.\n";

enum {
        ARG_SUPPRESSIONS = ARG_VERB_BASE,
        ARG_TRANSACTION,
        ARG_PROFILE,
};

typedef struct LintArgs {
        char *suppressions;
        char *transaction;
        char *profile;
} LintArgs;

static int lint_option(int c, const char *arg, void *userdata) {
        LintArgs *a = userdata;
        char **p = c == ARG_SUPPRESSIONS ? &a->suppressions : c == ARG_TRANSACTION ? &a->transaction
                   : c == ARG_PROFILE                                     ? &a->profile
                                                                          : NULL;

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

/* A .deb or an unpacked package tree goes into pkgs: 1 taken, 0 not a package, <0 error. What was refused in
 * it is said here, once (these are no findings). */
static int collect_package(const char *arg, const struct stat *st, PackageSet *pkgs) {
        _cleanup_(diag_list_done) DiagList diags = {};
        int r;

        if (S_ISDIR(st->st_mode) ? package_dir_is_tree(arg) <= 0 : package_file_is_deb(arg) <= 0)
                return 0;
        r = S_ISDIR(st->st_mode) ? package_set_add_tree(pkgs, arg, &diags) : package_set_add_deb(pkgs, arg, &diags);
        diag_list_print(&diags, stderr, DIAG_NOTICE);
        if (r < 0) {
                log_error("%s: cannot read the package: %s", arg, strerror(-r));
                return r;
        }
        return 1;
}

static int collect_args(int argc, char *argv[], int first, char ***names, char ***extra, PackageSet *pkgs) {
        for (int i = first; i < argc; i++) {
                struct stat st;
                int r;

                if (stat(argv[i], &st) < 0) {
                        log_error("%s: %s", argv[i], strerror(errno));
                        return -errno;
                }
                r = collect_package(argv[i], &st, pkgs);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                r = lint_collect_path(argv[i], &st, names, extra, NULL);
                if (r == -EINVAL) {
                        log_error("%s: \"%s\" is not a valid unit file name (NAME.service, NAME.socket, ...)",
                                  argv[i], path_basename(argv[i]));
                        return r;
                }
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        log_error("%s: cannot read the directory", argv[i]);
                        return -EIO;
                }
        }
        return 0;
}

/* The packages' unit directories, their unit files as the names to lint, and every tmpfiles.d line of the
 * packages and the root. */
static int collect_packages(PackageSet *pkgs, const Root *root, const FeatureSet *fs, bool quiet, char ***names,
                            char ***dirs, TmpfilesList *tmpfiles) {
        _cleanup_(diag_list_done) DiagList tdiags = {};
        _cleanup_(strv_freep) char **files = NULL;
        DiagList *diags = &tdiags;
        const Root *pr;
        int r;

        if (pkgs->n_packages > 0) {
                if ((r = package_set_root(pkgs, &pr)) < 0 || (r = package_set_unit_dirs(pkgs, fs, dirs)) < 0 ||
                    (r = package_set_unit_files(pkgs, *dirs, &files)) < 0 || (r = tmpfiles_load(pr, tmpfiles, diags)) < 0)
                        return r;
                STRV_FOREACH(f, files) {
                        _cleanup_(freep) char *name = NULL;
                        if (lint_unit_name(*f, &name) < 0 || strv_extend_unique(names, name) < 0)
                                return -ENOMEM;
                }
                for (size_t i = 0; i < pkgs->n_packages && !quiet; i++) {
                        const Package *p = &pkgs->packages[i];
                        fprintf(stderr, "%s: %s%s%s%s%s%s%s: %u unit and tmpfiles.d entr%s read\n", p->file,
                                p->name ? "package " : "", strempty(p->name), p->version ? " " : "",
                                strempty(p->version), p->architecture ? " (" : "", strempty(p->architecture),
                                p->architecture ? ")" : p->name ? "" : "package tree", p->n_kept,
                                p->n_kept == 1 ? "y" : "ies");
                }
        }
        if (root && (r = tmpfiles_load(root, tmpfiles, diags)) < 0)
                return r;
        /* bad tmpfiles.d lines of the packages (the root's are not the packages' business) */
        for (size_t i = 0; i < tdiags.n && pkgs->n_packages > 0; i++)
                for (size_t k = 0; k < pkgs->n_packages; k++)
                        if (tdiags.items[i].file && startswith(tdiags.items[i].file, pkgs->packages[k].origin)) {
                                DiagList one = { .items = &tdiags.items[i], .n = 1 };
                                diag_list_print(&one, stderr, DIAG_NOTICE);
                                break;
                        }
        return 0;
}

/* Every unit file of the root (aliases and masks are not units of their own). */
static int collect_root_units(const Root *root, const FeatureSet *fs, char ***names, DiagList *diags) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(strv_freep) char **all = NULL;
        _cleanup_(hashmap_done) Hashmap seen = {};
        size_t n_names = 0, allocated = 0;
        int r;

        r = loader_new(&(LoaderOptions) { .root = root, .features = fs }, &l, diags);
        if (r < 0)
                return r;
        r = loader_list_names(l, &all);
        if (r < 0)
                return r;
        /* the names already there, and each unit once (an alias names the same unit): a set of them */
        STRV_FOREACH(n, *names)
                if (hashmap_put(&seen, *n, *n) == -ENOMEM)
                        return -ENOMEM;
        STRV_FOREACH(n, all) {
                _cleanup_(unit_freep) Unit *u = NULL;
                _cleanup_(freep) char *name = NULL;

                if (lint_unit_name(*n, &name) < 0)
                        return -ENOMEM;
                if (loader_identify(l, name, &u, NULL) < 0 || u->load_state == LOAD_MASKED || !u->fragment_path)
                        continue;
                if (hashmap_get(&seen, u->id))
                        continue;
                if (strv_push_grow(names, &n_names, &allocated, strdup(u->id)) < 0)
                        return -ENOMEM;
                if (hashmap_put(&seen, (*names)[n_names - 1], (*names)[n_names - 1]) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static void relativize_findings(FindingList *l) {
        _cleanup_(freep) char *cwd = getcwd(NULL, 0);

        if (!cwd || streq(cwd, "/"))
                return;
        for (size_t i = 0; i < l->n; i++) {
                Finding *f = &l->items[i];
                char *x;
                if (f->file && (x = path_text_relative(f->file, cwd))) {
                        free(f->file);
                        f->file = x;
                }
                if (f->message && (x = path_text_relative(f->message, cwd))) {
                        free(f->message);
                        f->message = x;
                }
                if (f->fix && (x = path_text_relative(f->fix, cwd))) {
                        free(f->fix);
                        f->fix = x;
                }
                for (char **e = f->fix_details ? f->fix_details->rejected : NULL; e && *e; e++)
                        if ((x = path_text_relative(*e, cwd))) {
                                free(*e);
                                *e = x;
                        }
                if (f->fix_details && f->fix_details->none_reason &&
                    (x = path_text_relative(f->fix_details->none_reason, cwd))) {
                        free(f->fix_details->none_reason);
                        f->fix_details->none_reason = x;
                }
                for (char **e = f->evidence; e && *e; e++)
                        if ((x = path_text_relative(*e, cwd))) {
                                free(*e);
                                *e = x;
                        }
                if (f->suppressed && (x = path_text_relative(f->suppressed, cwd))) {
                        free(f->suppressed);
                        f->suppressed = x;
                }
        }
}

int verb_lint(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF, FORMAT_JUNIT,
                                                _FORMAT_INVALID };
        static const struct option options[] = {
                { "suppressions", required_argument, NULL, ARG_SUPPRESSIONS },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                { "profile", required_argument, NULL, ARG_PROFILE },
                {},
        };
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(lint_run_releasep) LintRun *run = NULL; /* the process exits after this verb */
        _cleanup_(strv_freep) char **names = NULL, **extra = NULL;
        _cleanup_(lint_generated_removep) char *generated = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(suppression_file_done) SuppressionFile supp = {};
        _cleanup_(package_set_done) PackageSet pkgs = {};
        _cleanup_(tmpfiles_list_done) TmpfilesList tmpfiles = {};
        _cleanup_(strv_freep) char **package_dirs = NULL;
        _cleanup_(freep) char *distro = NULL, *anchor = NULL, *profile_name = NULL;
        _cleanup_(freep) char *nearest = NULL;
        const Profile *profile = NULL;
        LintArgs args = {};
        VersionChoice vc;
        const char *target_name = NULL;
        unsigned version;
        FeatureSet features;
        int r, first;

        r = cli_parse(argc, argv, ctx, options, NULL, lint_option, &args, lint_help, &first);
        anchor = args.transaction;
        profile_name = args.profile;
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
        r = cli_open_root(ctx, &root);
        if (r < 0)
                return EXIT_ERROR;
        r = cli_load_rules(&rules, &diags);
        if (r < 0)
                return EXIT_ERROR;
        r = context_resolve_version(ctx, root, &vc);
        if (r < 0)
                return EXIT_ERROR;
        version = vc.version;
        nearest = version_choice_note(&vc);
        if (version_choice_nearest(&vc) && !nearest)
                return EXIT_ERROR;
        if (ctx->target && rules_target_version(rules, ctx->target, NULL, &target_name) >= 0) {
                distro = strndup_safe(target_name, strcspn(target_name, "-"));
                if (!distro)
                        return EXIT_ERROR;
        }
        if (vc.source == VERSION_FROM_DEFAULT && !ctx->quiet)
                log_warning("no --target or --systemd given%s: judging for systemd %u",
                            root ? " and no systemd found in the root" : "", version);
        if (cli_feature_set(&rules, version, &features) < 0)
                return EXIT_ERROR;
        if (cli_resolve_profile(rules, target_name, root, profile_name, &profile) < 0)
                return EXIT_ERROR;
        if (!root && (profile || profile_name))
                cli_say_profile(profile, target_name, ctx->quiet);

        r = collect_args(argc, argv, first, &names, &extra, &pkgs);
        if (r < 0)
                return EXIT_ERROR;
        r = collect_packages(&pkgs, root, &features, ctx->quiet, &names, &package_dirs, &tmpfiles);
        if (r < 0) {
                log_error("cannot read the packages: %s", strerror(-r));
                return EXIT_ERROR;
        }
        if (first >= argc && collect_root_units(root, &features, &names, &diags) < 0) {
                log_error("--root=%s: cannot list its units", ctx->root);
                return EXIT_ERROR;
        }
        r = lint_generate(root, &features, &generated, &diags);
        if (r < 0) {
                log_error("cannot write the generated units: %s", strerror(-r));
                return EXIT_ERROR;
        }

        LintRunOptions ro = {
                .root = root, .extra_dirs = extra, .version = version, .distro = distro, .target = target_name,
                .profile = profile,
                .package_root = pkgs.root, .package_dirs = package_dirs, .tmpfiles = &tmpfiles,
                .generator_dir = generated, .anchor = anchor, .anchor_given = !!anchor, .names = names,
                .suppressions = supp.path ? &supp : NULL,
        };
        r = lint_run(&ro, rules, &run, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("cannot lint for systemd %u: %s", version, strerror(-r));
                return EXIT_ERROR;
        }
        STRV_FOREACH(e, run->load_errors)
                log_error("%s", *e);
        /* each race finding carries the repair `bootrace fix` would choose */
        /* the fix search rewrites unit files on the host: units read from packages keep the checks' own fix */
        r = pkgs.n_packages > 0 ? 0 : fix_attach(&ro, rules, run, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("cannot search for fixes: %s", strerror(-r));
                return EXIT_ERROR;
        }
        relativize_findings(&run->findings);
        finding_list_sort(&run->findings);

        ReportMeta meta = {
                .tool_version = PACKAGE_VERSION, .systemd = version, .target = target_name, .rules = rules,
                .units = run->linted, .color = ctx->color, .quiet = ctx->quiet,
                .packages = &pkgs, .tmpfiles = &tmpfiles, .version_choice = &vc, .nearest_note = nearest,
                .profile = profile,
        };
        switch (ctx->format) {
        case FORMAT_JSON:
                r = report_json(&run->findings, &meta, stdout);
                break;
        case FORMAT_SARIF:
                r = report_sarif(&run->findings, &meta, stdout);
                break;
        case FORMAT_JUNIT:
                r = report_junit(&run->findings, &meta, stdout);
                break;
        default:
                r = report_text(&run->findings, &meta, stdout);
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
        if (run->input_error)
                return EXIT_ERROR;
        return finding_list_count_at_least(&run->findings, ctx->fail_on) > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}
