/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model/graph.h"

_Static_assert(_DEP_TYPE_MAX <= 32, "GraphEdge.type has 5 bits");
_Static_assert(_ORIGIN_KIND_MAX <= 8 && _SD_ORIGIN_MAX <= 16, "Origin.kind has 3 bits, Origin.sd 4");

struct Graph {
        Hashmap names;      /* name -> node index + 1 (as a pointer-sized integer) */
        char **node_names;
        size_t n_nodes, allocated_nodes;
        GraphEdge *edges;
        size_t n_edges, allocated_edges;
        Origin *origins;
        size_t n_origins, allocated_origins;
        Hashmap strings;    /* interned strings: key and value are the same allocation */
        struct {
                const char *from, *interned;
        } recent[64];       /* callers intern the same file name or rule id again and again: by address first */
        uint32_t *out_start, *in_start, *in_edges; /* CSR indexes, valid when finished (out-edges are runs) */
        bool finished;
        /* Caches of graph_ordered_after(), built on first use after graph_finish() and dropped with the indexes.
         * order_comp: each node's strongly connected component of the "runs after" relation, numbered in the
         * order Tarjan's algorithm completes them, so a unit runs after units of its own component or of
         * components with a smaller number only. bfs_*: the search's scratch arrays; a node's entries are valid
         * when its bfs_mark equals bfs_gen. asked: how often each node was the "b" of a query; the units asked
         * about again and again (systemd-remount-fs.service, for every unit) get the set of units ordered after
         * them in after_cache, so that each later question is one bit. */
        uint32_t *order_comp;
        uint32_t *ra_start, *ra_next, *ra_edge; /* the "runs after" relation as adjacency lists */
        uint32_t *bfs_mark, *bfs_prev, *bfs_queue, bfs_gen;
        uint32_t *asked;
        struct {
                uint32_t node;
                uint8_t *after; /* bitmap: the units ordered after node */
        } after_cache[8];
        size_t n_after_cache;
};

/* Sets of nodes as bitmaps: (n_nodes + 7) / 8 bytes, node i is bit i % 8 of byte i / 8 (graph_reach()'s too). */
static bool bit_get(const uint8_t *set, uint32_t i) {
        return set[i / 8] & (1U << (i % 8));
}

static void bit_set(uint8_t *set, uint32_t i) {
        set[i / 8] |= (uint8_t) (1U << (i % 8));
}

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

static void drop_order_caches(Graph *g) {
        g->order_comp = mfree(g->order_comp);
        g->ra_start = mfree(g->ra_start);
        g->ra_next = mfree(g->ra_next);
        g->ra_edge = mfree(g->ra_edge);
        g->bfs_mark = mfree(g->bfs_mark);
        g->bfs_prev = mfree(g->bfs_prev);
        g->bfs_queue = mfree(g->bfs_queue);
        g->asked = mfree(g->asked);
        for (size_t i = 0; i < g->n_after_cache; i++)
                free(g->after_cache[i].after);
        g->n_after_cache = 0;
}

