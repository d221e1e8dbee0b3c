/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace lint: the race checks over unit files or a whole root, judged for one systemd version. */

#include <stdarg.h>
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
        "                     [--suppressions=FILE] [--stdin-name=UNIT] [PATH...]\n\n"
        "Check unit files for boot-ordering races judged for one systemd version. A PATH is a unit file, a\n"
        "directory laid out as a unit directory (e.g. debian/tmp/lib/systemd/system), a Debian package (.deb,\n"
        "read in memory), an unpacked package tree (debian/tmp, debian/foo: their unit and tmpfiles.d\n"
        "directories), a source package's debian/ directory or a file in it (read as debhelper installs\n"
        "them: debian/foo.bar.service is bar.service), or - for a unit file on standard input; they are\n"
        "searched before the root (or the embedded model of the target version when there is no --root).\n"
        "Findings are reported for the units given (PACKAGE:PATH:LINE for packages);\n"
        "without PATH, for every unit of --root. --target may be given several times: each is judged and\n"
        "reported on its own, and the exit status is the worst.\n\n"
        "  --profile=NAME        what a default installation of the --target release adds to the boot\n"
        "                        (default: its server profile: Debian's ifupdown, Ubuntu's netplan and\n"
        "                        networkd, RHEL's NetworkManager and firewalld; cloud: and cloud-init;\n"
        "                        desktop: NetworkManager; minimal: systemd's units only). Not with --root\n"
        "  --suppressions=FILE   lines \"UNIT: CHECK  # reason\" (UNIT may be *) to accept findings\n"
        "  --stdin-name=UNIT     the name of the unit file read from - (default stdin.service)\n"
        "  --transaction=UNIT    the boot target whose transaction is checked for cycles (default.target)\n\n"
        "Exit status: 0 nothing at or above --fail-on (default warning), 1 findings, 2 usage or input error\n"
        "(also: a PATH or --root without unit files, a unit that cannot be loaded, any error printed).\n"
        "'bootrace explain' lists the checks.\n";

enum {
        ARG_SUPPRESSIONS = ARG_VERB_BASE,
        ARG_TRANSACTION,
        ARG_PROFILE,
        ARG_STDIN_NAME,
};

typedef struct LintArgs {
        char *suppressions;
        char *transaction;
        char *profile;
        char *stdin_name;
} LintArgs;

static int lint_option(int c, const char *arg, void *userdata) {
        LintArgs *a = userdata;
        char **p = c == ARG_SUPPRESSIONS ? &a->suppressions : c == ARG_TRANSACTION ? &a->transaction
                   : c == ARG_PROFILE                                     ? &a->profile
                   : c == ARG_STDIN_NAME                                  ? &a->stdin_name
                                                                          : NULL;

        if (!p)
                return -EINVAL;
        if (c == ARG_TRANSACTION && !unit_name_is_valid(arg, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                log_error("--transaction=%s: not a unit name", arg);
                return -EINVAL;
        }
        if (c == ARG_STDIN_NAME && !unit_name_is_valid(arg, UNIT_NAME_ANY)) {
                log_error("--stdin-name=%s: not a unit file name (NAME.service, NAME.socket, ...)", arg);
                return -EINVAL;
        }
        free(*p);
        *p = strdup(arg);
        return *p ? 0 : -ENOMEM;
}

/* Records an input error that was printed (for the machine-readable reports). Returns -EINVAL, or -ENOMEM. */
static int input_error(DiagList *input, const char *file, const char *fmt, ...) _printf_(3, 4);
static int input_error(DiagList *input, const char *file, const char *fmt, ...) {
        _cleanup_(freep) char *m = NULL;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0 || diag_add(input, DIAG_ERROR, file, 0, "%s", m) < 0)
                return -ENOMEM;
        return -EINVAL;
}

