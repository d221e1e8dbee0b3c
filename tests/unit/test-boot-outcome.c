/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per boot and unit classification, cycles, race evidence and the journal critical chain, from synthetic events. */

#include "journal/boot-outcome.h"
#include "journal/chain.h"
#include "journal/race-evidence.h"
#include "tap.h"

static BootAnalysis *a;

static void ev(size_t boot, JournalEventType type, JournalOrigin origin, const char *unit, const char *result,
               uint64_t usec) {
        JournalEvent e = {
                .type = type,
                .origin = origin,
                .unit = unit ? strdup(unit) : NULL,
                .result = result ? strdup(result) : NULL,
                .usec = usec,
        };
        if (boot_analysis_add_event(a, boot, &e) < 0)
                abort();
}

static void ev_full(size_t boot, JournalEvent *e) {
        if (boot_analysis_add_event(a, boot, e) < 0)
                abort();
}

static const UnitBoot *ub(const char *unit, size_t boot) {
        int u = boot_analysis_find_unit(a, unit);
        return u < 0 ? NULL : &a->units[u].boots[boot];
}

static void expect(const char *unit, size_t boot, Outcome o, const char *result, const char *name) {
        const UnitBoot *x = ub(unit, boot);
        Outcome got = x ? x->outcome : OUTCOME_UNKNOWN;
        bool ok = got == o && streq_ptr(x ? x->result : NULL, result);
        tap_ok(ok, "%s", name);
        if (!ok)
                tap_diag("got %s (%s), want %s (%s)", outcome_to_string(got), strna(x ? x->result : NULL),
                         outcome_to_string(o), strna(result));
}

