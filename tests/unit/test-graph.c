/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The graph module: interning, origins, sorting and duplicate removal, self edges, indexes both ways, edge lookup,
 * ordering chains through After= and Before=, reachability, and removal by a predicate. graph_ordered_after()
 * prunes its search with strongly connected components and caches the units ordered after a unit asked about
 * often: on random graphs (with cycles, hubs, and the same target asked again and again) its answers and chains
 * must be exactly those of a plain breadth-first search over every edge. */
#include "model/graph.h"
#include "tap.h"

static bool drop_origin(const GraphEdge *e, void *userdata) {
        return e->origin == *(uint32_t *) userdata;
}

static uint32_t node(Graph *g, const char *n) {
        uint32_t i = UINT32_MAX;
        (void) graph_node(g, n, &i);
        return i;
}

/* The reference: breadth-first search from a over all edges, as graph_ordered_after() did before it pruned. */
static int naive_ordered_after(const Graph *g, uint32_t a, uint32_t b, uint32_t **ret_chain, size_t *ret_n) {
        size_t nn = graph_node_count(g), head = 0, tail = 0, n = 0;
        uint32_t *queue = malloc(sizeof(uint32_t) * nn), *prev = calloc(nn, sizeof(uint32_t)), *chain;

        *ret_chain = NULL;
        *ret_n = 0;
        queue[tail++] = a;
        prev[a] = UINT32_MAX;
        while (head < tail) {
                uint32_t x = queue[head++];
                if (x == b && x != a)
                        break;
                for (int dir = 0; dir < 2; dir++) {
                        EdgeSet e = dir == 0 ? graph_out(g, x) : graph_in(g, x);
                        for (size_t i = 0; i < e.n; i++) {
                                const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                                uint32_t y = dir == 0 ? ed->to : ed->from;
                                if (ed->type != (dir == 0 ? DEP_AFTER : DEP_BEFORE) || prev[y])
                                        continue;
                                prev[y] = edge_set_get(&e, i) + 1;
                                queue[tail++] = y;
                        }
                }
        }
        if (a == b || !prev[b]) {
                free(queue);
                free(prev);
                return 0;
        }
        for (uint32_t x = b; x != a; n++) {
                const GraphEdge *ed = graph_edge(g, prev[x] - 1);
                x = ed->to == x ? ed->from : ed->to;
        }
        chain = malloc(sizeof(uint32_t) * n);
        for (uint32_t x = b, k = (uint32_t) n; x != a;) {
                const GraphEdge *ed = graph_edge(g, prev[x] - 1);
                chain[--k] = prev[x] - 1;
                x = ed->to == x ? ed->from : ed->to;
        }
        free(queue);
        free(prev);
        *ret_chain = chain;
        *ret_n = n;
        return 1;
}

static unsigned long rnd_state = 12345;
static unsigned rnd(unsigned k) {
        rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
        return (unsigned) ((rnd_state >> 33) % k);
}

/* n nodes, about per_node edges each of random types (mostly After=/Before=), a hub everyone runs after, and
 * queries: every b asked many times (the cache), random pairs, pairs inside cycles. */
