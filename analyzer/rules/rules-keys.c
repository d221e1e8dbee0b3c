/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/xml-util.h"
#include "rules/rules-internal.h"

#define ALL_UNIT_TYPES ((1U << _UNIT_TYPE_MAX) - 1)

static const char * const key_kind_table[_KEY_KIND_MAX] = {
        [KEY_SINGLE] = "single",
        [KEY_LIST] = "list",
        [KEY_DEPENDENCY] = "dependency",
        [KEY_CONDITION] = "condition",
        [KEY_ASSERT] = "assert",
        [KEY_LISTEN] = "listen",
};

static const char * const value_type_table[_VALUE_TYPE_MAX] = {
        [VALUE_STRING] = "string",
        [VALUE_BOOL] = "bool",
        [VALUE_UNIT_LIST] = "unit-list",
        [VALUE_PATH_LIST] = "path-list",
        [VALUE_PATH] = "path",
        [VALUE_EXEC] = "exec",
        [VALUE_ENUM] = "enum",
};

static const char * const value_syntax_table[_VALUE_SYNTAX_MAX] = {
        [VALUE_SYNTAX_NONE] = "none",
        [VALUE_SYNTAX_INT] = "int",
        [VALUE_SYNTAX_USER_GROUP] = "user-group",
        [VALUE_SYNTAX_USER_GROUP_LIST] = "user-group-list",
        [VALUE_SYNTAX_ABSOLUTE_PATH] = "absolute-path",
        [VALUE_SYNTAX_ABSOLUTE_PATH_LIST] = "absolute-path-list",
        [VALUE_SYNTAX_WORKING_DIRECTORY] = "working-directory",
        [VALUE_SYNTAX_IFNAME] = "ifname",
        [VALUE_SYNTAX_NAMESPACES] = "namespaces",
        [VALUE_SYNTAX_SOCKET_ADDRESS] = "socket-address",
        [VALUE_SYNTAX_CALENDAR] = "calendar",
        [VALUE_SYNTAX_DEVICE_ALLOW] = "device-allow",
        [VALUE_SYNTAX_SOCKET_BIND] = "socket-bind",
        [VALUE_SYNTAX_SIGNAL] = "signal",
        [VALUE_SYNTAX_EXIT_STATUS_LIST] = "exit-status-list",
        [VALUE_SYNTAX_DOCUMENTATION] = "documentation",
};

const char *value_syntax_to_string(ValueSyntax x) {
        return x >= 0 && x < _VALUE_SYNTAX_MAX ? value_syntax_table[x] : NULL;
}

ValueSyntax value_syntax_from_string(const char *s) {
        int i = string_table_lookup(value_syntax_table, ELEMENTSOF(value_syntax_table), s);
        return i < 0 ? _VALUE_SYNTAX_INVALID : (ValueSyntax) i;
}

const char *key_kind_to_string(KeyKind k) {
        return k >= 0 && k < _KEY_KIND_MAX ? key_kind_table[k] : NULL;
}

KeyKind key_kind_from_string(const char *s) {
        int i = string_table_lookup(key_kind_table, ELEMENTSOF(key_kind_table), s);
        return i < 0 ? _KEY_KIND_INVALID : (KeyKind) i;
}

const char *value_type_to_string(ValueType t) {
        return t >= 0 && t < _VALUE_TYPE_MAX ? value_type_table[t] : NULL;
}

ValueType value_type_from_string(const char *s) {
        int i = string_table_lookup(value_type_table, ELEMENTSOF(value_type_table), s);
        return i < 0 ? _VALUE_TYPE_INVALID : (ValueType) i;
}

static KeyEntry *key_entry_free(KeyEntry *e) {
        if (!e)
                return NULL;
        free((char *) e->info.name);
        free((char *) e->info.renamed_to);
        strv_free(e->info.values);
        free(e->value_since);
        free(e->value_until);
        for (size_t i = 0; i < e->n_facts; i++) {
                free(e->facts[i].text);
                free(e->facts[i].value);
                free(e->facts[i].if_key);
                strv_free(e->facts[i].if_values);
        }
        free(e->facts);
        return mfree(e);
}
static inline void key_entry_freep(KeyEntry **e) {
        key_entry_free(*e);
}

void rules_unit_keys_done(Rules *r) {
        for (size_t i = 0; i < r->n_keys; i++)
                key_entry_free(r->keys[i]);
        r->keys = mfree(r->keys);
        r->n_keys = r->allocated_keys = 0;
        hashmap_done(&r->keys_by_name);
}

