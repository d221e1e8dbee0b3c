/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* exec-write-before-writable: a path PID 1 or the child writes before exec (rules/exec-writes.xml) is on a file
 * system the unit is not ordered after making writable: the root before systemd-remount-fs.service, or a mount
 * of its own. A path it only needs (op="none": a bind source) needs its mount, never the remount. */

#include "lint/check-common.h"
#include "lint/exec-writes.h"

#define ID "exec-write-before-writable"

/* The unit that makes under writable for this write (its readiness in the model), or NULL when nothing needs
 * judging. */
static int needed_unit(const LintContext *c, const ExecWriteAt *w, char **ret) {
        _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
        int r;

        *ret = NULL;
        r = lint_exec_write_ready(c, w, &rd);
        if (r < 0 || !rd.mount)
                return r;
        if (!streq(rd.mount, "-.mount")) {
                /* below a mount that is not there yet a missing path is missing for certain */
                *ret = TAKE_PTR(rd.mount);
                return 0;
        }
        /* what is only read (a bind source) is there on the root file system from the first instant */
        if (w->write->op == EXEC_WRITE_NONE)
                return 0;
        /* on the root file system a mount point is made only when it is missing: the root given must show it */
        if (w->write->missing && (!c->root || root_entry_type(c->root, w->path) >= 0))
                return 0;
        *ret = strdup("systemd-remount-fs.service");
        return *ret ? 0 : -ENOMEM;
}

static int judge(const LintContext *c, ModelUnit *u, const ExecWriteAt *w, FindingList *out) {
        _cleanup_(freep) char *need = NULL, *why = NULL;
        const ExecWriteFailure *fails = exec_write_failure(w->write, c->version);
        const char *file = w->setting ? u->unit->sources[w->setting->source].path : u->unit->fragment_path;
        bool root = false;
        ModelUnit *nu;
        Finding *f;
        int r;

        r = needed_unit(c, w, &need);
        if (r < 0 || !need)
                return r;
        root = streq(need, "systemd-remount-fs.service");
        nu = model_get(c->model, need);
        if (root && (!nu || !nu->loaded))
                return diag_add(c->diags, DIAG_NOTICE, file, w->setting ? w->setting->line : 0,
                                "%s: cannot judge " ID ": systemd-remount-fs.service is unknown for systemd %u",
                                u->unit->id, c->version) < 0 ? -ENOMEM : 0;
        r = lint_ordered_after(c, u, need, NULL, NULL);
        if (r != 0)
                return r < 0 ? r : 0;
        why = lint_exec_write_why(u, w);
        if (!why)
                return -ENOMEM;
        f = lint_finding(c, out, ID, u, file, w->setting ? w->setting->line : 0,
                         "for systemd %u, %s %s %s before exec (%s), but nothing orders %s after %s", c->version,
                         w->write->pid1 ? "PID 1" : "the child",
                         w->write->missing                   ? "creates"
                         : w->write->op == EXEC_WRITE_NONE ? "needs"
                                                             : "writes",
                         w->path,
                         w->write->setting, u->unit->id, need);
        if (!f)
                return -ENOMEM;
        if (finding_add_evidence(f, "writes: %s (%s, %s%s; %s) [%s]", w->path, w->write->pid1 ? "PID 1" : "child",
                                 exec_write_op_to_string(w->write->op), w->write->missing ? " when missing" : "",
                                 why, w->write->source) < 0)
                return -ENOMEM;
        if (root ? finding_add_evidence(f, "%s is on the root file system (-.mount): / is read-only until "
                                           "systemd-remount-fs.service has run",
                                        w->under) < 0
                 : finding_add_evidence(f, "%s is on %s: until it is mounted the path is the directory below the "
                                           "mount point",
                                        w->under, need) < 0)
                return -ENOMEM;
        if (finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                return -ENOMEM;
        r = check_evidence_after_edges(c, f, u);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "missing: %s After=%s", u->unit->id, need) < 0 ||
            (fails && finding_add_evidence(f, "consequence (systemd %u): %s [%s]", c->version, fails->text,
                                           fails->source) < 0))
                return -ENOMEM;
        if (root)
                f->fix = strdup("[Unit]\nAfter=systemd-remount-fs.service");
        else
                (void) asprintf_safe(&f->fix, "[Unit]\nRequiresMountsFor=%s", w->under);
        return f->fix ? 0 : -ENOMEM;
}

int check_exec_write_before_writable(const LintContext *c, ModelUnit *u, FindingList *out) {
        return lint_exec_writes_judge(c, u, ID, judge, out);
}
