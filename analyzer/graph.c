/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "graph.h"

struct Graph {
        Hashmap names;      /* name -> node index + 1 (as a pointer-sized integer) */
        char **node_names;
        size_t n_nodes, allocated_nodes;
        GraphEdge *edges;
        size_t n_edges, allocated_edges;
        Origin *origins;
        size_t n_origins, allocated_origins;
        Hashmap strings;    /* interned strings: key and value are the same allocation */
        uint32_t *out_start, *out_edges, *in_start, *in_edges; /* CSR indexes, valid when finished */
        bool finished;
};

static const char * const origin_kind_table[_ORIGIN_KIND_MAX] = {
        [ORIGIN_FILE] = "file",
        [ORIGIN_DROPIN] = "drop-in",
        [ORIGIN_LINK] = "link",
        [ORIGIN_RULE] = "rule",
        [ORIGIN_MOUNTS_FOR] = "mounts-for",
        [ORIGIN_LIVE] = "live",
};

const char *origin_kind_to_string(OriginKind k) {
        return k >= 0 && k < _ORIGIN_KIND_MAX ? origin_kind_table[k] : NULL;
}

int graph_new(Graph **ret) {
        Graph *g = calloc(1, sizeof(Graph));
        if (!g)
                return -ENOMEM;
        hashmap_init(&g->names);
        hashmap_init(&g->strings);
        *ret = g;
        return 0;
}

static void drop_indexes(Graph *g) {
        g->out_start = mfree(g->out_start);
        g->out_edges = mfree(g->out_edges);
        g->in_start = mfree(g->in_start);
        g->in_edges = mfree(g->in_edges);
        g->finished = false;
}

Graph *graph_free(Graph *g) {
        if (!g)
                return NULL;
        for (size_t i = 0; i < g->n_nodes; i++)
                free(g->node_names[i]);
        free(g->node_names);
        hashmap_done(&g->names);
        HASHMAP_FOREACH_ENTRY(e, &g->strings)
                free(e->value);
        hashmap_done(&g->strings);
        free(g->edges);
        free(g->origins);
        drop_indexes(g);
        return mfree(g);
}

const char *graph_intern(Graph *g, const char *s) {
        char *c;

        if (!s)
                return NULL;
        c = hashmap_get(&g->strings, s);
        if (c)
                return c;
        c = strdup(s);
        if (!c || hashmap_put(&g->strings, c, c) < 0) {
                free(c);
                return NULL;
        }
        return c;
}

int graph_node(Graph *g, const char *name, uint32_t *ret) {
        void *v = hashmap_get(&g->names, name);
        char *n;

        if (v) {
                *ret = (uint32_t) ((uintptr_t) v - 1);
                return 0;
        }
        if (g->n_nodes >= UINT32_MAX - 1 || GREEDY_REALLOC(g->node_names, g->allocated_nodes, g->n_nodes + 1) < 0)
                return -ENOMEM;
        n = strdup(name);
        if (!n)
                return -ENOMEM;
        if (hashmap_put(&g->names, n, (void *) (uintptr_t) (g->n_nodes + 1)) < 0) {
                free(n);
                return -ENOMEM;
        }
        g->node_names[g->n_nodes] = n;
        *ret = (uint32_t) g->n_nodes++;
        drop_indexes(g);
        return 0;
}

int graph_find_node(const Graph *g, const char *name, uint32_t *ret) {
        void *v = hashmap_get(&g->names, name);
        if (!v)
                return -ENOENT;
        *ret = (uint32_t) ((uintptr_t) v - 1);
        return 0;
}

size_t graph_node_count(const Graph *g) {
        return g->n_nodes;
}

const char *graph_node_name(const Graph *g, uint32_t node) {
        return node < g->n_nodes ? g->node_names[node] : NULL;
}

int graph_add_origin(Graph *g, const Origin *o, uint32_t *ret) {
        Origin c = *o;

        if (GREEDY_REALLOC(g->origins, g->allocated_origins, g->n_origins + 1) < 0)
                return -ENOMEM;
        c.file = graph_intern(g, o->file);
        c.rule = graph_intern(g, o->rule);
        c.class = graph_intern(g, o->class);
        c.detail = graph_intern(g, o->detail);
        if ((o->file && !c.file) || (o->rule && !c.rule) || (o->class && !c.class) || (o->detail && !c.detail))
                return -ENOMEM;
        g->origins[g->n_origins] = c;
        *ret = (uint32_t) g->n_origins++;
        return 0;
}

