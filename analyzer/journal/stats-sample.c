/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>
#include <stdarg.h>
#include <strings.h>

#include "journal/stats-math.h"
#include "journal/stats-sample.h"

const char * const stats_default_anchors[] = {
        "systemd-remount-fs.service",
        "systemd-tmpfiles-setup.service",
        "local-fs.target",
        NULL,
};

void stats_options_done(StatsOptions *o) {
        o->units = strv_free(o->units);
        o->output_signatures = strv_free(o->output_signatures);
        o->anchors = strv_free(o->anchors);
        o->boot = mfree(o->boot);
        o->title = mfree(o->title);
        o->label = mfree(o->label);
        o->baseline_label = mfree(o->baseline_label);
}

static void unit_stats_done(UnitStats *u) {
        free(u->unit);
        for (size_t i = 0; i < u->n_results; i++)
                free(u->results[i].result);
        free(u->results);
}

void stats_sample_done(StatsSample *s) {
        free(s->label);
        journal_source_free(s->source);
        diag_list_done(&s->diags);
        boot_analysis_free(s->analysis);
        free(s->selected);
        free(s->boot_map);
        strv_free(s->systemd_versions);
        strv_free(s->kernels);
        for (size_t i = 0; i < s->n_units; i++)
                unit_stats_done(&s->units[i]);
        free(s->units);
        for (size_t i = 0; i < s->n_signatures; i++) {
                free(s->signatures[i].signature);
                strv_free(s->signatures[i].units);
        }
        free(s->signatures);
        for (size_t m = 0; m < s->n_machines; m++) {
                MachineStats *ms = &s->machines[m];
                free(ms->machine_id);
                free(ms->hostname);
                strv_free(ms->hostnames);
                for (size_t i = 0; ms->units && i < s->n_units; i++)
                        unit_stats_done(&ms->units[i]);
                free(ms->units);
        }
        free(s->machines);
        free(s->boot_machine);
        *s = (StatsSample) {};
}

typedef struct LoadContext {
        const JournalDecoder *decoder;
        BootAnalysis *analysis;
        const ssize_t *to_analysis; /* source boot -> analysis boot */
        JournalProgressCallback progress;
        void *progress_userdata;
} LoadContext;

static void on_progress(const JournalProgress *p, void *userdata) {
        LoadContext *c = userdata;
        c->progress(p, c->progress_userdata);
}

static int on_entry(const JournalFields *f, size_t boot, void *userdata) {
        LoadContext *c = userdata;
        JournalEvent e;
        ssize_t b = c->to_analysis[boot];
        int r;

        if (b < 0)
                return 0;
        c->analysis->boots[b].n_entries++;
        r = journal_event_decode(c->decoder, f, &e);
        if (r <= 0)
                return r;
        r = boot_analysis_add_event(c->analysis, (size_t) b, &e);
        journal_event_done(&e);
        return r;
}

/* A boot ID, or an offset: 0 the last boot, -1 the one before, 1 the first, 2 the second. */
static ssize_t select_boot(const JournalSource *src, const char *spec) {
        char *end;
        long v;

        for (size_t i = 0; i < src->n_boots; i++)
                if (strcasecmp(src->boots[i].id_str, spec) == 0)
                        return (ssize_t) i;
        errno = 0;
        v = strtol(spec, &end, 10);
        if (errno != 0 || end == spec || *end || src->n_boots == 0)
                return -ENXIO;
        if (v <= 0 && (size_t) -v < src->n_boots)
                return (ssize_t) (src->n_boots - 1 + v);
        if (v > 0 && (size_t) v <= src->n_boots)
                return (ssize_t) (v - 1);
        return -ENXIO;
}

