/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A dependency graph: interned unit names as nodes, typed edges in one compact array, each edge carrying where it
 * came from (a file and line, a .wants link, an implicit/default rule with its version, a mount-path expansion, the
 * base model). After graph_finish() the edges are sorted and indexed both ways, and reachability queries
 * (ordering chains, what a unit pulls in) run in time linear in the part of the graph they visit. */

#include "basic/dep-type.h"
#include "basic/hashmap.h"

typedef enum OriginKind {
        ORIGIN_FILE,       /* an assignment in a fragment: file:line */
        ORIGIN_DROPIN,     /* an assignment in a drop-in: file:line */
        ORIGIN_LINK,       /* a .wants/.requires/.upholds symlink: file is its path */
        ORIGIN_RULE,       /* an implicit/default/slice rule: rule id, class, version; file:line of the rule */
        ORIGIN_MOUNTS_FOR, /* a RequiresMountsFor=/WantsMountsFor= path expanded to a mount unit: detail = path */
        ORIGIN_LIVE,       /* read from a running systemd */
        _ORIGIN_KIND_MAX,
        _ORIGIN_KIND_INVALID = -EINVAL,
} OriginKind;

const char *origin_kind_to_string(OriginKind k); /* "file", "drop-in", "link", "rule", "mounts-for", "live" */

/* Laid out small (40 bytes): a large tree has an origin for every dependency line, more than half a million. */
typedef struct Origin {
        const char *file;    /* interned by the graph */
        const char *rule;    /* rule id (ORIGIN_RULE; for ORIGIN_MOUNTS_FOR the rule that made the entry, if any) */
        const char *class;   /* the rule's class: implicit, default, slice, ... */
        const char *detail;  /* ORIGIN_MOUNTS_FOR: the path; ORIGIN_RULE: the setting it derives from, if any */
        unsigned line;
        uint16_t version;    /* the systemd version the rule was applied for (at most 9999, as --systemd=) */
        uint8_t kind : 3;    /* OriginKind */
        uint8_t sd : 4;      /* SdOrigin: how systemd labels the edge (origin-file, origin-default, ...) */
        bool base : 1;       /* the unit that has the edge came from the embedded base model */
} Origin;

/* 12 bytes: a large tree has millions of edges */
#define GRAPH_ORIGIN_MAX ((UINT32_C(1) << 27) - 1)
typedef struct GraphEdge {
        uint32_t from, to;
        uint32_t origin : 27; /* at most GRAPH_ORIGIN_MAX origins */
        uint32_t type : 5;    /* DepType */
} GraphEdge;

typedef struct Graph Graph;

int graph_new(Graph **ret);
Graph *graph_free(Graph *g);
static inline void graph_freep(Graph **g) {
        graph_free(*g);
}

/* Node index of name, adding it if new. Returns 0 or -ENOMEM. */
int graph_node(Graph *g, const char *name, uint32_t *ret);
/* graph_node() of these names (n bytes each) is to come, one by one: fetches what the look-ups will read at once
 * (hashmap_prefetch(), up to HASHMAP_PREFETCH_MAX names). Only a hint. */
void graph_prefetch_nodes(const Graph *g, const HashmapKey *names, size_t n);
/* Node index of name, or -ENOENT. */
int graph_find_node(const Graph *g, const char *name, uint32_t *ret);
size_t graph_node_count(const Graph *g);
const char *graph_node_name(const Graph *g, uint32_t node);

/* Stores a copy of o (strings interned); returns its id in *ret. */
int graph_add_origin(Graph *g, const Origin *o, uint32_t *ret);
/* Stores o with its strings as they are, not interned: for strings that outlive every use of the graph (a model's
 * unit files, settings and paths live as long as the model and its graph). A large tree has hundreds of
 * thousands of origins, each naming a file or path of its own. */
int graph_add_origin_borrowed(Graph *g, const Origin *o, uint32_t *ret);
const Origin *graph_origin(const Graph *g, uint32_t id);
/* Interns a string for the graph's lifetime (NULL stays NULL). */
const char *graph_intern(Graph *g, const char *s);

/* Adds an edge. Exact duplicates (same ends, type and origin) are dropped by graph_finish(). Edges may be added
 * after graph_finish(); the indexes are then rebuilt by the next graph_finish(). */
int graph_add_edge(Graph *g, uint32_t from, DepType type, uint32_t to, uint32_t origin);
/* Sorts the edges by (from, type, to, origin), drops duplicates and edges of a node to itself (systemd ignores
 * those), and builds the forward and reverse indexes. */
int graph_finish(Graph *g);
/* Removes every edge for which drop(edge, userdata) is true; the graph needs graph_finish() again.
 * Returns the number of edges removed. */
size_t graph_remove_edges(Graph *g, bool (*drop)(const GraphEdge *e, void *userdata), void *userdata);

size_t graph_edge_count(const Graph *g);
const GraphEdge *graph_edge(const Graph *g, size_t i);
/* After graph_finish(): the edges leaving a node and those arriving, as indexes into the edge array, sorted. Its
 * out-edges are a run (the array is sorted by from), its in-edges a list. Empty for a graph not finished. */
typedef struct EdgeSet {
        const uint32_t *list; /* NULL: the run first, first + 1, ... */
        uint32_t first;
        size_t n;
} EdgeSet;
static inline uint32_t edge_set_get(const EdgeSet *s, size_t k) {
        return s->list ? s->list[k] : s->first + (uint32_t) k;
}
EdgeSet graph_out(const Graph *g, uint32_t node);
EdgeSet graph_in(const Graph *g, uint32_t node);
/* Is there an edge from -> to of type t (any origin)? */
bool graph_has_edge(const Graph *g, uint32_t from, DepType t, uint32_t to);

/* Is a ordered after b (a chain of After= edges from a, or Before= edges into a, reaching b)? Returns 1 with the
 * chain of edge indexes (from a towards b, in order; caller frees) when it is, 0 when not, -ENOMEM. */
int graph_ordered_after(const Graph *g, uint32_t a, uint32_t b, uint32_t **ret_chain, size_t *ret_n);
/* The units reachable from start over edges whose type is in mask (forward direction). ret is a bitmap of
 * graph_node_count() bits (caller frees). Returns the number reached (start included) or -ENOMEM. */
int graph_reach(const Graph *g, uint32_t start, unsigned mask, uint8_t **ret);
