/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Writing findings: text (file:line: severity: [check] message + indented evidence), JSON (DESIGN.md's
 * contract), SARIF 2.1.0 and JUnit XML (libxml2). Each returns 0 or -errno; nothing else is printed. */

#include <stdio.h>

#include "basic/json.h"
#include "lint/finding.h"
#include "load/package.h"
#include "load/version.h"
#include "load/tmpfiles.h"
#include "report/format.h"
#include "rules/rules.h"

typedef struct ReportMeta {
        const char *tool_version;
        unsigned systemd;
        const char *target;   /* NULL when the version was not chosen by --target */
        const Rules *rules;   /* titles, explanations and references of the checks */
        char **units;         /* every unit that was linted (clean ones appear as passing JUnit cases) */
        bool color;
        bool quiet;           /* text: no summary line */
        const PackageSet *packages;  /* JSON: the packages read (NULL: none) */
        const TmpfilesList *tmpfiles; /* JSON: their and the root's tmpfiles.d lines (NULL: none) */
        const VersionChoice *version_choice; /* with --nearest-model out of range: the version asked for (or NULL) */
        const char *nearest_note;            /* then the line that says so (version_choice_note()), else NULL */
        const Profile *profile;       /* the target's profile the units were judged with (NULL: none) */
        /* what could not be judged (units that did not load, unreadable packages, errors said on stderr): JSON
         * "errors", SARIF invocations[].toolExecutionNotifications, JUnit <error> cases; NULL: none */
        const DiagList *errors;
} ReportMeta;

/* One target's findings and metadata, for reports over several targets (lint --target=A --target=B). */
typedef struct ReportRun {
        const FindingList *findings;
        const ReportMeta *meta;
} ReportRun;

/* With --nearest-model out of range (version_choice_nearest(c)): the JSON member "nearest_model": {"asked",
 * "judged", "oldest", "newest", "from"} into the object w is writing; nothing otherwise. Every verb's JSON uses it. */
void report_json_nearest_model(JsonWriter *w, const VersionChoice *c);

int report_text(const FindingList *l, const ReportMeta *m, FILE *f);
int report_json(const FindingList *l, const ReportMeta *m, FILE *f);
int report_sarif(const FindingList *l, const ReportMeta *m, FILE *f);
int report_junit(const FindingList *l, const ReportMeta *m, FILE *f);

/* The lint report in format over n runs: with one, exactly the report_*() of it; with several, text blocks
 * each under a "== TARGET (systemd N) ==" line, one JSON object with "targets" (one object per run, as the
 * one-run object without "tool" and "version"), one SARIF run each, one JUnit testsuite each. */
int report_lint(OutputFormat format, const ReportRun *runs, size_t n, FILE *f);
/* The same pieces, for report_lint(): */
void report_json_run(JsonWriter *w, const FindingList *l, const ReportMeta *m);
void report_sarif_run(JsonWriter *w, const FindingList *l, const ReportMeta *m);
int report_sarif_runs(const ReportRun *runs, size_t n, FILE *f);
int report_junit_runs(const ReportRun *runs, size_t n, FILE *f);
