/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* exec-write-removed-by-tmpfiles: PID 1 creates a path the unit keeps while it runs (PrivateTmp='s private
 * directories), the boot's tmpfiles.d removes it (Debian's D /tmp, upstream's R! /tmp/systemd-private-*), and
 * the unit is not ordered after systemd-tmpfiles-setup.service. It judges the writes whose check= names it
 * (the lasting ones). */

#include "lint/check-common.h"
#include "lint/exec-writes.h"

#define ID "exec-write-removed-by-tmpfiles"

static int judge(const LintContext *c, ModelUnit *u, const ExecWriteAt *w, FindingList *out) {
        const FeatureSet *fs = model_features(c->model);
        const char *file = w->setting ? u->unit->sources[w->setting->source].path : u->unit->fragment_path;
        _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
        const TmpfilesEntry *ignored, *e;
        _cleanup_(freep) char *why = NULL;
        ModelUnit *ts;
        Finding *f;
        int r;

        r = lint_exec_write_ready(c, w, &rd);
        if (r < 0)
                return r;
        e = rd.removed_by;
        ignored = rd.ignored_exclusion;
        if (!e)
                return 0;
        ts = model_get(c->model, "systemd-tmpfiles-setup.service");
        if (!ts || !ts->loaded)
                return 0;
        r = lint_ordered_after(c, u, "systemd-tmpfiles-setup.service", NULL, NULL);
        if (r != 0)
                return r < 0 ? r : 0;
        why = lint_exec_write_why(u, w);
        if (!why)
                return -ENOMEM;
        f = lint_finding(c, out, ID, u, file, w->setting ? w->setting->line : 0,
                         "for systemd %u, %s creates %s for %s, and systemd-tmpfiles-setup.service removes it at "
                         "boot (%s %s), but nothing orders %s after that service",
                         c->version, w->write->pid1 ? "PID 1" : "the child", w->path, w->write->setting, e->type,
                         e->path, u->unit->id);
        if (!f)
                return -ENOMEM;
        if (finding_add_evidence(f, "writes: %s (%s, %s, kept while the unit runs; %s) [%s]", w->path,
                                 w->write->pid1 ? "PID 1" : "child", exec_write_op_to_string(w->write->op), why,
                                 w->write->source) < 0 ||
            finding_add_evidence(f, "removed at boot by systemd-tmpfiles-setup.service (--remove --boot): %s:%u: "
                                    "%s %s",
                                 e->file, e->line, e->type, e->path) < 0)
                return -ENOMEM;
        if (ignored) {
                /* the first version whose D and R honour x, for the message (features.xml) */
                unsigned since = feature_set_since(fs, FEATURE_TMPFILES_HONOURS_EXCLUSIONS);
                if (since > 0 ? finding_add_evidence(f, "not protected by %s:%u: %s %s: up to systemd %u D and R "
                                                        "remove with rm_rf(), which ignores x (dir_cleanup() from "
                                                        "%u honours it: tmpfiles-honours-exclusions)",
                                                     ignored->file, ignored->line, ignored->type, ignored->path,
                                                     since - 1, since) < 0
                              : finding_add_evidence(f, "not protected by %s:%u: %s %s: D and R remove with rm_rf(), "
                                                        "which ignores x",
                                                     ignored->file, ignored->line, ignored->type, ignored->path) < 0)
                        return -ENOMEM;
        }
        if (finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                return -ENOMEM;
        r = check_evidence_after_edges(c, f, u);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "missing: %s After=systemd-tmpfiles-setup.service (systemd adds it to "
                                    "PrivateTmp= units from 233, d71f050599)",
                                 u->unit->id) < 0 ||
            finding_add_evidence(f, "consequence: when systemd-tmpfiles-setup.service runs, what the unit keeps in "
                                    "%s is deleted under it while it runs",
                                 w->path) < 0)
                return -ENOMEM;
        f->fix = strdup("[Unit]\nAfter=systemd-tmpfiles-setup.service");
        return f->fix ? 0 : -ENOMEM;
}

int check_exec_write_removed_by_tmpfiles(const LintContext *c, ModelUnit *u, FindingList *out) {
        return lint_exec_writes_judge(c, u, ID, judge, out);
}
