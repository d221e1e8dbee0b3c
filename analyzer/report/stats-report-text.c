/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>

#include "journal/race-evidence.h"
#include "report/stats-report.h"

static void header(const StatsSample *s, FILE *f) {
        fprintf(f, "%s: %s: %u boot%s in the journal", s->label, s->source->description, s->boots_in_journal,
                s->boots_in_journal == 1 ? "" : "s");
        if (s->boots_started)
                fprintf(f, " of %u started (%u missing)", s->boots_started, s->boots_missing);
        fprintf(f, ", %u incomplete", s->boots_incomplete);
        fputs("; systemd ", f);
        if (s->systemd_versions)
                STRV_FOREACH(v, s->systemd_versions)
                        fprintf(f, "%s%s", v == s->systemd_versions ? "" : ", ", *v);
        else
                fputs("version not in the journal", f);
        if (s->kernels) {
                fputs("; kernel ", f);
                STRV_FOREACH(v, s->kernels)
                        fprintf(f, "%s%s", v == s->kernels ? "" : ", ", *v);
        }
        fputc('\n', f);
        if (s->source->n_errors)
                fprintf(f, "%s: warning: %" PRIu64 " read error%s (%s): results are partial\n", s->label,
                        s->source->n_errors, s->source->n_errors == 1 ? "" : "s", strerror(-s->source->first_error));
}

static void results(const UnitStats *u, FILE *f) {
        if (u->n_results == 0) {
                fputc('-', f);
                return;
        }
        for (size_t i = 0; i < u->n_results; i++)
                fprintf(f, "%s%s=%u", i ? "," : "", u->results[i].result, u->results[i].count);
}

static void unit_table(const StatsReport *r, const StatsSample *s, FILE *f) {
        char b1[32], b2[32], b3[32];
        size_t w = 4;

        for (size_t i = 0; i < s->n_units; i++)
                w = MAX(w, strlen(s->units[i].unit));
        fprintf(f, "\nUnits (%s; failures = failed%s%s, of the boots with a known outcome):\n", s->label,
                r->options->not_run_is_failure ? " + not run" : "",
                r->options->cycle_is_failure ? " + named in a cycle" : "");
        fprintf(f, "%-*s %9s %8s %-17s %5s %6s %7s %7s %7s  %s\n", (int) w, "UNIT", "FAILURES", "RATE",
                "95% CI (CP)", "OK", "FAILED", "NOT-RUN", "SKIPPED", "UNKNOWN", "RESULTS");
        for (size_t i = 0; i < s->n_units; i++) {
                const UnitStats *u = &s->units[i];
                char frac[32], ci[48];
                snprintf(frac, sizeof frac, "%u/%u", u->failures, u->boots);
                if (u->boots)
                        snprintf(ci, sizeof ci, "%s-%s", stats_fmt_pct(b2, u->ci_low), stats_fmt_pct(b3, u->ci_high));
                else
                        snprintf(ci, sizeof ci, "-");
                fprintf(f, "%-*s %9s %8s %-17s %5u %6u %7u %7u %7u  ", (int) w, u->unit, frac,
                        stats_fmt_pct(b1, u->rate), ci, u->succeeded, u->failed, u->not_run, u->skipped, u->unknown);
                results(u, f);
                fputc('\n', f);
                if (u->has_worst)
                        fprintf(f, "%-*s %9s worst case (unknown and missing boots failed): %u/%u = %s, 95%% CI %s-%s\n",
                                (int) w, "", "", u->worst_failures, u->worst_boots, stats_fmt_pct(b1, u->worst_rate),
                                stats_fmt_pct(b2, u->worst_ci_low), stats_fmt_pct(b3, u->worst_ci_high));
        }
}

static const char *short_id(char buf[static 16], const char *id) {
        if (isempty(id))
                return "?";
        snprintf(buf, 16, "%.12s", id);
        return buf;
}