static KeyEntry *entry_of(const KeyInfo *k) {
        return (KeyEntry *) ((char *) k - offsetof(KeyEntry, info));
}

static bool ranges_overlap(unsigned s1, unsigned u1, unsigned s2, unsigned u2) {
        unsigned e1 = u1 ?: UINT32_MAX, e2 = u2 ?: UINT32_MAX;
        return s1 <= e2 && s2 <= e1;
}

static bool entries_collide(const KeyEntry *a, const KeyEntry *b) {
        if (a->type_section != b->type_section)
                return false;
        if (!a->type_section && !streq(a->info.section, b->info.section))
                return false;
        if (!(a->info.unit_types & b->info.unit_types))
                return false;
        return ranges_overlap(a->info.since, a->info.until, b->info.since, b->info.until);
}

static int parse_values(KeyEntry *e, const RulesFile *f, xmlNode *n, DiagList *diags) {
        size_t m = 0;
        int q;

        XML_FOREACH_ELEMENT(c, n)
                if (xml_is(c, "value"))
                        m++;
        if (m == 0)
                return e->info.type == VALUE_ENUM
                               ? rules_bad(diags, f->path, xml_line(n), "enum key %s= has no <value>",
                                          e->info.name)
                               : 0;
        if (e->info.type != VALUE_ENUM && e->info.type != VALUE_BOOL && e->info.syntax != VALUE_SYNTAX_NAMESPACES)
                return rules_bad(diags, f->path, xml_line(n),
                                "<value> is only allowed for type=\"enum\", type=\"bool\" and "
                                "syntax=\"namespaces\" (key %s=)",
                                e->info.name);

        e->value_since = calloc(m, sizeof(unsigned));
        e->value_until = calloc(m, sizeof(unsigned));
        if (!e->value_since || !e->value_until)
                return -ENOMEM;
        m = 0;
        XML_FOREACH_ELEMENT(c, n) {
                const char *v = xml_attr(c, "name");

                if (!xml_is(c, "value"))
                        continue;
                if (isempty(v))
                        return rules_bad(diags, f->path, xml_line(c), "empty <value> name");
                if (strv_contains(e->info.values, v))
                        return rules_bad(diags, f->path, xml_line(c), "duplicate value \"%s\" of %s=",
                                        v, e->info.name);
                q = rules_parse_version(f, c, "since", false, &e->value_since[m], diags);
                if (q >= 0)
                        q = rules_parse_version(f, c, "until", false, &e->value_until[m], diags);
                if (q < 0)
                        return q;
                if (e->value_until[m] > 0 && e->value_since[m] > e->value_until[m])
                        return rules_bad(diags, f->path, xml_line(c),
                                        "value \"%s\" of %s=: since=%u is after until=%u", v, e->info.name,
                                        e->value_since[m], e->value_until[m]);
                if (e->value_since[m] > 0 && e->value_since[m] < e->info.since)
                        return rules_bad(diags, f->path, xml_line(c),
                                        "value \"%s\" of %s= is older (since=%u) than its key (since=%u)", v,
                                        e->info.name, e->value_since[m], e->info.since);
                if (strv_extend(&e->info.values, v) < 0)
                        return -ENOMEM;
                m++;
        }
        return 0;
}

static int parse_number(const char *s, long long *ret) {
        char *end;
        long long x;

        if (isempty(s))
                return -EINVAL;
        errno = 0;
        x = strtoll(s, &end, 10);
        if (errno != 0 || *end != 0)
                return -EINVAL;
        *ret = x;
        return 0;
}

static int parse_unit_types(const RulesFile *f, xmlNode *n, unsigned *ret_mask, const char **ret_section,
                            DiagList *diags);

/* if-key="KEY" if-values="A B" if-unset="yes" of a <range>: the range holds only while KEY, set before in the
 * unit, has one of those values (or, with if-unset, is not set). All ranges of a key that have a condition name the
 * same KEY (KeyInfo.range_if_key). */
