/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model/transaction.h"

struct Transaction {
        const Model *model;
        const Graph *g;
        uint32_t anchor;
        size_t n_nodes;
        uint8_t *job;        /* per node: has a start job */
        uint8_t *matters;    /* per node: the job matters to the anchor */
        uint32_t *pulled_by; /* per node: edge that pulled it in */
        size_t n_jobs;
};

Transaction *transaction_free(Transaction *t) {
        if (!t)
                return NULL;
        free(t->job);
        free(t->matters);
        free(t->pulled_by);
        free(t);
        return NULL;
}

/* Units that are active before PID 1 starts anything (systemd calls them perpetual): a start job for them is
 * redundant and transaction_drop_redundant_jobs() removes it before the order is verified. */
static const char * const perpetual_units[] = { "-.mount", "-.slice", "init.scope", NULL };

static bool job_possible(const Model *m, uint32_t node) {
        const ModelUnit *u = model_unit_of_node(m, node);

        if (!u || !u->loaded)
                return false;
        for (const char * const *p = perpetual_units; *p; p++)
                if (streq(graph_node_name(model_graph(m), node), *p))
                        return false;
        return true;
}

int transaction_build(const Model *m, const char *anchor, Transaction **ret, DiagList *diags) {
        _cleanup_(transaction_freep) Transaction *t = NULL;
        _cleanup_(freep) uint32_t *queue = NULL;
        const Graph *g = model_graph(m);
        size_t head = 0, tail = 0;
        uint32_t a;

        const ModelUnit *au = model_get(m, anchor); /* any of its names: default.target is an alias */

        if (!au || !au->loaded)
                return -ENOENT;
        a = au->node;
        t = calloc(1, sizeof(Transaction));
        if (!t)
                return -ENOMEM;
        t->model = m;
        t->g = g;
        t->anchor = a;
        t->n_nodes = graph_node_count(g);
        t->job = calloc(t->n_nodes, 1);
        t->matters = calloc(t->n_nodes, 1);
        t->pulled_by = malloc(sizeof(uint32_t) * t->n_nodes);
        queue = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        if (!t->job || !t->matters || !t->pulled_by || !queue)
                return -ENOMEM;
        for (size_t i = 0; i < t->n_nodes; i++)
                t->pulled_by[i] = UINT32_MAX;

        /* Jobs first, over every pulling link; then "matters", over the links that matter only. */
        t->job[a] = 1;
        t->n_jobs = 1;
        queue[tail++] = a;
        while (head < tail) {
                uint32_t x = queue[head++];
                EdgeSet e = graph_out(g, x);

                for (size_t i = 0; i < e.n; i++) {
                        uint32_t id = edge_set_get(&e, i);
                        const GraphEdge *ed = graph_edge(g, id);
                        bool required = ed->type == DEP_REQUIRES || ed->type == DEP_BINDS_TO ||
                                        ed->type == DEP_REQUISITE;

                        if (!(DEP_MASK(ed->type) & DEP_MASK_PULL) || t->job[ed->to])
                                continue;
                        if (!job_possible(m, ed->to)) {
                                const ModelUnit *tu = model_unit_of_node(m, ed->to);
                                if (required && !(tu && tu->loaded))
                                        (void) diag_add(diags, DIAG_WARNING, NULL, 0,
                                                        "%s %s=%s, which cannot be loaded: the start job of %s would "
                                                        "fail",
                                                        graph_node_name(g, x), dep_type_to_string(ed->type),
                                                        graph_node_name(g, ed->to), graph_node_name(g, x));
                                continue;
                        }
                        t->job[ed->to] = 1;
                        t->pulled_by[ed->to] = id;
                        t->n_jobs++;
                        queue[tail++] = ed->to;
                }
        }
        head = tail = 0;
        t->matters[a] = 1;
        queue[tail++] = a;
        while (head < tail) {
                uint32_t x = queue[head++];
                EdgeSet e = graph_out(g, x);

                for (size_t i = 0; i < e.n; i++) {
                        const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                        if ((ed->type != DEP_REQUIRES && ed->type != DEP_BINDS_TO && ed->type != DEP_REQUISITE) ||
                            !t->job[ed->to] || t->matters[ed->to])
                                continue;
                        t->matters[ed->to] = 1;
                        queue[tail++] = ed->to;
                }
        }
        *ret = TAKE_PTR(t);
        return 0;
}

