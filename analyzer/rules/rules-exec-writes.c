/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/exec-writes.xml: what PID 1 and the child write before exec; rules/target-tmpfiles.xml: the tmpfiles.d
 * lines of /tmp and /var/tmp each target runs at boot. */

#include "rules/rules-internal.h"
#include "basic/xml-util.h"

static const char * const exec_write_op_table[_EXEC_WRITE_OP_MAX] = {
        [EXEC_WRITE_MKDTEMP] = "mkdtemp",
        [EXEC_WRITE_MKDIR] = "mkdir",
        [EXEC_WRITE_MOUNT] = "mount",
        [EXEC_WRITE_CHMOD] = "chmod",
        [EXEC_WRITE_NONE] = "none",
};

static void exec_write_done(ExecWrite *w) {
        free(w->id);
        free(w->setting);
        free(w->path);
        free(w->under);
        strv_free(w->checks);
        free(w->source);
        for (size_t i = 0; i < w->n_conds; i++)
                rules_dep_cond_done(&w->conds[i]);
        free(w->conds);
        for (size_t i = 0; i < w->n_fails; i++) {
                free(w->fails[i].text);
                free(w->fails[i].source);
        }
        free(w->fails);
}

void rules_exec_writes_done(Rules *r) {
        for (size_t i = 0; i < r->n_exec_writes; i++)
                exec_write_done(&r->exec_writes[i]);
        r->exec_writes = mfree(r->exec_writes);
        r->n_exec_writes = 0;
}

static int parse_write(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(exec_write_done) ExecWrite w = { .file = f->path, .line = xml_line(n) };
        const char *check = strempty(xml_attr(n, "check"));
        size_t n_conds = 0, n_fails = 0;
        ExecWrite *nw;
        int q;

        w.id = strdup(strempty(xml_attr(n, "id")));
        w.setting = strdup(strempty(xml_attr(n, "setting")));
        w.path = strdup(strempty(xml_attr(n, "path")));
        w.under = strdup(strempty(xml_attr(n, "under")));
        w.source = strdup(strempty(xml_attr(n, "source")));
        if (!w.id || !w.setting || !w.path || !w.under || !w.source)
                return -ENOMEM;
        /* check="a b": a space-separated list of check ids */
        for (const char *p = check + strspn(check, " "); *p; p += strspn(p, " ")) {
                size_t len = strcspn(p, " ");
                if (strv_push(&w.checks, strndup_safe(p, len)) < 0)
                        return -ENOMEM;
                p += len;
        }
        for (size_t i = 0; i < r->n_exec_writes; i++)
                if (streq(r->exec_writes[i].id, w.id))
                        return rules_bad(diags, f->path, w.line, "duplicate write id \"%s\"", w.id);
        w.pid1 = streq_ptr(xml_attr(n, "by"), "pid1");
        w.op = string_table_lookup(exec_write_op_table, _EXEC_WRITE_OP_MAX, xml_attr(n, "op"));
        w.lasting = streq_ptr(xml_attr(n, "lasting"), "yes");
        w.missing = streq_ptr(xml_attr(n, "missing"), "yes");
        w.in_root = streq_ptr(xml_attr(n, "in-root"), "yes");
        if (w.op < 0)
                return rules_bad(diags, f->path, w.line, "write %s: unknown op", w.id);
        if (w.under[0] != '/' && w.under[0] != '{')
                return rules_bad(diags, f->path, w.line, "write %s: under=\"%s\" is not absolute", w.id, w.under);
        q = rules_parse_range(f, n, &w.since, &w.until, diags);
        if (q < 0)
                return q;
        XML_FOREACH_ELEMENT(e, n) {
                if (xml_is(e, "fails"))
                        n_fails++;
                else
                        n_conds++;
        }
        w.conds = calloc(n_conds + 1, sizeof(DepCond));
        w.fails = calloc(n_fails + 1, sizeof(ExecWriteFailure));
        if (!w.conds || !w.fails)
                return -ENOMEM;
        XML_FOREACH_ELEMENT(e, n) {
                if (xml_is(e, "fails")) {
                        ExecWriteFailure *x = &w.fails[w.n_fails++];
                        q = rules_parse_range(f, e, &x->since, &x->until, diags);
                        if (q < 0)
                                return q;
                        x->text = xml_text(e);
                        x->source = strdup(strempty(xml_attr(e, "source")));
                        if (!x->text || !x->source)
                                return -ENOMEM;
                        continue;
                }
                q = rules_parse_dep_cond(f, e, &w.conds[w.n_conds++], diags);
                if (q < 0)
                        return q;
        }
        nw = realloc(r->exec_writes, sizeof(ExecWrite) * (r->n_exec_writes + 1));
        if (!nw)
                return -ENOMEM;
        r->exec_writes = nw;
        nw[r->n_exec_writes++] = w;
        w = (ExecWrite) {};
        return 0;
}

