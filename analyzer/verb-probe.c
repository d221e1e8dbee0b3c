/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace probe: run a command in a transient unit with the sandbox of a unit (or of -p settings), wait for
 * the job and the exit the way knowledge/dbus-jobs.md says, and report done/failed with the service's
 * Result, the exit status and the journal lines of that invocation. 0 done, 1 failed, 2 no verdict (error,
 * timeout, lost connection: the outcome is then unknown, and the unit was stopped and reset). */

#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "basic/json.h"
#include "journal/invocation-log.h"
#include "live/bus-util.h"
#include "live/live.h"
#include "live/probe-props.h"
#include "live/transient.h"
#include "load/loader.h"
#include "load/unit-settings.h"
#include "load/version.h"
#include "report/json-header.h"
#include "rules/rules.h"
#include "verb-live.h"
#include "verbs.h"

enum {
        ARG_LIKE = ARG_VERB_BASE,
        ARG_TIMEOUT,
        ARG_UNIT,
        ARG_HOST,
        ARG_MACHINE,
        ARG_JOURNAL_LINES,
};

static const struct option options[] = {
        { "like", required_argument, NULL, ARG_LIKE },
        { "property", required_argument, NULL, 'p' },
        { "timeout", required_argument, NULL, ARG_TIMEOUT },
        { "unit", required_argument, NULL, ARG_UNIT },
        { "host", required_argument, NULL, ARG_HOST },
        { "machine", required_argument, NULL, ARG_MACHINE },
        { "directory", required_argument, NULL, 'D' },
        { "journal-lines", required_argument, NULL, ARG_JOURNAL_LINES },
        {},
};

static const char help[] =
        "Usage: bootrace probe [--like=UNIT] [-p KEY=VALUE...] [--timeout=SEC] [-- COMMAND [ARG...]]\n\n"
        "Run COMMAND (default /bin/true: the sandbox is set up before any command runs) as a transient\n"
        "Type=oneshot service with the sandbox settings of UNIT as the unit files under --root define\n"
        "them (PrivateTmp=, ProtectSystem=, ReadWritePaths=, DefaultDependencies=, ...) and/or -p\n"
        "settings, wait for its job and its exit, and report the result and the journal lines of that\n"
        "invocation.\n\n"
        "      --like=UNIT        take the sandbox settings of UNIT (a name, or a unit file path)\n"
        "  -p, --property=K=V     a setting of its own (repeatable; after --like's, so it overrides)\n"
        "      --timeout=SEC      one deadline for the whole start and run (default 30; also 500ms, 2min)\n"
        "      --unit=NAME        the transient unit's name (default bootrace-probe-RANDOM.service)\n"
        "      --root=DIR         read --like's unit (and, without -D, the journal) from this root\n"
        "  -D, --directory=DIR    read the journal lines from the journal files in DIR\n"
        "      --journal-lines=N  show at most N journal lines (default 50; 0: do not read the journal)\n"
        "  -H, --host=[USER@]HOST talk to the system bus of HOST over ssh (no journal lines)\n"
        "  -M, --machine=NAME     talk to the system bus of a local container (no journal lines)\n"
        "      --format=FORMAT    text (default) or json\n\n"
        "Exit status: 0 done, 1 failed, 2 no verdict: an error, a timeout, a lost connection or a refused\n"
        "start. A timeout, a lost connection or a systemd restart is never reported as success: the\n"
        "unit is then stopped and reset.\n";

typedef struct ProbeArgs {
        char *like;
        char **assignments;
        uint64_t timeout;
        char *unit;
        char *host, *machine;
        char *directory;
        unsigned journal_lines;
} ProbeArgs;

static void probe_args_done(ProbeArgs *a) {
        free(a->like);
        strv_free(a->assignments);
        free(a->unit);
        free(a->host);
        free(a->machine);
        free(a->directory);
}

/* "30", "1.5", "500ms", "2s", "1min". */
static int parse_seconds(const char *s, uint64_t *ret) {
        char *end;
        double v;

        errno = 0;
        v = strtod(s, &end);
        if (errno || end == s || v < 0 || v > 86400)
                return -EINVAL;
        if (streq(end, "") || streq(end, "s") || streq(end, "sec"))
                v *= 1e6;
        else if (streq(end, "ms") || streq(end, "msec"))
                v *= 1e3;
        else if (streq(end, "min"))
                v *= 60e6;
        else
                return -EINVAL;
        if (v < 1000)
                return -ERANGE;
        *ret = (uint64_t) v;
        return 0;
}