static int parse_range_condition(KeyEntry *e, KeyFact *x, const RulesFile *f, xmlNode *c, DiagList *diags) {
        const char *key = xml_attr(c, "if-key"), *values = xml_attr(c, "if-values"), *unset = xml_attr(c, "if-unset");

        if (!key) {
                if (values || unset)
                        return rules_bad(diags, f->path, xml_line(c), "<range> of %s=: if-values= or if-unset= "
                                         "without if-key=", e->info.name);
                return 0;
        }
        if (isempty(key) || isempty(values))
                return rules_bad(diags, f->path, xml_line(c), "<range> of %s=: if-key= needs a key and if-values=",
                                 e->info.name);
        if (e->info.range_if_key && !streq(e->info.range_if_key, key))
                return rules_bad(diags, f->path, xml_line(c), "<range> of %s=: if-key=%s, but another range "
                                 "depends on %s=", e->info.name, key, e->info.range_if_key);
        x->if_key = strdup(key);
        if (!x->if_key)
                return -ENOMEM;
        for (const char *p = values + strspn(values, WHITESPACE); *p; p += strspn(p, WHITESPACE)) {
                size_t n = strcspn(p, WHITESPACE);
                if (strv_push(&x->if_values, strndup_safe(p, n)) < 0)
                        return -ENOMEM;
                p += n;
        }
        x->if_unset = unset && parse_boolean(unset) > 0;
        e->info.range_if_key = x->if_key;
        /* the reason a value outside it is refused, made once: "out of range 1..99 while CPUSchedulingPolicy= is
         * fifo or rr" */
        _cleanup_(freep) char *list = NULL;
        STRV_FOREACH(w, x->if_values) {
                char *l = NULL;
                if (asprintf_safe(&l, "%s%s%s", strempty(list), !list ? "" : w[1] ? ", " : " or ", *w) < 0)
                        return -ENOMEM;
                free(list);
                list = l;
        }
        if (asprintf_safe(&x->text, "out of range %lld..%lld while %s= is %s%s", x->min, x->max, key, list,
                          x->if_unset ? " (or not set)" : "") < 0)
                return -ENOMEM;
        return 0;
}

/* Can two facts of one kind hold for the same unit at once? Not two ranges with conditions that exclude each other. */
static bool conditions_meet(const KeyFact *a, const KeyFact *b) {
        if (!a->if_key || !b->if_key)
                return !a->if_key && !b->if_key;
        if (a->if_unset && b->if_unset)
                return true;
        STRV_FOREACH(w, a->if_values)
                if (strv_contains(b->if_values, *w))
                        return true;
        return false;
}

/* <range>, <fatal>, <empty>, <warn>, <unsupported>: one KeyFact each; two facts of one kind must not overlap in
 * versions */
