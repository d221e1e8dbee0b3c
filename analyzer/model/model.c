/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fnmatch.h>

#include "load/prefetch.h"
#include "load/specifier.h"
#include "load/unit-file.h"
#include "load/unit-values.h"
#include "load/unit-verify.h"
#include "load/unit-words.h"
#include "model/model.h"

typedef struct Deferred {
        struct ModelUnit *mu;
        size_t rule;
        const DepAction *action;
} Deferred;

struct Model {
        ModelOptions opts;
        const Rules *rules;
        FeatureSet features;   /* the version facts of opts.systemd, evaluated once */
        const BaseModel *base;
        Loader *loader;
        Prefetch *prefetch;    /* units being loaded ahead on a second thread (model_prefetch()), or NULL */
        Graph *graph;
        DiagList *diags;
        Hashmap by_name;       /* every name of every unit -> ModelUnit */
        ModelUnit **units;
        size_t n_units, allocated_units;
        ModelUnit **by_node;   /* node -> unit (NULL: referenced only) */
        size_t n_by_node, allocated_by_node;
        char **queue;          /* names to load */
        PrefetchEntry **queue_hints; /* the worker's handle for each (NULL: none) */
        size_t n_queue, head_queue, allocated_queue, allocated_queue_hints;
        /* names the caller will add next (model_hint()), hinted to the worker already: a ring, oldest first */
        struct {
                char *name;
                PrefetchEntry *hint;
        } ahead[MODEL_HINT_AHEAD];
        size_t n_ahead;
        uint8_t *node_known;   /* per node: its name was loaded or queued already (no lookup by name needed) */
        size_t n_node_known;
        uint32_t *rule_origin; /* per dependency rule: its graph origin + 1 (0: none yet) */
        uint32_t *type_rules[_UNIT_TYPE_MAX]; /* per unit type: the dependency rules for it in this version */
        size_t n_type_rules[_UNIT_TYPE_MAX];
        Deferred *deferred;    /* actions that need every unit loaded */
        size_t n_deferred, allocated_deferred;
        bool finished;
};

/* Forgets the names the caller said it would add, when the worker goes: prefetch_free() frees their entries. */
static void drop_ahead(Model *m) {
        for (size_t i = 0; i < m->n_ahead; i++)
                free(m->ahead[i].name);
        m->n_ahead = 0;
}

/* The worker's handle for name if the caller named it ahead (taken out of the ring), else NULL. */
static PrefetchEntry *take_ahead(Model *m, const char *name) {
        for (size_t i = 0; i < m->n_ahead; i++)
                if (streq(m->ahead[i].name, name)) {
                        PrefetchEntry *h = m->ahead[i].hint;
                        free(m->ahead[i].name);
                        memmove(m->ahead + i, m->ahead + i + 1, sizeof(m->ahead[0]) * (m->n_ahead - i - 1));
                        m->n_ahead--;
                        return h;
                }
        return NULL;
}

/* The worker's handle for name, which the model is about to load: the one it got when the caller named it ahead,
 * else a new one (the worker loads it next). NULL without a worker. */
static PrefetchEntry *worker_handle(Model *m, const char *name) {
        PrefetchEntry *h;

        if (!m->prefetch)
                return NULL;
        h = take_ahead(m, name);
        return h ?: prefetch_hint(m->prefetch, name);
}

static void model_unit_free(ModelUnit *u) {
        if (!u)
                return;
        unit_free(u->unit);
        free(u->st);
        for (size_t i = 0; i < u->n_mounts_for; i++)
                free(u->mounts_for[i].path);
        free(u->mounts_for);
        free(u->set_keys);
        free(u->set_values);
        free(u);
}

Model *model_free(Model *m) {
        if (!m)
                return NULL;
        for (size_t i = 0; i < m->n_units; i++)
                model_unit_free(m->units[i]);
        free(m->units);
        free(m->by_node);
        hashmap_done(&m->by_name);
        for (size_t i = m->head_queue; i < m->n_queue; i++)
                free(m->queue[i]);
        free(m->queue);
        free(m->queue_hints);
        drop_ahead(m);
        free(m->node_known);
        free(m->rule_origin);
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++)
                free(m->type_rules[t]);
        free(m->deferred);
        prefetch_free(m->prefetch); /* before the loader it reads */
        loader_free(m->loader);
        graph_free(m->graph);
        return mfree(m);
}

/* What keeps a released model reachable: written, never read (volatile, so the store stays). */
static Model *volatile released;

void model_release(Model *m) {
        if (m && m->n_units >= MODEL_RELEASE_MIN) {
                /* the worker is stopped all the same: nothing runs on after the caller is done */
                drop_ahead(m);
                m->prefetch = prefetch_free(m->prefetch);
                released = m;
                return;
        }
        model_free(m);
}