bool transaction_has_job(const Transaction *t, uint32_t node) {
        return node < t->n_nodes && t->job[node];
}

bool transaction_matters(const Transaction *t, uint32_t node) {
        return node < t->n_nodes && t->matters[node];
}

size_t transaction_job_count(const Transaction *t) {
        return t->n_jobs;
}

uint32_t transaction_pulled_by(const Transaction *t, uint32_t node) {
        return node < t->n_nodes ? t->pulled_by[node] : UINT32_MAX;
}

/* ---- the ordering graph among jobs: an arc x -> y when x is ordered after y (x After=y, or y Before=x) */

typedef struct Arcs {
        uint32_t *start;  /* per node: first arc (CSR) */
        uint32_t *to;
        uint32_t *edge;
} Arcs;

static void arcs_done(Arcs *a) {
        free(a->start);
        free(a->to);
        free(a->edge);
}

/* Which of two edges ordering the same pair of jobs a cycle shows: a line of a unit file (a package's before
 * the base model's), then a rule applied to a unit file, then the rest. Lower is better. */
static unsigned arc_rank(const Graph *g, uint32_t edge) {
        const Origin *o = graph_origin(g, graph_edge(g, edge)->origin);
        unsigned r;

        switch (o->kind) {
        case ORIGIN_FILE:
        case ORIGIN_DROPIN:
                r = 0;
                break;
        case ORIGIN_RULE:
        case ORIGIN_MOUNTS_FOR:
                r = o->class && streq(o->class, "default") ? 2 : 1;
                break;
        default:
                r = 3;
                break;
        }
        return r * 2 + o->base;
}

/* One arc per ordered pair of jobs: x After=y in x's file and y Before=x in y's (or a rule's copy of either) are
 * one ordering to PID 1, and counting each would list the same cycle once per edge source. */
static int arcs_dedup(const Transaction *t, Arcs *a) {
        _cleanup_(freep) uint32_t *seen = NULL, *pos = NULL;
        uint32_t out = 0;

        seen = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        pos = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        if (!seen || !pos)
                return -ENOMEM;
        for (size_t i = 0; i < t->n_nodes; i++)
                seen[i] = UINT32_MAX;
        for (uint32_t x = 0; x < t->n_nodes; x++) {
                uint32_t begin = a->start[x], end = a->start[x + 1];

                a->start[x] = out;
                for (uint32_t k = begin; k < end; k++) {
                        uint32_t y = a->to[k], e = a->edge[k];

                        if (seen[y] == x) {
                                if (arc_rank(t->g, e) < arc_rank(t->g, a->edge[pos[y]]))
                                        a->edge[pos[y]] = e;
                                continue;
                        }
                        seen[y] = x;
                        pos[y] = out;
                        a->to[out] = y;
                        a->edge[out++] = e;
                }
        }
        a->start[t->n_nodes] = out;
        return 0;
}

static int arcs_build(const Transaction *t, Arcs *a) {
        const Graph *g = t->g;
        size_t n_edges = graph_edge_count(g);
        uint32_t *count;

        a->start = calloc(t->n_nodes + 1, sizeof(uint32_t));
        a->to = malloc(sizeof(uint32_t) * (n_edges + 1));
        a->edge = malloc(sizeof(uint32_t) * (n_edges + 1));
        count = calloc(t->n_nodes + 1, sizeof(uint32_t));
        if (!a->start || !a->to || !a->edge || !count) {
                free(count);
                return -ENOMEM;
        }
        /* two passes: count arcs per source, then place them */
        for (int pass = 0; pass < 2; pass++) {
                for (size_t i = 0; i < n_edges; i++) {
                        const GraphEdge *ed = graph_edge(g, i);
                        uint32_t x, y;

                        if (ed->type == DEP_AFTER)
                                x = ed->from, y = ed->to;
                        else if (ed->type == DEP_BEFORE)
                                x = ed->to, y = ed->from;
                        else
                                continue;
                        if (!t->job[x] || !t->job[y])
                                continue;
                        if (pass == 0)
                                a->start[x + 1]++;
                        else {
                                uint32_t pos = a->start[x] + count[x]++;
                                a->to[pos] = y;
                                a->edge[pos] = (uint32_t) i;
                        }
                }
                if (pass == 0)
                        for (size_t i = 0; i < t->n_nodes; i++)
                                a->start[i + 1] += a->start[i];
        }
        free(count);
        return arcs_dedup(t, a);
}

