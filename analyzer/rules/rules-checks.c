/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/checks.xml: the metadata of the lint checks. */

#include "basic/suggest.h"
#include "basic/xml-util.h"
#include "rules/rules-internal.h"

static void check_entry_done(CheckEntry *c) {
        free(c->info.id);
        free(c->info.title);
        free(c->info.explanation);
        strv_free(c->info.references);
        strv_free(c->info.reference_urls);
        strv_free(c->loss_units);
        strv_free(c->loss_texts);
}

void rules_checks_done(Rules *r) {
        for (size_t i = 0; i < r->n_checks; i++)
                check_entry_done(&r->checks[i]);
        r->checks = mfree(r->checks);
        r->n_checks = r->allocated_checks = 0;
}

static bool id_is_kebab(const char *s) {
        if (isempty(s) || s[0] == '-' || s[strlen(s) - 1] == '-' || strstr(s, "--"))
                return false;
        for (; *s; s++)
                if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
                        return false;
        return true;
}

static int parse_check(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(check_entry_done) CheckEntry c = { .file = f->path, .line = xml_line(n) };
        const char *id = xml_attr(n, "id");
        Severity sev = severity_from_string(xml_attr(n, "severity"));

        if (!id_is_kebab(id))
                return rules_bad(diags, f->path, xml_line(n), "check id \"%s\" is not kebab-case (a-z, 0-9, -)",
                                 strempty(id));
        if (rules_check_lookup(r, id))
                return rules_bad(diags, f->path, xml_line(n), "duplicate check id \"%s\"", id);
        if (sev < 0)
                return rules_bad(diags, f->path, xml_line(n), "check %s: bad severity", id);
        c.info.id = strdup(id);
        if (!c.info.id)
                return -ENOMEM;
        c.info.severity = sev;
        XML_FOREACH_ELEMENT(e, n) {
                if (xml_is(e, "title")) {
                        c.info.title = xml_text(e);
                        if (!c.info.title)
                                return -ENOMEM;
                } else if (xml_is(e, "explanation")) {
                        c.info.explanation = xml_text(e);
                        if (!c.info.explanation)
                                return -ENOMEM;
                } else if (xml_is(e, "loss")) {
                        if (strv_extend(&c.loss_units, strempty(xml_attr(e, "unit"))) < 0 ||
                            strv_push(&c.loss_texts, xml_text(e)) < 0)
                                return -ENOMEM;
                } else if (xml_is(e, "reference")) {
                        if (strv_push(&c.info.references, xml_text(e)) < 0 ||
                            strv_extend(&c.info.reference_urls, strempty(xml_attr(e, "url"))) < 0)
                                return -ENOMEM;
                }
        }
        if (GREEDY_REALLOC(r->checks, r->allocated_checks, r->n_checks + 1) < 0)
                return -ENOMEM;
        r->checks[r->n_checks++] = c;
        c = (CheckEntry) {};
        return 0;
}

int rules_parse_checks(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = parse_check(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0 && error == 0)
                        error = q;
        }
        return error;
}

const CheckInfo *rules_check_lookup(const Rules *r, const char *id) {
        for (size_t i = 0; r && id && i < r->n_checks; i++)
                if (streq(r->checks[i].info.id, id))
                        return &r->checks[i].info;
        return NULL;
}

const char *rules_check_loss(const Rules *r, const char *id, const char *unit) {
        for (size_t i = 0; r && id && i < r->n_checks; i++)
                if (streq(r->checks[i].info.id, id))
                        for (size_t k = 0; r->checks[i].loss_units && r->checks[i].loss_units[k]; k++)
                                if (streq(r->checks[i].loss_units[k], unit))
                                        return r->checks[i].loss_texts[k];
        return NULL;
}

size_t rules_check_count(const Rules *r) {
        return r ? r->n_checks : 0;
}

const CheckInfo *rules_check_get(const Rules *r, size_t i) {
        return r && i < r->n_checks ? &r->checks[i].info : NULL;
}

const char *rules_suggest_check(const Rules *r, const char *id) {
        size_t n = rules_check_count(r);
        _cleanup_(freep) const char **ids = calloc(n + 1, sizeof(char *));

        if (!ids)
                return NULL;
        for (size_t i = 0; i < n; i++)
                ids[i] = rules_check_get(r, i)->id;
        return suggest_closest(id, ids, n);
}