/* - : the unit file on standard input, into pkgs as stdin_name. */
static int add_stdin(PackageSet *pkgs, const char *stdin_name, DiagList *diags) {
        _cleanup_(freep) char *data = NULL;
        size_t size;
        int r = read_full_stream(STDIN_FILENO, PACKAGE_MEMBER_MAX, &data, &size);

        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                if (r == -EFBIG)
                        (void) diag_add(diags, DIAG_ERROR, "<stdin>", 0,
                                        "cannot read: more than %u MiB, too large to be a unit file",
                                        PACKAGE_MEMBER_MAX >> 20);
                else
                        (void) diag_add(diags, DIAG_ERROR, "<stdin>", 0, "cannot read: %s", strerror(-r));
                return r;
        }
        if (size == 0) {
                /* an empty unit file is a mask: nothing to judge, and surely not what was meant */
                (void) diag_add(diags, DIAG_ERROR, "<stdin>", 0, "empty: give a unit file on standard input");
                return -ENODATA;
        }
        return package_set_add_data(pkgs, "<stdin>", stdin_name ? stdin_name : "stdin.service", data, size, diags);
}

/* How a PATH is read as a package: a .deb, an unpacked package tree, a source package's debian/ directory, a file
 * of one that debhelper installs under another name, standard input. */
static int add_package(const char *arg, const struct stat *st, const char *stdin_name, PackageSet *pkgs,
                       DiagList *diags) {
        _cleanup_(freep) char *dir = NULL;
        int r;

        if (streq(arg, "-"))
                return add_stdin(pkgs, stdin_name, diags);
        if (S_ISDIR(st->st_mode) && package_dir_is_debian(arg) > 0)
                return package_set_add_debian(pkgs, arg, NULL, diags);
        if (S_ISDIR(st->st_mode))
                return package_dir_is_tree(arg) > 0 ? package_set_add_tree(pkgs, arg, diags) : 0;
        /* a file named .deb is read as one, so a damaged package is said to be one, not a bad unit name */
        if (package_file_is_deb(arg) > 0 || (S_ISREG(st->st_mode) && endswith(arg, ".deb")))
                return package_set_add_deb(pkgs, arg, diags);
        r = package_debian_file_renamed(arg, &dir);
        if (r <= 0)
                return r;
        return package_set_add_debian(pkgs, dir, path_basename(arg), diags);
}

/* A .deb, an unpacked package tree, debian/ and its files, standard input go into pkgs: 1 taken, 0 not a package,
 * <0 error. What was refused in it is said here, once (these are no findings). */
static int collect_package(const char *arg, const struct stat *st, const char *stdin_name, PackageSet *pkgs,
                           DiagList *input, bool *said_error) {
        _cleanup_(diag_list_done) DiagList diags = {};
        size_t before = pkgs->n_packages;
        int r;

        r = add_package(arg, st, stdin_name, pkgs, &diags);
        if (r == 0 && pkgs->n_packages == before)
                return 0;
        diag_list_print(&diags, stderr, DIAG_NOTICE);
        *said_error = *said_error || diag_count(&diags, DIAG_ERROR) > 0;
        if (diag_list_copy(input, &diags, DIAG_ERROR) < 0)
                return -ENOMEM;
        if (r < 0 && diag_count(&diags, DIAG_ERROR) > 0)
                return r == -ENOMEM ? r : -EINVAL; /* said above, and in input */
        if (r < 0) {
                log_error_errno(r, "%s: cannot read the package", arg);
                return r == -ENOMEM ? r : input_error(input, arg, "cannot read the package: %s", strerror(-r));
        }
        return 1;
}

/* The PATHs: names to lint, directories to search first, packages. Returns 0, -ENOMEM, or another <0 after
 * printing the error and recording it in input. */
static int collect_args(int argc, char *argv[], int first, const char *stdin_name, char ***names, char ***extra,
                        PackageSet *pkgs, DiagList *input, bool *said_error) {
        for (int i = first; i < argc; i++) {
                struct stat st = {};
                int r;

                if (!streq(argv[i], "-") && stat(argv[i], &st) < 0) {
                        r = errno;
                        log_error_errno(r, "%s", argv[i]);
                        return input_error(input, argv[i], "%s", strerror(r));
                }
                r = collect_package(argv[i], &st, stdin_name, pkgs, input, said_error);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                r = lint_collect_path(argv[i], &st, names, extra, NULL);
                if (r == -EINVAL) {
                        log_error("%s: \"%s\" is not a valid unit file name (NAME.service, NAME.socket, ...)",
                                  argv[i], path_basename(argv[i]));
                        return input_error(input, argv[i], "not a valid unit file name");
                }
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        log_error("%s: cannot read the directory", argv[i]);
                        return input_error(input, argv[i], "cannot read the directory");
                }
                if (r == 0) {
                        /* a directory that holds nothing to judge is a wrong PATH, not a clean result */
                        log_error("%s: no unit files in it (NAME.service, NAME.socket, ...); give a unit directory "
                                  "such as debian/tmp/lib/systemd/system, a package tree or a .deb", argv[i]);
                        return input_error(input, argv[i], "no unit files in it");
                }
        }
        return 0;
}

