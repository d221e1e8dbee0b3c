/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <limits.h>
#include <strings.h>

#include "load/calendar-spec.h"

/* src/shared/calendarspec.c@v247..v261 */
#define MIN_YEAR 1970
#define MAX_YEAR 2199
#define COMPONENTS_MAX 240
#ifndef USEC_PER_SEC
#define USEC_PER_SEC 1000000
#endif
/* the first second of 2200: @EPOCH must be before it (calendar_spec_valid() of its year) */
#define EPOCH_YEAR_MAX_END 7258118400UL

typedef struct Component {
        int start, stop, repeat;
} Component;

typedef struct Chain {
        Component *c;
        size_t n; /* 0: "*" or not given */
} Chain;

typedef struct Spec {
        Chain year, month, day, hour, minute, usec;
        int weekdays;
        bool end_of_month;
        const char *fail; /* where parsing stopped, when it failed */
} Spec;

static void chain_done(Chain *c) {
        c->c = mfree(c->c);
        c->n = 0;
}

static void spec_done(Spec *s) {
        chain_done(&s->year);
        chain_done(&s->month);
        chain_done(&s->day);
        chain_done(&s->hour);
        chain_done(&s->minute);
        chain_done(&s->usec);
}

static int fail(Spec *s, const char *at, int r) {
        if (!s->fail)
                s->fail = at;
        return r;
}

static int chain_add(Chain *c, int start, int stop, int repeat) {
        Component *n = realloc(c->c, sizeof(Component) * (c->n + 1));
        if (!n)
                return -ENOMEM;
        c->c = n;
        c->c[c->n++] = (Component) { start, stop, repeat };
        return 0;
}