/* --by=machine: the machines, then each unit per machine against the rest of the fleet. */
static void machines(const StatsReport *r, const StatsSample *s, FILE *f) {
        char b1[32], b2[32], b3[32], id[16];
        size_t w = 8;

        if (!r->options->by_machine)
                return;
        for (size_t m = 0; m < s->n_machines; m++)
                w = MAX(w, strlen(strna(s->machines[m].hostname)));
        fprintf(f, "\nMachines (%s; grouped by _MACHINE_ID, named by _HOSTNAME): %zu\n", s->label, s->n_machines);
        fprintf(f, "%-32s  %-*s %6s %10s\n", "MACHINE", (int) w, "HOSTNAME", "BOOTS", "INCOMPLETE");
        for (size_t m = 0; m < s->n_machines; m++) {
                const MachineStats *ms = &s->machines[m];
                fprintf(f, "%-32s  %-*s %6u %10u", isempty(ms->machine_id) ? "(none)" : ms->machine_id, (int) w,
                        strna(ms->hostname), ms->boots_in_journal, ms->boots_incomplete);
                if (strv_length(ms->hostnames) > 1) {
                        fputs("  also named", f);
                        STRV_FOREACH(h, ms->hostnames)
                                if (!streq(*h, strna(ms->hostname)))
                                        fprintf(f, " %s", *h);
                }
                fputc('\n', f);
        }
        fprintf(f, "\nPer machine (%s; failures of the boots with a known outcome; VS REST: Fisher's exact test of "
                   "the machine against all others, two-sided, Holm-adjusted over every machine and unit):\n",
                s->label);
        for (size_t i = 0; i < s->n_units; i++) {
                const UnitStats *u = &s->units[i];
                if (!r->options->units && u->failures == 0)
                        continue;
                fprintf(f, "%s: failed on %u of %u machine%s, %u differ%s from the rest; overall %u/%u = %s\n", u->unit,
                        u->machines_failing, u->machines, u->machines == 1 ? "" : "s", u->machines_deviating,
                        u->machines_deviating == 1 ? "s" : "", u->failures, u->boots, stats_fmt_pct(b1, u->rate));
                fprintf(f, "  %-*s %-12s %9s %8s %-17s %7s  %s\n", (int) w, "HOSTNAME", "MACHINE", "FAILURES", "RATE",
                        "95% CI (CP)", "UNKNOWN", "VS REST");
                for (size_t m = 0; m < s->n_machines; m++) {
                        const MachineStats *ms = &s->machines[m];
                        const UnitStats *mu = &ms->units[i];
                        char frac[32], ci[48];
                        snprintf(frac, sizeof frac, "%u/%u", mu->failures, mu->boots);
                        if (mu->boots)
                                snprintf(ci, sizeof ci, "%s-%s", stats_fmt_pct(b2, mu->ci_low),
                                         stats_fmt_pct(b3, mu->ci_high));
                        else
                                snprintf(ci, sizeof ci, "-");
                        fprintf(f, "  %-*s %-12s %9s %8s %-17s %7u  ", (int) w, strna(ms->hostname),
                                short_id(id, ms->machine_id), frac, stats_fmt_pct(b1, mu->rate), ci, mu->unknown);
                        if (isnan(mu->p_vs_rest_holm))
                                fputs("-\n", f);
                        else
                                fprintf(f, "%s (p = %.2g)\n",
                                        mu->deviates > 0 ? "higher" : mu->deviates < 0 ? "lower" : "same",
                                        mu->p_vs_rest_holm);
                }
        }
}

static void signatures(const StatsSample *s, FILE *f) {
        if (s->n_signatures == 0)
                return;
        fprintf(f, "\nFailure signatures (%s):\n", s->label);
        for (size_t i = 0; i < s->n_signatures; i++) {
                fprintf(f, "  %-32s %u unit-boot%s:", s->signatures[i].signature, s->signatures[i].unit_boots,
                        s->signatures[i].unit_boots == 1 ? "" : "s");
                STRV_FOREACH(u, s->signatures[i].units)
                        fprintf(f, " %s", *u);
                fputc('\n', f);
        }
}

