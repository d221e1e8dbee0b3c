/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Record decoding per systemd era, from synthetic field sets (knowledge/journal.md §1–§5). */

#include "journal/journal-events.h"
#include "rules/rules.h"
#include "tap.h"

static JournalDecoder *decoder;

/* Decodes the record given as "NAME=value" strings (NULL-terminated). */
static int decode(JournalEvent *e, const char * const *fields) {
        JournalFields f = {};
        int r;

        for (const char * const *x = fields; *x; x++)
                if (journal_fields_add(&f, *x, strlen(*x)) < 0)
                        return -ENOMEM;
        f.monotonic_usec = 5000000;
        r = journal_event_decode(decoder, &f, e);
        journal_fields_done(&f);
        return r;
}

#define DECODE(e, ...) decode(e, (const char * const[]) { __VA_ARGS__, NULL })

/* One check of e's type (a failure shows both types' names). */
static void expect_type(const JournalEvent *e, JournalEventType type, const char *name) {
        TAP_STREQ(journal_event_type_to_string(e->type), journal_event_type_to_string(type), name);
}

/* e is of type, about unit: a check of each. */
static void expect(const JournalEvent *e, JournalEventType type, const char *unit, const char *name) {
        char what[512];

        snprintf(what, sizeof what, "%s: %s", name, journal_event_type_to_string(type));
        expect_type(e, type, what);
        snprintf(what, sizeof what, "%s: unit %s", name, strna(unit));
        TAP_STREQ(e->unit, unit, what);
}

static void test_structured(void) {
        JournalEvent e;

        DECODE(&e, "_PID=1", "_TRANSPORT=journal", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c", "UNIT=foo.service", "UNIT_RESULT=resources",
               "MESSAGE=foo.service: Failed with result 'resources'.");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "foo.service", "v240+ unit result");
        TAP_STREQ(e.result, "resources", "v240+ UNIT_RESULT is the result");
        tap_ok(e.origin == JOURNAL_ORIGIN_STRUCTURED, "structured origin");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=be02cf6855d2428ba40df7e9d022f03d", "UNIT=foo.service", "RESULT=timeout",
               "MESSAGE=Failed to start Foo.");
        expect(&e, JOURNAL_EVENT_JOB_FAILED, "foo.service", "v234 failed job with RESULT=");
        TAP_STREQ(e.result, "timeout", "v234 RESULT= is the job result");
        TAP_STREQ(e.description, "Foo", "the description is kept for texts without a unit name");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=be02cf6855d2428ba40df7e9d022f03d", "UNIT=foo.service",
               "MESSAGE=Dependency failed for Foo.");
        TAP_STREQ(e.result, "dependency", "v219 failed job: the result comes from the text");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=39f53479d3a045ac8e11786248231fbf", "UNIT=foo.service", "JOB_RESULT=done",
               "MESSAGE=Condition check resulted in Foo being skipped.");
        expect(&e, JOURNAL_EVENT_CONDITION_SKIP, "foo.service", "v240-v251 condition skip");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=39f53479d3a045ac8e11786248231fbf", "UNIT=foo.service", "JOB_RESULT=done",
               "MESSAGE=foo.service - Foo was skipped because of an unmet condition check (ConditionPathExists=/x).");
        expect(&e, JOURNAL_EVENT_CONDITION_SKIP, "foo.service", "v252+ condition skip");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=39f53479d3a045ac8e11786248231fbf", "UNIT=foo.service", "JOB_RESULT=done",
               "MESSAGE=Finished foo.service - Foo.");
        expect(&e, JOURNAL_EVENT_JOB_DONE, "foo.service", "start job done");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15", "UNIT=foo.service", "EXIT_CODE=exited",
               "EXIT_STATUS=226", "MESSAGE=foo.service: Main process exited, code=exited, status=226/NAMESPACE");
        expect(&e, JOURNAL_EVENT_PROCESS_EXIT, "foo.service", "v240+ process exit");
        TAP_STREQ(e.exit_status, "226", "EXIT_STATUS field wins over the text");
        TAP_STREQ(e.exit_code, "exited", "EXIT_CODE");
        journal_event_done(&e);

        DECODE(&e, "_PID=4242", "SYSLOG_IDENTIFIER=systemd-executor", "MESSAGE_ID=641257651c1b4ec9a8624d7a40a9e1e7",
               "UNIT=foo.service", "ERRNO=30",
               "MESSAGE=foo.service: Failed at step NAMESPACE spawning /bin/foo: Read-only file system");
        expect(&e, JOURNAL_EVENT_SPAWN_FAILED, "foo.service", "v255+ executor record, not PID 1");
        TAP_STREQ(e.error, "Read-only file system", "ERRNO=30 decodes to its text");
        TAP_STREQ(e.step, "NAMESPACE", "the step is taken from the text");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=eed00a68ffd84e31882105fd973abdd1", "MESSAGE=Startup finished in 120ms.");
        tap_ok(e.type == JOURNAL_EVENT_STARTUP_FINISHED, "container PID 1 startup finished");
        journal_event_done(&e);

        DECODE(&e, "_PID=2000", "SYSLOG_IDENTIFIER=systemd", "MESSAGE_ID=eed00a68ffd84e31882105fd973abdd1",
               "MESSAGE=Startup finished in 120ms.");
        tap_ok(e.type == JOURNAL_EVENT_NONE, "a user manager's startup finished is not the boot's");
        journal_event_done(&e);

        DECODE(&e, "_PID=2000", "SYSLOG_IDENTIFIER=systemd", "MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c",
               "USER_UNIT=foo.service", "UNIT_RESULT=exit-code", "MESSAGE=foo.service: Failed with result 'exit-code'.");
        tap_ok(e.type == JOURNAL_EVENT_NONE, "user manager records are not system units");
        journal_event_done(&e);
}