static int parse_facts(KeyEntry *e, const RulesFile *f, xmlNode *n, DiagList *diags) {
        static const char * const names[_KEY_FACT_KIND_MAX] = {
                [KEY_FACT_RANGE] = "range",
                [KEY_FACT_FATAL] = "fatal",
                [KEY_FACT_EMPTY] = "empty",
                [KEY_FACT_WARN] = "warn",
                [KEY_FACT_UNSUPPORTED] = "unsupported",
        };
        size_t m = 0;
        int q;

        XML_FOREACH_ELEMENT(c, n)
                for (KeyFactKind k = 0; k < _KEY_FACT_KIND_MAX; k++)
                        m += xml_is(c, names[k]);
        if (m == 0)
                return 0;
        e->facts = calloc(m, sizeof(KeyFact));
        if (!e->facts)
                return -ENOMEM;
        XML_FOREACH_ELEMENT(c, n) {
                KeyFact *x = &e->facts[e->n_facts];
                const char *a;
                KeyFactKind k;

                for (k = 0; k < _KEY_FACT_KIND_MAX; k++)
                        if (xml_is(c, names[k]))
                                break;
                if (k == _KEY_FACT_KIND_MAX)
                        continue;
                x->kind = k;
                q = rules_parse_version(f, c, "since", false, &x->since, diags);
                if (q >= 0)
                        q = rules_parse_version(f, c, "until", false, &x->until, diags);
                if (q < 0)
                        return q;
                if (x->until > 0 && x->since > x->until)
                        return rules_bad(diags, f->path, xml_line(c), "<%s> of %s=: since=%u is after until=%u",
                                        names[k], e->info.name, x->since, x->until);
                if (k == KEY_FACT_RANGE) {
                        if ((a = xml_attr(c, "min"))) {
                                if (parse_number(a, &x->min) < 0)
                                        return rules_bad(diags, f->path, xml_line(c), "bad min=\"%s\" of %s=", a,
                                                        e->info.name);
                                x->has_min = true;
                        }
                        if ((a = xml_attr(c, "max"))) {
                                if (parse_number(a, &x->max) < 0)
                                        return rules_bad(diags, f->path, xml_line(c), "bad max=\"%s\" of %s=", a,
                                                        e->info.name);
                                x->has_max = true;
                        }
                        if (x->has_min && x->has_max && x->min > x->max)
                                return rules_bad(diags, f->path, xml_line(c), "<range> of %s=: min is above max",
                                                e->info.name);
                        q = parse_range_condition(e, x, f, c, diags);
                        if (q < 0)
                                return q;
                } else if (k == KEY_FACT_EMPTY)
                        x->empty_reset = streq(strempty(xml_attr(c, "means")), "reset");
                else if (k == KEY_FACT_WARN) {
                        _cleanup_(freep) char *t = xml_text(c);
                        if (!t)
                                return -ENOMEM;
                        if (isempty(t))
                                return rules_bad(diags, f->path, xml_line(c), "empty <warn> of %s=", e->info.name);
                        x->text = TAKE_PTR(t);
                        if ((a = xml_attr(c, "value")) && !(x->value = strdup(a)))
                                return -ENOMEM;
                } else if (k == KEY_FACT_UNSUPPORTED) {
                        const char *ignored;
                        q = parse_unit_types(f, c, &x->unit_types, &ignored, diags);
                        if (q < 0)
                                return q;
                        if (x->unit_types & ~e->info.unit_types)
                                return rules_bad(diags, f->path, xml_line(c),
                                                "<unsupported> of %s= names a unit type whose section has no such key",
                                                e->info.name);
                }
                for (size_t i = 0; i < e->n_facts; i++)
                        if (e->facts[i].kind == k && streq_ptr(e->facts[i].value, x->value) &&
                            conditions_meet(&e->facts[i], x) &&
                            ranges_overlap(e->facts[i].since, e->facts[i].until, x->since, x->until)) {
                                x->text = mfree(x->text);
                                x->value = mfree(x->value);
                                x->if_key = mfree(x->if_key);
                                x->if_values = strv_free(x->if_values);
                                return rules_bad(diags, f->path, xml_line(c),
                                                "two <%s> facts of %s= hold for the same version", names[k],
                                                e->info.name);
                        }
                e->n_facts++;
        }
        return 0;
}

static int parse_key(Rules *r, const RulesFile *f, xmlNode *n, const char *section, bool type_section,
                     unsigned unit_types, DiagList *diags) {
        _cleanup_(key_entry_freep) KeyEntry *e = NULL;
        const char *name = xml_attr(n, "name"), *s;
        KeyEntry *head;
        int q;

        if (isempty(name) || strpbrk(name, "= \t\n[]"))
                return rules_bad(diags, f->path, xml_line(n), "invalid key name \"%s\"", strempty(name));

        e = calloc(1, sizeof(KeyEntry));
        if (!e)
                return -ENOMEM;
        e->info.name = strdup(name);
        if (!e->info.name)
                return -ENOMEM;
        e->info.section = section;
        e->info.unit_types = unit_types;
        e->type_section = type_section;
        e->file = f->path;
        e->line = xml_line(n);
        e->info.kind = key_kind_from_string(strempty(xml_attr(n, "kind")));
        e->info.type = value_type_from_string(strempty(xml_attr(n, "type")));
        if (e->info.kind < 0 || e->info.type < 0) /* the schema lets nothing else through */
                return rules_bad(diags, f->path, e->line, "bad kind= or type= of key %s=", name);

        q = rules_parse_version(f, n, "since", true, &e->info.since, diags);
        if (q >= 0)
                q = rules_parse_version(f, n, "until", false, &e->info.until, diags);
        if (q >= 0)
                q = rules_parse_version(f, n, "ignored-since", false, &e->info.ignored_since, diags);
        if (q < 0)
                return q;
        if (e->info.until > 0 && e->info.since > e->info.until)
                return rules_bad(diags, f->path, e->line, "key %s=: since=%u is after until=%u", name,
                                e->info.since, e->info.until);
        if (e->info.ignored_since > 0 && (e->info.ignored_since < e->info.since ||
                                          (e->info.until && e->info.ignored_since > e->info.until)))
                return rules_bad(diags, f->path, e->line,
                                "key %s=: ignored-since=%u is outside since=%u..until=%u", name,
                                e->info.ignored_since, e->info.since, e->info.until);
        s = xml_attr(n, "renamed-to");
        if (s && !(e->info.renamed_to = strdup(s)))
                return -ENOMEM;

        s = xml_attr(n, "syntax");
        if (s) {
                e->info.syntax = value_syntax_from_string(s);
                if (e->info.syntax <= VALUE_SYNTAX_NONE) /* the schema lets nothing else through */
                        return rules_bad(diags, f->path, e->line, "bad syntax= of key %s=", name);
        }

        q = parse_values(e, f, n, diags);
        if (q >= 0)
                q = parse_facts(e, f, n, diags);
        if (q < 0)
                return q;

        head = hashmap_get(&r->keys_by_name, name);
        for (KeyEntry *o = head; o; o = o->next)
                if (entries_collide(o, e))
                        return rules_bad(diags, f->path, e->line,
                                        "key %s= is defined twice for the same section, unit type and version "
                                        "(first at %s:%u)", name, o->file, o->line);

        if (GREEDY_REALLOC(r->keys, r->allocated_keys, r->n_keys + 1) < 0)
                return -ENOMEM;
        if (head) {
                /* append, so that lookups see entries in file order */
                KeyEntry *last = head;
                while (last->next)
                        last = last->next;
                last->next = e;
        } else {
                q = hashmap_put(&r->keys_by_name, e->info.name, e);
                if (q < 0)
                        return q;
        }
        r->keys[r->n_keys++] = TAKE_PTR(e);
        return 0;
}