int stats_sample_load(StatsSample *s, const char *label, const JournalSourceSpec *spec, const StatsOptions *o,
                      JournalProgressCallback progress, void *userdata) {
        _cleanup_(freep) ssize_t *to_analysis = NULL;
        _cleanup_(freep) char **ids = NULL;
        JournalScanMatches m = {
                .units = o->units,
                .message_ids = journal_decoder_message_ids_not_pid1(o->decoder),
                .journald = journal_decoder_identifiers(o->decoder, MESSAGE_WRITER_JOURNALD),
                .manager = journal_decoder_identifiers(o->decoder, MESSAGE_WRITER_MANAGER),
        };
        BootAnalysisOptions ao = { .output_signatures = o->output_signatures };
        sd_id128_t current = {};
        bool local = !journal_source_spec_is_set(spec);
        size_t n = 0, kept = 0;
        int r;

        if (!(s->label = strdup(label)))
                return -ENOMEM;
        r = journal_source_open(spec, &s->diags, &s->source);
        if (r < 0)
                return r;
        r = journal_source_list_boots(s->source);
        if (r < 0)
                return r;

        n = s->source->n_boots;
        s->selected = calloc(MAX(n, (size_t) 1), sizeof(bool));
        to_analysis = calloc(MAX(n, (size_t) 1), sizeof(ssize_t));
        ids = calloc(MAX(n, (size_t) 1), sizeof(char *));
        s->boot_map = calloc(MAX(n, (size_t) 1), sizeof(size_t));
        if (!s->selected || !to_analysis || !ids || !s->boot_map)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                s->selected[i] = o->since_usec == 0 || s->source->boots[i].first_realtime >= o->since_usec;
        if (o->boots_last > 0)
                for (size_t i = n; i > 0; i--)
                        if (s->selected[i - 1] && ++kept > o->boots_last)
                                s->selected[i - 1] = false;
        if (o->boot) {
                ssize_t pick = select_boot(s->source, o->boot);
                if (pick < 0)
                        return (int) pick;
                for (size_t i = 0; i < n; i++)
                        s->selected[i] = (ssize_t) i == pick;
        }
        kept = 0;
        for (size_t i = 0; i < n; i++) {
                to_analysis[i] = -1;
                if (!s->selected[i])
                        continue;
                ids[kept] = s->source->boots[i].id_str;
                s->boot_map[kept] = i;
                to_analysis[i] = (ssize_t) kept++;
        }
        r = boot_analysis_new(ids, kept, &s->analysis);
        if (r < 0)
                return r;
        if (local)
                (void) sd_id128_get_boot(&current);
        for (size_t b = 0; b < kept; b++) {
                const JournalBoot *jb = &s->source->boots[s->boot_map[b]];
                BootInfo *bi = &s->analysis->boots[b];
                bi->first_realtime = jb->first_realtime;
                bi->last_realtime = jb->last_realtime;
                bi->first_monotonic = jb->first_monotonic;
                bi->last_monotonic = jb->last_monotonic;
                bi->current = local && sd_id128_equal(jb->id, current);
                if (jb->kernel && !(bi->kernel = strdup(jb->kernel)))
                        return -ENOMEM;
        }
        s->boots_in_journal = (unsigned) kept;

        r = journal_source_scan(s->source, &m, s->selected, on_entry, progress ? on_progress : NULL,
                                &(LoadContext) { .decoder = o->decoder, .analysis = s->analysis,
                                                 .to_analysis = to_analysis,
                                                 .progress = progress, .progress_userdata = userdata });
        if (r < 0)
                return r;
        return boot_analysis_finish(s->analysis, &ao);
}

int stats_boot_incomplete(const BootInfo *b, char **ret) {
        _cleanup_(freep) char *s = NULL;
        const char *reasons[4];
        size_t n = 0;

        *ret = NULL;
        if (b->current)
                return 0; /* still running: nothing is missing yet */
        if (!b->startup_finished)
                reasons[n++] = "no 'Startup finished'";
        if (!b->flushed)
                reasons[n++] = "no journal flush";
        if (!b->journal_stopped)
                reasons[n++] = "no clean end (crashed or truncated)";
        for (size_t i = 0; i < n; i++) {
                char *x = s ? strjoin(s, ", ", reasons[i]) : strdup(reasons[i]);
                if (!x)
                        return -ENOMEM;
                free(s);
                s = x;
        }
        *ret = TAKE_PTR(s);
        return 0;
}

static int add_result(UnitStats *u, const char *result) {
        for (size_t i = 0; i < u->n_results; i++)
                if (streq(u->results[i].result, result)) {
                        u->results[i].count++;
                        return 0;
                }
        ResultCount *n = realloc(u->results, (u->n_results + 1) * sizeof(ResultCount));
        if (!n)
                return -ENOMEM;
        u->results = n;
        n[u->n_results] = (ResultCount) { .result = strdup(result), .count = 1 };
        if (!n[u->n_results].result)
                return -ENOMEM;
        u->n_results++;
        return 0;
}

static int add_signature(StatsSample *s, const char *sig, const char *unit) {
        SignatureCount *n;

        for (size_t i = 0; i < s->n_signatures; i++)
                if (streq(s->signatures[i].signature, sig)) {
                        s->signatures[i].unit_boots++;
                        return strv_extend_unique(&s->signatures[i].units, unit);
                }
        n = realloc(s->signatures, (s->n_signatures + 1) * sizeof(SignatureCount));
        if (!n)
                return -ENOMEM;
        s->signatures = n;
        n[s->n_signatures] = (SignatureCount) { .signature = strdup(sig), .unit_boots = 1 };
        if (!n[s->n_signatures].signature)
                return -ENOMEM;
        s->n_signatures++;
        return strv_extend_unique(&n[s->n_signatures - 1].units, unit);
}

static bool unit_has_evidence(const BootAnalysis *a, size_t u) {
        for (size_t b = 0; b < a->n_boots; b++) {
                const UnitBoot *ub = &a->units[u].boots[b];
                if (ub->evidence || ub->deleted || ub->in_cycle || ub->outcome != OUTCOME_UNKNOWN)
                        return true;
        }
        return false;
}

static int unit_name_cmp(const void *x, const void *y) {
        return strcmp(((const UnitStats *) x)->unit, ((const UnitStats *) y)->unit);
}

