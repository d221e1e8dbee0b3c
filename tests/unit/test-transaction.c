/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The boot transaction's ordering cycles: a tree with one cycle of two units beside a unit outside it, built
 * for its anchor (one of its orderings written twice, as After= and Before=, is still one cycle); cycle_has() says
 * which units each cycle goes through. */
#include "model/model.h"
#include "model/transaction.h"
#include "tap.h"

static void test_cycle_has_by_hand(void) {
        uint32_t nodes[] = { 7, 3, 11 };
        Cycle c = { .nodes = nodes, .n = ELEMENTSOF(nodes) };
        Cycle empty = {};

        tap_ok(cycle_has(&c, 7) && cycle_has(&c, 3) && cycle_has(&c, 11), "each node of the cycle is in it");
        tap_ok(!cycle_has(&c, 0) && !cycle_has(&c, 8) && !cycle_has(&c, UINT32_MAX), "other nodes are not");
        tap_ok(!cycle_has(&empty, 0), "an empty cycle has no node");
}

static int add_unit(MemTree *t, const char *name, const char *text) {
        _cleanup_(freep) char *p = strjoin("/etc/systemd/system/", name);
        return p ? mem_tree_add_file(t, p, text, strlen(text), "test:") : -ENOMEM;
}

static void test_cycle_of_transaction(void) {
        _cleanup_(mem_tree_freep) MemTree *t = NULL;
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(model_freep) Model *m = NULL;
        _cleanup_(transaction_freep) Transaction *tr = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        Cycle *cycles = NULL;
        size_t n = 0;
        bool truncated = false;
        uint32_t a, b, c, top;

        if (mem_tree_new(&t) < 0 ||
            add_unit(t, "top.target", "[Unit]\nDefaultDependencies=no\nWants=a.service b.service c.service\n") < 0 ||
            add_unit(t, "a.service", "[Unit]\nDefaultDependencies=no\nAfter=b.service\n[Service]\n"
                                     "ExecStart=/bin/true\n") < 0 ||
            /* Before=a.service orders a after b as a's After=b.service does: one arc, one cycle */
            add_unit(t, "b.service", "[Unit]\nDefaultDependencies=no\nAfter=a.service\nBefore=a.service\n[Service]\n"
                                     "ExecStart=/bin/true\n") < 0 ||
            add_unit(t, "c.service", "[Unit]\nDefaultDependencies=no\nAfter=a.service\n[Service]\n"
                                     "ExecStart=/bin/true\n") < 0 ||
            root_open_mem(TAKE_PTR(t), "test:", &root) < 0 || rules_load(NULL, &rules, &diags) < 0 ||
            model_new(&(ModelOptions) { .root = root, .systemd = 252, .no_base = true }, rules, &m, &diags) < 0 ||
            model_add(m, "top.target", NULL) < 0 || model_finish(m) < 0 ||
            transaction_build(m, "top.target", &tr, &diags) < 0 ||
            transaction_cycles(tr, 16, &cycles, &n, &truncated) < 0) {
                diag_list_print(&diags, stdout, DIAG_ERROR);
                tap_ok(false, "setting up the transaction of top.target");
                return;
        }
        tap_ok(n == 1 && !truncated, "one ordering cycle (%zu)", n);
        if (n == 1 && graph_find_node(model_graph(m), "a.service", &a) >= 0 &&
            graph_find_node(model_graph(m), "b.service", &b) >= 0 &&
            graph_find_node(model_graph(m), "c.service", &c) >= 0 &&
            graph_find_node(model_graph(m), "top.target", &top) >= 0) {
                tap_ok(cycle_has(&cycles[0], a) && cycle_has(&cycles[0], b), "it goes through a and b");
                tap_ok(!cycle_has(&cycles[0], c) && !cycle_has(&cycles[0], top),
                       "not through c (ordered after a) nor the anchor");
        } else
                tap_ok(false, "the units are in the graph");
        cycle_list_free(cycles, n);
}

int main(void) {
        test_cycle_has_by_hand();
        test_cycle_of_transaction();
        return tap_done();
}
