/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/base-NNN.xml: the base model of one systemd version. */
#include "basic/xml-util.h"
#include "rules/rules-internal.h"

struct BaseTarget {
        char *name, *source;
        unsigned line;
        BaseLink *links;    /* sorted by unit */
        size_t n_links;
        BaseLink *unlinks;  /* static links of the model the release removes */
        size_t n_unlinks;
        char **alias_names, **alias_units;
        char **omit;        /* units kept out of the unit path */
};

struct BaseModel {
        unsigned version;
        char *source;
        const char *file;   /* borrowed from RulesFile */
        BaseUnit *units;    /* sorted by name */
        size_t n_units;
        BaseLink *links;    /* sorted by unit */
        size_t n_links;
        char **alias_names, **alias_units;
        BaseTarget *targets;
        size_t n_targets;
};

static void links_free(BaseLink *l, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free((char *) l[i].unit);
                free((char *) l[i].name);
        }
        free(l);
}

static void base_target_done(BaseTarget *t) {
        free(t->name);
        free(t->source);
        links_free(t->links, t->n_links);
        links_free(t->unlinks, t->n_unlinks);
        strv_free(t->alias_names);
        strv_free(t->alias_units);
        strv_free(t->omit);
}

static BaseModel *base_model_free(BaseModel *b) {
        if (!b)
                return NULL;
        for (size_t i = 0; i < b->n_units; i++) {
                free((char *) b->units[i].name);
                free((char *) b->units[i].text);
                free((char *) b->units[i].path);
        }
        free(b->units);
        links_free(b->links, b->n_links);
        for (size_t i = 0; i < b->n_targets; i++)
                base_target_done(&b->targets[i]);
        free(b->targets);
        strv_free(b->alias_names);
        strv_free(b->alias_units);
        free(b->source);
        return mfree(b);
}
static inline void base_model_freep(BaseModel **b) {
        base_model_free(*b);
}

void rules_base_done(Rules *r) {
        for (size_t i = 0; i < r->n_bases; i++)
                base_model_free(r->bases[i]);
        r->bases = mfree(r->bases);
        r->n_bases = 0;
}

int base_unit_cmp(const void *a, const void *b) {
        return strcmp(((const BaseUnit *) a)->name, ((const BaseUnit *) b)->name);
}

