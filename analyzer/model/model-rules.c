/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The dependency rules (rules/dependencies.xml) applied to one unit: the values and conditions a rule asks for,
 * templates, the edges written in the unit's files, and the actions of the rules that hold. */
#include <fnmatch.h>

#include "load/specifier.h"
#include "load/unit-values.h"
#include "load/unit-words.h"
#include "model/model-internal.h"

/* ---- values a rule can ask for */

static const char *type_section(const ModelUnit *mu) {
        return rules_type_section(mu->unit->type);
}

/* A bit for a key, of 64: the rules ask each unit about some fifty keys, most of which it does not set. A unit's
 * effective keys as such bits (st_keys) tell most of those at once, without a look at its settings. */
uint64_t model_setting_key_bit(const char *key) {
        unsigned a = (unsigned char) key[0], b = a ? (unsigned char) key[1] : 0, c = b ? (unsigned char) key[2] : 0,
                 d = c ? (unsigned char) key[3] : 0;
        unsigned h = ((a * 31u + b) * 31u + c) * 31u + d;

        return UINT64_C(1) << ((h ^ (h >> 6)) & 63);
}

/* Assignment i of the unit is an effective one of section.key. */
static inline bool setting_matches(const ModelUnit *mu, size_t i, const char *section, const char *key) {
        const Setting *s = &mu->unit->settings[i];
        return s->key[0] == key[0] && mu->st[i] == SETTING_EFFECTIVE && streq(s->key, key) &&
               streq(s->section, section);
}

/* The effective value of section.key (section NULL: the unit type's own), after normalisations. For list keys
 * the effective assignments joined by spaces. NULL when unset or empty. *ret_free gets an allocation to free. */
const char *model_setting_value(const Model *m, const ModelUnit *mu, const char *section, const char *key,
                                char **ret_free) {
        const Unit *u = mu->unit;
        const KeyInfo *k;
        char *joined = NULL;
        size_t first = SIZE_MAX, last = 0;

        *ret_free = NULL;
        for (size_t i = 0; mu->set_keys && mu->set_keys[i]; i++)
                if (streq(mu->set_keys[i], key))
                        return mu->set_values[i];
        if (!u || !mu->st || !(mu->st_keys & model_setting_key_bit(key)))
                return NULL;
        if (!section) {
                section = type_section(mu);
                if (!section)
                        return NULL;
        }
        /* most units do not set most keys: find the assignments before asking the rules what kind of key it is */
        for (size_t i = 0; i < u->n_settings; i++)
                if (setting_matches(mu, i, section, key)) {
                        if (first == SIZE_MAX)
                                first = i;
                        last = i;
                }
        if (first == SIZE_MAX)
                return NULL;
        k = rules_key_lookup(m->rules, u->type, section, key, m->opts.systemd);
        if (k && k->kind != KEY_SINGLE) {
                for (size_t i = first; i <= last; i++) {
                        const char *v = u->settings[i].value;
                        char *n;
                        if (isempty(v) || !setting_matches(mu, i, section, key))
                                continue;
                        n = joined ? strjoin(joined, " ", v) : strdup(v);
                        free(joined);
                        if (!n)
                                return NULL;
                        joined = n;
                }
                *ret_free = joined;
                return joined;
        }
        return isempty(u->settings[last].value) ? NULL : u->settings[last].value;
}

