/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The exec-time write model: rules/exec-writes.xml and target-tmpfiles.xml load, each write's failure per version,
 * the target's tmpfiles.d lines, and what the boot's tmpfiles.d removes: D above the path, R/R! globs, x/X
 * exclusions honoured only when the version does (256, b1935cc943; the lab's boots in fixtures/exec-writes show
 * 247 and 252 removing an x-excluded file that 257 and 262 keep). */

#include "lint/exec-writes.h"
#include "rules/rules.h"
#include "tap.h"

static const ExecWrite *find(const Rules *r, const char *id) {
        for (size_t i = 0; i < rules_exec_write_count(r); i++)
                if (streq(rules_exec_write_get(r, i)->id, id))
                        return rules_exec_write_get(r, i);
        return NULL;
}

/* The write called id, which the checks below read: a missing one bails out. */
static const ExecWrite *need(const Rules *r, const char *id) {
        const ExecWrite *w = find(r, id);

        if (!w)
                tap_bail("rules/exec-writes.xml has no write %s", id);
        return w;
}

static void test_rules(const Rules *r) {
        const ExecWrite *pt = need(r, "private-tmp-dir"), *pd = need(r, "private-devices-tmp"),
                        *pr = need(r, "private-devices-run"), *bs = need(r, "bind-paths-source"),
                        *bm = need(r, "bind-paths-mount-point");
        const ExecWriteFailure *f;

        tap_ok(pt->pid1, "private-tmp-dir: made by PID 1");
        tap_ok(pt->lasting, "private-tmp-dir: kept");
        TAP_STREQ(pt->under, "/tmp", "private-tmp-dir: under /tmp");
        tap_ok(exec_write_judged_by(pt, "private-tmp-before-remount"), "private-tmp-dir: judged by private-tmp-before-remount");
        tap_ok(exec_write_judged_by(pt, "exec-write-removed-by-tmpfiles"),
               "private-tmp-dir: judged by exec-write-removed-by-tmpfiles");
        tap_ok(!exec_write_judged_by(pt, "exec-write-before-writable"),
               "private-tmp-dir: not by exec-write-before-writable (check= names two)");
        tap_ok(bs->op == EXEC_WRITE_NONE, "bind-paths-source: writes nothing");
        tap_ok(!bs->in_root, "bind-paths-source: the source on the host");
        TAP_STREQ(bs->path, "{src}", "bind-paths-source: the source's path");
        tap_ok(exec_write_judged_by(bs, "exec-write-before-writable"), "bind-paths-source: judged");
        tap_ok(exec_write_applies(bs, 233), "bind-paths-source: needed from 233 (BindPaths=)");
        tap_ok(!exec_write_applies(bs, 232), "bind-paths-source: not before");
        tap_ok(bm->in_root, "bind-paths-mount-point: below RootDirectory=");
        tap_ok(bm->missing, "bind-paths-mount-point: made when missing");
        f = exec_write_failure(pt, 229);
        TAP_CONTAINS(f ? f->text : NULL, "resources", "229: result 'resources'");
        f = exec_write_failure(pt, 246);
        TAP_CONTAINS(f ? f->text : NULL, "read-only directory", "246: an empty read-only directory");
        tap_ok(exec_write_applies(pd, 254), "/tmp/namespace-dev up to 254");
        tap_ok(!exec_write_applies(pd, 255), "/tmp/namespace-dev not from 255");
        tap_ok(!exec_write_applies(pr, 254), "/run/systemd/namespace not up to 254");
        tap_ok(exec_write_applies(pr, 255), "/run/systemd/namespace from 255");
}

