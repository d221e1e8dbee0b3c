/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace stats: per-unit outcomes over repeated boots from journals, failure rates with intervals, before/after
 * comparison and an SRU verification block. */

#include <math.h>
#include <time.h>

#include "report/stats-report.h"
#include "verbs.h"

enum {
        ARG_DIRECTORY = ARG_VERB_BASE,
        ARG_FILE,
        ARG_UNIT,
        ARG_BOOTS,
        ARG_SINCE,
        ARG_BASELINE_DIRECTORY,
        ARG_BASELINE_FILE,
        ARG_BASELINE_ROOT,
        ARG_BELOW,
        ARG_BOOTS_STARTED,
        ARG_BASELINE_BOOTS_STARTED,
        ARG_NOT_RUN,
        ARG_CYCLE_IS_FAILURE,
        ARG_OUTPUT_SIGNATURE,
        ARG_ANCHOR,
        ARG_TITLE,
        ARG_LABEL,
        ARG_RACE_BOOTS,
        ARG_PROGRESS,
        ARG_BASELINE_LABEL,
        ARG_OUTCOMES,
        ARG_BY,
};

static const struct option options[] = {
        { "directory", required_argument, NULL, 'D' },
        { "file", required_argument, NULL, ARG_FILE },
        { "unit", required_argument, NULL, 'u' },
        { "boots", required_argument, NULL, ARG_BOOTS },
        { "since", required_argument, NULL, ARG_SINCE },
        { "baseline-D", required_argument, NULL, ARG_BASELINE_DIRECTORY },
        { "baseline-directory", required_argument, NULL, ARG_BASELINE_DIRECTORY },
        { "baseline-file", required_argument, NULL, ARG_BASELINE_FILE },
        { "baseline-root", required_argument, NULL, ARG_BASELINE_ROOT },
        { "below", required_argument, NULL, ARG_BELOW },
        { "boots-started", required_argument, NULL, ARG_BOOTS_STARTED },
        { "baseline-boots-started", required_argument, NULL, ARG_BASELINE_BOOTS_STARTED },
        { "not-run", required_argument, NULL, ARG_NOT_RUN },
        { "cycle-is-failure", no_argument, NULL, ARG_CYCLE_IS_FAILURE },
        { "output-signature", required_argument, NULL, ARG_OUTPUT_SIGNATURE },
        { "anchor", required_argument, NULL, ARG_ANCHOR },
        { "title", required_argument, NULL, ARG_TITLE },
        { "label", required_argument, NULL, ARG_LABEL },
        { "baseline-label", required_argument, NULL, ARG_BASELINE_LABEL },
        { "outcomes", no_argument, NULL, ARG_OUTCOMES },
        { "race-boots", no_argument, NULL, ARG_RACE_BOOTS },
        { "progress", no_argument, NULL, ARG_PROGRESS },
        { "by", required_argument, NULL, ARG_BY },
        {},
};