static void test_kernel_text(void) {
        JournalEvent e;

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd", "SYSLOG_PID=1",
               "_SOURCE_MONOTONIC_TIMESTAMP=10539473",
               "MESSAGE=racy.service: Failed with result 'exit-code'.");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "racy.service", "kmsg text without MESSAGE_ID or UNIT");
        TAP_STREQ(e.result, "exit-code", "the result is taken from the text");
        tap_ok(e.origin == JOURNAL_ORIGIN_KERNEL, "kernel origin");
        TAP_INTEQ(e.usec, 10539473, "the kernel's own timestamp is used");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=Starting racy.service - Lab racy: writes /var/lib/racy...");
        expect(&e, JOURNAL_EVENT_JOB_START, "racy.service", "v249+ status text names the unit");
        TAP_STREQ(e.description, "Lab racy: writes /var/lib/racy", "and carries the description");
        TAP_INTEQ(e.usec, 5000000, "without a source timestamp the entry's is used");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=racy.service: Main process exited, code=exited, status=2/INVALIDARGUMENT");
        TAP_STREQ(e.exit_status, "2/INVALIDARGUMENT", "exit status with its name");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=Failed to start racy.service - Lab racy.");
        expect(&e, JOURNAL_EVENT_JOB_FAILED, "racy.service", "kmsg failed start job");
        TAP_STREQ(e.result, "failed", "job result failed");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=systemd 252.39-1~deb12u2 running in system mode (+PAM +AUDIT)");
        expect_type(&e, JOURNAL_EVENT_MANAGER_VERSION, "the manager's version");
        TAP_STREQ(e.result, "252.39-1~deb12u2", "the manager's version: the version");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=kernel", "MESSAGE=Linux version 6.1.0-50-amd64 (gcc)");
        expect_type(&e, JOURNAL_EVENT_KERNEL_VERSION, "the kernel");
        TAP_STREQ(e.result, "6.1.0-50-amd64", "the kernel: its version");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=kernel", "MESSAGE=racy.service: Failed with result 'x'.");
        tap_ok(e.type == JOURNAL_EVENT_NONE, "the kernel's own messages are not the manager's");
        journal_event_done(&e);
}

