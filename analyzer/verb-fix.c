/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace fix: the minimal, precise, cycle-free repair of the race findings of unit files, as a unified
 * diff of the file or as a drop-in, judged for one or several systemd versions; --write applies it
 * atomically. */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "basic/atomic-write.h"
#include "basic/json.h"
#include "basic/unit-name.h"
#include "fix/fix-search.h"
#include "load/version.h"
#include "report/json-header.h"
#include "verbs.h"

static const char fix_help[] =
        "Usage: bootrace fix [--root=DIR] [--target=NAME...|--systemd=N] [--profile=NAME] [--drop-in]\n"
        "                    [--write] [--format=text|json] [--transaction=UNIT] PATH|UNIT...\n\n"
        "Propose the minimal, precise repair of each unit's boot-ordering races: candidate repairs are\n"
        "applied to a copy of the unit and judged by linting again - the race closed for every target, no\n"
        "new ordering cycle in the boot transaction, the fewest other units delayed, the fewest lines, the\n"
        "most precise dependency. A PATH is a unit file or a directory of them; a UNIT is looked up in\n"
        "--root. --target may be given several times: the repair must hold for every release.\n\n"
        "  --profile=NAME        what a default installation of each --target adds to the boot (default:\n"
        "                        its server profile; minimal: systemd's units only; see bootrace lint)\n"
        "  --drop-in             a drop-in UNIT.d/bootrace-fix.conf instead of an edit of the file (vendor\n"
        "                        units; for a UNIT in --root it goes to /etc/systemd/system/UNIT.d/)\n"
        "  --write               write the repair (atomically) instead of printing a diff\n"
        "  --transaction=UNIT    the boot target whose transaction is checked for cycles\n\n"
        "Output: a unified diff (patch -p0 applies it) after '#' lines that say what was chosen and why\n"
        "the other candidates were not. Exit status: 0 nothing to fix, 1 repairs proposed or written (or\n"
        "races without a repair), 2 usage, input or write error.\n";

/* what a delayed unit now waits for: the first few, then a count */
#define DELAYS_SHOWN 4

enum {
        ARG_DROP_IN = ARG_VERB_BASE,
        ARG_WRITE,
        ARG_TRANSACTION,
        ARG_PROFILE,
};

typedef struct FixArgs {
        bool dropin, write;
        char *transaction;
        char *profile;
} FixArgs;

static int fix_option(int c, const char *arg, void *userdata) {
        FixArgs *a = userdata;

        switch (c) {
        case ARG_DROP_IN:
                a->dropin = true;
                return 0;
        case ARG_WRITE:
                a->write = true;
                return 0;
        case ARG_TRANSACTION:
                return cli_set_unit_name("--transaction", arg, &a->transaction);
        case ARG_PROFILE:
                free(a->profile);
                a->profile = strdup(arg);
                return a->profile ? 0 : -ENOMEM;
        }
        return -EINVAL;
}

/* A unit to repair: its name, how the user named its file, and where it is. */
typedef struct FixUnit {
        char *name; /* the name it is linted under */
        char *display; /* the file as given (PATH), or its path under --root (UNIT); filled for UNIT later */
        char *host; /* absolute path of the file given (PATH), NULL for UNIT */
        bool in_root;
} FixUnit;

typedef struct FixUnits {
        FixUnit *items;
        size_t n, allocated;
        char **names, **extra;
} FixUnits;

static void fix_units_done(FixUnits *u) {
        for (size_t i = 0; i < u->n; i++) {
                free(u->items[i].name);
                free(u->items[i].display);
                free(u->items[i].host);
        }
        free(u->items);
        strv_free(u->names);
        strv_free(u->extra);
}