int rules_parse_exec_writes(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = parse_write(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        return error;
}

/* Every word of check= names a check of checks.xml ("" is none). */
int rules_exec_writes_finish(Rules *r, DiagList *diags) {
        int error = 0;

        for (size_t i = 0; i < r->n_exec_writes; i++) {
                const ExecWrite *w = &r->exec_writes[i];
                STRV_FOREACH(c, w->checks)
                        if (!rules_check_lookup(r, *c))
                                error = error ?: rules_bad(diags, w->file, w->line, "write %s: unknown check \"%s\"",
                                                           w->id, *c);
        }
        return error;
}

bool exec_write_judged_by(const ExecWrite *w, const char *id) {
        return strv_contains(w->checks, id);
}

size_t rules_exec_write_count(const Rules *r) {
        return r ? r->n_exec_writes : 0;
}

const ExecWrite *rules_exec_write_get(const Rules *r, size_t i) {
        return r && i < r->n_exec_writes ? &r->exec_writes[i] : NULL;
}

bool exec_write_applies(const ExecWrite *w, unsigned v) {
        return v >= w->since && (w->until == 0 || v <= w->until);
}

const ExecWriteFailure *exec_write_failure(const ExecWrite *w, unsigned v) {
        for (size_t i = 0; i < w->n_fails; i++)
                if (v >= w->fails[i].since && (w->fails[i].until == 0 || v <= w->fails[i].until))
                        return &w->fails[i];
        return NULL;
}

/* ---- target-tmpfiles.xml */

void rules_target_tmpfiles_done(Rules *r) {
        for (size_t i = 0; i < r->n_target_tmpfiles; i++) {
                free(r->target_tmpfiles[i].target);
                free(r->target_tmpfiles[i].source);
                strv_free(r->target_tmpfiles[i].lines);
                free(r->target_tmpfiles[i].line_numbers);
        }
        r->target_tmpfiles = mfree(r->target_tmpfiles);
        r->n_target_tmpfiles = 0;
}

static int parse_tmpfiles_set(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        TargetTmpfiles t = { .line = xml_line(n), .file = f->path }, *nt;
        int q;

        if (xml_is(n, "target")) {
                const char *name = xml_attr(n, "name");
                const char *canonical = NULL;
                if (rules_target_version(r, name, NULL, &canonical) < 0 || !streq(canonical, name))
                        return rules_bad(diags, f->path, t.line, "unknown target \"%s\" (a name of targets.xml)",
                                         strempty(name));
                for (size_t i = 0; i < r->n_target_tmpfiles; i++)
                        if (streq_ptr(r->target_tmpfiles[i].target, name))
                                return rules_bad(diags, f->path, t.line, "target %s listed twice", name);
                if (!(t.target = strdup(name)))
                        return -ENOMEM;
        } else {
                q = rules_parse_range(f, n, &t.since, &t.until, diags);
                if (q < 0)
                        return q;
        }
        t.source = strdup(strempty(xml_attr(n, "source")));
        if (!t.source)
                goto oom;
        XML_FOREACH_ELEMENT(e, n) {
                size_t k = strv_length(t.lines);
                unsigned *nl = realloc(t.line_numbers, sizeof(unsigned) * (k + 1));
                if (!nl)
                        goto oom;
                t.line_numbers = nl;
                nl[k] = xml_line(e);
                if (strv_push(&t.lines, xml_text(e)) < 0)
                        goto oom;
        }
        nt = realloc(r->target_tmpfiles, sizeof(TargetTmpfiles) * (r->n_target_tmpfiles + 1));
        if (!nt)
                goto oom;
        r->target_tmpfiles = nt;
        nt[r->n_target_tmpfiles++] = t;
        return 0;
oom:
        free(t.target);
        free(t.source);
        strv_free(t.lines);
        free(t.line_numbers);
        return -ENOMEM;
}

int rules_parse_target_tmpfiles(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = parse_tmpfiles_set(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        return error;
}

const TargetTmpfiles *rules_target_tmpfiles(const Rules *r, const char *target, unsigned v) {
        const TargetTmpfiles *up = NULL;

        for (size_t i = 0; r && i < r->n_target_tmpfiles; i++) {
                const TargetTmpfiles *t = &r->target_tmpfiles[i];
                if (t->target && target && streq(t->target, target))
                        return t;
                if (!t->target && !up && v >= t->since && (t->until == 0 || v <= t->until))
                        up = t;
        }
        return up;
}

const char *exec_write_op_to_string(ExecWriteOp op) {
        return op >= 0 && op < _EXEC_WRITE_OP_MAX ? exec_write_op_table[op] : NULL;
}
