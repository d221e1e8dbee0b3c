/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* calendar_spec_judge(): the calendar specifications systemd's calendar_spec_from_string() takes and refuses.
 * fixtures/show/calendar-specs holds 106 of them that t6000 checks against the real systemd-analyze verify of
 * the lab trees; here the parts of the grammar one at a time, the limits (years, lists, @EPOCH), values with
 * specifiers and the time zones bootrace leaves unjudged. */

#include "features.h"
#include "load/calendar-spec.h"
#include "tap.h"

typedef struct Case {
        const char *value;
        CalendarVerdict want;
} Case;

static const char *verdict_name(CalendarVerdict v) {
        return v == CALENDAR_OK ? "ok" : v == CALENDAR_BAD ? "bad" : "unknown";
}

static void check_at(unsigned version, const Case *c, bool expanded) {
        const char *why = NULL;
        CalendarVerdict got = calendar_spec_judge(c->value, expanded, test_features(version), &why);

        tap_ok(got == c->want, "OnCalendar=%.50s%s at %u: %s (wanted %s)%s%s", c->value,
               strlen(c->value) > 50 ? "..." : "", version, verdict_name(got), verdict_name(c->want), why ? ": " : "",
               strempty(why));
        tap_ok((got == CALENDAR_BAD) == (why != NULL), "OnCalendar=%.40s: a reason exactly when refused", c->value);
}

static void check_all(const Case *cases, size_t n, unsigned version) {
        for (size_t i = 0; i < n; i++)
                check_at(version, &cases[i], false);
}

static void test_grammar(void) {
        static const Case cases[] = {
                { "daily", CALENDAR_OK },
                { "Semi-Annually", CALENDAR_OK },
                { "fortnightly", CALENDAR_BAD },
                { "Mon..Fri", CALENDAR_OK },
                { "Fri..Mon", CALENDAR_BAD },
                { "Mon..", CALENDAR_BAD },
                { "Mo", CALENDAR_BAD },
                { "Thu,Fri 2012-*-1,5 11:12:13", CALENDAR_OK },
                { "12:00", CALENDAR_OK },
                { "12", CALENDAR_BAD },
                { "24:00", CALENDAR_BAD },
                { "23:59:59.999999", CALENDAR_OK },
                { "*:*:0..0.5", CALENDAR_BAD },
                { "*-02~29", CALENDAR_BAD }, /* more than 28 days from the end of the month */
                { "*-02~28", CALENDAR_OK },
                { "*:0/0", CALENDAR_BAD },
                { "23..0:00", CALENDAR_BAD },
                { "2023-10-10T10:00", CALENDAR_BAD },
                { " daily", CALENDAR_BAD },
        };
        check_all(cases, ELEMENTSOF(cases), 252);
}

static void test_limits(void) {
        static const Case cases[] = {
                { "2199-12-31", CALENDAR_OK },
                { "2200-01-01", CALENDAR_BAD },
                { "69-01-01", CALENDAR_OK }, /* 2069 */
                { "1969-12-31", CALENDAR_BAD },
                { "*-31/2147483640", CALENDAR_BAD },
                { "*-*-1/2147483647", CALENDAR_BAD },
                { "@7258118399", CALENDAR_OK },
                { "@7258118400", CALENDAR_BAD },
                { "@88588582097858858", CALENDAR_BAD },
                { "@12x", CALENDAR_BAD },
                { "@1500000000 UTC", CALENDAR_OK },
        };
        check_all(cases, ELEMENTSOF(cases), 247);
        check_all(cases, ELEMENTSOF(cases), 262);
        {
                /* a list of 241 values is the most: prepend_component()'s depth */
                char list[1200] = "*:", *p = list + 2;
                for (int i = 0; i < 242; i++)
                        p += sprintf(p, "%s%d", i ? "," : "", i % 60);
                check_at(257, &(Case) { list, CALENDAR_BAD }, false);
                *strrchr(list, ',') = 0;
                check_at(257, &(Case) { list, CALENDAR_OK }, false);
        }
}

static void test_specifiers_and_zones(void) {
        static const Case cases[] = {
                /* what comes before the first specifier fails whatever follows */
                { ".[ H%LH%L%H", CALENDAR_BAD },
                { "CH%L%H%L", CALENDAR_BAD },
                /* it may still become good */
                { "*-*-%i 12:00", CALENDAR_UNKNOWN },
                /* the end of it may be a time zone, stripped before parsing; what fails before it stays bad */
                { "Mon 12:00 %H", CALENDAR_UNKNOWN },
                { "Mon 1x:00 %H", CALENDAR_BAD },
                /* time zones: UTC bootrace knows; another name only the tree's zoneinfo does */
                { "12:00 UTC", CALENDAR_OK },
                { "12:00 utc", CALENDAR_OK },
                { "Mon 12:00 Europe/Berlin", CALENDAR_UNKNOWN },
                { "Mon,  Tue", CALENDAR_UNKNOWN },
                { "12:00 ,x", CALENDAR_BAD },
                { "00:00:00 foo bar", CALENDAR_BAD },
        };
        check_all(cases, ELEMENTSOF(cases), 257);
        /* expanded: a '%' is a character */
        check_at(257, &(Case) { "12:00%", CALENDAR_BAD }, true);
        /* before 247 nothing is judged */
        check_at(246, &(Case) { "fortnightly", CALENDAR_UNKNOWN }, false);
}

int main(void) {
        test_grammar();
        test_limits();
        test_specifiers_and_zones();
        return tap_done();
}
