/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The live loader, the critical chain and their reports, against the fake manager's "live" scenario (a small
 * booted container: userspace at 5 s, boot finished at 6 s); plus the pure helpers (object paths, error
 * names, systemd's time span format). The chain output is compared with what systemd-analyze critical-chain
 * prints for the same timestamps (worked out by hand from its algorithm; t5100 compares with the real one).
 */

#include <inttypes.h>

#include "fake-bus.h"
#include "live/bus-util.h"
#include "live/live-chain.h"
#include "live/live.h"
#include "report/live-report.h"
#include "tap.h"

static void test_helpers(void) {
        static const struct {
                uint64_t usec;
                const char *text;
        } spans[] = {
                { 0, "0" },           { 999, "999us" },       { 1000, "1ms" },      { 1500, "1ms" },
                { 224000, "224ms" },  { 1234567, "1.234s" }, { 2000000, "2s" }, { 65500000, "1min 5.500s" },
                { 3600000000, "1h" }, { 3661000000, "1h 1min 1s" },
        };
        char buf[64];

        for (size_t i = 0; i < ELEMENTSOF(spans); i++)
                TAP_STREQ(live_format_timespan(buf, spans[i].usec), spans[i].text,
                          "format_timespan as systemd's");

        _cleanup_(freep) char *p1 = bus_unit_path("foo-bar.service");
        _cleanup_(freep) char *p2 = bus_unit_path("run-credentials-systemd\\x2dtmpfiles.mount");
        _cleanup_(freep) char *p3 = bus_unit_path("1a.service");
        TAP_STREQ(p1, SD_UNIT_PATH_PREFIX "foo_2dbar_2eservice", "unit path: '-' and '.' escaped");
        TAP_STREQ(p2, SD_UNIT_PATH_PREFIX "run_2dcredentials_2dsystemd_5cx2dtmpfiles_2emount",
                  "unit path: backslashes escaped");
        TAP_STREQ(p3, SD_UNIT_PATH_PREFIX "_31a_2eservice", "unit path: a leading digit escaped");
        tap_ok(bus_error_explain(SD_DEST ".UnitMasked") != NULL, "error names are explained");
        tap_ok(bus_error_explain("org.example.Unknown") == NULL, "unknown error names are not");
        TAP_STREQ(live_dep_to_string(LIVE_DEP_REQUIRES_MOUNTS_FOR), "RequiresMountsFor", "dep names");
        TAP_INTEQ(live_dep_from_string("WantedBy"), LIVE_DEP_WANTED_BY, "dep names, back");
        tap_ok(live_dep_is_graph_edge(LIVE_DEP_AFTER), "graph edges: After= for ordering");
        tap_ok(!live_dep_is_graph_edge(LIVE_DEP_BEFORE), "graph edges: not Before=");
        tap_ok(!live_dep_is_graph_edge(LIVE_DEP_WANTED_BY), "graph edges: forward types only, not WantedBy=");
}

static char *capture(void (*fn)(FILE *f, void *userdata), void *userdata) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);

        if (!f)
                return NULL;
        fn(f, userdata);
        fclose(f);
        return buf;
}

static void chain_text(FILE *f, void *userdata) {
        live_report_chain_text(userdata, false, f);
}

#define HEADER                                                                                              \
        "The time when unit became active or started is printed after the \"@\" character.\n"               \
        "The time the unit took to start is printed after the \"+\" character.\n\n"

