/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* signal_parse() and exit_status_list_why(): what systemd's signal_from_string() and config_parse_set_status() take,
 * per version. fixtures/show/exit-status-signals holds the words that t6022 checks against the real verify of the
 * lab trees (247, 252, 257, 262); here each version fact is checked with the versions on both sides of it: the
 * names (exit-status-names 243, CREDENTIALS 247, BPF 250, KSM 254, MEMORY_THP 260), signal-parse-rtmax 239 and
 * number-base-prefixes 246. */

#include "features.h"
#include "load/exit-status.h"
#include "tap.h"

typedef struct SignalCase {
        const char *s;
        unsigned version;
        int want; /* the signal number, or 0 for refused */
} SignalCase;

static void test_signals(void) {
        static const SignalCase cases[] = {
                { "TERM", 252, 1 },  /* a name: valid (its number is not computed) */
                { "SIGTERM", 252, 1 },
                { "SIGTERM", 237, 1 }, /* via signal_from_string_try_harder() */
                { "term", 252, 0 },
                { "SIG", 252, 0 },
                { "15", 252, 15 },
                { "64", 252, 64 },
                { "65", 252, 0 },
                { "0", 252, 0 },
                { "-1", 252, 0 },
                { "+9", 252, 9 },
                { "+9", 237, 9 },
                { "-1", 237, 0 },
                { "0x9", 252, 9 },
                { "011", 252, 9 },
                { "0b11", 245, 0 },
                { "0b11", 246, 3 },
                { "0o7", 245, 0 },
                { "0o7", 246, 7 },
                { "RTMIN", 238, 0 },
                { "RTMIN", 239, 34 },
                { "RTMIN+0", 237, 34 },
                { "RTMIN+30", 237, 64 },
                { "RTMIN+31", 237, 0 },
                { "RTMIN+30", 252, 64 },
                { "RTMIN+31", 252, 0 },
                { "RTMIN-1", 252, 0 },
                { "RTMIN+2147483644", 252, 0 },
                { "SIGRTMIN+2", 252, 36 },
                { "SIGRTMIN+2", 237, 36 },
                { "RTMAX", 238, 0 },
                { "RTMAX", 239, 64 },
                { "RTMAX-30", 262, 34 },
                { "RTMAX-31", 262, 0 },
                { "RTMAX+1", 262, 0 },
                { "SIGRTMAX-1", 262, 63 },
                { "9x", 262, 0 },
                { "TERM KILL", 262, 0 },
                { "%n", 262, 0 },
                { "STKFLT", 219, 1 },
                { "IOT", 262, 0 },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                const SignalCase *c = &cases[i];
                int got = signal_parse(c->s, test_features(c->version));
                if (c->want == 0)
                        tap_ok(got < 0, "signal %s at %u refused (got %d)", c->s, c->version, got);
                else
                        tap_ok(got == c->want, "signal %s at %u is %d (got %d)", c->s, c->version, c->want, got);
        }
}

typedef struct ListCase {
        const char *value;
        unsigned version;
        bool ok;
} ListCase;

static void test_lists(void) {
        static const ListCase cases[] = {
                { "0 1 255", 252, true },
                { "256", 252, false },
                { "-1", 252, false },
                { "-1", 242, false },
                { "0x10 010", 252, true },
                { "-0", 245, false }, /* safe_atou(): any '-' is out of range, and -0 is no signal either */
                { "-0", 246, true },  /* c78eefc135: "-0" is 0 */
                { "0b11", 245, false }, /* before 246 0b11 is neither a number nor a signal */
                { "0b11", 246, true },
                { "DATAERR", 243, true },
                { "DATAERR", 242, false },
                { "CREDENTIALS", 246, false },
                { "CREDENTIALS", 247, true },
                { "BPF", 249, false },
                { "BPF", 250, true },
                { "KSM", 253, false },
                { "KSM", 254, true },
                { "MEMORY_THP", 259, false },
                { "MEMORY_THP", 260, true },
                { "NOTCONFIGURED SIGTERM TERM RTMIN+3", 262, true },
                { "success", 262, false },
                { "1 2 BOGUS 3", 257, false },
                { "1 \"2\"", 252, false }, /* quotes stay part of the word */
                { "1 \"2\"", 242, false },
                { "1\\ 2", 252, false }, /* one word "1 2" */
                { "\\1", 252, true },    /* a backslash takes the next character */
                { "\\1", 242, false },   /* FOREACH_WORD: the backslash is part of the word */
                { "1 \\", 252, false },  /* a trailing backslash: systemd stops reading the value */
                { "%n", 252, false },
                { "  3\t4  ", 252, true },
                { "RTMIN+2147483644", 257, false },
                { "RTMIN+0 65", 237, true }, /* 65: a number is an exit status up to 255 */
                { "RTMIN 65", 237, false },  /* RTMIN alone from 239 */
                { "RTMIN 65", 239, true },
                { "64 65 255", 237, true },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                const ListCase *c = &cases[i];
                const char *why = exit_status_list_why(c->value, test_features(c->version));
                if (c->ok)
                        tap_ok(!why, "list \"%s\" at %u accepted%s%s", c->value, c->version, why ? ": " : "",
                               strempty(why));
                else
                        tap_ok(why && *why, "list \"%s\" at %u: a word is refused, with a reason", c->value,
                               c->version);
        }
}

int main(void) {
        test_signals();
        test_lists();
        return tap_done();
}