/* unit-types="service socket": the mask, and the section name of the first type (KeyInfo.section). */
static int parse_unit_types(const RulesFile *f, xmlNode *n, unsigned *ret_mask, const char **ret_section,
                            DiagList *diags) {
        const char *s = strempty(xml_attr(n, "unit-types"));
        unsigned mask = 0;
        UnitType first = _UNIT_TYPE_MAX;

        while (*s) {
                size_t l;
                _cleanup_(freep) char *w = NULL;
                UnitType t;

                s += strspn(s, " \t\n");
                l = strcspn(s, " \t\n");
                if (l == 0)
                        break;
                w = strndup_safe(s, l);
                if (!w)
                        return -ENOMEM;
                s += l;
                t = unit_type_from_string(w);
                if (t < 0)
                        return rules_bad(diags, f->path, xml_line(n), "unknown unit type \"%s\"", w);
                if (!rules_type_section(t))
                        return rules_bad(diags, f->path, xml_line(n),
                                        "%s units have no section of their own", w);
                if (mask & (1U << t))
                        return rules_bad(diags, f->path, xml_line(n), "unit type \"%s\" listed twice",
                                        w);
                first = MIN(first, t);
                mask |= 1U << t;
        }
        if (mask == 0)
                return rules_bad(diags, f->path, xml_line(n), "unit-types= is empty");
        *ret_mask = mask;
        *ret_section = rules_type_section(first);
        return 0;
}

int rules_parse_unit_keys(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(g, xmlDocGetRootElement(doc)) {
                const char *section = NULL;
                unsigned mask = 0;
                bool type_section;
                int q;

                if (xml_is(g, "section")) {
                        /* the schema allows Unit and Install only; use static strings, entries borrow them */
                        section = streq(strempty(xml_attr(g, "name")), "Install") ? "Install" : "Unit";
                        mask = ALL_UNIT_TYPES;
                        type_section = false;
                } else {
                        q = parse_unit_types(f, g, &mask, &section, diags);
                        if (q == -ENOMEM)
                                return q;
                        if (q < 0) {
                                error = error ?: q;
                                continue;
                        }
                        type_section = true;
                }
                XML_FOREACH_ELEMENT(k, g) {
                        q = parse_key(r, f, k, section, type_section, mask, diags);
                        if (q == -ENOMEM)
                                return q;
                        if (q < 0)
                                error = error ?: q; /* go on: report every bad key at once */
                }
        }
        return error;
}

int rules_unit_keys_finish(Rules *r, DiagList *diags) {
        int error = 0;

        for (size_t i = 0; i < r->n_keys; i++) {
                const KeyEntry *e = r->keys[i];

                if (e->info.renamed_to && !hashmap_get(&r->keys_by_name, e->info.renamed_to))
                        error = rules_bad(diags, e->file, e->line, "key %s= is renamed to unknown key %s=",
                                         e->info.name, e->info.renamed_to);
        }
        return error;
}

