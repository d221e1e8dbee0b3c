/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Writing findings: text (file:line: severity: [check] message + indented evidence), JSON (DESIGN.md's
 * contract), SARIF 2.1.0 and JUnit XML (libxml2). Each returns 0 or -errno; nothing else is printed. */

#include <stdio.h>

#include "lint/finding.h"
#include "load/package.h"
#include "load/tmpfiles.h"
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
} ReportMeta;

int report_text(const FindingList *l, const ReportMeta *m, FILE *f);
int report_json(const FindingList *l, const ReportMeta *m, FILE *f);
int report_sarif(const FindingList *l, const ReportMeta *m, FILE *f);
int report_junit(const FindingList *l, const ReportMeta *m, FILE *f);