static void cycles(const StatsSample *s, FILE *f) {
        const BootAnalysis *a = s->analysis;

        if (s->n_cycles == 0) {
                fprintf(f, "\nOrdering cycles (%s): none recorded in the journal\n", s->label);
                return;
        }
        fprintf(f, "\nOrdering cycles (%s): %u\n", s->label, s->n_cycles);
        for (size_t b = 0; b < a->n_boots; b++)
                for (size_t c = 0; c < a->boots[b].n_cycles; c++) {
                        const Cycle *cy = &a->boots[b].cycles[c];
                        fprintf(f, "  boot %zu %s: cycle starting with %s%s; deleted:", b + 1, a->boots[b].id,
                                strna(cy->start), cy->unfixable ? " (unfixable)" : "");
                        if (!cy->deleted)
                                fputs(" none", f);
                        STRV_FOREACH(d, cy->deleted)
                                fprintf(f, " %s", *d);
                        fputc('\n', f);
                        STRV_FOREACH(l, cy->lines)
                                fprintf(f, "    %s\n", *l);
                }
}

static int incomplete(const StatsSample *s, FILE *f) {
        const BootAnalysis *a = s->analysis;
        bool any = false;

        for (size_t b = 0; b < a->n_boots; b++) {
                _cleanup_(freep) char *why = NULL;
                int r = stats_boot_incomplete(&a->boots[b], &why);
                if (r < 0)
                        return r;
                if (!why)
                        continue;
                if (!any)
                        fprintf(f, "\nIncomplete boots (%s):\n", s->label);
                any = true;
                fprintf(f, "  boot %zu %s: %s\n", b + 1, a->boots[b].id, why);
        }
        if (s->boots_missing)
                fprintf(f, "\nMissing boots (%s): %u started but not in the journal: outcome unknown\n", s->label,
                        s->boots_missing);
        return 0;
}

/* One anchor event ("systemd-remount-fs.service finished") over the failing boots of a unit. */
typedef struct RaceGroup {
        char *unit;
        const char *what;
        int64_t *deltas; /* anchor - the unit's start, per boot where both are recorded */
        size_t n_deltas;
        unsigned before;   /* boots where the unit started before it */
        unsigned missing;  /* boots without a timed record of it */
} RaceGroup;

static int int64_cmp(const void *x, const void *y) {
        int64_t a = *(const int64_t *) x, b = *(const int64_t *) y;
        return (a > b) - (a < b);
}

static const char *fmt_lead(char buf[static 48], int64_t d) {
        snprintf(buf, 48, "%.3f s %s", (double) (d < 0 ? -d : d) / 1e6, d >= 0 ? "before" : "after");
        return buf;
}

static int race_group_add(RaceGroup **groups, size_t *n, const RaceMark *m) {
        RaceGroup *g = NULL;

        for (size_t i = 0; i < *n && !g; i++)
                if (streq((*groups)[i].unit, m->unit))
                        g = &(*groups)[i];
        if (!g) {
                RaceGroup *x = realloc(*groups, (*n + 1) * sizeof(RaceGroup));
                if (!x)
                        return -ENOMEM;
                *groups = x;
                g = &x[(*n)++];
                *g = (RaceGroup) { .unit = strdup(m->unit), .what = m->what };
                if (!g->unit)
                        return -ENOMEM;
        }
        if (!m->has_delta || m->what[0] == 's') { /* "started only": no finish to race against */
                g->missing++;
                return 0;
        }
        if (g->n_deltas == 0 || !streq(g->what, "finished"))
                g->what = m->what; /* the kind of a timed record ("finished", "reached", "mounted") */
        int64_t *d = realloc(g->deltas, (g->n_deltas + 1) * sizeof(int64_t));
        if (!d)
                return -ENOMEM;
        g->deltas = d;
        d[g->n_deltas++] = m->delta_usec;
        g->before += m->delta_usec >= 0;
        return 0;
}

