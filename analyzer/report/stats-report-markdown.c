/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stats --format=markdown: an SRU verification block (knowledge/sru-and-stats.md §1, §6). */

#include <math.h>

#include "config.h"
#include "journal/stats-math.h"
#include "report/stats-report.h"

static void list_or(FILE *f, char * const *l, const char *none) {
        if (!l || !*l) {
                fputs(none, f);
                return;
        }
        STRV_FOREACH(s, l)
                fprintf(f, "%s%s", s == l ? "" : ", ", *s);
}

/* A table cell: no '|' or newline may leak into it. */
static void cell(FILE *f, const char *s) {
        for (; s && *s; s++)
                if (*s == '|')
                        fputs("\\|", f);
                else
                        fputc(*s == '\n' ? ' ' : *s, f);
}

static const char *range(char buf[static 48], unsigned x, unsigned n) {
        double lo, hi;

        if (n == 0 || stats_clopper_pearson(x, n, 0.05, &lo, &hi) < 0)
                return "n/a";
        snprintf(buf, 48, "%.1f–%.1f %%", lo * 100, hi * 100);
        return buf;
}

/* What a cell may show as failed is only what failed; the worst case of --boots-started is labelled as such
 * next to it. */
static const char *count(char buf[static 96], const UnitStats *u, unsigned x, unsigned n) {
        int k;

        if (!u || (n == 0 && !u->has_worst))
                return "no evidence";
        if (n == 0)
                k = snprintf(buf, 96, "no known outcome");
        else
                k = snprintf(buf, 96, "%u/%u failed", x, n);
        if (u->has_worst && (u->worst_failures != x || u->worst_boots != n))
                snprintf(buf + k, 96 - k, " (worst case %u/%u)", u->worst_failures, u->worst_boots);
        return buf;
}

static void boots_line(FILE *f, const StatsSample *s) {
        unsigned unknown = 0;

        for (size_t i = 0; i < s->n_units; i++)
                unknown = MAX(unknown, s->units[i].unknown);
        fprintf(f, "%s ", s->label);
        if (s->boots_started)
                fprintf(f, "%u started / ", s->boots_started);
        fprintf(f, "%u in journal, %u incomplete, unknown outcome in up to %u", s->boots_in_journal,
                s->boots_incomplete, unknown + s->boots_missing);
}

static void cycles_line(FILE *f, const StatsSample *s) {
        const BootAnalysis *a = s->analysis;
        _cleanup_(strv_freep) char **deleted = NULL;

        fprintf(f, "Ordering cycles seen (%s): ", s->label);
        if (s->n_cycles == 0) {
                fputs("none", f);
                return;
        }
        for (size_t b = 0; b < a->n_boots; b++)
                for (size_t c = 0; c < a->boots[b].n_cycles; c++)
                        STRV_FOREACH(d, a->boots[b].cycles[c].deleted)
                                (void) strv_extend_unique(&deleted, *d);
        fprintf(f, "%u (jobs deleted: ", s->n_cycles);
        list_or(f, deleted, "none recorded");
        fputc(')', f);
}

/* Units not asked for that failed in some boot of the sample. */
static void others_line(FILE *f, const StatsReport *rep, const StatsSample *s) {
        const BootAnalysis *a = s->analysis;
        bool any = false;

        fprintf(f, "Other units failing (%s): ", s->label);
        for (size_t u = 0; u < a->n_units; u++) {
                unsigned n = 0;
                if (rep->options->units && strv_contains(rep->options->units, a->units[u].name))
                        continue;
                if (!rep->options->units)
                        break; /* every unit is in the table already */
                for (size_t b = 0; b < a->n_boots; b++)
                        n += outcome_is_failure(a->units[u].boots[b].outcome, rep->options->not_run_is_failure);
                if (n == 0)
                        continue;
                fprintf(f, "%s%s (%u/%zu)", any ? ", " : "", a->units[u].name, n, a->n_boots);
                any = true;
        }
        if (!any)
                fputs(rep->options->units ? "none" : "see the table", f);
}

