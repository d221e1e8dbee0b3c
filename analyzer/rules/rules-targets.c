/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <strings.h>

#include "basic/xml-util.h"
#include "rules/rules-internal.h"

static void target_done(Target *t) {
        free(t->name);
        free(t->package);
        free(t->status);
        free(t->note);
        free(t->source);
        strv_free(t->aliases);
}

void rules_targets_done(Rules *r) {
        for (size_t i = 0; i < r->n_targets; i++)
                target_done(&r->targets[i]);
        r->targets = mfree(r->targets);
        r->n_targets = r->allocated_targets = 0;
}

/* Target names are matched without regard to case: "Ubuntu-Xenial" is what a user means. */
static const Target *find_target(const Rules *r, const char *name, const char **ret_matched) {
        for (size_t i = 0; i < r->n_targets; i++) {
                const Target *t = &r->targets[i];
                if (strcasecmp(t->name, name) == 0) {
                        if (ret_matched)
                                *ret_matched = t->name;
                        return t;
                }
                STRV_FOREACH(a, t->aliases)
                        if (strcasecmp(*a, name) == 0) {
                                if (ret_matched)
                                        *ret_matched = *a;
                                return t;
                        }
        }
        return NULL;
}

static int check_new_name(Rules *r, const RulesFile *f, xmlNode *n, const char *name, DiagList *diags) {
        const Target *t;

        if (isempty(name) || strpbrk(name, " \t\n/"))
                return diag_add(diags, DIAG_ERROR, f->path, xml_line(n), "invalid target name \"%s\"", name)
                       ?: -EBADMSG;
        t = find_target(r, name, NULL);
        if (t)
                return diag_add(diags, DIAG_ERROR, f->path, xml_line(n),
                                "duplicate target name \"%s\" (already used by %s at %s:%u)", name, t->name,
                                t->file, t->line) ?: -EBADMSG;
        return 0;
}

static int parse_target(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(target_done) Target t = {};
        const char *s;
        int q;

        q = check_new_name(r, f, n, xml_attr(n, "name"), diags);
        if (q < 0)
                return q;
        /* a rolling release has no version of its own: it follows the newest base model (schema: one or the other) */
        t.rolling = streq(strempty(xml_attr(n, "status")), "rolling");
        if (t.rolling && xml_attr(n, "systemd"))
                return diag_add(diags, DIAG_ERROR, f->path, xml_line(n),
                                "a rolling target has no systemd= (it is judged with the newest base model)")
                       ?: -EBADMSG;
        if (!t.rolling) {
                q = rules_parse_version(f, n, "systemd", true, &t.version, diags);
                if (q < 0)
                        return q;
                if (t.version == 0)
                        return diag_add(diags, DIAG_ERROR, f->path, xml_line(n),
                                        "systemd=\"0\" is not a systemd version") ?: -EBADMSG;
        }

        t.name = strdup(xml_attr(n, "name"));
        t.status = strdup(strempty(xml_attr(n, "status")));
        if (!t.name || !t.status)
                return -ENOMEM;
        s = xml_attr(n, "package");
        if (s && !(t.package = strdup(s)))
                return -ENOMEM;
        s = xml_attr(n, "source");
        if (s && !(t.source = strdup(s)))
                return -ENOMEM;
        t.file = f->path;
        t.line = xml_line(n);

        XML_FOREACH_ELEMENT(c, n) {
                if (xml_is(c, "alias")) {
                        const char *a = xml_attr(c, "name");

                        q = check_new_name(r, f, c, a, diags);
                        if (q < 0)
                                return q;
                        if (strv_contains(t.aliases, a) || strcasecmp(a, t.name) == 0)
                                return diag_add(diags, DIAG_ERROR, f->path, xml_line(c),
                                                "duplicate target name \"%s\"", a) ?: -EBADMSG;
                        if (strv_extend(&t.aliases, a) < 0)
                                return -ENOMEM;
                } else if (xml_is(c, "note")) {
                        free(t.note);
                        t.note = xml_text(c);
                        if (!t.note)
                                return -ENOMEM;
                }
        }

        if (GREEDY_REALLOC(r->targets, r->allocated_targets, r->n_targets + 1) < 0)
                return -ENOMEM;
        r->targets[r->n_targets++] = t;
        t = (Target) {};
        return 0;
}

int rules_parse_targets(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = parse_target(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0 && error == 0)
                        error = q; /* go on: report every bad entry at once */
        }
        return error;
}

int rules_target_version(const Rules *r, const char *name, unsigned *ret_version, const char **ret_canonical) {
        const Target *t;
        unsigned v = 0;

        if (!r || isempty(name))
                return -EINVAL;
        t = find_target(r, name, NULL);
        if (!t)
                return -ENOENT;
        if (t->rolling && rules_model_range(r, NULL, &v) < 0)
                return -ENOENT;
        if (ret_version)
                *ret_version = t->rolling ? v : t->version;
        if (ret_canonical)
                *ret_canonical = t->name;
        return 0;
}

char **rules_target_names(const Rules *r) {
        char **l = calloc(r->n_targets + 1, sizeof(char *));

        if (!l)
                return NULL;
        for (size_t i = 0; i < r->n_targets; i++)
                if (!(l[i] = strdup(r->targets[i].name)))
                        return strv_free(l);
        return l;
}

unsigned rules_newest_version(const Rules *r) {
        unsigned v = 0, newest = 0;

        (void) rules_model_range(r, NULL, &newest);
        for (size_t i = 0; i < r->n_targets; i++)
                v = MAX(v, r->targets[i].rolling ? newest : r->targets[i].version);
        return v;
}

const char *rules_target_source(const Rules *r, const char *name) {
        const Target *t = find_target(r, name, NULL);
        return t ? t->source : NULL;
}

const char *rules_target_note(const Rules *r, const char *name) {
        const Target *t = find_target(r, name, NULL);
        return t ? t->note : NULL;
}