static void test_old_text(void) {
        JournalEvent e;

        DECODE(&e, "_PID=1", "UNIT=open-vm-tools.service", "ERRNO=30",
               "MESSAGE=open-vm-tools.service: Failed to run 'start' task: Read-only file system");
        expect(&e, JOURNAL_EVENT_SPAWN_FAILED, "open-vm-tools.service", "v220-v254 'start' task");
        TAP_STREQ(e.error, "Read-only file system", "its error is the signature");
        TAP_STREQ(e.result, "resources", "it means result resources");
        TAP_STREQ(e.step, "start", "the task");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=open-vm-tools.service failed to run 'start' task: Read-only file system");
        expect(&e, JOURNAL_EVENT_SPAWN_FAILED, "open-vm-tools.service", "<=v219 'start' task, no prefix, no UNIT=");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=foo.service: Failed to spawn 'start' task: Read-only file system");
        expect(&e, JOURNAL_EVENT_SPAWN_FAILED, "foo.service", "v255+ 'start' task");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Unit foo.service entered failed state.");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "foo.service", "<=v219 entered failed state");
        tap_ok(!e.result, "no result in it");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=foo.service", "MESSAGE=foo.service: Unit entered failed state.");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "foo.service", "v220-v234 entered failed state");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=foo.service: Failed with result 'resources'.");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "foo.service", "v220-v239 text result");
        TAP_STREQ(e.result, "resources", "result resources");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Job foo.service/start failed with result 'dependency'.");
        expect(&e, JOURNAL_EVENT_JOB_FAILED, "foo.service", "<=v219 job result");
        TAP_STREQ(e.result, "dependency", "dependency");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=foo.service",
               "MESSAGE=foo.service: Failed to set up mount namespacing: /run/foo: No such file or directory");
        expect(&e, JOURNAL_EVENT_SPAWN_FAILED, "foo.service", "v245+ namespace setup");
        TAP_STREQ(e.step, "NAMESPACE", "step NAMESPACE");
        TAP_STREQ(e.error, "/run/foo: No such file or directory", "the detail");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Starting Foo daemon...");
        expect(&e, JOURNAL_EVENT_JOB_START, NULL, "old status text");
        TAP_STREQ(e.description, "Foo daemon", "old status text: description only");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=foo.service", "MESSAGE=Stopping Foo daemon...");
        expect(&e, JOURNAL_EVENT_STOP, "foo.service", "stop job");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=foo.service", "MESSAGE=foo.service: Deactivated successfully.");
        expect(&e, JOURNAL_EVENT_UNIT_SUCCESS, "foo.service", "deactivated successfully (text)");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Startup finished in 1.2s (kernel) + 3.4s (userspace) = 4.6s.");
        tap_ok(e.type == JOURNAL_EVENT_STARTUP_FINISHED, "old startup finished text");
        journal_event_done(&e);
}

