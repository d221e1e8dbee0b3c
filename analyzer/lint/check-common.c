/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "lint/check-common.h"
#include "lint/exec-writes.h"

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

/* The assignment lint_unit_paths() names for path, when a normalisation implies the write's own setting
 * (DynamicUser= implies PrivateTmp=). */
static int implied_by(const LintContext *c, const ModelUnit *u, char **paths, const Setting **ret) {
        _cleanup_(lint_paths_done) LintPaths lp = {};
        int r;

        r = lint_unit_paths(u, c->rules, model_features(c->model), &lp);
        if (r < 0)
                return r;
        for (size_t i = 0; i < lp.n; i++)
                if (lp.items[i].setting && strv_contains(paths, lp.items[i].path)) {
                        *ret = lp.items[i].setting;
                        break;
                }
        return 0;
}

int check_root_writes(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, const char *intro) {
        _cleanup_(exec_write_list_done) ExecWriteList l = {};
        _cleanup_(strv_freep) char **on_root = NULL;
        _cleanup_(freep) char *consequence = NULL;
        const ExecWriteFailure *fails = NULL;
        const Setting *why = NULL;
        int r;

        r = lint_exec_writes(c, u, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l.n; i++) {
                _cleanup_(freep) char *mount = NULL;
                /* /run is a tmpfs mounted before PID 1 starts anything: always writable */
                if (!exec_write_judged_by(l.items[i].write, id) || path_startswith_dir(l.items[i].under, "/run"))
                        continue;
                mount = lint_mount_for_path(c, l.items[i].under);
                if (!mount)
                        return -ENOMEM;
                if (!streq(mount, "-.mount") || strv_contains(on_root, l.items[i].under))
                        continue;
                if (strv_extend(&on_root, l.items[i].under) < 0)
                        return -ENOMEM;
                why = why ?: l.items[i].setting;
                fails = fails ?: exec_write_failure(l.items[i].write, c->version);
        }
        if (!on_root)
                return 0;
        if (!why && (r = implied_by(c, u, on_root, &why)) < 0)
                return r;
        if (fails ? asprintf_safe(&consequence, "%s: for systemd %u, %s [%s]", intro, c->version, fails->text,
                                  fails->source) < 0
                  : !(consequence = strdup(intro)))
                return -ENOMEM;
        return check_root_writable(c, u, out, id, on_root, why, consequence);
}
