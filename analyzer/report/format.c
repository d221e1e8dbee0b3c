/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "report/format.h"

static const char * const output_format_table[_FORMAT_MAX] = {
        [FORMAT_TEXT] = "text",   [FORMAT_JSON] = "json",         [FORMAT_SARIF] = "sarif",
        [FORMAT_JUNIT] = "junit", [FORMAT_MARKDOWN] = "markdown", [FORMAT_DOT] = "dot",
};

const char *output_format_to_string(OutputFormat f) {
        return f >= 0 && f < _FORMAT_MAX ? output_format_table[f] : NULL;
}

OutputFormat output_format_from_string(const char *s) {
        return (OutputFormat) string_table_lookup(output_format_table, _FORMAT_MAX, s);
}
