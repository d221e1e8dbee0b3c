/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The job wait against the fake manager on a private dbus-daemon: every adversarial scenario S1–S28 of
 * knowledge/dbus-jobs.md §5. Each asserts the outcome, that transient_run() returns within its deadline
 * (plus the cleanup budget where a cleanup runs) plus a generous slack, and which calls reached the manager.
 * Run under ASan/UBSan and valgrind, the same cases check that no callback touches freed memory and nothing
 * leaks. */

#include <signal.h>
#include <sys/wait.h>

#include "fake-bus.h"
#include "live/bus-util.h"
#include "live/job-wait.h"
#include "live/transient.h"
#include "tap.h"

#define SEC USEC_PER_SEC
#define MS USEC_PER_MSEC
#define UNIT "probe-test.service"

typedef struct Run {
        FakeBus fb;
        TransientResult res;
        uint64_t elapsed;
        bool started;
} Run;

static TransientProps props;

static void props_init(void) {
        TransientProp *p;
        char *argv[] = { (char *) "/bin/true", NULL };

        p = transient_props_add(&props, "Type", TPROP_STRING, NULL);
        p->s = strdup("oneshot");
        p = transient_props_add(&props, "ExecStart", TPROP_EXEC, NULL);
        p->s = strdup("/bin/true");
        p->strv = strv_copy(argv);
        p = transient_props_add(&props, "AddRef", TPROP_BOOL, NULL);
        p->b = true;
}

/* Starts the daemon (with extra config) and, unless scenario is NULL, the fake. */
static bool setup(Run *run, const char *scenario, const char *extra) {
        *run = (Run) { .res = { .exec_main_code = -1 } };
        if (fake_bus_start(&run->fb, extra) < 0) {
                tap_ok(0, "%s: start dbus-daemon", strna(scenario));
                return false;
        }
        if (scenario && fake_manager_start(&run->fb, scenario) < 0) {
                tap_ok(0, "%s: start fake-systemd", scenario);
                fake_bus_stop(&run->fb);
                return false;
        }
        run->started = true;
        return true;
}

static int run_one(sd_bus *bus, Run *run, uint64_t budget, uint64_t cleanup) {
        TransientRequest req = {
                .name = UNIT,
                .props = &props,
                .budget = budget,
                .cleanup_budget = cleanup,
                .backoff = 50 * MS,
                .unref = true,
        };
        uint64_t t0 = now_usec();
        int r;

        transient_result_done(&run->res);
        r = transient_run(bus, &req, &run->res);
        run->elapsed = now_usec() - t0;
        return r;
}

/* One transient_run on a fresh connection; the connection is drained for a moment afterwards, so late
 * replies and signals reach a JobWait that no longer exists (the sanitizers would catch a dangling slot). */
static bool run_started(Run *run, const char *scenario, uint64_t budget, uint64_t cleanup) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        int r;

        r = sd_bus_open_system(&bus);
        if (r < 0) {
                tap_ok(0, "%s: connect: %s", strna(scenario), strerror(-r));
                return false;
        }
        r = run_one(bus, run, budget, cleanup);
        if (r < 0) {
                tap_ok(0, "%s: transient_run: %s", strna(scenario), strerror(-r));
                return false;
        }
        for (uint64_t end = deadline_after(300 * MS); deadline_remaining(end) > 0;) {
                if (sd_bus_process(bus, NULL) < 0)
                        break;
                (void) sd_bus_wait(bus, 20 * MS);
        }
        return true;
}

static bool run_case(Run *run, const char *scenario, const char *extra, uint64_t budget, uint64_t cleanup) {
        return setup(run, scenario, extra) && run_started(run, scenario, budget, cleanup);
}

static void done_case(Run *run) {
        bool wrapped = run->fb.wrapped;
        unsigned bad;

        transient_result_done(&run->res);
        bad = fake_bus_stop(&run->fb);
        if (wrapped)
                tap_ok(bad == 0, "fake-systemd ran without a report from the wrapper");
}