static int handle(int c, const char *arg, void *userdata) {
        ProbeArgs *a = userdata;

        switch (c) {
        case ARG_LIKE:
                return free_and_strdup(&a->like, arg);
        case 'p':
                return strv_extend(&a->assignments, arg);
        case ARG_TIMEOUT:
                if (parse_seconds(arg, &a->timeout) < 0) {
                        log_error(
                                "probe: --timeout=%s: expected seconds (at least 1ms), e.g. 30, 0.5, 500ms",
                                arg);
                        return -EINVAL;
                }
                return 0;
        case ARG_UNIT:
                if (!endswith(arg, ".service") || strchr(arg, '/') || strlen(arg) > 255) {
                        log_error("probe: --unit=%s: expected a service name, NAME.service", arg);
                        return -EINVAL;
                }
                return free_and_strdup(&a->unit, arg);
        case 'H':
        case ARG_HOST:
                return free_and_strdup(&a->host, arg);
        case 'M':
        case ARG_MACHINE:
                return free_and_strdup(&a->machine, arg);
        case 'D':
                return free_and_strdup(&a->directory, arg);
        case ARG_JOURNAL_LINES:
                if (safe_atou(arg, &a->journal_lines) < 0) {
                        log_error("probe: --journal-lines=%s: expected a number", arg);
                        return -EINVAL;
                }
                return 0;
        }
        return -EINVAL;
}

static volatile sig_atomic_t cancel_flag;

static void on_signal(int sig) {
        cancel_flag = sig;
}

static int random_unit_name(char **ret) {
        uint8_t b[16];
        char hex[33];
        FILE *f = fopen("/dev/urandom", "re");

        if (!f || fread(b, 1, sizeof b, f) != sizeof b) {
                if (f)
                        fclose(f);
                return -EIO;
        }
        fclose(f);
        for (size_t i = 0; i < 16; i++)
                snprintf(hex + 2 * i, 3, "%02x", b[i]);
        return asprintf_safe(ret, "bootrace-probe-%s.service", hex) < 0 ? -ENOMEM : 0;
}

/* The command's executable: absolute as given, or looked up in the usual directories under the root. */
static int resolve_command(const char *root, const char *name, char **ret) {
        static const char *const dirs[] = { "/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                            "/usr/bin",        "/sbin",          "/bin" };
        if (strchr(name, '/')) {
                if (!path_is_absolute(name))
                        return -EINVAL;
                return (*ret = strdup(name)) ? 0 : -ENOMEM;
        }
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                _cleanup_(freep) char *p = strjoin(dirs[i], "/", name), *host = NULL;
                struct stat st;
                if (!p)
                        return -ENOMEM;
                host = strjoin(root && !streq(root, "/") ? root : "", p);
                if (!host)
                        return -ENOMEM;
                if (stat(host, &st) == 0 && S_ISREG(st.st_mode)) {
                        *ret = TAKE_PTR(p);
                        return 0;
                }
        }
        return -ENOENT;
}

/* --like: the unit as the loader reads it under --root, translated. */
static int like_props(const Context *ctx, const char *like, unsigned version, TransientProps *props,
                      char ***ret_not_applied, char **ret_fragment) {
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(loader_freep) Loader *loader = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(freep) SettingStatus *st = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **extra = NULL;
        _cleanup_(freep) char *name = NULL, *dir = NULL;
        FeatureSet features;
        int r;

        if (strchr(like, '/')) { /* a unit file: its directory is searched first */
                _cleanup_(freep) char *d = NULL;
                const char *base = path_basename(like);
                name = strdup(base);
                d = strndup_safe(like, base - like);
                if (!name || !d)
                        return log_error("out of memory"), -ENOMEM;
                dir = realpath(d, NULL);
                if (!dir) {
                        log_error_errno(errno, "probe: --like=%s", like);
                        return -errno;
                }
                if (strv_extend(&extra, dir) < 0)
                        return log_error("out of memory"), -ENOMEM;
        } else if (!(name = strdup(like)))
                return log_error("out of memory"), -ENOMEM;
        if (!unit_name_is_valid(name, UNIT_NAME_ANY)) {
                log_error("probe: --like=%s: not a valid unit name", like);
                return -EINVAL;
        }
        r = root_open(ctx->root ?: "/", &root);
        if (r < 0) {
                log_error_errno(r, "probe: --root=%s", strna(ctx->root));
                return r;
        }
        r = rules_load(NULL, &rules, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("probe: cannot read the rules in %s", rules_default_dir());
                return r;
        }
        r = rules_feature_set(rules, version, &features);
        if (r < 0) {
                log_error("probe: no systemd version to judge for");
                return r;
        }
        r = loader_new(&(LoaderOptions){ .root = root, .extra_dirs = extra, .features = &features }, &loader,
                       &diags);
        if (r >= 0)
                r = loader_load(loader, name, &u, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                log_error_errno(r, "probe: --like=%s: cannot load", like);
                return r;
        }
        if (u->load_state != LOAD_LOADED) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                log_error("probe: --like=%s: %s%s%s", like, load_state_to_string(u->load_state),
                          ctx->root ? " under " : "", strempty(ctx->root));
                return -ENOENT;
        }
        r = unit_settings_classify(u, rules, version, &st, &diags);
        if (r >= 0)
                r = probe_props_from_unit(u, st, rules, version, props, ret_not_applied, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                log_error("probe: --like=%s: cannot translate its settings", like);
                return r;
        }
        if (!ctx->quiet)
                diag_list_print(&diags, stderr, DIAG_WARNING);
        *ret_fragment = u->fragment_path ? strdup(u->fragment_path) : NULL;
        return 0;
}