/* The packages' unit directories, their unit files as the names to lint, and every tmpfiles.d line of the
 * packages and the root. */
static int collect_packages(PackageSet *pkgs, const Root *root, const FeatureSet *fs, bool quiet, char ***names,
                            char ***dirs, TmpfilesList *tmpfiles, bool *said_error) {
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
                        if (p->data) /* standard input: the one file it is */
                                continue;
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
                                *said_error = *said_error || tdiags.items[i].level == DIAG_ERROR;
                                break;
                        }
        return 0;
}

/* Every unit file of the root (aliases and masks are not units of their own). */
static int collect_root_units(const Root *root, const FeatureSet *fs, char ***names, DiagList *diags) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(strv_freep) char **all = NULL;
        _cleanup_(freep) char **ids = NULL;
        _cleanup_(hashmap_done) Hashmap seen = {};
        size_t n_names = 0, allocated = 0, n_all;
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
        /* the names as lint loads them (a template with an instance), then each one's unit */
        n_all = strv_length(all);
        for (size_t i = 0; i < n_all; i++) {
                char *name;
                if (lint_unit_name(all[i], &name) < 0)
                        return -ENOMEM;
                free(all[i]);
                all[i] = name;
        }
        r = loader_identify_ids(l, all, n_all, &ids);
        if (r < 0)
                return r;
        /* ids has a NULL where a name has no unit of its own: each slot is taken or freed */
        for (size_t i = 0; i < n_all; i++) {
                char *id = TAKE_PTR(ids[i]);
                if (r < 0 || !id || hashmap_get(&seen, id)) {
                        free(id);
                        continue;
                }
                r = strv_push_grow(names, &n_names, &allocated, id);
                if (r >= 0 && hashmap_put(&seen, id, id) < 0)
                        r = -ENOMEM;
        }
        return r < 0 ? r : 0;
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

/* One --target's judgement (or the one without --target). */
typedef struct LintTarget {
        const char *name;          /* --target as given; NULL: the context's own choice */
        VersionChoice vc;
        char *nearest, *distro;
        const char *target_name;   /* the canonical target name, or NULL */
        const Profile *profile;
        FeatureSet features;
        char **names, **package_dirs;
        TmpfilesList tmpfiles;
        char *generated;
        LintRun *run;
        DiagList diags;
        DiagList errors;           /* what could not be judged for it, as the reports show it */
} LintTarget;

static void lint_target_done(LintTarget *t) {
        free(t->nearest);
        free(t->distro);
        strv_free(t->names);
        strv_free(t->package_dirs);
        tmpfiles_list_done(&t->tmpfiles);
        lint_generated_removep(&t->generated);
        lint_run_release(t->run);
        diag_list_done(&t->diags);
        diag_list_done(&t->errors);
}

/* The version, distro and profile of t. Returns 0, or <0 after printing an error (usage: no report). */
static int lint_target_setup(Context *ctx, const Root *root, Rules **rules, const char *profile_name,
                             LintTarget *t) {
        Context c = *ctx; /* a copy that names this target: the version is resolved for it */
        int r;

        if (t->name)
                c.target = (char *) t->name;
        r = context_resolve_version(&c, root, &t->vc);
        if (r < 0)
                return r;
        t->nearest = version_choice_note(&t->vc);
        if (version_choice_nearest(&t->vc) && !t->nearest)
                return -ENOMEM;
        if (c.target && rules_target_version(*rules, c.target, NULL, &t->target_name) >= 0) {
                t->distro = strndup_safe(t->target_name, strcspn(t->target_name, "-"));
                if (!t->distro)
                        return -ENOMEM;
        }
        if (t->vc.source == VERSION_FROM_DEFAULT && !ctx->quiet)
                log_warning("no --target or --systemd given%s: judging for systemd %u",
                            root ? " and no systemd found in the root" : "", t->vc.version);
        if (cli_feature_set(rules, t->vc.version, &t->features) < 0)
                return -EINVAL;
        r = cli_resolve_profile(*rules, t->target_name, root, profile_name, &t->profile);
        if (r < 0)
                return r;
        if (!root && (t->profile || profile_name))
                cli_say_profile(t->profile, t->target_name, ctx->quiet);
        return 0;
}

