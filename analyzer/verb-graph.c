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
        "that cannot be loaded (not-found, bad-setting, error) is named and the exit status is 2.\n\n"
        "  --all            print the edges of every loaded unit, not only of the units asked for\n"
        "  --offline        model systemd-analyze verify (its manager defaults; no mount table)\n"
        "  --mounted=PATH   PATH is a mount point (its mount unit exists without a unit file)\n"
        "  --no-base        do not use the base model\n"
        "  --cycles         the ordering cycles of the boot transaction instead, with the jobs systemd may\n"
        "                   delete to break each (exit status 1 when there are any)\n"
        "  --transaction=UNIT  the target whose start transaction is built (default.target; implies --cycles)\n";

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
};

typedef struct GraphArgs {
        bool all, offline, no_base;
        LiveArgs live;
        char **mounted;
        bool cycles;
        char *transaction;
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

static void print_dot(const Model *m, bool all) {
        static const char * const colour[_DEP_TYPE_MAX] = {
                [DEP_REQUIRES] = "black",     [DEP_REQUISITE] = "darkblue", [DEP_WANTS] = "grey66",
                [DEP_BINDS_TO] = "darkgreen", [DEP_PART_OF] = "gold3",      [DEP_UPHOLDS] = "purple",
                [DEP_CONFLICTS] = "red",      [DEP_BEFORE] = "green",       [DEP_AFTER] = "green",
                [DEP_ON_FAILURE] = "orange",  [DEP_ON_SUCCESS] = "orange",  [DEP_TRIGGERS] = "blue",
        };
        Graph *g = model_graph(m);

        printf("digraph bootrace {\n\trankdir=LR;\n");
        for (size_t i = 0; i < graph_edge_count(g); i++) {
                const GraphEdge *e = graph_edge(g, i);
                const Origin *o = graph_origin(g, e->origin);
                /* an edge "a After b" is drawn b -> a: arrows point the way the boot goes */
                bool rev = e->type == DEP_AFTER;

                if (!wanted(m, model_unit_of_node(m, e->from), all))
                        continue;
                printf("\t\"%s\" -> \"%s\" [color=\"%s\", label=\"%s\"%s];\n",
                       graph_node_name(g, rev ? e->to : e->from), graph_node_name(g, rev ? e->from : e->to),
                       colour[e->type] ?: "black", dep_type_to_string(e->type),
                       o->kind == ORIGIN_RULE || o->kind == ORIGIN_MOUNTS_FOR ? ", style=dashed" : "");
        }
        printf("}\n");
}

/* A PATH argument: its directory is searched first, its file name is the unit. */
static int path_arg(const char *arg, char **ret_name, char ***dirs) {
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
                r = unit_name_file_instance(&name); /* a template file: its instance NAME@i, as verify does */
        if (r < 0)
                return r;
        if (strv_extend_unique(dirs, dir) < 0)
                return -ENOMEM;
        *ret_name = TAKE_PTR(name);
        return 0;
}

/* The ordering cycles of the boot transaction of anchor: each cycle's edges with their origins, and the jobs
 * systemd may delete to break it (not needed by the anchor) with what the boot loses then. Returns the exit
 * status: 1 when there are cycles. */
static int print_cycles(const Model *m, const Rules *rules, const Context *ctx, const VersionChoice *vc,
                        const char *anchor, DiagList *diags) {
        _cleanup_(transaction_freep) Transaction *t = NULL;
        Graph *g = model_graph(m);
        Cycle *cycles = NULL;
        size_t n = 0;
        bool truncated = false;
        JsonWriter w;
        int r;

        r = transaction_build(m, anchor, &t, diags);
        if (r < 0) {
                log_error("%s: %s", anchor, r == -ENOENT ? "cannot be loaded, no transaction" : strerror(-r));
                return EXIT_ERROR;
        }
        r = transaction_cycles(t, 256, &cycles, &n, &truncated);
        if (r < 0)
                return EXIT_ERROR;
        if (ctx->format == FORMAT_JSON) {
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
        } else {
                printf("# boot transaction of %s: %zu jobs, %zu ordering cycle%s%s\n", anchor,
                       transaction_job_count(t), n, n == 1 ? "" : "s", truncated ? " (more not listed)" : "");
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

int verb_graph(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_DOT, _FORMAT_INVALID };
        static const struct option options[] = {
                { "all", no_argument, NULL, ARG_ALL },
                { "offline", no_argument, NULL, ARG_OFFLINE },
                { "mounted", required_argument, NULL, ARG_MOUNTED },
                { "no-base", no_argument, NULL, ARG_NO_BASE },
                { "cycles", no_argument, NULL, ARG_CYCLES },
                { "transaction", required_argument, NULL, ARG_TRANSACTION },
                LIVE_OPTIONS,
                {},
        };
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(model_releasep) Model *model = NULL; /* the process exits after this verb */
        _cleanup_(strv_freep) char **extra = NULL, **names = NULL;
        bool whole_tree;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *distro = NULL;
        const char *target_name = NULL;
        _cleanup_(lint_generated_removep) char *generated = NULL;
        _cleanup_(freep) char *nearest = NULL;
        _cleanup_(strv_freep) char **unloaded = NULL;
        GraphArgs a = {};
        VersionChoice vc;
        unsigned version;
        int r, optind_, ret = EXIT_ERROR;

        _cleanup_(freep) char *help = strjoin(graph_help, "\n", graph_live_help);
        if (!help)
                return EXIT_ERROR;
        r = cli_parse(argc, argv, ctx, options, LIVE_SHORT_OPTIONS, graph_option, &a, help, &optind_);
        if (r != 0) {
                strv_free(a.mounted);
                live_args_done(&a.live);
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        }
        if (live_args_wanted(&a.live)) {
                ret = verb_graph_live(&a.live, argv + optind_, argc - optind_, ctx);
                goto finish;
        }
        if (cli_check_format(ctx, "graph", formats) < 0)
                goto finish;
        r = cli_open_root(ctx, &root);
        if (r < 0)
                goto finish;
        r = context_resolve_version(ctx, root, &vc);
        if (r < 0)
                goto finish;
        version = vc.version;
        nearest = version_choice_note(&vc);
        if (version_choice_nearest(&vc) && !nearest)
                goto finish;
        r = cli_load_rules(&rules, &diags);
        if (r < 0)
                goto finish;
        if (ctx->target && rules_target_version(rules, ctx->target, NULL, &target_name) >= 0 && target_name)
                distro = strndup_safe(target_name, strcspn(target_name, "-"));
        for (int i = optind_; i < argc; i++) {
                char *name = NULL;
                if (strchr(argv[i], '/')) {
                        r = path_arg(argv[i], &name, &extra);
                        if (r < 0)
                                goto finish;
                } else if (!unit_name_is_valid(argv[i], UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                        log_error("\"%s\" is not a valid unit name (NAME.service, NAME@INSTANCE.service, ...)",
                                  argv[i]);
                        goto finish;
                } else
                        name = strdup(argv[i]);
                if (!name || strv_push(&names, name) < 0)
                        goto finish;
        }

        if (a.cycles) {
                FeatureSet fs;
                r = rules_feature_set(rules, version, &fs);
                if (r >= 0)
                        r = lint_generate(root, &fs, &generated, &diags);
                if (r < 0) {
                        log_error_errno(r, "cannot write the generated units");
                        goto finish;
                }
        }
        r = model_new(&(ModelOptions) {
                              .generator_dir = generated,
                              .root = root,
                              .extra_dirs = extra,
                              .systemd = version,
                              .distro = distro,
                              .target = target_name,
                              .offline = a.offline,
                              .no_base = a.no_base,
                              .mounted = a.mounted,
                      },
                      rules, &model, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                log_error_errno(r, "cannot set up the model");
                goto finish;
        }
        whole_tree = !names;
        if (!names) {
                /* every unit of the tree (no templates: they are not units) */
                size_t k = 0;
                r = model_list_names(model, &names);
                if (r < 0)
                        goto finish;
                STRV_FOREACH(n, names) {
                        if (unit_name_is_valid(*n, UNIT_NAME_TEMPLATE))
                                free(*n);
                        else
                                names[k++] = *n;
                }
                names[k] = NULL;
        }
        if (a.cycles && strv_extend(&names, a.transaction ?: "default.target") < 0)
                goto finish;
        r = model_prefetch(model, strv_length(names));
        if (r < 0)
                log_warning_errno(r, "loading on one thread"); /* slower, the same result */
        for (size_t i = 0, ahead = 0, n_names = strv_length(names); i < n_names; i++) {
                const char *n = names[i];
                ModelUnit *mu = NULL;
                model_hint_names(model, names, n_names, i, &ahead);
                r = model_add(model, n, &mu);
                /* units given as files count as enabled the way their [Install] section says */
                if (r >= 0 && a.cycles && mu && mu->unit->from_extra_dir && lint_enable_by_install(model, mu) < 0)
                        goto finish;
                if (r < 0) {
                        log_error_errno(r, "%s: cannot load", n);
                        goto finish;
                }
                /* a unit asked for that systemd could not load either is no empty graph: an input error */
                if (!whole_tree && mu && mu->unit->load_state != LOAD_LOADED && mu->unit->load_state != LOAD_MASKED) {
                        char *e = NULL;
                        if (asprintf_safe(&e, "%s: %s%s%s", n, load_state_to_string(mu->unit->load_state),
                                          mu->unit->fragment_path ? ", " : "",
                                          mu->unit->fragment_path ? mu->unit->fragment_path
                                          : root ? " (no unit file for it in the root)"
                                                 : " (no unit file for it given, nor in the base model)") < 0 ||
                            strv_push(&unloaded, e) < 0)
                                goto finish;
                }
        }
        if (whole_tree) {
                r = add_referenced_instances(model);
                if (r < 0) {
                        log_error("cannot load the instances the units reference: %s", strerror(-r));
                        goto finish;
                }
        }
        r = model_finish(model);
        if (r < 0) {
                log_error_errno(r, "cannot build the graph");
                goto finish;
        }
        if (a.cycles) {
                if (nearest && ctx->format != FORMAT_JSON)
                        printf("# note: %s\n", nearest);
                ret = print_cycles(model, rules, ctx, &vc, a.transaction ?: "default.target", &diags);
                goto finish;
        }
        /* text and dot: the note as a comment line of each (dot: "//"), before everything else */
        if (nearest && ctx->format != FORMAT_JSON)
                printf("%s note: %s\n", ctx->format == FORMAT_DOT ? "//" : "#", nearest);
        if (ctx->format == FORMAT_JSON)
                print_json(model, ctx, &vc, a.all);
        else if (ctx->format == FORMAT_DOT)
                print_dot(model, a.all);
        else
                print_text(model, a.all);
        fflush(stdout);
        diag_list_print(&diags, stderr, ctx->quiet ? DIAG_ERROR : DIAG_WARNING);
        ret = diag_count(&diags, DIAG_ERROR) > 0 ? EXIT_ERROR : EXIT_CLEAN;
        STRV_FOREACH(e, unloaded) {
                log_error("%s", *e);
                ret = EXIT_ERROR;
        }
finish:
        strv_free(a.mounted);
        free(a.transaction);
        live_args_done(&a.live);
        return ret;
}