const KeyInfo *rules_key_lookup(const Rules *r, UnitType t, const char *section, const char *key, unsigned v) {
        bool own;

        if (!r || !section || !key || t < 0 || t >= _UNIT_TYPE_MAX)
                return NULL;
        own = !streq(section, "Unit") && !streq(section, "Install");
        if (own && !rules_section_is_valid(t, section))
                return NULL;
        for (const KeyEntry *e = hashmap_get(&r->keys_by_name, key); e; e = e->next) {
                if (e->type_section != own || (!own && !streq(e->info.section, section)))
                        continue;
                if (!(e->info.unit_types & (1U << t)))
                        continue;
                if (v < e->info.since || (e->info.until > 0 && v > e->info.until))
                        continue;
                return &e->info;
        }
        return NULL;
}

const KeyInfo *rules_key_lookup_any(const Rules *r, const char *key) {
        const KeyEntry *best = NULL;

        if (!r || !key)
                return NULL;
        /* the entry that appeared first: "not known to systemd N (it appeared in M)" names the earliest M */
        for (const KeyEntry *e = hashmap_get(&r->keys_by_name, key); e; e = e->next)
                if (!best || e->info.since < best->info.since)
                        best = e;
        return best ? &best->info : NULL;
}

size_t rules_key_count(const Rules *r) {
        return r ? r->n_keys : 0;
}

const KeyInfo *rules_key_get(const Rules *r, size_t i) {
        return r && i < r->n_keys ? &r->keys[i]->info : NULL;
}

bool rules_key_value_known(const KeyInfo *k, const char *value, unsigned v) {
        const KeyEntry *e;
        size_t i = 0;

        if (!k || !value)
                return false;
        if (k->type != VALUE_ENUM && k->type != VALUE_BOOL)
                return true;
        if (k->type == VALUE_BOOL && parse_boolean(value) >= 0)
                return true;
        e = entry_of(k);
        STRV_FOREACH(w, k->values) {
                bool match = endswith(*w, ":") ? !!startswith(value, *w) : streq(value, *w);
                if (match)
                        return v >= e->value_since[i] && (e->value_until[i] == 0 || v <= e->value_until[i]);
                i++;
        }
        return false;
}

int rules_key_value_since(const KeyInfo *k, const char *value, unsigned *ret_since, unsigned *ret_until) {
        const KeyEntry *e;
        size_t i = 0;

        if (!k || !value)
                return -EINVAL;
        e = entry_of(k);
        STRV_FOREACH(w, k->values) {
                if (endswith(*w, ":") ? !!startswith(value, *w) : streq(value, *w)) {
                        if (ret_since)
                                *ret_since = e->value_since[i];
                        if (ret_until)
                                *ret_until = e->value_until[i];
                        return 0;
                }
                i++;
        }
        return -ENOENT;
}

static bool fact_holds(const KeyFact *x, unsigned v) {
        return v >= x->since && (x->until == 0 || v <= x->until);
}

static const KeyFact *fact_at(const KeyInfo *k, KeyFactKind kind, unsigned v) {
        const KeyEntry *e = entry_of(k);

        for (size_t i = 0; i < e->n_facts; i++)
                if (e->facts[i].kind == kind && !e->facts[i].if_key && fact_holds(&e->facts[i], v))
                        return &e->facts[i];
        return NULL;
}

int rules_key_check_range_given(const KeyInfo *k, const char *value, unsigned v, const char *given,
                                const char **ret_why) {
        const KeyEntry *e;
        long long x;

        if (!k || !value)
                return -EINVAL;
        e = entry_of(k);
        for (size_t i = 0; i < e->n_facts; i++) {
                const KeyFact *r = &e->facts[i];
                if (r->kind != KEY_FACT_RANGE || !r->if_key || !fact_holds(r, v))
                        continue;
                if (given ? !strv_contains(r->if_values, given) : !r->if_unset)
                        continue;
                if (parse_number(value, &x) < 0)
                        return -EINVAL;
                if ((r->has_min && x < r->min) || (r->has_max && x > r->max)) {
                        if (ret_why)
                                *ret_why = r->text;
                        return 0;
                }
                return 1;
        }
        return -ENOENT;
}

bool rules_key_fatal(const KeyInfo *k, unsigned v) {
        return k && fact_at(k, KEY_FACT_FATAL, v);
}