static void compute_rates(UnitStats *u, unsigned boots_started, unsigned boots_in_journal, const StatsOptions *o) {
        double alpha = o->alpha;

        u->rate = u->boots ? (double) u->failures / u->boots : NAN;
        (void) stats_clopper_pearson(u->failures, u->boots, alpha, &u->ci_low, &u->ci_high);
        (void) stats_wilson(u->failures, u->boots, alpha, &u->wilson_low, &u->wilson_high);
        u->upper_one_sided = stats_cp_upper_one_sided(u->failures, u->boots, alpha);

        if (boots_started > 0) {
                unsigned missing = boots_started > boots_in_journal ? boots_started - boots_in_journal : 0;
                u->has_worst = true;
                u->worst_boots = MAX(boots_started, boots_in_journal);
                u->worst_failures = MIN(u->failures + u->unknown + missing, u->worst_boots);
                u->worst_rate = u->worst_boots ? (double) u->worst_failures / u->worst_boots : NAN;
                (void) stats_clopper_pearson(u->worst_failures, u->worst_boots, alpha, &u->worst_ci_low,
                                             &u->worst_ci_high);
        }

        u->boots_needed = u->boots_needed_total = -1;
        if (o->below > 0) {
                /* the verdict on a rate uses the worst case when the harness said how many boots it started */
                unsigned x = u->has_worst ? u->worst_failures : u->failures;
                unsigned n = u->has_worst ? u->worst_boots : u->boots;
                long long total = stats_boots_needed(x, o->below, alpha);
                u->shown_below = n > 0 && stats_cp_upper_one_sided(x, n, alpha) < o->below;
                if (total < 0) {
                        u->boots_needed = u->boots_needed_total = total;
                } else {
                        u->boots_needed_total = total;
                        u->boots_needed = u->shown_below ? 0 : MAX(total - (long long) n, 1LL);
                }
        }
}

/* Counts the unit over the sample's boots, or (machine >= 0) over one machine's boots only. */
static int count_unit(StatsSample *s, UnitStats *u, const StatsOptions *o, ssize_t machine) {
        const BootAnalysis *a = s->analysis;
        int r;

        for (size_t b = 0; b < a->n_boots; b++) {
                const UnitBoot *ub;
                Outcome out;
                const char *result;

                if (machine >= 0 && s->boot_machine[b] != (size_t) machine)
                        continue;
                if (u->index < 0) {
                        u->unknown++;
                        continue;
                }
                ub = &a->units[u->index].boots[b];
                out = ub->outcome;
                result = ub->result;
                if (ub->in_cycle)
                        u->cycles++;
                if (o->cycle_is_failure && ub->in_cycle && out != OUTCOME_FAILED) {
                        out = OUTCOME_FAILED;
                        result = "ordering-cycle";
                }
                switch (out) {
                case OUTCOME_SUCCEEDED:
                        u->succeeded++;
                        break;
                case OUTCOME_FAILED:
                        u->failed++;
                        break;
                case OUTCOME_SKIPPED:
                        u->skipped++;
                        break;
                case OUTCOME_NOT_RUN:
                        u->not_run++;
                        break;
                default:
                        u->unknown++;
                        continue;
                }
                u->boots++;
                if (outcome_is_failure(out, o->not_run_is_failure))
                        u->failures++;
                if (out != OUTCOME_SUCCEEDED && (r = add_result(u, result ?: outcome_to_string(out))) < 0)
                        return r;
                if (out == OUTCOME_FAILED && machine < 0)
                        STRV_FOREACH(sig, ub->signatures)
                                if ((r = add_signature(s, *sig, u->unit)) < 0)
                                        return r;
        }
        return 0;
}

static int machine_index_cmp(const void *x, const void *y, void *userdata) {
        const MachineStats *machines = userdata, *a = &machines[*(const size_t *) x], *b = &machines[*(const size_t *) y];
        int c;

        /* by host name (machines without one last), then by machine ID */
        if (!a->hostname || !b->hostname)
                c = !a->hostname - !b->hostname;
        else
                c = strcmp(a->hostname, b->hostname);
        return c ?: strcmp(a->machine_id, b->machine_id);
}

