/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/dependencies.xml: implicit and default dependency rules, perpetual units, manager defaults. */
#include <fnmatch.h>

#include "basic/xml-util.h"
#include "rules/rules-internal.h"

static const char * const template_functions[] = {
        "escape", "path-escape", "device", "mount", "dirname", "strip-dash", "before-colon", "parent-slice",
};
static const char * const template_vars[] = {
        "id", "stem", "prefix", "instance", "where", "what", "fstype", "word",
};

static void dep_cond_done(DepCond *c) {
        free(c->section);
        free(c->name);
        strv_free(c->patterns);
        free(c->dflt);
        for (size_t i = 0; i < c->n_any; i++)
                dep_cond_done(&c->any[i]);
        free(c->any);
}

static DepRule *dep_rule_free(DepRule *d) {
        if (!d)
                return NULL;
        free(d->id);
        free(d->class);
        free(d->source);
        for (size_t i = 0; i < d->n_conds; i++)
                dep_cond_done(&d->conds[i]);
        free(d->conds);
        for (size_t i = 0; i < d->n_actions; i++) {
                free(d->actions[i].unit);
                free(d->actions[i].path);
                free(d->actions[i].each);
                free(d->actions[i].setting);
                free(d->actions[i].value);
        }
        free(d->actions);
        return mfree(d);
}
static inline void dep_rule_freep(DepRule **d) {
        dep_rule_free(*d);
}

static void versioned_free(RulesVersioned *v, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(v[i].name);
                free(v[i].value);
                free(v[i].offline_value);
                free(v[i].fstype);
        }
        free(v);
}

void rules_dependencies_done(Rules *r) {
        for (size_t i = 0; i < r->n_dep_rules; i++)
                dep_rule_free(r->dep_rules[i]);
        r->dep_rules = mfree(r->dep_rules);
        r->n_dep_rules = r->allocated_dep_rules = 0;
        versioned_free(r->perpetual, r->n_perpetual);
        versioned_free(r->mount_points, r->n_mount_points);
        versioned_free(r->manager_defaults, r->n_manager_defaults);
        r->perpetual = r->manager_defaults = NULL;
        r->n_perpetual = r->n_manager_defaults = 0;
        r->mount_points = NULL;
        r->n_mount_points = 0;
}

