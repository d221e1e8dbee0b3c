/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* How verbs show an edge's origin: one line of text, or a JSON object (a contract: see bootrace(1)). */

#include <stdio.h>

#include "basic/json.h"
#include "model/graph.h"

/* "file /etc/x.service:3", "exec private-tmp-tmpfiles (systemd 252)",
 * "mounts-for /var/tmp (private-tmp-tmp-mount)", ... Returns NULL on OOM; caller frees. */
char *origin_to_text(const Origin *o);
/* the same text, written to f (no allocation: for the many edges of a graph) */
void origin_print_text(FILE *f, const Origin *o);
/* {"kind":..., "systemd":..., "file":..., "line":..., "rule":..., "class":..., ...} */
void origin_to_json(JsonWriter *w, const Origin *o);
