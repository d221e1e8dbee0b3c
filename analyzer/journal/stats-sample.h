/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A sample is the boots of one set of journals ("after", or the baseline "before"): loaded with sd-journal into
 * a BootAnalysis, then counted per unit with rates and intervals. A StatsReport holds one or two samples, the
 * before/after comparisons and the verdict; the stats-report-*.c writers print it. */

#include "journal/boot-outcome.h"
#include "journal/journal-source.h"

typedef struct StatsOptions {
        const JournalDecoder *decoder; /* the message rules (borrowed; required) */
        char **units;                /* --unit; NULL: every unit with evidence */
        bool not_run_is_failure;     /* "not run" counts as a failure (default) */
        bool cycle_is_failure;       /* a unit named in an ordering cycle counts as failed in that boot */
        double below;                /* --below: the rate to show the after-sample below; 0 = not asked */
        double alpha;                /* 1 - confidence; 0.05 */
        unsigned boots_last;         /* --boots=N: only the last N boots; 0 = all */
        uint64_t since_usec;         /* --since: boots whose first entry is at or after this; 0 = all */
        char *boot;                  /* only this boot: a boot ID, or an offset as journalctl -b takes it
                                      * (0 the last, -1 the one before, 1 the first) */
        char **output_signatures;    /* inference from the unit's own output (BootAnalysisOptions) */
        char **anchors;              /* units the race evidence times against */
        char *title;                 /* --title: the markdown heading, e.g. "LP: #1750780 (xenial)" */
        char *label, *baseline_label; /* --label, --baseline-label: package and version tested */
        bool by_machine;             /* --by=machine: rates per machine (_MACHINE_ID) besides the overall ones */
} StatsOptions;

void stats_options_done(StatsOptions *o);

typedef struct ResultCount {
        char *result;
        unsigned count;
} ResultCount;

typedef struct UnitStats {
        char *unit;
        ssize_t index;    /* into analysis->units; -1 when the journals never name it */
        unsigned boots;   /* boots with a known outcome: the denominator */
        unsigned succeeded, failed, skipped, not_run, unknown;
        unsigned failures; /* failed, plus not run when that counts, plus cycles when asked */
        unsigned cycles;   /* boots in which it was named in an ordering cycle */
        ResultCount *results;
        size_t n_results;
        double rate; /* NAN when boots == 0 */
        double ci_low, ci_high;         /* Clopper–Pearson, two-sided 1 - alpha */
        double wilson_low, wilson_high;
        double upper_one_sided;         /* exact one-sided 1 - alpha upper bound */
        /* --boots-started: unknown and missing boots counted as failed */
        bool has_worst;
        unsigned worst_boots, worst_failures;
        double worst_rate, worst_ci_low, worst_ci_high;
        /* --below */
        long long boots_needed;       /* more clean boots needed to show the rate below; -1 when not asked,
                                       * -ERANGE when out of reach */
        long long boots_needed_total; /* boots in all, with the failures seen so far and none more */
        bool shown_below;
        /* --by=machine. The overall counts of a unit: how many machines have evidence of it, how many saw it
         * fail, how many differ from the rest of the fleet. A machine's counts: Fisher's exact test of this
         * machine against all the others (two-sided, and Holm-adjusted over every machine and unit compared) */
        unsigned machines, machines_failing, machines_deviating;
        double p_vs_rest, p_vs_rest_holm; /* NAN when not compared (no failure anywhere, or no other machine) */
        int deviates;                     /* +1 fails more often than the rest, -1 less often, 0 neither */
} UnitStats;

/* The boots of one machine of a sample (--by=machine), counted like the whole sample. */
typedef struct MachineStats {
        char *machine_id;  /* 32 hex digits; "" for boots whose journal names no machine */
        char *hostname;    /* _HOSTNAME of its last boot, or NULL */
        char **hostnames;  /* every _HOSTNAME its boots had, in boot order */
        unsigned boots_in_journal, boots_incomplete;
        UnitStats *units;  /* same units and order as StatsSample.units */
} MachineStats;

typedef struct SignatureCount {
        char *signature;
        unsigned unit_boots; /* failing unit-boots that show it */
        char **units;
} SignatureCount;