static void test_chain(const LiveSystem *s) {
        static const struct {
                const char *unit;
                uint64_t fuzz;
                const char *text;
        } cases[] = {
                { "multi-user.target", 0,
                  HEADER "multi-user.target @500ms\n"
                         "└─late.service @400ms +1ms\n"
                         "  └─early.service @100ms +250ms\n"
                         "    └─local-fs.target @100ms\n" },
                /* within 200 ms of the last: both predecessors, the second one's local-fs.target seen before
                 */
                { "multi-user.target", 200000,
                  HEADER "multi-user.target @500ms\n"
                         "└─late.service @400ms +1ms\n"
                         "  ├─early.service @100ms +250ms\n"
                         "  │ └─local-fs.target @100ms\n"
                         "  └─other.service @100ms +100ms\n"
                         "    └─local-fs.target @100ms\n"
                         "      └─...\n" },
                /* an alias: the headline names the unit */
                { "early-alias.service", 0, HEADER "early.service +250ms\n└─local-fs.target @100ms\n" },
                /* became active after the boot finished: its own line only */
                { "after-boot.service", 0, HEADER "after-boot.service +100ms\n" },
                /* never started: no headline, as systemd-analyze */
                { "never.service", 0, HEADER },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                _cleanup_(live_chain_done) LiveChain c = {};
                _cleanup_(freep) char *out = NULL;
                int r = live_chain_build(s, cases[i].unit, cases[i].fuzz, &c);
                tap_ok(r == 0, "chain %s: built (%s)", cases[i].unit, r < 0 ? strerror(-r) : "ok");
                if (r < 0)
                        continue;
                out = capture(chain_text, &c);
                tap_ok(streq_ptr(out, cases[i].text), "chain %s, fuzz %" PRIu64 " µs: as systemd-analyze",
                       cases[i].unit, cases[i].fuzz);
                if (!streq_ptr(out, cases[i].text))
                        tap_diag("got:\n%s", strna(out));
        }

        _cleanup_(live_chain_done) LiveChain c = {};
        TAP_INTEQ(live_chain_build(s, "nonexistent.service", 0, &c), -ENOENT, "chain of an unknown unit");
}

static void graph_text(FILE *f, void *userdata) {
        const char *units[] = { "late.service" };
        (void) live_report_graph(userdata, units, 1, FORMAT_TEXT, f);
}

/* The manager and every unit: one GetAll per unit, in three round trips. */
static void test_load_all(sd_bus *bus, FakeBus *fb, LiveSystem **ret) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        LiveSystem *s;

        TAP_INTEQ(live_load_manager(bus, NULL, ret, &error), 0, "manager properties read");
        s = *ret;
        if (!s)
                return;
        TAP_STREQ(s->manager.version, "252.99-fake", "manager version");
        TAP_INTEQ(s->manager.version_major, 252, "manager version, major");
        TAP_INTEQ(s->manager.userspace_usec, 5000000, "boot timestamps: userspace");
        TAP_INTEQ(s->manager.finish_usec, 6000000, "boot timestamps: finish");
        TAP_INTEQ(live_load_all(bus, NULL, s, &diags, &error), 0, "every unit loaded");
        TAP_INTEQ(s->n_units, 7, "seven units");
        TAP_INTEQ(s->stats.calls, 1 + 1 + 7, "one GetAll per unit: ListUnits + 7 + the manager");
        TAP_INTEQ(s->stats.batches, 3, "three round trips: the manager, ListUnits, one wave of GetAll");
        TAP_INTEQ(fake_log_count(fb, "CALL ListUnits"), 1, "ListUnits once");
}

/* What one unit holds, found by an alias (Names). */
static void test_unit(const LiveSystem *s) {
        const LiveUnit *u = live_system_find(s, "early-alias.service");

        tap_ok(u != NULL, "found by an alias (Names)");
        if (!u)
                return;
        TAP_STREQ(u->id, "early.service", "the alias's unit");
        TAP_STREQ(u->fragment_path, "/lib/systemd/system/early.service", "fragment");
        TAP_STREQ(u->drop_in_paths ? u->drop_in_paths[0] : NULL, "/etc/systemd/system/early.service.d/override.conf",
                  "drop-ins");
        tap_ok(strv_contains(u->deps[LIVE_DEP_AFTER], "local-fs.target"), "dependencies by type: After=");
        tap_ok(strv_contains(u->deps[LIVE_DEP_REQUIRES], "local-fs.target"), "dependencies by type: Requires=");
        tap_ok(u->has_deps & (UINT64_C(1) << LIVE_DEP_WANTS), "an empty list the manager sent is present");
        tap_ok(!(u->has_deps & (UINT64_C(1) << LIVE_DEP_UPHOLDS)), "a list the manager lacks is absent");
        TAP_INTEQ(u->times.inactive_exit, 5100000, "timestamps: inactive exit");
        TAP_INTEQ(u->times.active_enter, 5350000, "timestamps: active enter");
        TAP_INTEQ(u->invocation_id ? strlen(u->invocation_id) : 0, 32, "invocation ID as 32 hex digits");
        TAP_STREQ(u->load_state, "loaded", "load state");
        tap_ok(u->default_dependencies, "booleans: DefaultDependencies=");
        tap_ok(!u->transient, "booleans: Transient=");
}