static void print_text(const char *unit, const char *like, const char *fragment, const TransientProps *props,
                       char * const *not_applied, const TransientResult *res, const InvocationLog *log,
                       const char *log_note) {
        _cleanup_(freep) char *why = transient_explain(res);

        printf("probe: %s\n", unit);
        if (like)
                printf("like: %s%s%s%s\n", like, fragment ? " (" : "", strempty(fragment),
                       fragment ? ")" : "");
        for (size_t i = 0; i < props->n; i++) {
                _cleanup_(freep) char *s = transient_prop_format(&props->props[i]);
                if (props->props[i].origin)
                        printf("  %-40s # %s\n", strna(s), props->props[i].origin);
                else
                        printf("  %s\n", strna(s));
        }
        STRV_FOREACH(n, not_applied)
                printf("  not applied: %s\n", *n);
        printf("outcome: %s\n", transient_outcome_to_string(res->outcome));
        if (res->job_result)
                printf("job: %s\n", res->job_result);
        if (res->service_result)
                printf("service result: %s\n", res->service_result);
        if (res->exec_main_code > 0) {
                const char *n = exit_status_name(res->exec_main_status);
                printf("exit: %s, status %d%s%s\n", res->exec_main_code == 1 ? "exited" :
                                                    res->exec_main_code == 2 ? "killed" : "dumped",
                       res->exec_main_status, n ? "/" : "", n ? strchr(n, '/') + 1 : "");
        }
        printf("cause: %s\n", strna(why));
        if (res->invocation_id)
                printf("invocation: %s\n", res->invocation_id);
        if (log_note)
                printf("journal: %s\n", log_note);
        for (size_t i = 0; log && i < log->n; i++) {
                const InvocationLine *l = &log->lines[i];
                time_t t = (time_t) (l->realtime_usec / USEC_PER_SEC);
                struct tm tm;
                char ts[32] = "";
                if (localtime_r(&t, &tm))
                        strftime(ts, sizeof ts, "%b %d %H:%M:%S", &tm);
                printf("  %s %s%s%s%s: %s\n", ts, strna(l->identifier), l->pid ? "[" : "", strempty(l->pid),
                       l->pid ? "]" : "", strna(l->message));
        }
        if (res->cleanup != CLEANUP_NONE)
                printf("cleanup: %s%s%s\n", transient_cleanup_to_string(res->cleanup),
                       res->cleanup_detail ? ": " : "", strempty(res->cleanup_detail));
        printf("verdict: %s\n", transient_verdict_to_string(transient_verdict(res)));
}

