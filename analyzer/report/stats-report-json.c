/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stats --format=json. The field names are a contract (DESIGN.md, bootrace(1) "JSON OUTPUT OF STATS"). */

#include <math.h>

#include "config.h"
#include "basic/json.h"
#include "journal/race-evidence.h"
#include "journal/stats-math.h"
#include "report/json-header.h"
#include "report/stats-report.h"

static void interval(JsonWriter *w, const char *key, double lo, double hi) {
        json_key(w, key);
        json_begin_array(w);
        json_double(w, lo);
        json_double(w, hi);
        json_end_array(w);
}

/* "worst_case": the unit's counts with every boot of unknown outcome counted as a failure */
static void worst_case(JsonWriter *w, const UnitStats *u) {
        json_key(w, "worst_case");
        json_begin_object(w);
        json_kv_uint(w, "failures", u->worst_failures);
        json_kv_uint(w, "boots", u->worst_boots);
        json_kv_double(w, "rate", u->worst_rate);
        interval(w, "ci95", u->worst_ci_low, u->worst_ci_high);
        json_end_object(w);
}

static void kv_usec(JsonWriter *w, const char *key, uint64_t usec) {
        json_key(w, key);
        if (usec)
                json_uint(w, usec);
        else
                json_null(w);
}

static int boots(JsonWriter *w, const StatsSample *s) {
        const BootAnalysis *a = s->analysis;

        json_key(w, "boots");
        json_begin_array(w);
        for (size_t b = 0; b < a->n_boots; b++) {
                const BootInfo *bi = &a->boots[b];
                _cleanup_(freep) char *why = NULL;
                int r = stats_boot_incomplete(bi, &why);
                if (r < 0)
                        return r;
                json_begin_object(w);
                json_kv_uint(w, "index", b + 1);
                json_kv_string(w, "id", bi->id);
                json_kv_string(w, "machine_id", s->source->boots[s->boot_map[b]].machine_id[0] ?
                                                        s->source->boots[s->boot_map[b]].machine_id : NULL);
                json_kv_string(w, "hostname", s->source->boots[s->boot_map[b]].hostname);
                kv_usec(w, "first_realtime_usec", bi->first_realtime);
                kv_usec(w, "last_realtime_usec", bi->last_realtime);
                json_kv_uint(w, "entries", bi->n_entries);
                json_kv_bool(w, "startup_finished", bi->startup_finished);
                json_kv_bool(w, "flushed", bi->flushed);
                json_kv_bool(w, "clean_end", bi->journal_stopped);
                json_kv_bool(w, "current", bi->current);
                json_kv_string(w, "incomplete", why);
                json_kv_string(w, "systemd", bi->manager_version);
                json_kv_string(w, "kernel", bi->kernel);
                json_key(w, "cycles");
                json_begin_array(w);
                for (size_t c = 0; c < bi->n_cycles; c++) {
                        const Cycle *cy = &bi->cycles[c];
                        json_begin_object(w);
                        json_kv_string(w, "start", cy->start);
                        json_kv_strv(w, "deleted", cy->deleted);
                        json_kv_strv(w, "units", cy->units);
                        json_kv_bool(w, "unfixable", cy->unfixable);
                        json_kv_strv(w, "lines", cy->lines);
                        json_end_object(w);
                }
                json_end_array(w);
                json_end_object(w);
        }
        json_end_array(w);
        return 0;
}

