/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* show --live, graph --live and the live critical chain: connect to the system bus (or --host/--machine),
 * load what PID 1 holds with a few pipelined calls, print it. BOOTRACE_BUS_STATS=1 reports the calls and the
 * time on standard error (for the measurements in bootrace(1)). */

#include "live/bus-util.h"
#include "live/live-chain.h"
#include "live/live.h"
#include "report/live-report.h"
#include "verb-live.h"

/* systemd-analyze's --fuzz takes a time span; so does this: "0", "100ms", "1.5s", "2min", plain seconds. */
static int parse_span(const char *s, uint64_t *ret) {
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
        else if (streq(end, "us") || streq(end, "usec"))
                ;
        else if (streq(end, "min"))
                v *= 60e6;
        else
                return -EINVAL;
        *ret = (uint64_t) v;
        return 0;
}

int live_args_handle(LiveArgs *a, int c, const char *arg) {
        switch (c) {
        case ARG_LIVE:
                a->live = true;
                return 0;
        case 'H':
        case ARG_LIVE_HOST:
                return free_and_strdup(&a->host, arg);
        case 'M':
        case ARG_LIVE_MACHINE:
                return free_and_strdup(&a->machine, arg);
        case ARG_LIVE_FUZZ:
                if (parse_span(arg, &a->fuzz) < 0) {
                        log_error("--fuzz=%s: expected a time span such as 0, 100ms or 1s", arg);
                        return -EINVAL;
                }
                return 0;
        }
        return 1;
}

void live_args_done(LiveArgs *a) {
        a->host = mfree(a->host);
        a->machine = mfree(a->machine);
}

bool live_args_wanted(const LiveArgs *a) {
        return a->live || a->host || a->machine;
}

static void report_stats(const LiveSystem *s) {
        const char *e = getenv("BOOTRACE_BUS_STATS");

        if (isempty(e) || streq(e, "0"))
                return;
        fprintf(stderr, "bootrace: bus: %zu units, %u calls in %u round trips, %.1f ms\n", s->n_units,
                s->stats.calls, s->stats.batches, s->stats.elapsed_usec / 1e3);
}

/* Connects and reads the manager. Returns 0 or -errno after printing the error. */
int live_connect(const char *host, const char *machine, const LiveOptions *opts, const char *verb, sd_bus **ret_bus,
                 LiveSystem **ret) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        BusTarget t = { .host = host, .machine = machine };
        char tbuf[256], ebuf[512];
        int r;

        if (host && machine) {
                log_error("%s: give --host or --machine, not both", verb);
                return -EINVAL;
        }
        r = bus_open_target(&t, &bus);
        if (r < 0) {
                log_error_errno(r, "%s: cannot connect to %s", verb, bus_target_describe(&t, tbuf));
                return r;
        }
        r = live_load_manager(bus, opts, ret, &error);
        if (r < 0) {
                log_error("%s: cannot talk to systemd on %s: %s", verb, bus_target_describe(&t, tbuf),
                          bus_error_describe(&error, r, ebuf));
                return r;
        }
        *ret_bus = TAKE_PTR(bus);
        return 0;
}

static bool load_failed(const LiveUnit *u) {
        return !u->load_state || streq(u->load_state, "not-found") || streq(u->load_state, "bad-setting") ||
               streq(u->load_state, "error");
}

