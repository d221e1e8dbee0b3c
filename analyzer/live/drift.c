/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "live/drift.h"

static const char * const side_table[_DRIFT_SIDE_MAX] = {
        [DRIFT_ONLY_LIVE] = "only-live",
        [DRIFT_ONLY_MODEL] = "only-model",
};

const char *drift_side_to_string(DriftSide s) {
        return s >= 0 && s < _DRIFT_SIDE_MAX ? side_table[s] : NULL;
}

typedef struct Fact {
        char *key;          /* "unit\037type\037other": the hashmap's key */
        char *unit, *other;
        LiveDep type;       /* canonical: a forward type, After for ordering, or a path list */
        bool live, model;
        bool before;        /* the model's first edge for it is a Before= on other */
        uint32_t *origins;
        size_t n_origins, allocated_origins;
} Fact;

typedef struct FactSet {
        Hashmap map;
        Fact **facts;
        size_t n_facts, allocated_facts;
} FactSet;

static void fact_set_done(FactSet *f) {
        for (size_t i = 0; i < f->n_facts; i++) {
                free(f->facts[i]->key);
                free(f->facts[i]->unit);
                free(f->facts[i]->other);
                free(f->facts[i]->origins);
                free(f->facts[i]);
        }
        free(f->facts);
        hashmap_done(&f->map);
}

/* The forward fact of a list entry "a d b": which unit holds it, in which type, towards which. */
static LiveDep canonical(LiveDep d, const char **a, const char **b) {
        static const LiveDep inverse_of[_LIVE_DEP_MAX] = {
                [LIVE_DEP_BEFORE] = LIVE_DEP_AFTER,
                [LIVE_DEP_RELOAD_PROPAGATED_FROM] = LIVE_DEP_PROPAGATES_RELOAD_TO,
                [LIVE_DEP_STOP_PROPAGATED_FROM] = LIVE_DEP_PROPAGATES_STOP_TO,
                [LIVE_DEP_REQUIRED_BY] = LIVE_DEP_REQUIRES,
                [LIVE_DEP_REQUISITE_OF] = LIVE_DEP_REQUISITE,
                [LIVE_DEP_WANTED_BY] = LIVE_DEP_WANTS,
                [LIVE_DEP_BOUND_BY] = LIVE_DEP_BINDS_TO,
                [LIVE_DEP_CONSISTS_OF] = LIVE_DEP_PART_OF,
                [LIVE_DEP_UPHELD_BY] = LIVE_DEP_UPHOLDS,
                [LIVE_DEP_CONFLICTED_BY] = LIVE_DEP_CONFLICTS,
                [LIVE_DEP_ON_SUCCESS_OF] = LIVE_DEP_ON_SUCCESS,
                [LIVE_DEP_ON_FAILURE_OF] = LIVE_DEP_ON_FAILURE,
                [LIVE_DEP_TRIGGERED_BY] = LIVE_DEP_TRIGGERS,
        };
        const char *t;

        /* LIVE_DEP_REQUIRES is 0: an entry of 0 means "not an inverse" except for the types listed */
        if (d != LIVE_DEP_REQUIRES && inverse_of[d] != LIVE_DEP_REQUIRES) {
                t = *a, *a = *b, *b = t;
                return inverse_of[d];
        }
        if (d == LIVE_DEP_REQUIRED_BY) {
                t = *a, *a = *b, *b = t;
                return LIVE_DEP_REQUIRES;
        }
        /* JoinsNamespaceOf= holds both ways */
        if (d == LIVE_DEP_JOINS_NAMESPACE_OF && strcmp(*a, *b) > 0)
                t = *a, *a = *b, *b = t;
        return d;
}