static void test_classify(void) {
        char *ids[] = { (char *) "b1", (char *) "b2", (char *) "b3" };
        BootAnalysisOptions o = { .output_signatures = (char *[]) { (char *) "Read-only file system", NULL } };
        const JournalOrigin S = JOURNAL_ORIGIN_STRUCTURED, K = JOURNAL_ORIGIN_KERNEL, T = JOURNAL_ORIGIN_TEXT;

        tap_ok(boot_analysis_new(ids, 3, &a) == 0, "analysis for 3 boots");

        /* boot 1: v252 structured failure after a start; a success; a condition skip */
        ev(0, JOURNAL_EVENT_JOB_START, S, "fail.service", NULL, 100);
        ev(0, JOURNAL_EVENT_PROCESS_EXIT, S, "fail.service", NULL, 150);
        ev(0, JOURNAL_EVENT_UNIT_FAILED, S, "fail.service", "exit-code", 160);
        ev(0, JOURNAL_EVENT_JOB_FAILED, S, "fail.service", "failed", 161);
        ev(0, JOURNAL_EVENT_JOB_START, S, "ok.service", NULL, 100);
        ev(0, JOURNAL_EVENT_UNIT_SUCCESS, S, "ok.service", NULL, 200);
        ev(0, JOURNAL_EVENT_JOB_DONE, S, "ok.service", NULL, 201);
        ev(0, JOURNAL_EVENT_CONDITION_SKIP, S, "cond.service", NULL, 90);
        /* shutdown: stop records, then a failure while stopping, which does not count */
        ev(0, JOURNAL_EVENT_STOP, S, "ok.service", NULL, 900);
        ev(0, JOURNAL_EVENT_UNIT_FAILED, S, "ok.service", "timeout", 950);
        /* the remount, for race evidence */
        ev(0, JOURNAL_EVENT_JOB_START, S, "systemd-remount-fs.service", NULL, 150);
        ev(0, JOURNAL_EVENT_JOB_DONE, S, "systemd-remount-fs.service", NULL, 400);
        ev(0, JOURNAL_EVENT_JOB_DONE, S, "var-lib.mount", NULL, 80);

        /* boot 2: v229-era text: 'start' task failed, then result resources; a job deleted by a cycle;
         * a dependency failure; kernel text for fail.service with a description-only start */
        ev(1, JOURNAL_EVENT_SPAWN_FAILED, T, "fail.service", "resources", 100);
        ev(1, JOURNAL_EVENT_UNIT_FAILED, T, "fail.service", "resources", 101);
        {
                JournalEvent e = { .type = JOURNAL_EVENT_CYCLE_FOUND, .origin = T, .unit = strdup("x.service"),
                                   .cycle_unit = strdup("x.service"), .job_unit = strdup("local-fs.target"),
                                   .message = strdup("x.service: Found ordering cycle on local-fs.target/start"),
                                   .usec = 50 };
                ev_full(1, &e);
                JournalEvent d = { .type = JOURNAL_EVENT_CYCLE_DEPENDENCY, .origin = T, .cycle_unit = strdup("x.service"),
                                   .job_unit = strdup("ok.service"), .usec = 51,
                                   .message = strdup("x.service: Found dependency on ok.service/start") };
                ev_full(1, &d);
                JournalEvent del = { .type = JOURNAL_EVENT_CYCLE_DELETED, .origin = T, .cycle_unit = strdup("x.service"),
                                     .job_unit = strdup("ok.service"), .job_type = strdup("start"), .usec = 52,
                                     .message = strdup("x.service: Job ok.service/start deleted to break ordering "
                                                       "cycle starting with x.service/start") };
                ev_full(1, &del);
                /* a second cycle from the same start unit in the same boot */
                JournalEvent e2 = { .type = JOURNAL_EVENT_CYCLE_FOUND, .origin = T, .cycle_unit = strdup("x.service"),
                                    .job_unit = strdup("y.service"), .usec = 53,
                                    .message = strdup("x.service: Found ordering cycle on y.service/start") };
                ev_full(1, &e2);
                JournalEvent del2 = { .type = JOURNAL_EVENT_CYCLE_DELETED, .origin = T, .cycle_unit = strdup("x.service"),
                                      .job_unit = strdup("y.service"), .job_type = strdup("start"), .usec = 54 };
                ev_full(1, &del2);
        }
        ev(1, JOURNAL_EVENT_JOB_FAILED, S, "cond.service", "dependency", 300);

        /* boot 3: kernel-only text: "Starting Foo..." without a unit (resolved through boot 1's description),
         * output-only failure, output that is not a failure signature, an ExecCondition skip */
        {
                JournalEvent e = { .type = JOURNAL_EVENT_JOB_START, .origin = S, .unit = strdup("desc.service"),
                                   .description = strdup("Described Service"), .usec = 10 };
                ev_full(0, &e);
                JournalEvent k = { .type = JOURNAL_EVENT_JOB_START, .origin = K,
                                   .description = strdup("Described Service"), .usec = 10 };
                ev_full(2, &k);
                JournalEvent out = { .type = JOURNAL_EVENT_UNIT_OUTPUT, .origin = JOURNAL_ORIGIN_OUTPUT,
                                     .unit = strdup("quiet.service"), .error = strdup("Read-only file system"),
                                     .message = strdup("cannot create /var/lib/quiet/stamp: Read-only file system"),
                                     .usec = 30 };
                ev_full(2, &out);
                JournalEvent out2 = { .type = JOURNAL_EVENT_UNIT_OUTPUT, .origin = JOURNAL_ORIGIN_OUTPUT,
                                      .unit = strdup("chatty.service"), .error = strdup("No such file or directory"),
                                      .usec = 31 };
                ev_full(2, &out2);
        }
        ev(2, JOURNAL_EVENT_UNIT_FAILED, K, "desc.service", "exit-code", 20);
        ev(2, JOURNAL_EVENT_JOB_DONE, S, "var-lib.mount", NULL, 45);
        ev(2, JOURNAL_EVENT_JOB_DONE, S, "var.mount", NULL, 44);
        ev(2, JOURNAL_EVENT_EXEC_CONDITION, S, "ok.service", "exec-condition", 40);
        /* the initrd starts and stops a unit, the real root starts it again */
        ev(2, JOURNAL_EVENT_JOB_START, K, "twice.service", NULL, 1);
        ev(2, JOURNAL_EVENT_JOB_DONE, K, "twice.service", NULL, 2);
        ev(2, JOURNAL_EVENT_STOP, K, "twice.service", NULL, 3);
        ev(2, JOURNAL_EVENT_JOB_DONE, K, "twice.target", NULL, 4);
        ev(2, JOURNAL_EVENT_STOP, K, "twice.target", NULL, 5);
        ev(2, JOURNAL_EVENT_JOB_START, K, "twice.service", NULL, 50);
        ev(2, JOURNAL_EVENT_JOB_DONE, K, "twice.service", NULL, 60);
        ev(2, JOURNAL_EVENT_JOB_DONE, K, "twice.target", NULL, 70);
        /* Restart=: a failed run, a restart PID 1 schedules itself, a good run (bt-restart-ok.service); and
         * good runs until the start limit fails it (bt-limit.service) */
        ev(2, JOURNAL_EVENT_JOB_START, S, "again.service", NULL, 100);
        ev(2, JOURNAL_EVENT_PROCESS_EXIT, S, "again.service", NULL, 110);
        ev(2, JOURNAL_EVENT_UNIT_FAILED, S, "again.service", "exit-code", 111);
        ev(2, JOURNAL_EVENT_JOB_FAILED, S, "again.service", "failed", 112);
        ev(2, JOURNAL_EVENT_RESTART, S, "again.service", NULL, 120);
        ev(2, JOURNAL_EVENT_JOB_START, S, "again.service", NULL, 130);
        ev(2, JOURNAL_EVENT_UNIT_SUCCESS, S, "again.service", NULL, 140);
        ev(2, JOURNAL_EVENT_JOB_DONE, S, "again.service", NULL, 141);
        for (uint64_t t = 100; t < 400; t += 100) {
                ev(2, JOURNAL_EVENT_JOB_DONE, S, "limit.service", NULL, t);
                ev(2, JOURNAL_EVENT_UNIT_SUCCESS, S, "limit.service", NULL, t + 10);
                ev(2, JOURNAL_EVENT_RESTART, S, "limit.service", NULL, t + 20);
        }
        ev(2, JOURNAL_EVENT_UNIT_FAILED, S, "limit.service", "start-limit-hit", 400);
        ev(2, JOURNAL_EVENT_JOB_FAILED, S, "limit.service", "failed", 401);

        tap_ok(boot_analysis_finish(a, &o) == 0, "finish");

        expect("fail.service", 0, OUTCOME_FAILED, "exit-code", "structured failure: failed (exit-code)");
        expect("ok.service", 0, OUTCOME_SUCCEEDED, NULL, "success; a failure while stopping does not count");
        expect("cond.service", 0, OUTCOME_SKIPPED, "condition", "condition skip");
        expect("fail.service", 1, OUTCOME_FAILED, "resources", "old text: failed (resources)");
        tap_ok(ub("fail.service", 1)->evidence == EVIDENCE_BIT(JOURNAL_ORIGIN_TEXT), "evidence: text only");
        expect("ok.service", 1, OUTCOME_NOT_RUN, RESULT_CYCLE_DELETED, "job deleted by a cycle: not run");
        tap_ok(ub("ok.service", 1)->in_cycle && ub("ok.service", 1)->deleted, "marked in a cycle and deleted");
        tap_ok(ub("x.service", 1)->in_cycle && ub("x.service", 1)->outcome == OUTCOME_UNKNOWN,
               "the cycle's start unit is in the cycle, its outcome unknown");
        expect("cond.service", 1, OUTCOME_NOT_RUN, "dependency", "dependency failed: not run");
        expect("desc.service", 2, OUTCOME_FAILED, "exit-code", "description-only start resolved; failed");
        tap_ok(ub("desc.service", 2)->start_usec == 10, "its start time comes from the description-only record");
        expect("quiet.service", 2, OUTCOME_FAILED, RESULT_OUTPUT_SIGNATURE,
               "output with a failure signature and no manager record: failed (inferred)");
        expect("chatty.service", 2, OUTCOME_UNKNOWN, NULL, "output without a signature: unknown, not clean");
        tap_ok(ub("chatty.service", 2)->output_seen, "but it is known to have run");
        expect("ok.service", 2, OUTCOME_SKIPPED, "exec-condition", "ExecCondition skip");
        expect("fail.service", 2, OUTCOME_UNKNOWN, NULL, "no record in a boot: unknown");
        expect("again.service", 2, OUTCOME_SUCCEEDED, NULL, "failed, restarted by PID 1, succeeded: the last run counts");
        tap_ok(ub("again.service", 2)->restarts == 1 && ub("again.service", 2)->start_usec == 130,
               "one restart; timed from the last start");
        expect("limit.service", 2, OUTCOME_FAILED, "start-limit-hit", "restarted until the start limit: failed");
        tap_ok(ub("twice.service", 2)->start_usec == 50 && ub("twice.service", 2)->active_usec == 60,
               "started again after a stop: the later activation is timed");
        tap_ok(ub("twice.target", 2)->active_usec == 70 && ub("twice.target", 2)->outcome == OUTCOME_SUCCEEDED,
               "a target reached again after a stop: the later time");
        tap_ok(!ub("quiet.service", 0) || ub("quiet.service", 0)->outcome == OUTCOME_UNKNOWN,
               "a unit first seen in a later boot is unknown in the earlier ones");

        TAP_INTEQ(a->boots[1].n_cycles, 2, "two cycles in boot 2");
        TAP_STREQ(a->boots[1].cycles[0].start, "x.service", "cycle start");
        TAP_STREQ(a->boots[1].cycles[0].deleted ? a->boots[1].cycles[0].deleted[0] : NULL, "ok.service/start",
                  "first cycle's deleted job");
        TAP_INTEQ(strv_length(a->boots[1].cycles[0].lines), 3, "first cycle's lines");
        TAP_STREQ(a->boots[1].cycles[1].deleted ? a->boots[1].cycles[1].deleted[0] : NULL, "y.service/start",
                  "second cycle's deleted job");
}

