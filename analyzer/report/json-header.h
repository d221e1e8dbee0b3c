/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What every JSON report starts with, written in one place. */

#include "basic/json.h"

/* Opens the report's object and writes the members every report begins with: "tool" ("bootrace") and
 * "version" (tool_version, or PACKAGE_VERSION when NULL). The caller writes the rest and closes the object. */
void report_json_begin(JsonWriter *w, const char *tool_version);