/* Lints the given names for t. Returns 0 (t->errors says what could not be judged), or <0 after printing an
 * error. */
static int lint_target_run(const Context *ctx, const Root *root, Rules *rules, PackageSet *pkgs, char **given,
                           bool paths_given, char **extra, bool first_target, const char *anchor,
                           SuppressionFile *supp, bool *said_error, LintTarget *t) {
        int r;

        t->names = strv_copy(given);
        if (given && !t->names)
                return -ENOMEM;
        /* the packages' own lines say once what was read */
        r = collect_packages(pkgs, root, &t->features, ctx->quiet || !first_target, &t->names, &t->package_dirs,
                             &t->tmpfiles, said_error);
        if (r < 0) {
                log_error_errno(r, "cannot read the packages");
                return r;
        }
        if (!paths_given && collect_root_units(root, &t->features, &t->names, &t->diags) < 0) {
                log_error("--root=%s: cannot list its units", ctx->root);
                return -EIO;
        }
        if (strv_length(t->names) == 0) {
                if (!paths_given)
                        log_error("--root=%s: no unit files in it; is it the root of a system?", ctx->root);
                else
                        log_error("no unit files in the package%s given: nothing to judge",
                                  pkgs->n_packages == 1 ? "" : "s");
                return -ENOENT;
        }
        r = lint_generate(root, &t->features, &t->generated, &t->diags);
        if (r < 0) {
                log_error_errno(r, "cannot write the generated units");
                return r;
        }

        LintRunOptions ro = {
                .root = root, .extra_dirs = extra, .version = t->vc.version, .target = t->target_name,
                .distro = t->distro,
                .profile = t->profile, .package_root = pkgs->root, .package_dirs = t->package_dirs,
                .tmpfiles = &t->tmpfiles, .generator_dir = t->generated, .anchor = anchor, .anchor_given = !!anchor,
                .names = t->names, .suppressions = supp->path ? supp : NULL,
        };
        r = lint_run(&ro, rules, &t->run, &t->diags);
        if (r < 0) {
                diag_list_print(&t->diags, stderr, DIAG_ERROR);
                log_error_errno(r, "cannot lint for systemd %u", t->vc.version);
                return r;
        }
        STRV_FOREACH(e, t->run->load_errors) {
                log_error("%s", *e);
                if (diag_add(&t->errors, DIAG_ERROR, NULL, 0, "%s", *e) < 0)
                        return -ENOMEM;
        }
        /* each race finding carries the repair `bootrace fix` would choose */
        /* the fix search rewrites unit files on the host: units read from packages keep the checks' own fix */
        r = pkgs->n_packages > 0 ? 0 : fix_attach(&ro, rules, t->run, &t->diags);
        if (r < 0) {
                diag_list_print(&t->diags, stderr, DIAG_ERROR);
                log_error_errno(r, "cannot search for fixes");
                return r;
        }
        relativize_findings(&t->run->findings);
        finding_list_sort(&t->run->findings);
        return diag_list_copy(&t->errors, &t->diags, DIAG_ERROR);
}

static void lint_args_done(LintArgs *a) {
        a->suppressions = mfree(a->suppressions);
        a->transaction = mfree(a->transaction);
        a->profile = mfree(a->profile);
        a->stdin_name = mfree(a->stdin_name);
}

/* --suppressions=FILE into supp. Returns 0, or a negative errno after printing why. */
static int load_suppressions(const char *path, SuppressionFile *supp, DiagList *diags) {
        int r;

        if (!path)
                return 0;
        r = suppression_file_load(path, supp, diags);
        if (r < 0)
                diag_list_print(diags, stderr, DIAG_ERROR);
        return r;
}

/* A mistyped check id in the suppression file would never match: said, with the id meant. */
static void warn_unknown_checks(const Rules *rules, const SuppressionFile *supp) {
        for (size_t k = 0; supp->checks && supp->checks[k]; k++)
                if (!streq(supp->checks[k], "all") && !rules_check_lookup(rules, supp->checks[k])) {
                        const char *close = rules_suggest_check(rules, supp->checks[k]);
                        log_warning("%s:%u: unknown check \"%s\"%s%s%s; 'bootrace explain' lists them", supp->path,
                                    supp->lines[k], supp->checks[k], close ? " (did you mean \"" : "",
                                    strempty(close), close ? "\"?)" : "");
                }
}