static const char help[] =
        "Usage: bootrace stats [-D DIR | --file=FILE... | --root=DIR] [--unit=UNIT...] [OPTIONS]\n\n"
        "Per-unit outcomes over repeated boots from journals (grouped by _BOOT_ID), failure rates with\n"
        "Clopper-Pearson and Wilson 95% intervals, and a before/after verdict. Without a source option the\n"
        "local system journal is read.\n\n"
        "  -D, --directory=DIR        read the journal files in DIR\n"
        "      --file=FILE            read FILE (repeatable)\n"
        "      --root=DIR             read DIR/var/log/journal and DIR/run/log/journal\n"
        "  -u, --unit=UNIT            report UNIT (repeatable); default: every unit with evidence\n"
        "      --boots=N              only the last N boots\n"
        "      --since=TIME           only boots that began at or after TIME (YYYY-MM-DD [HH:MM[:SS]], @EPOCH)\n"
        "      --baseline-D=DIR       the journals before the change (also --baseline-file, --baseline-root)\n"
        "      --below=P              show the rate below P (e.g. 5%%): verdict and clean boots needed\n"
        "      --boots-started=N      the harness started N boots (missing ones are reported and count as\n"
        "                             failed in the worst case); --baseline-boots-started=N for the baseline\n"
        "      --not-run=failure|ignore  count units that did not run as failed (default) or not\n"
        "      --cycle-is-failure     a unit named in an ordering cycle failed in that boot\n"
        "      --output-signature=TEXT  infer a failure from the unit's own output containing TEXT when no\n"
        "                             record gives its outcome (repeatable; default \"Read-only file system\";\n"
        "                             an empty TEXT turns inference off)\n"
        "      --anchor=UNIT          also time failing units against UNIT (race evidence)\n"
        "      --race-boots           race evidence one line per failing boot, besides the summary per unit\n"
        "      --title=TEXT, --label=TEXT, --baseline-label=TEXT  markdown heading and package versions\n"
        "      --by=machine           also per machine (_MACHINE_ID, shown by _HOSTNAME), each compared with the\n"
        "                             rest: journals of many hosts, e.g. systemd-journal-remote's directory\n"
        "      --outcomes             print the per-boot outcome table (tab-separated) instead of the report\n"
        "      --progress             progress of long scans on stderr (boot N of M) also when it is no terminal\n"
        "      --format=FORMAT        text (default), json, markdown or junit\n\n"
        "Exit status: 0 verdict passed, 1 verdict failed, 2 usage or input error, or a journal that could not\n"
        "be read completely (the results printed are partial).\n";

typedef struct StatsArgs {
        JournalSourceSpec spec, baseline;
        StatsOptions o;
        unsigned boots_started, baseline_boots_started;
        bool outcomes;
        bool signatures_set;
        bool progress; /* --progress: also when standard error is not a terminal */
} StatsArgs;

static void stats_args_done(StatsArgs *a) {
        journal_source_spec_done(&a->spec);
        journal_source_spec_done(&a->baseline);
        stats_options_done(&a->o);
}

static int parse_unsigned(const char *opt, const char *arg, unsigned *ret) {
        if (safe_atou(arg, ret) < 0) {
                log_error("stats: %s=%s: expected a number", opt, arg);
                return -EINVAL;
        }
        return 0;
}

static int parse_rate(const char *arg, double *ret) {
        char *end;
        double v;

        errno = 0;
        v = strtod(arg, &end);
        if (errno == 0 && end != arg && streq(end, "%"))
                v /= 100;
        else if (errno != 0 || end == arg || *end)
                v = NAN;
        if (!(v > 0 && v < 1)) {
                log_error("stats: --below=%s: expected a rate such as 5%% or 0.05 (strictly between 0 and 1)", arg);
                return -EINVAL;
        }
        *ret = v;
        return 0;
}