/* Computed variables: id, stem, prefix, instance, where, what, fstype. */
int model_var_value(const Model *m, const ModelUnit *mu, const char *name, char **ret) {
        const Unit *u = mu->unit;
        _cleanup_(freep) char *stem = NULL, *f = NULL;
        const char *v;
        int r;

        *ret = NULL;
        if (streq(name, "id")) {
                *ret = strdup(u->id);
                return *ret ? 0 : -ENOMEM;
        }
        if (streq(name, "prefix"))
                return unit_name_to_prefix(u->id, ret);
        if (streq(name, "instance"))
                return unit_name_to_instance(u->id, ret);
        if (streq(name, "stem"))
                return unit_name_strip_suffix(u->id, ret);
        /* the rules ask every unit where and what it mounts: most are no mounts, and have neither */
        if (streq(name, "where")) {
                if (u->type != UNIT_MOUNT && u->type != UNIT_AUTOMOUNT)
                        return 0;
                v = model_setting_value(m, mu, NULL, "Where", &f);
                if (v) {
                        *ret = path_simplify_dup(v);
                        return *ret ? 0 : -ENOMEM;
                }
                r = unit_name_strip_suffix(u->id, &stem);
                if (r < 0)
                        return r;
                return unit_name_path_unescape(stem, ret) < 0 ? 0 : 0;
        }
        if (streq(name, "what")) {
                if (u->type != UNIT_MOUNT && u->type != UNIT_SWAP)
                        return 0;
                v = model_setting_value(m, mu, NULL, "What", &f);
                if (v) {
                        *ret = strdup(v);
                        return *ret ? 0 : -ENOMEM;
                }
                if (u->type != UNIT_SWAP)
                        return 0;
                r = unit_name_strip_suffix(u->id, &stem);
                if (r < 0)
                        return r;
                (void) unit_name_path_unescape(stem, ret);
                return 0;
        }
        if (streq(name, "fstype")) {
                const MountEntry *e = NULL;
                v = u->type == UNIT_MOUNT ? model_setting_value(m, mu, NULL, "Type", &f) : NULL;
                /* a mount without Type= that is model_mounted: PID 1 knows its type from the mount table */
                if (!v && u->type == UNIT_MOUNT && m->opts.mount_table) {
                        _cleanup_(freep) char *where = NULL;
                        r = model_var_value(m, mu, "where", &where);
                        if (r < 0)
                                return r;
                        e = where ? mount_table_find(m->opts.mount_table, where) : NULL;
                        v = e ? e->fstype : NULL;
                }
                if (v && !(*ret = strdup(v)))
                        return -ENOMEM;
                return 0;
        }
        return -EINVAL;
}

static bool pattern_match(const char *pattern, const char *value) {
        if (pattern[0] == '@' && streq(pattern, "@true"))
                return parse_boolean(value) == 1;
        if (pattern[0] == '@' && streq(pattern, "@false"))
                return parse_boolean(value) == 0;
        /* most patterns are a word: what fnmatch() would say, without it */
        if (!strpbrk(pattern, "*?[\\"))
                return streq(pattern, value);
        return fnmatch(pattern, value, 0) == 0;
}

static bool value_matches(const DepCond *c, const char *value) {
        if (isempty(value))
                return false;
        if (c->word) {
                const char *p = value;
                while (*p) {
                        size_t n = strcspn(p, ", \t\n");
                        char w[256];
                        if (n > 0 && n < sizeof(w)) {
                                memcpy(w, p, n);
                                w[n] = 0;
                                STRV_FOREACH(pat, c->patterns)
                                        if (pattern_match(*pat, w))
                                                return true;
                        }
                        p += n;
                        if (*p)
                                p++;
                }
                return false;
        }
        STRV_FOREACH(pat, c->patterns)
                if (pattern_match(*pat, value))
                        return true;
        return false;
}