int model_new(const ModelOptions *opts, const Rules *rules, Model **ret, DiagList *diags) {
        _cleanup_(model_freep) Model *m = NULL;
        int r;

        if (opts->systemd > UINT16_MAX)
                return -EINVAL; /* not a systemd version (an Origin keeps it in 16 bits) */
        m = calloc(1, sizeof(Model));
        if (!m)
                return -ENOMEM;
        m->opts = *opts;
        m->rules = rules;
        r = rules_feature_set(rules, opts->systemd, &m->features);
        if (r < 0)
                return r;
        m->diags = diags;
        hashmap_init(&m->by_name);
        m->rule_origin = calloc(rules_dep_count(rules) + 1, sizeof(uint32_t));
        if (!m->rule_origin)
                return -ENOMEM;
        /* which rules a unit of each type may get, worked out once instead of for every unit */
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++) {
                m->type_rules[t] = calloc(rules_dep_count(rules) + 1, sizeof(uint32_t));
                if (!m->type_rules[t])
                        return -ENOMEM;
                for (size_t i = 0; i < rules_dep_count(rules); i++)
                        if (dep_rule_applies(rules_dep_get(rules, i), t, opts->systemd))
                                m->type_rules[t][m->n_type_rules[t]++] = (uint32_t) i;
        }
        r = graph_new(&m->graph);
        if (r < 0)
                return r;
        r = loader_new(&(LoaderOptions) {
                               .root = opts->root,
                               .extra_dirs = opts->extra_dirs,
                               .package_root = opts->package_root,
                               .package_dirs = opts->package_dirs,
                               .generator_dir = opts->generator_dir,
                               .features = &m->features,
                               .no_search_path = !opts->root,
                       },
                       &m->loader, diags);
        if (r < 0)
                return r;
        if (!opts->no_base)
                m->base = rules_base_model(rules, opts->systemd);
        *ret = TAKE_PTR(m);
        return 0;
}

Graph *model_graph(const Model *m) {
        return m->graph;
}

unsigned model_version(const Model *m) {
        return m->opts.systemd;
}

const FeatureSet *model_features(const Model *m) {
        return &m->features;
}

const char *model_base_file(const Model *m) {
        return m->base ? base_model_file(m->base) : NULL;
}

ModelUnit *model_get(const Model *m, const char *name) {
        return hashmap_get(&m->by_name, name);
}

ModelUnit *model_unit_of_node(const Model *m, uint32_t node) {
        return node < m->n_by_node ? m->by_node[node] : NULL;
}

size_t model_unit_count(const Model *m) {
        return m->n_units;
}

ModelUnit *model_unit(const Model *m, size_t i) {
        return i < m->n_units ? m->units[i] : NULL;
}

static int enqueue(Model *m, const char *name) {
        if (hashmap_get(&m->by_name, name))
                return 0;
        if (GREEDY_REALLOC(m->queue, m->allocated_queue, m->n_queue + 1) < 0 ||
            GREEDY_REALLOC(m->queue_hints, m->allocated_queue_hints, m->n_queue + 1) < 0)
                return -ENOMEM;
        m->queue[m->n_queue] = strdup(name);
        if (!m->queue[m->n_queue])
                return -ENOMEM;
        m->queue_hints[m->n_queue++] = worker_handle(m, name);
        return 0;
}

/* ---- values a rule can ask for */

static const char *type_section(const ModelUnit *mu) {
        return rules_type_section(mu->unit->type);
}

/* A bit for a key, of 64: the rules ask each unit about some fifty keys, most of which it does not set. A unit's
 * effective keys as such bits (st_keys) tell most of those at once, without a look at its settings. */
static uint64_t setting_key_bit(const char *key) {
        unsigned a = (unsigned char) key[0], b = a ? (unsigned char) key[1] : 0, c = b ? (unsigned char) key[2] : 0,
                 d = c ? (unsigned char) key[3] : 0;
        unsigned h = ((a * 31u + b) * 31u + c) * 31u + d;

        return UINT64_C(1) << ((h ^ (h >> 6)) & 63);
}

/* Assignment i of the unit is an effective one of section.key. */
static bool setting_matches(const ModelUnit *mu, size_t i, const char *section, const char *key) {
        const Setting *s = &mu->unit->settings[i];
        return mu->st[i] == SETTING_EFFECTIVE && streq(s->key, key) && streq(s->section, section);
}

/* The effective value of section.key (section NULL: the unit type's own), after normalisations. For list keys
 * the effective assignments joined by spaces. NULL when unset or empty. *ret_free gets an allocation to free. */