static int split_words(const char *s, char ***ret) {
        _cleanup_(strv_freep) char **l = calloc(1, sizeof(char *));

        if (!l)
                return -ENOMEM;
        while (s && *s) {
                size_t n;
                s += strspn(s, " \t\n");
                n = strcspn(s, " \t\n");
                if (n == 0)
                        break;
                if (strv_push(&l, strndup_safe(s, n)) < 0)
                        return -ENOMEM;
                s += n;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

/* Checks a template: balanced braces, known variables (lower case) or setting names (upper case first), known
 * functions. */
static int check_template(const RulesFile *f, unsigned line, const char *t, bool word_ok, DiagList *diags) {
        for (const char *p = t; *p; p++) {
                _cleanup_(strv_freep) char **parts = NULL;
                _cleanup_(freep) char *inner = NULL;
                const char *end;

                if (*p == '}')
                        return rules_bad(diags, f->path, line, "template \"%s\": '}' without '{'", t);
                if (*p != '{')
                        continue;
                end = strchr(p, '}');
                if (!end)
                        return rules_bad(diags, f->path, line, "template \"%s\": '{' without '}'", t);
                inner = strndup_safe(p + 1, (size_t) (end - p - 1));
                if (!inner)
                        return -ENOMEM;
                for (char *s = inner, *bar; s; s = bar ? bar + 1 : NULL) {
                        bar = strchr(s, '|');
                        if (bar)
                                *bar = 0;
                        if (strv_push(&parts, strdup(s)) < 0)
                                return -ENOMEM;
                }
                if (!parts || isempty(parts[0]))
                        return rules_bad(diags, f->path, line, "template \"%s\": empty {}", t);
                if (parts[0][0] >= 'a' && parts[0][0] <= 'z') {
                        if (string_table_lookup(template_vars, ELEMENTSOF(template_vars), parts[0]) < 0)
                                return rules_bad(diags, f->path, line, "template \"%s\": unknown variable {%s}", t,
                                                 parts[0]);
                        if (streq(parts[0], "word") && !word_ok)
                                return rules_bad(diags, f->path, line,
                                                 "template \"%s\": {word} needs each= on the action", t);
                }
                STRV_FOREACH(fn, parts + 1)
                        if (string_table_lookup(template_functions, ELEMENTSOF(template_functions), *fn) < 0)
                                return rules_bad(diags, f->path, line, "template \"%s\": unknown function |%s", t,
                                                 *fn);
                p = end;
        }
        return 0;
}

static int parse_cond(const RulesFile *f, xmlNode *n, DepCond *c, DiagList *diags) {
        const char *s;
        int q;

        c->negate = xml_is(n, "unless");
        q = rules_parse_range(f, n, &c->since, &c->until, diags);
        if (q < 0)
                return q;
        if (xml_is(n, "any")) {
                size_t m = 0;
                c->kind = DEP_COND_ANY;
                XML_FOREACH_ELEMENT(x, n)
                        m++;
                c->any = calloc(m, sizeof(DepCond));
                if (!c->any)
                        return -ENOMEM;
                XML_FOREACH_ELEMENT(x, n) {
                        q = parse_cond(f, x, &c->any[c->n_any++], diags);
                        if (q < 0)
                                return q;
                }
                return 0;
        }
        if ((s = xml_attr(n, "mounts-for")) || (s = xml_attr(n, "loaded")) || (s = xml_attr(n, "after"))) {
                c->kind = xml_attr(n, "mounts-for") ? DEP_COND_MOUNTS_FOR
                          : xml_attr(n, "loaded")   ? DEP_COND_LOADED
                                                    : DEP_COND_AFTER;
                c->name = strdup(s);
                return c->name ? 0 : -ENOMEM;
        }
        if ((s = xml_attr(n, "setting"))) {
                const char *dot = strchr(s, '.');
                c->kind = DEP_COND_SETTING;
                if (dot) {
                        c->section = strndup_safe(s, (size_t) (dot - s));
                        c->name = strdup(dot + 1);
                } else
                        c->name = strdup(s);
                if (!c->name || (dot && !c->section))
                        return -ENOMEM;
                if (isempty(c->name) || !((c->name[0] >= 'A' && c->name[0] <= 'Z') || c->name[0] == '@'))
                        return rules_bad(diags, f->path, xml_line(n), "setting=\"%s\" is not a unit-file key", s);
        } else if ((s = xml_attr(n, "var"))) {
                c->kind = DEP_COND_VAR;
                if (string_table_lookup(template_vars, ELEMENTSOF(template_vars), s) < 0 || streq(s, "word"))
                        return rules_bad(diags, f->path, xml_line(n), "unknown var=\"%s\"", s);
                c->name = strdup(s);
        } else {
                c->kind = DEP_COND_DISTRO;
                c->name = strdup(strempty(xml_attr(n, "distro")));
        }
        if (!c->name)
                return -ENOMEM;
        s = xml_attr(n, "value");
        if (c->kind == DEP_COND_DISTRO) {
                if (s)
                        return rules_bad(diags, f->path, xml_line(n), "distro= takes no value=");
                q = split_words(c->name, &c->patterns);
        } else {
                if (!s)
                        return rules_bad(diags, f->path, xml_line(n), "<%s> needs value=", n->name);
                q = split_words(s, &c->patterns);
        }
        if (q < 0)
                return q;
        if (!c->patterns[0])
                return rules_bad(diags, f->path, xml_line(n), "<%s>: empty value list", n->name);
        STRV_FOREACH(p, c->patterns)
                if ((*p)[0] == '@' && !streq(*p, "@true") && !streq(*p, "@false"))
                        return rules_bad(diags, f->path, xml_line(n), "unknown value \"%s\" (only @true and @false)",
                                         *p);
        if ((s = xml_attr(n, "default")) && !(c->dflt = strdup(s)))
                return -ENOMEM;
        c->word = streq_ptr(xml_attr(n, "word"), "yes");
        return 0;
}

int rules_parse_dep_cond(const RulesFile *f, xmlNode *n, DepCond *c, DiagList *diags) {
        return parse_cond(f, n, c, diags);
}

void rules_dep_cond_done(DepCond *c) {
        dep_cond_done(c);
}

static int parse_action(const RulesFile *f, xmlNode *n, DepAction *a, DiagList *diags) {
        const char *s;
        int q;

        a->line = xml_line(n);
        if ((s = xml_attr(n, "each")) && !(a->each = strdup(s)))
                return -ENOMEM;
        if (xml_is(n, "add") || xml_is(n, "after-pulled")) {
                a->kind = xml_is(n, "add") ? DEP_ACTION_ADD : DEP_ACTION_AFTER_PULLED;
                if (dep_type_mask_from_string(xml_attr(n, "deps"), &a->deps) < 0)
                        return rules_bad(diags, f->path, a->line, "deps=\"%s\": not a list of dependency types",
                                         strempty(xml_attr(n, "deps")));
                if (a->kind == DEP_ACTION_ADD) {
                        a->unit = strdup(xml_attr(n, "unit"));
                        if (!a->unit)
                                return -ENOMEM;
                        return check_template(f, a->line, a->unit, !!a->each, diags);
                }
                return 0;
        }
        if (xml_is(n, "mounts-for")) {
                a->kind = DEP_ACTION_MOUNTS_FOR;
                a->wants = streq_ptr(xml_attr(n, "mode"), "wants");
                a->path = strdup(xml_attr(n, "path"));
                if (!a->path)
                        return -ENOMEM;
                q = check_template(f, a->line, a->path, !!a->each, diags);
                if (q < 0)
                        return q;
                if (a->path[0] != '/' && a->path[0] != '{')
                        return rules_bad(diags, f->path, a->line, "mounts-for path=\"%s\" is not absolute",
                                         a->path);
                return 0;
        }
        a->kind = DEP_ACTION_SET;
        a->setting = strdup(xml_attr(n, "setting"));
        a->value = strdup(xml_attr(n, "value"));
        return a->setting && a->value ? 0 : -ENOMEM;
}

static int parse_unit_type_mask(const RulesFile *f, xmlNode *n, unsigned *ret, DiagList *diags) {
        _cleanup_(strv_freep) char **w = NULL;
        unsigned mask = 0;

        if (split_words(xml_attr(n, "unit-types"), &w) < 0)
                return -ENOMEM;
        STRV_FOREACH(t, w) {
                UnitType ut = unit_type_from_string(*t);
                if (ut < 0)
                        return rules_bad(diags, f->path, xml_line(n), "unknown unit type \"%s\"", *t);
                mask |= 1U << ut;
        }
        if (!mask)
                return rules_bad(diags, f->path, xml_line(n), "unit-types= is empty");
        *ret = mask;
        return 0;
}

static int parse_rule(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(dep_rule_freep) DepRule *d = NULL;
        size_t nc = 0, na = 0;
        bool sets = false;
        int q;

        d = calloc(1, sizeof(DepRule));
        if (!d)
                return -ENOMEM;
        d->file = f->path;
        d->line = xml_line(n);
        d->id = strdup(strempty(xml_attr(n, "id")));
        d->class = strdup(strempty(xml_attr(n, "class")));
        if (!d->id || !d->class)
                return -ENOMEM;
        if (isempty(d->id) || strpbrk(d->id, " \t\n"))
                return rules_bad(diags, f->path, d->line, "invalid rule id \"%s\"", d->id);
        for (size_t i = 0; i < r->n_dep_rules; i++)
                if (streq(r->dep_rules[i]->id, d->id))
                        return rules_bad(diags, f->path, d->line, "rule id \"%s\" used twice (first at %s:%u)", d->id,
                                         r->dep_rules[i]->file, r->dep_rules[i]->line);
        d->origin = sd_origin_from_string(xml_attr(n, "origin"));
        if (d->origin < 0)
                return rules_bad(diags, f->path, d->line, "bad origin=");
        q = parse_unit_type_mask(f, n, &d->unit_types, diags);
        if (q >= 0)
                q = rules_parse_range(f, n, &d->since, &d->until, diags);
        if (q < 0)
                return q;
        if (xml_attr(n, "source") && !(d->source = strdup(xml_attr(n, "source"))))
                return -ENOMEM;

        XML_FOREACH_ELEMENT(c, n) {
                if (xml_is(c, "if") || xml_is(c, "unless") || xml_is(c, "any"))
                        nc++;
                else
                        na++;
        }
        d->conds = calloc(nc + 1, sizeof(DepCond));
        d->actions = calloc(na + 1, sizeof(DepAction));
        if (!d->conds || !d->actions)
                return -ENOMEM;
        XML_FOREACH_ELEMENT(c, n) {
                if (xml_is(c, "if") || xml_is(c, "unless") || xml_is(c, "any"))
                        q = parse_cond(f, c, &d->conds[d->n_conds++], diags);
                else {
                        q = parse_action(f, c, &d->actions[d->n_actions], diags);
                        sets = sets || d->actions[d->n_actions].kind == DEP_ACTION_SET;
                        d->n_actions++;
                }
                if (q < 0)
                        return q;
        }
        if (sets && d->n_actions > 1)
                return rules_bad(diags, f->path, d->line, "rule %s: a <set> rule has no other actions", d->id);

        if (GREEDY_REALLOC(r->dep_rules, r->allocated_dep_rules, r->n_dep_rules + 1) < 0)
                return -ENOMEM;
        if (sets) {
                /* normalisations run before every other rule: keep them in front, in file order */
                size_t k = 0;
                while (k < r->n_dep_rules && r->dep_rules[k]->actions[0].kind == DEP_ACTION_SET)
                        k++;
                memmove(r->dep_rules + k + 1, r->dep_rules + k, (r->n_dep_rules - k) * sizeof(DepRule *));
                r->dep_rules[k] = TAKE_PTR(d);
        } else
                r->dep_rules[r->n_dep_rules] = TAKE_PTR(d);
        r->n_dep_rules++;
        return 0;
}

static int parse_versioned(const RulesFile *f, xmlNode *n, const char *attr, RulesVersioned **list, size_t *n_list,
                           DiagList *diags) {
        RulesVersioned v = {}, *nl;
        int q;

        q = rules_parse_range(f, n, &v.since, &v.until, diags);
        if (q < 0)
                return q;
        v.name = strdup(strempty(xml_attr(n, attr)));
        if (!v.name)
                return -ENOMEM;
        v.no_default_deps = streq_ptr(xml_attr(n, "default-dependencies"), "no");
        v.tree = streq_ptr(xml_attr(n, "tree"), "yes");
        if (xml_attr(n, "value")) {
                v.value = strdup(xml_attr(n, "value"));
                v.offline_value = strdup(xml_attr(n, "offline") ?: xml_attr(n, "value"));
        } else if (xml_attr(n, "role"))
                v.value = strdup(xml_attr(n, "role"));
        if (xml_attr(n, "fstype"))
                v.fstype = strdup(xml_attr(n, "fstype"));
        if ((xml_attr(n, "fstype") && !v.fstype) || ((xml_attr(n, "value") || xml_attr(n, "role")) && !v.value))
                goto oom;
        nl = realloc(*list, sizeof(RulesVersioned) * (*n_list + 1));
        if (!nl)
                goto oom;
        *list = nl;
        nl[(*n_list)++] = v;
        return 0;
oom:
        free(v.name);
        free(v.value);
        free(v.offline_value);
        free(v.fstype);
        return -ENOMEM;
}

int rules_parse_dependencies(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q;

                if (xml_is(n, "rule"))
                        q = parse_rule(r, f, n, diags);
                else if (xml_is(n, "perpetual"))
                        q = parse_versioned(f, n, "unit", &r->perpetual, &r->n_perpetual, diags);
                else if (xml_is(n, "mount-point"))
                        q = parse_versioned(f, n, "path", &r->mount_points, &r->n_mount_points, diags);
                else
                        q = parse_versioned(f, n, "name", &r->manager_defaults, &r->n_manager_defaults, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        return error;
}

static bool in_range(unsigned since, unsigned until, unsigned v) {
        return v >= since && (until == 0 || v <= until);
}

size_t rules_dep_count(const Rules *r) {
        return r ? r->n_dep_rules : 0;
}

const DepRule *rules_dep_get(const Rules *r, size_t i) {
        return r && i < r->n_dep_rules ? r->dep_rules[i] : NULL;
}

bool dep_rule_applies(const DepRule *d, UnitType t, unsigned v) {
        return t >= 0 && (d->unit_types & (1U << t)) && in_range(d->since, d->until, v);
}

bool dep_cond_applies(const DepCond *c, unsigned v) {
        return in_range(c->since, c->until, v);
}


const char *rules_manager_default(const Rules *r, const char *name, unsigned v, bool offline) {
        for (size_t i = 0; r && i < r->n_manager_defaults; i++) {
                const RulesVersioned *m = &r->manager_defaults[i];
                if (streq(m->name, name) && in_range(m->since, m->until, v))
                        return offline ? m->offline_value : m->value;
        }
        return NULL;
}

bool rules_mount_point(const Rules *r, const char *role, const char *where, const char *fstype, unsigned v) {
        for (size_t i = 0; r && i < r->n_mount_points; i++) {
                const RulesVersioned *p = &r->mount_points[i];
                const char *rest;

                if (!streq_ptr(p->value, role) || !in_range(p->since, p->until, v))
                        continue;
                if (p->fstype) {
                        if (fstype && streq(p->fstype, fstype))
                                return true;
                        continue;
                }
                if (!where)
                        continue;
                if (streq(where, p->name))
                        return true;
                rest = p->tree ? startswith(where, p->name) : NULL;
                if (rest && (rest[0] == '/' || streq(p->name, "/")))
                        return true;
        }
        return false;
}

bool rules_unit_is_perpetual(const Rules *r, const char *name, unsigned v, bool *ret_no_default_deps) {
        for (size_t i = 0; r && i < r->n_perpetual; i++)
                if (streq(r->perpetual[i].name, name) && in_range(r->perpetual[i].since, r->perpetual[i].until, v)) {
                        if (ret_no_default_deps)
                                *ret_no_default_deps = r->perpetual[i].no_default_deps;
                        return true;
                }
        if (ret_no_default_deps)
                *ret_no_default_deps = false;
        return false;
}