static LiveDep live_dep_of(DepType t) {
        switch (t) {
        case DEP_REQUIRES: return LIVE_DEP_REQUIRES;
        case DEP_REQUISITE: return LIVE_DEP_REQUISITE;
        case DEP_WANTS: return LIVE_DEP_WANTS;
        case DEP_BINDS_TO: return LIVE_DEP_BINDS_TO;
        case DEP_PART_OF: return LIVE_DEP_PART_OF;
        case DEP_UPHOLDS: return LIVE_DEP_UPHOLDS;
        case DEP_CONFLICTS: return LIVE_DEP_CONFLICTS;
        case DEP_BEFORE: return LIVE_DEP_BEFORE;
        case DEP_AFTER: return LIVE_DEP_AFTER;
        case DEP_ON_FAILURE: return LIVE_DEP_ON_FAILURE;
        case DEP_ON_SUCCESS: return LIVE_DEP_ON_SUCCESS;
        case DEP_TRIGGERS: return LIVE_DEP_TRIGGERS;
        case DEP_PROPAGATES_RELOAD_TO: return LIVE_DEP_PROPAGATES_RELOAD_TO;
        case DEP_RELOAD_PROPAGATED_FROM: return LIVE_DEP_RELOAD_PROPAGATED_FROM;
        case DEP_PROPAGATES_STOP_TO: return LIVE_DEP_PROPAGATES_STOP_TO;
        case DEP_STOP_PROPAGATED_FROM: return LIVE_DEP_STOP_PROPAGATED_FROM;
        case DEP_JOINS_NAMESPACE_OF: return LIVE_DEP_JOINS_NAMESPACE_OF;
        case DEP_TRIGGERED_BY: return LIVE_DEP_TRIGGERED_BY;
        default: return _LIVE_DEP_INVALID;
        }
}

/* The name PID 1 uses for a unit: its id there, also when the model knows it by an alias. */
static const char *canon_name(const LiveSystem *s, const Model *m, const char *name) {
        const LiveUnit *u = live_system_find(s, name);
        const ModelUnit *mu;

        if (u)
                return u->id;
        mu = m ? model_get(m, name) : NULL;
        if (!mu || !mu->unit)
                return name;
        STRV_FOREACH(n, mu->unit->names) {
                u = live_system_find(s, *n);
                if (u)
                        return u->id;
        }
        return mu->unit->id;
}

static int fact_get(FactSet *f, const char *unit, LiveDep type, const char *other, Fact **ret) {
        _cleanup_(freep) char *key = NULL;
        Fact *x;

        if (asprintf_safe(&key, "%s\037%d\037%s", unit, (int) type, other) < 0)
                return -ENOMEM;
        x = hashmap_get(&f->map, key);
        if (x) {
                *ret = x;
                return 0;
        }
        if (GREEDY_REALLOC(f->facts, f->allocated_facts, f->n_facts + 1) < 0)
                return -ENOMEM;
        x = calloc(1, sizeof(Fact));
        if (!x)
                return -ENOMEM;
        x->type = type;
        x->unit = strdup(unit);
        x->other = strdup(other);
        x->key = TAKE_PTR(key);
        if (!x->unit || !x->other || hashmap_put(&f->map, x->key, x) < 0) {
                free(x->unit), free(x->other), free(x->key), free(x);
                return -ENOMEM;
        }
        f->facts[f->n_facts++] = x;
        *ret = x;
        return 0;
}

static int add_live(FactSet *f, const LiveSystem *s, const char *a, LiveDep d, const char *b) {
        Fact *x;
        LiveDep t;
        int r;

        if (live_dep_is_path_list(d))
                t = d;
        else {
                a = canon_name(s, NULL, a);
                b = canon_name(s, NULL, b);
                t = canonical(d, &a, &b);
                if (streq(a, b))
                        return 0;
        }
        r = fact_get(f, a, t, b, &x);
        if (r < 0)
                return r;
        x->live = true;
        return 0;
}

static int add_model(FactSet *f, const LiveSystem *s, const Model *m, const char *a, LiveDep d, const char *b,
                     uint32_t origin) {
        Fact *x;
        LiveDep t;
        int r;

        a = canon_name(s, m, a);
        if (!live_dep_is_path_list(d))
                b = canon_name(s, m, b);
        t = live_dep_is_path_list(d) ? d : canonical(d, &a, &b);
        if (streq(a, b))
                return 0;
        r = fact_get(f, a, t, b, &x);
        if (r < 0)
                return r;
        if (!x->model)
                x->before = d == LIVE_DEP_BEFORE;
        x->model = true;
        if (GREEDY_REALLOC(x->origins, x->allocated_origins, x->n_origins + 1) < 0)
                return -ENOMEM;
        x->origins[x->n_origins++] = origin;
        return 0;
}

