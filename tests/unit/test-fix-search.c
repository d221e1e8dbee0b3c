/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lint_run() and fix_search() as library calls, with the real rules: the LP#1750780 unit on 229 gets
 * After=systemd-remount-fs.service, judged better than the coarser candidates for stated reasons; the same unit
 * on 237 needs nothing; a unit ordered before the remount gets the ordering dropped, or with a drop-in loses its
 * PrivateTmp=; lint_run() counts the unit as enabled and finds the cycle; fix_attach() fills fix_details. */

#include <sys/stat.h>

#include "fix/fix-search.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-fix-search.XXXXXX";
static Rules *rules;

static char *write_unit(const char *name, const char *text) {
        char *p = strjoin(tmpdir, "/", name);
        FILE *f;

        if (!p)
                tap_bail("out of memory");
        f = fopen(p, "we");
        if (!f)
                tap_bail("cannot create %s: %m", p);
        if (fputs(text, f) < 0 || fclose(f) != 0)
                tap_bail("cannot write %s: %m", p);
        return p;
}

static const FixCandidate *find(const FixResult *r, const char *label) {
        for (size_t i = 0; r && i < r->n_candidates; i++)
                if (streq(r->candidates[i].label, label))
                        return &r->candidates[i];
        return NULL;
}

/* The baseline of names at v and the search for unit in it; either failing bails out. */
static FixResult *search(unsigned v, char **names, const char *unit, const char *file, bool dropin) {
        char *extra[] = { tmpdir, NULL };
        _cleanup_(diag_list_done) DiagList diags = {};
        FixTarget t = { .version = v };
        LintRun *run = NULL;
        FixResult *res = NULL;
        int k;

        LintRunOptions o = { .extra_dirs = extra, .version = v, .names = names };
        k = lint_run(&o, rules, &run, &diags);
        if (k < 0)
                tap_bail("lint_run(%s) at %u: %s", unit, v, strerror(-k));
        LintRun *baselines[] = { run };
        FixRequest req = { .extra_dirs = extra, .names = names, .targets = &t, .n_targets = 1, .baselines = baselines };
        k = fix_search(&req, rules, unit, file, dropin, NULL, &res, &diags);
        if (k < 0)
                tap_bail("fix_search(%s) at %u: %s", unit, v, strerror(-k));
        lint_run_free(run);
        return res;
}

static char *ovt, *early;
static char *names[] = { (char *) "open-vm-tools.service", NULL }, *names2[] = { (char *) "early.service", NULL };

static void remove_tmpdir(void) {
        char cmd[128];

        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        (void) system(cmd);
}

static void setup(void) {
        _cleanup_(diag_list_done) DiagList diags = {};

        if (!mkdtemp(tmpdir))
                tap_bail("mkdtemp: %m");
        (void) atexit(remove_tmpdir); /* a bail-out too */
        if (rules_load(NULL, &rules, &diags) < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                tap_bail("cannot load the rules");
        }
        ovt = write_unit("open-vm-tools.service", "[Unit]\nDescription=x\nDefaultDependencies=no\n"
                                                  "Before=cloud-init-local.service\n\n[Service]\n"
                                                  "ExecStart=/usr/bin/vmtoolsd\nPrivateTmp=yes\n\n[Install]\n"
                                                  "WantedBy=multi-user.target\n");
        early = write_unit("early.service", "[Unit]\nDefaultDependencies=no\nBefore=systemd-remount-fs.service\n"
                                            "[Service]\nType=oneshot\nExecStart=/bin/true\nPrivateTmp=yes\n"
                                            "[Install]\nWantedBy=multi-user.target\n");
}

static void teardown(void) {
        ovt = mfree(ovt);
        early = mfree(early);
        rules_free(rules);
}

/* lint_run: the unit is linted, enabled by its [Install], and its race found */
static void test_lint_run(void) {
        _cleanup_(diag_list_done) DiagList diags = {};
        char *extra[] = { tmpdir, NULL };
        LintRunOptions o = { .extra_dirs = extra, .version = 229, .names = names };
        LintRun *run = NULL;
        int k;

        k = lint_run(&o, rules, &run, &diags);
        TAP_INTEQ(k, 0, "lint_run() on 229");
        if (k < 0 || !run)
                tap_bail("lint_run() on 229: %s", strerror(-k));
        TAP_INTEQ(run->n_units, 1, "one unit linted");
        tap_ok(run->transaction != NULL, "the unit is in a boot transaction (enabled by its [Install])");
        TAP_INTEQ(run->findings.n, 1, "one finding");
        if (run->findings.n == 1)
                TAP_STREQ(run->findings.items[0].check, "private-tmp-before-remount", "its race is the finding");
        tap_ok(!run->input_error, "no input error");
        tap_ok(!run->load_errors, "no load errors");
        /* fix_attach fills the finding's fix and fix_details */
        TAP_INTEQ(fix_attach(&o, rules, run, &diags), 0, "fix_attach()");
        if (run->findings.n == 1) {
                tap_ok(run->findings.items[0].fix_details != NULL, "fix_attach() sets fix_details");
                TAP_STREQ(run->findings.items[0].fix_details ? run->findings.items[0].fix_details->candidate : NULL,
                          "After=systemd-remount-fs.service", "fix_details names the candidate");
                TAP_STREQ(run->findings.items[0].fix, "[Unit]\nAfter=systemd-remount-fs.service",
                          "and fix as drop-in text");
        }
        lint_run_free(run);
}