bool rules_key_unsupported(const KeyInfo *k, UnitType t, unsigned v) {
        const KeyFact *x = k ? fact_at(k, KEY_FACT_UNSUPPORTED, v) : NULL;
        return x && t >= 0 && t < _UNIT_TYPE_MAX && (x->unit_types & (1U << t));
}

const char *rules_key_warning(const KeyInfo *k, unsigned v, const char *value) {
        const KeyEntry *e = k ? entry_of(k) : NULL;

        if (!k)
                return NULL;
        for (size_t i = 0; i < e->n_facts; i++) {
                const KeyFact *x = &e->facts[i];
                if (x->kind == KEY_FACT_WARN && fact_holds(x, v) && (!x->value || streq_ptr(x->value, value)))
                        return x->text;
        }
        return NULL;
}

/* Inside every <range> of v (a missing bound is no bound; no <range>: any number). */
static bool in_range(const KeyInfo *k, long long x, unsigned v) {
        const KeyFact *r = fact_at(k, KEY_FACT_RANGE, v);
        return !r || ((!r->has_min || x >= r->min) && (!r->has_max || x <= r->max));
}

/* A user or group name as systemd's valid_user_group_name(VALID_USER_RELAX) takes it, or a numeric id. */
static bool user_group_ok(const char *s) {
        size_t n = strlen(s);

        if (n == 0 || n > 256 || s[0] == '-' || streq(s, ".") || streq(s, ".."))
                return false;
        for (const char *p = s; *p; p++)
                if (strchr(":/,", *p) || (unsigned char) *p <= ' ' || *p == 127)
                        return false;
        return true;
}

/* As path_simplify_and_warn() (src/basic/path-util.c@v247, src/shared/parse-helpers.c@v257): absolute, and
 * normalized once "//" and "." components are dropped ("/tmp///./x/." is /tmp/x); ".." stays wrong. */
static bool abs_path_ok(const char *s) {
        _cleanup_(freep) char *simple = NULL;

        if (!path_is_absolute(s))
                return false;
        simple = path_simplify_dup(s);
        return simple && path_is_normalized(simple);
}

/* config_parse_device_allow() (src/core/load-fragment.c@v247..v261): the first word (quotes taken off) is
 * block-NAME, char-NAME, or a normalized path below /dev/ or /run/systemd/inaccessible/ (path_simplify_and_warn(),
 * valid_device_node_path()); what follows, if anything, only of r, w and m. NULL when good, else why not. */
/* The word at p as extract_first_word(EXTRACT_UNQUOTE) gives it, for a word quoted whole or not at all: a new
 * string in *ret and where the word ends; NULL with *ret NULL for an unclosed quote (or out of memory). */
static const char *take_word(const char *p, char **ret) {
        if (*p == '"' || *p == '\'') {
                const char *e = strchr(p + 1, *p);
                *ret = e ? strndup_safe(p + 1, (size_t) (e - p - 1)) : NULL;
                return e ? e + 1 : NULL;
        }
        *ret = strndup_safe(p, strcspn(p, WHITESPACE));
        return *ret ? p + strlen(*ret) : NULL;
}

static const char *device_allow_why(const char *value) {
        _cleanup_(freep) char *path = NULL, *simple = NULL;
        const char *p = value + strspn(value, WHITESPACE), *rest;

        rest = take_word(p, &path);
        if (!rest)
                return "a quote that is not closed";
        if (!startswith(path, "block-") && !startswith(path, "char-")) {
                simple = path_simplify_dup(path);
                if (!simple || isempty(simple) || strlen(simple) > PATH_MAX || !path_is_normalized(simple))
                        return "not a normalized path";
                if (!path_startswith_dir(simple, "/dev") && !path_startswith_dir(simple, "/run/systemd/inaccessible"))
                        return "not a device node path (below /dev/ or /run/systemd/inaccessible/, or block- or char-)";
        }
        rest += strspn(rest, WHITESPACE);
        if (*rest && strspn(rest, "rwm") != strlen(rest))
                return "device rights other than r, w and m";
        return NULL;
}

static bool ifname_ok(const KeyInfo *k, const char *s, unsigned v) {
        size_t n = strlen(s);

        if (n == 0 || streq(s, ".") || streq(s, "..") || !in_range(k, (long long) n, v))
                return false;
        for (const char *p = s; *p; p++)
                if (*p == '/' || *p == ':' || (unsigned char) *p <= ' ' || *p == 127)
                        return false;
        return true;
}

