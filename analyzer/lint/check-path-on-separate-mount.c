/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path-on-separate-mount: a path the unit writes to or needs (rules/exec-writes.xml: the writes whose check=
 * names this check, per version) is on a mount of its own that the unit is not ordered after.
 * ReadWritePaths= never gets an implicit mount dependency. */

#include "lint/check-common.h"
#include "lint/exec-writes.h"

#define ID "path-on-separate-mount"

int check_path_on_separate_mount(const LintContext *c, ModelUnit *u, FindingList *out) {
        _cleanup_(exec_write_list_done) ExecWriteList scratch = {};
        const ExecWriteList *l;
        _cleanup_(strv_freep) char **judged = NULL;
        int r;

        r = lint_unit_writes(c, u, &scratch, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l->n; i++) {
                const ExecWriteAt *w = &l->items[i];
                const Setting *s = w->setting;
                const char *file = s ? u->unit->sources[s->source].path : u->unit->fragment_path;
                _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
                Finding *f;

                if (!exec_write_judged_by(w->write, ID) || strv_contains(judged, w->under))
                        continue;
                if (strv_extend(&judged, w->under) < 0)
                        return -ENOMEM;
                r = lint_exec_write_ready(c, w, &rd);
                if (r < 0)
                        return r;
                /* ready from the start (/run) or on the root file system: the remount's checks judge that */
                if (!rd.mount || streq(rd.mount, "-.mount"))
                        continue;
                r = lint_ordered_after(c, u, rd.mount, NULL, NULL);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                f = lint_finding(c, out, ID, u, file, s ? s->line : 0,
                                 "%s is on %s, but %s is not ordered after it", w->under, rd.mount,
                                 u->unit->id);
                if (!f)
                        return -ENOMEM;
                if (finding_add_evidence(f, "needs: %s (%s=%s)", w->under, s ? s->key : w->write->setting,
                                         s ? s->value : "") < 0 ||
                    finding_add_evidence(f, "mounted by: %s", rd.mount) < 0 ||
                    finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                        return -ENOMEM;
                r = check_evidence_after_edges(c, f, u);
                if (r < 0)
                        return r;
                if (finding_add_evidence(f, "missing: %s After=%s (RequiresMountsFor=%s adds it)",
                                         u->unit->id, rd.mount, w->under) < 0 ||
                    asprintf_safe(&f->fix, "[Unit]\nRequiresMountsFor=%s", w->under) < 0)
                        return -ENOMEM;
        }
        return 0;
}
