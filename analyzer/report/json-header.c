/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"
#include "report/json-header.h"

void report_json_begin(JsonWriter *w, const char *tool_version) {
        json_begin_object(w);
        json_kv_string(w, "tool", "bootrace");
        json_kv_string(w, "version", tool_version ?: PACKAGE_VERSION);
}
