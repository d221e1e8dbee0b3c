/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Signals and exit status lists as systemd reads them (load/exit-status.h). */

#include "load/exit-status.h"
#include "rules/rules.h"

/* glibc's SIGRTMIN and SIGRTMAX on Linux (glibc keeps 32 and 33 for itself), and _NSIG: what the systemd binaries
 * the lab runs see; signal numbers are valid from 1 to _NSIG - 1 (SIGNAL_VALID()). */
#define SD_SIGRTMIN 34
#define SD_SIGRTMAX 64
#define SD_NSIG 65

/* safe_atoi() (is_signed) or safe_atou() of src/basic/parse-util.c, as systemd_atoi()/systemd_atou() read them at
 * fs's version */
static int parse_int(const char *s, bool is_signed, const FeatureSet *fs, long long *ret) {
        bool modern = feature_enabled(fs, FEATURE_NUMBER_BASE_PREFIXES);
        int r;

        if (is_signed) {
                long l;
                r = systemd_atoi(s, modern, &l);
                if (r >= 0)
                        *ret = l;
        } else {
                unsigned long u;
                r = systemd_atou(s, modern, &u);
                if (r >= 0)
                        *ret = (long long) u;
        }
        return r;
}

static int signal_name(const char *s, const FeatureSet *fs) {
        int r = rules_value_word_known(fs->rules, "signal", s, fs->version);
        return r < 0 ? r : r > 0 ? 1 : 0;
}

/* signal_from_string() from 239: a number, then "SIG" dropped, a name, RTMIN[+n], RTMAX[-n]. */
static int signal_parse_rtmax(const char *s, const FeatureSet *fs) {
        const char *p;
        long long n;
        int r;

        if (parse_int(s, true, fs, &n) >= 0)
                return n > 0 && n < SD_NSIG ? (int) n : -ERANGE;
        if (startswith(s, "SIG"))
                s += 3;
        r = signal_name(s, fs);
        if (r != 0)
                return r < 0 ? r : 1; /* (a name: valid, its number does not matter here) */
        if ((p = startswith(s, "RTMIN"))) {
                if (!*p)
                        return SD_SIGRTMIN;
                if (*p != '+')
                        return -EINVAL;
                r = parse_int(p, true, fs, &n);
                if (r < 0)
                        return r;
                return n >= 0 && n <= SD_SIGRTMAX - SD_SIGRTMIN ? (int) n + SD_SIGRTMIN : -ERANGE;
        }
        if ((p = startswith(s, "RTMAX"))) {
                if (!*p)
                        return SD_SIGRTMAX;
                if (*p != '-')
                        return -EINVAL;
                r = parse_int(p, true, fs, &n);
                if (r < 0)
                        return r;
                return n <= 0 && n >= SD_SIGRTMIN - SD_SIGRTMAX ? (int) n + SD_SIGRTMAX : -ERANGE;
        }
        return -EINVAL;
}

/* signal_from_string() before 239: a name, or [RTMIN+]NUMBER (safe_atou()) whose sum is a valid signal. */
static int signal_parse_old(const char *s, const FeatureSet *fs) {
        long long n;
        int offset = 0, r = signal_name(s, fs);

        if (r != 0)
                return r < 0 ? r : 1;
        if (startswith(s, "RTMIN+")) {
                s += 6;
                offset = SD_SIGRTMIN;
        }
        if (parse_int(s, false, fs, &n) >= 0 && n + offset > 0 && n + offset < SD_NSIG)
                return (int) n + offset;
        return -EINVAL;
}

int signal_parse(const char *s, const FeatureSet *fs) {
        int r;

        if (!s || !fs)
                return -EINVAL;
        if (feature_enabled(fs, FEATURE_SIGNAL_PARSE_RTMAX))
                return signal_parse_rtmax(s, fs);
        /* signal_from_string_try_harder(), which every caller used: without "SIG" if the word fails */
        r = signal_parse_old(s, fs);
        if (r <= 0 && r != -ENOENT && startswith(s, "SIG"))
                r = signal_parse_old(s + 3, fs);
        return r;
}

/* One word of the list: exit_status_from_string() (a name, or safe_atou8()), then signal_from_string(); before 243
 * safe_atoi() in 0..255, then the signal. 1 when taken, 0 when systemd warns and skips it, -ENOENT. */
static int status_word_ok(const char *w, const FeatureSet *fs) {
        long long n;
        int r;

        if (feature_enabled(fs, FEATURE_EXIT_STATUS_NAMES)) {
                r = rules_value_word_known(fs->rules, "exit-status", w, fs->version);
                if (r != 0)
                        return r;
                if (parse_int(w, false, fs, &n) >= 0 && n <= 255)
                        return 1;
        } else if (parse_int(w, true, fs, &n) >= 0)
                return n >= 0 && n <= 255;
        r = signal_parse(w, fs);
        return r == -ENOENT ? r : r > 0;
}

const char *exit_status_list_why(const char *value, const FeatureSet *fs) {
        bool extract = fs && feature_enabled(fs, FEATURE_EXIT_STATUS_NAMES);

        if (!value || !fs)
                return NULL;
        for (const char *p = value;;) {
                _cleanup_(freep) char *w = NULL;
                size_t n = 0;

                p += strspn(p, WHITESPACE);
                if (!*p)
                        return NULL;
                w = malloc(strlen(p) + 1);
                if (!w)
                        return NULL; /* (out of memory: not judged) */
                /* extract_first_word(flags 0) from 243: a backslash takes the next character as it is, quotes
                 * stay; FOREACH_WORD before: plain words */
                for (; *p && !strchr(WHITESPACE, *p); p++) {
                        if (extract && *p == '\\') {
                                if (!*++p)
                                        return "a trailing backslash (systemd ignores the rest of the value)";
                        }
                        w[n++] = *p;
                }
                w[n] = 0;
                if (status_word_ok(w, fs) == 0)
                        return "a word that is neither an exit status (0..255 or a name) nor a signal";
        }
}