static void drop_indexes(Graph *g) {
        drop_order_caches(g);
        g->out_start = mfree(g->out_start);
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
        size_t slot = ((uintptr_t) s >> 4) % ELEMENTSOF(g->recent);
        char *c;

        if (!s)
                return NULL;
        /* the same address as lately, still holding the same text (an address may be reused for another) */
        if (g->recent[slot].from == s && streq(g->recent[slot].interned, s))
                return g->recent[slot].interned;
        c = hashmap_get(&g->strings, s);
        if (!c) {
                c = strdup(s);
                if (!c || hashmap_put(&g->strings, c, c) < 0) {
                        free(c);
                        return NULL;
                }
        }
        g->recent[slot].from = s;
        g->recent[slot].interned = c;
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

void graph_prefetch_nodes(const Graph *g, const HashmapKey *names, size_t n) {
        hashmap_prefetch(&g->names, names, n);
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

int graph_add_origin_borrowed(Graph *g, const Origin *o, uint32_t *ret) {
        if (g->n_origins >= GRAPH_ORIGIN_MAX ||
            GREEDY_REALLOC(g->origins, g->allocated_origins, g->n_origins + 1) < 0)
                return -ENOMEM;
        g->origins[g->n_origins] = *o;
        *ret = (uint32_t) g->n_origins++;
        return 0;
}

int graph_add_origin(Graph *g, const Origin *o, uint32_t *ret) {
        Origin c = *o;

        c.file = graph_intern(g, o->file);
        c.rule = graph_intern(g, o->rule);
        c.class = graph_intern(g, o->class);
        c.detail = graph_intern(g, o->detail);
        if ((o->file && !c.file) || (o->rule && !c.rule) || (o->class && !c.class) || (o->detail && !c.detail))
                return -ENOMEM;
        return graph_add_origin_borrowed(g, &c, ret); /* its strings are the graph's own now */
}

const Origin *graph_origin(const Graph *g, uint32_t id) {
        return id < g->n_origins ? &g->origins[id] : NULL;
}

int graph_add_edge(Graph *g, uint32_t from, DepType type, uint32_t to, uint32_t origin) {
        if (from >= g->n_nodes || to >= g->n_nodes || type < 0 || type >= _DEP_TYPE_MAX || origin >= g->n_origins)
                return -EINVAL;
        if (GREEDY_REALLOC(g->edges, g->allocated_edges, g->n_edges + 1) < 0)
                return -ENOMEM;
        g->edges[g->n_edges++] = (GraphEdge) { .from = from, .to = to, .origin = origin, .type = (uint32_t) type };
        g->finished = false;
        return 0;
}

/* Edges in the order (from, type, to, origin), as two 64-bit keys: the sort compares millions of pairs, inline */
static inline __attribute__((always_inline)) int edge_order(const GraphEdge *a, const GraphEdge *b) {
        uint64_t a1 = (uint64_t) a->from << 32 | a->type, b1 = (uint64_t) b->from << 32 | b->type;
        uint64_t a2 = (uint64_t) a->to << 32 | a->origin, b2 = (uint64_t) b->to << 32 | b->origin;

        if (a1 != b1)
                return a1 < b1 ? -1 : 1;
        return a2 < b2 ? -1 : a2 > b2;
}

/* Edges are sorted in place (glibc's qsort() would allocate a copy of the array, 26 MB for 100k units): quicksort
 * with the median of three, the smaller side first, insertion sort for short runs and heapsort when the
 * partitions stay unbalanced. Equal edges are identical, so the order is the same whatever the algorithm. */
static void edge_swap(GraphEdge *a, GraphEdge *b) {
        GraphEdge t = *a;
        *a = *b;
        *b = t;
}

static void edge_sift_down(GraphEdge *e, size_t start, size_t n) {
        size_t root = start;

        while (2 * root + 1 < n) {
                size_t child = 2 * root + 1;
                if (child + 1 < n && edge_order(&e[child], &e[child + 1]) < 0)
                        child++;
                if (edge_order(&e[root], &e[child]) >= 0)
                        return;
                edge_swap(&e[root], &e[child]);
                root = child;
        }
}

static void edge_heapsort(GraphEdge *e, size_t n) {
        for (size_t i = n / 2; i > 0; i--)
                edge_sift_down(e, i - 1, n);
        for (size_t end = n; end > 1; end--) {
                edge_swap(&e[0], &e[end - 1]);
                edge_sift_down(e, 0, end - 1);
        }
}

static void edge_sort(GraphEdge *e, size_t n, unsigned depth) {
        while (n > 16) {
                size_t mid = n / 2, i = 0, j = n - 1;
                GraphEdge pivot;

                if (depth-- == 0) {
                        edge_heapsort(e, n);
                        return;
                }
                if (edge_order(&e[mid], &e[0]) < 0)
                        edge_swap(&e[mid], &e[0]);
                if (edge_order(&e[n - 1], &e[0]) < 0)
                        edge_swap(&e[n - 1], &e[0]);
                if (edge_order(&e[n - 1], &e[mid]) < 0)
                        edge_swap(&e[n - 1], &e[mid]);
                pivot = e[mid];
                /* Hoare partition: e[0..j] <= pivot <= e[j+1..n-1] */
                for (;;) {
                        while (edge_order(&e[i], &pivot) < 0)
                                i++;
                        while (edge_order(&pivot, &e[j]) < 0)
                                j--;
                        if (i >= j)
                                break;
                        edge_swap(&e[i], &e[j]);
                        i++;
                        j--;
                }
                if (j + 1 < n - j - 1) {
                        edge_sort(e, j + 1, depth);
                        e += j + 1;
                        n -= j + 1;
                } else {
                        edge_sort(e + j + 1, n - j - 1, depth);
                        n = j + 1;
                }
        }
        for (size_t i = 1; i < n; i++) {
                GraphEdge x = e[i];
                size_t k = i;
                for (; k > 0 && edge_order(&e[k - 1], &x) > 0; k--)
                        e[k] = e[k - 1];
                e[k] = x;
        }
}

/* edge_sort()'s recursion budget for n edges before it turns to heapsort: twice the bits of n */
static unsigned sort_depth(size_t n) {
        unsigned depth = 0;
        for (; n > 0; n /= 2)
                depth += 2;
        return depth;
}

/* e[0..k) and tail[0..m) sorted, e with room for k + m: all of them sorted in e, from the back. */
static void edge_merge_tail(GraphEdge *e, size_t k, const GraphEdge *tail, size_t m) {
        size_t i = k, j = m, w = k + m;

        while (j > 0) {
                if (i > 0 && edge_order(&e[i - 1], &tail[j - 1]) > 0)
                        e[--w] = e[--i];
                else
                        e[--w] = tail[--j];
        }
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
        {
                /* edges added since the last finish come after the sorted ones: sort just those, and merge */
                size_t k = 1, m;
                while (k < g->n_edges && edge_order(&g->edges[k - 1], &g->edges[k]) <= 0)
                        k++;
                m = g->n_edges - MIN(k, g->n_edges);
                if (m > 0 && k > m) {
                        _cleanup_(freep) GraphEdge *tail = NULL;
                        edge_sort(g->edges + k, m, sort_depth(m));
                        tail = malloc(sizeof(GraphEdge) * m);
                        if (!tail)
                                return -ENOMEM;
                        memcpy(tail, g->edges + k, sizeof(GraphEdge) * m);
                        edge_merge_tail(g->edges, k, tail, m);
                } else if (m > 0)
                        edge_sort(g->edges, g->n_edges, sort_depth(g->n_edges));
        }
        for (size_t i = 0; i < g->n_edges; i++)
                if (g->edges[i].from != g->edges[i].to && (n == 0 || edge_order(&g->edges[n - 1], &g->edges[i]) != 0))
                        g->edges[n++] = g->edges[i];
        g->n_edges = n;

        g->out_start = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->in_start = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->in_edges = malloc(sizeof(uint32_t) * (n + 1));
        if (!g->out_start || !g->in_start || !g->in_edges) {
                drop_indexes(g);
                return -ENOMEM;
        }
        /* counting sort by node for the in-edges; the edge array is sorted by from, so out-edges need no list */
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

EdgeSet graph_out(const Graph *g, uint32_t node) {
        if (!g->finished || node >= g->n_nodes)
                return (EdgeSet) {};
        return (EdgeSet) { .first = g->out_start[node], .n = g->out_start[node + 1] - g->out_start[node] };
}

EdgeSet graph_in(const Graph *g, uint32_t node) {
        if (!g->finished || node >= g->n_nodes)
                return (EdgeSet) {};
        return (EdgeSet) { .list = g->in_edges + g->in_start[node], .n = g->in_start[node + 1] - g->in_start[node] };
}

bool graph_has_edge(const Graph *g, uint32_t from, DepType t, uint32_t to) {
        EdgeSet e = graph_out(g, from);
        const GraphEdge *found;

        /* edges of one node are sorted by (type, to): binary search */
        size_t lo = 0, hi = e.n;
        while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                const GraphEdge *m = &g->edges[edge_set_get(&e, mid)];
                if (m->type < t || (m->type == t && m->to < to))
                        lo = mid + 1;
                else
                        hi = mid;
        }
        if (lo == e.n)
                return false;
        found = &g->edges[edge_set_get(&e, lo)];
        return found->type == t && found->to == to;
}

/* The "runs after" relation: x runs after y when x has After=y or y has Before=x. ra_start/ra_next/ra_edge list,
 * per node, its After= edges first, then the Before= edges into it, each in index order: the order a search over
 * the edge indexes would meet them, without scanning the thousands of other edges of a node like basic.target. */
static int runs_after_index(Graph *g) {
        size_t n = 0, k = 0;

        for (size_t i = 0; i < g->n_edges; i++)
                if (g->edges[i].type == DEP_AFTER || g->edges[i].type == DEP_BEFORE)
                        n++;
        g->ra_start = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        g->ra_next = malloc(sizeof(uint32_t) * (n + 1));
        g->ra_edge = malloc(sizeof(uint32_t) * (n + 1));
        if (!g->ra_start || !g->ra_next || !g->ra_edge)
                return -ENOMEM;
        for (uint32_t x = 0; x < g->n_nodes; x++) {
                EdgeSet out = graph_out(g, x), in = graph_in(g, x);

                g->ra_start[x] = (uint32_t) k;
                for (size_t i = 0; i < out.n; i++) {
                        uint32_t id = edge_set_get(&out, i);
                        if (g->edges[id].type == DEP_AFTER) {
                                g->ra_next[k] = g->edges[id].to;
                                g->ra_edge[k++] = id;
                        }
                }
                for (size_t i = 0; i < in.n; i++) {
                        uint32_t id = edge_set_get(&in, i);
                        if (g->edges[id].type == DEP_BEFORE) {
                                g->ra_next[k] = g->edges[id].from;
                                g->ra_edge[k++] = id;
                        }
                }
        }
        g->ra_start[g->n_nodes] = (uint32_t) k;
        return 0;
}

static bool runs_after_next(const Graph *g, uint32_t x, size_t *pos, uint32_t *ret_node, uint32_t *ret_edge) {
        size_t i = g->ra_start[x] + *pos;

        if (i >= g->ra_start[x + 1])
                return false;
        *ret_node = g->ra_next[i];
        *ret_edge = g->ra_edge[i];
        (*pos)++;
        return true;
}

/* Tarjan's algorithm over the "runs after" relation, iteratively (chains of 100k units would overflow the C
 * stack). A component is completed only after every component it runs after: numbered in completion order,
 * x runs after y in another component only when order_comp[y] < order_comp[x]. */
static int order_components(Graph *g) {
        _cleanup_(freep) uint32_t *index = NULL, *low = NULL, *stack = NULL;
        _cleanup_(freep) struct { uint32_t node; size_t pos; } *calls = NULL;
        _cleanup_(freep) uint8_t *on_stack = NULL;
        uint32_t *comp, counter = 0, n_comp = 0;
        size_t n_stack = 0, n_calls = 0;

        comp = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        index = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        low = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        stack = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        calls = malloc(sizeof(*calls) * (g->n_nodes + 1));
        on_stack = calloc(g->n_nodes + 1, 1);
        if (!comp || !index || !low || !stack || !calls || !on_stack) {
                free(comp);
                return -ENOMEM;
        }
        for (size_t i = 0; i < g->n_nodes; i++)
                index[i] = UINT32_MAX;
        for (uint32_t s = 0; s < g->n_nodes; s++) {
                if (index[s] != UINT32_MAX)
                        continue;
                calls[n_calls++] = (typeof(*calls)) { s, 0 };
                index[s] = low[s] = counter++;
                stack[n_stack++] = s;
                on_stack[s] = 1;
                while (n_calls > 0) {
                        uint32_t x = calls[n_calls - 1].node, y, edge;

                        if (runs_after_next(g, x, &calls[n_calls - 1].pos, &y, &edge)) {
                                if (index[y] == UINT32_MAX) {
                                        calls[n_calls++] = (typeof(*calls)) { y, 0 };
                                        index[y] = low[y] = counter++;
                                        stack[n_stack++] = y;
                                        on_stack[y] = 1;
                                } else if (on_stack[y])
                                        low[x] = MIN(low[x], index[y]);
                                continue;
                        }
                        if (low[x] == index[x]) {
                                uint32_t w;
                                do {
                                        w = stack[--n_stack];
                                        on_stack[w] = 0;
                                        comp[w] = n_comp;
                                } while (w != x);
                                n_comp++;
                        }
                        if (--n_calls > 0) {
                                uint32_t p = calls[n_calls - 1].node;
                                low[p] = MIN(low[p], low[x]);
                        }
                }
        }
        g->order_comp = comp;
        return 0;
}

/* The units ordered after b: a search backwards over the "runs after" relation. */
static uint8_t *units_after(const Graph *g, uint32_t b) {
        _cleanup_(freep) uint32_t *queue = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        uint8_t *seen = calloc((g->n_nodes + 7) / 8 + 1, 1);
        size_t head = 0, tail = 0;

        if (!queue || !seen) {
                free(seen);
                return NULL;
        }
        queue[tail++] = b;
        bit_set(seen, b);
        while (head < tail) {
                uint32_t y = queue[head++];
                for (int dir = 0; dir < 2; dir++) {
                        /* x After= y (edges into y), and y Before= x (edges out of y) */
                        EdgeSet e = dir == 0 ? graph_in(g, y) : graph_out(g, y);
                        for (size_t i = 0; i < e.n; i++) {
                                const GraphEdge *ed = &g->edges[edge_set_get(&e, i)];
                                uint32_t x = dir == 0 ? ed->from : ed->to;
                                if (ed->type != (dir == 0 ? DEP_AFTER : DEP_BEFORE) || bit_get(seen, x))
                                        continue;
                                bit_set(seen, x);
                                queue[tail++] = x;
                        }
                }
        }
        return seen;
}

static int order_caches(Graph *g) {
        int r;

        if (g->order_comp)
                return 0;
        g->bfs_mark = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->bfs_prev = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        g->bfs_queue = malloc(sizeof(uint32_t) * (g->n_nodes + 1));
        g->asked = calloc(g->n_nodes + 1, sizeof(uint32_t));
        g->bfs_gen = 0;
        if (!g->bfs_mark || !g->bfs_prev || !g->bfs_queue || !g->asked) {
                drop_order_caches(g);
                return -ENOMEM;
        }
        r = runs_after_index(g);
        if (r >= 0)
                r = order_components(g);
        if (r < 0) {
                drop_order_caches(g);
                return r;
        }
        return 0;
}

/* Breadth-first search over the "runs after" relation from a, visiting only units that can still lead to b: those
 * of components numbered from b's up to a's, and, when the units ordered after b are known, only those. Units
 * left out can never reach b, so the search meets the units on the way to b in the same order as a search over
 * everything would, and finds the same chain. bfs_prev holds, per reached node, the edge that reached it. */
int graph_ordered_after(const Graph *cg, uint32_t a, uint32_t b, uint32_t **ret_chain, size_t *ret_n) {
        Graph *g = (Graph *) cg; /* only the caches change */
        const uint8_t *after = NULL;
        size_t head = 0, tail = 0;
        uint32_t gen;
        int r;

        if (ret_chain)
                *ret_chain = NULL;
        if (ret_n)
                *ret_n = 0;
        if (!g->finished || a >= g->n_nodes || b >= g->n_nodes)
                return -EINVAL;
        if (a == b)
                return 0;
        r = order_caches(g);
        if (r < 0)
                return r;
        if (g->order_comp[a] < g->order_comp[b])
                return 0;
        if (g->order_comp[a] != g->order_comp[b]) {
                for (size_t i = 0; i < g->n_after_cache && !after; i++)
                        if (g->after_cache[i].node == b)
                                after = g->after_cache[i].after;
                if (!after && ++g->asked[b] >= 3 && g->n_after_cache < ELEMENTSOF(g->after_cache)) {
                        uint8_t *s = units_after(g, b);
                        if (!s)
                                return -ENOMEM;
                        g->after_cache[g->n_after_cache].node = b;
                        g->after_cache[g->n_after_cache++].after = s;
                        after = s;
                }
                if (after && !bit_get(after, a))
                        return 0;
                /* the set is exact: without a chain to show, that is the answer */
                if (after && !ret_chain)
                        return 1;
        }

        if (++g->bfs_gen == 0) {
                memset(g->bfs_mark, 0, sizeof(uint32_t) * g->n_nodes);
                g->bfs_gen = 1;
        }
        gen = g->bfs_gen;
        g->bfs_queue[tail++] = a;
        g->bfs_mark[a] = gen;
        g->bfs_prev[a] = UINT32_MAX; /* the start: reached, by no edge */
        while (head < tail) {
                uint32_t x = g->bfs_queue[head++], y, edge;
                size_t pos = 0;

                if (x == b)
                        break;
                while (runs_after_next(g, x, &pos, &y, &edge)) {
                        if (g->bfs_mark[y] == gen || g->order_comp[y] < g->order_comp[b] ||
                            (after && !bit_get(after, y)))
                                continue;
                        g->bfs_mark[y] = gen;
                        g->bfs_prev[y] = edge;
                        g->bfs_queue[tail++] = y;
                }
        }
        if (g->bfs_mark[b] != gen)
                return 0;
        if (ret_chain) {
                size_t n = 0, k;
                uint32_t *chain;
                for (uint32_t x = b; x != a;) {
                        const GraphEdge *ed = &g->edges[g->bfs_prev[x]];
                        n++;
                        x = ed->to == x ? ed->from : ed->to;
                }
                chain = malloc(sizeof(uint32_t) * n);
                if (!chain)
                        return -ENOMEM;
                k = n;
                for (uint32_t x = b; x != a;) {
                        const GraphEdge *ed = &g->edges[g->bfs_prev[x]];
                        chain[--k] = g->bfs_prev[x];
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
        bit_set(seen, start);
        while (head < tail) {
                EdgeSet e = graph_out(g, queue[head++]);
                for (size_t i = 0; i < e.n; i++) {
                        const GraphEdge *ed = &g->edges[edge_set_get(&e, i)];
                        if (!(mask & DEP_MASK(ed->type)) || bit_get(seen, ed->to))
                                continue;
                        bit_set(seen, ed->to);
                        queue[tail++] = ed->to;
                }
        }
        *ret = TAKE_PTR(seen);
        return (int) MIN(tail, (size_t) INT32_MAX);
}