static void test_race_and_chain(void) {
        const char * const anchors[] = { "systemd-remount-fs.service", "local-fs.target", NULL };
        RaceEvidence e = {};
        ChainJournalSource js = { .analysis = a, .boot = 0 };
        ChainSource src;
        Chain c = {};
        int u = boot_analysis_find_unit(a, "fail.service");

        tap_ok(race_evidence_build(a, (size_t) u, 0, anchors, &e) == 0, "race evidence builds");
        tap_ok(e.start_usec == 100 && e.end_usec == 160 && streq_ptr(e.start_kind, "started"), "start and end");
        tap_ok(e.n_marks == 2 && e.marks[0].has_delta && e.marks[0].delta_usec == 300,
               "remount-fs finished 300 usec after the start");
        tap_ok(e.n_marks == 2 && !e.marks[1].usec && streq(e.marks[1].what, "no record"), "local-fs.target: no record");
        tap_ok(e.summary && strstr(e.summary, "before systemd-remount-fs.service finished"), "summary: %s",
               strna(e.summary));
        race_evidence_done(&e);

        u = boot_analysis_find_unit(a, "quiet.service");
        tap_ok(race_evidence_build(a, (size_t) u, 2, anchors, &e) == 0 && streq_ptr(e.start_kind, "first record"),
               "inferred failure: timed from its first record");
        tap_ok(e.n_marks == 3 && streq(e.marks[2].unit, "var-lib.mount") && e.marks[2].delta_usec == 15,
               "the mount holding the failing path (the longest prefix), 15 usec after its first record");
        race_evidence_done(&e);

        char **paths = NULL;
        tap_ok(race_paths_in_text("mkdir: cannot create directory \xe2\x80\x98/var/lib/x\xe2\x80\x99: Read-only file system",
                                  &paths) == 0 && strv_length(paths) == 1 && streq(paths[0], "/var/lib/x"),
               "path in a quoted message");
        strv_free(paths);

        chain_source_journal(&js, &src);
        tap_ok(chain_build(&src, "ok.service", &c) == 0, "chain of ok.service");
        tap_ok(c.n == 2 && streq(c.links[1].unit, "var-lib.mount") && c.links[1].inferred,
               "it waited for what became active last before its start (inferred)");
        chain_done(&c);
        tap_ok(chain_build(&src, "nothing.service", &c) == -ENOENT, "no times: -ENOENT");
}

static void test_mount_path(void) {
        char *p;
        TAP_STREQ(p = mount_unit_to_path("var-lib.mount"), "/var/lib", "var-lib.mount");
        free(p);
        TAP_STREQ(p = mount_unit_to_path("-.mount"), "/", "-.mount");
        free(p);
        TAP_STREQ(p = mount_unit_to_path("run-credentials-systemd\\x2dsysctl.service.mount"),
                  "/run/credentials/systemd-sysctl.service", "\\x2d unescaped");
        free(p);
        tap_ok(!mount_unit_to_path("foo.service"), "not a mount");
}

int main(void) {
        test_classify();
        test_race_and_chain();
        test_mount_path();
        boot_analysis_free(a);
        return tap_done();
}
