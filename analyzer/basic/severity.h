/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* How serious a finding is; shared by the checks' rules (their default), findings and --fail-on. */

#include "basic/util.h"

typedef enum Severity {
        SEVERITY_ERROR,
        SEVERITY_WARNING,
        SEVERITY_INFO,
        _SEVERITY_MAX,
        _SEVERITY_INVALID = -EINVAL,
} Severity;

const char *severity_to_string(Severity s);
Severity severity_from_string(const char *s);
