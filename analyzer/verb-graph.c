/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace graph: the dependency graph systemd N would build for some units (and everything they reference), every
 * edge with its origin: file:line, .wants link, implicit/default rule and version, mount-path expansion, base
 * model. */

#include <sys/stat.h>

#include "basic/json.h"
#include "basic/print-chunked.h"
#include "lint/lint-run.h"
#include "load/version.h"
#include "model/model.h"
#include "model/transaction.h"
#include "report/graph-report.h"
#include "report/json-header.h"
#include "report/report.h"
#include "verb-live.h"
#include "verbs.h"

static const char graph_help[] =
        "Usage: bootrace graph [--root=DIR|--target=NAME|--systemd=N] [--format=text|json|dot] [--all]\n"
        "                      [--offline] [--mounted=PATH...] [UNIT|PATH...]\n\n"
        "Print the dependencies systemd would give the units: those written in their files and drop-ins, the\n"
        ".wants/.requires links, and the implicit and default ones systemd adds by itself for that version,\n"
        "each with its origin. Without --root no tree is read: units come from the PATHs given and from\n"
        "bootrace's model of that systemd version's base units. Without UNIT, every unit of the tree. A UNIT\n"
        "that cannot be loaded (not-found, bad-setting, error) is named and the exit status is 2. A template\n"
        "PATH is loaded as NAME@i (from 257 NAME@test_instance), as verify does, or as --instance=NAME.\n\n"
        "  --all            print the edges of every loaded unit, not only of the units asked for\n"
        "  --offline        model systemd-analyze verify (its manager defaults; no mount table)\n"
        "  --mounted=PATH   PATH is a mount point (its mount unit exists without a unit file)\n"
        "  --no-base        do not use the base model\n"
        "  --cycles         the ordering cycles of the boot transaction instead, with the jobs systemd may\n"
        "                   delete to break each (exit status 1 when there are any); --format=dot\n"
        "                   draws them, an arrow a -> b saying b is ordered after a\n"
        "  --transaction=UNIT  the target whose start transaction is built (default.target; implies --cycles)\n\n"
        "What --format=dot draws (an arrow a -> b: b is ordered after a, or a pulls in, binds, ... b):\n"
        "  --type=LIST      only these dependency types, e.g. After,Before or Requires,Wants\n"
        "  --from=UNIT      only what UNIT reaches along the arrows (with --to: what lies between)\n"
        "  --to=UNIT        only what reaches UNIT along the arrows\n"
        "  --depth=N        at most N arrows away from --from/--to\n"
        "  --no-slices      without slices (and the ordering after them)\n"
        "  --no-conflicts   without Conflicts=\n";

static const char graph_live_help[] =
        "       bootrace graph --live [-H [USER@]HOST | -M NAME] [--format=text|json|dot] [UNIT...]\n\n"
        "With --live, print the dependencies the running systemd holds instead (every loaded unit, or the\n"
        "units named); PID 1 does not say where an edge came from, so every origin is \"live\".\n"
        "  --live                 ask PID 1 over the system bus\n"
        "  -H, --host=[USER@]HOST the system bus of HOST, over ssh\n"
        "  -M, --machine=NAME     the system bus of a local container\n";

enum {
        ARG_ALL = ARG_VERB_BASE,
        ARG_OFFLINE,
        ARG_MOUNTED,
        ARG_NO_BASE,
        ARG_CYCLES,
        ARG_TRANSACTION,
        ARG_TYPE,
        ARG_FROM,
        ARG_TO,
        ARG_DEPTH,
        ARG_NO_SLICES,
        ARG_NO_CONFLICTS,
};

/* What --format=dot draws of the graph. */
typedef struct DotFilter {
        unsigned types;     /* DEP_MASK() bits; 0: every type */
        char *from, *to;    /* only what is reachable from / reaches this unit along the arrows */
        unsigned depth;     /* at most this many arrows away from --from/--to (0: any) */
        bool no_slices, no_conflicts;
} DotFilter;

typedef struct GraphArgs {
        bool all, offline, no_base;
        LiveArgs live;
        char **mounted;
        bool cycles;
        char *transaction;
        DotFilter dot;
} GraphArgs;

static int graph_option(int c, const char *arg, void *userdata) {
        GraphArgs *a = userdata;

        switch (c) {
        case ARG_LIVE:
        case ARG_LIVE_HOST:
        case ARG_LIVE_MACHINE:
        case 'H':
        case 'M':
                return live_args_handle(&a->live, c, arg);
        case ARG_CYCLES:
                a->cycles = true;
                return 0;
        case ARG_TRANSACTION:
                a->cycles = true;
                return cli_set_unit_name("--transaction", arg, &a->transaction);
        case ARG_TYPE: {
                _cleanup_(freep) char *words = strdup(arg);
                if (!words)
                        return -ENOMEM;
                for (char *p = words; *p; p++)
                        if (*p == ',')
                                *p = ' ';
                if (dep_type_mask_from_string(words, &a->dot.types) < 0) {
                        log_error("--type=%s: not a list of dependency types as unit files spell them "
                                  "(After,Before,Requires,Wants,...)", arg);
                        return -EINVAL;
                }
                return 0;
        }
        case ARG_FROM:
                return cli_set_unit_name("--from", arg, &a->dot.from);
        case ARG_TO:
                return cli_set_unit_name("--to", arg, &a->dot.to);
        case ARG_DEPTH:
                if (safe_atou(arg, &a->dot.depth) < 0 || a->dot.depth == 0) {
                        log_error("--depth=%s: not a positive number of arrows", arg);
                        return -EINVAL;
                }
                return 0;
        case ARG_NO_SLICES:
                a->dot.no_slices = true;
                return 0;
        case ARG_NO_CONFLICTS:
                a->dot.no_conflicts = true;
                return 0;
        case ARG_ALL:
                a->all = true;
                return 0;
        case ARG_OFFLINE:
                a->offline = true;
                return 0;
        case ARG_NO_BASE:
                a->no_base = true;
                return 0;
        case ARG_MOUNTED:
                if (!path_is_absolute(arg)) {
                        log_error("--mounted=%s: not an absolute path", arg);
                        return -EINVAL;
                }
                return strv_push(&a->mounted, path_simplify_dup(arg)) < 0 ? -ENOMEM : 0;
        default:
                return -EINVAL;
        }
}