typedef struct StatsSample {
        char *label;  /* "before", "after", or "sample" */
        JournalSource *source;
        DiagList diags; /* problems with single journal files (filled even when loading fails) */
        BootAnalysis *analysis;
        bool *selected; /* per source boot: in the sample (--boots, --since) */
        size_t *boot_map; /* analysis boot -> source boot */
        unsigned boots_in_journal;
        unsigned boots_started; /* 0 = not given */
        unsigned boots_missing;
        unsigned boots_incomplete;
        char **systemd_versions;
        char **kernels;
        UnitStats *units;
        size_t n_units;
        SignatureCount *signatures;
        size_t n_signatures;
        unsigned n_cycles;
        /* --by=machine: the machines, sorted by host name, and which one each analysis boot belongs to */
        MachineStats *machines;
        size_t n_machines;
        size_t *boot_machine;
} StatsSample;

void stats_sample_done(StatsSample *s);

/* "foo" -> "foo.service", like systemctl; names with a type suffix are kept. NULL on OOM. */
char *stats_unit_name_normalize(const char *name);

/* Opens the journals of spec, selects boots, scans and classifies. Returns 0 or -errno (journal_source_open's
 * values; -ENXIO when o->boot names no boot of the journal; read errors inside the files are counted in
 * s->source->n_errors, not returned). */
int stats_sample_load(StatsSample *s, const char *label, const JournalSourceSpec *spec, const StatsOptions *o,
                      JournalProgressCallback progress, void *userdata);

/* Counts the units (o->units, or every unit with evidence) and computes rates and intervals; with o->by_machine
 * also per machine, each machine compared with the rest. */
int stats_sample_count(StatsSample *s, unsigned boots_started, const StatsOptions *o);

/* Is a boot incomplete, and why ("no 'Startup finished'", "no journal flush", "no clean end")? Returns the
 * reasons joined by ", " in *ret (NULL when complete). */
int stats_boot_incomplete(const BootInfo *b, char **ret);

typedef enum ComparisonVerdict {
        COMPARISON_IMPROVED,     /* after < before, two-sided p < alpha */
        COMPARISON_NOT_IMPROVED, /* p >= alpha */
        COMPARISON_WORSE,        /* after > before, p < alpha */
        COMPARISON_NO_DATA,      /* a sample has no boot with a known outcome */
        _COMPARISON_VERDICT_MAX,
        _COMPARISON_VERDICT_INVALID = -EINVAL,
} ComparisonVerdict;

const char *comparison_verdict_to_string(ComparisonVerdict v);

typedef struct Comparison {
        const char *unit;
        const UnitStats *before, *after; /* may be NULL: the unit has no evidence in that sample */
        /* the counts compared: the worst case where the harness gave the boots it started */
        unsigned before_failures, before_boots, after_failures, after_boots;
        bool worst_case;
        double p_value;            /* Fisher two-sided */
        double p_value_one_sided;  /* Fisher, "after is better" */
        double p_value_holm;       /* Holm-adjusted over all comparisons */
        long long boots_needed;    /* more clean after-boots needed to show the after-rate < below (0: shown;
                                    * -ERANGE: out of reach) */
        double below;              /* --below, else STATS_THIN_DEFAULT */
        ComparisonVerdict verdict;
        bool thin; /* the after-rate's upper bound is not below the threshold (--below, else 10%) */
} Comparison;

typedef enum StatsVerdict {
        VERDICT_PASS,
        VERDICT_FAIL,
        _STATS_VERDICT_MAX,
        _STATS_VERDICT_INVALID = -EINVAL,
} StatsVerdict;

typedef struct StatsReport {
        const StatsOptions *options;
        StatsSample sample;   /* the journals under test ("after" when there is a baseline) */
        StatsSample baseline; /* "before"; loaded when has_baseline */
        bool has_baseline;
        Comparison *comparisons;
        size_t n_comparisons;
        StatsVerdict verdict;
        char *verdict_text;  /* one line */
        char *criterion;     /* the per-boot failure criterion in words */
} StatsReport;

void stats_report_done(StatsReport *r);

/* Comparisons, the verdict and its line. Needs both samples counted. Returns 0 or -ENOMEM. */
int stats_report_judge(StatsReport *r);

/* Default threshold that decides "the evidence is too thin" when --below is not given. */
#define STATS_THIN_DEFAULT 0.10

/* Units timed against when explaining a failure (DESIGN.md: what makes paths writable at boot). */
extern const char * const stats_default_anchors[];
