/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Whether systemd takes a calendar specification (OnCalendar=, syntax="calendar" in rules/unit-keys.xml): the
 * grammar and the checks of calendar_spec_from_string() (src/shared/calendarspec.c@v247..v261, unchanged in what
 * it accepts; the version fact calendar-spec-parse): weekdays, a date, a time, "@EPOCH", the shorthands (daily,
 * weekly, ...), components with ranges (..), repetitions (/) and lists (,), "~" for the end of the month, and a
 * time zone at the end. */

#include "rules/features.h"

typedef enum CalendarVerdict {
        CALENDAR_OK,
        CALENDAR_BAD,     /* "Failed to parse calendar specification, ignoring" */
        CALENDAR_UNKNOWN, /* not judged: a time zone only the tree's zoneinfo knows, specifiers, an older version */
} CalendarVerdict;

/* Judges value for the version of fs. expanded: its specifiers are expanded already; else a value with
 * specifiers is judged by what comes before the first of them, when that alone fails. A last word that may be a
 * time zone name (and is not UTC) leaves a value that is good without it unknown: systemd looks it up in the
 * tree's /usr/share/zoneinfo. *ret_why (optional) says why not. */
CalendarVerdict calendar_spec_judge(const char *value, bool expanded, const FeatureSet *fs, const char **ret_why);
