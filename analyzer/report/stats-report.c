/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>

#include "report/stats-report.h"

const char *stats_fmt_pct(char buf[static 32], double v) {
        if (isnan(v))
                return "n/a";
        snprintf(buf, 32, "%.1f %%", v * 100);
        return buf;
}

const char *stats_fmt_usec(char buf[static 32], uint64_t usec) {
        if (usec == 0)
                return "-";
        snprintf(buf, 32, "%llu.%06llus", (unsigned long long) (usec / 1000000),
                 (unsigned long long) (usec % 1000000));
        return buf;
}

int stats_fmt_unit_boot(const UnitBoot *ub, char **ret) {
        const char *o = outcome_to_string(ub->outcome);

        if (!ub->result && !ub->exit_status)
                return (*ret = strdup(o)) ? 0 : -ENOMEM;
        if (ub->result && ub->exit_status && ub->outcome == OUTCOME_FAILED)
                return asprintf_safe(ret, "%s (%s, status=%s)", o, ub->result, ub->exit_status) < 0 ? -ENOMEM : 0;
        return asprintf_safe(ret, "%s (%s)", o, ub->result ?: "") < 0 ? -ENOMEM : 0;
}

/* The per-boot outcome table (--outcomes): one tab-separated line per unit and boot, for scripts. */
static void outcomes_sample(const StatsSample *s, FILE *f) {
        const BootAnalysis *a = s->analysis;

        for (size_t i = 0; i < s->n_units; i++) {
                const UnitStats *u = &s->units[i];
                for (size_t b = 0; b < a->n_boots; b++) {
                        const UnitBoot *ub = u->index >= 0 ? &a->units[u->index].boots[b] : &(UnitBoot) {};
                        fprintf(f, "%s\t%zu\t%s\t%s\t%s\t%s\t%s\t", s->label, b + 1, a->boots[b].id, u->unit,
                                outcome_to_string(ub->outcome), ub->result ?: "-", ub->exit_status ?: "-");
                        if (!ub->evidence)
                                fputc('-', f);
                        for (JournalOrigin o = 0, first = 1; o < _JOURNAL_ORIGIN_MAX; o++)
                                if (ub->evidence & EVIDENCE_BIT(o)) {
                                        fprintf(f, "%s%s", first ? "" : ",", journal_origin_to_string(o));
                                        first = 0;
                                }
                        fprintf(f, "\t%s\n", ub->in_cycle ? (ub->deleted ? "cycle,deleted" : "cycle") : "-");
                }
        }
}

int stats_report_outcomes(const StatsReport *r, FILE *f) {
        fputs("# sample\tboot\tboot_id\tunit\toutcome\tresult\texit_status\tevidence\tcycle\n", f);
        if (r->has_baseline)
                outcomes_sample(&r->baseline, f);
        outcomes_sample(&r->sample, f);
        return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