static int cond_holds(const Model *m, const ModelUnit *mu, const DepCond *c) {
        _cleanup_(freep) char *f = NULL;
        const char *v = NULL;
        bool match = false;
        int r;

        switch (c->kind) {
        case DEP_COND_ANY:
                for (size_t i = 0; i < c->n_any; i++) {
                        if (!dep_cond_applies(&c->any[i], m->opts.systemd))
                                continue;
                        r = cond_holds(m, mu, &c->any[i]);
                        if (r != 0)
                                return r;
                }
                return 0;
        case DEP_COND_DISTRO:
                match = m->opts.distro && strv_contains(c->patterns, m->opts.distro);
                break;
        case DEP_COND_VAR:
                r = model_var_value(m, mu, c->name, &f);
                if (r == -ENOMEM)
                        return r;
                match = value_matches(c, f);
                break;
        case DEP_COND_SETTING:
                if (c->name[0] == '@')
                        v = rules_manager_default(m->rules, c->name + 1, m->opts.systemd, m->opts.offline);
                else
                        v = model_setting_value(m, mu, c->section, c->name, &f);
                if (!v && c->dflt)
                        v = c->dflt[0] == '@' ? rules_manager_default(m->rules, c->dflt + 1, m->opts.systemd,
                                                                      m->opts.offline)
                                              : c->dflt;
                match = value_matches(c, v);
                break;
        case DEP_COND_MOUNTS_FOR:
                for (size_t i = 0; !match && i < mu->n_mounts_for; i++)
                        match = streq(mu->mounts_for[i].path, c->name);
                break;
        case DEP_COND_LOADED: {
                const ModelUnit *x = model_get(m, c->name);
                match = x && x->loaded;
                break;
        }
        case DEP_COND_AFTER: {
                uint32_t node;
                if (graph_find_node(m->graph, c->name, &node) < 0)
                        break;
                for (int dir = 0; !match && dir < 2; dir++) {
                        EdgeSet e = dir == 0 ? graph_out(m->graph, mu->node) : graph_in(m->graph, mu->node);
                        for (size_t i = 0; !match && i < e.n; i++) {
                                const GraphEdge *ed = graph_edge(m->graph, edge_set_get(&e, i));
                                match = dir == 0 ? ed->type == DEP_AFTER && ed->to == node
                                                 : ed->type == DEP_BEFORE && ed->from == node;
                        }
                }
                break;
        }
        default:
                return -EINVAL;
        }
        return match != c->negate;
}

int model_unit_cond_holds(const Model *m, const ModelUnit *mu, const DepCond *c) {
        return cond_holds(m, mu, c);
}

/* ---- templates: "{name|fn|fn}" */

static int apply_function(const Model *m, const char *fn, char *v, char **ret) {
        _cleanup_(freep) char *in = v;

        *ret = NULL;
        if (streq(fn, "escape"))
                return unit_name_escape(in, ret) < 0 ? -EINVAL : 0;
        if (streq(fn, "path-escape"))
                return unit_name_path_escape(in, ret) < 0 ? -EINVAL : 0;
        if (streq(fn, "device"))
                return unit_name_from_path(in, ".device", ret) < 0 ? -EINVAL : 0;
        if (streq(fn, "mount"))
                return unit_name_from_path(in, ".mount", ret) < 0 ? -EINVAL : 0;
        if (streq(fn, "dirname")) {
                char *slash = strrchr(in, '/');
                if (!slash || streq(in, "/"))
                        return -EINVAL;
                if (slash == in)
                        slash[1] = 0;
                else
                        *slash = 0;
                *ret = TAKE_PTR(in);
                return 0;
        }
        if (streq(fn, "strip-dash")) {
                const char *p = in;
                while (*p == '-' || *p == '+')
                        p++;
                *ret = strdup(p);
                return *ret ? 0 : -ENOMEM;
        }
        if (streq(fn, "before-colon")) {
                /* from 250 a word is SOURCE[:SYMLINK], with escapes; before, the word is the directory */
                if (feature_enabled(&m->features, FEATURE_EXEC_DIRECTORY_SYMLINKS))
                        return words_first_field(in, ':', ret);
                *ret = TAKE_PTR(in);
                return 0;
        }
        if (streq(fn, "parent-slice")) {
                /* "a-b-c.slice" -> "a-b.slice", "a.slice" -> "-.slice", "-.slice" has none */
                char *dot = strrchr(in, '.'), *dash;
                if (!dot || !streq(dot, ".slice") || streq(in, "-.slice"))
                        return -EINVAL;
                *dot = 0;
                dash = strrchr(in, '-');
                if (!dash)
                        *ret = strdup("-.slice");
                else {
                        *dash = 0;
                        *ret = strjoin(in, ".slice");
                }
                return *ret ? 0 : -ENOMEM;
        }
        return -EINVAL;
}

