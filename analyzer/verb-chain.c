/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace chain: the critical chain of a unit in a past boot, reconstructed from the journal. The chain itself
 * comes from a ChainSource (chain.h); this verb plugs in the journal one. A live source over sd-bus can be
 * added next to it without touching the algorithm or the output. */

#include "config.h"
#include "basic/json.h"
#include "journal/chain.h"
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
        "      --root=DIR         read DIR/var/log/journal and DIR/run/log/journal\n"
        "      --boot=ID|OFFSET   the boot: a boot ID, or 0 for the last, -1 the one before, 1 the first\n"
        "                         (default 0)\n"
        "      --format=FORMAT    text (default) or json\n";

typedef struct ChainArgs {
        JournalSourceSpec spec;
        char *boot;
        LiveArgs live;
} ChainArgs;

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
                      "the next one started): the journal does not record ordering dependencies.\n", f);
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
        json_begin_object(&w);
        json_kv_string(&w, "tool", "bootrace");
        json_kv_string(&w, "version", PACKAGE_VERSION);
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

int verb_chain(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(journal_decoder_freep) JournalDecoder *decoder = NULL;
        _cleanup_(diag_list_done) DiagList rules_diags = {};
        _cleanup_(stats_sample_done) StatsSample s = {};
        _cleanup_(chain_done) Chain c = {};
        _cleanup_(freep) char *unit = NULL, *what = NULL;
        ChainArgs a = {};
        StatsOptions o = { .alpha = 0.05 };
        ChainJournalSource js;
        ChainSource src;
        int optind_, r, ret = EXIT_ERROR;

        r = cli_parse(argc, argv, ctx, options, "D:" LIVE_SHORT_OPTIONS, handle, &a, help, &optind_);
        if (r != 0) {
                ret = r > 0 ? EXIT_CLEAN : EXIT_ERROR;
                goto finish;
        }
        if (cli_check_format(ctx, "chain", formats) < 0)
                goto finish;
        if (argc - optind_ > 1) {
                log_error("chain: one unit at a time ('%s' is extra)", argv[optind_ + 1]);
                goto finish;
        }
        if (optind_ < argc && !(unit = stats_unit_name_normalize(argv[optind_])))
                goto oom;
        /* no journal named: the running system, as systemd-analyze critical-chain sees it */
        if (live_args_wanted(&a.live) || (!a.spec.directory && !a.spec.files && !ctx->root && !a.boot)) {
                if (a.spec.directory || a.spec.files || ctx->root || a.boot)
                        log_error("chain: --live, --host and --machine ask the running system; -D, --file, "
                                  "--root and --boot read a journal: not both");
                else
                        ret = verb_chain_live(&a.live, unit, ctx);
                goto finish;
        }
        if (ctx->root && !a.spec.directory && !a.spec.files && !(a.spec.root = strdup(ctx->root)))
                goto oom;
        if ((a.spec.directory != NULL) + (a.spec.files != NULL) + (a.spec.root != NULL) > 1) {
                log_error("chain: name the journals one way: -D DIR, --file=FILE... or --root=DIR");
                goto finish;
        }
        if (!(o.boot = strdup(a.boot ?: "0")) || !(o.units = calloc(1, sizeof(char *))))
                goto oom;
        what = journal_source_spec_describe(&a.spec);

        /* the manager's records suffice: they carry every unit's start and activation */
        if (cli_load_rules(&rules, &rules_diags) < 0)
                goto finish;
        r = journal_decoder_new(rules, &decoder);
        if (r < 0) {
                log_error("chain: cannot use the message rules in %s: %s", rules_default_dir(), strerror(-r));
                goto finish;
        }
        o.decoder = decoder;
        r = stats_sample_load(&s, "chain", &a.spec, &o, NULL, NULL);
        diag_list_print(&s.diags, stderr, DIAG_NOTICE);
        if (r == -ENXIO) {
                log_error("chain: %s: no boot '%s' in the journal (see journalctl --list-boots)", strna(what),
                          o.boot);
                goto finish;
        }
        if (r < 0) {
                log_error("chain: %s: cannot read the journal: %s", strna(what), strerror(-r));
                goto finish;
        }
        if (s.analysis->n_boots != 1) {
                log_error("chain: %s: no boot '%s' in the journal", strna(what), o.boot);
                goto finish;
        }
        chain_source_journal(&js, &src);
        js = (ChainJournalSource) { .analysis = s.analysis, .boot = 0 };
        if (!unit) {
                ChainTimes t;
                unit = strdup(src.times(src.userdata, "graphical.target", &t) > 0 ? "graphical.target" :
                                                                                    "multi-user.target");
                if (!unit)
                        goto oom;
        }
        r = chain_build(&src, unit, &c);
        if (r == -ENOENT) {
                log_error("chain: %s: the journal has no start or activation record of %s in boot %s", strna(what),
                          unit, s.analysis->boots[0].id);
                goto finish;
        }
        if (r < 0) {
                log_error("chain: %s", strerror(-r));
                goto finish;
        }
        if (ctx->format == FORMAT_JSON)
                print_json(&s, &c, stdout);
        else
                print_text(&s, &c, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
                log_error("chain: cannot write the output");
                goto finish;
        }
        ret = EXIT_CLEAN;
        if (s.source->n_errors) {
                log_warning("chain: %s: %" PRIu64 " read errors; the journal is truncated or corrupt", strna(what),
                            s.source->n_errors);
                ret = EXIT_ERROR;
        }
        goto finish;
oom:
        log_error("out of memory");
finish:
        journal_source_spec_done(&a.spec);
        free(a.boot);
        stats_options_done(&o);
        live_args_done(&a.live);
        return ret;
}