/* Every target judged, with what its reports need. */
typedef struct LintTargets {
        LintTarget *items;
        ReportRun *runs;
        ReportMeta *metas;
        DiagList *errors; /* what went wrong for every target, then for this one */
        size_t n;
} LintTargets;

static void lint_targets_done(LintTargets *l) {
        for (size_t i = 0; l->items && i < l->n; i++)
                lint_target_done(&l->items[i]);
        for (size_t i = 0; l->errors && i < l->n; i++)
                diag_list_done(&l->errors[i]);
        free(l->items);
        free(l->runs);
        free(l->metas);
        free(l->errors);
        *l = (LintTargets) {};
}

/* Several --target: each judged on its own (--systemd names one version: then the last --target). Returns 0, or
 * a negative errno after printing an error. */
static int lint_targets_setup(Context *ctx, Inputs *in, const char *profile, LintTargets *l) {
        l->n = strv_length(ctx->targets) > 1 && ctx->systemd == 0 ? strv_length(ctx->targets) : 1;
        l->items = calloc(l->n, sizeof(LintTarget));
        l->runs = calloc(l->n, sizeof(ReportRun));
        l->metas = calloc(l->n, sizeof(ReportMeta));
        l->errors = calloc(l->n, sizeof(DiagList));
        if (!l->items || !l->runs || !l->metas || !l->errors)
                return log_oom();
        for (size_t i = 0; i < l->n; i++) {
                int r;

                l->items[i].name = l->n > 1 ? ctx->targets[i] : NULL;
                r = lint_target_setup(ctx, in->root, &in->rules, profile, &l->items[i]);
                if (r == -ENOMEM)
                        return log_oom();
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Lints every target. Returns 0, 1 when nothing could be judged (said, and recorded in input), or a negative
 * errno after printing an error. */
static int lint_targets_run(const Context *ctx, const Inputs *in, const LintArgs *a, PackageSet *pkgs,
                            char **names, bool paths_given, char **extra, SuppressionFile *supp, DiagList *input,
                            bool *said_error, LintTargets *l) {
        for (size_t i = 0; i < l->n; i++) {
                int r = lint_target_run(ctx, in->root, in->rules, pkgs, names, paths_given, extra, i == 0,
                                        a->transaction, supp, said_error, &l->items[i]);
                if (r == -ENOENT) {
                        /* nothing to judge: said, and recorded for the reports */
                        if (input_error(input, NULL, "no unit files to judge") == -ENOMEM)
                                return log_oom();
                        return 1;
                }
                if (r == -ENOMEM)
                        return log_oom();
                if (r < 0)
                        return r;
        }
        return 0;
}

/* The reports of every target (nothing judged: only the machine-readable formats say what went wrong; text
 * said it on stderr). Returns 0, or a negative errno after printing an error. */
static int lint_report(const Context *ctx, const Inputs *in, PackageSet *pkgs, const DiagList *input, bool fatal,
                       LintTargets *l) {
        static const FindingList none = {};
        int r;

        for (size_t i = 0; i < l->n; i++) {
                LintTarget *t = &l->items[i];

                if (diag_list_copy(&l->errors[i], input, DIAG_ERROR) < 0 ||
                    diag_list_copy(&l->errors[i], &t->errors, DIAG_ERROR) < 0)
                        return log_oom();
                l->metas[i] = (ReportMeta) {
                        .tool_version = PACKAGE_VERSION, .systemd = t->vc.version, .target = t->target_name,
                        .rules = in->rules, .units = t->run ? t->run->linted : NULL, .color = ctx->color,
                        .quiet = ctx->quiet, .packages = pkgs, .tmpfiles = &t->tmpfiles,
                        .version_choice = &t->vc, .nearest_note = t->nearest, .profile = t->profile,
                        .errors = &l->errors[i],
                };
                l->runs[i] = (ReportRun) { .findings = t->run ? &t->run->findings : &none, .meta = &l->metas[i] };
        }
        if (fatal && ctx->format == FORMAT_TEXT)
                return 0;
        r = report_lint(ctx->format, l->runs, l->n, stdout);
        fflush(stdout);
        if (r < 0)
                return log_error_errno(r, "cannot write the report");
        return 0;
}

/* Load warnings became findings (unknown-key, invalid-value); errors and notices are said here, and the
 * suppressions that matched nothing. */
static void say_leftovers(const Context *ctx, const LintTargets *l, const SuppressionFile *supp, bool *said_error) {
        for (size_t i = 0; i < l->n; i++)
                for (size_t k = 0; k < l->items[i].diags.n; k++) {
                        const Diag *d = &l->items[i].diags.items[k];
                        if (d->level == DIAG_ERROR || (!ctx->quiet && d->level == DIAG_NOTICE && i == 0)) {
                                DiagList one = { .items = (Diag *) d, .n = 1 };
                                diag_list_print(&one, stderr, DIAG_NOTICE);
                                *said_error = *said_error || d->level == DIAG_ERROR;
                        }
                }
        for (size_t k = 0; supp->units && supp->units[k]; k++)
                if (!supp->used[k] && !ctx->quiet)
                        log_warning("%s:%u: suppression of %s for %s matched no finding", supp->path, supp->lines[k],
                                    supp->checks[k], supp->units[k]);
}

/* The worst of the targets. */
static int lint_exit_status(const Context *ctx, const LintTargets *l, bool said_error) {
        int ret = EXIT_CLEAN;

        for (size_t i = 0; i < l->n; i++) {
                if (l->items[i].run->input_error || said_error)
                        ret = EXIT_ERROR;
                else if (ret == EXIT_CLEAN && l->items[i].run &&
                         finding_list_count_at_least(&l->items[i].run->findings, ctx->fail_on) > 0)
                        ret = EXIT_FINDINGS;
        }
        return ret;
}

int verb_lint(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF, FORMAT_JUNIT,
                                                _FORMAT_INVALID };
        static const struct option options[] = {
                { "suppressions", required_argument, NULL, ARG_SUPPRESSIONS },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                { "profile", required_argument, NULL, ARG_PROFILE },
                { "stdin-name", required_argument, NULL, ARG_STDIN_NAME },
                {},
        };
        _cleanup_(lint_args_done) LintArgs args = {};
        _cleanup_(diag_list_done) DiagList diags = {}, input = {};
        _cleanup_(suppression_file_done) SuppressionFile supp = {};
        _cleanup_(inputs_done) Inputs in = {};
        _cleanup_(package_set_done) PackageSet pkgs = {};
        _cleanup_(strv_freep) char **names = NULL, **extra = NULL;
        _cleanup_(lint_targets_done) LintTargets targets = {};
        bool said_error = false; /* an error was printed: the exit status is 2 whatever else is found */
        bool fatal;              /* nothing could be judged: the reports hold only what went wrong */
        int r, first;

        r = cli_parse(argc, argv, ctx, options, NULL, lint_option, &args, lint_help, &first);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (load_suppressions(args.suppressions, &supp, &diags) < 0 || cli_check_format(ctx, "lint", formats) < 0)
                return EXIT_ERROR;
        if (first >= argc && !ctx->root) {
                log_error("lint: give unit files or directories, or --root=DIR; see 'bootrace lint --help'");
                return EXIT_ERROR;
        }
        if (cli_open_inputs(ctx, 0, &in, &diags) < 0)
                return EXIT_ERROR;
        warn_unknown_checks(in.rules, &supp);
        if (lint_targets_setup(ctx, &in, args.profile, &targets) < 0)
                return EXIT_ERROR;
        r = collect_args(argc, argv, first, args.stdin_name, &names, &extra, &pkgs, &input, &said_error);
        if (r == -ENOMEM)
                return log_oom(), EXIT_ERROR;
        fatal = r < 0;
        if (!fatal) {
                r = lint_targets_run(ctx, &in, &args, &pkgs, names, first < argc, extra, &supp, &input,
                                     &said_error, &targets);
                if (r < 0)
                        return EXIT_ERROR;
                fatal = r > 0;
        }
        r = lint_report(ctx, &in, &pkgs, &input, fatal, &targets);
        if (fatal)
                return EXIT_ERROR;
        say_leftovers(ctx, &targets, &supp, &said_error);
        return r < 0 ? EXIT_ERROR : lint_exit_status(ctx, &targets, said_error);
}