/* Tarjan's strongly connected components, iteratively. comp[node] = component id, or UINT32_MAX without a job. */
static int scc(const Transaction *t, const Arcs *a, uint32_t *comp, uint32_t *ret_n) {
        size_t n = t->n_nodes;
        _cleanup_(freep) uint32_t *index = NULL, *low = NULL, *stack = NULL, *call = NULL, *next = NULL;
        _cleanup_(freep) uint8_t *on = NULL;
        uint32_t idx = 0, sp = 0, cp = 0, n_comp = 0;

        index = malloc(sizeof(uint32_t) * (n + 1));
        low = malloc(sizeof(uint32_t) * (n + 1));
        stack = malloc(sizeof(uint32_t) * (n + 1));
        call = malloc(sizeof(uint32_t) * (n + 1));
        next = malloc(sizeof(uint32_t) * (n + 1));
        on = calloc(n + 1, 1);
        if (!index || !low || !stack || !call || !next || !on)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                index[i] = UINT32_MAX;
                comp[i] = UINT32_MAX;
        }
        for (uint32_t s = 0; s < n; s++) {
                if (!t->job[s] || index[s] != UINT32_MAX)
                        continue;
                call[cp++] = s;
                index[s] = low[s] = idx++;
                next[s] = a->start[s];
                stack[sp++] = s;
                on[s] = 1;
                while (cp > 0) {
                        uint32_t v = call[cp - 1];
                        if (next[v] < a->start[v + 1]) {
                                uint32_t w = a->to[next[v]++];
                                if (index[w] == UINT32_MAX) {
                                        index[w] = low[w] = idx++;
                                        next[w] = a->start[w];
                                        stack[sp++] = w;
                                        on[w] = 1;
                                        call[cp++] = w;
                                } else if (on[w])
                                        low[v] = MIN(low[v], index[w]);
                                continue;
                        }
                        if (low[v] == index[v]) {
                                uint32_t w;
                                do {
                                        w = stack[--sp];
                                        on[w] = 0;
                                        comp[w] = n_comp;
                                } while (w != v);
                                n_comp++;
                        }
                        cp--;
                        if (cp > 0) {
                                uint32_t u = call[cp - 1];
                                low[u] = MIN(low[u], low[v]);
                        }
                }
        }
        *ret_n = n_comp;
        return 0;
}

void cycle_list_free(Cycle *c, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(c[i].nodes);
                free(c[i].edges);
                free(c[i].victims);
        }
        free(c);
}

bool cycle_has(const Cycle *c, uint32_t node) {
        for (size_t i = 0; i < c->n; i++)
                if (c->nodes[i] == node)
                        return true;
        return false;
}

typedef struct CycleSearch {
        const Transaction *t;
        const Arcs *a;
        const uint32_t *comp;
        uint32_t start;
        uint32_t *path_nodes, *path_edges;
        size_t depth;
        uint8_t *on_path;
        Cycle *cycles;
        size_t n_cycles, allocated, max;
        unsigned long budget;
        bool truncated;
} CycleSearch;

