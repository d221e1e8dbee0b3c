/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace chain: the critical chain of a unit in a past boot, reconstructed from the journal. The chain itself
 * comes from a ChainSource (chain.h); this verb plugs in the journal one. A live source over sd-bus can be
 * added next to it without touching the algorithm or the output. */

#include "config.h"
#include "basic/json.h"
#include "journal/chain.h"
#include "model/model.h"
#include "report/json-header.h"
#include "report/stats-report.h"
#include "verb-live.h"
#include "verbs.h"

enum {
        ARG_FILE = ARG_VERB_BASE,
        ARG_BOOT,
};

static const struct option options[] = {
        { "directory", required_argument, NULL, 'D' },
        { "file", required_argument, NULL, ARG_FILE },
        { "boot", required_argument, NULL, ARG_BOOT },
        LIVE_OPTIONS,
        LIVE_OPTION_FUZZ,
        {},
};

static const char help[] =
        "Usage: bootrace chain [UNIT] [--live] [-H [USER@]HOST | -M NAME] [--fuzz=SPAN]\n"
        "       bootrace chain [UNIT] [--boot=ID|OFFSET] [-D DIR | --file=FILE... | --root=DIR]\n\n"
        "The critical chain of UNIT: the unit, the unit it waited for last, and so on. Without journal\n"
        "options, of the running system, as systemd-analyze critical-chain computes it from PID 1's\n"
        "timestamps and After= dependencies (default UNIT: default.target). With -D, --file, --root or\n"
        "--boot, of one past boot, reconstructed from the journal (default UNIT: graphical.target, else\n"
        "multi-user.target).\n\n"
        "      --live             the running system (the default without journal options)\n"
        "  -H, --host=[USER@]HOST the system bus of HOST, over ssh\n"
        "  -M, --machine=NAME     the system bus of a local container\n"
        "      --fuzz=SPAN        live: also follow predecessors that became active up to SPAN before the\n"
        "                         last one (default 0)\n"
        "  -D, --directory=DIR    read the journal files in DIR\n"
        "      --file=FILE        read FILE (repeatable)\n"
        "      --root=DIR         read DIR/var/log/journal and DIR/run/log/journal; with or without -D or\n"
        "                         --file, the links follow the After= and Before= of DIR's unit files\n"
        "      --boot=ID|OFFSET   the boot: a boot ID, or 0 for the last, -1 the one before, 1 the first\n"
        "                         (default 0)\n"
        "      --format=FORMAT    text (default) or json\n";

typedef struct ChainArgs {
        JournalSourceSpec spec;
        char *boot;
        LiveArgs live;
} ChainArgs;

static void chain_args_done(ChainArgs *a) {
        journal_source_spec_done(&a->spec);
        free(a->boot);
        live_args_done(&a->live);
}

static int handle(int c, const char *arg, void *userdata) {
        ChainArgs *a = userdata;

        switch (c) {
        case ARG_LIVE:
        case ARG_LIVE_HOST:
        case ARG_LIVE_MACHINE:
        case ARG_LIVE_FUZZ:
        case 'H':
        case 'M':
                return live_args_handle(&a->live, c, arg);
        case 'D':
                if (a->spec.directory) {
                        log_error("chain: -D given twice");
                        return -EINVAL;
                }
                return (a->spec.directory = strdup(arg)) ? 0 : -ENOMEM;
        case ARG_FILE:
                return strv_extend(&a->spec.files, arg);
        case ARG_BOOT:
                free(a->boot);
                return (a->boot = strdup(arg)) ? 0 : -ENOMEM;
        }
        return -EINVAL;
}

/* With --root: the times from the journal, the ordering from the root's unit files (the model), so a link is
 * a real After= edge (or a Before= of the other unit), not the last unit to become active. */
typedef struct ChainModelSource {
        ChainSource journal;
        Model *model;
} ChainModelSource;

static int model_times(void *userdata, const char *unit, ChainTimes *ret) {
        ChainModelSource *ms = userdata;
        return ms->journal.times(ms->journal.userdata, unit, ret);
}

