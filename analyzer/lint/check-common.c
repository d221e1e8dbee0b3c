/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "lint/check-common.h"

bool path_startswith_dir(const char *path, const char *dir) {
        const char *t = startswith(path, dir);
        return t && (*t == 0 || *t == '/');
}

int check_evidence_after_edges(const LintContext *c, Finding *f, const ModelUnit *u) {
        const Graph *g = model_graph(c->model);
        bool any = false;

        for (int dir = 0; dir < 2; dir++) {
                EdgeSet e = dir == 0 ? graph_out(g, u->node) : graph_in(g, u->node);
                for (size_t i = 0; i < e.n; i++) {
                        uint32_t id = edge_set_get(&e, i);
                        const GraphEdge *ed = graph_edge(g, id);
                        _cleanup_(freep) char *d = NULL;

                        if (ed->type != (dir == 0 ? DEP_AFTER : DEP_BEFORE))
                                continue;
                        d = lint_describe_edge(c, id);
                        if (!d || finding_add_evidence(f, "  has: %s", d) < 0)
                                return -ENOMEM;
                        any = true;
                }
        }
        if (!any && finding_add_evidence(f, "  has: no ordering after any unit") < 0)
                return -ENOMEM;
        return 0;
}

int check_evidence_tmpfiles(const LintContext *c, Finding *f, const char *path) {
        const TmpfilesEntry *e = c->tmpfiles ? tmpfiles_find_creator(c->tmpfiles, path) : NULL;

        if (!e)
                return 0;
        return finding_add_evidence(f, "created at boot by systemd-tmpfiles-setup.service (%s:%u: %s %s)", e->file,
                                    e->line, e->type, e->path) < 0 ? -ENOMEM : 0;
}

int check_root_writable(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, char **paths,
                        const Setting *why, const char *consequence) {
        _cleanup_(freep) char *joined = NULL;
        const char *file = why ? u->unit->sources[why->source].path : u->unit->fragment_path;
        ModelUnit *rm = model_get(c->model, "systemd-remount-fs.service");
        const char *dd = lint_value(u, "Unit", "DefaultDependencies", NULL);
        Finding *f;
        size_t len = 0;
        int r;

        r = lint_ordered_after(c, u, "systemd-remount-fs.service", NULL, NULL);
        if (r != 0)
                return r < 0 ? r : 0;
        if (!rm || !rm->loaded) {
                (void) diag_add(c->diags, DIAG_NOTICE, file, why ? why->line : 0,
                                "%s: cannot judge %s: systemd-remount-fs.service is unknown for systemd %u",
                                u->unit->id, id, c->version);
                return 0;
        }
        STRV_FOREACH(p, paths)
                len += strlen(*p) + 2;
        joined = calloc(len + 1, 1);
        if (!joined)
                return -ENOMEM;
        STRV_FOREACH(p, paths) {
                if (p != paths)
                        strcat(joined, ", ");
                strcat(joined, *p);
        }

        f = lint_finding(c, out, id, u, file, why ? why->line : 0,
                         "%s=%s needs %s writable, but for systemd %u nothing orders %s after "
                         "systemd-remount-fs.service",
                         why ? why->key : "?", why ? why->value : "?", joined, c->version, u->unit->id);
        if (!f)
                return -ENOMEM;
        if (finding_add_evidence(f, "needs writable: %s (%s=%s at %s:%u)", joined, why ? why->key : "?",
                                 why ? why->value : "?", strna(file), why ? why->line : 0) < 0)
                return -ENOMEM;
        STRV_FOREACH(p, paths)
                if ((r = check_evidence_tmpfiles(c, f, *p)) < 0)
                        return r;
        if (finding_add_evidence(f, "on the root file system (-.mount): / is read-only until "
                                    "systemd-remount-fs.service has run; -.mount itself is active from the start") <
                    0 ||
            (dd && lint_bool(dd) == 0 &&
             finding_add_evidence(f, "DefaultDependencies=no: not ordered after sysinit.target, which would "
                                     "order it after local-fs.target") < 0) ||
            finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                return -ENOMEM;
        r = check_evidence_after_edges(c, f, u);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "missing: %s After=systemd-remount-fs.service (directly, or through "
                                    "local-fs.target or systemd-tmpfiles-setup.service)",
                                 u->unit->id) < 0 ||
            finding_add_evidence(f, "consequence: %s", consequence) < 0)
                return -ENOMEM;
        f->fix = strdup("[Unit]\nAfter=systemd-remount-fs.service");
        return f->fix ? 0 : -ENOMEM;
}
