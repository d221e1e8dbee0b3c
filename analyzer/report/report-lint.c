/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lint report over one or several targets, in each format. */

#include "report/json-header.h"
#include "report/report.h"

static int text_runs(const ReportRun *runs, size_t n, FILE *f) {
        for (size_t i = 0; i < n; i++) {
                const ReportMeta *m = runs[i].meta;
                int r;

                if (n > 1)
                        fprintf(f, "%s== %s (systemd %u) ==\n", i > 0 ? "\n" : "", m->target ?: "-", m->systemd);
                r = report_text(runs[i].findings, m, f);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int json_runs(const ReportRun *runs, size_t n, FILE *f) {
        JsonWriter w;

        json_init(&w, f, false);
        report_json_begin(&w, runs[0].meta->tool_version);
        json_key(&w, "targets");
        json_begin_array(&w);
        for (size_t i = 0; i < n; i++) {
                json_begin_object(&w);
                report_json_run(&w, runs[i].findings, runs[i].meta);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
        return ferror(f) ? -EIO : 0;
}

int report_lint(OutputFormat format, const ReportRun *runs, size_t n, FILE *f) {
        if (n == 0)
                return -EINVAL;
        switch (format) {
        case FORMAT_JSON:
                return n == 1 ? report_json(runs[0].findings, runs[0].meta, f) : json_runs(runs, n, f);
        case FORMAT_SARIF:
                return report_sarif_runs(runs, n, f);
        case FORMAT_JUNIT:
                return report_junit_runs(runs, n, f);
        default:
                return text_runs(runs, n, f);
        }
}