static int model_units(void *userdata, char ***ret) {
        ChainModelSource *ms = userdata;
        return ms->journal.units(ms->journal.userdata, ret);
}

static int model_after(void *userdata, const char *unit, char ***ret) {
        ChainModelSource *ms = userdata;
        const Graph *g = model_graph(ms->model);
        _cleanup_(strv_freep) char **l = NULL;
        uint32_t node;
        EdgeSet out, in;

        if (!model_get(ms->model, unit) || graph_find_node(g, unit, &node) < 0)
                return -EOPNOTSUPP; /* not in the root: by time, marked inferred */
        out = graph_out(g, node);
        in = graph_in(g, node);
        for (size_t k = 0; k < out.n; k++) {
                const GraphEdge *e = graph_edge(g, edge_set_get(&out, k));
                if (e->type == DEP_AFTER && strv_extend_unique(&l, graph_node_name(g, e->to)) < 0)
                        return -ENOMEM;
        }
        for (size_t k = 0; k < in.n; k++) {
                const GraphEdge *e = graph_edge(g, edge_set_get(&in, k));
                if (e->type == DEP_BEFORE && strv_extend_unique(&l, graph_node_name(g, e->from)) < 0)
                        return -ENOMEM;
        }
        if (!l && !(l = calloc(1, sizeof(char *))))
                return -ENOMEM;
        *ret = TAKE_PTR(l);
        return 0;
}

/* The model of the root with every unit the boot has times for. */
static int chain_model(Context *ctx, const Rules *rules, const ChainSource *js, Root **ret_root, Model **ret) {
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(model_freep) Model *m = NULL;
        _cleanup_(strv_freep) char **units = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        VersionChoice vc;
        size_t n, ahead = 0;
        int r;

        if ((r = cli_open_root(ctx, &root)) < 0 || (r = context_resolve_version(ctx, root, &vc)) < 0)
                return r;
        r = model_new(&(ModelOptions) { .root = root, .systemd = vc.version }, rules, &m, &diags);
        diag_list_print(&diags, stderr, DIAG_WARNING);
        if (r < 0)
                return log_error_errno(r, "chain: %s: cannot set up the model of the unit files", ctx->root);
        r = js->units(js->userdata, &units);
        if (r < 0)
                return log_oom();
        n = strv_length(units);
        if (model_prefetch(m, n) < 0)
                log_warning("chain: loading on one thread");
        for (size_t i = 0; i < n; i++) {
                model_hint_names(m, units, n, i, &ahead);
                if ((r = model_add(m, units[i], NULL)) < 0 && r != -EINVAL)
                        return log_error_errno(r, "chain: %s: cannot load", units[i]);
        }
        r = model_finish(m);
        if (r < 0)
                return log_error_errno(r, "chain: %s", ctx->root);
        *ret = TAKE_PTR(m);
        *ret_root = TAKE_PTR(root); /* the model's units point into it: freed after the model */
        return 0;
}

static void print_text(const StatsSample *s, const Chain *c, FILE *f) {
        const BootInfo *b = &s->analysis->boots[0];
        char t1[32], t2[32];
        bool inferred = false;

        fprintf(f, "Boot %zu of %zu, %s, from %s; times are the boot's monotonic clock.\n", s->boot_map[0] + 1,
                s->source->n_boots, b->id, s->source->description);
        fputs("The time when the unit became active or started is printed after the \"@\" character.\n"
              "The time the unit took to start is printed after the \"+\" character.\n", f);
        for (size_t i = 0; i < c->n; i++)
                inferred = inferred || c->links[i].inferred;
        if (inferred)
                fputs("Links marked \"~\" are inferred from the timestamps (the unit that became active last before\n"
                      "the next one started): the journal does not record ordering dependencies (--root gives\n"
                      "the unit files they come from).\n", f);
        fputc('\n', f);
        for (size_t i = 0; i < c->n; i++) {
                const ChainLink *l = &c->links[i];
                for (size_t k = 1; k < i; k++)
                        fputs("  ", f);
                if (i > 0)
                        fputs("└─", f);
                if (l->times.activating && l->times.active && l->times.active >= l->times.activating)
                        fprintf(f, "%s @%s +%s", l->unit, stats_fmt_usec(t1, l->times.activating),
                                stats_fmt_usec(t2, l->times.active - l->times.activating));
                else if (l->times.active)
                        fprintf(f, "%s @%s", l->unit, stats_fmt_usec(t1, l->times.active));
                else
                        fprintf(f, "%s @%s (did not become active)", l->unit,
                                stats_fmt_usec(t1, l->times.activating));
                fputs(l->inferred ? " ~\n" : "\n", f);
        }
}