/* The machines of the sample's boots (by _MACHINE_ID of each boot) and which boots are whose. */
static int group_machines(StatsSample *s) {
        const BootAnalysis *a = s->analysis;
        _cleanup_(freep) size_t *order = NULL, *rank = NULL;
        _cleanup_(freep) MachineStats *sorted = NULL;

        s->boot_machine = calloc(MAX(a->n_boots, (size_t) 1), sizeof(size_t));
        if (!s->boot_machine)
                return -ENOMEM;
        for (size_t b = 0; b < a->n_boots; b++) {
                const JournalBoot *jb = &s->source->boots[s->boot_map[b]];
                MachineStats *m = NULL;
                _cleanup_(freep) char *why = NULL;
                size_t k;

                for (k = 0; k < s->n_machines; k++)
                        if (streq(s->machines[k].machine_id, jb->machine_id)) {
                                m = &s->machines[k];
                                break;
                        }
                if (!m) {
                        MachineStats *n = realloc(s->machines, (s->n_machines + 1) * sizeof(MachineStats));
                        if (!n)
                                return -ENOMEM;
                        s->machines = n;
                        m = &n[s->n_machines++];
                        *m = (MachineStats) { .machine_id = strdup(jb->machine_id) };
                        if (!m->machine_id)
                                return -ENOMEM;
                }
                s->boot_machine[b] = k;
                m->boots_in_journal++;
                if (stats_boot_incomplete(&a->boots[b], &why) < 0)
                        return -ENOMEM;
                m->boots_incomplete += !!why;
                if (jb->hostname) {
                        free(m->hostname);
                        if (!(m->hostname = strdup(jb->hostname)) || strv_extend_unique(&m->hostnames, jb->hostname) < 0)
                                return -ENOMEM;
                }
        }
        if (s->n_machines < 2)
                return 0;
        /* sort, and renumber the boots' machines to match */
        order = calloc(s->n_machines, sizeof(size_t));
        rank = calloc(s->n_machines, sizeof(size_t));
        sorted = calloc(s->n_machines, sizeof(MachineStats));
        if (!order || !rank || !sorted)
                return -ENOMEM;
        for (size_t k = 0; k < s->n_machines; k++)
                order[k] = k;
        qsort_r(order, s->n_machines, sizeof(size_t), machine_index_cmp, s->machines);
        for (size_t k = 0; k < s->n_machines; k++)
                sorted[k] = s->machines[order[k]];
        for (size_t k = 0; k < s->n_machines; k++)
                rank[order[k]] = k;
        for (size_t b = 0; b < a->n_boots; b++)
                s->boot_machine[b] = rank[s->boot_machine[b]];
        free(s->machines);
        s->machines = TAKE_PTR(sorted);
        return 0;
}

/* Each unit per machine, and each machine against the rest of the fleet (Fisher, Holm over all of them). */
static int count_machines(StatsSample *s, const StatsOptions *o) {
        _cleanup_(freep) double *p = NULL;
        _cleanup_(freep) UnitStats **compared = NULL;
        size_t n = 0;
        int r;

        r = group_machines(s);
        if (r < 0)
                return r;
        p = calloc(MAX(s->n_machines * s->n_units, (size_t) 1), sizeof(double));
        compared = calloc(MAX(s->n_machines * s->n_units, (size_t) 1), sizeof(UnitStats *));
        if (!p || !compared)
                return -ENOMEM;
        for (size_t m = 0; m < s->n_machines; m++) {
                MachineStats *ms = &s->machines[m];
                ms->units = calloc(MAX(s->n_units, (size_t) 1), sizeof(UnitStats));
                if (!ms->units)
                        return -ENOMEM;
                for (size_t i = 0; i < s->n_units; i++) {
                        UnitStats *u = &ms->units[i], *all = &s->units[i];
                        *u = (UnitStats) { .unit = strdup(all->unit), .index = all->index,
                                           .p_vs_rest = NAN, .p_vs_rest_holm = NAN };
                        if (!u->unit)
                                return -ENOMEM;
                        if ((r = count_unit(s, u, o, (ssize_t) m)) < 0)
                                return r;
                        compute_rates(u, 0, ms->boots_in_journal, o);
                        all->machines += u->boots > 0;
                        all->machines_failing += u->failures > 0;
                        /* this machine against all the others, where some boot failed and both sides have data */
                        if (all->failures > 0 && u->boots > 0 && all->boots > u->boots) {
                                unsigned x = u->failures, X = all->failures - x, rn = all->boots - u->boots;
                                (void) stats_fisher_exact(x, u->boots - x, X, rn - X, &u->p_vs_rest, NULL, NULL);
                                compared[n] = u;
                                p[n++] = u->p_vs_rest;
                        }
                }
        }
        if (stats_holm(p, n) < 0)
                return -ENOMEM;
        for (size_t k = 0; k < n; k++) {
                UnitStats *u = compared[k];
                compared[k]->p_vs_rest_holm = p[k];
                if (p[k] < o->alpha) {
                        /* which side: this machine's rate against the rest's */
                        for (size_t i = 0; i < s->n_units; i++)
                                if (streq(s->units[i].unit, u->unit)) {
                                        const UnitStats *all = &s->units[i];
                                        double rest = (double) (all->failures - u->failures) / (all->boots - u->boots);
                                        u->deviates = u->rate > rest ? 1 : -1;
                                        s->units[i].machines_deviating++;
                                        break;
                                }
                }
        }
        return 0;
}

char *stats_unit_name_normalize(const char *name) {
        /* like systemctl: a name without a type suffix means a service */
        if (journal_unit_name_plausible(name, strlen(name)))
                return strdup(name);
        return strjoin(name, ".service");
}