static void expect(const Run *run, const char *scenario, TransientOutcome want) {
        tap_ok(run->res.outcome == want, "%s: outcome %s (got %s)", scenario,
               transient_outcome_to_string(want), transient_outcome_to_string(run->res.outcome));
}

static void within(const Run *run, const char *scenario, uint64_t bound) {
        tap_ok(run->elapsed <= bound + fake_slack_usec(), "%s: returned after %.3f s (bound %.3f s + slack)",
               scenario, run->elapsed / 1e6, bound / 1e6);
}

static void not_success(const Run *run, const char *scenario) {
        tap_ok(transient_verdict(&run->res) != VERDICT_DONE, "%s: not reported as success", scenario);
}

/* ---- S1–S8: the wait itself */

static void test_simple(const char *scenario, const char *label) {
        Run run;
        if (!run_case(&run, scenario, NULL, 10 * SEC, SEC))
                return;
        expect(&run, label, TRANSIENT_DONE);
        within(&run, label, 0);
        tap_ok(!run.res.details_missing, "%s: details read after the job", label);
        tap_ok(streq_ptr(run.res.service_result, "success"), "%s: Result=success (%s)", label,
               strna(run.res.service_result));
        tap_ok(run.res.cleanup == CLEANUP_NONE, "%s: no cleanup after success", label);
        tap_ok(fake_log_count(&run.fb, "CALL StartTransientUnit") == 1, "%s: one StartTransientUnit", label);
        done_case(&run);
}

