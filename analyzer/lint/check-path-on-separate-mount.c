/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path-on-separate-mount: a path the unit writes to is on a mount of its own that the unit is not ordered
 * after. ReadWritePaths= never gets an implicit mount dependency. */

#include "lint/check-common.h"

int check_path_on_separate_mount(const LintContext *c, ModelUnit *u, FindingList *out) {
        _cleanup_(lint_paths_done) LintPaths paths = {};
        int r;

        r = lint_unit_paths(u, c->rules, model_features(c->model), &paths);
        if (r < 0)
                return r;
        for (size_t i = 0; i < paths.n; i++) {
                const LintPath *p = &paths.items[i];
                const char *file = p->setting ? u->unit->sources[p->setting->source].path : u->unit->fragment_path;
                _cleanup_(freep) char *mount = lint_mount_for_path(c, p->path);
                Finding *f;

                if (!mount)
                        return -ENOMEM;
                if (streq(mount, "-.mount") || path_startswith_dir(p->path, "/run"))
                        continue;
                r = lint_ordered_after(c, u, mount, NULL, NULL);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                f = lint_finding(c, out, "path-on-separate-mount", u, file, p->setting ? p->setting->line : 0,
                                 "%s is on %s, but %s is not ordered after it", p->path, mount, u->unit->id);
                if (!f)
                        return -ENOMEM;
                if (finding_add_evidence(f, "needs: %s (%s=%s)", p->path, p->setting ? p->setting->key : "?",
                                         p->setting ? p->setting->value : "?") < 0 ||
                    finding_add_evidence(f, "mounted by: %s", mount) < 0 ||
                    finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                        return -ENOMEM;
                r = check_evidence_after_edges(c, f, u);
                if (r < 0)
                        return r;
                if (finding_add_evidence(f, "missing: %s After=%s (RequiresMountsFor=%s adds it)", u->unit->id,
                                         mount, p->path) < 0 ||
                    asprintf_safe(&f->fix, "[Unit]\nRequiresMountsFor=%s", p->path) < 0)
                        return -ENOMEM;
        }
        return 0;
}