static int race(JsonWriter *w, const BootAnalysis *a, size_t u, size_t b, const char * const *anchors) {
        _cleanup_(race_evidence_done) RaceEvidence e = {};
        int r;

        r = race_evidence_build(a, u, b, anchors, &e);
        if (r < 0)
                return r;
        json_key(w, "race");
        json_begin_object(w);
        json_kv_string(w, "start_kind", e.start_kind);
        kv_usec(w, "start_usec", e.start_usec);
        kv_usec(w, "end_usec", e.end_usec);
        json_kv_string(w, "summary", e.summary);
        json_key(w, "marks");
        json_begin_array(w);
        for (size_t i = 0; i < e.n_marks; i++) {
                json_begin_object(w);
                json_kv_string(w, "unit", e.marks[i].unit);
                json_kv_string(w, "what", e.marks[i].what);
                kv_usec(w, "usec", e.marks[i].usec);
                json_key(w, "delta_usec");
                if (e.marks[i].has_delta)
                        json_int(w, e.marks[i].delta_usec);
                else
                        json_null(w);
                json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
        return 0;
}

static int per_boot(JsonWriter *w, const StatsReport *rep, const StatsSample *s, const UnitStats *u) {
        const BootAnalysis *a = s->analysis;
        const char * const *anchors = rep->options->anchors ? (const char * const *) rep->options->anchors :
                                                              stats_default_anchors;
        int r;

        json_key(w, "per_boot");
        json_begin_array(w);
        for (size_t b = 0; b < a->n_boots; b++) {
                const UnitBoot *ub = u->index >= 0 ? &a->units[u->index].boots[b] : &(UnitBoot) {};
                json_begin_object(w);
                json_kv_uint(w, "boot", b + 1);
                json_kv_string(w, "id", a->boots[b].id);
                json_kv_string(w, "outcome", outcome_to_string(ub->outcome));
                json_kv_string(w, "result", ub->result);
                json_kv_string(w, "exit_status", ub->exit_status);
                json_key(w, "evidence");
                json_begin_array(w);
                for (JournalOrigin o = 0; o < _JOURNAL_ORIGIN_MAX; o++)
                        if (ub->evidence & EVIDENCE_BIT(o))
                                json_string(w, journal_origin_to_string(o));
                json_end_array(w);
                json_kv_strv(w, "signatures", ub->signatures);
                json_kv_strv(w, "lines", ub->lines);
                json_kv_bool(w, "in_cycle", ub->in_cycle);
                json_kv_bool(w, "deleted_by_cycle", ub->deleted);
                json_kv_uint(w, "restarts", ub->restarts);
                kv_usec(w, "start_usec", ub->start_usec);
                kv_usec(w, "active_usec", ub->active_usec);
                kv_usec(w, "end_usec", ub->end_usec);
                if (u->index >= 0 && outcome_is_failure(ub->outcome, rep->options->not_run_is_failure) &&
                    (r = race(w, a, (size_t) u->index, b, anchors)) < 0)
                        return r;
                json_end_object(w);
        }
        json_end_array(w);
        return 0;
}

/* A unit's name and how its boots ended: the first keys of both the unit and the per-machine objects. */
static void outcome_counts(JsonWriter *w, const UnitStats *u) {
        json_kv_string(w, "unit", u->unit);
        json_kv_uint(w, "boots", u->boots);
        json_kv_uint(w, "succeeded", u->succeeded);
        json_kv_uint(w, "failed", u->failed);
        json_kv_uint(w, "skipped", u->skipped);
        json_kv_uint(w, "not_run", u->not_run);
        json_kv_uint(w, "unknown", u->unknown);
        json_kv_uint(w, "failures", u->failures);
}

/* The counts, rates and intervals of a unit (also of a unit on one machine). */
static void unit_counts(JsonWriter *w, const UnitStats *u) {
        outcome_counts(w, u);
        json_kv_double(w, "rate", u->rate);
        interval(w, "ci95", u->ci_low, u->ci_high);
        interval(w, "wilson95", u->wilson_low, u->wilson_high);
        json_kv_double(w, "upper95_one_sided", u->upper_one_sided);
}

/* --by=machine: each machine with its units, each against the rest of the fleet */
static void machines(JsonWriter *w, const StatsReport *rep, const StatsSample *s) {
        json_key(w, "machines");
        if (!rep->options->by_machine) {
                json_null(w);
                return;
        }
        json_begin_array(w);
        for (size_t m = 0; m < s->n_machines; m++) {
                const MachineStats *ms = &s->machines[m];
                json_begin_object(w);
                json_kv_string(w, "machine_id", ms->machine_id[0] ? ms->machine_id : NULL);
                json_kv_string(w, "hostname", ms->hostname);
                json_kv_strv(w, "hostnames", ms->hostnames);
                json_kv_uint(w, "boots_in_journal", ms->boots_in_journal);
                json_kv_uint(w, "boots_incomplete", ms->boots_incomplete);
                json_key(w, "boots");
                json_begin_array(w);
                for (size_t b = 0; b < s->analysis->n_boots; b++)
                        if (s->boot_machine[b] == m)
                                json_uint(w, b + 1);
                json_end_array(w);
                json_key(w, "units");
                json_begin_array(w);
                for (size_t i = 0; i < s->n_units; i++) {
                        const UnitStats *u = &ms->units[i];
                        json_begin_object(w);
                        unit_counts(w, u);
                        json_kv_double(w, "p_value_vs_rest", u->p_vs_rest);
                        json_kv_double(w, "p_value_vs_rest_holm", u->p_vs_rest_holm);
                        json_kv_string(w, "deviates", u->deviates > 0 ? "higher" : u->deviates < 0 ? "lower" : NULL);
                        json_end_object(w);
                }
                json_end_array(w);
                json_end_object(w);
        }
        json_end_array(w);
}

static int unit(JsonWriter *w, const StatsReport *rep, const StatsSample *s, const UnitStats *u) {
        json_begin_object(w);
        outcome_counts(w, u);
        json_kv_uint(w, "cycles", u->cycles);
        json_key(w, "results");
        json_begin_object(w);
        for (size_t i = 0; i < u->n_results; i++)
                json_kv_uint(w, u->results[i].result, u->results[i].count);
        json_end_object(w);
        json_kv_double(w, "rate", u->rate);
        interval(w, "ci95", u->ci_low, u->ci_high);
        interval(w, "wilson95", u->wilson_low, u->wilson_high);
        json_kv_double(w, "upper95_one_sided", u->upper_one_sided);
        if (u->has_worst)
                worst_case(w, u);
        if (rep->options->below > 0) {
                json_kv_bool(w, "shown_below", u->shown_below);
                json_key(w, "boots_needed");
                if (u->boots_needed >= 0)
                        json_int(w, u->boots_needed);
                else
                        json_null(w);
                json_key(w, "boots_needed_total");
                if (u->boots_needed_total >= 0)
                        json_int(w, u->boots_needed_total);
                else
                        json_null(w);
        }
        if (rep->options->by_machine) {
                json_kv_uint(w, "machines", u->machines);
                json_kv_uint(w, "machines_failing", u->machines_failing);
                json_kv_uint(w, "machines_deviating", u->machines_deviating);
        }
        int r = per_boot(w, rep, s, u);
        json_end_object(w);
        return r;
}

static int sample(JsonWriter *w, const StatsReport *rep, const char *key, const StatsSample *s) {
        int r;

        json_key(w, key);
        json_begin_object(w);
        json_kv_string(w, "label", s->label);
        json_kv_string(w, "source", s->source->description);
        json_kv_string(w, "package", s == &rep->baseline ? rep->options->baseline_label : rep->options->label);
        json_kv_uint(w, "boots_in_journal", s->boots_in_journal);
        json_key(w, "boots_started");
        if (s->boots_started)
                json_uint(w, s->boots_started);
        else
                json_null(w);
        json_kv_uint(w, "boots_missing", s->boots_missing);
        json_kv_uint(w, "boots_incomplete", s->boots_incomplete);
        json_kv_uint(w, "read_errors", s->source->n_errors);
        json_kv_strv(w, "systemd", s->systemd_versions);
        json_kv_strv(w, "kernels", s->kernels);
        json_kv_uint(w, "cycles", s->n_cycles);
        json_key(w, "signatures");
        json_begin_array(w);
        for (size_t i = 0; i < s->n_signatures; i++) {
                json_begin_object(w);
                json_kv_string(w, "signature", s->signatures[i].signature);
                json_kv_uint(w, "unit_boots", s->signatures[i].unit_boots);
                json_kv_strv(w, "units", s->signatures[i].units);
                json_end_object(w);
        }
        json_end_array(w);
        if ((r = boots(w, s)) < 0)
                return r;
        json_key(w, "units");
        json_begin_array(w);
        for (size_t i = 0; i < s->n_units; i++)
                if ((r = unit(w, rep, s, &s->units[i])) < 0)
                        return r;
        json_end_array(w);
        json_kv_string(w, "by", rep->options->by_machine ? "machine" : "boot");
        machines(w, rep, s);
        json_end_object(w);
        return 0;
}

static void counts(JsonWriter *w, const char *key, const UnitStats *u, unsigned x, unsigned n, double alpha) {
        double lo = 0, hi = 1;

        json_key(w, key);
        if (!u) {
                json_null(w);
                return;
        }
        (void) stats_clopper_pearson(x, n, alpha, &lo, &hi);
        json_begin_object(w);
        json_kv_uint(w, "failures", x);
        json_kv_uint(w, "boots", n);
        json_kv_double(w, "rate", n ? (double) x / n : NAN);
        interval(w, "ci95", lo, hi);
        if (u->has_worst)
                worst_case(w, u);
        else {
                json_key(w, "worst_case");
                json_null(w);
        }
        json_end_object(w);
}

int stats_report_json(const StatsReport *rep, FILE *f) {
        const StatsOptions *o = rep->options;
        JsonWriter w;
        int r;

        json_init(&w, f, true);
        report_json_begin(&w, NULL);
        json_kv_double(&w, "confidence", 1 - o->alpha);
        json_kv_string(&w, "interval", "clopper-pearson");
        json_kv_string(&w, "test", "fisher-exact-two-sided");
        json_kv_string(&w, "criterion", rep->criterion);
        json_kv_bool(&w, "not_run_is_failure", o->not_run_is_failure);
        json_kv_bool(&w, "cycle_is_failure", o->cycle_is_failure);
        json_kv_strv(&w, "output_signatures", o->output_signatures);
        json_key(&w, "below");
        if (o->below > 0)
                json_double(&w, o->below);
        else
                json_null(&w);
        if ((r = sample(&w, rep, "sample", &rep->sample)) < 0)
                return r;
        if (rep->has_baseline) {
                if ((r = sample(&w, rep, "baseline", &rep->baseline)) < 0)
                        return r;
                json_key(&w, "comparisons");
                json_begin_array(&w);
                for (size_t i = 0; i < rep->n_comparisons; i++) {
                        const Comparison *c = &rep->comparisons[i];
                        json_begin_object(&w);
                        json_kv_string(&w, "unit", c->unit);
                        counts(&w, "before", c->before, c->before_failures, c->before_boots, o->alpha);
                        counts(&w, "after", c->after, c->after_failures, c->after_boots, o->alpha);
                        json_kv_bool(&w, "worst_case", c->worst_case);
                        json_kv_double(&w, "p_value", c->p_value);
                        json_kv_double(&w, "p_value_one_sided", c->p_value_one_sided);
                        json_kv_double(&w, "p_value_holm", c->p_value_holm);
                        json_kv_double(&w, "below", c->below);
                        json_key(&w, "boots_needed");
                        if (c->boots_needed >= 0)
                                json_int(&w, c->boots_needed);
                        else
                                json_null(&w);
                        json_kv_string(&w, "verdict", comparison_verdict_to_string(c->verdict));
                        json_kv_bool(&w, "improved_known_only", c->improved_known_only);
                        json_kv_bool(&w, "decides", c->decides);
                        json_kv_bool(&w, "under_powered", c->thin);
                        json_end_object(&w);
                }
                json_end_array(&w);
        }
        json_key(&w, "verdict");
        json_begin_object(&w);
        json_kv_string(&w, "result", rep->verdict == VERDICT_PASS ? "pass" : "fail");
        json_kv_string(&w, "text", rep->verdict_text);
        json_end_object(&w);
        json_end_object(&w);
        json_finish(&w);
        return ferror(f) ? -EIO : 0;
}