/* Per failing unit: against each anchor, in how many failing boots it started before the anchor was done, the
 * median lead and its range; the boots of one line each only with --race-boots. */
static int race(const StatsReport *rep, const StatsSample *s, FILE *f) {
        const BootAnalysis *a = s->analysis;
        const char * const *anchors = rep->options->anchors ? (const char * const *) rep->options->anchors :
                                                              stats_default_anchors;
        char t1[48], t2[48], t3[48];
        bool any = false;
        int r = 0;

        for (size_t i = 0; i < s->n_units && r >= 0; i++) {
                const UnitStats *u = &s->units[i];
                RaceGroup *groups = NULL;
                size_t n_groups = 0;
                unsigned boots = 0, untimed = 0;

                if (u->index < 0 || u->failures == 0)
                        continue;
                for (size_t b = 0; b < a->n_boots && r >= 0; b++) {
                        const UnitBoot *ub = &a->units[u->index].boots[b];
                        _cleanup_(race_evidence_done) RaceEvidence e = {};
                        _cleanup_(freep) char *what = NULL;
                        if (!outcome_is_failure(ub->outcome, rep->options->not_run_is_failure))
                                continue;
                        if (!any)
                                fprintf(f, "\nRace evidence (%s; the failing boots of each unit, monotonic time: when "
                                           "the unit started against each anchor%s):\n", s->label,
                                        rep->options->race_boots ? "" : "; one line per boot with --race-boots");
                        any = true;
                        if ((r = race_evidence_build(a, (size_t) u->index, b, anchors, &e)) < 0 ||
                            (r = stats_fmt_unit_boot(ub, &what)) < 0)
                                break;
                        boots++;
                        if (rep->options->race_boots)
                                fprintf(f, "  %s boot %zu %.8s: %s at %s (start %s): %s\n", u->unit, b + 1,
                                        a->boots[b].id, what, stats_fmt_usec(t1, e.end_usec),
                                        stats_fmt_usec(t2, e.start_usec), e.summary);
                        if (!e.start_kind) {
                                untimed++;
                                continue;
                        }
                        for (size_t k = 0; k < e.n_marks && r >= 0; k++)
                                r = race_group_add(&groups, &n_groups, &e.marks[k]);
                }
                if (r >= 0 && boots > 0) {
                        fprintf(f, "  %s: %u failing boot%s", u->unit, boots, boots == 1 ? "" : "s");
                        if (untimed)
                                fprintf(f, ", %u without a start time", untimed);
                        fputs(rep->options->race_boots ? "; in all:\n" : ":\n", f);
                        for (size_t g = 0; g < n_groups; g++) {
                                RaceGroup *x = &groups[g];
                                if (x->n_deltas == 0) {
                                        fprintf(f, "    %s: no timed record in any of them\n", x->unit);
                                        continue;
                                }
                                qsort(x->deltas, x->n_deltas, sizeof(int64_t), int64_cmp);
                                int64_t med = x->n_deltas % 2 ? x->deltas[x->n_deltas / 2] :
                                              (x->deltas[x->n_deltas / 2 - 1] + x->deltas[x->n_deltas / 2]) / 2;
                                int64_t lo = x->deltas[0], hi = x->deltas[x->n_deltas - 1];
                                fprintf(f, "    %s %s: started before it in %u of %zu boots; median %s", x->unit,
                                        x->what, x->before, x->n_deltas, fmt_lead(t1, med));
                                if ((lo >= 0) == (hi >= 0))
                                        fprintf(f, " (range %.3f–%s)", (double) (lo >= 0 ? lo : -hi) / 1e6,
                                                fmt_lead(t2, lo >= 0 ? hi : lo));
                                else
                                        fprintf(f, " (from %s to %s)", fmt_lead(t2, lo), fmt_lead(t3, hi));
                                if (x->missing)
                                        fprintf(f, "; no timed record in %u", x->missing);
                                fputc('\n', f);
                        }
                }
                for (size_t g = 0; g < n_groups; g++) {
                        free(groups[g].unit);
                        free(groups[g].deltas);
                }
                free(groups);
        }
        return r;
}