const Origin *graph_origin(const Graph *g, uint32_t id) {
        return id < g->n_origins ? &g->origins[id] : NULL;
}

int graph_add_edge(Graph *g, uint32_t from, DepType type, uint32_t to, uint32_t origin) {
        if (from >= g->n_nodes || to >= g->n_nodes || type < 0 || type >= _DEP_TYPE_MAX || origin >= g->n_origins)
                return -EINVAL;
        if (GREEDY_REALLOC(g->edges, g->allocated_edges, g->n_edges + 1) < 0)
                return -ENOMEM;
        g->edges[g->n_edges++] = (GraphEdge) { .from = from, .to = to, .origin = origin, .type = (uint8_t) type };
        g->finished = false;
        return 0;
}

static int edge_cmp(const void *x, const void *y) {
        const GraphEdge *a = x, *b = y;
        if (a->from != b->from)
                return a->from < b->from ? -1 : 1;
        if (a->type != b->type)
                return a->type < b->type ? -1 : 1;
        if (a->to != b->to)
                return a->to < b->to ? -1 : 1;
        if (a->origin != b->origin)
                return a->origin < b->origin ? -1 : 1;
        return 0;
}

size_t graph_remove_edges(Graph *g, bool (*drop)(const GraphEdge *e, void *userdata), void *userdata) {
        size_t n = 0, removed;

        drop_indexes(g);
        g->finished = false;
        for (size_t i = 0; i < g->n_edges; i++)
                if (!drop(&g->edges[i], userdata))
                        g->edges[n++] = g->edges[i];
        removed = g->n_edges - n;
        g->n_edges = n;
        return removed;
}

int graph_finish(Graph *g) {
        size_t n = 0;

        drop_indexes(g);
        if (g->n_edges > 0)
                qsort(g->edges, g->n_edges, sizeof(GraphEdge), edge_cmp);
        for (size_t i = 0; i < g->n_edges; i++)
                if (g->edges[i].from != g->edges[i].to && (n == 0 || edge_cmp(&g->edges[n - 1], &g->edges[i]) != 0))
                        g->edges[n++] = g->edges[i];
        g->n_edges = n;

        g->out_start = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->in_start = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->out_edges = malloc(sizeof(uint32_t) * (n + 1));
        g->in_edges = malloc(sizeof(uint32_t) * (n + 1));
        if (!g->out_start || !g->in_start || !g->out_edges || !g->in_edges) {
                drop_indexes(g);
                return -ENOMEM;
        }
        /* counting sort by node: the edge array is already sorted by from, so out_edges is the identity */
        for (size_t i = 0; i < n; i++) {
                g->out_start[g->edges[i].from + 1]++;
                g->in_start[g->edges[i].to + 1]++;
        }
        for (size_t i = 0; i < g->n_nodes; i++) {
                g->out_start[i + 1] += g->out_start[i];
                g->in_start[i + 1] += g->in_start[i];
        }
        {
                _cleanup_(freep) uint32_t *fill = calloc(g->n_nodes + 1, sizeof(uint32_t));
                if (!fill) {
                        drop_indexes(g);
                        return -ENOMEM;
                }
                for (size_t i = 0; i < n; i++) {
                        uint32_t t = g->edges[i].to;
                        g->out_edges[i] = (uint32_t) i;
                        g->in_edges[g->in_start[t] + fill[t]++] = (uint32_t) i;
                }
        }
        g->finished = true;
        return 0;
}

size_t graph_edge_count(const Graph *g) {
        return g->n_edges;
}

const GraphEdge *graph_edge(const Graph *g, size_t i) {
        return i < g->n_edges ? &g->edges[i] : NULL;
}

size_t graph_out(const Graph *g, uint32_t node, const uint32_t **ret) {
        if (!g->finished || node >= g->n_nodes) {
                *ret = NULL;
                return 0;
        }
        *ret = g->out_edges + g->out_start[node];
        return g->out_start[node + 1] - g->out_start[node];
}

size_t graph_in(const Graph *g, uint32_t node, const uint32_t **ret) {
        if (!g->finished || node >= g->n_nodes) {
                *ret = NULL;
                return 0;
        }
        *ret = g->in_edges + g->in_start[node];
        return g->in_start[node + 1] - g->in_start[node];
}