int stats_sample_count(StatsSample *s, unsigned boots_started, const StatsOptions *o) {
        const BootAnalysis *a = s->analysis;
        size_t n = 0;
        int r;

        s->boots_started = boots_started;
        s->boots_missing = boots_started > s->boots_in_journal ? boots_started - s->boots_in_journal : 0;
        for (size_t b = 0; b < a->n_boots; b++) {
                _cleanup_(freep) char *why = NULL;
                const BootInfo *bi = &a->boots[b];
                if ((r = stats_boot_incomplete(bi, &why)) < 0)
                        return r;
                if (why)
                        s->boots_incomplete++;
                s->n_cycles += (unsigned) bi->n_cycles;
                if (bi->manager_version && (r = strv_extend_unique(&s->systemd_versions, bi->manager_version)) < 0)
                        return r;
                if (bi->kernel && (r = strv_extend_unique(&s->kernels, bi->kernel)) < 0)
                        return r;
        }

        s->units = calloc(MAX(o->units ? strv_length(o->units) : a->n_units, (size_t) 1), sizeof(UnitStats));
        if (!s->units)
                return -ENOMEM;
        if (o->units) {
                STRV_FOREACH(name, o->units) {
                        _cleanup_(freep) char *norm = stats_unit_name_normalize(*name);
                        int i;
                        if (!norm)
                                return -ENOMEM;
                        i = boot_analysis_find_unit(a, norm);
                        s->units[n++] = (UnitStats) { .unit = TAKE_PTR(norm), .index = i < 0 ? -1 : i };
                }
        } else
                for (size_t u = 0; u < a->n_units; u++) {
                        if (!unit_has_evidence(a, u))
                                continue;
                        s->units[n] = (UnitStats) { .unit = strdup(a->units[u].name), .index = (ssize_t) u };
                        if (!s->units[n++].unit)
                                return -ENOMEM;
                }
        s->n_units = n;
        if (!o->units)
                qsort_safe(s->units, n, sizeof(UnitStats), unit_name_cmp);
        /* a unit asked for that the journal has no record of at all: perhaps mistyped */
        for (size_t i = 0; o->units && i < n; i++) {
                _cleanup_(freep) char *close = NULL;
                if (s->units[i].index >= 0)
                        continue;
                if ((r = journal_source_closest_unit(s->source, s->units[i].unit, &close)) < 0)
                        return r;
                if (close && (r = diag_add(&s->diags, DIAG_WARNING, NULL, 0,
                                           "%s: no record of %s in the journal; did you mean %s?", s->label,
                                           s->units[i].unit, close)) < 0)
                        return r;
        }
        for (size_t i = 0; i < n; i++) {
                s->units[i].p_vs_rest = s->units[i].p_vs_rest_holm = NAN;
                if ((r = count_unit(s, &s->units[i], o, -1)) < 0)
                        return r;
                compute_rates(&s->units[i], boots_started, s->boots_in_journal, o);
        }
        return o->by_machine ? count_machines(s, o) : 0;
}

static const char * const comparison_verdict_table[_COMPARISON_VERDICT_MAX] = {
        [COMPARISON_IMPROVED] = "improved",
        [COMPARISON_NOT_IMPROVED] = "not-improved",
        [COMPARISON_WORSE] = "worse",
        [COMPARISON_NO_DATA] = "no-data",
};

const char *comparison_verdict_to_string(ComparisonVerdict v) {
        return v >= 0 && v < _COMPARISON_VERDICT_MAX ? comparison_verdict_table[v] : NULL;
}

void stats_report_done(StatsReport *r) {
        stats_sample_done(&r->sample);
        stats_sample_done(&r->baseline);
        free(r->comparisons);
        free(r->verdict_text);
        free(r->criterion);
}

static const UnitStats *find_unit(const StatsSample *s, const char *unit) {
        for (size_t i = 0; i < s->n_units; i++)
                if (streq(s->units[i].unit, unit))
                        return &s->units[i];
        return NULL;
}

/* The failures seen and the boots with a known outcome: what a verdict may show as failures. */
static void known_counts(const UnitStats *u, unsigned *ret_x, unsigned *ret_n) {
        *ret_x = u ? u->failures : 0;
        *ret_n = u ? u->boots : 0;
}

/* The worst case of --boots-started (unknown and missing boots failed); the known counts without it. */
static void worst_counts(const UnitStats *u, unsigned *ret_x, unsigned *ret_n) {
        if (u && u->has_worst) {
                *ret_x = u->worst_failures;
                *ret_n = u->worst_boots;
        } else
                known_counts(u, ret_x, ret_n);
}

static bool improved(unsigned a, unsigned an, unsigned x, unsigned xn, double alpha, double *ret_p) {
        double p = 1;

        (void) stats_fisher_exact(a, an - a, x, xn - x, &p, NULL, NULL);
        if (ret_p)
                *ret_p = p;
        return an > 0 && xn > 0 && p < alpha && (double) x / xn < (double) a / an;
}

static int append(char **s, const char *sep, const char *fmt, ...) _printf_(3, 4);
static int append(char **s, const char *sep, const char *fmt, ...) {
        _cleanup_(freep) char *part = NULL;
        va_list ap;
        char *n;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&part, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        n = *s ? strjoin(*s, sep, part) : strdup(part);
        if (!n)
                return -ENOMEM;
        free(*s);
        *s = n;
        return 0;
}