void drift_done(Drift *d) {
        for (size_t i = 0; i < d->n_items; i++) {
                free(d->items[i].unit);
                free(d->items[i].other);
                free(d->items[i].origins);
        }
        d->items = mfree(d->items);
        d->n_items = 0;
}

static int item_compare(const void *a, const void *b) {
        const DriftItem *x = a, *y = b;
        int c = strcmp(x->unit, y->unit);

        if (c == 0)
                c = (int) x->type - (int) y->type;
        if (c == 0)
                c = strcmp(x->other, y->other);
        return c;
}

int drift_compare(const LiveSystem *s, const Model *m, char * const *units, Drift *ret) {
        _cleanup_(strv_freep) char **scope = NULL;
        _cleanup_(freep) DriftItem *items = NULL;
        FactSet f = {};
        Graph *g = model_graph(m);
        uint64_t has = 0;
        size_t n = 0, n_facts = 0;
        int r = -ENOMEM;

        hashmap_init(&f.map);
        for (size_t i = 0; i < s->n_units; i++)
                has |= s->units[i]->has_deps;
        if (units) {
                STRV_FOREACH(u, units)
                        if (strv_extend_unique(&scope, canon_name(s, m, *u)) < 0)
                                goto finish;
        } else
                for (size_t i = 0; i < s->n_units; i++)
                        if (strv_extend(&scope, s->units[i]->id) < 0)
                                goto finish;

        for (size_t i = 0; i < s->n_units; i++) {
                const LiveUnit *u = s->units[i];
                for (LiveDep d = 0; d < _LIVE_DEP_MAX; d++)
                        STRV_FOREACH(o, u->deps[d])
                                if (add_live(&f, s, u->id, d, *o) < 0)
                                        goto finish;
        }
        for (size_t i = 0; i < graph_edge_count(g); i++) {
                const GraphEdge *e = graph_edge(g, i);
                LiveDep d = live_dep_of(e->type);
                if (d < 0)
                        continue;
                if (add_model(&f, s, m, graph_node_name(g, e->from), d, graph_node_name(g, e->to), e->origin) < 0)
                        goto finish;
        }
        for (size_t i = 0; i < model_unit_count(m); i++) {
                const ModelUnit *mu = model_unit(m, i);
                if (!mu->unit)
                        continue;
                for (size_t k = 0; k < mu->n_mounts_for; k++) {
                        const MountsFor *mf = &mu->mounts_for[k];
                        if (add_model(&f, s, m, mu->unit->id,
                                      mf->wants ? LIVE_DEP_WANTS_MOUNTS_FOR : LIVE_DEP_REQUIRES_MOUNTS_FOR,
                                      mf->path, mf->origin) < 0)
                                goto finish;
                }
        }

        for (size_t i = 0; i < f.n_facts; i++) {
                Fact *x = f.facts[i];
                bool in_scope = strv_contains(scope, x->unit) ||
                                (!live_dep_is_path_list(x->type) && strv_contains(scope, x->other));
                DriftItem *it;

                /* a list this systemd does not have: nothing to compare with */
                if (!in_scope || !(has & (UINT64_C(1) << x->type)))
                        continue;
                n_facts++;
                if (x->live == x->model)
                        continue;
                it = reallocarray(items, n + 1, sizeof(DriftItem));
                if (!it)
                        goto finish;
                items = it;
                it = &items[n++];
                *it = (DriftItem) {
                        .unit = TAKE_PTR(x->unit),
                        .other = TAKE_PTR(x->other),
                        .type = x->type,
                        .side = x->live ? DRIFT_ONLY_LIVE : DRIFT_ONLY_MODEL,
                        .origins = TAKE_PTR(x->origins),
                        .n_origins = x->n_origins,
                };
                if (x->before) {
                        char *t = it->unit;
                        it->unit = it->other;
                        it->other = t;
                        it->type = LIVE_DEP_BEFORE;
                }
        }
        if (n > 0)
                qsort_safe(items, n, sizeof(DriftItem), item_compare);
        *ret = (Drift) {
                .items = TAKE_PTR(items),
                .n_items = n,
                .n_units = strv_length(scope),
                .n_facts = n_facts,
        };
        r = 0;
finish:
        if (r < 0)
                for (size_t i = 0; i < n; i++) {
                        free(items[i].unit);
                        free(items[i].other);
                        free(items[i].origins);
                }
        fact_set_done(&f);
        return r;
}