static void test_229(void) {
        FixResult *r = search(229, names, "open-vm-tools.service", ovt, false);
        const FixCandidate *c;

        tap_ok(r->chosen, "229: a repair is chosen");
        TAP_STREQ(r->chosen ? r->candidates[0].label : NULL, "After=systemd-remount-fs.service",
                  "229: After=systemd-remount-fs.service");
        TAP_INTEQ(r->n_findings ? r->findings[0].version : 0, 229, "the finding is kept with its version");

        /* systemd 229's own install has tmp.mount (rules/base-229.xml: units/tmp.mount, linked into
         * local-fs.target.wants/): PrivateTmp= orders the unit after it, so /tmp is no path on the read-only root
         * and RequiresMountsFor= names /var/tmp alone */
        tap_ok(find(r, "RequiresMountsFor=/tmp /var/tmp") == NULL, "/tmp, on tmp.mount, is no candidate path");
        c = find(r, "RequiresMountsFor=/var/tmp");
        tap_ok(c != NULL, "RequiresMountsFor=/var/tmp is a candidate");
        if (c) {
                tap_ok(c->evaluated, "RequiresMountsFor=: evaluated");
                tap_ok(!c->closes, "RequiresMountsFor=/var/tmp does not close it");
                tap_ok(c->reason && strstr(c->reason, "-.mount"), "RequiresMountsFor=: only After=-.mount (%s)",
                       strna(c->reason));
        }
        c = find(r, "After=local-fs.target");
        tap_ok(c != NULL, "After=local-fs.target is a candidate");
        if (c) {
                tap_ok(c->closes, "After=local-fs.target closes it");
                tap_ok(!c->new_cycle, "After=local-fs.target: no new cycle");
                tap_ok(c->reason && strstr(c->reason, "less precise"), "After=local-fs.target is less precise (%s)",
                       strna(c->reason));
                tap_ok(c->n_waits > r->candidates[0].n_waits, "it waits for more units (%zu > %zu)", c->n_waits,
                       r->candidates[0].n_waits);
        }
        c = find(r, "drop PrivateTmp=yes (line 8)");
        tap_ok(c != NULL, "dropping PrivateTmp=yes is a candidate");
        if (c) {
                tap_ok(c->closes, "removing PrivateTmp= closes it");
                tap_ok(c->sandbox, "removing PrivateTmp= weakens the sandbox");
                tap_ok(c->note != NULL, "removing PrivateTmp=: a note");
                tap_ok(c->reason != NULL, "removing PrivateTmp=: rejected with a reason");
        }
        tap_ok(r->chosen && strstr(r->candidates[0].text, "Before=cloud-init-local.service\n"
                                                           "After=systemd-remount-fs.service\n"),
               "the line goes after the last dependency line");
        fix_result_free(r);
}

static void test_237(void) {
        FixResult *r = search(237, names, "open-vm-tools.service", ovt, false);

        TAP_INTEQ(r->n_findings, 0, "237: nothing to repair");
        TAP_INTEQ(r->n_candidates, 0, "237: no candidates");
        fix_result_free(r);
}

static void test_cycle(void) {
        FixResult *r;
        const FixCandidate *c;

        r = search(252, names2, "early.service", early, false);
        TAP_STREQ(r->chosen ? r->candidates[0].label : NULL, "drop Before=systemd-remount-fs.service (line 3)",
                  "252: the cycle's ordering written in the file is dropped");
        tap_ok(r->chosen && !strstr(r->candidates[0].text, "Before="), "and is gone from the text");
        fix_result_free(r);

        r = search(229, names2, "early.service", early, false);
        TAP_STREQ(r->chosen ? r->candidates[0].label : NULL,
                  "After=systemd-remount-fs.service + drop Before=systemd-remount-fs.service (line 3)",
                  "229: After= alone closes a cycle, so the Before= goes too");
        c = find(r, "After=systemd-remount-fs.service");
        tap_ok(c != NULL, "After= alone is a candidate");
        tap_ok(c && c->new_cycle, "After= alone: a new cycle");
        tap_ok(c && c->reason && strstr(c->reason, "ordering cycle"), "After= alone: the reason says ordering cycle");
        fix_result_free(r);
}

static void test_dropin(void) {
        FixResult *r = search(252, names2, "early.service", early, true);
        const FixCandidate *c;

        TAP_STREQ(r->chosen ? r->candidates[0].label : NULL, "PrivateTmp=no",
                  "252 as a drop-in: PrivateTmp=no, the only repair a drop-in can make");
        tap_ok(r->dropin, "the repair is a drop-in");
        tap_ok(!r->file_exists, "a new drop-in");
        tap_ok(r->chosen && strstr(r->candidates[0].text, "[Service]\nPrivateTmp=no\n"),
               "with [Service] PrivateTmp=no");
        c = find(r, "drop Before=systemd-remount-fs.service (line 3)");
        tap_ok(c != NULL, "dropping Before= is a candidate");
        tap_ok(c && !c->evaluated, "dropping Before= cannot be a drop-in");
        tap_ok(c && c->reason && strstr(c->reason, "does not reset"), "and it says why");
        fix_result_free(r);
}

int main(void) {
        setup();
        test_lint_run();
        test_229();
        test_237();
        test_cycle();
        test_dropin();
        teardown();
        return tap_done();
}