static void random_graphs(void) {
        static const DepType types[] = { DEP_AFTER, DEP_AFTER, DEP_BEFORE, DEP_BEFORE, DEP_WANTS, DEP_REQUIRES };
        unsigned bad = 0, queries = 0, positive = 0, unsorted = 0, incremental = 0, incremental_bad = 0;

        for (unsigned round = 0; round < 40; round++) {
                unsigned nn = 5 + rnd(round < 20 ? 30 : 400), per_node = 1 + rnd(3);
                Graph *g = NULL;
                uint32_t o, hub;
                char name[32];

                graph_new(&g);
                for (unsigned i = 0; i < nn; i++) {
                        uint32_t x;
                        snprintf(name, sizeof name, "u%u.service", i);
                        graph_node(g, name, &x);
                }
                hub = rnd(nn);
                graph_add_origin(g, &(Origin) { .kind = ORIGIN_FILE, .file = "/x", .line = 1 }, &o);
                for (unsigned i = 0; i < nn * per_node; i++)
                        graph_add_edge(g, rnd(nn), types[rnd(ELEMENTSOF(types))], rnd(nn), o);
                for (unsigned i = 0; i < nn; i++)
                        if (rnd(3) == 0)
                                graph_add_edge(g, i, rnd(2) ? DEP_AFTER : DEP_BEFORE, hub, o);
                graph_finish(g);
                if (round % 2 == 1) {
                        /* more edges after a finish (some already there, some before all others): the next finish
                         * must give what one finish over all of them gives */
                        Graph *all = NULL;
                        uint32_t o2, x;
                        unsigned extra = 1 + rnd(round < 20 ? 3 : nn);

                        graph_new(&all);
                        for (unsigned i = 0; i < nn; i++) {
                                snprintf(name, sizeof name, "u%u.service", i);
                                graph_node(all, name, &x);
                        }
                        graph_add_origin(all, &(Origin) { .kind = ORIGIN_FILE, .file = "/x", .line = 1 }, &o2);
                        for (size_t i = 0; i < graph_edge_count(g); i++) {
                                const GraphEdge *ed = graph_edge(g, i);
                                graph_add_edge(all, ed->from, ed->type, ed->to, o2);
                        }
                        for (unsigned i = 0; i < extra; i++) {
                                const GraphEdge *old = graph_edge(g, rnd((unsigned) graph_edge_count(g)));
                                uint32_t from = i % 3 == 0 && old ? old->from : rnd(nn), to = i % 3 == 0 && old ? old->to : rnd(nn);
                                DepType t = i % 3 == 0 && old ? (DepType) old->type : types[rnd(ELEMENTSOF(types))];
                                graph_add_edge(g, from, t, to, o);
                                graph_add_edge(all, from, t, to, o2);
                        }
                        graph_finish(g);
                        graph_finish(all);
                        incremental++;
                        if (graph_edge_count(g) != graph_edge_count(all))
                                incremental_bad++;
                        else
                                for (size_t i = 0; i < graph_edge_count(g); i++) {
                                        const GraphEdge *x1 = graph_edge(g, i), *x2 = graph_edge(all, i);
                                        if (x1->from != x2->from || x1->type != x2->type || x1->to != x2->to) {
                                                incremental_bad++;
                                                break;
                                        }
                                }
                        graph_free(all);
                }
                for (size_t i = 1; i < graph_edge_count(g); i++) {
                        const GraphEdge *x = graph_edge(g, i - 1), *y = graph_edge(g, i);
                        if (!(x->from < y->from ||
                              (x->from == y->from && (x->type < y->type ||
                                                      (x->type == y->type && (x->to < y->to ||
                                                                              (x->to == y->to && x->origin < y->origin)))))))
                                unsorted++;
                }
                for (unsigned q = 0; q < nn * 6; q++) {
                        uint32_t a = rnd(nn), b = q % 3 == 0 ? hub : q % 3 == 1 ? rnd(nn) : (uint32_t) (q / 3) % nn;
                        uint32_t *c1 = NULL, *c2 = NULL;
                        size_t n1 = 0, n2 = 0;
                        /* every other query without a chain: the answer alone (from the cache, once there is one) */
                        bool chain = q % 2 == 0;
                        int r1 = graph_ordered_after(g, a, b, chain ? &c1 : NULL, chain ? &n1 : NULL),
                            r2 = naive_ordered_after(g, a, b, &c2, &n2);

                        queries++;
                        positive += r2 == 1;
                        if (r1 != r2 ||
                            (chain && (n1 != n2 || (n1 > 0 && memcmp(c1, c2, n1 * sizeof(uint32_t)) != 0)))) {
                                if (bad++ < 5)
                                        tap_diag("round %u: %u after %u: %d (%zu edges) vs reference %d (%zu edges)",
                                                 round, a, b, r1, n1, r2, n2);
                        }
                        free(c1);
                        free(c2);
                }
                graph_free(g);
        }
        tap_ok(bad == 0, "random graphs: %u of %u queries (%u ordered) as a plain search answers them", queries - bad,
               queries, positive);
        tap_ok(positive > queries / 10 && positive < queries - queries / 10, "both answers occur often");
        TAP_INTEQ(unsorted, 0, "random graphs: edges sorted by (from, type, to, origin), no duplicates");
        tap_ok(incremental > 0 && incremental_bad == 0,
               "random graphs: edges added after a finish, then finished again, as one finish of all (%u of %u)",
               incremental - incremental_bad, incremental);
}

/* the small graph the tests below build on, in order */
static Graph *g;
static uint32_t a, b, c, d, o1, o2;

