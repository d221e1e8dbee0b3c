/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Writers for a judged StatsReport: text, JSON (the contract in DESIGN.md and bootrace(1)), markdown (an SRU
 * verification block), JUnit XML (one testcase per unit per boot), and the per-boot outcome table. Each returns
 * 0 or -errno (-EIO when writing failed). */

#include "journal/stats-sample.h"

int stats_report_text(const StatsReport *r, FILE *f);
int stats_report_outcomes(const StatsReport *r, FILE *f);
int stats_report_json(const StatsReport *r, FILE *f);
int stats_report_markdown(const StatsReport *r, FILE *f);
int stats_report_junit(const StatsReport *r, FILE *f);

/* Helpers shared by the writers */
const char *stats_fmt_pct(char buf[static 32], double v); /* "57.6 %", "n/a" for NAN */
const char *stats_fmt_usec(char buf[static 32], uint64_t usec); /* "10.048s", "-" for 0 */
/* "succeeded", or "failed (exit-code, status=1/FAILURE)" */
int stats_fmt_unit_boot(const UnitBoot *ub, char **ret);
