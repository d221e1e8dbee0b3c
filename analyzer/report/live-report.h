/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Reports over what a running systemd holds: `show --live` (units), `graph --live` (typed edges) and the
 * critical chain (`chain`), as text, JSON (and DOT for the graph). The JSON fields are documented in
 * bootrace(1). */

#include "basic/json.h"
#include "live/live-chain.h"
#include "live/live.h"
#include "report/format.h"

/* The header of every live JSON report: "tool", "version", "source": "live", "systemd" (the manager's
 * Version), "virtualization". Leaves the object open. */
void live_report_json_begin(JsonWriter *w, const LiveSystem *s);

void live_report_units_text(const LiveSystem *s, LiveUnit * const *units, size_t n, FILE *f);
void live_report_units_json(const LiveSystem *s, LiveUnit * const *units, size_t n, const DiagList *diags,
                            FILE *f);

/* The typed edges (live_graph_edges()) of every loaded unit, or of the n units named (any of their names).
 * format: text, json or dot. Returns 0 or -ENOMEM. */
int live_report_graph(const LiveSystem *s, const char *const *units, size_t n, OutputFormat format, FILE *f);

/* The chain as systemd-analyze critical-chain prints it (colour: the units that took time, in red; the tree
 * in box-drawing characters unless the locale is set and not UTF-8, as systemd does). */
void live_report_chain_text(const LiveChain *c, bool color, FILE *f);
void live_report_chain_json(const LiveSystem *s, const LiveChain *c, FILE *f);