static void print_json(const char *unit, const char *like, const char *fragment, const TransientProps *props,
                       char * const *not_applied, const TransientResult *res, const InvocationLog *log,
                       const char *log_note) {
        _cleanup_(freep) char *why = transient_explain(res);
        JsonWriter w;

        json_init(&w, stdout, false);
        report_json_begin(&w, NULL);
        json_kv_string(&w, "unit", unit);
        json_kv_string(&w, "like", like);
        json_kv_string(&w, "like_fragment", fragment);
        json_key(&w, "properties");
        json_begin_array(&w);
        for (size_t i = 0; i < props->n; i++) {
                _cleanup_(freep) char *s = transient_prop_format(&props->props[i]);
                const char *eq = s ? strchr(s, '=') : NULL;
                json_begin_object(&w);
                json_kv_string(&w, "name", props->props[i].name);
                json_kv_string(&w, "value", eq ? eq + 1 : NULL);
                json_kv_string(&w, "origin", props->props[i].origin);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_kv_strv(&w, "not_applied", not_applied);
        json_kv_string(&w, "verdict", transient_verdict_to_string(transient_verdict(res)));
        json_kv_string(&w, "outcome", transient_outcome_to_string(res->outcome));
        json_kv_string(&w, "job_result", res->job_result);
        json_kv_string(&w, "service_result", res->service_result);
        json_kv_string(&w, "exit_code",
                       res->exec_main_code == 1 ? "exited" :
                       res->exec_main_code == 2 ? "killed" :
                       res->exec_main_code == 3 ? "dumped" :
                                                  NULL);
        json_key(&w, "exit_status");
        if (res->exec_main_code > 0)
                json_int(&w, res->exec_main_status);
        else
                json_null(&w);
        json_kv_string(&w, "cause", why);
        json_kv_string(&w, "error", sd_bus_error_is_set(&res->error) ? res->error.name : NULL);
        json_kv_string(&w, "phase", res->phase);
        json_kv_string(&w, "active_state", res->active_state);
        json_kv_string(&w, "invocation_id", res->invocation_id);
        json_kv_uint(&w, "attempts", res->attempts);
        json_kv_string(&w, "cleanup", transient_cleanup_to_string(res->cleanup));
        json_kv_string(&w, "cleanup_detail", res->cleanup_detail);
        json_kv_uint(&w, "elapsed_usec", res->elapsed_usec);
        json_kv_string(&w, "journal_note", log_note);
        json_kv_bool(&w, "journal_complete", log && log->complete);
        json_key(&w, "journal");
        json_begin_array(&w);
        for (size_t i = 0; log && i < log->n; i++) {
                const InvocationLine *l = &log->lines[i];
                json_begin_object(&w);
                json_kv_uint(&w, "realtime_usec", l->realtime_usec);
                json_kv_string(&w, "identifier", l->identifier);
                json_kv_string(&w, "pid", l->pid);
                json_kv_bool(&w, "manager", l->manager);
                json_kv_string(&w, "message", l->message);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

/* The command to run (argv, or /bin/true), its executable looked up under the root. Returns 0, or a negative
 * errno after printing an error. */
static int probe_command(const Context *ctx, char **args, int n, char ***ret) {
        static char * const default_cmd[] = { (char *) "/bin/true", NULL };
        _cleanup_(strv_freep) char **cmd = NULL;
        _cleanup_(freep) char *exe = NULL;
        int r;

        cmd = strv_copy(n > 0 ? args : default_cmd);
        if (!cmd)
                return log_oom();
        r = resolve_command(ctx->root, cmd[0], &exe);
        if (r == -ENOMEM)
                return log_oom();
        if (r < 0) {
                log_error("probe: %s: %s", cmd[0],
                          r == -ENOENT ? "not found (give an absolute path)" : "give an absolute path");
                return r;
        }
        free(cmd[0]);
        cmd[0] = TAKE_PTR(exe);
        *ret = TAKE_PTR(cmd);
        return 0;
}

/* --like's settings (read for the version asked for, or the running one's), then -p's. Returns 0, or a negative
 * errno after printing an error. */
static int probe_props(const Context *ctx, const ProbeArgs *a, const LiveSystem *mgr, TransientProps *props,
                       char ***ret_not_applied, char **ret_fragment) {
        int r;

        if (a->like) {
                /* the version only says how to read the --like unit's settings */
                _cleanup_(freep) char *nearest = NULL;
                VersionChoice vc;
                if (ctx->systemd || ctx->target) {
                        _cleanup_(root_freep) Root *root = NULL;
                        if (root_open(ctx->root ?: "/", &root) < 0 || context_resolve_version(ctx, root, &vc) < 0)
                                return -EINVAL;
                } else if (context_check_version(ctx, mgr->manager.version_major, VERSION_FROM_LIVE,
                                                 "the running systemd", &vc) < 0)
                        return -EINVAL;
                nearest = version_choice_note(&vc);
                if (nearest)
                        log_warning("probe: --like=%s %s", a->like, nearest);
                r = like_props(ctx, a->like, vc.version, props, ret_not_applied, ret_fragment);
                if (r < 0)
                        return r;
        }
        STRV_FOREACH(p, a->assignments) {
                const char *err = NULL;
                r = probe_props_assign(props, *p, &err);
                if (r == -ENOMEM)
                        return log_oom();
                if (r < 0) {
                        log_error("probe: -p %s: %s", *p, err);
                        return r;
                }
        }
        return 0;
}

/* The transient unit's name (--unit, or a random one) into *ret_unit, and the frame of its properties. */
static int probe_frame(const ProbeArgs *a, char **cmd, TransientProps *props, char **ret_unit) {
        _cleanup_(freep) char *description = NULL;
        int r;

        if (a->unit)
                *ret_unit = strdup(a->unit);
        else {
                r = random_unit_name(ret_unit);
                if (r == -EIO)
                        return log_error_errno(r, "probe: cannot read /dev/urandom for a unit name");
        }
        if (!*ret_unit ||
            asprintf_safe(&description, "bootrace probe%s%s", a->like ? " like " : "", strempty(a->like)) < 0 ||
            probe_props_frame(props, description, cmd) < 0)
                return log_oom();
        return 0;
}

/* Runs it. SIGINT/SIGTERM end the wait (EINTR), and the unit is cleaned up: no SA_RESTART. */
static int probe_run(sd_bus *bus, const char *unit, const TransientProps *props, uint64_t budget,
                     TransientResult *res) {
        struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
        int r;

        sigemptyset(&sa.sa_mask);
        (void) sigaction(SIGINT, &sa, &old_int);
        (void) sigaction(SIGTERM, &sa, &old_term);
        r = transient_run(bus,
                          &(TransientRequest) { .name = unit,
                                                .props = props,
                                                .budget = budget,
                                                .cancel = &cancel_flag,
                                                .unref = true },
                          res);
        (void) sigaction(SIGINT, &old_int, NULL);
        (void) sigaction(SIGTERM, &old_term, NULL);
        return r < 0 ? log_oom() : 0;
}

/* The invocation's journal lines into log, or in *ret_note why there are none or not all. */
static void probe_journal(const Context *ctx, const ProbeArgs *a, const char *unit, const TransientResult *res,
                          InvocationLog *log, char **ret_note) {
        int r;

        if (a->journal_lines == 0 || !res->invocation_id)
                return;
        if (a->host || a->machine) {
                *ret_note = strdup("not read: the journal of a remote system is not reachable from here");
                return;
        }
        /* the job is over; give journald a moment to write the last lines */
        r = invocation_log_read(a->directory ?: ctx->root, !a->directory && ctx->root, unit, res->invocation_id,
                                deadline_after(2 * USEC_PER_SEC), a->journal_lines, log);
        if (r < 0)
                (void) asprintf_safe(ret_note, "cannot read the journal%s%s: %s", a->directory ? " in " : "",
                                     strempty(a->directory), strerror(-r));
        else if (!log->complete)
                *ret_note = strdup("incomplete: PID 1's message that ends the job was not (yet) in the journal");
}

int verb_probe(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(probe_args_done) ProbeArgs a = { .timeout = 30 * USEC_PER_SEC, .journal_lines = 50 };
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(live_system_freep) LiveSystem *mgr = NULL;
        _cleanup_(transient_props_done) TransientProps props = {};
        _cleanup_(transient_result_done) TransientResult res = { .exec_main_code = -1 };
        _cleanup_(invocation_log_done) InvocationLog log = {};
        _cleanup_(strv_freep) char **not_applied = NULL, **cmd = NULL;
        _cleanup_(freep) char *unit = NULL, *fragment = NULL, *note = NULL;
        int optind_, r;

        r = cli_parse(argc, argv, ctx, options, "p:D:H:M:", handle, &a, help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (cli_check_format(ctx, "probe", formats) < 0)
                return EXIT_ERROR;
        if (a.host && a.machine) {
                log_error("probe: give --host or --machine, not both");
                return EXIT_ERROR;
        }
        if (probe_command(ctx, argv + optind_, argc - optind_, &cmd) < 0 || live_connect(a.host, a.machine,
                         &(LiveOptions){ .deadline = deadline_after(MIN(a.timeout, 10 * USEC_PER_SEC)) }, "probe",
                         &bus, &mgr) < 0 ||
            probe_props(ctx, &a, mgr, &props, &not_applied, &fragment) < 0 ||
            probe_frame(&a, cmd, &props, &unit) < 0 || probe_run(bus, unit, &props, a.timeout, &res) < 0)
                return EXIT_ERROR;
        probe_journal(ctx, &a, unit, &res, &log, &note);

        if (ctx->format == FORMAT_JSON)
                print_json(unit, a.like, fragment, &props, not_applied, &res,
                           log.n || log.complete ? &log : NULL, note);
        else
                print_text(unit, a.like, fragment, &props, not_applied, &res, &log, note);
        fflush(stdout);
        switch (transient_verdict(&res)) {
        case VERDICT_DONE:
                return EXIT_CLEAN;
        case VERDICT_FAILED:
                return EXIT_FINDINGS;
        default:
                return EXIT_ERROR;
        }
}