static bool wanted(const Model *m, const ModelUnit *mu, bool all) {
        return mu && (all || mu->target) && (mu->unit || !m);
}

/* What print_text() is about to read for edge i, which is anywhere in memory: asked for ahead of time, as
 * millions of lines otherwise wait for memory one miss after another. */
static void prefetch_edge(const Graph *g, size_t i, bool strings) {
        const GraphEdge *e = graph_edge(g, i);
        const Origin *o;

        if (!e)
                return;
        o = graph_origin(g, e->origin);
        if (!strings) {
                __builtin_prefetch(o);
                __builtin_prefetch(graph_node_name(g, e->to));
        } else if (o)
                __builtin_prefetch(o->file);
}

/* One line of the text output: from, type, to, systemd's origin label and ours, tab-separated. Millions of them
 * for a large tree: no format string, no allocation. */
static void print_row(FILE *f, const char *from, const char *type, const char *to, const char *sd, const Origin *o) {
        const char *cols[] = { from, type, to, sd };

        for (size_t k = 0; k < ELEMENTSOF(cols); k++) {
                fputs_unlocked(strna(cols[k]), f);
                fputc_unlocked('\t', f);
        }
        origin_print_text(f, o);
        fputc_unlocked('\n', f);
}

typedef struct TextEdges {
        const Model *m;
        bool all;
} TextEdges;

/* The rows of edges [begin, end): on two threads at once (print_chunked()), reading the finished model only. */
static void print_text_edges(FILE *f, size_t begin, size_t end, void *userdata) {
        const TextEdges *t = userdata;
        const Graph *g = model_graph(t->m);

        for (size_t i = begin; i < end; i++) {
                const GraphEdge *e = graph_edge(g, i);
                const Origin *o = graph_origin(g, e->origin);

                prefetch_edge(g, i + 16, false);
                prefetch_edge(g, i + 8, true);
                if (wanted(t->m, model_unit_of_node(t->m, e->from), t->all))
                        print_row(f, graph_node_name(g, e->from), dep_type_to_string(e->type),
                                  graph_node_name(g, e->to), sd_origin_to_string(o->sd), o);
        }
}

static void print_text(const Model *m, bool all) {
        Graph *g = model_graph(m);

        print_chunked(stdout, graph_edge_count(g), print_text_edges, &(TextEdges) { m, all });
        for (size_t i = 0; i < model_unit_count(m); i++) {
                const ModelUnit *mu = model_unit(m, i);
                if (!wanted(m, mu, all))
                        continue;
                for (size_t k = 0; k < mu->n_mounts_for; k++) {
                        const MountsFor *mf = &mu->mounts_for[k];
                        for (SdOrigin s = 0; s < _SD_ORIGIN_MAX; s++)
                                if (mf->sd_mask & (1U << s))
                                        print_row(stdout, mu->unit->id,
                                                  mf->wants ? "WantsMountsFor" : "RequiresMountsFor", mf->path,
                                                  sd_origin_to_string(s), graph_origin(g, mf->origin));
                }
        }
}

/* An edge as graph --format=json and graph --cycles --format=json give it: from, type, to and its origin. */
static void edge_to_json(JsonWriter *w, const Graph *g, const GraphEdge *e) {
        json_begin_object(w);
        json_kv_string(w, "from", graph_node_name(g, e->from));
        json_kv_string(w, "type", dep_type_to_string(e->type));
        json_kv_string(w, "to", graph_node_name(g, e->to));
        json_key(w, "origin");
        origin_to_json(w, graph_origin(g, e->origin));
        json_end_object(w);
}