int verb_show_live(const LiveArgs *a, char **units, size_t n, Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **names = NULL;
        _cleanup_(freep) LiveUnit **list = NULL;
        char ebuf[512];
        bool bad = false;
        int r;

        if (cli_check_format(ctx, "show", formats) < 0)
                return EXIT_ERROR;
        if (n == 0) {
                log_error("show: no unit given; see 'bootrace show --help'");
                return EXIT_ERROR;
        }
        for (size_t i = 0; i < n; i++) {
                if (strchr(units[i], '/')) {
                        log_error("show --live: %s: give unit names; PID 1 is asked, not files", units[i]);
                        return EXIT_ERROR;
                }
                if (strv_extend(&names, units[i]) < 0)
                        return log_error("out of memory"), EXIT_ERROR;
        }
        if (live_connect(a->host, a->machine, NULL, "show", &bus, &s) < 0)
                return EXIT_ERROR;
        r = live_load_units(bus, NULL, s, names, &diags, &error);
        if (r < 0) {
                log_error("show --live: %s", bus_error_describe(&error, r, ebuf));
                return EXIT_ERROR;
        }
        report_stats(s);
        list = calloc(n + 1, sizeof(LiveUnit *));
        if (!list)
                return log_error("out of memory"), EXIT_ERROR;
        for (size_t i = 0; i < n; i++) {
                list[i] = live_system_find(s, names[i]);
                if (!list[i]) {
                        log_error("show --live: %s: PID 1 returned no such unit", names[i]);
                        return EXIT_ERROR;
                }
                if (load_failed(list[i])) {
                        bad = true;
                        (void) diag_add(&diags, DIAG_ERROR, NULL, 0, "%s: %s%s%s", names[i],
                                        list[i]->load_state, list[i]->load_error_msg ? ": " : "",
                                        strempty(list[i]->load_error_msg));
                }
        }
        if (ctx->format == FORMAT_JSON)
                live_report_units_json(s, list, n, &diags, stdout);
        else
                live_report_units_text(s, list, n, stdout);
        if (!ctx->quiet || bad)
                diag_list_print(&diags, stderr, ctx->quiet ? DIAG_WARNING : DIAG_NOTICE);
        if (fflush(stdout) != 0)
                return EXIT_ERROR;
        return bad ? EXIT_ERROR : EXIT_CLEAN;
}

int verb_graph_live(const LiveArgs *a, char **units, size_t n, Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_DOT, _FORMAT_INVALID };
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        char ebuf[512];
        int r;

        if (cli_check_format(ctx, "graph", formats) < 0)
                return EXIT_ERROR;
        if (live_connect(a->host, a->machine, NULL, "graph", &bus, &s) < 0)
                return EXIT_ERROR;
        r = live_load_all(bus, NULL, s, &diags, &error);
        if (r >= 0 && n > 0)
                r = live_load_units(bus, NULL, s, units, &diags, &error);
        if (r < 0) {
                log_error("graph --live: %s", bus_error_describe(&error, r, ebuf));
                return EXIT_ERROR;
        }
        report_stats(s);
        r = live_report_graph(s, (const char * const *) units, n, ctx->format, stdout);
        if (r < 0)
                return log_error("out of memory"), EXIT_ERROR;
        if (!ctx->quiet)
                diag_list_print(&diags, stderr, DIAG_NOTICE);
        return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_ERROR;
}

int verb_chain_live(const LiveArgs *a, const char *unit, Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(live_chain_done) LiveChain c = {};
        const char *name = unit ?: "default.target";
        char ebuf[512];
        int r;

        if (cli_check_format(ctx, "chain", formats) < 0)
                return EXIT_ERROR;
        if (live_connect(a->host, a->machine, NULL, "chain", &bus, &s) < 0)
                return EXIT_ERROR;
        if (s->manager.finish_usec == 0) {
                log_error("chain: bootup is not yet finished (org.freedesktop.systemd1.Manager."
                          "FinishTimestampMonotonic=0); try again later, or see 'systemctl list-jobs'");
                return EXIT_ERROR;
        }
        r = live_load_all(bus, NULL, s, &diags, &error);
        if (r >= 0 && !live_system_find(s, name))
                r = live_load_units(bus, NULL, s, (char *[]) { (char *) name, NULL }, &diags, &error);
        if (r < 0) {
                log_error("chain: %s: %s", name, bus_error_describe(&error, r, ebuf));
                return EXIT_ERROR;
        }
        report_stats(s);
        r = live_chain_build(s, name, a->fuzz, &c);
        if (r == -ENOENT) {
                log_error("chain: %s: PID 1 has no such unit", name);
                return EXIT_ERROR;
        }
        if (r < 0) {
                log_error_errno(r, "chain");
                return EXIT_ERROR;
        }
        if (ctx->format == FORMAT_JSON)
                live_report_chain_json(s, &c, stdout);
        else
                live_report_chain_text(&c, ctx->color, stdout);
        return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_ERROR;
}