/* name is the unit's name as linted; it joins u->names unless it is there already (lint_collect_path()). */
static int units_add(FixUnits *u, const char *name, const char *display, const char *host, bool in_root) {
        _cleanup_(freep) char *lname = strdup(name);

        if (!lname)
                return -ENOMEM;
        for (size_t i = 0; i < u->n; i++)
                if (streq(u->items[i].name, lname))
                        return 0;
        if (GREEDY_REALLOC(u->items, u->allocated, u->n + 1) < 0 || strv_extend_unique(&u->names, lname) < 0)
                return -ENOMEM;
        u->items[u->n] = (FixUnit) { .name = TAKE_PTR(lname),
                                    .display = strdup(display),
                                    .host = host ? strdup(host) : NULL,
                                    .in_root = in_root };
        if (!u->items[u->n].name || !u->items[u->n].display || (host && !u->items[u->n].host))
                return -ENOMEM;
        u->n++;
        return 0;
}

/* A PATH: its unit files, each shown as the user named it (the directory given + the file's name). */
static int add_path(FixUnits *u, const char *arg) {
        _cleanup_(strv_freep) char **files = NULL;
        struct stat st;
        int r;

        if (stat(arg, &st) < 0) {
                log_error_errno(errno, "%s", arg);
                return -errno;
        }
        r = lint_collect_path(arg, &st, &u->names, &u->extra, &files);
        if (r == -EINVAL)
                log_error("%s: \"%s\" is not a valid unit file name (NAME.service, NAME.socket, ...)", arg,
                          path_basename(arg));
        else if (r < 0 && r != -ENOMEM)
                log_error_errno(r, "%s: cannot read the directory", arg);
        else if (r == 0) {
                log_error("%s: no unit files in it (NAME.service, NAME.socket, ...)", arg);
                return -ENOENT;
        }
        if (r < 0)
                return r;
        STRV_FOREACH(f, files) {
                const char *base = path_basename(*f);
                _cleanup_(freep) char *name = NULL;
                _cleanup_(freep) char *display = S_ISDIR(st.st_mode) ? path_join(arg, base) : strdup(arg);

                if (!display || lint_unit_name(base, &name) < 0)
                        return -ENOMEM;
                r = units_add(u, name, display, *f, false);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Paths below the working directory as the user would type them (in reasons and messages). */
static char *relative(const char *s) {
        _cleanup_(freep) char *cwd = getcwd(NULL, 0);

        if (!s)
                return NULL;
        return cwd ? path_text_relative(s, cwd) : strdup(s);
}

static bool target_listed(const FixTarget *t, size_t n, const char *name) {
        for (size_t i = 0; i < n; i++)
                if (streq(t[i].name, name))
                        return true;
        return false;
}

/* --target=name into t[*n] (a target given twice is judged once). Returns 0, or a negative errno after printing
 * an error (-ENOMEM silently). */
static int add_target(const Context *ctx, const Root *root, const Rules *rules, const char *profile,
                      const char *name, FixTarget *t, size_t *n) {
        _cleanup_(freep) char *what = NULL, *nearest = NULL;
        const char *canonical = NULL;
        VersionChoice vc;
        unsigned v;
        int r;

        if (rules_target_version(rules, name, &v, &canonical) < 0) {
                _cleanup_(strv_freep) char **names = rules_target_names(rules);
                log_error("unknown --target=%s; known targets:", name);
                STRV_FOREACH(k, names)
                        fprintf(stderr, "  %s\n", *k);
                return -ENOENT;
        }
        if (target_listed(t, *n, canonical))
                return 0;
        if ((ctx->systemd ? (what = strdup("--systemd")) ? 0 : -ENOMEM
                          : asprintf_safe(&what, "--target=%s", canonical)) < 0)
                return -ENOMEM;
        r = context_check_version(ctx, ctx->systemd ?: v, ctx->systemd ? VERSION_FROM_OPTION : VERSION_FROM_TARGET,
                                  what, &vc);
        if (r < 0)
                return r;
        nearest = version_choice_note(&vc);
        if (nearest) /* the repair is judged for the nearest model: say so, once per target */
                log_warning("fix: %s: %s", canonical, nearest);
        t[*n] = (FixTarget) { .name = strdup(canonical),
                              .version = vc.version,
                              .distro = strndup_safe(canonical, strcspn(canonical, "-")) };
        if (!t[*n].name || !t[*n].distro)
                return -ENOMEM;
        r = cli_resolve_profile(rules, canonical, root, profile, &t[*n].profile);
        if (r < 0) {
                fix_target_done(&t[*n]);
                return r;
        }
        if (!root && (t[*n].profile || profile))
                cli_say_profile(t[*n].profile, canonical, ctx->quiet);
        (*n)++;
        return 0;
}

/* Without --target: the version of the context (--systemd, the root's, the default). */
static int default_target(const Context *ctx, const Root *root, const Rules *rules, const char *profile,
                          FixTarget *ret) {
        _cleanup_(freep) char *nearest = NULL;
        VersionChoice vc;
        int r;

        r = cli_resolve_profile(rules, NULL, root, profile, &(const Profile *) { NULL });
        if (r < 0)
                return r;
        r = context_resolve_version(ctx, root, &vc);
        if (r < 0)
                return r;
        if (vc.source == VERSION_FROM_DEFAULT && !ctx->quiet)
                log_warning("no --target or --systemd given%s: judging for systemd %u",
                            root ? " and no systemd found in the root" : "", vc.version);
        nearest = version_choice_note(&vc);
        if (nearest)
                log_warning("fix: %s", nearest);
        *ret = (FixTarget) { .version = vc.version };
        return 0;
}

static int resolve_targets(const Context *ctx, const Root *root, const Rules *rules, const char *profile,
                           FixTarget **ret, size_t *ret_n) {
        _cleanup_(freep) FixTarget *t = NULL;
        size_t n = 0;
        int r;

        if (strv_length(ctx->targets) > 1 && ctx->systemd > 0) {
                log_error("fix: --systemd=N and several --target: give one or the other");
                return -EINVAL;
        }
        t = calloc(MAX(strv_length(ctx->targets), (size_t) 1) + 1, sizeof(FixTarget));
        if (!t)
                return -ENOMEM;
        STRV_FOREACH(name, ctx->targets) {
                r = add_target(ctx, root, rules, profile, *name, t, &n);
                if (r < 0)
                        return r;
        }
        if (n == 0) {
                r = default_target(ctx, root, rules, profile, &t[n++]);
                if (r < 0)
                        return r;
        }
        *ret = TAKE_PTR(t);
        *ret_n = n;
        return 0;
}

/* What the user sees as the file the repair writes. */
static char *display_file(const FixUnit *u, const FixResult *r, const Root *root) {
        if (!r->dropin)
                return strdup(u->display);
        if (u->in_root && root) {
                _cleanup_(freep) char *p = NULL;
                if (asprintf_safe(&p, "/etc/systemd/system/%s.d/%s", path_basename(r->fragment),
                                  FIX_DROPIN_NAME) < 0)
                        return NULL;
                return root_display_path(root, p);
        }
        return strjoin(u->display, ".d/", FIX_DROPIN_NAME);
}

static void print_delays(FILE *f, const FixCandidate *c, const char *unit, const char *prefix) {
        for (size_t i = 0; i < c->n_delayed_items; i++) {
                const FixDelay *d = &c->delayed[i];
                size_t n = strv_length(d->waits_for), shown = 0;
                if (streq(d->unit, unit))
                        continue;
                fprintf(f, "%s%s would now wait for", prefix, d->unit);
                STRV_FOREACH(w, d->waits_for) {
                        if (shown++ == DELAYS_SHOWN) {
                                fprintf(f, " (and %zu more)", n - DELAYS_SHOWN);
                                break;
                        }
                        fprintf(f, "%s %s", w == d->waits_for ? "" : ",", *w);
                }
                fprintf(f, " (systemd %u)\n", d->version);
        }
}

/* "private-tmp-before-remount (TITLE) and ... for ubuntu-xenial; ... for ubuntu-bionic": every race the
 * chosen repair closes (all of r's findings), per target, with the check's title from rules/checks.xml. */
static void print_closes(FILE *f, const Rules *rules, const FixResult *r) {
        for (size_t i = 0; i < r->n_findings; i++) {
                const FixFinding *x = &r->findings[i];
                FixTarget t = { .name = (char *) x->target, .version = x->version };
                size_t later = 0;
                bool seen = false;
                char buf[32];

                for (size_t k = 0; k < i; k++)
                        seen = seen || (r->findings[k].version == x->version &&
                                        streq_ptr(r->findings[k].target, x->target) &&
                                        streq(r->findings[k].check, x->check));
                if (seen)
                        continue;
                for (size_t k = i + 1; k < r->n_findings; k++)
                        later += r->findings[k].version == x->version &&
                                 streq_ptr(r->findings[k].target, x->target) &&
                                 !streq(r->findings[k].check, x->check);
                {
                        const CheckInfo *ci = rules_check_lookup(rules, x->check);
                        fprintf(f, "%s%s%s%s", x->check, ci ? " (" : "", ci ? ci->title : "", ci ? ")" : "");
                }
                if (later > 0)
                        fputs(", ", f);
                else
                        fprintf(f, " for %s%s", fix_target_label(&t, buf),
                                i + 1 < r->n_findings ? "; " : "");
        }
}

static void print_text(const Rules *rules, const FixUnit *u, const FixResult *r, const char *file,
                       const char *diff, bool wrote, bool quiet, const FixTarget *targets,
                       size_t n_targets) {
        const FixCandidate *c = r->chosen ? &r->candidates[0] : NULL;

        if (!quiet) {
                if (n_targets > 1) {
                        printf("# judged for:");
                        for (size_t t = 0; t < n_targets; t++) {
                                char buf[32];
                                printf("%s %s", t ? "," : "", fix_target_label(&targets[t], buf));
                                if (targets[t].name)
                                        printf(" (systemd %u)", targets[t].version);
                        }
                        printf(": a repair must hold for each\n");
                }
                printf("# %s:", r->unit);
                for (size_t i = 0; i < r->n_findings; i++) {
                        char buf[32];
                        FixTarget t = { .name = (char *) r->findings[i].target,
                                        .version = r->findings[i].version };
                        printf("%s %s (%s)", i ? "," : "", r->findings[i].check, fix_target_label(&t, buf));
                }
                putchar('\n');
                if (c) {
                        printf("# fix: %s\n", c->label);
                        fputs("#   closes: ", stdout);
                        print_closes(stdout, rules, r);
                        putchar('\n');
                        if (c->note)
                                printf("#   note: %s\n", c->note);
                        print_delays(stdout, c, r->unit, "#   delays: ");
                } else
                        printf("# no repair: %s\n", r->none_reason);
                for (size_t i = c ? 1 : 0; i < r->n_candidates; i++) {
                        _cleanup_(freep) char *reason = relative(r->candidates[i].reason);
                        printf("# rejected: %s: %s\n", r->candidates[i].label, strna(reason));
                }
        }
        if (wrote)
                printf("# wrote %s\n", file);
        else if (diff)
                fputs(diff, stdout);
        (void) u;
}

static void json_delays(JsonWriter *w, const FixCandidate *c, const char *unit) {
        json_key(w, "delayed");
        json_begin_array(w);
        for (size_t i = 0; i < c->n_delayed_items; i++) {
                const FixDelay *d = &c->delayed[i];
                if (streq(d->unit, unit))
                        continue;
                json_begin_object(w);
                json_kv_string(w, "unit", d->unit);
                json_kv_uint(w, "systemd", d->version);
                json_kv_strv(w, "waits_for", d->waits_for);
                json_end_object(w);
        }
        json_end_array(w);
}

static void json_waits(JsonWriter *w, const FixCandidate *c, const char *unit) {
        json_key(w, "waits_for");
        json_begin_array(w);
        for (size_t i = 0; i < c->n_delayed_items; i++) {
                const FixDelay *d = &c->delayed[i];
                if (!streq(d->unit, unit))
                        continue;
                json_begin_object(w);
                json_kv_uint(w, "systemd", d->version);
                json_kv_strv(w, "units", d->waits_for);
                json_end_object(w);
        }
        json_end_array(w);
}

static void print_json(JsonWriter *w, const FixUnit *u, const FixResult *r, const char *file,
                       const char *diff, bool wrote) {
        const FixCandidate *c = r->chosen ? &r->candidates[0] : NULL;
        _cleanup_(freep) char *none = relative(r->none_reason);

        json_begin_object(w);
        json_kv_string(w, "unit", r->unit);
        json_kv_string(w, "file", file);
        json_kv_string(w, "fragment", u->display);
        json_kv_string(w, "finding", r->findings[0].check);
        json_key(w, "findings");
        json_begin_array(w);
        for (size_t i = 0; i < r->n_findings; i++) {
                json_begin_object(w);
                json_kv_string(w, "check", r->findings[i].check);
                json_kv_uint(w, "systemd", r->findings[i].version);
                json_kv_string(w, "target", r->findings[i].target);
                json_key(w, "line");
                if (r->findings[i].line > 0)
                        json_uint(w, r->findings[i].line);
                else
                        json_null(w);
                json_kv_string(w, "message", r->findings[i].message);
                json_end_object(w);
        }
        json_end_array(w);
        json_kv_string(w, "candidate", c ? c->label : NULL);
        if (!c)
                json_kv_string(w, "reason", none);
        json_kv_uint(w, "lines", c ? c->lines : 0);
        if (c && c->note)
                json_kv_string(w, "note", c->note);
        if (c) {
                json_delays(w, c, r->unit);
                json_waits(w, c, r->unit);
        } else {
                json_key(w, "delayed");
                json_begin_array(w);
                json_end_array(w);
        }
        json_key(w, "rejected");
        json_begin_array(w);
        for (size_t i = c ? 1 : 0; i < r->n_candidates; i++) {
                const FixCandidate *x = &r->candidates[i];
                _cleanup_(freep) char *reason = relative(x->reason);
                json_begin_object(w);
                json_kv_string(w, "candidate", x->label);
                json_kv_string(w, "reason", reason);
                json_kv_uint(w, "lines", x->lines);
                if (x->evaluated) {
                        json_kv_bool(w, "closes", x->closes);
                        json_kv_bool(w, "new_cycle", x->new_cycle);
                        json_delays(w, x, r->unit);
                }
                json_end_object(w);
        }
        json_end_array(w);
        if (c && r->dropin) {
                json_key(w, "dropin");
                json_begin_object(w);
                json_kv_string(w, "path", file);
                json_kv_string(w, "text", c->text);
                json_end_object(w);
        } else if (c)
                json_kv_string(w, "diff", diff);
        json_kv_bool(w, "written", wrote);
        json_end_object(w);
}

/* Opens the directory a repair is written in: beside the file given, or inside the root for a UNIT. */
static int open_write_dir(const FixUnit *u, const FixResult *r, const Root *root, char **ret_name) {
        _cleanup_(freep) char *dir = NULL, *inside = NULL;
        _cleanup_(closep) int pfd = -EBADF;
        const char *path;
        int fd, k;

        if (!u->in_root) {
                path = u->host;
                dir = strndup_safe(path, (size_t) (path_basename(path) - path));
                *ret_name = strdup(path_basename(path));
                if (!dir || !*ret_name)
                        return -ENOMEM;
                fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                return fd < 0 ? -errno : fd;
        }
        if (!root || root->fd < 0)
                return -EROFS;
        if (r->dropin)
                inside = strdup("/etc/systemd/system");
        else {
                /* the fragment as the model found it: the root's path, then its place inside */
                const char *rest = startswith(r->fragment, root->path);
                if (!rest || (rest[0] != '/' && !streq(root->path, "/")))
                        return -EXDEV;
                if (streq(root->path, "/"))
                        rest = r->fragment;
                inside = strndup_safe(rest, (size_t) (path_basename(rest) - rest));
                *ret_name = strdup(path_basename(rest));
                if (!*ret_name)
                        return -ENOMEM;
        }
        if (!inside)
                return -ENOMEM;
        k = root_chase(root, inside, 0, NULL, &pfd);
        if (k < 0)
                return k;
        fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

static int write_result(const FixUnit *u, const FixResult *r, const Root *root) {
        const FixCandidate *c = &r->candidates[0];
        _cleanup_(freep) char *name = NULL, *sub = NULL;
        _cleanup_(closep) int dfd = open_write_dir(u, r, root, &name);

        if (dfd < 0)
                return dfd;
        if (!r->dropin)
                return atomic_write_at(dfd, name, c->text, strlen(c->text), 0644);
        sub = strjoin(path_basename(r->fragment), ".d");
        if (!sub)
                return -ENOMEM;
        return atomic_write_in_subdir(dfd, sub, FIX_DROPIN_NAME, c->text, strlen(c->text), 0755, 0644);
}

/* The targets a fix is judged for, and the lint of the units as they are for each. */
typedef struct FixJudged {
        FixTarget *targets;
        size_t n_targets;
        LintRun **baselines; /* n_targets of them, or NULL */
} FixJudged;

static void fix_judged_done(FixJudged *j) {
        for (size_t t = 0; t < j->n_targets; t++) {
                if (j->baselines)
                        lint_run_free(j->baselines[t]);
                fix_target_done(&j->targets[t]);
        }
        free(j->baselines);
        free(j->targets);
}

/* The PATHs and (with a root) unit names given, into units. Returns 0, or a negative errno after saying why. */
static int add_args(FixUnits *units, const Root *root, char * const *args, int n) {
        for (int i = 0; i < n; i++) {
                int r;

                if (strchr(args[i], '/') || access(args[i], F_OK) >= 0)
                        r = add_path(units, args[i]);
                else if (!root) {
                        log_error("%s: no such file; a unit name needs --root=DIR", args[i]);
                        r = -ENOENT;
                } else if (!unit_name_is_valid(args[i], UNIT_NAME_ANY)) {
                        log_error("%s: not a unit name", args[i]);
                        r = -EINVAL;
                } else {
                        _cleanup_(freep) char *name = NULL;
                        r = lint_unit_name(args[i], &name);
                        if (r >= 0)
                                r = units_add(units, name, args[i], NULL, true);
                }
                if (r == -ENOMEM)
                        log_oom();
                if (r < 0)
                        return r;
        }
        return 0;
}

/* The units as they are, linted for every target of j into j->baselines (allocated here). Returns 0, or a
 * negative errno after saying why (a unit the target cannot load included). */
static int lint_baselines(FixJudged *j, const Root *root, const Rules *rules, const FixUnits *units,
                          const char *transaction, DiagList *diags) {
        int r;

        j->baselines = calloc(j->n_targets + 1, sizeof(LintRun *));
        if (!j->baselines)
                return log_oom();
        for (size_t t = 0; t < j->n_targets; t++) {
                char buf[32];
                FeatureSet fs;

                r = rules_feature_set(rules, j->targets[t].version, &fs);
                if (r >= 0)
                        r = lint_generate(root, &fs, &j->targets[t].generator_dir, diags);
                if (r < 0)
                        return log_error_errno(r, "cannot write the generated units");
                LintRunOptions o = {
                        .root = root,
                        .extra_dirs = units->extra,
                        .version = j->targets[t].version,
                        .target = j->targets[t].name,
                        .distro = j->targets[t].distro,
                        .profile = j->targets[t].profile,
                        .generator_dir = j->targets[t].generator_dir,
                        .anchor = transaction,
                        .anchor_given = !!transaction,
                        .names = units->names,
                };
                r = lint_run(&o, rules, &j->baselines[t], diags);
                if (r < 0) {
                        diag_list_print(diags, stderr, DIAG_ERROR);
                        return log_error_errno(r, "cannot lint for %s", fix_target_label(&j->targets[t], buf));
                }
                STRV_FOREACH(e, j->baselines[t]->load_errors)
                        log_error("%s", *e);
                if (j->baselines[t]->input_error)
                        return -ENOENT;
        }
        return 0;
}

/* The JSON report up to its "fixes" array, left open for print_json(). */
static void print_json_begin(JsonWriter *w, const FixJudged *j) {
        json_init(w, stdout, false);
        report_json_begin(w, NULL);
        json_key(w, "systemd");
        json_begin_array(w);
        for (size_t t = 0; t < j->n_targets; t++)
                json_uint(w, j->targets[t].version);
        json_end_array(w);
        json_key(w, "targets");
        json_begin_array(w);
        for (size_t t = 0; t < j->n_targets; t++)
                json_string(w, j->targets[t].name);
        json_end_array(w);
        json_key(w, "fixes");
        json_begin_array(w);
}

static void fix_args_done(FixArgs *a) {
        a->transaction = mfree(a->transaction);
        a->profile = mfree(a->profile);
}

/* Says that u has nothing to fix for any target (unless quiet). */
static void say_nothing_to_fix(const FixUnit *u, const FixJudged *j, bool quiet) {
        char buf[32];

        if (quiet)
                return;
        fprintf(stderr, "bootrace: %s: nothing to fix for", u->display);
        for (size_t t = 0; t < j->n_targets; t++)
                fprintf(stderr, "%s %s", t ? "," : "", fix_target_label(&j->targets[t], buf));
        fputc('\n', stderr);
}

/* The unit the baseline's model loaded for u, or NULL after saying why it is not one to repair. For a UNIT,
 * u->display becomes its file and *ret_dropin the drop-in's path with --drop-in. */
static const ModelUnit *fix_unit_model(const FixArgs *args, const Root *root, const FixJudged *j, FixUnit *u,
                                       char **ret_dropin, bool *oom) {
        const ModelUnit *mu = model_get(j->baselines[0]->model, u->name);

        if (!mu || !mu->unit->fragment_path || mu->base || mu->profile_package) {
                log_error("%s: not a unit file of %s", u->display, u->in_root ? "the root" : "the path given");
                return NULL;
        }
        if (!u->in_root && !streq(mu->unit->fragment_path, u->host)) {
                log_error("%s: %s is loaded from %s instead; give that file", u->display, u->name,
                          mu->unit->fragment_path);
                return NULL;
        }
        if (!u->in_root)
                return mu;
        free(u->display);
        u->display = strdup(mu->unit->fragment_path);
        if (!u->display ||
            (args->dropin && asprintf_safe(ret_dropin, "%s/etc/systemd/system/%s.d/%s",
                                           streq(root->path, "/") ? "" : root->path,
                                           path_basename(mu->unit->fragment_path), FIX_DROPIN_NAME) < 0)) {
                *oom = true;
                log_oom();
                return NULL;
        }
        return mu;
}

/* Searches, prints (and with --write writes) the repair of u. Returns 0, 1 when u could not be repaired or
 * written (said), or a negative errno after printing an error (the verb stops). *proposed says a repair was
 * found. */
static int fix_one(const Context *ctx, const FixArgs *args, const Root *root, const Rules *rules,
                   const FixJudged *j, const FixRequest *req, FixUnit *u, JsonWriter *w, DiagList *diags,
                   bool *proposed) {
        _cleanup_(fix_result_freep) FixResult *res = NULL;
        _cleanup_(freep) char *file = NULL, *diff = NULL, *dropin_path = NULL;
        const ModelUnit *mu;
        bool wrote = false, oom = false;
        int r, ret = 0;

        mu = fix_unit_model(args, root, j, u, &dropin_path, &oom);
        if (!mu)
                return oom ? -ENOMEM : 1;
        /* by its main name: an alias given leads to the unit the findings are about */
        r = fix_search(req, rules, mu->unit->id, mu->unit->fragment_path, args->dropin, dropin_path, &res, diags);
        if (r < 0) {
                diag_list_print(diags, stderr, DIAG_ERROR);
                return log_error_errno(r, "%s: the search for a repair failed", u->display);
        }
        if (res->n_findings == 0) {
                say_nothing_to_fix(u, j, ctx->quiet);
                return 0;
        }
        *proposed = true;
        file = display_file(u, res, root);
        if (!file)
                return log_oom();
        if (res->chosen) {
                r = fix_result_diff(res, file, &diff);
                if (r < 0)
                        return log_error_errno(r, "%s: cannot make the diff", file);
        }
        if (res->chosen && args->write) {
                r = write_result(u, res, root);
                if (r < 0) {
                        log_error("%s: cannot write: %s%s", file, strerror(-r),
                                  r == -ELOOP ? " (a symlink: give the file it points to)" : "");
                        ret = 1;
                } else
                        wrote = true;
        }
        if (ctx->format == FORMAT_JSON)
                print_json(w, u, res, file, diff, wrote);
        else
                print_text(rules, u, res, file, diff, wrote, ctx->quiet, j->targets, j->n_targets);
        return ret;
}

int verb_fix(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        static const struct option options[] = {
                { "drop-in", no_argument, NULL, ARG_DROP_IN },
                { "write", no_argument, NULL, ARG_WRITE },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                { "profile", required_argument, NULL, ARG_PROFILE },
                {},
        };
        _cleanup_(fix_args_done) FixArgs args = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(inputs_done) Inputs in = {};
        _cleanup_(fix_units_done) FixUnits units = {};
        _cleanup_(fix_judged_done) FixJudged j = {};
        JsonWriter w;
        bool proposed = false, failed = false;
        int r, first;

        r = cli_parse(argc, argv, ctx, options, NULL, fix_option, &args, fix_help, &first);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (cli_check_format(ctx, "fix", formats) < 0)
                return EXIT_ERROR;
        if (first >= argc) {
                log_error("fix: give unit files, directories or (with --root) unit names; "
                          "see 'bootrace fix --help'");
                return EXIT_ERROR;
        }
        if (cli_open_inputs(ctx, 0, &in, &diags) < 0 || add_args(&units, in.root, argv + first, argc - first) < 0)
                return EXIT_ERROR;
        r = resolve_targets(ctx, in.root, in.rules, args.profile, &j.targets, &j.n_targets);
        if (r == -ENOMEM)
                log_oom();
        if (r < 0 || lint_baselines(&j, in.root, in.rules, &units, args.transaction, &diags) < 0)
                return EXIT_ERROR;

        if (ctx->format == FORMAT_JSON)
                print_json_begin(&w, &j);
        FixRequest req = {
                .root = in.root,
                .extra_dirs = units.extra,
                .names = units.names,
                .anchor = args.transaction,
                .targets = j.targets,
                .n_targets = j.n_targets,
                .baselines = j.baselines,
        };
        for (size_t i = 0; i < units.n; i++) {
                r = fix_one(ctx, &args, in.root, in.rules, &j, &req, &units.items[i], &w, &diags, &proposed);
                if (r < 0)
                        return EXIT_ERROR;
                failed = failed || r > 0;
        }
        if (ctx->format == FORMAT_JSON) {
                json_end_array(&w);
                json_end_object(&w);
                json_finish(&w);
        }
        fflush(stdout);
        if (!ctx->quiet)
                for (size_t i = 0; i < diags.n; i++)
                        if (diags.items[i].level == DIAG_ERROR) {
                                DiagList one = { .items = &diags.items[i], .n = 1 };
                                diag_list_print(&one, stderr, DIAG_ERROR);
                        }
        return failed || ferror(stdout) ? EXIT_ERROR : proposed ? EXIT_FINDINGS : EXIT_CLEAN;
}
