/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/severity.h"

static const char * const severity_table[_SEVERITY_MAX] = {
        [SEVERITY_ERROR] = "error",
        [SEVERITY_WARNING] = "warning",
        [SEVERITY_INFO] = "info",
};

const char *severity_to_string(Severity s) {
        return s >= 0 && s < _SEVERITY_MAX ? severity_table[s] : NULL;
}

Severity severity_from_string(const char *s) {
        return (Severity) string_table_lookup(severity_table, _SEVERITY_MAX, s);
}