static int compare(StatsReport *rep) {
        const StatsOptions *o = rep->options;
        _cleanup_(freep) double *p = NULL;
        size_t n = 0, cap = rep->sample.n_units + rep->baseline.n_units;
        double threshold = o->below > 0 ? o->below : STATS_THIN_DEFAULT;

        rep->comparisons = calloc(MAX(cap, (size_t) 1), sizeof(Comparison));
        p = calloc(MAX(cap, (size_t) 1), sizeof(double));
        if (!rep->comparisons || !p)
                return -ENOMEM;
        for (int pass = 0; pass < 2; pass++) {
                const StatsSample *from = pass == 0 ? &rep->baseline : &rep->sample;
                for (size_t i = 0; i < from->n_units; i++) {
                        const char *unit = from->units[i].unit;
                        Comparison *c;
                        unsigned a, an, x, xn;
                        bool seen = false;

                        for (size_t k = 0; k < n; k++)
                                seen = seen || streq(rep->comparisons[k].unit, unit);
                        if (seen)
                                continue;
                        c = &rep->comparisons[n];
                        *c = (Comparison) {
                                .unit = unit,
                                .before = find_unit(&rep->baseline, unit),
                                .after = find_unit(&rep->sample, unit),
                                .boots_needed = -1,
                        };
                        known_counts(c->before, &a, &an);
                        known_counts(c->after, &x, &xn);
                        c->before_failures = a;
                        c->before_boots = an;
                        c->after_failures = x;
                        c->after_boots = xn;
                        worst_counts(c->after, &c->after_worst_failures, &c->after_worst_boots);
                        c->worst_case = (c->before && c->before->has_worst) || (c->after && c->after->has_worst);
                        /* without --unit only the units that failed somewhere are judged: a unit merely unknown
                         * in some boots is no failure */
                        if (!o->units && a == 0 && x == 0)
                                continue;
                        (void) stats_fisher_exact(a, an - a, x, xn - x, &c->p_value, NULL, &c->p_value_one_sided);
                        if (an == 0 || xn == 0)
                                c->verdict = COMPARISON_NO_DATA;
                        else if (improved(a, an, x, xn, o->alpha, NULL)) {
                                /* the after-boots of unknown outcome could be failures: improved only if it
                                 * holds when they are */
                                c->verdict = COMPARISON_IMPROVED;
                                if (!improved(a, an, c->after_worst_failures, c->after_worst_boots, o->alpha, NULL)) {
                                        c->verdict = COMPARISON_NOT_IMPROVED;
                                        c->improved_known_only = true;
                                }
                        } else if (c->p_value < o->alpha && (double) x / xn > (double) a / an)
                                c->verdict = COMPARISON_WORSE;
                        else
                                c->verdict = COMPARISON_NOT_IMPROVED;
                        /* a unit asked for decides even without data; one not asked for only with data on both
                         * sides */
                        c->decides = o->units || c->verdict != COMPARISON_NO_DATA;
                        /* the bound that cannot be excluded: in the worst case, the conservative side */
                        x = c->after_worst_failures;
                        xn = c->after_worst_boots;
                        c->thin = xn == 0 || stats_cp_upper_one_sided(x, xn, o->alpha) >= threshold;
                        c->below = threshold;
                        if (c->thin) {
                                long long t = stats_boots_needed(x, threshold, o->alpha);
                                c->boots_needed = t < 0 ? t : MAX(t - (long long) xn, 1LL);
                        } else
                                c->boots_needed = 0;
                        p[n++] = c->p_value;
                }
        }
        rep->n_comparisons = n;
        if (stats_holm(p, n) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                rep->comparisons[i].p_value_holm = p[i];
        return 0;
}

static int criterion(StatsReport *rep) {
        const StatsOptions *o = rep->options;
        _cleanup_(freep) char *s = NULL;
        int r;

        r = append(&s, "", "A unit failed in a boot when a record shows a failure result, a failed start job, a "
                           "failed spawn or a bad exit status");
        if (r >= 0 && o->output_signatures && o->output_signatures[0]) {
                r = append(&s, "", " (or, with no record of its outcome, its own output says");
                STRV_FOREACH(sig, o->output_signatures)
                        if (r >= 0)
                                r = append(&s, sig == o->output_signatures ? " " : ", ", "\"%s\"", *sig);
                if (r >= 0)
                        r = append(&s, "", ")");
        }
        if (r >= 0)
                r = append(&s, "", o->not_run_is_failure ?
                                           "; a unit that did not run (start job deleted to break an ordering "
                                           "cycle, dependency failed) counts as failed" :
                                           "; a unit that did not run is counted as not run, not as failed");
        if (r >= 0 && o->cycle_is_failure)
                r = append(&s, "", "; a unit named in an ordering cycle counts as failed");
        if (r >= 0)
                r = append(&s, "", ". Boots without any record of the unit are unknown and not counted. Boots "
                                   "are assumed independent and identically prepared.");
        if (r < 0)
                return r;
        rep->criterion = TAKE_PTR(s);
        return 0;
}

static const char *pct(char buf[static 32], double v) {
        if (isnan(v))
                return "n/a";
        snprintf(buf, 32, "%.1f %%", v * 100);
        return buf;
}

/* "0/26" or, when the worst case differs, "0/26 (worst case 7/33)" */
static int append_after(char **s, const Comparison *c) {
        int r = append(s, "", "%u/%u", c->after_failures, c->after_boots);
        if (r >= 0 && (c->after_worst_failures != c->after_failures || c->after_worst_boots != c->after_boots))
                r = append(s, "", " (worst case %u/%u)", c->after_worst_failures, c->after_worst_boots);
        return r;
}

static int verdict_baseline(StatsReport *rep, bool *fail) {
        const StatsOptions *o = rep->options;
        double threshold = o->below > 0 ? o->below : STATS_THIN_DEFAULT;
        char b1[32], b2[32];
        size_t judged = 0;
        int r = 0;

        if (rep->n_comparisons == 0)
                return append(&rep->verdict_text, "", "NO FAILURES in either sample: nothing to compare");
        for (size_t i = 0; i < rep->n_comparisons && r >= 0; i++) {
                const Comparison *c = &rep->comparisons[i];
                static const char * const word[_COMPARISON_VERDICT_MAX] = {
                        [COMPARISON_IMPROVED] = "IMPROVED",
                        [COMPARISON_NOT_IMPROVED] = "NOT IMPROVED",
                        [COMPARISON_WORSE] = "WORSE",
                };

                if (!c->decides)
                        continue;
                judged++;
                if (c->verdict != COMPARISON_IMPROVED)
                        *fail = true;
                if (o->below > 0 && c->after && !c->after->shown_below)
                        *fail = true;
                if (c->verdict == COMPARISON_NO_DATA) {
                        r = append(&rep->verdict_text, "; ", "%s: NO DATA (%s)", c->unit,
                                   c->before_boots == 0 && c->after_boots == 0 ? "no known outcome in either sample" :
                                   c->before_boots == 0 ? "no known outcome before" : "no known outcome after");
                        continue;
                }
                r = append(&rep->verdict_text, "; ", "%s: %s (%u/%u -> ", c->unit,
                           c->improved_known_only ? "NOT IMPROVED in the worst case" : word[c->verdict],
                           c->before_failures, c->before_boots);
                if (r >= 0)
                        r = append_after(&rep->verdict_text, c);
                if (r >= 0)
                        r = append(&rep->verdict_text, "", ", p = %.2g%s)", c->p_value,
                                   c->improved_known_only ? "; improved on the boots with a known outcome" : "");
                if (r >= 0 && c->thin && c->after && c->verdict != COMPARISON_WORSE) {
                        unsigned x = c->after_worst_failures, xn = c->after_worst_boots;
                        double lo, hi;
                        (void) stats_clopper_pearson(x, xn, o->alpha, &lo, &hi);
                        r = append(&rep->verdict_text, "", " but UNDER-POWERED: %u/%u%s cannot exclude a failure "
                                   "rate up to %s", x, xn, x != c->after_failures || xn != c->after_boots ?
                                   " in the worst case" : "", pct(b1, hi));
                        if (r >= 0 && c->boots_needed > 0)
                                r = append(&rep->verdict_text, "", "; %lld more clean boots to show < %s",
                                           c->boots_needed, pct(b2, threshold));
                }
        }
        if (r >= 0 && judged == 0) {
                *fail = true;
                r = append(&rep->verdict_text, "", "NO UNIT JUDGED: every unit that failed has no known outcome "
                           "in one of the samples (name the units with --unit)");
        }
        if (r >= 0 && judged < rep->n_comparisons) {
                r = append(&rep->verdict_text, "; ", "not judged (no --unit, no known outcome in one sample):");
                for (size_t i = 0, k = 0; i < rep->n_comparisons && r >= 0; i++)
                        if (!rep->comparisons[i].decides)
                                r = append(&rep->verdict_text, k++ ? ", " : " ", "%s", rep->comparisons[i].unit);
        }
        return r;
}

/* --by=machine: on how many machines the unit failed, and the machines that differ from the rest. */
static int machines_note(StatsReport *rep, const StatsSample *s, size_t i) {
        const UnitStats *u = &s->units[i];
        int r;

        if (!rep->options->by_machine || s->n_machines == 0)
                return 0;
        r = append(&rep->verdict_text, "", " on %u of %u machine%s", u->machines_failing, u->machines,
                   u->machines == 1 ? "" : "s");
        /* the machines where it fails more often first: that is the regression */
        for (size_t k = 0, pass = 0; pass < 2; pass++)
        for (size_t m = 0; r >= 0 && m < s->n_machines; m++) {
                const MachineStats *ms = &s->machines[m];
                const UnitStats *mu = &ms->units[i];
                if (mu->deviates != (pass == 0 ? 1 : -1))
                        continue;
                r = append(&rep->verdict_text, "", "%s%s %u/%u (%s than the rest, p = %.2g)",
                           k++ == 0 ? "; differs on: " : ", ", ms->hostname ?: ms->machine_id, mu->failures,
                           mu->boots, mu->deviates > 0 ? "higher" : "lower", mu->p_vs_rest_holm);
        }
        return r;
}

/* "; worst case W of N (unknown and missing boots counted as failed)" when it differs from the known counts */
static int append_worst(char **s, const UnitStats *u) {
        if (!u->has_worst || (u->worst_failures == u->failures && u->worst_boots == u->boots))
                return 0;
        return append(s, "", "; worst case %u of %u", u->worst_failures, u->worst_boots);
}

static int verdict_single(StatsReport *rep, bool *fail) {
        const StatsOptions *o = rep->options;
        const StatsSample *s = &rep->sample;
        unsigned judged = 0;
        char b1[32], b2[32];
        int r = 0;

        for (size_t i = 0; i < s->n_units && r >= 0; i++) {
                const UnitStats *u = &s->units[i];
                unsigned x, n, wx, wn;
                known_counts(u, &x, &n);
                worst_counts(u, &wx, &wn);
                /* without --unit, only failures decide: a unit merely unknown in some boots is not judged */
                if (!o->units && x == 0)
                        continue;
                judged++;
                if (n == 0) {
                        *fail = true;
                        r = append(&rep->verdict_text, "; ", "%s: NO EVIDENCE in %u boots", u->unit,
                                   s->boots_in_journal);
                        continue;
                }
                if (o->below > 0) {
                        /* a bound to show: the worst case is the conservative side */
                        const char *wc = wx != x || wn != n ? ", worst case" : "";
                        if (u->shown_below)
                                r = append(&rep->verdict_text, "; ", "%s: BELOW %s (%u/%u%s, one-sided upper %s)",
                                           u->unit, pct(b1, o->below), wx, wn, wc,
                                           pct(b2, stats_cp_upper_one_sided(wx, wn, o->alpha)));
                        else {
                                *fail = true;
                                r = append(&rep->verdict_text, "; ", "%s: NOT SHOWN BELOW %s (%u/%u%s, one-sided "
                                           "upper %s", u->unit, pct(b1, o->below), wx, wn, wc,
                                           pct(b2, stats_cp_upper_one_sided(wx, wn, o->alpha)));
                                if (r >= 0 && u->boots_needed > 0)
                                        r = append(&rep->verdict_text, "", "; %lld more clean boots needed)",
                                                   u->boots_needed);
                                else if (r >= 0)
                                        r = append(&rep->verdict_text, "", "; out of reach with clean boots)");
                        }
                        continue;
                }
                if (x > 0) {
                        *fail = true;
                        r = append(&rep->verdict_text, "; ", "%s: FAILED in %u of %u boots (%s, 95 %% CI %.1f-%.1f %%",
                                   u->unit, x, n, pct(b1, (double) x / n), u->ci_low * 100, u->ci_high * 100);
                        if (r >= 0)
                                r = append_worst(&rep->verdict_text, u);
                        if (r >= 0)
                                r = append(&rep->verdict_text, "", ")");
                        if (r >= 0)
                                r = machines_note(rep, s, i);
                } else {
                        double up = stats_cp_upper_one_sided(0, n, o->alpha);
                        r = append(&rep->verdict_text, "; ", "%s: NO FAILURES in %u boots", u->unit, n);
                        if (r >= 0 && wx > 0)
                                r = append(&rep->verdict_text, "", " with a known outcome (worst case %u of %u)",
                                           wx, wn);
                        if (r >= 0 && up >= STATS_THIN_DEFAULT)
                                r = append(&rep->verdict_text, "", " but UNDER-POWERED: the rate can still be up "
                                           "to %s", pct(b1, up));
                }
        }
        if (r >= 0 && judged == 0)
                r = append(&rep->verdict_text, "", "NO FAILURES: no unit failed or was left unrun in %u boots",
                           s->boots_in_journal);
        return r;
}

int stats_report_judge(StatsReport *rep) {
        bool fail = false;
        int r;

        r = criterion(rep);
        if (r < 0)
                return r;
        if (rep->has_baseline) {
                r = compare(rep);
                if (r >= 0)
                        r = verdict_baseline(rep, &fail);
        } else
                r = verdict_single(rep, &fail);
        if (r < 0)
                return r;
        if (rep->sample.boots_missing > 0 || (rep->has_baseline && rep->baseline.boots_missing > 0))
                r = append(&rep->verdict_text, "; ", "boots missing from the journal: %u%s",
                           rep->sample.boots_missing + rep->baseline.boots_missing,
                           " (counted as failed in the worst case)");
        if (r < 0)
                return r;
        rep->verdict = fail ? VERDICT_FAIL : VERDICT_PASS;
        return 0;
}
