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
} ReportMeta;

/* With --nearest-model out of range (version_choice_nearest(c)): the JSON member "nearest_model": {"asked",
 * "judged", "oldest", "newest", "from"} into the object w is writing; nothing otherwise. Every verb's JSON uses it. */
void report_json_nearest_model(JsonWriter *w, const VersionChoice *c);

int report_text(const FindingList *l, const ReportMeta *m, FILE *f);
int report_json(const FindingList *l, const ReportMeta *m, FILE *f);
int report_sarif(const FindingList *l, const ReportMeta *m, FILE *f);
int report_junit(const FindingList *l, const ReportMeta *m, FILE *f);