static void test_s3(void) {
        Run run;
        if (!run_case(&run, "S3", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S3 noise first", TRANSIENT_DONE);
        tap_ok(run.res.ignored_signals >= 2, "S3: the noise was ignored (%zu signals)",
               run.res.ignored_signals);
        done_case(&run);
}

static void test_s4(void) {
        Run run;
        if (!run_case(&run, "S4", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S4 duplicate JobRemoved (done, then failed)", TRANSIENT_DONE);
        tap_ok(streq_ptr(run.res.job_result, "done"), "S4: the first JobRemoved wins");
        done_case(&run);
}

static void test_s5(void) {
        Run run;
        if (!run_case(&run, "S5", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S5 malformed / foreign JobRemoved", TRANSIENT_DONE);
        tap_ok(run.elapsed >= 250 * MS, "S5: kept waiting for the real JobRemoved (%.3f s)",
               run.elapsed / 1e6);
        done_case(&run);
}

static void test_s6(void) {
        Run run;
        if (!run_case(&run, "S6", NULL, SEC, SEC))
                return;
        expect(&run, "S6 no JobRemoved", TRANSIENT_TIMEOUT);
        tap_ok(run.elapsed >= SEC, "S6: waited until the deadline (%.3f s)", run.elapsed / 1e6);
        within(&run, "S6", 2 * SEC);
        tap_ok(fake_log_has(&run.fb, "CALL StopUnit " UNIT " replace"), "S6: stopped by name");
        tap_ok(fake_log_has(&run.fb, "CALL ResetFailedUnit " UNIT), "S6: reset by name");
        tap_ok(run.res.cleanup == CLEANUP_DONE, "S6: cleanup done (%s)", strna(run.res.cleanup_detail));
        not_success(&run, "S6");
        done_case(&run);
}

static void test_s7(void) {
        Run run;
        /* the fake answers 1.5 s after the call; the deadline is 1 s */
        if (!run_case(&run, "S7:1500", NULL, SEC, SEC))
                return;
        expect(&run, "S7 reply after the deadline", TRANSIENT_TIMEOUT);
        TAP_CONTAINS(run.res.phase, "reply", "S7: phase is the reply");
        tap_ok(fake_log_has(&run.fb, "CALL StopUnit " UNIT), "S7: cleanup by name");
        within(&run, "S7", 2 * SEC);
        not_success(&run, "S7");
        done_case(&run);
}

static void test_s8(void) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        Run run;

        if (!setup(&run, "S8", NULL))
                return;
        if (sd_bus_open_system(&bus) < 0) {
                tap_ok(0, "S8: connect");
                done_case(&run);
                return;
        }
        /* first wait: no JobRemoved, the client gives up after 0.5 s (and cleans up) */
        TAP_INTEQ(run_one(bus, &run, 500 * MS, SEC), 0, "S8: first job waited for");
        TAP_STREQ(transient_outcome_to_string(run.res.outcome), "timeout", "S8: first job times out");
        /* second wait on the same connection: the first job's late JobRemoved(failed) comes during it */
        tap_ok(run_one(bus, &run, 10 * SEC, SEC) == 0, "S8: second transient_run");
        expect(&run, "S8 late JobRemoved of another wait", TRANSIENT_DONE);
        done_case(&run);
}

/* ---- S9–S13: UnitExists */

static void test_s9(void) {
        Run run;
        if (!run_case(&run, "S9", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S9 stale failed unit: reset and retry", TRANSIENT_DONE);
        tap_ok(fake_log_count(&run.fb, "CALL ResetFailedUnit " UNIT) >= 1, "S9: ResetFailedUnit sent");
        tap_ok(fake_log_count(&run.fb, "CALL StartTransientUnit") == 2, "S9: started twice");
        done_case(&run);
}

static void test_s10(const char *scenario) {
        Run run;
        if (!run_case(&run, scenario, NULL, 10 * SEC, SEC))
                return;
        expect(&run, scenario, TRANSIENT_ALREADY_RUNNING);
        tap_ok(!fake_log_has(&run.fb, "CALL StopUnit"), "%s: no Stop sent", scenario);
        tap_ok(!fake_log_has(&run.fb, "CALL ResetFailedUnit"), "%s: no Reset sent", scenario);
        not_success(&run, scenario);
        done_case(&run);
}

static void test_s11(void) {
        Run run;
        if (!run_case(&run, "S11", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S11 inactive unit stays", TRANSIENT_NAME_IN_USE);
        tap_ok(fake_log_count(&run.fb, "CALL StartTransientUnit") == 3, "S11: bounded: three attempts");
        within(&run, "S11", 0);
        not_success(&run, "S11");
        done_case(&run);
}

static void test_s12(void) {
        Run run;
        if (!run_case(&run, "S12", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S12 unit file of that name", TRANSIENT_NAME_CLASH);
        tap_ok(!fake_log_has(&run.fb, "CALL StopUnit"), "S12: nothing touched: no Stop");
        tap_ok(!fake_log_has(&run.fb, "CALL ResetFailedUnit"), "S12: nothing touched: no Reset");
        tap_ok(streq_ptr(run.res.fragment_path, "/etc/systemd/system/" UNIT),
               "S12: the clashing fragment is named");
        done_case(&run);
}

static void test_s13(void) {
        Run run;
        if (!run_case(&run, "S13", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S13 UnitExists, then NoSuchUnit", TRANSIENT_DONE);
        tap_ok(fake_log_count(&run.fb, "CALL StartTransientUnit") == 2, "S13: retried once");
        done_case(&run);
}

/* ---- S14–S17: results and refusals */

static void test_s14(void) {
        static const struct {
                const char *result;
                TransientOutcome outcome;
                TransientVerdict verdict;
        } cases[] = {
                { "canceled", TRANSIENT_CANCELED, VERDICT_UNKNOWN },
                { "timeout", TRANSIENT_JOB_TIMEOUT, VERDICT_FAILED },
                { "dependency", TRANSIENT_DEPENDENCY, VERDICT_FAILED },
                { "skipped", TRANSIENT_SKIPPED, VERDICT_UNKNOWN },
                { "collected", TRANSIENT_CANCELED, VERDICT_UNKNOWN },
                { "once", TRANSIENT_ONCE, VERDICT_FAILED },
                { "invalid", TRANSIENT_INVALID, VERDICT_FAILED },
                { "assert", TRANSIENT_ASSERT, VERDICT_FAILED },
                { "unsupported", TRANSIENT_UNSUPPORTED, VERDICT_FAILED },
                { "frobnicated", TRANSIENT_UNEXPECTED, VERDICT_FAILED },
        };
        char *texts[ELEMENTSOF(cases)] = {};

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                char sc[64];
                Run run;
                snprintf(sc, sizeof sc, "S14:%s", cases[i].result);
                if (!run_case(&run, sc, NULL, 10 * SEC, SEC))
                        continue;
                tap_ok(run.res.outcome == cases[i].outcome, "%s: outcome %s (%s)", sc,
                       transient_outcome_to_string(cases[i].outcome), transient_outcome_to_string(run.res.outcome));
                tap_ok(transient_verdict(&run.res) == cases[i].verdict, "%s: verdict %s (%s)", sc,
                       transient_verdict_to_string(cases[i].verdict),
                       transient_verdict_to_string(transient_verdict(&run.res)));
                TAP_STREQ(run.res.job_result, cases[i].result, sc);
                texts[i] = transient_explain(&run.res);
                done_case(&run);
        }
        bool distinct = true;
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                for (size_t k = i + 1; k < ELEMENTSOF(cases); k++)
                        if (texts[i] && texts[k] && streq(texts[i], texts[k]))
                                distinct = false;
        tap_ok(distinct, "S14: every job result is explained differently");
        TAP_CONTAINS(texts[9], "frobnicated", "S14: an unknown result is named");
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                free(texts[i]);
}

static void test_s15(void) {
        static const struct {
                const char *scenario;
                const char *text;
        } cases[] = {
                { "S15:exit-code:1:3", "status 3" },
                { "S15:exit-code:1:226", "226/NAMESPACE" },
                { "S15:exit-code:1:203", "203/EXEC" },
                { "S15:signal:2:9", "SIGKILL" },
                { "S15:core-dump:3:11", "SIGSEGV" },
                { "S15:resources:0:0", "Result=resources" },
                { "S15:oom-kill:2:9", "OOM" },
                { "S15:start-limit-hit:0:0", "start-limit-hit" },
                { "S15:timeout:2:15", "Result=timeout" },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                Run run;
                _cleanup_(freep) char *why = NULL;
                if (!run_case(&run, cases[i].scenario, NULL, 10 * SEC, SEC))
                        continue;
                why = transient_explain(&run.res);
                tap_ok(run.res.outcome == TRANSIENT_FAILED, "%s: failed (%s)", cases[i].scenario,
                       transient_outcome_to_string(run.res.outcome));
                tap_ok(why && strstr(why, cases[i].text), "%s: cause \"%s\" (%s)", cases[i].scenario,
                       cases[i].text, strna(why));
                tap_ok(fake_log_has(&run.fb, "CALL ResetFailedUnit " UNIT), "%s: unit reset after reading",
                       cases[i].scenario);
                tap_ok(fake_log_has(&run.fb, "CALL UnrefUnit"), "%s: unit released after reading",
                       cases[i].scenario);
                done_case(&run);
        }
}

static void test_s16(void) {
        Run run;
        _cleanup_(freep) char *why = NULL;
        if (!run_case(&run, "S16", NULL, 10 * SEC, SEC))
                return;
        why = transient_explain(&run.res);
        expect(&run, "S16 failed, already collected", TRANSIENT_FAILED);
        tap_ok(run.res.details_missing, "S16: no details");
        TAP_CONTAINS(why, "only the job result", "S16: job result only");
        done_case(&run);
}

static void test_s17(void) {
        static const char * const errors[] = {
                "org.freedesktop.DBus.Error.AccessDenied",     "org.freedesktop.DBus.Error.InvalidArgs",
                "org.freedesktop.DBus.Error.UnknownProperty",  "org.freedesktop.DBus.Error.PropertyReadOnly",
                SD_DEST ".TransactionJobsConflicting",         SD_DEST ".ShuttingDown",
                SD_DEST ".UnitMasked",                         SD_DEST ".LoadFailed",
                SD_DEST ".BadUnitSetting",
        };
        for (size_t i = 0; i < ELEMENTSOF(errors); i++) {
                char sc[128];
                Run run;
                _cleanup_(freep) char *why = NULL;
                snprintf(sc, sizeof sc, "S17:%s", errors[i]);
                if (!run_case(&run, sc, NULL, 20 * SEC, SEC))
                        continue;
                why = transient_explain(&run.res);
                tap_ok(run.res.outcome == TRANSIENT_CALL_FAILED, "%s: call-failed (%s)", sc,
                       transient_outcome_to_string(run.res.outcome));
                tap_ok(sd_bus_error_has_name(&run.res.error, errors[i]), "%s: the error's name kept", sc);
                tap_ok(bus_error_explain(errors[i]) != NULL, "%s: has an explanation", sc);
                tap_ok(why && bus_error_explain(errors[i]) && strstr(why, bus_error_explain(errors[i])),
                       "%s: mapped to it (%s)", sc, strna(why));
                tap_ok(run.elapsed < fake_slack_usec(), "%s: no wait (%.3f s)", sc, run.elapsed / 1e6);
                done_case(&run);
        }
}

/* ---- S18–S23: the manager and the bus go away */

static void test_fast_unknown(const char *scenario, const char *label, TransientOutcome want,
                              TransientOutcome alt) {
        Run run;
        if (!run_case(&run, scenario, NULL, 20 * SEC, SEC))
                return;
        tap_ok(run.res.outcome == want || run.res.outcome == alt, "%s: outcome %s", label,
               transient_outcome_to_string(run.res.outcome));
        tap_ok(run.elapsed < fake_slack_usec(), "%s: fast (%.3f s of a 20 s budget)", label,
               run.elapsed / 1e6);
        not_success(&run, label);
        done_case(&run);
}

static void test_s20(void) {
        Run run;
        if (!run_case(&run, "S20", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S20 manager replaced, then JobRemoved(done) from the new owner",
               TRANSIENT_MANAGER_GONE);
        TAP_CONTAINS(run.res.phase, "restarted or replaced", "S20: says so");
        not_success(&run, "S20");
        done_case(&run);
}

static void test_s22(void) {
        Run run;
        if (!run_case(&run, NULL, NULL, 20 * SEC, SEC))
                return;
        expect(&run, "S22 nobody owns org.freedesktop.systemd1", TRANSIENT_CALL_FAILED);
        /* with auto-start off the daemon answers NameHasNoOwner; ServiceUnknown would mean it tried
         * activation */
        tap_ok(sd_bus_error_has_name(&run.res.error, "org.freedesktop.DBus.Error.ServiceUnknown") ||
                       sd_bus_error_has_name(&run.res.error, "org.freedesktop.DBus.Error.NameHasNoOwner"),
               "S22: no owner, no activation (%s)", strna(run.res.error.name));
        _cleanup_(freep) char *why = transient_explain(&run.res);
        TAP_CONTAINS(why, "not reachable", "S22: \"systemd not reachable\"");
        tap_ok(run.elapsed < fake_slack_usec(), "S22: fast (%.3f s)", run.elapsed / 1e6);
        done_case(&run);
}

static void test_s23(void) {
        Run run;
        if (!run_case(&run, "S1", "<limit name=\"max_match_rules_per_connection\">1</limit>", 20 * SEC, SEC))
                return;
        expect(&run, "S23 AddMatch refused", TRANSIENT_SETUP_FAILED);
        tap_ok(!fake_log_has(&run.fb, "CALL StartTransientUnit"), "S23: nothing was sent to the manager");
        tap_ok(run.elapsed < fake_slack_usec(), "S23: fast (%.3f s)", run.elapsed / 1e6);
        done_case(&run);
}

/* ---- S24–S28 */

static void test_s24(void) {
        Run run;
        if (!run_case(&run, "S24", NULL, 30 * SEC, SEC))
                return;
        expect(&run, "S24 flood of unrelated signals", TRANSIENT_DONE);
        tap_ok(run.res.ignored_signals >= 2000, "S24: %zu signals ignored", run.res.ignored_signals);
        tap_ok(run.res.early_dropped == 100 - JOB_WAIT_EARLY_MAX,
               "S24: early buffer bounded at %d (%zu dropped)", JOB_WAIT_EARLY_MAX, run.res.early_dropped);
        done_case(&run);
}

static void test_s25(const char *scenario) {
        Run run;
        if (!run_case(&run, scenario, NULL, SEC, SEC))
                return;
        expect(&run, scenario, TRANSIENT_TIMEOUT);
        tap_ok(run.res.cleanup == CLEANUP_INCOMPLETE, "%s: cleanup incomplete (%s)", scenario,
               strna(run.res.cleanup_detail));
        within(&run, scenario, 2 * SEC);
        done_case(&run);
}

static void test_s26(void) {
        Run run;
        if (!run_case(&run, "S26", NULL, 10 * SEC, SEC))
                return;
        expect(&run, "S26 reply of the wrong type", TRANSIENT_CALL_FAILED);
        tap_ok(sd_bus_error_has_name(&run.res.error, "org.bootrace.BadReply"), "S26: BadReply (%s)",
               strna(run.res.error.message));
        done_case(&run);
}

static void test_s27(void) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        Run run;

        if (!setup(&run, "S27", NULL))
                return;
        if (sd_bus_open_system(&bus) < 0) {
                tap_ok(0, "S27: connect");
                done_case(&run);
                return;
        }
        TAP_INTEQ(run_one(bus, &run, 10 * SEC, SEC), 0, "S27: first call (job 5) waited for");
        TAP_STREQ(transient_outcome_to_string(run.res.outcome), "done", "S27: first call (job 5) done");
        TAP_INTEQ(run_one(bus, &run, 10 * SEC, SEC), 0, "S27: second call (job 5 again) waited for");
        TAP_STREQ(transient_outcome_to_string(run.res.outcome), "failed",
                  "S27: second call (job 5 again) failed: each wait matches only its own reply");
        done_case(&run);
}

static volatile sig_atomic_t got_int, got_chld;
static void on_int(int sig) {
        got_int++;
}
static void on_chld(int sig) {
        got_chld++;
}

/* A child interrupts the wait with SIGINT twice, then exits (SIGCHLD). */
static pid_t interrupter(void) {
        pid_t parent = getpid(), pid = fork();
        if (pid == 0) {
                usleep(200 * 1000);
                kill(parent, SIGINT);
                usleep(200 * 1000);
                kill(parent, SIGINT);
                _exit(0);
        }
        return pid;
}

static void test_s28(void) {
        struct sigaction sa = { .sa_handler = on_int }, sc = { .sa_handler = on_chld }, o1, o2;
        Run run;
        pid_t child;

        sigemptyset(&sa.sa_mask);
        sigemptyset(&sc.sa_mask);
        sigaction(SIGINT, &sa, &o1);  /* no SA_RESTART: the poll returns EINTR */
        sigaction(SIGCHLD, &sc, &o2);

        /* the interrupter starts once the fake is up (under valgrind that takes seconds): its signals must
         * arrive during the wait */
        got_int = got_chld = 0;
        child = setup(&run, "S28", NULL) ? interrupter() : -1;
        if (child > 0 && run_started(&run, "S28", 5 * SEC, SEC)) {
                expect(&run, "S28 signals during the wait", TRANSIENT_DONE);
                TAP_INTEQ(got_int, 2, "S28: SIGINT twice during the wait");
                tap_ok(got_chld >= 1, "S28: SIGCHLD x%d arrived during the wait", (int) got_chld);
                done_case(&run);
        }
        if (child > 0)
                waitpid(child, NULL, 0);

        got_int = got_chld = 0;
        child = setup(&run, "S28:never", NULL) ? interrupter() : -1;
        if (child > 0 && run_started(&run, "S28:never", SEC, SEC)) {
                expect(&run, "S28 signals, no JobRemoved", TRANSIENT_TIMEOUT);
                tap_ok(run.elapsed >= SEC, "S28: EINTR did not end the wait early (%.3f s)",
                       run.elapsed / 1e6);
                within(&run, "S28 deadline respected", 2 * SEC);
                done_case(&run);
        }
        if (child > 0)
                waitpid(child, NULL, 0);
        sigaction(SIGINT, &o1, NULL);
        sigaction(SIGCHLD, &o2, NULL);
}

/* SIGINT with a cancel flag, as bootrace probe installs it: the wait ends, the unit is cleaned up. */
static volatile sig_atomic_t cancel_flag;
static void on_cancel(int sig) {
        cancel_flag = 1;
}

static void test_cancel(void) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        struct sigaction sa = { .sa_handler = on_cancel }, old;
        Run run;
        pid_t child;

        if (!setup(&run, "S6", NULL))
                return;
        if (sd_bus_open_system(&bus) < 0) {
                done_case(&run);
                return;
        }
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old);
        cancel_flag = 0;
        child = interrupter();
        TransientRequest req = { .name = UNIT, .props = &props, .budget = 10 * SEC, .cleanup_budget = SEC,
                                 .cancel = &cancel_flag, .unref = true };
        uint64_t t0 = now_usec();
        TAP_INTEQ(transient_run(bus, &req, &run.res), 0, "interrupt: the run returns");
        TAP_STREQ(transient_outcome_to_string(run.res.outcome), "interrupted",
                  "interrupt: SIGINT with a cancel flag ends the wait");
        tap_ok(now_usec() - t0 < 5 * SEC, "interrupt: well before the 10 s deadline");
        tap_ok(fake_log_has(&run.fb, "CALL StopUnit " UNIT), "interrupt: the unit is stopped");
        waitpid(child, NULL, 0);
        sigaction(SIGINT, &old, NULL);
        done_case(&run);
}

/* TEST_ONLY=S27 runs just the cases whose name starts with that (for debugging). */
static bool want(const char *name) {
        const char *o = getenv("TEST_ONLY");
        return !o || startswith(name, o);
}

int main(void) {
        if (access("/usr/bin/dbus-daemon", X_OK) < 0 && access("/bin/dbus-daemon", X_OK) < 0) {
                printf("1..0 # SKIP dbus-daemon not installed\n");
                return 77;
        }
        signal(SIGPIPE, SIG_IGN);
        props_init();

        if (want("S1"))
                test_simple("S1", "S1 reply, then JobRemoved");
        if (want("S2"))
                test_simple("S2", "S2 JobRemoved before the reply");
        if (want("S3"))
                test_s3();
        if (want("S4"))
                test_s4();
        if (want("S5"))
                test_s5();
        if (want("S6"))
                test_s6();
        if (want("S7"))
                test_s7();
        if (want("S8"))
                test_s8();
        if (want("S9"))
                test_s9();
        if (want("S10:active"))
                test_s10("S10:active");
        if (want("S10:activating"))
                test_s10("S10:activating");
        if (want("S10:job"))
                test_s10("S10:job");
        if (want("S11"))
                test_s11();
        if (want("S12"))
                test_s12();
        if (want("S13"))
                test_s13();
        if (want("S14"))
                test_s14();
        if (want("S15"))
                test_s15();
        if (want("S16"))
                test_s16();
        if (want("S17"))
                test_s17();
        if (want("S18"))
                test_fast_unknown("S18", "S18 manager leaves after replying", TRANSIENT_MANAGER_GONE,
                                  TRANSIENT_MANAGER_GONE);
        if (want("S19"))
                test_fast_unknown("S19", "S19 manager leaves before replying", TRANSIENT_MANAGER_GONE,
                                  TRANSIENT_TIMEOUT);
        if (want("S20"))
                test_s20();
        if (want("S21:kill"))
                test_fast_unknown("S21:kill", "S21 bus daemon killed", TRANSIENT_BUS_LOST,
                                  TRANSIENT_BUS_LOST);
        if (want("S21:term"))
                test_fast_unknown("S21:term", "S21 bus daemon terminated", TRANSIENT_BUS_LOST,
                                  TRANSIENT_MANAGER_GONE);
        if (want("S22"))
                test_s22();
        if (want("S23"))
                test_s23();
        if (want("S24"))
                test_s24();
        if (want("S25:noreply"))
                test_s25("S25:noreply");
        if (want("S25:nofinish"))
                test_s25("S25:nofinish");
        if (want("S26"))
                test_s26();
        if (want("S27"))
                test_s27();
        if (want("S28"))
                test_s28();
        if (want("interrupt"))
                test_cancel();

        transient_props_done(&props);
        return tap_done();
}