/* --by=machine: each failing (or asked-for) unit per machine, against the rest of the fleet. */
static void machines_table(FILE *f, const StatsReport *rep, const StatsSample *s) {
        char b1[96], b2[48], b3[48];

        if (!rep->options->by_machine)
                return;
        fprintf(f, "Per machine (%s; %zu machines by _MACHINE_ID; vs rest: Fisher's exact test against all other "
                   "machines, two-sided, Holm-adjusted):\n\n", s->label, s->n_machines);
        fputs("| unit | host | machine | failed | rate | 95% CI (CP) | vs rest |\n", f);
        fputs("|---|---|---|---|---|---|---|\n", f);
        for (size_t i = 0; i < s->n_units; i++) {
                if (!rep->options->units && s->units[i].failures == 0)
                        continue;
                for (size_t m = 0; m < s->n_machines; m++) {
                        const MachineStats *ms = &s->machines[m];
                        const UnitStats *u = &ms->units[i];
                        fputs("| ", f);
                        cell(f, u->unit);
                        fputs(" | ", f);
                        cell(f, ms->hostname ?: "?");
                        fprintf(f, " | %.12s | %s | %s | %s | ", ms->machine_id[0] ? ms->machine_id : "?",
                                count(b1, u, u->failures, u->boots), stats_fmt_pct(b2, u->rate),
                                range(b3, u->failures, u->boots));
                        if (isnan(u->p_vs_rest_holm))
                                fputs("– |\n", f);
                        else
                                fprintf(f, "%s (p = %.2g) |\n",
                                        u->deviates > 0 ? "**higher**" : u->deviates < 0 ? "lower" : "same",
                                        u->p_vs_rest_holm);
                }
        }
        fputc('\n', f);
}

static const char *comparison_word(const Comparison *c) {
        if (!c->decides)
                return "not judged (no known outcome in one sample)";
        if (c->improved_known_only)
                return "not improved in the worst case";
        switch (c->verdict) {
        case COMPARISON_IMPROVED:
                return "improved";
        case COMPARISON_WORSE:
                return "**worse**";
        case COMPARISON_NO_DATA:
                return "**no data**";
        default:
                return "not improved";
        }
}

/* The platform as the journals record it; what they do not record is said in words, never as a placeholder. */
static void platform_line(FILE *f, const StatsSample *before, const StatsSample *after) {
        bool versions = (before && before->systemd_versions) || after->systemd_versions;

        fputs("Platform: ", f);
        if (versions) {
                fputs("systemd ", f);
                if (before) {
                        list_or(f, before->systemd_versions, "not recorded");
                        fputs(" (before), ", f);
                }
                list_or(f, after->systemd_versions, "not recorded");
                fputs(before ? " (after)" : "", f);
        } else
                fputs("systemd version not recorded in the journal", f);
        if (after->kernels) {
                fputs("; kernel ", f);
                list_or(f, after->kernels, "");
        } else
                fputs("; no kernel messages (a container?)", f);
        fputc('\n', f);
}