static bool starts_no_case(const char *s, const char *prefix) {
        return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* parse_weekdays() */
static int parse_weekdays(Spec *s, const char **p) {
        static const struct {
                const char *name;
                int nr;
        } days[] = {
                { "Monday", 0 }, { "Mon", 0 }, { "Tuesday", 1 }, { "Tue", 1 },  { "Wednesday", 2 },
                { "Wed", 2 },    { "Thursday", 3 }, { "Thu", 3 }, { "Friday", 4 }, { "Fri", 4 },
                { "Saturday", 5 }, { "Sat", 5 }, { "Sunday", 6 }, { "Sun", 6 },
        };
        int l = -1;
        bool first = true;

        for (;;) {
                size_t i;
                for (i = 0; i < ELEMENTSOF(days); i++) {
                        size_t skip;
                        if (!starts_no_case(*p, days[i].name))
                                continue;
                        skip = strlen(days[i].name);
                        if (!strchr("-., ", (*p)[skip])) /* (the string's end too) */
                                return fail(s, *p + skip, -EINVAL);
                        s->weekdays |= 1 << days[i].nr;
                        if (l >= 0) {
                                if (l > days[i].nr)
                                        return fail(s, *p, -EINVAL);
                                for (int j = l + 1; j < days[i].nr; j++)
                                        s->weekdays |= 1 << j;
                        }
                        *p += skip;
                        break;
                }
                if (i >= ELEMENTSOF(days))
                        return first ? 0 : fail(s, *p, -EINVAL);
                if (**p == 0)
                        return 0;
                if (**p == ' ') {
                        *p += strspn(*p, " ");
                        return 0;
                }
                if (**p == '.') {
                        if (l >= 0 || (*p)[1] != '.')
                                return fail(s, *p, -EINVAL);
                        l = days[i].nr;
                        *p += 2;
                } else if (**p == '-') {
                        if (l >= 0)
                                return fail(s, *p, -EINVAL);
                        l = days[i].nr;
                        *p += 1;
                } else if (**p == ',') {
                        l = -1;
                        *p += 1;
                }
                if (**p == 0 || **p == ' ') {
                        *p += strspn(*p, " ");
                        return l < 0 ? 0 : fail(s, *p, -EINVAL);
                }
                first = false;
        }
}

/* parse_one_number(): strtoul() in base 10, at least one digit */
static int parse_one_number(Spec *s, const char *p, const char **e, unsigned long *ret) {
        char *ee = NULL;
        unsigned long v;

        errno = 0;
        v = strtoul(p, &ee, 10);
        if (errno > 0)
                return fail(s, p, -errno);
        if (ee == p)
                return fail(s, p, -EINVAL);
        *ret = v;
        *e = ee;
        return 0;
}

/* parse_component_decimal(): a number (for seconds, with up to six decimals, rounded), at most INT_MAX */
static int parse_component_decimal(Spec *s, const char **p, bool usec, int *res) {
        unsigned long value;
        const char *e = NULL;
        int r;

        if (!(**p >= '0' && **p <= '9'))
                return fail(s, *p, -EINVAL);
        r = parse_one_number(s, *p, &e, &value);
        if (r < 0)
                return r;
        if (usec) {
                if (value * USEC_PER_SEC / USEC_PER_SEC != value)
                        return fail(s, *p, -ERANGE);
                value *= USEC_PER_SEC;
                if (e[0] == '.' && e[1] != '.') {
                        unsigned add = 0;
                        size_t i;
                        e++;
                        if (!(*e >= '0' && *e <= '9'))
                                return fail(s, e, -EINVAL);
                        for (i = 0; i < 6 && *e >= '0' && *e <= '9'; i++, e++)
                                add = add * 10 + (unsigned) (*e - '0');
                        for (; i < 6; i++)
                                add *= 10;
                        if (*e >= '5' && *e <= '9')
                                add++;
                        e += strspn(e, "0123456789");
                        if (add + value < value)
                                return fail(s, e, -ERANGE);
                        value += add;
                }
        }
        if (value > INT_MAX)
                return fail(s, *p, -ERANGE);
        *p = e;
        *res = (int) value;
        return 0;
}

/* prepend_component(): START[..STOP][/REPEAT][,...] (the recursion depth of the list is limited) */
static int parse_components(Spec *s, const char **p, bool usec, Chain *c) {
        for (unsigned nesting = 0;; nesting++) {
                int r, start, stop = -1, repeat = 0;
                const char *e = *p;

                if (nesting > COMPONENTS_MAX)
                        return fail(s, e, -ENOBUFS);
                r = parse_component_decimal(s, &e, usec, &start);
                if (r < 0)
                        return r;
                if (e[0] == '.' && e[1] == '.') {
                        e += 2;
                        r = parse_component_decimal(s, &e, usec, &stop);
                        if (r < 0)
                                return r;
                        repeat = usec ? USEC_PER_SEC : 1;
                }
                if (*e == '/') {
                        e++;
                        r = parse_component_decimal(s, &e, usec, &repeat);
                        if (r < 0)
                                return r;
                        if (repeat == 0)
                                return fail(s, e, -ERANGE);
                } else {
                        if (start > INT_MAX - repeat)
                                return fail(s, e, -ERANGE);
                        if (usec && stop >= 0 && start + repeat > stop)
                                return fail(s, e, -EINVAL);
                }
                if (!strchr(" ,-~:", *e)) /* (the string's end too) */
                        return fail(s, e, -EINVAL);
                r = chain_add(c, start, stop, repeat);
                if (r < 0)
                        return r;
                *p = e;
                if (*e != ',')
                        return 0;
                *p += 1;
        }
}

/* parse_chain(): "*" or components */
static int parse_chain(Spec *s, const char **p, bool usec, Chain *c) {
        if (**p == '*') {
                if (usec) {
                        int r = chain_add(c, 0, -1, USEC_PER_SEC);
                        if (r < 0)
                                return r;
                }
                *p += 1;
                return 0;
        }
        return parse_components(s, p, usec, c);
}

static void chain_move(Chain *to, Chain *from) {
        chain_done(to);
        *to = *from;
        *from = (Chain) {};
}

/* parse_date(): 1 when it was "@EPOCH" (no time follows) */
static int parse_date(Spec *s, const char **p) {
        _cleanup_(chain_done) Chain first = {}, second = {}, third = {};
        const char *t = *p;
        int r;

        if (*t == 0)
                return 0;
        if (*t == '@') {
                unsigned long value;
                r = parse_one_number(s, t + 1, &t, &value);
                if (r < 0)
                        return r;
                /* a time_t, then its year (gmtime_r(), from 257 localtime_or_gmtime_usec()): before 2200 */
                if (value >= EPOCH_YEAR_MAX_END)
                        return fail(s, *p, -ERANGE);
                *p = t;
                return 1;
        }
        r = parse_chain(s, &t, false, &first);
        if (r < 0)
                return r;
        if (*t == 0 || *t == ':')
                return 0; /* a time, not a date */
        if (*t == '~')
                s->end_of_month = true;
        else if (*t != '-')
                return fail(s, t, -EINVAL);
        t++;
        r = parse_chain(s, &t, false, &second);
        if (r < 0)
                return r;
        if (*t == 0 || *t == ' ') {
                *p = t + strspn(t, " ");
                chain_move(&s->month, &first);
                chain_move(&s->day, &second);
                return 0;
        } else if (s->end_of_month)
                return fail(s, t, -EINVAL);
        if (*t == '~')
                s->end_of_month = true;
        else if (*t != '-')
                return fail(s, t, -EINVAL);
        t++;
        r = parse_chain(s, &t, false, &third);
        if (r < 0)
                return r;
        if (*t != 0 && *t != ' ')
                return fail(s, t, -EINVAL);
        *p = t + strspn(t, " ");
        chain_move(&s->year, &first);
        chain_move(&s->month, &second);
        chain_move(&s->day, &third);
        return 0;
}

/* parse_calendar_time() */
static int parse_calendar_time(Spec *s, const char **p) {
        const char *t = *p;
        int r;

        if (*t == 0)
                return 0; /* 00:00:00 */
        r = parse_chain(s, &t, false, &s->hour);
        if (r < 0)
                return r;
        if (*t != ':')
                return fail(s, t, -EINVAL);
        t++;
        r = parse_chain(s, &t, false, &s->minute);
        if (r < 0)
                return r;
        if (*t == 0) {
                *p = t;
                return 0;
        }
        if (*t != ':')
                return fail(s, t, -EINVAL);
        t++;
        r = parse_chain(s, &t, true, &s->usec);
        if (r < 0)
                return r;
        if (*t != 0)
                return fail(s, t, -EINVAL);
        *p = t;
        return 0;
}

/* normalize_chain()'s changes to each component, then chain_valid() */
static bool chain_valid(Chain *c, int from, int to, bool end_of_month) {
        if (end_of_month)
                to -= 3;
        for (size_t k = 0; k < c->n; k++) {
                Component *i = &c->c[k];
                if (i->stop > i->start && i->repeat > 0)
                        i->stop -= (i->stop - i->start) % i->repeat;
                if ((i->stop > i->start && i->repeat > 0 && i->start + i->repeat > i->stop) || i->start == i->stop) {
                        i->repeat = 0;
                        i->stop = -1;
                }
                if (i->start < from || i->start > to || i->repeat > to - from)
                        return false;
                if (i->stop >= 0) {
                        if (i->stop < from || i->stop > to || i->start + i->repeat > i->stop)
                                return false;
                } else if (end_of_month ? i->start - i->repeat < from : i->start + i->repeat > to)
                        return false;
        }
        return true;
}

static const char *const shorthands[] = {
        "minutely", "hourly", "daily", "monthly", "annually", "yearly", "anually", "weekly", "quarterly",
        "biannually", "bi-annually", "semiannually", "semi-annually",
};

/* calendar_spec_from_string() without the time zone. Returns 0 or a negative errno (s->fail says where). */
static int parse_spec(Spec *s, const char *p) {
        int r;

        if (isempty(p))
                return fail(s, p, -EINVAL);
        for (size_t i = 0; i < ELEMENTSOF(shorthands); i++)
                if (strcasecmp(p, shorthands[i]) == 0)
                        return 0;
        r = parse_weekdays(s, &p);
        if (r < 0)
                return r;
        r = parse_date(s, &p);
        if (r < 0)
                return r;
        if (r == 0) {
                r = parse_calendar_time(s, &p);
                if (r < 0)
                        return r;
        }
        if (*p != 0)
                return fail(s, p, -EINVAL);
        /* calendar_spec_normalize() and calendar_spec_valid() */
        for (size_t k = 0; k < s->year.n; k++) {
                Component *c = &s->year.c[k];
                if (c->start >= 0 && c->start < 70)
                        c->start += 2000;
                if (c->stop >= 0 && c->stop < 70)
                        c->stop += 2000;
                if (c->start >= 70 && c->start < 100)
                        c->start += 1900;
                if (c->stop >= 70 && c->stop < 100)
                        c->stop += 1900;
        }
        if (s->end_of_month && s->day.n == 0)
                s->end_of_month = false;
        if (!chain_valid(&s->year, MIN_YEAR, MAX_YEAR, false) || !chain_valid(&s->month, 1, 12, false) ||
            !chain_valid(&s->day, 1, 31, s->end_of_month) || !chain_valid(&s->hour, 0, 23, false) ||
            !chain_valid(&s->minute, 0, 59, false) || !chain_valid(&s->usec, 0, 60 * USEC_PER_SEC - 1, false))
                return fail(s, p, -EINVAL);
        return 0;
}

/* what timezone_is_valid() could take: letters, digits, "_-+/", not starting with '/' */
static bool may_be_zone(const char *w) {
        if (isempty(w) || w[0] == '/')
                return false;
        for (const char *c = w; *c; c++)
                if (!(((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z') || (*c >= '0' && *c <= '9') || strchr("_-+/", *c)))
                        return false;
        return true;
}

static int judge_text(const char *p, const char **ret_fail) {
        _cleanup_(spec_done) Spec s = {};
        int r = parse_spec(&s, p);
        if (ret_fail)
                *ret_fail = s.fail;
        return r;
}

CalendarVerdict calendar_spec_judge(const char *value, bool expanded, const FeatureSet *fs, const char **ret_why) {
        _cleanup_(freep) char *copy = NULL, *head = NULL;
        const char *pct = expanded ? NULL : strchr(value, '%'), *at = NULL, *space;
        size_t n = strlen(value);
        int r;

        if (ret_why)
                *ret_why = NULL;
        if (!feature_enabled(fs, FEATURE_CALENDAR_SPEC_PARSE))
                return CALENDAR_UNKNOWN;
        if (pct) {
                /* judged by the text before the first specifier, if that fails where nothing after can change
                 * it: before the cut, and before the last blank in it (a time zone is stripped from the end) */
                size_t limit;
                head = strndup_safe(value, (size_t) (pct - value));
                if (!head)
                        return CALENDAR_UNKNOWN;
                space = strrchr(head, ' ');
                limit = space ? (size_t) (space - head) : strlen(head);
                if (strlen(head) == 0 || judge_text(head, &at) >= 0 || !at || (size_t) (at - head) >= limit)
                        return CALENDAR_UNKNOWN;
                if (ret_why)
                        *ret_why = "not a calendar specification (whatever its specifiers expand to)";
                return CALENDAR_BAD;
        }
        /* " UTC" at the end (any case) */
        if (n > 4 && strcasecmp(value + n - 4, " UTC") == 0) {
                copy = strndup_safe(value, n - 4);
                if (!copy)
                        return CALENDAR_UNKNOWN;
                value = copy;
        }
        r = judge_text(value, NULL);
        if (r >= 0)
                return CALENDAR_OK;
        /* a last word that may be a time zone (the host's names, or one the tree's zoneinfo has): without it? */
        space = copy ? NULL : strrchr(value, ' ');
        if (space && may_be_zone(space + 1)) {
                _cleanup_(freep) char *rest = strndup_safe(value, (size_t) (space - value));
                if (rest && judge_text(rest, NULL) >= 0)
                        return CALENDAR_UNKNOWN;
        }
        if (ret_why)
                *ret_why = r == -ENOBUFS ? "a list of more than 240 values" : "not a calendar specification";
        return CALENDAR_BAD;
}