static int record_cycle(CycleSearch *s, uint32_t closing_edge) {
        Cycle c = {};

        if (s->n_cycles >= s->max) {
                s->truncated = true;
                return 0;
        }
        c.n = s->depth + 1;
        c.nodes = malloc(sizeof(uint32_t) * c.n);
        c.edges = malloc(sizeof(uint32_t) * c.n);
        c.victims = malloc(sizeof(uint32_t) * c.n);
        if (!c.nodes || !c.edges || !c.victims) {
                free(c.nodes);
                free(c.edges);
                free(c.victims);
                return -ENOMEM;
        }
        for (size_t i = 0; i <= s->depth; i++) {
                c.nodes[i] = s->path_nodes[i];
                c.edges[i] = i < s->depth ? s->path_edges[i] : closing_edge;
                if (!s->t->matters[c.nodes[i]])
                        c.victims[c.n_victims++] = c.nodes[i];
        }
        if (GREEDY_REALLOC(s->cycles, s->allocated, s->n_cycles + 1) < 0) {
                free(c.nodes);
                free(c.edges);
                free(c.victims);
                return -ENOMEM;
        }
        s->cycles[s->n_cycles++] = c;
        return 0;
}

/* Elementary cycles through start whose other nodes all have a larger index, in start's component: each cycle
 * is found once, from its smallest node. */
static int search(CycleSearch *s, uint32_t v) {
        for (uint32_t k = s->a->start[v]; k < s->a->start[v + 1]; k++) {
                uint32_t w = s->a->to[k];
                int r;

                if (s->budget-- == 0 || s->n_cycles >= s->max) {
                        s->truncated = true;
                        return 0;
                }
                if (s->comp[w] != s->comp[s->start] || w < s->start)
                        continue;
                if (w == s->start) {
                        r = record_cycle(s, s->a->edge[k]);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (s->on_path[w])
                        continue;
                s->path_edges[s->depth] = s->a->edge[k];
                s->path_nodes[++s->depth] = w;
                s->on_path[w] = 1;
                r = search(s, w);
                s->on_path[w] = 0;
                s->depth--;
                if (r < 0)
                        return r;
        }
        return 0;
}

int transaction_cycles(const Transaction *t, size_t max, Cycle **ret, size_t *ret_n, bool *ret_truncated) {
        _cleanup_(arcs_done) Arcs a = {};
        _cleanup_(freep) uint32_t *comp = NULL, *size = NULL, *path_nodes = NULL, *path_edges = NULL;
        _cleanup_(freep) uint8_t *on_path = NULL;
        CycleSearch s = {};
        uint32_t n_comp = 0;
        int r;

        comp = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        path_nodes = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        path_edges = malloc(sizeof(uint32_t) * (t->n_nodes + 1));
        on_path = calloc(t->n_nodes + 1, 1);
        if (!comp || !path_nodes || !path_edges || !on_path)
                return -ENOMEM;
        r = arcs_build(t, &a);
        if (r < 0)
                return r;
        r = scc(t, &a, comp, &n_comp);
        if (r < 0)
                return r;
        size = calloc(n_comp + 1, sizeof(uint32_t));
        if (!size)
                return -ENOMEM;
        for (size_t i = 0; i < t->n_nodes; i++)
                if (comp[i] != UINT32_MAX)
                        size[comp[i]]++;

        s = (CycleSearch) { .t = t, .a = &a, .comp = comp, .path_nodes = path_nodes, .path_edges = path_edges,
                            .on_path = on_path, .max = max, .budget = 2000000 };
        for (uint32_t v = 0; v < t->n_nodes; v++) {
                bool self = false;
                if (comp[v] == UINT32_MAX)
                        continue;
                for (uint32_t k = a.start[v]; k < a.start[v + 1]; k++)
                        if (a.to[k] == v)
                                self = true;
                if (size[comp[v]] < 2 && !self)
                        continue;
                s.start = v;
                s.depth = 0;
                path_nodes[0] = v;
                on_path[v] = 1;
                r = search(&s, v);
                on_path[v] = 0;
                if (r < 0) {
                        cycle_list_free(s.cycles, s.n_cycles);
                        return r;
                }
                if (s.truncated)
                        break;
        }
        *ret = s.cycles;
        *ret_n = s.n_cycles;
        if (ret_truncated)
                *ret_truncated = s.truncated;
        return 0;
}