bool graph_has_edge(const Graph *g, uint32_t from, DepType t, uint32_t to) {
        const uint32_t *e;
        size_t n = graph_out(g, from, &e);

        /* edges of one node are sorted by (type, to): binary search */
        size_t lo = 0, hi = n;
        while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                const GraphEdge *m = &g->edges[e[mid]];
                if (m->type < t || (m->type == t && m->to < to))
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return lo < n && g->edges[e[lo]].type == t && g->edges[e[lo]].to == to;
}

/* Breadth-first search over the "runs after" relation; prev[] holds, per reached node, the edge that reached it
 * (+1; 0 = not reached). */
int graph_ordered_after(const Graph *g, uint32_t a, uint32_t b, uint32_t **ret_chain, size_t *ret_n) {
        _cleanup_(freep) uint32_t *queue = NULL, *prev = NULL;
        size_t head = 0, tail = 0;

        if (!g->finished || a >= g->n_nodes || b >= g->n_nodes)
                return -EINVAL;
        queue = malloc(sizeof(uint32_t) * g->n_nodes);
        prev = calloc(g->n_nodes, sizeof(uint32_t));
        if (!queue || !prev)
                return -ENOMEM;
        queue[tail++] = a;
        prev[a] = UINT32_MAX; /* the start: reached, by no edge */
        while (head < tail) {
                uint32_t x = queue[head++];
                const uint32_t *e;
                size_t n;

                if (x == b && x != a)
                        break;
                /* x After= y, and y Before= x */
                for (int dir = 0; dir < 2; dir++) {
                        n = dir == 0 ? graph_out(g, x, &e) : graph_in(g, x, &e);
                        for (size_t i = 0; i < n; i++) {
                                const GraphEdge *ed = &g->edges[e[i]];
                                uint32_t y = dir == 0 ? ed->to : ed->from;
                                if (ed->type != (dir == 0 ? DEP_AFTER : DEP_BEFORE) || prev[y])
                                        continue;
                                prev[y] = e[i] + 1;
                                queue[tail++] = y;
                        }
                }
        }
        if (a == b || !prev[b]) {
                if (ret_chain)
                        *ret_chain = NULL;
                if (ret_n)
                        *ret_n = 0;
                return 0;
        }
        if (ret_chain) {
                size_t n = 0;
                uint32_t *chain;
                for (uint32_t x = b; x != a;) {
                        const GraphEdge *ed = &g->edges[prev[x] - 1];
                        n++;
                        x = ed->to == x ? ed->from : ed->to;
                }
                chain = malloc(sizeof(uint32_t) * n);
                if (!chain)
                        return -ENOMEM;
                size_t k = n;
                for (uint32_t x = b; x != a;) {
                        const GraphEdge *ed = &g->edges[prev[x] - 1];
                        chain[--k] = prev[x] - 1;
                        x = ed->to == x ? ed->from : ed->to;
                }
                *ret_chain = chain;
                if (ret_n)
                        *ret_n = n;
        }
        return 1;
}

int graph_reach(const Graph *g, uint32_t start, unsigned mask, uint8_t **ret) {
        _cleanup_(freep) uint32_t *queue = NULL;
        _cleanup_(freep) uint8_t *seen = NULL;
        size_t head = 0, tail = 0;

        if (!g->finished || start >= g->n_nodes)
                return -EINVAL;
        queue = malloc(sizeof(uint32_t) * g->n_nodes);
        seen = calloc((g->n_nodes + 7) / 8, 1);
        if (!queue || !seen)
                return -ENOMEM;
        queue[tail++] = start;
        seen[start / 8] |= (uint8_t) (1U << (start % 8));
        while (head < tail) {
                const uint32_t *e;
                size_t n = graph_out(g, queue[head++], &e);
                for (size_t i = 0; i < n; i++) {
                        const GraphEdge *ed = &g->edges[e[i]];
                        if (!(mask & DEP_MASK(ed->type)) || (seen[ed->to / 8] & (1U << (ed->to % 8))))
                                continue;
                        seen[ed->to / 8] |= (uint8_t) (1U << (ed->to % 8));
                        queue[tail++] = ed->to;
                }
        }
        *ret = TAKE_PTR(seen);
        return (int) MIN(tail, (size_t) INT32_MAX);
}