static void print_json(const StatsSample *s, const Chain *c, FILE *f) {
        const BootInfo *b = &s->analysis->boots[0];
        JsonWriter w;

        json_init(&w, f, true);
        report_json_begin(&w, NULL);
        json_kv_string(&w, "source", s->source->description);
        json_kv_uint(&w, "boot", s->boot_map[0] + 1);
        json_kv_string(&w, "boot_id", b->id);
        json_kv_string(&w, "unit", c->links[0].unit);
        json_key(&w, "chain");
        json_begin_array(&w);
        for (size_t i = 0; i < c->n; i++) {
                const ChainLink *l = &c->links[i];
                json_begin_object(&w);
                json_kv_string(&w, "unit", l->unit);
                json_key(&w, "activating_usec");
                if (l->times.activating)
                        json_uint(&w, l->times.activating);
                else
                        json_null(&w);
                json_key(&w, "active_usec");
                if (l->times.active)
                        json_uint(&w, l->times.active);
                else
                        json_null(&w);
                json_key(&w, "duration_usec");
                if (l->times.activating && l->times.active >= l->times.activating)
                        json_uint(&w, l->times.active - l->times.activating);
                else
                        json_null(&w);
                json_kv_bool(&w, "inferred", l->inferred);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

/* The boot asked for, read from the journals named. Returns 0, or a negative errno after printing an error. */
static int chain_load(const ChainArgs *a, const char *what, StatsOptions *o, Rules **rules,
                      JournalDecoder **decoder, StatsSample *s) {
        _cleanup_(diag_list_done) DiagList rules_diags = {};
        int r;

        if (!(o->boot = strdup(a->boot ?: "0")) || !(o->units = calloc(1, sizeof(char *))))
                return log_oom();
        /* the manager's records suffice: they carry every unit's start and activation */
        r = cli_load_rules(rules, &rules_diags);
        if (r < 0)
                return r;
        r = journal_decoder_new(*rules, decoder);
        if (r < 0)
                return log_error_errno(r, "chain: cannot use the message rules in %s", rules_default_dir());
        o->decoder = *decoder;
        r = stats_sample_load(s, "chain", &a->spec, o, NULL, NULL);
        diag_list_print(&s->diags, stderr, DIAG_NOTICE);
        if (r == -ENXIO)
                log_error("chain: %s: no boot '%s' in the journal (see journalctl --list-boots)", strna(what),
                          o->boot);
        else if (r < 0)
                log_error_errno(r, "chain: %s: cannot read the journal", strna(what));
        else if (s->analysis->n_boots != 1) {
                log_error("chain: %s: no boot '%s' in the journal", strna(what), o->boot);
                r = -ENXIO;
        }
        return r < 0 ? r : 0;
}

/* Where the chain comes from, for ChainSource's callers: the journal, with --root its unit files' ordering. */
typedef struct ChainSources {
        ChainJournalSource js;
        ChainModelSource ms;
        ChainSource src;
        Root *root;
        Model *model;
} ChainSources;

static void chain_sources_done(ChainSources *c) {
        model_release(c->model); /* the process exits after this verb */
        c->model = NULL;
        c->root = root_free(c->root); /* the model's units point into it: freed after the model */
}

static int chain_sources(Context *ctx, const Rules *rules, const StatsSample *s, ChainSources *c) {
        int r;

        chain_source_journal(&c->js, &c->src);
        c->js = (ChainJournalSource) { .analysis = s->analysis, .boot = 0 };
        if (!ctx->root)
                return 0;
        r = chain_model(ctx, rules, &c->src, &c->root, &c->model);
        if (r < 0)
                return r;
        c->ms = (ChainModelSource) { .journal = c->src, .model = c->model };
        c->src = (ChainSource) { .userdata = &c->ms, .times = model_times, .after = model_after,
                                 .units = model_units };
        return 0;
}

/* The chain of unit (default: graphical.target when the boot has times for it, else multi-user.target). Returns
 * 0, or a negative errno after printing an error. */
static int chain_of(const ChainSource *src, char **unit, const char *what, const StatsSample *s, Chain *c) {
        int r;

        if (!*unit) {
                ChainTimes t;
                *unit = strdup(src->times(src->userdata, "graphical.target", &t) > 0 ? "graphical.target" :
                                                                                     "multi-user.target");
                if (!*unit)
                        return log_oom();
        }
        r = chain_build(src, *unit, c);
        if (r == -ENOENT) {
                log_error("chain: %s: the journal has no start or activation record of %s in boot %s", strna(what),
                          *unit, s->analysis->boots[0].id);
                return r;
        }
        if (r < 0)
                return log_error_errno(r, "chain");
        return 0;
}

int verb_chain(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(chain_args_done) ChainArgs a = {};
        _cleanup_(stats_options_done) StatsOptions o = { .alpha = 0.05 };
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(journal_decoder_freep) JournalDecoder *decoder = NULL;
        _cleanup_(stats_sample_done) StatsSample s = {};
        _cleanup_(chain_sources_done) ChainSources sources = {};
        _cleanup_(chain_done) Chain c = {};
        _cleanup_(freep) char *unit = NULL, *what = NULL;
        int optind_, r;

        r = cli_parse(argc, argv, ctx, options, "D:" LIVE_SHORT_OPTIONS, handle, &a, help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (cli_check_format(ctx, "chain", formats) < 0)
                return EXIT_ERROR;
        if (argc - optind_ > 1) {
                log_error("chain: one unit at a time ('%s' is extra)", argv[optind_ + 1]);
                return EXIT_ERROR;
        }
        if (optind_ < argc && !(unit = stats_unit_name_normalize(argv[optind_])))
                return log_oom(), EXIT_ERROR;
        /* no journal named: the running system, as systemd-analyze critical-chain sees it */
        if (live_args_wanted(&a.live) || (!a.spec.directory && !a.spec.files && !ctx->root && !a.boot)) {
                if (a.spec.directory || a.spec.files || ctx->root || a.boot) {
                        log_error("chain: --live, --host and --machine ask the running system; -D, --file, "
                                  "--root and --boot read a journal: not both");
                        return EXIT_ERROR;
                }
                return verb_chain_live(&a.live, unit, ctx);
        }
        if (ctx->root && !a.spec.directory && !a.spec.files && !(a.spec.root = strdup(ctx->root)))
                return log_oom(), EXIT_ERROR;
        if ((a.spec.directory != NULL) + (a.spec.files != NULL) + (a.spec.root != NULL) > 1) {
                log_error("chain: name the journals one way: -D DIR, --file=FILE... or --root=DIR");
                return EXIT_ERROR;
        }
        what = journal_source_spec_describe(&a.spec);
        if (chain_load(&a, what, &o, &rules, &decoder, &s) < 0 || chain_sources(ctx, rules, &s, &sources) < 0 ||
            chain_of(&sources.src, &unit, what, &s, &c) < 0)
                return EXIT_ERROR;
        if (ctx->format == FORMAT_JSON)
                print_json(&s, &c, stdout);
        else
                print_text(&s, &c, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
                log_error("chain: cannot write the output");
                return EXIT_ERROR;
        }
        if (s.source->n_errors) {
                log_warning("chain: %s: %" PRIu64 " read errors; the journal is truncated or corrupt", strna(what),
                            s.source->n_errors);
                return EXIT_ERROR;
        }
        return EXIT_CLEAN;
}
