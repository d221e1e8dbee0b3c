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

static void test_rules(const Rules *r) {
        const ExecWrite *pt = find(r, "private-tmp-dir"), *pd = find(r, "private-devices-tmp"),
                        *pr = find(r, "private-devices-run"), *bs = find(r, "bind-paths-source"),
                        *bm = find(r, "bind-paths-mount-point");
        const ExecWriteFailure *f;
        const TargetTmpfiles *t;

        tap_ok(pt && pt->pid1 && pt->lasting && streq(pt->under, "/tmp"), "private-tmp-dir: PID 1, kept, under /tmp");
        tap_ok(pt && exec_write_judged_by(pt, "private-tmp-before-remount") &&
                       exec_write_judged_by(pt, "exec-write-removed-by-tmpfiles") &&
                       !exec_write_judged_by(pt, "exec-write-before-writable"),
               "private-tmp-dir: check= names two checks, each judges it");
        tap_ok(bs && bs->op == EXEC_WRITE_NONE && !bs->in_root && streq(bs->path, "{src}") &&
                       exec_write_judged_by(bs, "exec-write-before-writable") && exec_write_applies(bs, 233) &&
                       !exec_write_applies(bs, 232),
               "bind-paths-source: the source on the host, needed from 233 (BindPaths=), judged");
        tap_ok(bm && bm->in_root && bm->missing, "bind-paths-mount-point: below RootDirectory=, made when missing");
        f = pt ? exec_write_failure(pt, 229) : NULL;
        tap_ok(f && strstr(f->text, "resources"), "229: result 'resources'");
        f = pt ? exec_write_failure(pt, 246) : NULL;
        tap_ok(f && strstr(f->text, "read-only directory"), "246: an empty read-only directory");
        tap_ok(pd && exec_write_applies(pd, 254) && !exec_write_applies(pd, 255), "/tmp/namespace-dev up to 254");
        tap_ok(pr && !exec_write_applies(pr, 254) && exec_write_applies(pr, 255), "/run/systemd/namespace from 255");
        t = rules_target_tmpfiles(r, "ubuntu-xenial", 229);
        tap_ok(t && t->target && strv_contains(t->lines, "D /tmp 1777 root root -"), "xenial: D /tmp");
        t = rules_target_tmpfiles(r, "debian-trixie", 257);
        tap_ok(t && !strv_contains(t->lines, "D /tmp 1777 root root -"), "trixie: upstream's q");
        t = rules_target_tmpfiles(r, NULL, 229);
        tap_ok(t && !t->target && !strv_contains(t->lines, "R! /tmp/systemd-private-*"), "upstream 229: no R!");
        t = rules_target_tmpfiles(r, "rhel-7", 233);
        tap_ok(t && !t->target && strv_contains(t->lines, "R! /tmp/systemd-private-*"),
               "an unlisted target: upstream's lines of the version (233: R!)");
        t = rules_target_tmpfiles(r, "debian-bookworm", 252);
        tap_ok(t && t->line_numbers && t->line_numbers[0] > t->line && t->line_numbers[1] == t->line_numbers[0] + 1,
               "each line knows its line of target-tmpfiles.xml");
        FeatureSet fs;
        TAP_INTEQ(rules_feature_set(r, 255, &fs), 0, "the features of 255");
        tap_ok(!feature_enabled(&fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS) &&
                       feature_set_since(&fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS) == 256,
               "255: x not honoured; honoured from 256");
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
        tap_ok(e && e->type[0] == 'D' && ign && ign->line == 2, "252: D /tmp removes the private dir, x ignored");
        tap_ok(!lint_tmpfiles_removes(&deb, priv, true, NULL), "257: the x line keeps it");
        tap_ok(!!lint_tmpfiles_removes(&deb, "/tmp/racy-tmpwipe-remount/stamp", true, NULL),
               "D removes what no x line excludes, on every version");
        tap_ok(!lint_tmpfiles_removes(&deb, "/tmp", false, NULL), "D empties /tmp, it does not remove it");
        tap_ok(!lint_tmpfiles_removes(&deb, "/tmp/keep/a", true, NULL), "x covers what is below it");
        tap_ok(!lint_tmpfiles_removes(&deb, "/var/tmp/x", false, NULL), "nothing removes /var/tmp on Debian");
        e = lint_tmpfiles_removes(&up, priv, false, NULL);
        tap_ok(e && streq(e->type, "R!"), "up to 255 upstream's R! removes the current boot's private dir too");
        tap_ok(!lint_tmpfiles_removes(&up, priv, true, NULL), "from 256 the x line keeps it");
        tap_ok(!lint_tmpfiles_removes(&up, "/tmp/other", false, NULL), "q removes nothing at boot");
}

int main(void) {
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};

        TAP_INTEQ(rules_load(getenv("BOOTRACE_RULES_DIR"), &r, &diags), 0, "rules load");
        if (r)
                test_rules(r);
        test_removes();
        return tap_done();
}