static void test_target_tmpfiles(const Rules *r) {
        const TargetTmpfiles *t;
        FeatureSet fs;

        t = rules_target_tmpfiles(r, "ubuntu-xenial", 229);
        tap_ok(t && t->target, "xenial: its own lines");
        tap_ok(t && strv_contains(t->lines, "D /tmp 1777 root root -"), "xenial: D /tmp");
        t = rules_target_tmpfiles(r, "debian-trixie", 257);
        tap_ok(t && !strv_contains(t->lines, "D /tmp 1777 root root -"), "trixie: upstream's q");
        t = rules_target_tmpfiles(r, NULL, 229);
        tap_ok(t && !t->target, "upstream 229: upstream's lines");
        tap_ok(t && !strv_contains(t->lines, "R! /tmp/systemd-private-*"), "upstream 229: no R!");
        t = rules_target_tmpfiles(r, "rhel-7", 233);
        tap_ok(t && !t->target, "an unlisted target: upstream's lines of the version");
        tap_ok(t && strv_contains(t->lines, "R! /tmp/systemd-private-*"), "an unlisted target: 233's R!");
        t = rules_target_tmpfiles(r, "debian-bookworm", 252);
        tap_ok(t && t->line_numbers, "bookworm: each line knows its line of target-tmpfiles.xml");
        tap_ok(t && t->line_numbers && t->line_numbers[0] > t->line, "the first line after the element's");
        tap_ok(t && t->line_numbers && t->line_numbers[1] == t->line_numbers[0] + 1, "the second line next");
        TAP_INTEQ(rules_feature_set(r, 255, &fs), 0, "the features of 255");
        tap_ok(!feature_enabled(&fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS), "255: x not honoured");
        TAP_INTEQ(feature_set_since(&fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS), 256, "x honoured from 256");
        TAP_INTEQ(rules_feature_set(r, 256, &fs), 0, "the features of 256");
        tap_ok(feature_enabled(&fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS), "256: x honoured");
}

static void test_removes(void) {
        _cleanup_(tmpfiles_list_done) TmpfilesList deb = {}, up = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        const char *priv = "/tmp/systemd-private-%b-foo.service-XXXXXX";
        const TmpfilesEntry *e, *ign;

        TAP_INTEQ(tmpfiles_parse("D /tmp 1777 root root -\nx /tmp/systemd-private-%b-*\n"
                                 "X /tmp/systemd-private-%b-*/tmp\nx /tmp/keep\n",
                                 "deb", &deb, &diags),
                  0, "parse Debian's lines");
        TAP_INTEQ(tmpfiles_parse("q /tmp 1777 root root 10d\nx /tmp/systemd-private-%b-*\n"
                                 "R! /tmp/systemd-private-*\n",
                                 "up", &up, &diags),
                  0, "parse upstream's lines");
        e = lint_tmpfiles_removes(&deb, priv, false, &ign);
        tap_ok(e && e->type[0] == 'D', "252: D /tmp removes the private dir");
        TAP_INTEQ(ign ? ign->line : 0, 2, "252: the x line ignored is line 2");
        tap_ok(!lint_tmpfiles_removes(&deb, priv, true, NULL), "257: the x line keeps it");
        tap_ok(!!lint_tmpfiles_removes(&deb, "/tmp/racy-tmpwipe-remount/stamp", true, NULL),
               "D removes what no x line excludes, on every version");
        tap_ok(!lint_tmpfiles_removes(&deb, "/tmp", false, NULL), "D empties /tmp, it does not remove it");
        tap_ok(!lint_tmpfiles_removes(&deb, "/tmp/keep/a", true, NULL), "x covers what is below it");
        tap_ok(!lint_tmpfiles_removes(&deb, "/var/tmp/x", false, NULL), "nothing removes /var/tmp on Debian");
        e = lint_tmpfiles_removes(&up, priv, false, NULL);
        TAP_STREQ(e ? e->type : NULL, "R!", "up to 255 upstream's R! removes the current boot's private dir too");
        tap_ok(!lint_tmpfiles_removes(&up, priv, true, NULL), "from 256 the x line keeps it");
        tap_ok(!lint_tmpfiles_removes(&up, "/tmp/other", false, NULL), "q removes nothing at boot");
}

/* Up to 259 no write asks about other units; from 260 private-tmp-dir asks whether tmp.mount is loaded and ordered
 * before, which model_finish() and later loads can change. */
static void test_settled(const Rules *r) {
        tap_ok(lint_exec_writes_settled(r, 229), "229: the writes are settled once a unit is loaded");
        tap_ok(lint_exec_writes_settled(r, 257), "257: settled");
        tap_ok(lint_exec_writes_settled(r, 259), "259: settled");
        tap_ok(!lint_exec_writes_settled(r, 260), "260: not settled (loaded=tmp.mount, after=tmp.mount)");
        tap_ok(!lint_exec_writes_settled(r, 262), "262: not settled");
}

int main(void) {
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};

        if (rules_load(getenv("BOOTRACE_RULES_DIR"), &r, &diags) < 0) {
                diag_list_print(&diags, stdout, DIAG_ERROR);
                tap_bail("cannot load the rules");
        }
        test_rules(r);
        test_target_tmpfiles(r);
        test_removes();
        test_settled(r);
        return tap_done();
}