static void test_nodes_and_origins(void) {
        uint32_t x, ob;
        /* a borrowed origin keeps the caller's strings: the same pointers, nothing interned */
        static const char file[] = "/borrowed/unit.service", key[] = "After";
        int r;

        r = graph_new(&g);
        TAP_INTEQ(r, 0, "graph_new");
        if (r < 0)
                tap_bail("graph_new: %s", strerror(-r));
        a = node(g, "a.service");
        b = node(g, "b.service");
        c = node(g, "c.target");
        d = node(g, "d.service");
        if (a == UINT32_MAX || b == UINT32_MAX || c == UINT32_MAX || d == UINT32_MAX)
                tap_bail("graph_node() failed");
        TAP_INTEQ(node(g, "a.service"), a, "names are interned: a.service again is the same node");
        tap_ok(a != b, "names are interned: two names are two nodes");
        TAP_INTEQ(graph_find_node(g, "nope.service", &x), -ENOENT, "unknown name");
        TAP_INTEQ(graph_add_origin(g, &(Origin) { .kind = ORIGIN_FILE, .sd = SD_ORIGIN_FILE, .file = "/a", .line = 3 },
                                   &o1),
                  0, "origin 1");
        TAP_INTEQ(graph_add_origin(g, &(Origin) { .kind = ORIGIN_RULE, .sd = SD_ORIGIN_DEFAULT, .rule = "r",
                                                  .class = "default", .version = 252 },
                                   &o2),
                  0, "origin 2");
        TAP_STREQ(graph_origin(g, o2)->rule, "r", "rule id kept");
        TAP_STREQ(graph_intern(g, "/a"), graph_origin(g, o1)->file, "origin strings are interned");
        r = graph_add_origin_borrowed(g, &(Origin) { .kind = ORIGIN_FILE, .file = file, .line = 7, .detail = key },
                                      &ob);
        TAP_INTEQ(r, 0, "a borrowed origin is added");
        if (r < 0)
                return;
        tap_ok(graph_origin(g, ob)->file == file, "a borrowed origin keeps the caller's file string");
        tap_ok(graph_origin(g, ob)->detail == key, "a borrowed origin keeps the caller's detail string");
        TAP_INTEQ(graph_origin(g, ob)->line, 7, "a borrowed origin keeps its line");
        TAP_INTEQ(ob, o2 + 1, "a borrowed origin is numbered after the others");
}

/* a After b (file), b After c... via c Before b (rule), duplicate, self edge */
static void test_edges(void) {
        size_t out_ok = 0, in_ok = 0, out_n = 0, in_n = 0;

        TAP_INTEQ(graph_add_edge(g, a, DEP_AFTER, b, o1), 0, "edge a After b");
        TAP_INTEQ(graph_add_edge(g, a, DEP_AFTER, b, o1), 0, "duplicate edge");
        TAP_INTEQ(graph_add_edge(g, a, DEP_AFTER, b, o2), 0, "same edge, other origin");
        TAP_INTEQ(graph_add_edge(g, c, DEP_BEFORE, b, o2), 0, "edge c Before b");
        TAP_INTEQ(graph_add_edge(g, a, DEP_WANTS, d, o1), 0, "edge a Wants d");
        TAP_INTEQ(graph_add_edge(g, d, DEP_REQUIRES, c, o1), 0, "edge d Requires c");
        TAP_INTEQ(graph_add_edge(g, d, DEP_AFTER, d, o1), 0, "self edge accepted");
        TAP_INTEQ(graph_add_edge(g, a, DEP_AFTER, 99, o1), -EINVAL, "edge to an unknown node refused");
        TAP_INTEQ(graph_finish(g), 0, "finish");
        TAP_INTEQ(graph_edge_count(g), 5, "duplicates and self edges dropped");
        TAP_INTEQ(graph_out(g, a).n, 3, "three edges leave a");
        TAP_INTEQ(graph_in(g, b).n, 3, "three edges arrive at b");
        /* each node's out-edges are the run of edges from it, its in-edges the edges to it */
        for (uint32_t n = 0; n < graph_node_count(g); n++) {
                EdgeSet o = graph_out(g, n), in = graph_in(g, n);
                for (size_t i = 0; i < o.n; i++)
                        out_ok += graph_edge(g, edge_set_get(&o, i))->from == n;
                for (size_t i = 0; i < in.n; i++)
                        in_ok += graph_edge(g, edge_set_get(&in, i))->to == n;
                out_n += o.n;
                in_n += in.n;
        }
        TAP_INTEQ(out_ok, out_n, "every out-edge leaves its own node");
        TAP_INTEQ(in_ok, in_n, "every in-edge arrives at its own node");
        TAP_INTEQ(out_n, graph_edge_count(g), "every edge is an out-edge once");
        TAP_INTEQ(in_n, graph_edge_count(g), "every edge is an in-edge once");
        tap_ok(graph_has_edge(g, a, DEP_AFTER, b), "has a After b");
        tap_ok(!graph_has_edge(g, b, DEP_AFTER, a), "not b After a");
        tap_ok(graph_has_edge(g, d, DEP_REQUIRES, c), "has d Requires c");
}