static void comparisons(const StatsReport *r, FILE *f) {
        char b1[32], b2[32];
        size_t w = 4;

        if (r->n_comparisons == 0)
                return;
        for (size_t i = 0; i < r->n_comparisons; i++)
                w = MAX(w, strlen(r->comparisons[i].unit));
        fprintf(f, "\nBefore/after (Fisher's exact test, two-sided; %s%s):\n",
                r->n_comparisons > 1 ? "p-values not corrected for multiple comparisons, Holm in JSON" :
                                       "one comparison",
                r->comparisons[0].worst_case ? "; counts are failures seen, the worst case (unknown and missing "
                                               "boots failed) is named after the verdict" : "");
        fprintf(f, "%-*s %10s %10s %10s %10s %9s  %s\n", (int) w, "UNIT", "BEFORE", "AFTER", "BEFORE%", "AFTER%", "P",
                "VERDICT");
        for (size_t i = 0; i < r->n_comparisons; i++) {
                const Comparison *c = &r->comparisons[i];
                char before[32], after[32];
                snprintf(before, sizeof before, "%u/%u", c->before_failures, c->before_boots);
                snprintf(after, sizeof after, "%u/%u", c->after_failures, c->after_boots);
                fprintf(f, "%-*s %10s %10s %10s %10s ", (int) w, c->unit, before, after,
                        stats_fmt_pct(b1, c->before_boots ? (double) c->before_failures / c->before_boots : NAN),
                        stats_fmt_pct(b2, c->after_boots ? (double) c->after_failures / c->after_boots : NAN));
                if (c->verdict == COMPARISON_NO_DATA)
                        fprintf(f, "%9s  ", "-");
                else
                        fprintf(f, "%9.3g  ", c->p_value);
                fprintf(f, "%s%s%s", comparison_verdict_to_string(c->verdict),
                        c->improved_known_only ? " in the worst case (improved on the known boots)" : "",
                        c->thin && c->verdict != COMPARISON_WORSE && c->verdict != COMPARISON_NO_DATA ?
                                ", under-powered" : "");
                if (!c->decides)
                        fputs(", not judged", f);
                if (c->after_worst_failures != c->after_failures || c->after_worst_boots != c->after_boots)
                        fprintf(f, "; worst case after %u/%u", c->after_worst_failures, c->after_worst_boots);
                fputc('\n', f);
        }
}

int stats_report_text(const StatsReport *r, FILE *f) {
        int k;

        if (r->has_baseline)
                header(&r->baseline, f);
        header(&r->sample, f);
        if (r->has_baseline)
                unit_table(r, &r->baseline, f);
        unit_table(r, &r->sample, f);
        if (r->has_baseline)
                machines(r, &r->baseline, f);
        machines(r, &r->sample, f);
        comparisons(r, f);
        if (r->has_baseline)
                signatures(&r->baseline, f);
        signatures(&r->sample, f);
        if (r->has_baseline)
                cycles(&r->baseline, f);
        cycles(&r->sample, f);
        if (r->has_baseline && (k = incomplete(&r->baseline, f)) < 0)
                return k;
        if ((k = incomplete(&r->sample, f)) < 0)
                return k;
        if ((k = race(r, &r->sample, f)) < 0)
                return k;
        fprintf(f, "\nCriterion: %s\n", r->criterion);
        fprintf(f, "Verdict: %s: %s\n", r->verdict == VERDICT_PASS ? "PASS" : "FAIL", r->verdict_text);
        return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