int base_link_cmp(const void *a, const void *b) {
        const BaseLink *x = a, *y = b;
        int c = strcmp(x->unit, y->unit);
        return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

static int parse_unit(BaseModel *b, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *name = xml_attr(n, "name");
        _cleanup_(freep) char *text = NULL;
        BaseUnit *nu;
        unsigned line = xml_line(n);
        char *start;

        if (!name || !unit_name_is_valid(name, UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE))
                return rules_bad(diags, f->path, line, "<unit name=\"%s\">: not a valid unit name", strempty(name));
        text = xml_text(n);
        if (!text)
                return -ENOMEM;
        start = text;
        if (*start == '\n') {
                start++;
                line++;
        }
        nu = realloc(b->units, sizeof(BaseUnit) * (b->n_units + 1));
        if (!nu)
                return -ENOMEM;
        b->units = nu;
        nu[b->n_units] = (BaseUnit) {
                .name = strdup(name),
                .text = strdup(start),
                .size = strlen(start),
                .path = xml_attr(n, "path") ? strdup(xml_attr(n, "path")) : NULL,
                .file = f->path,
                .line = line,
        };
        b->n_units++;
        if (!nu[b->n_units - 1].name || !nu[b->n_units - 1].text)
                return -ENOMEM;
        return 0;
}

static int parse_link(BaseLink **links, size_t *n_links, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *u = xml_attr(n, "unit"), *name = xml_attr(n, "name");
        BaseLink *nl;

        if (!u || !name || !unit_name_is_valid(u, UNIT_NAME_ANY) || !unit_name_is_valid(name, UNIT_NAME_ANY))
                return rules_bad(diags, f->path, xml_line(n), "<%s>: invalid unit name", (const char *) n->name);
        nl = realloc(*links, sizeof(BaseLink) * (*n_links + 1));
        if (!nl)
                return -ENOMEM;
        *links = nl;
        nl[(*n_links)++] = (BaseLink) {
                .type = dep_type_from_string(xml_attr(n, "type")),
                .unit = strdup(u),
                .name = strdup(name),
                .line = xml_line(n),
        };
        return nl[*n_links - 1].unit && nl[*n_links - 1].name ? 0 : -ENOMEM;
}

static int parse_alias(char ***names, char ***units, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *a = xml_attr(n, "name"), *u = xml_attr(n, "unit");

        if (!a || !u || !unit_name_is_valid(a, UNIT_NAME_ANY) || !unit_name_is_valid(u, UNIT_NAME_ANY))
                return rules_bad(diags, f->path, xml_line(n), "<alias>: invalid unit name");
        return strv_extend(names, a) < 0 || strv_extend(units, u) < 0 ? -ENOMEM : 0;
}

static bool link_eq(const BaseLink *a, const BaseLink *b) {
        return a->type == b->type && streq(a->unit, b->unit) && streq(a->name, b->name);
}

/* <target name= source=>: <link>, <unlink>, <alias>, <omit unit=> */
static int parse_target(BaseModel *b, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *name = xml_attr(n, "name");
        BaseTarget *nt, *t;
        int q, error = 0;

        for (size_t i = 0; i < b->n_targets; i++)
                if (streq(b->targets[i].name, strempty(name)))
                        return rules_bad(diags, f->path, xml_line(n), "<target name=\"%s\">: a second time (line %u)",
                                         name, b->targets[i].line);
        nt = realloc(b->targets, sizeof(BaseTarget) * (b->n_targets + 1));
        if (!nt)
                return -ENOMEM;
        b->targets = nt;
        t = &nt[b->n_targets++];
        *t = (BaseTarget) { .name = strdup(strempty(name)), .source = strdup(strempty(xml_attr(n, "source"))),
                            .line = xml_line(n) };
        if (!t->name || !t->source)
                return -ENOMEM;
        XML_FOREACH_ELEMENT(c, n) {
                if (xml_is(c, "link"))
                        q = parse_link(&t->links, &t->n_links, f, c, diags);
                else if (xml_is(c, "unlink"))
                        q = parse_link(&t->unlinks, &t->n_unlinks, f, c, diags);
                else if (xml_is(c, "alias"))
                        q = parse_alias(&t->alias_names, &t->alias_units, f, c, diags);
                else {
                        const char *u = xml_attr(c, "unit");
                        q = !u || !unit_name_is_valid(u, UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE)
                                    ? rules_bad(diags, f->path, xml_line(c), "<omit>: invalid unit name")
                                    : strv_extend(&t->omit, u);
                }
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        if (t->n_links > 0)
                qsort_safe(t->links, t->n_links, sizeof(BaseLink), base_link_cmp);
        return error;
}

/* What a release changes must exist in the model: the units it omits, the static links it removes. */
static int check_target(const BaseModel *b, const BaseTarget *t, DiagList *diags) {
        int error = 0;

        STRV_FOREACH(o, t->omit)
                if (!base_model_unit(b, *o))
                        error = rules_bad(diags, b->file, t->line, "<target name=\"%s\">: <omit unit=\"%s\"/> is no "
                                          "unit of this model", t->name, *o);
        for (size_t i = 0; i < t->n_unlinks; i++) {
                bool found = false;
                for (size_t j = 0; j < b->n_links && !found; j++)
                        found = link_eq(&b->links[j], &t->unlinks[i]);
                if (!found)
                        error = rules_bad(diags, b->file, t->unlinks[i].line, "<unlink>: %s has no link %s in this model",
                                          t->unlinks[i].unit, t->unlinks[i].name);
        }
        return error;
}

int rules_parse_base(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        _cleanup_(base_model_freep) BaseModel *b = NULL;
        xmlNode *root = xmlDocGetRootElement(doc);
        BaseModel **nb;
        int q, error = 0;

        b = calloc(1, sizeof(BaseModel));
        if (!b)
                return -ENOMEM;
        b->file = f->path;
        q = rules_parse_version(f, root, "systemd", true, &b->version, diags);
        if (q < 0)
                return q;
        b->source = strdup(strempty(xml_attr(root, "source")));
        if (!b->source)
                return -ENOMEM;
        for (size_t i = 0; i < r->n_bases; i++)
                if (r->bases[i]->version == b->version)
                        return rules_bad(diags, f->path, xml_line(root), "a second base model for systemd %u (%s)",
                                         b->version, r->bases[i]->file);
        XML_FOREACH_ELEMENT(n, root) {
                if (xml_is(n, "unit"))
                        q = parse_unit(b, f, n, diags);
                else if (xml_is(n, "link"))
                        q = parse_link(&b->links, &b->n_links, f, n, diags);
                else if (xml_is(n, "alias"))
                        q = parse_alias(&b->alias_names, &b->alias_units, f, n, diags);
                else
                        q = parse_target(b, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        if (b->n_units > 0)
                qsort_safe(b->units, b->n_units, sizeof(BaseUnit), base_unit_cmp);
        for (size_t i = 1; i < b->n_units; i++)
                if (streq(b->units[i].name, b->units[i - 1].name))
                        error = rules_bad(diags, f->path, b->units[i].line, "unit %s is defined twice",
                                          b->units[i].name);
        if (b->n_links > 0)
                qsort_safe(b->links, b->n_links, sizeof(BaseLink), base_link_cmp);
        for (size_t i = 0; i < b->n_targets && error == 0; i++)
                error = check_target(b, &b->targets[i], diags);
        if (error < 0)
                return error;
        nb = realloc(r->bases, sizeof(BaseModel *) * (r->n_bases + 1));
        if (!nb)
                return -ENOMEM;
        r->bases = nb;
        nb[r->n_bases++] = TAKE_PTR(b);
        return 0;
}

const BaseModel *rules_base_model(const Rules *r, unsigned v) {
        const BaseModel *best = NULL, *oldest = NULL;

        for (size_t i = 0; r && i < r->n_bases; i++) {
                const BaseModel *b = r->bases[i];
                if (b->version <= v && (!best || b->version > best->version))
                        best = b;
                if (!oldest || b->version < oldest->version)
                        oldest = b;
        }
        return best ?: oldest;
}

unsigned rules_oldest_modelled(const Rules *r) {
        unsigned v = 0;
        for (size_t i = 0; r && i < r->n_bases; i++)
                if (v == 0 || r->bases[i]->version < v)
                        v = r->bases[i]->version;
        return v;
}

unsigned rules_newest_modelled(const Rules *r) {
        unsigned v = 0;
        for (size_t i = 0; r && i < r->n_bases; i++)
                if (r->bases[i]->version > v)
                        v = r->bases[i]->version;
        return v;
}

int rules_model_range(const Rules *r, unsigned *ret_oldest, unsigned *ret_newest) {
        unsigned hi = rules_newest_modelled(r);

        if (hi == 0)
                return -ENOENT;
        if (ret_oldest)
                *ret_oldest = rules_oldest_modelled(r);
        if (ret_newest)
                *ret_newest = hi;
        return 0;
}

unsigned base_model_version(const BaseModel *b) {
        return b->version;
}

const char *base_model_file(const BaseModel *b) {
        return b->file;
}

const char *base_model_source(const BaseModel *b) {
        return b->source;
}

const BaseUnit *base_model_unit(const BaseModel *b, const char *name) {
        BaseUnit key = { .name = name };
        return b && b->n_units ? bsearch(&key, b->units, b->n_units, sizeof(BaseUnit), base_unit_cmp) : NULL;
}

size_t base_model_unit_count(const BaseModel *b) {
        return b ? b->n_units : 0;
}

const BaseUnit *base_model_unit_get(const BaseModel *b, size_t i) {
        return b && i < b->n_units ? &b->units[i] : NULL;
}

size_t base_links_find(const BaseLink *links, size_t n_links, const char *unit, const BaseLink **ret) {
        size_t lo = 0, hi = n_links, n;

        *ret = NULL;
        while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (strcmp(links[mid].unit, unit) < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        for (n = 0; lo + n < n_links && streq(links[lo + n].unit, unit); n++)
                ;
        *ret = n ? &links[lo] : NULL;
        return n;
}

size_t base_model_links(const BaseModel *b, const char *unit, const BaseLink **ret) {
        return base_links_find(b ? b->links : NULL, b ? b->n_links : 0, unit, ret);
}

const char *base_model_alias(const BaseModel *b, const char *name) {
        for (size_t i = 0; b && b->alias_names && b->alias_names[i]; i++)
                if (streq(b->alias_names[i], name))
                        return b->alias_units[i];
        return NULL;
}

/* Every <target> names a release of targets.xml whose systemd version this model is the one for. */
int rules_base_finish(Rules *r, DiagList *diags) {
        int error = 0;

        for (size_t i = 0; i < r->n_bases; i++) {
                const BaseModel *b = r->bases[i];
                for (size_t j = 0; j < b->n_targets; j++) {
                        const BaseTarget *t = &b->targets[j];
                        const char *canonical = NULL;
                        unsigned v;
                        if (rules_target_version(r, t->name, &v, &canonical) < 0 || !streq_ptr(canonical, t->name))
                                error = rules_bad(diags, b->file, t->line, "<target name=\"%s\">: not a release of "
                                                  "targets.xml (its canonical name)", t->name);
                        else if (rules_base_model(r, v) != b)
                                error = rules_bad(diags, b->file, t->line, "<target name=\"%s\">: %s has systemd %u, "
                                                  "whose base model is %s, not this one", t->name, t->name, v,
                                                  base_model_file(rules_base_model(r, v)));
                }
        }
        return error;
}

const BaseTarget *base_model_target(const BaseModel *b, const char *name) {
        for (size_t i = 0; b && name && i < b->n_targets; i++)
                if (streq(b->targets[i].name, name))
                        return &b->targets[i];
        return NULL;
}

size_t base_model_target_count(const BaseModel *b) {
        return b ? b->n_targets : 0;
}

const BaseTarget *base_model_target_get(const BaseModel *b, size_t i) {
        return b && i < b->n_targets ? &b->targets[i] : NULL;
}

const char *base_target_name(const BaseTarget *t) {
        return t->name;
}

const char *base_target_source(const BaseTarget *t) {
        return t->source;
}

size_t base_target_links(const BaseTarget *t, const char *unit, const BaseLink **ret) {
        *ret = NULL;
        return base_links_find(t ? t->links : NULL, t ? t->n_links : 0, unit, ret);
}

bool base_target_unlinks(const BaseTarget *t, const BaseLink *l, const char *unit) {
        for (size_t i = 0; t && i < t->n_unlinks; i++)
                if (t->unlinks[i].type == l->type && streq(t->unlinks[i].unit, unit) &&
                    streq(t->unlinks[i].name, l->name))
                        return true;
        return false;
}

bool base_target_omits(const BaseTarget *t, const char *unit) {
        return t && strv_contains(t->omit, unit);
}

const char *base_target_alias(const BaseTarget *t, const char *name) {
        for (size_t i = 0; t && t->alias_names && t->alias_names[i]; i++)
                if (streq(t->alias_names[i], name))
                        return t->alias_units[i];
        return NULL;
}