static const char *setting_value(const Model *m, const ModelUnit *mu, const char *section, const char *key,
                                 char **ret_free) {
        const Unit *u = mu->unit;
        const KeyInfo *k;
        char *joined = NULL;
        size_t first = SIZE_MAX, last = 0;

        *ret_free = NULL;
        for (size_t i = 0; mu->set_keys && mu->set_keys[i]; i++)
                if (streq(mu->set_keys[i], key))
                        return mu->set_values[i];
        if (!section) {
                section = type_section(mu);
                if (!section)
                        return NULL;
        }
        if (!u || !mu->st || !(mu->st_keys & setting_key_bit(key)))
                return NULL;
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
static int var_value(const Model *m, const ModelUnit *mu, const char *name, char **ret) {
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
        /* the rest need the name without its type: a copy, made only for them */
        r = unit_name_strip_suffix(u->id, &stem);
        if (r < 0)
                return r;
        if (streq(name, "stem")) {
                *ret = TAKE_PTR(stem);
                return 0;
        }
        if (streq(name, "where")) {
                v = u->type == UNIT_MOUNT || u->type == UNIT_AUTOMOUNT ? setting_value(m, mu, NULL, "Where", &f)
                                                                      : NULL;
                if (v) {
                        *ret = path_simplify_dup(v);
                        return *ret ? 0 : -ENOMEM;
                }
                if (u->type != UNIT_MOUNT && u->type != UNIT_AUTOMOUNT)
                        return 0;
                return unit_name_path_unescape(stem, ret) < 0 ? 0 : 0;
        }
        if (streq(name, "what")) {
                v = u->type == UNIT_MOUNT || u->type == UNIT_SWAP ? setting_value(m, mu, NULL, "What", &f) : NULL;
                if (v) {
                        *ret = strdup(v);
                        return *ret ? 0 : -ENOMEM;
                }
                if (u->type == UNIT_SWAP)
                        (void) unit_name_path_unescape(stem, ret);
                return 0;
        }
        if (streq(name, "fstype")) {
                const MountEntry *e = NULL;
                v = u->type == UNIT_MOUNT ? setting_value(m, mu, NULL, "Type", &f) : NULL;
                /* a mount without Type= that is mounted: PID 1 knows its type from the mount table */
                if (!v && u->type == UNIT_MOUNT && m->opts.mount_table) {
                        _cleanup_(freep) char *where = NULL;
                        r = var_value(m, mu, "where", &where);
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
        if (streq(pattern, "@true"))
                return parse_boolean(value) == 1;
        if (streq(pattern, "@false"))
                return parse_boolean(value) == 0;
        return fnmatch(pattern, value, 0) == 0;
}

static bool value_matches(const DepCond *c, const char *value) {
        if (isempty(value))
                return false;
        if (c->word) {
                const char *p = value;
                while (*p) {
                        size_t n = strcspn(p, ",");
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
                r = var_value(m, mu, c->name, &f);
                if (r == -ENOMEM)
                        return r;
                match = value_matches(c, f);
                break;
        case DEP_COND_SETTING:
                if (c->name[0] == '@')
                        v = rules_manager_default(m->rules, c->name + 1, m->opts.systemd, m->opts.offline);
                else
                        v = setting_value(m, mu, c->section, c->name, &f);
                if (!v && c->dflt)
                        v = c->dflt[0] == '@' ? rules_manager_default(m->rules, c->dflt + 1, m->opts.systemd,
                                                                      m->opts.offline)
                                              : c->dflt;
                match = value_matches(c, v);
                break;
        default:
                return -EINVAL;
        }
        return match != c->negate;
}

/* ---- templates: "{name|fn|fn}" */

static int apply_function(const char *fn, char *v, char **ret) {
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
                in[strcspn(in, ":")] = 0;
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
                        r = var_value(m, mu, tok, &val);
                        if (r == -ENOMEM)
                                return r;
                } else {
                        const char *dot = strchr(tok, '.'), *v;
                        _cleanup_(freep) char *sec = dot ? strndup_safe(tok, (size_t) (dot - tok)) : NULL;
                        v = setting_value(m, mu, sec, dot ? dot + 1 : tok, &f);
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
                        r = apply_function(tok, TAKE_PTR(val), &o);
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
        r = enqueue(m, name);
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

static int rule_origin(Model *m, size_t i, uint32_t *ret) {
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
                        int r = enqueue(m, *name);
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

static int add_file_edges(Model *m, ModelUnit *mu) {
        const Unit *u = mu->unit;
        int r;

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
static int set_value(ModelUnit *mu, const char *key, const char *value) {
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
        _cleanup_(freep) char *f = NULL;
        const DepRule *d = rules_dep_get(m->rules, ri);
        const char *v;
        uint32_t origin;
        int r;

        if (a->kind == DEP_ACTION_SET)
                return set_value(mu, a->setting, a->value);
        if (a->kind == DEP_ACTION_AFTER_PULLED) {
                if (GREEDY_REALLOC(*deferred, *alloc_def, *n_def + 1) < 0)
                        return -ENOMEM;
                (*deferred)[(*n_def)++] = (Deferred) { mu, ri, a };
                return 0;
        }
        r = rule_origin(m, ri, &origin);
        if (r < 0)
                return r;
        if (!a->each)
                return run_action_word(m, mu, d, a, NULL, origin);
        v = setting_value(m, mu, NULL, a->each, &f);
        if (!v)
                return 0;
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

static int apply_rules(Model *m, ModelUnit *mu, Deferred **deferred, size_t *n_def, size_t *alloc_def) {
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

/* ---- loading */

#define IN_SET_LOAD(s) ((s) == LOAD_NOT_FOUND || (s) == LOAD_LOADED)

/* A unit of the base model as a Unit, with the root's drop-ins and links (from loaded, the root's not-found
 * unit) applied on top. */
static int base_unit_new(Model *m, const BaseUnit *bu, Unit *loaded, Unit **ret) {
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        const BaseLink *links;
        size_t n_links;
        int r;

        r = unit_file_parse(bu->file, bu->text, bu->size, &(ParseOptions) { .features = &m->features }, &f,
                            NULL);
        if (r < 0)
                return r;
        u = calloc(1, sizeof(Unit));
        if (!u)
                return -ENOMEM;
        u->id = strdup(loaded->id);
        u->requested = loaded->requested ? strdup(loaded->requested) : NULL;
        u->fragment_path = strdup(path_basename(bu->file));
        u->names = strv_copy(loaded->names);
        u->sources = calloc(loaded->n_sources + 1, sizeof(Source));
        if (!u->id || (loaded->requested && !u->requested) || !u->fragment_path || !u->names || !u->sources)
                return -ENOMEM;
        u->type = loaded->type;
        u->load_state = LOAD_LOADED;
        u->sources[0] = (Source) { .path = strdup(path_basename(bu->file)), .pool = TAKE_PTR(f->pool) };
        u->n_sources = 1;
        if (!u->sources[0].path)
                return -ENOMEM;
        for (size_t i = 0; i < f->n_assignments; i++) {
                Assignment *a = &f->assignments[i];
                if (!a->section)
                        continue;
                if (GREEDY_REALLOC(u->settings, u->allocated_settings, u->n_settings + 1) < 0)
                        return -ENOMEM;
                u->settings[u->n_settings++] = (Setting) {
                        .section = a->section, .key = a->key, .value = a->value,
                        .source = 0, .line = bu->line + a->line - 1,
                };
        }
        /* the root's drop-ins still apply */
        for (size_t i = 0; i < loaded->n_sources; i++) {
                Source *s = &u->sources[u->n_sources++];
                *s = loaded->sources[i];
                if (s->shared) {
                        /* loaded's fragment_path goes with loaded */
                        s->path = strdup(s->path);
                        s->shared = false;
                        if (!s->path)
                                return -ENOMEM;
                }
                loaded->sources[i].path = loaded->sources[i].pool = NULL;
                loaded->sources[i].shared = false;
        }
        for (size_t i = 0; i < loaded->n_settings; i++) {
                if (GREEDY_REALLOC(u->settings, u->allocated_settings, u->n_settings + 1) < 0)
                        return -ENOMEM;
                u->settings[u->n_settings] = loaded->settings[i];
                u->settings[u->n_settings++].source += 1;
                loaded->settings[i] = (Setting) {};
        }
        u->links = TAKE_PTR(loaded->links);
        u->n_links = loaded->n_links;
        loaded->n_links = 0;
        n_links = base_model_links(m->base, bu->name, &links);
        if (n_links > 0) {
                DirLink *nl = realloc(u->links, sizeof(DirLink) * (u->n_links + n_links));
                if (!nl)
                        return -ENOMEM;
                u->links = nl;
                for (size_t i = 0; i < n_links; i++) {
                        _cleanup_(freep) char *path = NULL;
                        if (asprintf_safe(&path, "%s:%u", path_basename(bu->file), links[i].line) < 0)
                                return -ENOMEM;
                        u->links[u->n_links++] = (DirLink) {
                                .kind = links[i].type == DEP_REQUIRES ? LINK_REQUIRES
                                        : links[i].type == DEP_UPHOLDS ? LINK_UPHOLDS
                                                                       : LINK_WANTS,
                                .name = strdup(links[i].name),
                                .path = TAKE_PTR(path),
                        };
                        if (!u->links[u->n_links - 1].name)
                                return -ENOMEM;
                }
        }
        *ret = TAKE_PTR(u);
        return 0;
}

static bool mounted(const Model *m, const ModelUnit *mu) {
        _cleanup_(freep) char *where = NULL;

        if (!m->opts.mounted)
                return false;
        if (var_value(m, mu, "where", &where) < 0 || !where)
                return false;
        return strv_contains(m->opts.mounted, where);
}

static int register_unit(Model *m, ModelUnit *mu) {
        int r;

        if (GREEDY_REALLOC(m->units, m->allocated_units, m->n_units + 1) < 0)
                return -ENOMEM;
        m->units[m->n_units++] = mu;
        r = graph_node(m->graph, mu->unit->id, &mu->node);
        if (r < 0)
                return r;
        if (GREEDY_REALLOC(m->by_node, m->allocated_by_node, graph_node_count(m->graph)) < 0)
                return -ENOMEM;
        /* nodes made for names that were referenced but not (yet) loaded have no unit */
        for (; m->n_by_node < graph_node_count(m->graph); m->n_by_node++)
                m->by_node[m->n_by_node] = NULL;
        m->by_node[mu->node] = mu;
        r = hashmap_put(&m->by_name, mu->unit->id, mu);
        if (r < 0 && r != -EEXIST)
                return r;
        STRV_FOREACH(n, mu->unit->names) {
                if (streq(*n, mu->unit->id))
                        continue; /* put just above (the loader lists the id first) */
                r = hashmap_put(&m->by_name, *n, mu);
                if (r < 0 && r != -EEXIST)
                        return r;
        }
        return 0;
}

/* Loads name, which the model does not have under that name, and adds it (or its unit's new names). hint is the
 * worker's handle for it, or NULL. */
static int load_absent(Model *m, const char *name, PrefetchEntry *hint, ModelUnit **ret) {
        _cleanup_(diag_list_done) DiagList scratch = {};
        _cleanup_(unit_freep) Unit *u = NULL;
        ModelUnit *mu, *existing;
        const char *dd;
        _cleanup_(freep) char *f = NULL;
        int r, lr = 0;

        r = m->prefetch ? prefetch_take(m->prefetch, hint, &u, m->diags, &lr) : 0;
        if (r < 0)
                return r;
        r = r > 0 ? lr : loader_load(m->loader, name, &u, m->diags);
        if (r < 0)
                return r;
        /* no file in the tree (slices, mounts and devices count as loaded without one): the base model's */
        if (m->base && !u->fragment_path && IN_SET_LOAD(u->load_state)) {
                const char *alias = base_model_alias(m->base, name);
                const BaseUnit *bu = base_model_unit(m->base, alias ?: name);
                _cleanup_(freep) char *template = NULL;

                if (!bu && unit_name_is_valid(name, UNIT_NAME_INSTANCE) && unit_name_template(name, &template) >= 0)
                        bu = base_model_unit(m->base, template);
                if (bu) {
                        Unit *b = NULL;
                        if (alias) {
                                char *a = strdup(alias);
                                if (!a)
                                        return -ENOMEM;
                                unit_set_id(u, a);
                                if (strv_extend_unique(&u->names, alias) < 0)
                                        return -ENOMEM;
                        }
                        r = base_unit_new(m, bu, u, &b);
                        if (r < 0)
                                return r;
                        unit_free(u);
                        u = b;
                }
        }
        /* loaded through an alias of a unit we have already (under the name asked for, it was not there) */
        existing = streq(u->id, name) ? NULL : hashmap_get(&m->by_name, u->id);
        if (existing) {
                STRV_FOREACH(n, u->names)
                        if (!hashmap_get(&m->by_name, *n)) {
                                char *c = strdup(*n);
                                if (!c || strv_push(&existing->unit->names, c) < 0 ||
                                    hashmap_put(&m->by_name, c, existing) < 0)
                                        return -ENOMEM;
                        }
                *ret = existing;
                return 0;
        }

        mu = calloc(1, sizeof(ModelUnit));
        if (!mu)
                return -ENOMEM;
        mu->unit = TAKE_PTR(u);
        mu->base = mu->unit->fragment_path && m->base &&
                   streq(mu->unit->fragment_path, path_basename(base_model_file(m->base)));
        r = register_unit(m, mu);
        if (r < 0) {
                if (m->n_units == 0 || m->units[m->n_units - 1] != mu)
                        model_unit_free(mu);
                return r;
        }
        /* the base model is our data: what systemd would warn about in it is no news to the user */
        r = unit_settings_classify(mu->unit, m->rules, m->opts.systemd, &mu->st, mu->base ? &scratch : m->diags);
        if (r < 0)
                return r;
        for (size_t i = 0; i < mu->unit->n_settings; i++)
                if (mu->st[i] == SETTING_EFFECTIVE)
                        mu->st_keys |= setting_key_bit(mu->unit->settings[i].key);
        if (unit_verify(mu->unit, mu->st, &m->features, mu->base ? &scratch : m->diags) > 0)
                mu->unit->load_state = LOAD_BAD_SETTING;
        /* units of these types exist without a file only when the manager made them or the kernel has them */
        if (mu->unit->load_state == LOAD_LOADED && !mu->unit->fragment_path &&
            (mu->unit->type == UNIT_MOUNT || mu->unit->type == UNIT_SWAP || mu->unit->type == UNIT_SCOPE) &&
            !rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, NULL) && !mounted(m, mu))
                mu->unit->load_state = LOAD_NOT_FOUND;
        {
                bool no_dd = false;
                if (rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, &no_dd) && no_dd &&
                    set_value(mu, "DefaultDependencies", "no") < 0)
                        return -ENOMEM;
        }
        /* a template is no unit: systemd never loads one */
        mu->loaded = mu->unit->load_state == LOAD_LOADED && !unit_name_is_valid(mu->unit->id, UNIT_NAME_TEMPLATE);
        dd = setting_value(m, mu, "Unit", "DefaultDependencies", &f);
        mu->default_deps = !dd || parse_boolean(dd) != 0;
        if (mu->loaded) {
                r = add_file_edges(m, mu);
                if (r >= 0)
                        r = apply_rules(m, mu, &m->deferred, &m->n_deferred, &m->allocated_deferred);
                if (r < 0)
                        return r;
        }
        *ret = mu;
        return 0;
}

/* Loads the queued name, unless the model has it by now. */
static int load_one(Model *m, const char *name, PrefetchEntry *hint, ModelUnit **ret) {
        ModelUnit *existing = hashmap_get(&m->by_name, name);

        if (existing) {
                if (m->prefetch)
                        prefetch_skip(m->prefetch, hint);
                *ret = existing;
                return 0;
        }
        return load_absent(m, name, hint, ret);
}

/* The caller will model_add() name soon: the worker starts on it (the last MODEL_HINT_AHEAD names are kept). */
static void model_hint(Model *m, const char *name) {
        char *n;

        if (!m->prefetch || hashmap_get(&m->by_name, name) || !unit_name_is_valid(name, UNIT_NAME_ANY))
                return;
        for (size_t i = 0; i < m->n_ahead; i++)
                if (streq(m->ahead[i].name, name))
                        return;
        n = strdup(name);
        if (!n)
                return; /* loaded when added, all the same */
        if (m->n_ahead == MODEL_HINT_AHEAD) {
                /* the oldest was never added: the caller went another way */
                prefetch_skip(m->prefetch, m->ahead[0].hint);
                free(m->ahead[0].name);
                memmove(m->ahead, m->ahead + 1, sizeof(m->ahead[0]) * (MODEL_HINT_AHEAD - 1));
                m->n_ahead--;
        }
        m->ahead[m->n_ahead].name = n;
        m->ahead[m->n_ahead++].hint = prefetch_hint(m->prefetch, name);
}

void model_hint_names(Model *m, char * const *names, size_t n, size_t i, size_t *next) {
        for (; *next < n && *next < i + MODEL_HINT_AHEAD; (*next)++)
                model_hint(m, names[*next]);
}

int model_add(Model *m, const char *name, ModelUnit **ret) {
        ModelUnit *mu;
        int r;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        mu = hashmap_get(&m->by_name, name);
        if (mu) {
                /* had already: if the caller named it ahead, the worker need not load it */
                if (m->prefetch)
                        prefetch_skip(m->prefetch, take_ahead(m, name));
        } else {
                r = load_absent(m, name, worker_handle(m, name), &mu);
                if (r < 0)
                        return r;
        }
        mu->target = true;
        while (m->head_queue < m->n_queue) {
                PrefetchEntry *queued = m->queue_hints[m->head_queue];
                _cleanup_(freep) char *n = m->queue[m->head_queue++];
                ModelUnit *x;
                r = load_one(m, n, queued, &x);
                if (r == -EINVAL)
                        continue;
                if (r < 0)
                        return r;
        }
        m->n_queue = m->head_queue = 0;
        if (ret)
                *ret = mu;
        return 0;
}

/* ---- after everything is loaded */

/* Edges point at the node of the name they were written with; aliases are moved to the unit's main name. */
static int resolve_aliases(Model *m) {
        size_t n = graph_node_count(m->graph);
        _cleanup_(freep) uint32_t *map = malloc(sizeof(uint32_t) * (n + 1));
        bool any = false;

        if (!map)
                return -ENOMEM;
        for (uint32_t i = 0; i < n; i++) {
                ModelUnit *mu = hashmap_get(&m->by_name, graph_node_name(m->graph, i));
                map[i] = mu ? mu->node : i;
                any = any || map[i] != i;
        }
        if (!any)
                return 0;
        for (size_t i = 0; i < graph_edge_count(m->graph); i++) {
                GraphEdge *e = (GraphEdge *) graph_edge(m->graph, i);
                e->from = map[e->from];
                e->to = map[e->to];
        }
        return 0;
}

/* ---- PID 1 reading the mount table (feature mountinfo-reference-stubs) */

enum {
        SIM_EXISTS = 1 << 0, /* PID 1 has the unit, as a stub at least */
        SIM_LOADED = 1 << 1, /* and has loaded it */
        SIM_SEEN = 1 << 2,   /* the mount table has named it */
        SIM_STUB = 1 << 3,   /* loaded as a reference before that: not-found */
};

typedef struct LoadSim {
        Model *m;
        uint8_t *state;  /* per graph node */
        uint32_t *work;  /* nodes to load in this dispatch */
        size_t n_work, allocated_work;
        uint32_t *queue; /* mount units of the table, loaded at the next dispatch */
        size_t n_queue, allocated_queue;
} LoadSim;

static int sim_push(LoadSim *s, uint32_t node) {
        if (s->state[node] & SIM_EXISTS)
                return 0;
        s->state[node] |= SIM_EXISTS;
        if (GREEDY_REALLOC(s->work, s->allocated_work, s->n_work + 1) < 0)
                return -ENOMEM;
        s->work[s->n_work++] = node;
        return 0;
}

static int sim_push_name(LoadSim *s, const char *name) {
        ModelUnit *mu = model_get(s->m, name);
        return mu ? sim_push(s, mu->node) : 0;
}

static bool sim_stub_candidate(const Model *m, const ModelUnit *mu) {
        return mu->unit->type == UNIT_MOUNT && !mu->unit->fragment_path &&
               !rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, NULL);
}

/* manager_dispatch_load_queue(): loads the queued table mounts and what was pushed, then everything they
 * reference, transitively. A mount without a unit file that the table has not named yet is not-found, and a
 * not-found unit references nothing. */
static int sim_dispatch(LoadSim *s) {
        Model *m = s->m;
        bool load_mounts_for = feature_enabled(&m->features, FEATURE_MOUNTS_FOR_LOAD);
        int r;

        for (size_t i = 0; i < s->n_queue; i++) {
                if (GREEDY_REALLOC(s->work, s->allocated_work, s->n_work + 1) < 0)
                        return -ENOMEM;
                s->work[s->n_work++] = s->queue[i];
        }
        s->n_queue = 0;
        while (s->n_work > 0) {
                uint32_t node = s->work[--s->n_work];
                ModelUnit *mu = model_unit_of_node(m, node);
                EdgeSet e;

                if (s->state[node] & SIM_LOADED)
                        continue;
                s->state[node] |= SIM_LOADED;
                if (!mu || !mu->loaded)
                        continue;
                if (sim_stub_candidate(m, mu) && !(s->state[node] & SIM_SEEN)) {
                        s->state[node] |= SIM_STUB;
                        continue;
                }
                e = graph_out(m->graph, node);
                for (size_t i = 0; i < e.n; i++) {
                        r = sim_push(s, graph_edge(m->graph, edge_set_get(&e, i))->to);
                        if (r < 0)
                                return r;
                }
                /* RequiresMountsFor= loads the mount unit of the path and of every parent */
                for (size_t i = 0; i < mu->n_mounts_for && load_mounts_for; i++) {
                        _cleanup_(strv_freep) char **names = NULL;
                        if (unit_name_mounts_of_path(mu->mounts_for[i].path, &names) < 0)
                                return -ENOMEM;
                        STRV_FOREACH(name, names) {
                                r = sim_push_name(s, *name);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}

/* PID 1 at start-up (manager_enumerate()): the perpetual units are queued, then the mount table is read line
 * by line. A line that names a new mount unit with default dependencies adds them by name at once (from
 * 250), and loading those targets loads everything they reference while the rest of the table is still unread: a
 * mount without a unit file referenced then is loaded not-found, and when its line comes PID 1 only adds the
 * table's dependencies (mount_setup_existing_unit()). Marks such units reference_stub. Not modelled: device
 * units (none in containers; on a host a device line may make PID 1 load a little earlier), mounts made after
 * start-up that something referenced before (stubs too, but the table does not say when a mount came), and a
 * later change of a parent mount (a remount of / gives a stub its After=-.mount after all). */
static int find_reference_stubs(Model *m) {
        const MountTable *t = m->opts.mount_table;
        _cleanup_(freep) uint8_t *state = NULL;
        LoadSim s = { .m = m };
        int r = 0;

        if (!t || !feature_enabled(&m->features, FEATURE_MOUNTINFO_REFERENCE_STUBS))
                return 0;
        state = calloc(graph_node_count(m->graph) + 1, 1);
        if (!state)
                return -ENOMEM;
        s.state = state;
        for (size_t i = 0; i < m->n_units; i++)
                if (rules_unit_is_perpetual(m->rules, m->units[i]->unit->id, m->opts.systemd, NULL)) {
                        state[m->units[i]->node] |= SIM_EXISTS;
                        if (GREEDY_REALLOC(s.queue, s.allocated_queue, s.n_queue + 1) < 0)
                                goto oom;
                        s.queue[s.n_queue++] = m->units[i]->node;
                }
        for (size_t i = 0; i < t->n_entries; i++) {
                const MountEntry *e = &t->entries[i];
                _cleanup_(freep) char *name = NULL;
                static const char * const targets[] = {
                        "local-fs-pre.target", "local-fs.target", "umount.target",
                };
                ModelUnit *mu;
                uint32_t node;
                bool is_new;

                if (mount_entry_ignored(e, m->rules, m->opts.systemd) ||
                    unit_name_from_path(e->where, ".mount", &name) < 0)
                        continue;
                mu = model_get(m, name);
                if (!mu)
                        continue;
                node = mu->node;
                is_new = !(state[node] & SIM_EXISTS);
                if ((state[node] & SIM_STUB) && !(state[node] & SIM_SEEN))
                        mu->reference_stub = true;
                state[node] |= SIM_EXISTS | SIM_SEEN;
                /* no default dependencies by the mount point (fstab_is_extrinsic(); x-initrd.mount is not in
                 * the table): the extrinsic <mount-point>s of rules/dependencies.xml */
                if (!rules_mount_point(m->rules, "extrinsic", e->where, e->fstype, m->opts.systemd)) {
                        for (size_t k = 0; k < ELEMENTSOF(targets); k++) {
                                r = sim_push_name(&s, targets[k]);
                                if (r < 0)
                                        goto finish;
                        }
                        if (streq(e->fstype, "tmpfs")) {
                                r = sim_push_name(&s, "swap.target");
                                if (r < 0)
                                        goto finish;
                        }
                }
                if (s.n_work > 0) {
                        r = sim_dispatch(&s);
                        if (r < 0)
                                goto finish;
                }
                if (is_new) {
                        if (GREEDY_REALLOC(s.queue, s.allocated_queue, s.n_queue + 1) < 0)
                                goto oom;
                        s.queue[s.n_queue++] = node;
                }
        }
        r = 0;
        goto finish;
oom:
        r = -ENOMEM;
finish:
        free(s.work);
        free(s.queue);
        return r;
}

/* What a reference stub does not get: the edges of exec and slice rules. */
static bool edge_of_stub(const GraphEdge *e, void *userdata) {
        Model *m = userdata;
        ModelUnit *mu = model_unit_of_node(m, e->from);
        const Origin *o;

        if (!mu || !mu->reference_stub)
                return false;
        o = graph_origin(m->graph, e->origin);
        return o && o->kind == ORIGIN_RULE && o->class &&
               (streq(o->class, "exec") || streq(o->class, "slice"));
}

static int expand_mounts_for(Model *m, ModelUnit *mu) {
        int r;

        for (size_t i = 0; i < mu->n_mounts_for; i++) {
                const MountsFor *e = &mu->mounts_for[i];
                const Origin *eo = graph_origin(m->graph, e->origin);
                _cleanup_(strv_freep) char **names = NULL;
                uint32_t origin;

                if (unit_name_mounts_of_path(e->path, &names) < 0)
                        return -ENOMEM;
                /* the unit's path, and the strings of the origin it came with (the graph's or the unit's) */
                r = graph_add_origin_borrowed(m->graph,
                                              &(Origin) {
                                                      .kind = ORIGIN_MOUNTS_FOR,
                                                      .sd = SD_ORIGIN_PATH,
                                                      .file = eo ? eo->file : NULL,
                                                      .line = eo ? eo->line : 0,
                                                      .rule = eo ? eo->rule : NULL,
                                                      .class = "path",
                                                      .detail = e->path,
                                                      .version = m->opts.systemd,
                                                      .base = mu->base,
                                              },
                                              &origin);
                if (r < 0)
                        return r;
                STRV_FOREACH(name, names) {
                        ModelUnit *mount = hashmap_get(&m->by_name, *name);

                        if (mount && mount->loaded && mount != mu) {
                                r = graph_add_edge(m->graph, mu->node, DEP_AFTER, mount->node, origin);
                                if (r >= 0 && mount->unit->fragment_path)
                                        r = graph_add_edge(m->graph, mu->node, e->wants ? DEP_WANTS : DEP_REQUIRES,
                                                           mount->node, origin);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}

typedef struct NewEdge {
        uint32_t from, to, origin;
} NewEdge;

/* Collects the After= edges of one deferred <after-pulled>; they are added only after every deferred action has
 * looked at the graph, so that none of them sees another's edges (and the index stays valid meanwhile). */
static int run_after_pulled(Model *m, const Deferred *d, NewEdge **add, size_t *n_add, size_t *alloc_add) {
        EdgeSet e;
        uint32_t origin;
        int r;

        r = rule_origin(m, d->rule, &origin);
        if (r < 0)
                return r;
        e = graph_out(m->graph, d->mu->node);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(m->graph, edge_set_get(&e, i));
                ModelUnit *other;

                if (!(d->action->deps & DEP_MASK(ed->type)) || ed->to == d->mu->node)
                        continue;
                other = model_unit_of_node(m, ed->to);
                if (!other || !other->loaded || !other->default_deps || !d->mu->default_deps)
                        continue;
                /* no loops: not when the target is already ordered before it */
                if (graph_has_edge(m->graph, d->mu->node, DEP_BEFORE, ed->to) ||
                    graph_has_edge(m->graph, ed->to, DEP_AFTER, d->mu->node))
                        continue;
                if (GREEDY_REALLOC(*add, *alloc_add, *n_add + 1) < 0)
                        return -ENOMEM;
                (*add)[(*n_add)++] = (NewEdge) { d->mu->node, ed->to, origin };
        }
        return 0;
}

int model_prefetch(Model *m, size_t n_names) {
        if (m->prefetch || !prefetch_wanted(n_names))
                return 0;
        return prefetch_start(m->loader, &m->prefetch);
}

int model_finish(Model *m) {
        int r;

        if (m->finished)
                return 0;
        /* every unit asked for is loaded: the worker is not needed any more */
        drop_ahead(m);
        m->prefetch = prefetch_free(m->prefetch);
        r = resolve_aliases(m);
        if (r < 0)
                return r;
        if (m->opts.mount_table) {
                bool any = false;
                r = graph_finish(m->graph);
                if (r >= 0)
                        r = find_reference_stubs(m);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < m->n_units; i++)
                        any = any || m->units[i]->reference_stub;
                if (any)
                        (void) graph_remove_edges(m->graph, edge_of_stub, m);
        }
        for (size_t i = 0; i < m->n_units; i++)
                /* a reference stub's own paths stay unexpanded: PID 1 never loads it again */
                if (m->units[i]->loaded && !m->units[i]->reference_stub) {
                        r = expand_mounts_for(m, m->units[i]);
                        if (r < 0)
                                return r;
                }
        r = graph_finish(m->graph);
        if (r < 0)
                return r;
        {
                _cleanup_(freep) NewEdge *add = NULL;
                size_t n_add = 0, alloc_add = 0;
                for (size_t i = 0; i < m->n_deferred; i++) {
                        r = run_after_pulled(m, &m->deferred[i], &add, &n_add, &alloc_add);
                        if (r < 0)
                                return r;
                }
                for (size_t i = 0; i < n_add; i++) {
                        r = graph_add_edge(m->graph, add[i].from, DEP_AFTER, add[i].to, add[i].origin);
                        if (r < 0)
                                return r;
                }
        }
        r = graph_finish(m->graph);
        if (r < 0)
                return r;
        m->finished = true;
        return 0;
}

static int cmp_name(const void *a, const void *b) {
        return strcmp(*(const char * const *) a, *(const char * const *) b);
}

int model_list_names(const Model *m, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        int r;

        r = loader_list_names(m->loader, &l);
        if (r < 0)
                return r;
        {
                /* the base units the tree lacks (l is sorted: a binary search each) */
                size_t n = strv_length(l), nb = base_model_unit_count(m->base), k = n;
                char **nl = realloc(l, sizeof(char *) * (n + nb + 1));
                if (!nl)
                        return -ENOMEM;
                l = nl;
                for (size_t i = 0; m->base && i < nb; i++) {
                        const char *b = base_model_unit_get(m->base, i)->name;
                        if (n > 0 && bsearch(&b, l, n, sizeof(char *), cmp_name))
                                continue;
                        if (!(l[k++] = strdup(b))) {
                                l[k - 1] = NULL;
                                return -ENOMEM;
                        }
                }
                l[k] = NULL;
        }
        strv_sort(l);
        *ret = TAKE_PTR(l);
        return 0;
}