/* Expands t for mu; -ENOENT when a value it needs is unset (the action does not apply). */
static int expand_template(const Model *m, const ModelUnit *mu, const char *t, const char *word, char **ret) {
        _cleanup_(freep) char *out = strdup("");
        int r;

        if (!out)
                return -ENOMEM;
        for (const char *p = t; *p;) {
                const char *open = strchr(p, '{'), *close;
                _cleanup_(freep) char *lit = NULL, *inner = NULL, *val = NULL, *f = NULL;
                char *n, *save = NULL, *tok;

                if (!open) {
                        n = strjoin(out, p);
                        if (!n)
                                return -ENOMEM;
                        free(out);
                        out = n;
                        break;
                }
                close = strchr(open, '}');
                lit = strndup_safe(p, (size_t) (open - p));
                inner = strndup_safe(open + 1, (size_t) (close - open - 1));
                if (!lit || !inner)
                        return -ENOMEM;
                tok = strtok_r(inner, "|", &save);
                if (streq(tok, "word"))
                        val = word ? strdup(word) : NULL;
                else if (tok[0] >= 'a' && tok[0] <= 'z') {
                        r = model_var_value(m, mu, tok, &val);
                        if (r == -ENOMEM)
                                return r;
                } else {
                        const char *dot = strchr(tok, '.'), *v;
                        _cleanup_(freep) char *sec = dot ? strndup_safe(tok, (size_t) (dot - tok)) : NULL;
                        v = model_setting_value(m, mu, sec, dot ? dot + 1 : tok, &f);
                        if (v) {
                                /* specifiers in the value are systemd's business too */
                                SpecifierContext sc = { .unit_name = mu->unit->id, .features = &m->features };
                                if (specifier_expand(v, &sc, SPECIFIER_USE_VALUE, &val, NULL) < 0)
                                        val = strdup(v);
                                if (!val)
                                        return -ENOMEM;
                        }
                }
                if (isempty(val))
                        return -ENOENT;
                while ((tok = strtok_r(NULL, "|", &save))) {
                        char *o;
                        r = apply_function(m, tok, TAKE_PTR(val), &o);
                        if (r < 0)
                                return r == -ENOMEM ? r : -ENOENT;
                        val = o;
                }
                n = strjoin(out, lit, val);
                if (!n)
                        return -ENOMEM;
                free(out);
                out = n;
                p = close + 1;
        }
        *ret = TAKE_PTR(out);
        return 0;
}

/* ---- edges */

static int add_edge_by_name(Model *m, ModelUnit *mu, DepType t, const char *name, uint32_t origin) {
        uint32_t to;
        int r;

        if (!unit_name_is_valid(name, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE))
                return 0;
        r = graph_node(m->graph, name, &to);
        if (r < 0)
                return r;
        r = graph_add_edge(m->graph, mu->node, t, to, origin);
        if (r < 0)
                return r;
        if (to < m->n_node_known && m->node_known[to])
                return 0;
        r = model_enqueue(m, name);
        if (r < 0)
                return r;
        if (to >= m->n_node_known) {
                size_t n = MAX((size_t) to + 1, m->n_node_known * 2);
                uint8_t *k = realloc(m->node_known, n);
                if (!k)
                        return -ENOMEM;
                memset(k + m->n_node_known, 0, n - m->n_node_known);
                m->node_known = k;
                m->n_node_known = n;
        }
        m->node_known[to] = 1;
        return 0;
}

int model_rule_origin(Model *m, size_t i, uint32_t *ret) {
        const DepRule *d = rules_dep_get(m->rules, i);
        int r;

        if (m->rule_origin[i] == 0) {
                uint32_t id;
                r = graph_add_origin(m->graph,
                                     &(Origin) {
                                             .kind = ORIGIN_RULE,
                                             .sd = d->origin,
                                             .file = path_basename(d->file), /* no install paths in output */
                                             .line = d->line,
                                             .rule = d->id,
                                             .class = d->class,
                                             .detail = d->source,
                                             .version = m->opts.systemd,
                                     },
                                     &id);
                if (r < 0)
                        return r;
                m->rule_origin[i] = id + 1;
        }
        *ret = m->rule_origin[i] - 1;
        return 0;
}

