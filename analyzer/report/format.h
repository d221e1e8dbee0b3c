/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The output formats of the reports (--format=). */

#include "basic/util.h"

typedef enum OutputFormat {
        FORMAT_TEXT,
        FORMAT_JSON,
        FORMAT_SARIF,
        FORMAT_JUNIT,
        FORMAT_MARKDOWN,
        FORMAT_DOT,
        _FORMAT_MAX,
        _FORMAT_INVALID = -EINVAL,
} OutputFormat;

const char *output_format_to_string(OutputFormat f);
OutputFormat output_format_from_string(const char *s);