static void test_cycles(void) {
        JournalEvent e;

        DECODE(&e, "_PID=1", "MESSAGE=Found ordering cycle on a.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_FOUND, "<=v219 found ordering cycle");
        TAP_STREQ(e.cycle_unit, "a.service", "<=v219 found ordering cycle: the cycle's unit");
        TAP_STREQ(e.job_unit, "a.service", "<=v219 found ordering cycle: the job's unit");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Found dependency on b.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_DEPENDENCY, "<=v219 found dependency");
        TAP_STREQ(e.job_unit, "b.service", "<=v219 found dependency: the job's unit");
        TAP_STREQ(e.cycle_unit, NULL, "<=v219 found dependency: no cycle unit");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Breaking ordering cycle by deleting job b.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_BREAKING, "<=v234 breaking");
        TAP_STREQ(e.job_unit, "b.service", "<=v234 breaking: the job's unit");
        TAP_STREQ(e.job_type, "start", "<=v234 breaking: the job's type");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Job b.service/start deleted to break ordering cycle starting with a.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_DELETED, "<=v219 deleted job");
        TAP_STREQ(e.job_unit, "b.service", "<=v219 deleted job: the job's unit");
        TAP_STREQ(e.cycle_unit, "a.service", "<=v219 deleted job: the cycle's unit");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=b.service",
               "MESSAGE=b.service: Job b.service/start deleted to break ordering cycle starting with a.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_DELETED, "v220-v234 deleted job");
        TAP_STREQ(e.cycle_unit, "a.service", "v220-v234: the prefix is the deleted unit, the start comes from the text");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "UNIT=systemd-tmpfiles-setup.service", "UNIT=local-fs.target",
               "UNIT=systemd-remount-fs.service", "UNIT=local-fs.target",
               "MESSAGE=systemd-tmpfiles-setup.service: Found ordering cycle on local-fs.target/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_FOUND, "v235-v257 found ordering cycle");
        TAP_STREQ(e.cycle_unit, "systemd-tmpfiles-setup.service", "v235-v257 found ordering cycle: the cycle's unit");
        TAP_STREQ(e.job_unit, "local-fs.target", "v235-v257 found ordering cycle: the job's unit");
        TAP_INTEQ(strv_length(e.units), 3, "every UNIT= value is read, duplicates once");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=f27a3f94406a4783b946a9bc849e9452", "UNIT=x.service",
               "MESSAGE=x.service: Found ordering cycle: x.service/start after y.service/start after z.target/start"
               " - after x.service");
        expect_type(&e, JOURNAL_EVENT_CYCLE_FOUND, "v258 one-line cycle");
        TAP_STREQ(e.cycle_unit, "x.service", "v258 one-line cycle: the cycle's unit");
        TAP_INTEQ(strv_length(e.cycle_jobs), 3, "v258 one-line cycle: three jobs");
        TAP_STREQ(strv_length(e.cycle_jobs) == 3 ? e.cycle_jobs[2] : NULL, "z.target/start",
                  "v258 one-line cycle: the last job");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=5084367542f7472dbc6a94125d5debce", "UNIT=x.service", "DELETED_UNIT=y.service",
               "DELETED_TYPE=start",
               "MESSAGE=x.service: Job y.service/start deleted to break ordering cycle starting with x.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_DELETED, "v258 structured deletion");
        TAP_STREQ(e.job_unit, "y.service", "v258 structured deletion: the job's unit");
        TAP_STREQ(e.job_type, "start", "v258 structured deletion: the job's type");
        TAP_STREQ(e.cycle_unit, "x.service", "v258 structured deletion: the cycle's unit");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=x.service: Unable to break cycle starting with x.service/start");
        expect_type(&e, JOURNAL_EVENT_CYCLE_UNFIXABLE, "unfixable cycle");
        TAP_STREQ(e.cycle_unit, "x.service", "unfixable cycle: the cycle's unit");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=Something odd about an ordering cycle here");
        expect_type(&e, JOURNAL_EVENT_CYCLE_OTHER, "an unrecognised cycle line");
        tap_ok(e.message != NULL, "an unrecognised cycle line is kept");
        journal_event_done(&e);
}

static void test_output_and_binary(void) {
        JournalEvent e;
        JournalFields f = {};
        static const char msg[] = "MESSAGE=foo.service: Failed with result 'exit-code'.\0\xff\xfe";
        static const char binmid[] = "MESSAGE_ID=\x01\x02";

        DECODE(&e, "_PID=42", "_TRANSPORT=stdout", "_SYSTEMD_UNIT=foo.service", "SYSLOG_IDENTIFIER=lab-write",
               "MESSAGE=mkdir: cannot create directory \xe2\x80\x98/var/lib/x\xe2\x80\x99: Read-only file system");
        expect(&e, JOURNAL_EVENT_UNIT_OUTPUT, "foo.service", "a unit's own output");
        TAP_STREQ(e.error, "Read-only file system", "the errno text in it");
        journal_event_done(&e);

        DECODE(&e, "_PID=42", "_TRANSPORT=stdout", "_SYSTEMD_UNIT=init.scope", "MESSAGE=hello");
        tap_ok(e.type == JOURNAL_EVENT_NONE, "init.scope output is not a unit's");
        journal_event_done(&e);

        DECODE(&e, "_PID=25", "_TRANSPORT=driver", "SYSLOG_IDENTIFIER=systemd-journald",
               "MESSAGE=Time spent on flushing to /var/log/journal/x is 2.534ms for 15 entries.");
        tap_ok(e.type == JOURNAL_EVENT_JOURNAL_FLUSHED, "journal flush");
        journal_event_done(&e);

        DECODE(&e, "_PID=25", "_TRANSPORT=driver", "SYSLOG_IDENTIFIER=systemd-journald",
               "MESSAGE_ID=d93fb3c9c24d451a97cea615ce59c00b", "MESSAGE=Journal stopped");
        tap_ok(e.type == JOURNAL_EVENT_JOURNAL_STOPPED, "journal stopped");
        journal_event_done(&e);

        /* binary field data: cut at the NUL, never read past the length */
        journal_fields_add(&f, "_PID=1", 6);
        journal_fields_add(&f, msg, sizeof msg - 1);
        journal_fields_add(&f, binmid, sizeof binmid - 1);
        journal_fields_add(&f, "NOEQUALSIGN", 11);
        TAP_INTEQ(f.n, 3, "a blob without '=' is ignored");
        TAP_INTEQ(journal_event_decode(decoder, &f, &e), 1, "a message with a NUL and binary tail still decodes");
        expect(&e, JOURNAL_EVENT_UNIT_FAILED, "foo.service", "a message with a NUL and binary tail");
        journal_event_done(&e);
        journal_fields_done(&f);

        tap_ok(journal_unit_name_plausible("foo@bar.service", 15), "instance name is plausible");
        tap_ok(!journal_unit_name_plausible("foo bar.service", 15), "a space is not");
        tap_ok(!journal_unit_name_plausible("foo.conf", 8), "an unknown suffix is not");
        tap_ok(!journal_unit_name_plausible("a@b@c.service", 13), "two '@' are not");
        TAP_STREQ(journal_find_errno_text("cannot create x: Read-only file system"), "Read-only file system",
                  "errno text found");
        tap_ok(!journal_find_errno_text("all is well"), "no errno text");
}

