/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A tiny TAP producer for C unit tests: one "ok N - name" line per check, flushed at once so a crash still
 * shows how far a test got. The plan is printed at the end by tap_done(), which returns the exit status. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned tap_n, tap_failed;

static inline void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void tap_ok(int cond, const char *fmt, ...) {
        va_list ap;
        printf("%sok %u - ", cond ? "" : "not ", ++tap_n);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
        fflush(stdout);
        if (!cond)
                tap_failed++;
}

static inline void tap_skip(const char *reason) {
        printf("ok %u # SKIP %s\n", ++tap_n, reason);
        fflush(stdout);
}

static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...) {
        va_list ap;
        fputs("# ", stdout);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
        fflush(stdout);
}

/* A set-up step failed: no check after it would mean anything. The TAP driver reports the script as an error. */
static inline void tap_bail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void tap_bail(const char *fmt, ...) {
        va_list ap;
        fputs("Bail out! ", stdout);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
        fflush(stdout);
        exit(EXIT_FAILURE);
}

static inline int tap_done(void) {
        printf("1..%u\n", tap_n);
        fflush(stdout);
        return tap_failed ? 1 : 0;
}

#define TAP_STREQ(got, want, name)                                                                        \
        do {                                                                                              \
                const char *_g = (got), *_w = (want);                                                     \
                int _ok = (_g && _w) ? strcmp(_g, _w) == 0 : _g == _w;                                    \
                tap_ok(_ok, "%s", name);                                                                  \
                if (!_ok)                                                                                 \
                        tap_diag("got '%s', want '%s'", _g ? _g : "(null)", _w ? _w : "(null)");          \
        } while (0)

#define TAP_INTEQ(got, want, name)                                                                        \
        do {                                                                                              \
                long long _g = (long long) (got), _w = (long long) (want);                                \
                tap_ok(_g == _w, "%s", name);                                                             \
                if (_g != _w)                                                                             \
                        tap_diag("got %lld, want %lld", _g, _w);                                          \
        } while (0)

/* One check that hay (NULL: the output is missing) holds needle; a failure names what was looked for. */
#define TAP_CONTAINS(hay, needle, name)                                                                   \
        do {                                                                                              \
                const char *_h = (hay), *_n = (needle);                                                   \
                int _ok = _h && strstr(_h, _n) != NULL;                                                   \
                tap_ok(_ok, "%s", name);                                                                  \
                if (!_ok)                                                                                 \
                        tap_diag("%s '%s'", _h ? "no" : "no output, so no", _n);                          \
        } while (0)