int stats_report_markdown(const StatsReport *rep, FILE *f) {
        const StatsOptions *o = rep->options;
        const StatsSample *after = &rep->sample, *before = rep->has_baseline ? &rep->baseline : NULL;
        char b1[96], b2[96], b3[48], b4[48];
        bool not_started = !after->boots_started || (before && !before->boots_started);

        fprintf(f, "### bootrace verification%s%s\n\n", o->title ? " — " : "", strempty(o->title));
        fputs("```\n", f);
        /* only what was given: verb-stats warns about a missing label */
        if (before && (o->baseline_label || o->label)) {
                const char *lead = "Package:  ";
                if (o->baseline_label) {
                        fprintf(f, "%sbefore %s\n", lead, o->baseline_label);
                        lead = "          ";
                }
                if (o->label)
                        fprintf(f, "%safter  %s\n", lead, o->label);
        } else if (!before && o->label)
                fprintf(f, "Package:  %s\n", o->label);
        platform_line(f, before, after);
        fprintf(f, "Tool:     bootrace %s, boots grouped by _BOOT_ID; journals: ", PACKAGE_VERSION);
        if (before)
                fprintf(f, "before %s, after ", before->source->description);
        fprintf(f, "%s\n", after->source->description);
        fputs("```\n\n", f);
        fprintf(f, "Criterion per boot: %s\n\n", rep->criterion);

        if (before) {
                fputs("| unit | before | after | before 95% CI (CP) | after 95% CI (CP) | Fisher p | verdict |\n", f);
                fputs("|---|---|---|---|---|---|---|\n", f);
                for (size_t i = 0; i < rep->n_comparisons; i++) {
                        const Comparison *c = &rep->comparisons[i];
                        fputs("| ", f);
                        cell(f, c->unit);
                        fprintf(f, " | %s | %s | %s | %s | ",
                                count(b1, c->before, c->before_failures, c->before_boots),
                                count(b2, c->after, c->after_failures, c->after_boots),
                                range(b3, c->before_failures, c->before_boots),
                                range(b4, c->after_failures, c->after_boots));
                        if (c->verdict == COMPARISON_NO_DATA)
                                fputs("–", f);
                        else
                                fprintf(f, "%.2g", c->p_value);
                        fprintf(f, " | %s |\n", comparison_word(c));
                }
                if (rep->n_comparisons == 0)
                        fputs("| (no unit failed in either sample) | | | | | | |\n", f);
        } else {
                fputs("| unit | failed | rate | 95% CI (CP) | 95% CI (Wilson) | unknown |\n", f);
                fputs("|---|---|---|---|---|---|\n", f);
                size_t rows = 0;
                for (size_t i = 0; i < after->n_units; i++) {
                        const UnitStats *u = &after->units[i];
                        if (!o->units && u->failures == 0)
                                continue;
                        rows++;
                        fputs("| ", f);
                        cell(f, u->unit);
                        snprintf(b4, sizeof b4, "%.1f–%.1f %%", u->wilson_low * 100, u->wilson_high * 100);
                        fprintf(f, " | %s | %s | %s | %s | %u |\n", count(b1, u, u->failures, u->boots),
                                stats_fmt_pct(b2, u->rate), range(b3, u->failures, u->boots), u->boots ? b4 : "n/a",
                                u->unknown);
                }
                if (rows == 0)
                        fputs("| (no unit failed) | | | | | |\n", f);
        }
        fputc('\n', f);
        if (after->boots_started || (before && before->boots_started))
                fputs("Counts are failures seen in the boots with a known outcome; \"worst case\" counts unknown "
                      "and missing boots as failed (--boots-started).\n\n", f);
        if (before)
                machines_table(f, rep, before);
        machines_table(f, rep, after);
        fputs("```\nBoots:    ", f);
        if (before) {
                boots_line(f, before);
                fputs("; ", f);
        }
        boots_line(f, after);
        fputs(".\n", f);
        if (not_started)
                fputs("          Boots that never reached the journal are not counted: --boots-started names "
                      "how many the harness started.\n", f);
        fprintf(f, "Verdict:  %s — %s\n", rep->verdict == VERDICT_PASS ? "PASS" : "FAIL", rep->verdict_text);
        if (before)
                fprintf(f, "          (Fisher's exact test, two-sided; clean boots needed at 95 %%, one-sided%s)\n",
                        rep->n_comparisons && rep->comparisons[0].worst_case ?
                                "; improvement and bounds must hold in the worst case" : "");
        if (before) {
                cycles_line(f, before);
                fputs(".\n", f);
        }
        cycles_line(f, after);
        fputs(".\n", f);
        others_line(f, rep, after);
        fputs(".\n", f);
        fputs("Boots are assumed independent and identically prepared (same image, same host type).\n```\n", f);
        return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