/* A sample value for each placeholder: what PID 1 would put there. */
static const char *sample(MessageSlot slot) {
        switch (slot) {
        case MESSAGE_SLOT_IDENT:
                return "foo.service - Foo daemon";
        case MESSAGE_SLOT_UNIT:
        case MESSAGE_SLOT_JOB_UNIT:
        case MESSAGE_SLOT_CYCLE_UNIT:
                return "foo.service";
        case MESSAGE_SLOT_JOB_TYPE:
        case MESSAGE_SLOT_CYCLE_TYPE:
        case MESSAGE_SLOT_STEP:
                return "start";
        case MESSAGE_SLOT_RESULT:
                return "exit-code";
        case MESSAGE_SLOT_EXIT_CODE:
                return "exited";
        case MESSAGE_SLOT_EXIT_STATUS:
                return "1/FAILURE";
        case MESSAGE_SLOT_ERROR:
                return "Read-only file system";
        case MESSAGE_SLOT_JOBS:
                return "foo.service/start after bar.service/start - after foo.service";
        case MESSAGE_SLOT_VERSION:
                return "257.13-1";
        case MESSAGE_SLOT_NUMBER:
                return "3";
        default:
                return "x";
        }
}

/* Every form of messages.xml, filled with sample values and sent the way its writer sends it without a
 * MESSAGE_ID (PID 1's through kmsg), decodes to its own event: no earlier form takes it, and the placeholders
 * land where the event wants them. */
static void test_every_form(const Rules *rules) {
        const MessageText *t;
        size_t n = rules_message_texts(rules, &t);
        unsigned bad = 0;

        for (size_t i = 0; i < n; i++) {
                char msg[1024] = "MESSAGE=";
                JournalEvent e;
                int r;

                if (t[i].unit_scope)
                        strcat(msg, "foo.service: ");
                for (size_t k = 0; k < t[i].n_parts; k++)
                        strncat(msg, t[i].parts[k].slot == MESSAGE_SLOT_LITERAL ? t[i].parts[k].literal
                                                                                 : sample(t[i].parts[k].slot),
                                sizeof msg - strlen(msg) - 1);
                r = t[i].from == MESSAGE_WRITER_JOURNALD ?
                            DECODE(&e, "_PID=25", "_TRANSPORT=driver", "SYSLOG_IDENTIFIER=systemd-journald", msg) :
                    t[i].from == MESSAGE_WRITER_KERNEL ?
                            DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=kernel", msg) :
                            DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd", msg);
                if (r < 0 || !streq_ptr(journal_event_type_to_string(e.type), t[i].event) ||
                    (t[i].result && !streq_ptr(e.result, t[i].result))) {
                        tap_diag("%s:%u: \"%s\" decodes to %s (result %s), not %s", t[i].file, t[i].line, msg + 8,
                                 journal_event_type_to_string(e.type), strna(e.result), t[i].event);
                        bad++;
                } else if (t[i].unit_scope && !streq_ptr(e.unit, "foo.service")) {
                        tap_diag("%s:%u: \"%s\": unit %s", t[i].file, t[i].line, msg + 8, strna(e.unit));
                        bad++;
                }
                journal_event_done(&e);
        }
        tap_ok(n > 0 && bad == 0, "each of the %zu forms of messages.xml decodes to its own event", n);
}