static void test_graph_text(LiveSystem *s) {
        _cleanup_(freep) char *g = capture(graph_text, s);

        TAP_STREQ(g,
                  "late.service\tWants\tearly.service\t-\tlive\n"
                  "late.service\tAfter\tearly.service\t-\tlive\n"
                  "late.service\tAfter\tother.service\t-\tlive\n"
                  "late.service\tAfter\tnever.service\t-\tlive\n",
                  "graph --live text: the edges of one unit, Before= left out");
}

/* show --live: LoadUnit per name, then GetAll; an alias PID 1 resolves without listing it in Names. */
static void test_load_units(sd_bus *bus) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        char *names[] = { (char *) "default.target", (char *) "late.service", (char *) "nothere.service", NULL };
        const LiveUnit *u;

        TAP_INTEQ(live_load_manager(bus, NULL, &s, &error), 0, "second manager read");
        if (!s)
                return;
        TAP_INTEQ(live_load_units(bus, &(LiveOptions) { .window = 1 }, s, names, &diags, &error), 0,
                  "units loaded by name");
        u = live_system_find(s, "default.target");
        TAP_STREQ(u ? u->id : NULL, "multi-user.target", "an alias resolved by PID 1 is found by that name");
        u = live_system_find(s, "nothere.service");
        TAP_STREQ(u ? u->load_state : NULL, "not-found", "a unit without a file: not-found");
        TAP_INTEQ(s->n_units, 3, "three units");
        TAP_INTEQ(s->stats.batches, 1 + 3 + 3, "window 1: one round trip per call");
}

int main(void) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(live_chain_done) LiveChain c = {};
        FakeBus fb;
        bool wrapped;
        unsigned bad;

        /* the chain's tree is drawn as systemd draws it in a UTF-8 locale */
        setenv("LC_ALL", "C.UTF-8", 1);
        test_helpers();

        if (access("/usr/bin/dbus-daemon", X_OK) < 0 && access("/bin/dbus-daemon", X_OK) < 0) {
                tap_skip("dbus-daemon not installed: the loader tests need a private bus");
                return tap_done();
        }
        if (fake_bus_start(&fb, NULL) < 0 || fake_manager_start(&fb, "live") < 0) {
                fake_bus_stop(&fb);
                tap_bail("cannot start dbus-daemon and fake-systemd");
        }
        if (sd_bus_open_system(&bus) < 0) {
                fake_bus_stop(&fb);
                tap_bail("cannot connect to the private bus");
        }
        test_load_all(bus, &fb, &s);
        if (!s) {
                fake_bus_stop(&fb);
                tap_bail("no manager: no check below would mean anything");
        }
        test_unit(s);
        test_chain(s);
        test_graph_text(s);
        /* a boot still running: no chain */
        s->manager.finish_usec = 0;
        TAP_INTEQ(live_chain_build(s, "multi-user.target", 0, &c), -EINPROGRESS, "no chain before the boot finished");
        test_load_units(bus);

        bus = sd_bus_flush_close_unref(bus);
        wrapped = fb.wrapped;
        bad = fake_bus_stop(&fb);
        if (wrapped)
                tap_ok(bad == 0, "fake-systemd ran without a report from the wrapper");
        return tap_done();
}