static int parse_since(const char *arg, uint64_t *ret) {
        static const char * const formats[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d" };
        struct tm tm;

        if (arg[0] == '@') {
                unsigned long long s;
                char *end;
                errno = 0;
                s = strtoull(arg + 1, &end, 10);
                if (errno == 0 && end != arg + 1 && !*end && s < UINT64_MAX / 1000000) {
                        *ret = s * 1000000;
                        return 0;
                }
        }
        for (size_t i = 0; i < ELEMENTSOF(formats); i++) {
                const char *end;
                memset(&tm, 0, sizeof tm);
                end = strptime(arg, formats[i], &tm);
                if (end && !*end) {
                        time_t t;
                        tm.tm_isdst = -1;
                        t = mktime(&tm);
                        if (t >= 0) {
                                *ret = (uint64_t) t * 1000000;
                                return 0;
                        }
                }
        }
        log_error("stats: --since=%s: expected YYYY-MM-DD [HH:MM[:SS]] (local time) or @EPOCH", arg);
        return -EINVAL;
}

static int set_dir(char **p, const char *opt, const char *arg) {
        if (*p) {
                log_error("stats: %s given twice; name one directory (or use --file= for several files)", opt);
                return -EINVAL;
        }
        return (*p = strdup(arg)) ? 0 : -ENOMEM;
}

static int handle(int c, const char *arg, void *userdata) {
        StatsArgs *a = userdata;

        switch (c) {
        case 'D':
                return set_dir(&a->spec.directory, "-D", arg);
        case ARG_FILE:
                return strv_extend(&a->spec.files, arg);
        case 'u':
                if (isempty(arg)) {
                        log_error("stats: --unit= needs a unit name");
                        return -EINVAL;
                }
                {
                        _cleanup_(freep) char *n = stats_unit_name_normalize(arg);
                        if (!n)
                                return -ENOMEM;
                        return strv_extend_unique(&a->o.units, n);
                }
        case ARG_BOOTS:
                if (parse_unsigned("--boots", arg, &a->o.boots_last) < 0 || a->o.boots_last == 0) {
                        log_error("stats: --boots=%s: expected a positive number", arg);
                        return -EINVAL;
                }
                return 0;
        case ARG_SINCE:
                return parse_since(arg, &a->o.since_usec);
        case ARG_BASELINE_DIRECTORY:
                return set_dir(&a->baseline.directory, "--baseline-D", arg);
        case ARG_BASELINE_FILE:
                return strv_extend(&a->baseline.files, arg);
        case ARG_BASELINE_ROOT:
                return set_dir(&a->baseline.root, "--baseline-root", arg);
        case ARG_BELOW:
                return parse_rate(arg, &a->o.below);
        case ARG_BOOTS_STARTED:
                return parse_unsigned("--boots-started", arg, &a->boots_started);
        case ARG_BASELINE_BOOTS_STARTED:
                return parse_unsigned("--baseline-boots-started", arg, &a->baseline_boots_started);
        case ARG_NOT_RUN:
                if (streq(arg, "failure"))
                        a->o.not_run_is_failure = true;
                else if (streq(arg, "ignore"))
                        a->o.not_run_is_failure = false;
                else {
                        log_error("stats: --not-run=%s: expected failure or ignore", arg);
                        return -EINVAL;
                }
                return 0;
        case ARG_CYCLE_IS_FAILURE:
                a->o.cycle_is_failure = true;
                return 0;
        case ARG_OUTPUT_SIGNATURE:
                if (!a->signatures_set)
                        a->o.output_signatures = strv_free(a->o.output_signatures);
                a->signatures_set = true;
                return isempty(arg) ? 0 : strv_extend_unique(&a->o.output_signatures, arg);
        case ARG_ANCHOR:
                return strv_extend_unique(&a->o.anchors, arg);
        case ARG_TITLE:
                free(a->o.title);
                return (a->o.title = strdup(arg)) ? 0 : -ENOMEM;
        case ARG_LABEL:
                free(a->o.label);
                return (a->o.label = strdup(arg)) ? 0 : -ENOMEM;
        case ARG_BASELINE_LABEL:
                free(a->o.baseline_label);
                return (a->o.baseline_label = strdup(arg)) ? 0 : -ENOMEM;
        case ARG_OUTCOMES:
                a->outcomes = true;
                return 0;
        case ARG_RACE_BOOTS:
                a->o.race_boots = true;
                return 0;
        case ARG_PROGRESS:
                a->progress = true;
                return 0;
        case ARG_BY:
                if (streq(arg, "machine"))
                        a->o.by_machine = true;
                else if (streq(arg, "boot"))
                        a->o.by_machine = false;
                else {
                        log_error("stats: --by=%s: expected machine (or boot, the default)", arg);
                        return -EINVAL;
                }
                return 0;
        }
        return -EINVAL;
}

static uint64_t progress_start, progress_last;
static bool progress_shown, progress_lines;

/* Long scans show progress with the totals: from half a second on, at most ten times a second on a terminal
 * (one line rewritten), once a second and a line each with --progress elsewhere, and always the last line then. */
static void progress(const JournalProgress *p, void *userdata) {
        const char *label = userdata;
        uint64_t t = now_usec();

        if (!(progress_lines && p->done) &&
            (t - progress_start < 500000 || t - progress_last < (progress_lines ? 1000000 : 100000)))
                return;
        progress_last = t;
        progress_shown = true;
        if (p->done)
                fprintf(stderr, "%sbootrace: read %s: %" PRIu64 " records of %zu boot%s%s", progress_lines ? "" : "\r",
                        label, p->entries, p->boots, p->boots == 1 ? "" : "s", progress_lines ? "\n" : "");
        else
                fprintf(stderr, "%sbootrace: reading %s: boot %zu of %zu, %" PRIu64 " records%s",
                        progress_lines ? "" : "\r", label, p->boot, p->boots, p->entries, progress_lines ? "\n" : "");
        fflush(stderr);
}

static int load(StatsSample *s, const char *label, const JournalSourceSpec *spec, const StatsOptions *o,
                unsigned boots_started, bool show_progress) {
        _cleanup_(freep) char *what = journal_source_spec_describe(spec);
        int r;

        progress_start = now_usec();
        progress_shown = false;
        r = stats_sample_load(s, label, spec, o, show_progress ? progress : NULL, (void *) label);
        if (progress_shown && !progress_lines)
                fputs("\r\033[K", stderr);
        diag_list_print(&s->diags, stderr, DIAG_NOTICE);
        if (r == JOURNAL_SOURCE_EMPTY)
                log_error("stats: %s: no readable journal entries there (journal files are *.journal; convert an "
                          "export with systemd-journal-remote)", strna(what));
        else if (r == -ENOENT || r == -ENOTDIR || r == -EISDIR)
                log_error_errno(r, "stats: %s", strna(what));
        else if (r < 0)
                log_error_errno(r, "stats: %s: cannot read the journal", strna(what));
        if (r < 0)
                return r;
        size_t said = s->diags.n;
        r = stats_sample_count(s, boots_started, o);
        if (r < 0)
                log_error_errno(r, "stats: %s", strna(what));
        /* what counting found to say (a unit asked for that the journal does not know: the name meant) */
        diag_list_print(&(DiagList) { .items = s->diags.items + said, .n = s->diags.n - said }, stderr, DIAG_NOTICE);
        return r;
}

/* The journals named one way each, and the anchors (the default ones after those given). Returns 0, or a negative
 * errno after printing an error. */
static int stats_check_args(const Context *ctx, StatsArgs *a) {
        bool given = a->o.anchors;

        if (ctx->root && !a->spec.directory && !a->spec.files && !(a->spec.root = strdup(ctx->root)))
                return log_oom();
        if ((a->spec.directory != NULL) + (a->spec.files != NULL) + (a->spec.root != NULL) > 1 ||
            (a->baseline.directory != NULL) + (a->baseline.files != NULL) + (a->baseline.root != NULL) > 1) {
                log_error("stats: name the journals one way: -D DIR, --file=FILE... or --root=DIR");
                return -EINVAL;
        }
        for (const char * const *x = stats_default_anchors; *x; x++)
                if ((given ? strv_extend_unique(&a->o.anchors, *x) : strv_extend(&a->o.anchors, *x)) < 0)
                        return log_oom();
        return 0;
}

/* The message rules' decoder into a->o. Returns 0, or a negative errno after printing an error. */
static int stats_decoder(StatsArgs *a, Rules **rules, JournalDecoder **ret) {
        _cleanup_(diag_list_done) DiagList diags = {};
        int r;

        r = cli_load_rules(rules, &diags);
        if (r < 0)
                return r;
        r = journal_decoder_new(*rules, ret);
        if (r == -EBADMSG)
                log_error("stats: cannot use the message rules in %s: an event name this bootrace does not know",
                          rules_default_dir());
        else if (r < 0)
                log_error_errno(r, "stats: cannot use the message rules in %s", rules_default_dir());
        if (r < 0)
                return r;
        a->o.decoder = *ret;
        return 0;
}

/* The report in ctx's format (or --outcomes). Returns 0, or a negative errno after printing an error. */
static int stats_write(const Context *ctx, const StatsArgs *a, StatsReport *rep) {
        int r;

        /* the SRU block names only what was given; say what a reviewer will ask for */
        if (!a->outcomes && ctx->format == FORMAT_MARKDOWN) {
                if (!a->o.label)
                        log_warning("stats: --label not given: the report names no package and version%s",
                                    rep->has_baseline ? " after the change" : "");
                if (rep->has_baseline && !a->o.baseline_label)
                        log_warning("stats: --baseline-label not given: the report names no package and version "
                                    "before the change");
        }
        if (a->outcomes)
                r = stats_report_outcomes(rep, stdout);
        else
                switch (ctx->format) {
                case FORMAT_JSON:
                        r = stats_report_json(rep, stdout);
                        break;
                case FORMAT_MARKDOWN:
                        r = stats_report_markdown(rep, stdout);
                        break;
                case FORMAT_JUNIT:
                        r = stats_report_junit(rep, stdout);
                        break;
                default:
                        r = stats_report_text(rep, stdout);
                }
        if (r < 0)
                return log_error_errno(r, "stats: cannot write the report");
        return 0;
}

/* Read errors make the results partial: said, and the exit status is 2. */
static bool say_read_errors(const StatsReport *rep) {
        bool any = false;

        for (int i = 0; i < 2; i++) {
                const StatsSample *s = i == 0 ? &rep->baseline : &rep->sample;
                if (!s->source || s->source->n_errors == 0)
                        continue;
                log_warning("stats: %s: %" PRIu64 " read error%s (first: %s); the journal is truncated or "
                            "corrupt and the results are partial", s->source->description, s->source->n_errors,
                            s->source->n_errors == 1 ? "" : "s", strerror(-s->source->first_error));
                any = true;
        }
        return any;
}

int verb_stats(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN, FORMAT_JUNIT,
                                                _FORMAT_INVALID };
        _cleanup_(stats_report_done) StatsReport rep = {};
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(journal_decoder_freep) JournalDecoder *decoder = NULL;
        _cleanup_(stats_args_done) StatsArgs a = { .o = { .not_run_is_failure = true, .alpha = 0.05 } };
        bool show_progress;
        int optind_, r;

        a.o.output_signatures = strv_copy((char *[]) { (char *) "Read-only file system", NULL });
        if (!a.o.output_signatures)
                return log_oom(), EXIT_ERROR;
        r = cli_parse(argc, argv, ctx, options, "D:u:", handle, &a, help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (optind_ < argc) {
                log_error("stats: unexpected argument '%s' (units are given with --unit=)", argv[optind_]);
                return EXIT_ERROR;
        }
        if (cli_check_format(ctx, "stats", formats) < 0 || stats_check_args(ctx, &a) < 0 ||
            stats_decoder(&a, &rules, &decoder) < 0)
                return EXIT_ERROR;

        rep.options = &a.o;
        rep.has_baseline = journal_source_spec_is_set(&a.baseline);
        progress_lines = a.progress && !isatty(STDERR_FILENO);
        show_progress = !ctx->quiet && (a.progress || isatty(STDERR_FILENO));
        if (rep.has_baseline &&
            load(&rep.baseline, "before", &a.baseline, &a.o, a.baseline_boots_started, show_progress) < 0)
                return EXIT_ERROR;
        if (load(&rep.sample, rep.has_baseline ? "after" : "sample", &a.spec, &a.o, a.boots_started,
                 show_progress) < 0)
                return EXIT_ERROR;
        r = stats_report_judge(&rep);
        if (r < 0)
                return log_error_errno(r, "stats"), EXIT_ERROR;
        if (stats_write(ctx, &a, &rep) < 0)
                return EXIT_ERROR;
        if (say_read_errors(&rep))
                return EXIT_ERROR;
        return rep.verdict == VERDICT_PASS ? EXIT_CLEAN : EXIT_FINDINGS;
}