static void print_json(const Model *m, const Context *ctx, const VersionChoice *vc, bool all) {
        Graph *g = model_graph(m);
        JsonWriter w;

        json_init(&w, stdout, false);
        report_json_begin(&w, NULL);
        json_kv_uint(&w, "systemd", model_version(m));
        json_kv_string(&w, "systemd_from", version_source_to_string(vc->source));
        report_json_nearest_model(&w, vc);
        json_kv_string(&w, "target", ctx->target);
        json_kv_string(&w, "root", ctx->root);
        json_kv_string(&w, "base_model", model_base_file(m));
        json_key(&w, "units");
        json_begin_array(&w);
        for (size_t i = 0; i < model_unit_count(m); i++) {
                const ModelUnit *mu = model_unit(m, i);
                if (!wanted(m, mu, all))
                        continue;
                json_begin_object(&w);
                json_kv_string(&w, "id", mu->unit->id);
                json_kv_string(&w, "load_state", load_state_to_string(mu->unit->load_state));
                json_kv_string(&w, "fragment", mu->unit->fragment_path);
                json_kv_bool(&w, "base", mu->base);
                json_kv_bool(&w, "default_dependencies", mu->default_deps);
                json_key(&w, "mounts_for");
                json_begin_array(&w);
                for (size_t k = 0; k < mu->n_mounts_for; k++) {
                        json_begin_object(&w);
                        json_kv_string(&w, "path", mu->mounts_for[k].path);
                        json_kv_string(&w, "mode", mu->mounts_for[k].wants ? "wants" : "requires");
                        json_key(&w, "origin");
                        origin_to_json(&w, graph_origin(g, mu->mounts_for[k].origin));
                        json_end_object(&w);
                }
                json_end_array(&w);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_key(&w, "edges");
        json_begin_array(&w);
        for (size_t i = 0; i < graph_edge_count(g); i++) {
                const GraphEdge *e = graph_edge(g, i);
                if (!wanted(m, model_unit_of_node(m, e->from), all))
                        continue;
                edge_to_json(&w, g, e);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

static void dot_quote(const char *s) {
        for (; *s; s++) {
                if (*s == '"' || *s == '\\')
                        putchar('\\');
                putchar(*s);
        }
}

/* One arrow of the DOT graph: every edge between two units that means the same (x After=y and y Before=x are one
 * ordering) drawn once, from tail to head. */
typedef struct DotArc {
        uint32_t tail, head;
        DepType kind;   /* DEP_AFTER stands for both orderings */
        uint32_t edge;  /* the first of its edges, for the tooltip */
        bool implicit;  /* every edge of it was added by systemd itself (a rule, a mount path) */
} DotArc;

static int dot_arc_compare(const void *a, const void *b) {
        const DotArc *x = a, *y = b;
        if (x->tail != y->tail)
                return x->tail < y->tail ? -1 : 1;
        if (x->head != y->head)
                return x->head < y->head ? -1 : 1;
        if (x->kind != y->kind)
                return x->kind < y->kind ? -1 : 1;
        return x->edge < y->edge ? -1 : x->edge > y->edge;
}

/* dist[node]: the fewest arrows from start (forward) or to start (!forward), UINT32_MAX when none, at most
 * depth (0: any). One pass over the arcs per step: the graphs drawn are small, and so is the number of steps. */
static void dot_distances(const DotArc *arcs, size_t n, size_t n_nodes, uint32_t start, bool forward,
                          unsigned depth, uint32_t *dist) {
        for (size_t i = 0; i < n_nodes; i++)
                dist[i] = UINT32_MAX;
        dist[start] = 0;
        for (uint32_t step = 0; depth == 0 || step < depth; step++) {
                bool more = false;
                for (size_t i = 0; i < n; i++) {
                        uint32_t from = forward ? arcs[i].tail : arcs[i].head;
                        uint32_t to = forward ? arcs[i].head : arcs[i].tail;
                        if (dist[from] == step && dist[to] == UINT32_MAX) {
                                dist[to] = step + 1;
                                more = true;
                        }
                }
                if (!more)
                        break;
        }
}

static const char * const dot_colour[_DEP_TYPE_MAX] = {
        [DEP_REQUIRES] = "black",     [DEP_REQUISITE] = "darkblue", [DEP_WANTS] = "grey60",
        [DEP_BINDS_TO] = "darkgreen", [DEP_PART_OF] = "gold3",      [DEP_UPHOLDS] = "purple",
        [DEP_CONFLICTS] = "red",      [DEP_AFTER] = "steelblue",    [DEP_ON_FAILURE] = "orange",
        [DEP_ON_SUCCESS] = "orange",  [DEP_TRIGGERS] = "blue",       [DEP_PROPAGATES_RELOAD_TO] = "cyan4",
        [DEP_JOINS_NAMESPACE_OF] = "brown",   [DEP_PROPAGATES_STOP_TO] = "magenta4",
};

/* The kind of arrow an edge type is drawn as, and whether it is drawn from its "to" end: the reverse types are
 * one arrow with the ones they mirror (a After=b is b Before=a, a TriggeredBy=b is b Triggers=a). */
static DepType dot_kind(DepType t, bool *ret_reversed) {
        *ret_reversed = t == DEP_AFTER || t == DEP_TRIGGERED_BY || t == DEP_RELOAD_PROPAGATED_FROM ||
                        t == DEP_STOP_PROPAGATED_FROM;
        switch (t) {
        case DEP_BEFORE:
                return DEP_AFTER;
        case DEP_TRIGGERED_BY:
                return DEP_TRIGGERS;
        case DEP_RELOAD_PROPAGATED_FROM:
                return DEP_PROPAGATES_RELOAD_TO;
        case DEP_STOP_PROPAGATED_FROM:
                return DEP_PROPAGATES_STOP_TO;
        default:
                return t;
        }
}

/* The arcs drawn of m's edges into arcs (room for every edge): filtered as flt says, sorted, each once (implicit
 * when every edge of it is). Returns their number. */
static size_t dot_collect_arcs(const Model *m, const DotFilter *flt, bool all, DotArc *arcs) {
        const Graph *g = model_graph(m);
        size_t n = 0, kept = 0;

        for (size_t i = 0; i < graph_edge_count(g); i++) {
                const GraphEdge *e = graph_edge(g, i);
                const Origin *o = graph_origin(g, e->origin);
                DepType t = e->type, kind;
                bool reversed;

                /* --from/--to follow the arrows through every unit, not only those asked for */
                if (!wanted(m, model_unit_of_node(m, e->from), all || flt->from || flt->to))
                        continue;
                if ((flt->types && !(flt->types & DEP_MASK(t))) || (flt->no_conflicts && t == DEP_CONFLICTS))
                        continue;
                if (flt->no_slices && (endswith(graph_node_name(g, e->from), ".slice") ||
                                       endswith(graph_node_name(g, e->to), ".slice")))
                        continue;
                /* an edge "a After b" is drawn b -> a, "a Before b" a -> b: arrows point the way the boot goes */
                kind = dot_kind(t, &reversed);
                arcs[n++] = (DotArc) {
                        .tail = reversed ? e->to : e->from,
                        .head = reversed ? e->from : e->to,
                        .kind = kind,
                        .edge = (uint32_t) i,
                        .implicit = o->kind == ORIGIN_RULE || o->kind == ORIGIN_MOUNTS_FOR,
                };
        }
        qsort(arcs, n, sizeof(DotArc), dot_arc_compare);
        for (size_t i = 0; i < n; i++) {
                if (kept > 0 && arcs[kept - 1].tail == arcs[i].tail && arcs[kept - 1].head == arcs[i].head &&
                    arcs[kept - 1].kind == arcs[i].kind) {
                        arcs[kept - 1].implicit = arcs[kept - 1].implicit && arcs[i].implicit;
                        continue;
                }
                arcs[kept++] = arcs[i];
        }
        return kept;
}

/* The legend names the kinds of arrow drawn (used: DEP_MASK() bits), in their colours; it closes the graph. */
static void dot_print_legend(unsigned used) {
        printf("\tsubgraph cluster_legend {\n\t\tlabel=\"legend\";\n\t\tfontname=\"sans\";\n"
               "\t\tnode [shape=plaintext];\n\t\t\"legend\" [label=<<table border=\"0\" cellborder=\"0\">"
               "<tr><td align=\"left\">a -&gt; b: b is ordered after a (b After=a or a Before=b: a starts first), or a "
               "pulls in, binds, conflicts with b</td></tr>"
               "<tr><td align=\"left\">dashed: added by systemd itself (default and implicit dependencies); "
               "yellow: not in bootrace's base model of systemd's units; ellipse: a target</td></tr>");
        for (DepType t = 0; t < _DEP_TYPE_MAX; t++)
                if (used & DEP_MASK(t))
                        printf("<tr><td align=\"left\"><font color=\"%s\">&#9644;&#9654; %s</font></td></tr>",
                               dot_colour[t] ?: "black", t == DEP_AFTER ? "After=/Before= (ordering)" :
                               dep_type_to_string(t));
        printf("</table>>];\n\t}\n}\n");
}

/* The nodes drawn (and --from/--to, marked), yellow when not in the base model b. */
static void dot_print_nodes(const Graph *g, const BaseModel *b, const uint8_t *drawn, uint32_t from, uint32_t to) {
        for (uint32_t v = 0; v < graph_node_count(g); v++) {
                const char *name = graph_node_name(g, v);
                bool own = b && base_model_unit(b, name);
                if (!drawn[v] && v != from && v != to)
                        continue;
                printf("\t\"");
                dot_quote(name);
                printf("\" [%s%s%s];\n", endswith(name, ".target") ? "shape=ellipse" : "shape=box",
                       own ? "" : ", style=filled, fillcolor=\"lightyellow\"",
                       v == from || v == to ? ", penwidth=3" : "");
        }
}

/* Returns 0, -ENOENT when --from or --to names a unit the graph does not have (logged), -ENOMEM. */
static int print_dot(const Model *m, const Rules *rules, const DotFilter *flt, bool all) {
        const Graph *g = model_graph(m);
        size_t n_nodes = graph_node_count(g), n;
        _cleanup_(freep) DotArc *arcs = malloc(sizeof(DotArc) * (graph_edge_count(g) + 1));
        _cleanup_(freep) uint32_t *dfrom = malloc(sizeof(uint32_t) * (n_nodes + 1));
        _cleanup_(freep) uint32_t *dto = malloc(sizeof(uint32_t) * (n_nodes + 1));
        _cleanup_(freep) uint8_t *drawn = calloc(n_nodes + 1, 1);
        uint32_t from = UINT32_MAX, to = UINT32_MAX;
        unsigned used = 0;

        if (!arcs || !dfrom || !dto || !drawn)
                return log_oom();
        if ((flt->from && graph_find_node(g, flt->from, &from) < 0) ||
            (flt->to && graph_find_node(g, flt->to, &to) < 0)) {
                const char *which = flt->from && from == UINT32_MAX ? "--from" : "--to";
                log_error("%s=%s: no unit of that name in the graph (is it loaded? 'bootrace graph' lists the units)",
                          which, which[2] == 'f' ? flt->from : flt->to);
                return -ENOENT;
        }
        n = dot_collect_arcs(m, flt, all, arcs);
        if (from != UINT32_MAX)
                dot_distances(arcs, n, n_nodes, from, true, flt->depth, dfrom);
        if (to != UINT32_MAX)
                dot_distances(arcs, n, n_nodes, to, false, flt->depth, dto);

        printf("digraph bootrace {\n\trankdir=LR;\n\tnode [shape=box, fontname=\"sans\"];\n"
               "\tedge [fontname=\"sans\", fontsize=9];\n");
        for (size_t i = 0; i < n; i++) {
                const DotArc *x = &arcs[i];
                _cleanup_(freep) char *where = NULL;

                /* both ends within reach of --from (and of --to) */
                if ((flt->from && (from == UINT32_MAX || dfrom[x->tail] == UINT32_MAX || dfrom[x->head] == UINT32_MAX)) ||
                    (flt->to && (to == UINT32_MAX || dto[x->head] == UINT32_MAX || dto[x->tail] == UINT32_MAX)))
                        continue;
                drawn[x->tail] = drawn[x->head] = 1;
                used |= DEP_MASK(x->kind);
                where = origin_to_text(graph_origin(g, graph_edge(g, x->edge)->origin));
                printf("\t\"");
                dot_quote(graph_node_name(g, x->tail));
                printf("\" -> \"");
                dot_quote(graph_node_name(g, x->head));
                printf("\" [color=\"%s\"%s, tooltip=\"%s: ", dot_colour[x->kind] ?: "black",
                       x->implicit ? ", style=dashed" : "", x->kind == DEP_AFTER ? "ordering" :
                       dep_type_to_string(x->kind));
                dot_quote(strna(where));
                printf("\"];\n");
        }
        dot_print_nodes(g, rules_base_model(rules, model_version(m)), drawn, from, to);
        dot_print_legend(used);
        return 0;
}

/* A PATH argument: its directory is searched first, its file name is the unit. */
static int path_arg(const char *arg, const char *instance, char **ret_name, char ***dirs) {
        _cleanup_(freep) char *dir = NULL, *name = NULL;
        struct stat st;
        int r;

        if (stat(arg, &st) < 0) {
                log_error_errno(errno, "%s", arg);
                return -errno;
        }
        r = unit_name_split_file_path(arg, &dir, &name);
        if (r == -EINVAL)
                log_error("%s: \"%s\" is not a valid unit file name", arg, path_basename(arg));
        if (r >= 0)
                r = unit_name_file_instance(&name, instance); /* a template file: an instance, as verify does */
        if (r < 0)
                return r;
        if (strv_extend_unique(dirs, dir) < 0)
                return -ENOMEM;
        *ret_name = TAKE_PTR(name);
        return 0;
}


/* The cycles as a DOT digraph: each job of a cycle once, each ordering between two jobs once (the cycles share
 * them), drawn from the job that starts first to the one ordered after it, labelled with the setting and where
 * it comes from; the jobs systemd may delete filled; a legend says so. */
static void print_cycles_dot(const Model *m, const Rules *rules, const char *anchor, const Cycle *cycles, size_t n) {
        const Graph *g = model_graph(m);
        _cleanup_(freep) uint8_t *node = calloc(graph_node_count(g) + 1, 1);
        _cleanup_(freep) uint8_t *edge = calloc(graph_edge_count(g) + 1, 1);

        if (!node || !edge)
                return;
        printf("digraph \"cycles of %s\" {\n\trankdir=LR;\n\tnode [shape=box, fontname=\"sans\"];\n"
               "\tedge [fontname=\"sans\", fontsize=10];\n", anchor);
        for (size_t i = 0; i < n; i++) {
                for (size_t k = 0; k < cycles[i].n; k++)
                        node[cycles[i].nodes[k]] |= 1;
                for (size_t k = 0; k < cycles[i].n_victims; k++)
                        node[cycles[i].victims[k]] |= 2;
        }
        for (uint32_t x = 0; x < graph_node_count(g); x++) {
                const char *name = graph_node_name(g, x), *loss;
                if (!node[x])
                        continue;
                printf("\t\"");
                dot_quote(name);
                printf("\"");
                if (node[x] & 2) {
                        loss = rules_check_loss(rules, "ordering-cycle", name);
                        printf(" [style=filled, fillcolor=\"lightyellow\", tooltip=\"systemd may delete this job");
                        if (loss) {
                                printf(": ");
                                dot_quote(loss);
                        }
                        printf("\"]");
                }
                printf(";\n");
        }
        for (size_t i = 0; i < n; i++)
                for (size_t k = 0; k < cycles[i].n; k++) {
                        uint32_t id = cycles[i].edges[k];
                        const GraphEdge *e = graph_edge(g, id);
                        const Origin *o = graph_origin(g, e->origin);
                        _cleanup_(freep) char *where = origin_to_text(o);
                        /* x After=y and y Before=x alike: y -> x, "x starts after y" */
                        uint32_t first = e->type == DEP_AFTER ? e->to : e->from;
                        uint32_t then = e->type == DEP_AFTER ? e->from : e->to;
                        /* systemd's own units: the base model's, or a root's units named like them */
                        const BaseModel *b = rules_base_model(rules, model_version(m));
                        bool written = (o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN) && !o->base &&
                                       !(b && base_model_unit(b, graph_node_name(g, e->from)));

                        if (edge[id])
                                continue;
                        edge[id] = 1;
                        printf("\t\"");
                        dot_quote(graph_node_name(g, first));
                        printf("\" -> \"");
                        dot_quote(graph_node_name(g, then));
                        printf("\" [label=\"%s %s=\\n", graph_node_name(g, e->from), dep_type_to_string(e->type));
                        dot_quote(strna(where));
                        printf("\", color=\"%s\"%s];\n", written ? "red" : "grey40",
                               written ? ", penwidth=2" : o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN ? ""
                                                                                                 : ", style=dashed");
                }
        printf("\tsubgraph cluster_legend {\n\t\tlabel=\"legend\";\n\t\tfontname=\"sans\";\n"
               "\t\t\"legend\" [shape=note, label=\"%zu ordering cycle%s of the boot transaction of %s\\l"
               "a -> b: b is ordered after a (b After=a, or a Before=b): a starts first\\l"
               "red: a line of a unit file or drop-in; grey: systemd's own units; dashed: added by systemd itself\\l"
               "filled: a job systemd may delete to break a cycle (it does not matter to %s)\\l\"];\n\t}\n}\n",
               n, n == 1 ? "" : "s", anchor, anchor);
}

static void print_cycles_json(const Model *m, const Rules *rules, const VersionChoice *vc, const char *anchor,
                              const Transaction *t, const Cycle *cycles, size_t n, bool truncated) {
        Graph *g = model_graph(m);
        JsonWriter w;

        json_init(&w, stdout, false);
        report_json_begin(&w, NULL);
        json_kv_uint(&w, "systemd", model_version(m));
        report_json_nearest_model(&w, vc);
        json_kv_string(&w, "transaction", anchor);
        json_kv_uint(&w, "jobs", transaction_job_count(t));
        json_kv_bool(&w, "truncated", truncated);
        json_key(&w, "cycles");
        json_begin_array(&w);
        for (size_t i = 0; i < n; i++) {
                json_begin_object(&w);
                json_key(&w, "edges");
                json_begin_array(&w);
                for (size_t k = 0; k < cycles[i].n; k++)
                        edge_to_json(&w, g, graph_edge(g, cycles[i].edges[k]));
                json_end_array(&w);
                json_key(&w, "victims");
                json_begin_array(&w);
                for (size_t k = 0; k < cycles[i].n_victims; k++) {
                        const char *name = graph_node_name(g, cycles[i].victims[k]);
                        json_begin_object(&w);
                        json_kv_string(&w, "unit", name);
                        json_kv_string(&w, "loss", rules_check_loss(rules, "ordering-cycle", name));
                        json_end_object(&w);
                }
                json_end_array(&w);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

static void print_cycles_text(const Model *m, const Rules *rules, const char *anchor, const Transaction *t,
                              const Cycle *cycles, size_t n, bool truncated) {
        Graph *g = model_graph(m);

        printf("# boot transaction of %s: %zu jobs, %zu ordering cycle%s%s\n", anchor, transaction_job_count(t), n,
               n == 1 ? "" : "s", truncated ? " (more not listed)" : "");
        for (size_t i = 0; i < n; i++) {
                printf("cycle %zu (%zu jobs; each line is ordered after the next):\n", i + 1, cycles[i].n);
                for (size_t k = 0; k < cycles[i].n; k++) {
                        const GraphEdge *e = graph_edge(g, cycles[i].edges[k]);
                        _cleanup_(freep) char *o = origin_to_text(graph_origin(g, e->origin));
                        printf("  %s %s=%s (%s)\n", graph_node_name(g, e->from), dep_type_to_string(e->type),
                               graph_node_name(g, e->to), strna(o));
                }
                printf("  systemd may delete:%s\n", cycles[i].n_victims ? "" : " nothing - the transaction fails");
                for (size_t k = 0; k < cycles[i].n_victims; k++) {
                        const char *name = graph_node_name(g, cycles[i].victims[k]);
                        const char *loss = rules_check_loss(rules, "ordering-cycle", name);
                        printf("    %s%s%s\n", name, loss ? ": " : "", strempty(loss));
                }
        }
}

/* The ordering cycles of the boot transaction of anchor: each cycle's edges with their origins, and the jobs
 * systemd may delete to break it (not needed by the anchor) with what the boot loses then. Returns the exit
 * status: 1 when there are cycles. */
static int print_cycles(const Model *m, const Rules *rules, const Context *ctx, const VersionChoice *vc,
                        const char *anchor, DiagList *diags) {
        _cleanup_(transaction_freep) Transaction *t = NULL;
        Cycle *cycles = NULL;
        size_t n = 0;
        bool truncated = false;
        int r;

        r = transaction_build(m, anchor, &t, diags);
        if (r == -ENOENT)
                log_error("%s: cannot be loaded, no transaction", anchor);
        else if (r < 0)
                log_error_errno(r, "%s", anchor);
        if (r < 0)
                return EXIT_ERROR;
        r = transaction_cycles(t, 256, &cycles, &n, &truncated);
        if (r < 0)
                return log_error_errno(r, "%s: cannot find the ordering cycles", anchor), EXIT_ERROR;
        if (ctx->format == FORMAT_DOT)
                print_cycles_dot(m, rules, anchor, cycles, n);
        else if (ctx->format == FORMAT_JSON)
                print_cycles_json(m, rules, vc, anchor, t, cycles, n, truncated);
        else
                print_cycles_text(m, rules, anchor, t, cycles, n, truncated);
        fflush(stdout);
        r = n > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
        cycle_list_free(cycles, n);
        return r;
}

/* The graph of a whole tree has the template instances its units reference (getty@tty1.service from a .wants/
 * link, modprobe@drm.service from a Wants=) among its units, as PID 1 loads them: they are no files of the tree.
 * Instances those reference come in too. Returns 0 or -errno. */
static int add_referenced_instances(Model *model) {
        for (;;) {
                _cleanup_(strv_freep) char **add = NULL;

                for (size_t i = 0; i < model_unit_count(model); i++) {
                        const ModelUnit *mu = model_unit(model, i);
                        if (!mu->target && mu->loaded && unit_name_is_valid(mu->unit->id, UNIT_NAME_INSTANCE) &&
                            strv_extend(&add, mu->unit->id) < 0)
                                return -ENOMEM;
                }
                if (!add)
                        return 0;
                STRV_FOREACH(n, add) {
                        int r = model_add(model, *n, NULL);
                        if (r < 0)
                                return r;
                }
        }
}

static void graph_args_done(GraphArgs *a) {
        a->mounted = strv_free(a->mounted);
        a->transaction = mfree(a->transaction);
        a->dot.from = mfree(a->dot.from);
        a->dot.to = mfree(a->dot.to);
        live_args_done(&a->live);
}

/* The options that only mean something together. Returns 0, or -EINVAL after printing a usage error. */
static int graph_check_args(const Context *ctx, const GraphArgs *a) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_DOT, _FORMAT_INVALID };
        const DotFilter *d = &a->dot;

        if (cli_check_format(ctx, "graph", formats) < 0)
                return -EINVAL;
        if ((d->types || d->from || d->to || d->depth || d->no_slices || d->no_conflicts) &&
            (ctx->format != FORMAT_DOT || a->cycles)) {
                log_error("--type, --from, --to, --depth, --no-slices and --no-conflicts choose what --format=dot "
                          "draws of the graph (not with --cycles)");
                return -EINVAL;
        }
        if (d->depth && !d->from && !d->to) {
                log_error("--depth=%u counts arrows from --from or to --to: give one of them", d->depth);
                return -EINVAL;
        }
        return 0;
}

/* The UNIT and PATH arguments: the names asked for (a template PATH as its instance), and the PATHs' directories
 * to search first. Returns 0, or a negative errno after printing an error. */
static int collect_names(char **args, int n, const char *instance, char ***names, char ***extra) {
        for (int i = 0; i < n; i++) {
                char *name = NULL;
                int r;

                if (strchr(args[i], '/')) {
                        r = path_arg(args[i], instance, &name, extra);
                        if (r == -ENOMEM)
                                return log_oom();
                        if (r < 0)
                                return r;
                } else if (!unit_name_is_valid(args[i], UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                        log_error("\"%s\" is not a valid unit name (NAME.service, NAME@INSTANCE.service, ...)",
                                  args[i]);
                        return -EINVAL;
                } else
                        name = strdup(args[i]);
                if (!name || strv_push(names, name) < 0)
                        return log_oom();
        }
        return 0;
}

/* The model of in's version over the root and the PATHs' directories (with --cycles, the generators' units too).
 * Returns 0, or a negative errno after printing an error. */
static int graph_model_new(const GraphArgs *a, const Inputs *in, char **extra, char **generated, Model **ret,
                           DiagList *diags) {
        int r;

        if (a->cycles) {
                r = lint_generate(in->root, &in->features, generated, diags); /* in has the version's facts */
                if (r < 0)
                        return log_error_errno(r, "cannot write the generated units");
        }
        r = model_new(&(ModelOptions) {
                              .generator_dir = *generated,
                              .root = in->root,
                              .extra_dirs = extra,
                              .systemd = in->vc.version,
                              .distro = in->distro,
                              .target = in->target_name,
                              .offline = a->offline,
                              .no_base = a->no_base,
                              .mounted = a->mounted,
                      },
                      in->rules, ret, diags);
        if (r < 0) {
                diag_list_print(diags, stderr, DIAG_WARNING);
                return log_error_errno(r, "cannot set up the model");
        }
        return 0;
}

/* Every unit of the tree (no templates: they are not units). */
static int whole_tree_names(Model *model, char ***ret) {
        size_t k = 0;

        if (model_list_names(model, ret) < 0)
                return log_oom();
        STRV_FOREACH(n, *ret) {
                if (unit_name_is_valid(*n, UNIT_NAME_TEMPLATE))
                        free(*n);
                else
                        (*ret)[k++] = *n;
        }
        (*ret)[k] = NULL;
        return 0;
}

/* "NAME: not-found (...)" for a unit asked for that systemd could not load either: no empty graph but an input
 * error, said at the end. Returns 0 or -ENOMEM. */
static int note_unloaded(const ModelUnit *mu, const char *n, bool root, char ***unloaded) {
        const char *frag = mu->unit->fragment_path;
        char *e = NULL;

        if (asprintf_safe(&e, "%s: %s%s%s", n, load_state_to_string(mu->unit->load_state), frag ? ", " : "",
                          frag ? frag
                          : root ? " (no unit file for it in the root)"
                                 : " (no unit file for it given, nor in the base model)") < 0 ||
            strv_push(unloaded, e) < 0)
                return -ENOMEM;
        return 0;
}

/* Loads the names into the model (and, for a whole tree, the instances they reference) and finishes it. Returns
 * 0 (what could not be loaded in *unloaded), or a negative errno after printing an error. */
static int load_names(Model *model, char **names, const GraphArgs *a, bool whole_tree, bool root,
                      char ***unloaded) {
        size_t n_names = strv_length(names), ahead = 0;
        int r;

        r = model_prefetch(model, n_names);
        if (r < 0)
                log_warning_errno(r, "loading on one thread"); /* slower, the same result */
        for (size_t i = 0; i < n_names; i++) {
                ModelUnit *mu = NULL;

                model_hint_names(model, names, n_names, i, &ahead);
                r = model_add(model, names[i], &mu);
                /* units given as files count as enabled the way their [Install] section says */
                if (r >= 0 && a->cycles && mu && mu->unit->from_extra_dir && lint_enable_by_install(model, mu) < 0)
                        return log_oom();
                if (r < 0)
                        return log_error_errno(r, "%s: cannot load", names[i]);
                if (!whole_tree && mu && mu->unit->load_state != LOAD_LOADED &&
                    mu->unit->load_state != LOAD_MASKED && note_unloaded(mu, names[i], root, unloaded) < 0)
                        return log_oom();
        }
        if (whole_tree) {
                r = add_referenced_instances(model);
                if (r < 0)
                        return log_error_errno(r, "cannot load the instances the units reference");
        }
        r = model_finish(model);
        if (r < 0)
                return log_error_errno(r, "cannot build the graph");
        return 0;
}

/* The graph in ctx's format, then what went wrong. Returns the exit status. */
static int graph_print(const Context *ctx, const GraphArgs *a, const Inputs *in, Model *model, char **unloaded,
                       DiagList *diags) {
        int ret;

        /* text and dot: the note as a comment line of each (dot: "//"), before everything else */
        if (in->nearest && ctx->format != FORMAT_JSON)
                printf("%s note: %s\n", ctx->format == FORMAT_DOT ? "//" : "#", in->nearest);
        if (a->cycles)
                return print_cycles(model, in->rules, ctx, &in->vc, a->transaction ?: "default.target", diags);
        if (ctx->format == FORMAT_JSON)
                print_json(model, ctx, &in->vc, a->all);
        else if (ctx->format == FORMAT_DOT) {
                if (print_dot(model, in->rules, &a->dot, a->all) < 0)
                        return EXIT_ERROR;
        } else
                print_text(model, a->all);
        fflush(stdout);
        diag_list_print(diags, stderr, ctx->quiet ? DIAG_ERROR : DIAG_WARNING);
        ret = diag_count(diags, DIAG_ERROR) > 0 ? EXIT_ERROR : EXIT_CLEAN;
        STRV_FOREACH(e, unloaded) {
                log_error("%s", *e);
                ret = EXIT_ERROR;
        }
        return ret;
}

int verb_graph(int argc, char *argv[], Context *ctx) {
        static const struct option options[] = {
                { "all", no_argument, NULL, ARG_ALL },
                { "offline", no_argument, NULL, ARG_OFFLINE },
                { "mounted", required_argument, NULL, ARG_MOUNTED },
                { "no-base", no_argument, NULL, ARG_NO_BASE },
                { "cycles", no_argument, NULL, ARG_CYCLES },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                { "type", required_argument, NULL, ARG_TYPE },
                { "from", required_argument, NULL, ARG_FROM },
                { "to", required_argument, NULL, ARG_TO },
                { "depth", required_argument, NULL, ARG_DEPTH },
                { "no-slices", no_argument, NULL, ARG_NO_SLICES },
                { "no-conflicts", no_argument, NULL, ARG_NO_CONFLICTS },
                LIVE_OPTIONS,
                {},
        };
        _cleanup_(graph_args_done) GraphArgs a = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(inputs_done) Inputs in = {};
        _cleanup_(lint_generated_removep) char *generated = NULL;
        _cleanup_(model_releasep) Model *model = NULL; /* the process exits after this verb */
        _cleanup_(strv_freep) char **extra = NULL, **names = NULL, **unloaded = NULL;
        _cleanup_(freep) char *help = strjoin(graph_help, "\n", graph_live_help);
        bool whole_tree;
        int r, optind_;

        if (!help)
                return log_oom(), EXIT_ERROR;
        r = cli_parse(argc, argv, ctx, options, LIVE_SHORT_OPTIONS, graph_option, &a, help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (live_args_wanted(&a.live))
                return verb_graph_live(&a.live, argv + optind_, argc - optind_, ctx);
        if (graph_check_args(ctx, &a) < 0 || cli_open_inputs(ctx, INPUTS_FEATURES, &in, &diags) < 0 ||
            collect_names(argv + optind_, argc - optind_, context_template_instance(ctx, &in.features), &names,
                          &extra) < 0 ||
            graph_model_new(&a, &in, extra, &generated, &model, &diags) < 0)
                return EXIT_ERROR;
        whole_tree = !names;
        if (whole_tree && whole_tree_names(model, &names) < 0)
                return EXIT_ERROR;
        if (a.cycles && strv_extend(&names, a.transaction ?: "default.target") < 0)
                return log_oom(), EXIT_ERROR;
        if (load_names(model, names, &a, whole_tree, in.root, &unloaded) < 0)
                return EXIT_ERROR;
        return graph_print(ctx, &a, &in, model, unloaded, &diags);
}