/* The forms of one record per StatusUnitFormat= and the short condition texts of 257.11/258.5/260 */
static void test_status_formats(void) {
        JournalEvent e;

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd", "MESSAGE=Finished bt-ok.service.");
        expect(&e, JOURNAL_EVENT_JOB_DONE, "bt-ok.service", "StatusUnitFormat=name: the name alone");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd", "MESSAGE=Finished BT outcome: succeeds.");
        expect(&e, JOURNAL_EVENT_JOB_DONE, NULL, "StatusUnitFormat=description");
        TAP_STREQ(e.description, "BT outcome: succeeds", "StatusUnitFormat=description: the description alone");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=bt-early-cond.service - BT early: skipped by a condition skipped, unmet condition check "
               "ConditionPathExists=/etc/bt-missing");
        expect(&e, JOURNAL_EVENT_CONDITION_SKIP, "bt-early-cond.service", "257.11+ short condition text, combined");
        journal_event_done(&e);

        DECODE(&e, "_TRANSPORT=kernel", "SYSLOG_IDENTIFIER=systemd",
               "MESSAGE=bt-early-cond.service skipped, unmet condition check ConditionPathExists=/etc/bt-missing");
        expect(&e, JOURNAL_EVENT_CONDITION_SKIP, "bt-early-cond.service", "the same with the name alone");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE_ID=39f53479d3a045ac8e11786248231fbf", "UNIT=bt-cond.service", "JOB_RESULT=done",
               "MESSAGE=BT outcome: skipped by a condition skipped, unmet condition check ConditionPathExists=/x");
        expect(&e, JOURNAL_EVENT_CONDITION_SKIP, "bt-cond.service", "structured, description alone");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=foo.service: Succeeded.");
        expect(&e, JOURNAL_EVENT_UNIT_SUCCESS, "foo.service", "v240-v247 \"Succeeded.\"");
        journal_event_done(&e);

        DECODE(&e, "_PID=1", "MESSAGE=foo.service: main process exited, code=killed, status=9/KILL");
        expect_type(&e, JOURNAL_EVENT_PROCESS_EXIT, "v219 lower-case main process exit");
        TAP_STREQ(e.exit_code, "killed", "v219 lower-case main process exit: the code");
        TAP_STREQ(e.exit_status, "9/KILL", "v219 lower-case main process exit: the status");
        journal_event_done(&e);

        DECODE(&e, "_PID=25", "_TRANSPORT=driver", "SYSLOG_IDENTIFIER=systemd-journald",
               "MESSAGE_ID=ec387f577b844b8fa948f33cad9a75e6", "JOURNAL_NAME=Runtime Journal",
               "MESSAGE=Runtime Journal (/run/log/journal/x) is 1M, max 9M, 8M free.");
        tap_ok(e.type == JOURNAL_EVENT_NONE, "the runtime journal's usage is no flush");
        journal_event_done(&e);

        DECODE(&e, "_PID=25", "_TRANSPORT=driver", "SYSLOG_IDENTIFIER=systemd-journald",
               "MESSAGE_ID=ec387f577b844b8fa948f33cad9a75e6", "JOURNAL_NAME=System journal",
               "MESSAGE=System journal (/var/log/journal/x) is 8M, max 4G, 4G free.");
        tap_ok(e.type == JOURNAL_EVENT_JOURNAL_FLUSHED, "v229-v242 system journal usage is the flush");
        journal_event_done(&e);
}

int main(void) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};

        if (rules_load(NULL, &rules, &diags) < 0 || journal_decoder_new(rules, &decoder) < 0) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                printf("Bail out! cannot load the rules in %s\n", rules_default_dir());
                return 1;
        }
        test_structured();
        test_kernel_text();
        test_old_text();
        test_cycles();
        test_output_and_binary();
        test_every_form(rules);
        test_status_formats();
        decoder = journal_decoder_free(decoder);
        return tap_done();
}