static bool namespaces_ok(const KeyInfo *k, const char *s, unsigned v) {
        const char *p = s;

        if (parse_boolean(s) >= 0)
                return true;
        if (*p == '~')
                p++;
        for (p += strspn(p, WHITESPACE); *p; p += strspn(p, WHITESPACE)) {
                size_t n = strcspn(p, WHITESPACE);
                char w[32];

                if (n >= sizeof w)
                        return false;
                memcpy(w, p, n);
                w[n] = 0;
                unsigned since = 0, until = 0;
                if (rules_key_value_since(k, w, &since, &until) < 0 || v < since || (until && v > until))
                        return false;
                p += n;
        }
        return true;
}

int rules_key_check_value(const KeyInfo *k, const char *value, unsigned v, const char **ret_why) {
        const KeyFact *empty;
        const char *why = NULL;
        long long x;

        if (!k || !value)
                return -EINVAL;
        if (isempty(value)) {
                /* single-valued keys only: lists and dependencies have their own empty-assignment rules */
                if (k->kind != KEY_SINGLE)
                        return 0;
                empty = fact_at(k, KEY_FACT_EMPTY, v);
                if (empty ? empty->empty_reset
                          : !(k->type == VALUE_BOOL || k->syntax == VALUE_SYNTAX_INT))
                        return 0;
                why = "an empty value is not accepted";
                goto bad;
        }
        if (k->type == VALUE_BOOL || k->type == VALUE_ENUM) {
                if (strchr(value, '%') && k->type == VALUE_ENUM)
                        return 0;
                if (!rules_key_value_known(k, value, v)) {
                        why = k->type == VALUE_BOOL ? "not a boolean" : "not a value this version accepts";
                        goto bad;
                }
        }
        if (strchr(value, '%'))
                return 0; /* specifiers: judged after expansion, which may not be known offline */
        switch (k->syntax) {
        case VALUE_SYNTAX_INT:
                if (parse_number(value, &x) < 0) {
                        why = "not a number";
                        goto bad;
                }
                if (!in_range(k, x, v)) {
                        why = "out of range";
                        goto bad;
                }
                break;
        case VALUE_SYNTAX_USER_GROUP:
                if (!user_group_ok(value)) {
                        why = "not a valid user or group name";
                        goto bad;
                }
                break;
        case VALUE_SYNTAX_USER_GROUP_LIST:
                for (const char *p = value + strspn(value, WHITESPACE); *p; p += strspn(p, WHITESPACE)) {
                        size_t n = strcspn(p, WHITESPACE);
                        _cleanup_(freep) char *w = strndup_safe(p, n);
                        if (!w)
                                return -ENOMEM;
                        if (!user_group_ok(w)) {
                                why = "not a valid user or group name";
                                goto bad;
                        }
                        p += n;
                }
                break;
        case VALUE_SYNTAX_ABSOLUTE_PATH:
                if (!abs_path_ok(value)) {
                        why = "not an absolute, normalized path";
                        goto bad;
                }
                break;
        case VALUE_SYNTAX_ABSOLUTE_PATH_LIST:
                for (const char *p = value + strspn(value, WHITESPACE); *p; p += strspn(p, WHITESPACE)) {
                        _cleanup_(freep) char *w = NULL;
                        p = take_word(p, &w);
                        if (!p) {
                                why = "a quote that is not closed";
                                goto bad;
                        }
                        if (!abs_path_ok(w)) {
                                why = "a path that is not absolute and normalized";
                                goto bad;
                        }
                }
                break;
        case VALUE_SYNTAX_DEVICE_ALLOW:
                if ((why = device_allow_why(value)))
                        goto bad;
                break;
        case VALUE_SYNTAX_WORKING_DIRECTORY: {
                const char *p = value[0] == '-' ? value + 1 : value;
                if (!streq(p, "~") && !abs_path_ok(p)) {
                        why = "neither ~ nor an absolute, normalized path";
                        goto bad;
                }
                break;
        }
        case VALUE_SYNTAX_IFNAME:
                if (!ifname_ok(k, value, v)) {
                        why = "not a valid interface name";
                        goto bad;
                }
                break;
        case VALUE_SYNTAX_NAMESPACES:
                if (!namespaces_ok(k, value, v)) {
                        why = "not a boolean or a list of namespace types this version knows";
                        goto bad;
                }
                break;
        default:
                break;
        }
        return 0;
bad:
        if (ret_why)
                *ret_why = why;
        return -EINVAL;
}
