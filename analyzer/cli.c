/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>

#include "basic/suggest.h"
#include "basic/unit-name.h"
#include "cli.h"
#include "load/root.h"
#include "load/version.h"
#include "rules/rules.h"

void context_init(Context *c) {
        const char *nc = getenv("NO_COLOR");
        *c = (Context) {
                .format = FORMAT_TEXT,
                .fail_on = SEVERITY_WARNING,
                .color = isatty(STDOUT_FILENO) && !(nc && nc[0]),
        };
}

void context_done(Context *c) {
        c->root = mfree(c->root);
        c->target = mfree(c->target);
        c->targets = strv_free(c->targets);
        c->instance = mfree(c->instance);
}

const char *context_template_instance(const Context *c, const FeatureSet *fs) {
        if (c->instance)
                return c->instance;
        return feature_enabled(fs, FEATURE_VERIFY_INSTANCE_TEST_INSTANCE) ? "test_instance" : "i";
}

void log_error(const char *fmt, ...) {
        va_list ap;
        fputs("bootrace: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}

void log_warning(const char *fmt, ...) {
        va_list ap;
        fputs("bootrace: warning: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}

_printf_(3, 0) static int log_errno_va(const char *prefix, int error, const char *fmt, va_list ap) {
        fputs(prefix, stderr);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, ": %s\n", strerror(error < 0 ? -error : error));
        return error < 0 ? error : -error;
}

int log_error_errno(int error, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = log_errno_va("bootrace: ", error, fmt, ap);
        va_end(ap);
        return r;
}

int log_warning_errno(int error, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = log_errno_va("bootrace: warning: ", error, fmt, ap);
        va_end(ap);
        return r;
}

int log_oom(void) {
        log_error("out of memory");
        return -ENOMEM;
}

enum {
        ARG_ROOT = 0x100,
        ARG_TARGET,
        ARG_SYSTEMD,
        ARG_FORMAT,
        ARG_FAIL_ON,
        ARG_NO_COLOR,
        ARG_NEAREST_MODEL,
        ARG_INSTANCE,
};

static const struct option global_options[] = {
        { "root", required_argument, NULL, ARG_ROOT },
        { "target", required_argument, NULL, ARG_TARGET },
        { "systemd", required_argument, NULL, ARG_SYSTEMD },
        { "format", required_argument, NULL, ARG_FORMAT },
        { "fail-on", required_argument, NULL, ARG_FAIL_ON },
        { "no-color", no_argument, NULL, ARG_NO_COLOR },
        { "nearest-model", no_argument, NULL, ARG_NEAREST_MODEL },
        { "instance", required_argument, NULL, ARG_INSTANCE },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
};

/* The option closest to a mistyped "--name" or "--name=value", or NULL. */
static const char *suggest_option(const char *arg, const struct option *opts, size_t n) {
        _cleanup_(freep) const char **names = NULL;
        _cleanup_(freep) char *name = NULL;
        const char *s = startswith(arg, "--");

        if (!s)
                return NULL;
        name = strndup_safe(s, strcspn(s, "="));
        names = calloc(n + 1, sizeof(char *));
        if (!name || !names)
                return NULL;
        for (size_t i = 0; i < n; i++)
                names[i] = opts[i].name;
        return suggest_closest(name, names, n);
}

bool cli_global_option_takes_value(const char *arg) {
        const struct option *match = NULL;
        size_t l;

        if (!startswith(arg, "--") || strchr(arg, '='))
                return false;
        arg += 2;
        l = strlen(arg);
        if (l == 0)
                return false;
        /* getopt_long takes an unambiguous abbreviation too (--targ V): a unique prefix counts */
        for (size_t i = 0; i < ELEMENTSOF(global_options); i++) {
                if (streq(global_options[i].name, arg))
                        return global_options[i].has_arg == required_argument;
                if (strncmp(global_options[i].name, arg, l) == 0) {
                        if (match)
                                return false;
                        match = &global_options[i];
                }
        }
        return match && match->has_arg == required_argument;
}

/* The global options and extra in one getopt_long() table (*ret_n entries), and the short ones. Returns 0 or
 * -ENOMEM (said). */
static int options_build(const struct option *extra, const char *extra_short, struct option **ret, size_t *ret_n,
                         char **ret_short) {
        size_t n_extra = 0, n = 0;
        _cleanup_(freep) struct option *opts = NULL;

        while (extra && extra[n_extra].name)
                n_extra++;
        opts = calloc(ELEMENTSOF(global_options) + n_extra + 1, sizeof(struct option));
        if (!opts)
                return log_oom();
        for (size_t i = 0; i < ELEMENTSOF(global_options); i++)
                opts[n++] = global_options[i];
        for (size_t i = 0; i < n_extra; i++)
                opts[n++] = extra[i];
        *ret_short = strjoin("hq", strempty(extra_short));
        if (!*ret_short)
                return log_oom();
        *ret = TAKE_PTR(opts);
        *ret_n = n;
        return 0;
}

/* bootrace __complete: every option, one per line ("--root=", "--quiet", "-q", "-D="). */
static void options_list(const struct option *opts, size_t n, const char *shortopts) {
        for (size_t i = 0; i < n; i++) {
                if (opts[i].has_arg != required_argument)
                        printf("--%s\n", opts[i].name);
                if (opts[i].has_arg != no_argument)
                        printf("--%s=\n", opts[i].name);
        }
        for (const char *s = shortopts; *s; s++)
                if (*s != ':')
                        printf("-%c%s\n", *s, s[1] == ':' ? "=" : "");
}

/* --systemd=N: "252" and "252.39-1~deb12u2" alike, the major version is what matters. */
static int parse_systemd(const char *arg, unsigned *ret) {
        char buf[16] = {};
        size_t l = strspn(arg, "0123456789");
        unsigned v;

        if (l == 0 || l >= sizeof buf) {
                log_error("--systemd=%s: expected a systemd version number such as 252", arg);
                return -EINVAL;
        }
        memcpy(buf, arg, l);
        if (safe_atou(buf, &v) < 0 || v < 1 || v > 9999) {
                log_error("--systemd=%s: expected a systemd version number such as 252", arg);
                return -EINVAL;
        }
        *ret = v;
        return 0;
}

/* A global option c (not -h) into ctx. Returns 0, 1 when c is not a global option, or a negative errno after
 * printing an error. */
static int global_option(int c, const char *arg, Context *ctx) {
        OutputFormat f;
        Severity s;

        switch (c) {
        case 'q':
                ctx->quiet = true;
                return 0;
        case ARG_ROOT:
                if (isempty(arg)) {
                        log_error("--root= needs a directory");
                        return -EINVAL;
                }
                return free_and_strdup(&ctx->root, arg) < 0 ? log_oom() : 0;
        case ARG_TARGET:
                if (free_and_strdup(&ctx->target, arg) < 0 || strv_extend(&ctx->targets, arg) < 0)
                        return log_oom();
                return 0;
        case ARG_SYSTEMD:
                return parse_systemd(arg, &ctx->systemd);
        case ARG_FORMAT:
                f = output_format_from_string(arg);
                if (f < 0) {
                        log_error("--format=%s: unknown format (text, json, sarif, junit, markdown, dot)", arg);
                        return -EINVAL;
                }
                ctx->format = f;
                return 0;
        case ARG_FAIL_ON:
                s = severity_from_string(arg);
                if (s < 0) {
                        log_error("--fail-on=%s: expected error, warning or info", arg);
                        return -EINVAL;
                }
                ctx->fail_on = s;
                return 0;
        case ARG_NO_COLOR:
                ctx->color = false;
                return 0;
        case ARG_NEAREST_MODEL:
                ctx->nearest_model = true;
                return 0;
        case ARG_INSTANCE: {
                _cleanup_(freep) char *probe = NULL;
                /* the instance must make a valid unit name, as verify's unit_name_replace_instance() */
                if (unit_name_replace_instance("a@.service", arg, &probe) < 0) {
                        log_error("--instance=%s: not a valid instance name (see systemd.unit(5))", arg);
                        return -EINVAL;
                }
                return free_and_strdup(&ctx->instance, arg) < 0 ? log_oom() : 0;
        }
        default:
                return 1;
        }
}

/* getopt_long()'s '?': an unknown option or a missing argument, with the option probably meant. */
static int unknown_option(char *argv[], const struct option *opts, size_t n) {
        if (optopt && optopt < 0x100)
                log_error("%s: unknown option -%c or missing argument (see '%s --help')", argv[0], optopt, argv[0]);
        else {
                const char *close = suggest_option(argv[optind - 1], opts, n);
                log_error("%s: unknown option %s or missing argument%s%s%s (see '%s --help')", argv[0],
                          argv[optind - 1], close ? "; did you mean --" : "", strempty(close), close ? "?" : "",
                          argv[0]);
        }
        return -EINVAL;
}

int cli_parse(int argc, char *argv[], Context *ctx, const struct option *extra, const char *extra_short,
              VerbOptionHandler handler, void *userdata, const char *help, int *ret_optind) {
        _cleanup_(freep) struct option *opts = NULL;
        _cleanup_(freep) char *shortopts = NULL;
        size_t n;
        int c, r;

        r = options_build(extra, extra_short, &opts, &n, &shortopts);
        if (r < 0)
                return r;
        if (ctx->list_options) {
                options_list(opts, n, shortopts);
                return 1;
        }
        optind = 0; /* full reset: argv may be parsed more than once */
        opterr = 0;
        ctx->targets = strv_free(ctx->targets);
        while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) >= 0) {
                if (c == 'h') {
                        fputs(help, stdout);
                        return 1;
                }
                if (c == '?')
                        return unknown_option(argv, opts, n);
                r = global_option(c, optarg, ctx);
                if (r <= 0) {
                        if (r < 0)
                                return r;
                        continue;
                }
                if (!handler) {
                        log_error("%s: unexpected option", argv[0]);
                        return -EINVAL;
                }
                r = handler(c, optarg, userdata);
                if (r == -ENOMEM)
                        return log_oom();
                if (r != 0)
                        return r;
        }
        *ret_optind = optind;
        return 0;
}

int cli_check_format(const Context *ctx, const char *verb, const OutputFormat *allowed) {
        for (const OutputFormat *f = allowed; *f != _FORMAT_INVALID; f++)
                if (*f == ctx->format)
                        return 0;
        log_error("%s: --format=%s is not supported by this verb", verb, output_format_to_string(ctx->format));
        return -EINVAL;
}

int cli_set_unit_name(const char *option, const char *arg, char **ret) {
        if (!unit_name_is_valid(arg, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                log_error("%s=%s: not a unit name", option, arg);
                return -EINVAL;
        }
        return free_and_strdup(ret, arg);
}

int cli_open_root(const Context *ctx, Root **ret) {
        int r;

        *ret = NULL;
        if (!ctx->root)
                return 0;
        r = root_open(ctx->root, ret);
        if (r < 0)
                log_error_errno(r, "--root=%s", ctx->root);
        return r;
}

/* The rules of this process, read once: choosing the version and running the verb both need them, and reading
 * and validating rules/ is most of a short run's cost. What the reading said (below an error) is kept and given
 * to every caller. */
static Rules *loaded_rules;
static char *loaded_dir;
static DiagList loaded_diags;

int cli_load_rules(Rules **ret, DiagList *diags) {
        int r;

        if (loaded_rules && !streq(loaded_dir, rules_default_dir()))
                cli_release_rules(); /* BOOTRACE_RULES_DIR changed (a test does that) */
        if (!loaded_rules) {
                r = rules_load_on_demand(NULL, &loaded_rules, &loaded_diags);
                if (r < 0) {
                        (void) diag_list_move(diags, &loaded_diags);
                        diag_list_print(diags, stderr, DIAG_ERROR);
                        log_error("cannot read the rules in %s", rules_default_dir());
                        *ret = NULL;
                        return r;
                }
                loaded_dir = strdup(rules_default_dir());
                if (!loaded_dir) {
                        cli_release_rules();
                        return log_oom();
                }
        }
        if (diag_list_copy(diags, &loaded_diags, DIAG_NOTICE) < 0)
                return log_oom();
        *ret = rules_ref(loaded_rules);
        return 0;
}

void cli_release_rules(void) {
        loaded_rules = rules_free(loaded_rules);
        loaded_dir = mfree(loaded_dir);
        diag_list_done(&loaded_diags);
}

int cli_open_inputs(const Context *ctx, InputsFlags flags, Inputs *ret, DiagList *diags) {
        int r;

        *ret = (Inputs) {};
        if (flags & INPUTS_FEATURES)
                flags |= INPUTS_VERSION;
        r = cli_open_root(ctx, &ret->root);
        if (r < 0)
                return r;
        if (flags & INPUTS_VERSION) {
                r = context_resolve_version(ctx, ret->root, &ret->vc);
                if (r < 0)
                        return r;
                ret->nearest = version_choice_note(&ret->vc);
                if (version_choice_nearest(&ret->vc) && !ret->nearest)
                        return log_oom();
        }
        r = cli_load_rules(&ret->rules, diags);
        if (r < 0)
                return r;
        if (flags & INPUTS_FEATURES) {
                r = cli_feature_set(&ret->rules, ret->vc.version, &ret->features);
                if (r < 0)
                        return r;
        }
        if ((flags & INPUTS_VERSION) && ctx->target &&
            rules_target_version(ret->rules, ctx->target, NULL, &ret->target_name) >= 0 && ret->target_name) {
                ret->distro = strndup_safe(ret->target_name, strcspn(ret->target_name, "-"));
                if (!ret->distro)
                        return log_oom();
        }
        return 0;
}

void inputs_done(Inputs *in) {
        in->nearest = mfree(in->nearest);
        in->distro = mfree(in->distro);
        in->rules = rules_free(in->rules);
        in->root = root_free(in->root);
}

int cli_feature_set(Rules **rules, unsigned version, FeatureSet *ret) {
        int r;

        if (!*rules) {
                DiagList diags = {};
                r = cli_load_rules(rules, &diags);
                diag_list_done(&diags);
                if (r < 0)
                        return r;
        }
        r = rules_feature_set(*rules, version, ret);
        if (r < 0)
                log_error("no systemd version to judge for");
        return r;
}

int cli_resolve_profile(const Rules *rules, const char *target, bool root, const char *name, const Profile **ret) {
        _cleanup_(strv_freep) char **names = NULL;

        *ret = NULL;
        if (!name)
                /* the default: the target's server profile; a root is judged as it is */
                *ret = root ? NULL : rules_profile(rules, target, NULL);
        else if (root && !streq(name, PROFILE_MINIMAL)) {
                log_error("--profile=%s: a --root is judged as it is, with its own units; give --target without "
                          "--root to judge with a profile", name);
                return -EINVAL;
        } else if (!target && !streq(name, PROFILE_MINIMAL)) {
                log_error("--profile=%s needs --target: profiles belong to a release", name);
                return -EINVAL;
        } else if (!streq(name, PROFILE_MINIMAL) && !(*ret = rules_profile(rules, target, name))) {
                _cleanup_(freep) char *list = NULL;
                names = rules_profile_names(rules, target);
                STRV_FOREACH(n, names) {
                        char *t = strjoin(strempty(list), list ? " " : "", *n);
                        if (!t)
                                return -ENOMEM;
                        free(list);
                        list = t;
                }
                log_error("%s has no profile %s; its profiles: %s", target, name, strna(list));
                return -ENOENT;
        }
        return 0;
}

void cli_say_profile(const Profile *p, const char *target, bool quiet) {
        if (quiet || !target)
                return;
        if (!p) {
                fprintf(stderr, "%s: profile minimal: systemd's units only\n", target);
                return;
        }
        fprintf(stderr, "%s: profile %s%s:", target, profile_name(p), profile_is_default(p) ? " (default)" : "");
        for (size_t i = 0; i < profile_package_count(p); i++)
                fprintf(stderr, "%s %s %s", i == 0 ? "" : ",", profile_package_get(p, i)->name,
                        profile_package_get(p, i)->version);
        fprintf(stderr, "%s\n", profile_is_default(p) ? "; --profile=minimal for systemd's units only" : "");
}

static const char *version_source_what(VersionSource s) {
        switch (s) {
        case VERSION_FROM_OPTION:
                return "--systemd";
        case VERSION_FROM_TARGET:
                return "--target";
        case VERSION_FROM_ROOT:
                return "the root";
        case VERSION_FROM_LIVE:
                return "the running systemd";
        default:
                return "the default";
        }
}

static int check_range(const Context *ctx, const Rules *rules, unsigned asked, VersionSource source,
                       const char *what, VersionChoice *ret) {
        unsigned lo, hi;

        if (rules_model_range(rules, &lo, &hi) < 0) {
                log_error("the rules in %s have no base model (base-NNN.xml): no systemd version is modelled",
                          rules_default_dir());
                return -ENOENT;
        }
        *ret = (VersionChoice) { .version = asked, .asked = asked, .oldest = lo, .newest = hi, .source = source };
        snprintf(ret->what, sizeof ret->what, "%s", what);
        if (asked >= lo && asked <= hi)
                return 0;
        if (!ctx->nearest_model) {
                log_error("systemd %u (%s) is outside the modelled range %u-%u; --nearest-model judges it with "
                          "systemd %u", asked, what, lo, hi, asked < lo ? lo : hi);
                return -ERANGE;
        }
        ret->version = asked < lo ? lo : hi;
        return 0;
}

int context_check_version(const Context *ctx, unsigned asked, VersionSource source, const char *what,
                          VersionChoice *ret) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        DiagList diags = {};
        int r = cli_load_rules(&rules, &diags);

        diag_list_done(&diags);
        if (r < 0)
                return r;
        return check_range(ctx, rules, asked, source, what, ret);
}

int context_resolve_version(const Context *ctx, const Root *root, VersionChoice *ret) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(freep) char *what = NULL;
        VersionSource src = VERSION_FROM_DEFAULT;
        DiagList diags = {};
        unsigned v = 0;
        int r;

        r = cli_load_rules(&rules, &diags);
        diag_list_done(&diags);
        if (r < 0)
                return r;
        if (ctx->systemd > 0) {
                v = ctx->systemd;
                src = VERSION_FROM_OPTION;
        } else if (ctx->target) {
                if (rules_target_version(rules, ctx->target, &v, NULL) < 0) {
                        _cleanup_(strv_freep) char **names = rules_target_names(rules);
                        log_error("unknown --target=%s; known targets:", ctx->target);
                        STRV_FOREACH(n, names)
                                fprintf(stderr, "  %s\n", *n);
                        return -ENOENT;
                }
                src = VERSION_FROM_TARGET;
        } else if (root && systemd_version_of_root(root, &v) >= 0)
                src = VERSION_FROM_ROOT;
        else if (rules_model_range(rules, NULL, &v) < 0)
                v = 0; /* check_range() reports it */

        if (src == VERSION_FROM_TARGET)
                r = asprintf(&what, "--target=%s", ctx->target);
        else if (src == VERSION_FROM_ROOT)
                r = asprintf(&what, "found in --root=%s", ctx->root ?: "/");
        else
                r = (what = strdup(version_source_what(src))) ? 0 : -1;
        if (r < 0)
                return -ENOMEM;
        return check_range(ctx, rules, v, src, what, ret);
}

bool cli_print_version(void) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        DiagList diags = {};
        unsigned lo, hi;
        bool ok;

        printf("bootrace %s\n", PACKAGE_VERSION);
        ok = rules_load(NULL, &rules, &diags) >= 0 && rules_model_range(rules, &lo, &hi) >= 0;
        if (ok)
                printf("models systemd %u-%u (rules in %s)\n", lo, hi, rules_default_dir());
        else {
                /* what was wrong with them goes to stderr, and the exit status says it (2), as for any verb */
                printf("models no systemd version: the rules in %s cannot be read\n", rules_default_dir());
                fflush(stdout);
                diag_list_print(&diags, stderr, DIAG_ERROR);
        }
        diag_list_done(&diags);
        return ok;
}

char *version_choice_note(const VersionChoice *c) {
        char *s = NULL;

        if (!version_choice_nearest(c))
                return NULL;
        if (asprintf(&s, "judged with systemd %u, the nearest model to systemd %u (%s), which is outside the "
                     "modelled range %u-%u (--nearest-model)", c->version, c->asked, c->what, c->oldest,
                     c->newest) < 0)
                return NULL;
        return s;
}
