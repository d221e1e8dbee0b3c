/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The graph module: interning, origins, sorting and duplicate removal, self edges, indexes both ways, edge lookup,
 * ordering chains through After= and Before=, reachability, and removal by a predicate. */
#include "graph.h"
#include "tap.h"

static bool drop_origin(const GraphEdge *e, void *userdata) {
        return e->origin == *(uint32_t *) userdata;
}

static uint32_t node(Graph *g, const char *n) {
        uint32_t i = UINT32_MAX;
        (void) graph_node(g, n, &i);
        return i;
}

int main(void) {
        Graph *g = NULL;
        uint32_t a, b, c, d, o1, o2, *chain = NULL, x;
        const uint32_t *e;
        uint8_t *seen = NULL;
        size_t n = 0;

        tap_ok(graph_new(&g) == 0, "graph_new");
        a = node(g, "a.service");
        b = node(g, "b.service");
        c = node(g, "c.target");
        d = node(g, "d.service");
        tap_ok(node(g, "a.service") == a && a != b, "names are interned");
        tap_ok(graph_find_node(g, "nope.service", &x) == -ENOENT, "unknown name");
        tap_ok(graph_add_origin(g, &(Origin) { .kind = ORIGIN_FILE, .sd = SD_ORIGIN_FILE, .file = "/a", .line = 3 },
                                &o1) == 0, "origin 1");
        tap_ok(graph_add_origin(g, &(Origin) { .kind = ORIGIN_RULE, .sd = SD_ORIGIN_DEFAULT, .rule = "r",
                                               .class = "default", .version = 252 },
                                &o2) == 0, "origin 2");
        TAP_STREQ(graph_origin(g, o2)->rule, "r", "rule id kept");
        TAP_STREQ(graph_intern(g, "/a"), graph_origin(g, o1)->file, "origin strings are interned");

        /* a After b (file), b After c... via c Before b (rule), duplicate, self edge */
        tap_ok(graph_add_edge(g, a, DEP_AFTER, b, o1) == 0, "edge a After b");
        tap_ok(graph_add_edge(g, a, DEP_AFTER, b, o1) == 0, "duplicate edge");
        tap_ok(graph_add_edge(g, a, DEP_AFTER, b, o2) == 0, "same edge, other origin");
        tap_ok(graph_add_edge(g, c, DEP_BEFORE, b, o2) == 0, "edge c Before b");
        tap_ok(graph_add_edge(g, a, DEP_WANTS, d, o1) == 0, "edge a Wants d");
        tap_ok(graph_add_edge(g, d, DEP_REQUIRES, c, o1) == 0, "edge d Requires c");
        tap_ok(graph_add_edge(g, d, DEP_AFTER, d, o1) == 0, "self edge accepted");
        tap_ok(graph_add_edge(g, a, DEP_AFTER, 99, o1) == -EINVAL, "edge to an unknown node refused");
        tap_ok(graph_finish(g) == 0, "finish");
        TAP_INTEQ(graph_edge_count(g), 5, "duplicates and self edges dropped");
        TAP_INTEQ(graph_out(g, a, &e), 3, "three edges leave a");
        TAP_INTEQ(graph_in(g, b, &e), 3, "three edges arrive at b");
        tap_ok(graph_has_edge(g, a, DEP_AFTER, b), "has a After b");
        tap_ok(!graph_has_edge(g, b, DEP_AFTER, a), "not b After a");
        tap_ok(graph_has_edge(g, d, DEP_REQUIRES, c), "has d Requires c");

        tap_ok(graph_ordered_after(g, a, c, &chain, &n) == 1, "a runs after c");
        TAP_INTEQ(n, 2, "through two edges");
        if (n == 2) {
                tap_ok(graph_edge(g, chain[0])->from == a && graph_edge(g, chain[0])->to == b, "first a After b");
                tap_ok(graph_edge(g, chain[1])->from == c && graph_edge(g, chain[1])->type == DEP_BEFORE,
                       "then c Before b");
        }
        free(chain);
        chain = NULL;
        tap_ok(graph_ordered_after(g, c, a, &chain, &n) == 0 && !chain, "c does not run after a");
        tap_ok(graph_ordered_after(g, a, d, NULL, NULL) == 0, "Wants= is no ordering");

        tap_ok(graph_reach(g, a, DEP_MASK_PULL, &seen) == 3, "a pulls in d and, through it, c");
        tap_ok(seen && (seen[c / 8] & (1U << (c % 8))) && !(seen[b / 8] & (1U << (b % 8))), "c reached, b not");
        free(seen);

        /* edges added after finish are indexed by the next finish */
        tap_ok(graph_add_edge(g, b, DEP_AFTER, d, o1) == 0 && graph_finish(g) == 0, "add after finish");
        tap_ok(graph_ordered_after(g, a, d, NULL, NULL) == 1, "now a runs after d");

        /* removing edges by a predicate: the graph is indexed again by the next finish */
        TAP_INTEQ(graph_remove_edges(g, drop_origin, &o2), 2, "the two edges of origin 2 removed");
        tap_ok(graph_finish(g) == 0 && !graph_has_edge(g, c, DEP_BEFORE, b) &&
               graph_has_edge(g, a, DEP_AFTER, b) && graph_has_edge(g, d, DEP_REQUIRES, c),
               "c Before b is gone, a After b (origin 1 too) stays");
        TAP_INTEQ(graph_edge_count(g), 4, "four edges left");
        graph_free(g);

        TAP_STREQ(dep_type_to_string(DEP_BINDS_TO), "BindsTo", "type names");
        TAP_INTEQ(dep_type_from_key("BindTo"), DEP_BINDS_TO, "old spelling of a key");
        TAP_INTEQ(dep_type_from_key("Triggers"), _DEP_TYPE_INVALID, "Triggers is not a unit-file key");
        {
                unsigned m = 0;
                tap_ok(dep_type_mask_from_string("Requires After", &m) == 0 &&
                       m == (DEP_MASK(DEP_REQUIRES) | DEP_MASK(DEP_AFTER)), "type list");
                tap_ok(dep_type_mask_from_string("Requires Foo", &m) == -EINVAL, "unknown type in a list");
        }
        return tap_done();
}