static void test_ordering_and_reach(void) {
        _cleanup_(freep) uint32_t *chain = NULL;
        _cleanup_(freep) uint8_t *seen = NULL;
        size_t n = 0;

        TAP_INTEQ(graph_ordered_after(g, a, c, &chain, &n), 1, "a runs after c");
        TAP_INTEQ(n, 2, "through two edges");
        if (n == 2) {
                TAP_INTEQ(graph_edge(g, chain[0])->from, a, "the first edge is from a");
                TAP_INTEQ(graph_edge(g, chain[0])->to, b, "the first edge is to b (a After b)");
                TAP_INTEQ(graph_edge(g, chain[1])->from, c, "the second edge is from c");
                TAP_INTEQ(graph_edge(g, chain[1])->type, DEP_BEFORE, "the second edge is c Before b");
        }
        chain = mfree(chain);
        TAP_INTEQ(graph_ordered_after(g, c, a, &chain, &n), 0, "c does not run after a");
        tap_ok(!chain, "no chain when c does not run after a");
        TAP_INTEQ(graph_ordered_after(g, a, d, NULL, NULL), 0, "Wants= is no ordering");

        TAP_INTEQ(graph_reach(g, a, DEP_MASK_PULL, &seen), 3, "a pulls in d and, through it, c");
        tap_ok(seen && (seen[c / 8] & (1U << (c % 8))), "c reached");
        tap_ok(seen && !(seen[b / 8] & (1U << (b % 8))), "b not reached");
}

static void test_changes(void) {
        /* edges added after finish are indexed by the next finish */
        TAP_INTEQ(graph_add_edge(g, b, DEP_AFTER, d, o1), 0, "add after finish");
        TAP_INTEQ(graph_finish(g), 0, "finish again");
        TAP_INTEQ(graph_ordered_after(g, a, d, NULL, NULL), 1, "now a runs after d");

        /* removing edges by a predicate: the graph is indexed again by the next finish */
        TAP_INTEQ(graph_remove_edges(g, drop_origin, &o2), 2, "the two edges of origin 2 removed");
        TAP_INTEQ(graph_finish(g), 0, "finish after removing");
        tap_ok(!graph_has_edge(g, c, DEP_BEFORE, b), "c Before b is gone");
        tap_ok(graph_has_edge(g, a, DEP_AFTER, b), "a After b (origin 1 too) stays");
        tap_ok(graph_has_edge(g, d, DEP_REQUIRES, c), "d Requires c stays");
        TAP_INTEQ(graph_edge_count(g), 4, "four edges left");
        g = graph_free(g);
}

static void test_type_names(void) {
        unsigned m = 0;

        TAP_STREQ(dep_type_to_string(DEP_BINDS_TO), "BindsTo", "type names");
        TAP_INTEQ(dep_type_from_key("BindTo"), DEP_BINDS_TO, "old spelling of a key");
        TAP_INTEQ(dep_type_from_key("Triggers"), _DEP_TYPE_INVALID, "Triggers is not a unit-file key");
        TAP_INTEQ(dep_type_mask_from_string("Requires After", &m), 0, "type list");
        TAP_INTEQ(m, DEP_MASK(DEP_REQUIRES) | DEP_MASK(DEP_AFTER), "type list: Requires and After");
        TAP_INTEQ(dep_type_mask_from_string("Requires Foo", &m), -EINVAL, "unknown type in a list");
}

int main(void) {
        test_nodes_and_origins();
        test_edges();
        test_ordering_and_reach();
        test_changes();
        random_graphs();
        test_type_names();
        return tap_done();
}