static int add_mounts_for(Model *m, ModelUnit *mu, const char *path, bool wants, SdOrigin sd, uint32_t origin) {
        _cleanup_(freep) char *p = path_simplify_dup(path);
        MountsFor *n;

        if (!p)
                return -ENOMEM;
        if (!path_is_absolute(p) || !path_is_normalized(p))
                return 0;
        for (size_t i = 0; i < mu->n_mounts_for; i++)
                if (mu->mounts_for[i].wants == wants && streq(mu->mounts_for[i].path, p)) {
                        mu->mounts_for[i].sd_mask |= 1U << sd;
                        return 0;
                }
        n = realloc(mu->mounts_for, sizeof(MountsFor) * (mu->n_mounts_for + 1));
        if (!n)
                return -ENOMEM;
        mu->mounts_for = n;
        n[mu->n_mounts_for++] = (MountsFor) { .path = TAKE_PTR(p), .wants = wants, .sd_mask = 1U << sd,
                                              .origin = origin };
        if (feature_enabled(&m->features, FEATURE_MOUNTS_FOR_LOAD)) {
                /* systemd loads the mount unit of the path and of each parent, so it knows whether one exists */
                _cleanup_(strv_freep) char **names = NULL;
                if (unit_name_mounts_of_path(n[mu->n_mounts_for - 1].path, &names) < 0)
                        return -ENOMEM;
                STRV_FOREACH(name, names) {
                        int r = model_enqueue(m, *name);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

/* The origins of a unit's settings, links and paths borrow their strings from the unit: the model keeps it as
 * long as the graph. */
static int setting_origin(Model *m, ModelUnit *mu, const Setting *s, uint32_t *ret) {
        const Source *src = &mu->unit->sources[s->source];
        return graph_add_origin_borrowed(m->graph,
                                         &(Origin) {
                                                 .kind = src->dropin ? ORIGIN_DROPIN : ORIGIN_FILE,
                                                 .sd = SD_ORIGIN_FILE,
                                                 .file = src->path,
                                                 .line = s->line,
                                                 .detail = s->key,
                                                 .base = mu->base,
                                         },
                                         ret);
}

/* One dependency setting's edges: the setting's origin is added with the first of them. */
typedef struct FileEdges {
        Model *m;
        ModelUnit *mu;
        const Setting *s;
        DepType type;
        uint32_t origin; /* UINT32_MAX: not added yet */
} FileEdges;

static int add_file_edge(const char *name, void *userdata) {
        FileEdges *fe = userdata;
        int r;

        if (fe->origin == UINT32_MAX) {
                r = setting_origin(fe->m, fe->mu, fe->s, &fe->origin);
                if (r < 0)
                        return r;
        }
        return add_edge_by_name(fe->m, fe->mu, fe->type, name, fe->origin);
}

/* The names the unit's dependency settings and links point to, as written (a word with quotes or specifiers is
 * looked up otherwise, and its fetch is wasted): each edge looks its name up in the graph's table of every name,
 * far larger than the cache, so the graph fetches them all at once first. */
static void prefetch_edge_names(Model *m, const ModelUnit *mu) {
        const Unit *u = mu->unit;
        HashmapKey k[HASHMAP_PREFETCH_MAX];
        size_t n = 0;

        for (size_t i = 0; i < u->n_settings && n < ELEMENTSOF(k); i++) {
                const Setting *s = &u->settings[i];
                if (mu->st[i] != SETTING_EFFECTIVE || !streq(s->section, "Unit") || dep_type_from_key(s->key) < 0)
                        continue;
                for (const char *p = s->value; *p && n < ELEMENTSOF(k);) {
                        size_t w = strcspn(p, WHITESPACE);
                        if (w > 0)
                                k[n++] = (HashmapKey) { p, w };
                        p += w;
                        p += strspn(p, WHITESPACE);
                }
        }
        for (size_t i = 0; i < u->n_links && n < ELEMENTSOF(k); i++)
                if (!u->links[i].masked)
                        k[n++] = (HashmapKey) { u->links[i].name, strlen(u->links[i].name) };
        graph_prefetch_nodes(m->graph, k, n);
}

int model_add_file_edges(Model *m, ModelUnit *mu) {
        const Unit *u = mu->unit;
        int r;

        prefetch_edge_names(m, mu);
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                DiagList *diags = mu->base ? NULL : m->diags;
                _cleanup_(strv_freep) char **words = NULL;
                const KeyInfo *k;
                DepType t;
                uint32_t origin;
                bool mf;

                if (mu->st[i] != SETTING_EFFECTIVE || !streq(s->section, "Unit"))
                        continue;
                t = dep_type_from_key(s->key);
                mf = streq(s->key, "RequiresMountsFor") || streq(s->key, "WantsMountsFor");
                if (t < 0 && !mf)
                        continue;
                k = rules_key_lookup(m->rules, u->type, s->section, s->key, m->opts.systemd);
                if (!k)
                        continue;
                if (k->type == VALUE_UNIT_LIST) {
                        r = setting_unit_names_foreach(
                                u, s, &m->features, diags, add_file_edge,
                                &(FileEdges) { .m = m, .mu = mu, .s = s, .type = t, .origin = UINT32_MAX });
                        if (r < 0)
                                return r;
                        continue;
                }
                r = setting_words(u, s, k, &m->features, &words, diags);
                if (r < 0)
                        return r;
                if (!words || !words[0])
                        continue;
                r = setting_origin(m, mu, s, &origin);
                if (r < 0)
                        return r;
                STRV_FOREACH(w, words) {
                        if (mf)
                                r = add_mounts_for(m, mu, *w, streq(s->key, "WantsMountsFor"), SD_ORIGIN_FILE,
                                                   origin);
                        else
                                r = add_edge_by_name(m, mu, t, *w, origin);
                        if (r < 0)
                                return r;
                }
        }
        for (size_t i = 0; i < u->n_links; i++) {
                const DirLink *l = &u->links[i];
                static const DepType link_dep[_LINK_KIND_MAX] = {
                        [LINK_WANTS] = DEP_WANTS, [LINK_REQUIRES] = DEP_REQUIRES, [LINK_UPHOLDS] = DEP_UPHOLDS,
                };
                uint32_t origin;

                if (l->masked)
                        continue;
                r = graph_add_origin_borrowed(m->graph,
                                              &(Origin) { .kind = ORIGIN_LINK, .sd = SD_ORIGIN_FILE,
                                                          .file = l->path, .base = mu->base },
                                              &origin);
                if (r >= 0)
                        r = add_edge_by_name(m, mu, link_dep[l->kind], l->name, origin);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* A <set> normalisation: key now has value (both the rules' strings, or literals). */
int model_set_value(ModelUnit *mu, const char *key, const char *value) {
        size_t n = 0;
        const char **k, **v;

        for (; mu->set_keys && mu->set_keys[n]; n++)
                if (streq(mu->set_keys[n], key)) {
                        mu->set_values[n] = value;
                        return 0;
                }
        k = realloc(mu->set_keys, sizeof(char *) * (n + 2));
        if (!k)
                return -ENOMEM;
        mu->set_keys = k;
        v = realloc(mu->set_values, sizeof(char *) * (n + 2));
        if (!v)
                return -ENOMEM;
        mu->set_values = v;
        k[n] = key;
        v[n] = value;
        k[n + 1] = v[n + 1] = NULL;
        return 0;
}

/* What an <add> or <mounts-for> action does for one word of its each= setting (NULL without one). */
static int run_action_word(Model *m, ModelUnit *mu, const DepRule *d, const DepAction *a, const char *word,
                           uint32_t origin) {
        const char *t = a->kind == DEP_ACTION_ADD ? a->unit : a->path, *x = t;
        _cleanup_(freep) char *expanded = NULL;
        int r;

        /* most templates are a plain name ("sysinit.target"): nothing to expand, nothing to copy */
        if (strchr(t, '{')) {
                r = expand_template(m, mu, t, word, &expanded);
                if (r == -ENOENT || r == -EINVAL)
                        return 0;
                if (r < 0)
                        return r;
                x = expanded;
        }
        if (a->kind == DEP_ACTION_MOUNTS_FOR)
                return add_mounts_for(m, mu, x, a->wants, d->origin, origin);
        for (DepType type = 0; type < _DEP_TYPE_MAX; type++)
                if (a->deps & DEP_MASK(type)) {
                        r = add_edge_by_name(m, mu, type, x, origin);
                        if (r < 0)
                                return r;
                }
        return 0;
}

static int run_action(Model *m, ModelUnit *mu, size_t ri, const DepAction *a, Deferred **deferred, size_t *n_def,
                      size_t *alloc_def) {
        _cleanup_(strv_freep) char **words = NULL;
        _cleanup_(freep) char *f = NULL, *x = NULL;
        const DepRule *d = rules_dep_get(m->rules, ri);
        const char *v;
        uint32_t origin;
        int r;

        if (a->kind == DEP_ACTION_SET)
                return model_set_value(mu, a->setting, a->value);
        if (a->kind == DEP_ACTION_AFTER_PULLED) {
                if (GREEDY_REALLOC(*deferred, *alloc_def, *n_def + 1) < 0)
                        return -ENOMEM;
                (*deferred)[(*n_def)++] = (Deferred) { mu, ri, a };
                return 0;
        }
        r = model_rule_origin(m, ri, &origin);
        if (r < 0)
                return r;
        if (!a->each)
                return run_action_word(m, mu, d, a, NULL, origin);
        v = model_setting_value(m, mu, NULL, a->each, &f);
        if (!v)
                return 0;
        if (strchr(v, '%')) {
                /* systemd expands the specifiers of these values before it adds what they imply
                 * (ListenStream=%t/x.sock, Sockets=%N-x.socket, RuntimeDirectory=%N); one it cannot know
                 * offline keeps the value as written */
                SpecifierContext sc = { .unit_name = mu->unit->id, .features = &m->features };
                r = specifier_expand(v, &sc, SPECIFIER_USE_VALUE, &x, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r >= 0)
                        v = x;
        }
        /* the exec directories' words from 250 (exec-directory-symlinks): extract_first_word(EXTRACT_UNQUOTE|
         * EXTRACT_RETAIN_ESCAPE), the escapes left for |before-colon to decode with the ':' they may protect */
        if (a->path && strstr(a->path, "|before-colon") &&
            feature_enabled(&m->features, FEATURE_EXEC_DIRECTORY_SYMLINKS))
                r = words_split_flags(v, WORDS_RETAIN_ESCAPE, &words);
        else
                r = words_split_quoted(v, false, &words);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return 0;
        STRV_FOREACH(w, words) {
                r = run_action_word(m, mu, d, a, *w, origin);
                if (r < 0)
                        return r;
        }
        return 0;
}

int model_apply_rules(Model *m, ModelUnit *mu, Deferred **deferred, size_t *n_def, size_t *alloc_def) {
        int r;

        if (mu->unit->type < 0 || mu->unit->type >= _UNIT_TYPE_MAX)
                return 0;
        for (size_t k = 0; k < m->n_type_rules[mu->unit->type]; k++) {
                size_t i = m->type_rules[mu->unit->type][k];
                const DepRule *d = rules_dep_get(m->rules, i);
                bool ok = true;

                for (size_t c = 0; ok && c < d->n_conds; c++) {
                        if (!dep_cond_applies(&d->conds[c], m->opts.systemd))
                                continue;
                        r = cond_holds(m, mu, &d->conds[c]);
                        if (r < 0)
                                return r;
                        ok = r > 0;
                }
                if (!ok)
                        continue;
                for (size_t a = 0; a < d->n_actions; a++) {
                        r = run_action(m, mu, i, &d->actions[a], deferred, n_def, alloc_def);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}
