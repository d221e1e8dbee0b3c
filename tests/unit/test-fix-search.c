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
        FILE *f = p ? fopen(p, "we") : NULL;
        if (f) {
                fputs(text, f);
                fclose(f);
        }
        return p;
}

static const FixCandidate *find(const FixResult *r, const char *label) {
        for (size_t i = 0; r && i < r->n_candidates; i++)
                if (streq(r->candidates[i].label, label))
                        return &r->candidates[i];
        return NULL;
}

/* The baseline of names at v and the search for unit in it. */
static FixResult *search(unsigned v, char **names, const char *unit, const char *file, bool dropin,
                         LintRun **ret_run) {
        char *extra[] = { tmpdir, NULL };
        _cleanup_(diag_list_done) DiagList diags = {};
        FixTarget t = { .version = v };
        LintRun *run = NULL;
        FixResult *res = NULL;

        LintRunOptions o = { .extra_dirs = extra, .version = v, .names = names };
        if (lint_run(&o, rules, &run, &diags) < 0)
                return NULL;
        LintRun *baselines[] = { run };
        FixRequest req = { .extra_dirs = extra, .names = names, .targets = &t, .n_targets = 1, .baselines = baselines };
        if (fix_search(&req, rules, unit, file, dropin, NULL, &res, &diags) < 0)
                res = NULL;
        if (ret_run)
                *ret_run = run;
        else
                lint_run_free(run);
        return res;
}

int main(void) {
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *ovt = NULL, *early = NULL;
        char *names[] = { (char *) "open-vm-tools.service", NULL }, *names2[] = { (char *) "early.service", NULL };
        FixResult *r;
        LintRun *run = NULL;
        const FixCandidate *c;

        if (!mkdtemp(tmpdir) || rules_load(NULL, &rules, &diags) < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                return 1;
        }
        ovt = write_unit("open-vm-tools.service", "[Unit]\nDescription=x\nDefaultDependencies=no\n"
                                                  "Before=cloud-init-local.service\n\n[Service]\n"
                                                  "ExecStart=/usr/bin/vmtoolsd\nPrivateTmp=yes\n\n[Install]\n"
                                                  "WantedBy=multi-user.target\n");
        early = write_unit("early.service", "[Unit]\nDefaultDependencies=no\nBefore=systemd-remount-fs.service\n"
                                            "[Service]\nType=oneshot\nExecStart=/bin/true\nPrivateTmp=yes\n"
                                            "[Install]\nWantedBy=multi-user.target\n");

        /* lint_run: the unit is linted, enabled by its [Install], and its race found */
        {
                char *extra[] = { tmpdir, NULL };
                LintRunOptions o = { .extra_dirs = extra, .version = 229, .names = names };
                tap_ok(lint_run(&o, rules, &run, &diags) >= 0 && run, "lint_run() on 229");
                TAP_INTEQ(run ? run->n_units : 0, 1, "one unit linted");
                tap_ok(run && run->transaction && run->findings.n == 1 &&
                               streq(run->findings.items[0].check, "private-tmp-before-remount"),
                       "its race is the one finding");
                tap_ok(run && !run->input_error && !run->load_errors, "no input error");
                /* fix_attach fills the finding's fix and fix_details */
                tap_ok(run && fix_attach(&o, rules, run, &diags) >= 0 && run->findings.items[0].fix_details &&
                               streq_ptr(run->findings.items[0].fix_details->candidate,
                                         "After=systemd-remount-fs.service"),
                       "fix_attach() sets fix_details");
                TAP_STREQ(run ? run->findings.items[0].fix : NULL, "[Unit]\nAfter=systemd-remount-fs.service",
                          "and fix as drop-in text");
                run = lint_run_free(run);
        }

        r = search(229, names, "open-vm-tools.service", ovt, false, NULL);
        tap_ok(r && r->chosen, "229: a repair is chosen");
        TAP_STREQ(r && r->chosen ? r->candidates[0].label : NULL, "After=systemd-remount-fs.service",
                  "229: After=systemd-remount-fs.service");
        TAP_INTEQ(r && r->n_findings ? r->findings[0].version : 0, 229, "the finding is kept with its version");
        c = find(r, "RequiresMountsFor=/tmp /var/tmp");
        tap_ok(c && c->evaluated && !c->closes && c->reason && strstr(c->reason, "-.mount"),
               "RequiresMountsFor=/tmp /var/tmp does not close it (only After=-.mount)");
        c = find(r, "After=local-fs.target");
        tap_ok(c && c->closes && !c->new_cycle && c->reason && strstr(c->reason, "less precise"),
               "After=local-fs.target closes it, but is less precise");
        tap_ok(c && r && c->n_waits > r->candidates[0].n_waits, "it waits for more units (%zu > %zu)",
               c ? c->n_waits : 0, r ? r->candidates[0].n_waits : 0);
        c = find(r, "drop PrivateTmp=yes (line 8)");
        tap_ok(c && c->closes && c->sandbox && c->note && c->reason, "removing PrivateTmp= closes it, rejected");
        tap_ok(r && r->chosen && strstr(r->candidates[0].text, "Before=cloud-init-local.service\n"
                                                                 "After=systemd-remount-fs.service\n"),
               "the line goes after the last dependency line");
        fix_result_free(r);

        r = search(237, names, "open-vm-tools.service", ovt, false, NULL);
        tap_ok(r && r->n_findings == 0 && r->n_candidates == 0, "237: nothing to repair");
        fix_result_free(r);

        r = search(252, names2, "early.service", early, false, NULL);
        TAP_STREQ(r && r->chosen ? r->candidates[0].label : NULL, "drop Before=systemd-remount-fs.service (line 3)",
                  "252: the cycle's ordering written in the file is dropped");
        tap_ok(r && r->chosen && !strstr(r->candidates[0].text, "Before="), "and is gone from the text");
        fix_result_free(r);

        r = search(229, names2, "early.service", early, false, NULL);
        TAP_STREQ(r && r->chosen ? r->candidates[0].label : NULL,
                  "After=systemd-remount-fs.service + drop Before=systemd-remount-fs.service (line 3)",
                  "229: After= alone closes a cycle, so the Before= goes too");
        c = find(r, "After=systemd-remount-fs.service");
        tap_ok(c && c->new_cycle && c->reason && strstr(c->reason, "ordering cycle"), "After= alone: a new cycle");
        fix_result_free(r);

        r = search(252, names2, "early.service", early, true, NULL);
        TAP_STREQ(r && r->chosen ? r->candidates[0].label : NULL, "PrivateTmp=no",
                  "252 as a drop-in: PrivateTmp=no, the only repair a drop-in can make");
        tap_ok(r && r->dropin && !r->file_exists && r->chosen && strstr(r->candidates[0].text, "[Service]\n"
                                                                                              "PrivateTmp=no\n"),
               "a new drop-in with [Service] PrivateTmp=no");
        c = find(r, "drop Before=systemd-remount-fs.service (line 3)");
        tap_ok(c && !c->evaluated && c->reason && strstr(c->reason, "does not reset"),
               "dropping Before= cannot be a drop-in, and it says why");
        fix_result_free(r);

        rules_free(rules);
        {
                char cmd[128];
                snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
                if (system(cmd) != 0)
                        return 1;
        }
        return tap_done();
}
