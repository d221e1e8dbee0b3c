/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Word splitting as systemd's extract_first_word() does it for unit settings, and the Exec*= command parser of
 * load-fragment.c config_parse_exec(). */

#include <limits.h>

#include "load/unit-words.h"

static bool is_ws(char c) {
        return c != 0 && strchr(WHITESPACE, c);
}

int words_split_plain(const char *s, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        size_t n = 0, allocated = 0;

        if (GREEDY_REALLOC(l, allocated, 1) < 0)
                return -ENOMEM;
        l[0] = NULL;
        for (;;) {
                const char *e;

                while (is_ws(*s))
                        s++;
                if (!*s)
                        break;
                e = s;
                while (*e && !is_ws(*e))
                        e++;
                if (GREEDY_REALLOC(l, allocated, n + 2) < 0)
                        return -ENOMEM;
                l[n] = strndup_safe(s, (size_t) (e - s));
                if (!l[n])
                        return -ENOMEM;
                l[++n] = NULL;
                s = e;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

static int unhex(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

static int unoct(char c) {
        return c >= '0' && c <= '7' ? c - '0' : -1;
}

static bool unichar_is_valid(uint32_t ch) {
        return ch < 0x110000 && (ch & 0xFFFFF800) != 0xD800 && !(ch >= 0xFDD0 && ch <= 0xFDEF) &&
               (ch & 0xFFFE) != 0xFFFE;
}

/* systemd's cunescape_one() without NUL bytes: the escape after a backslash at p. Returns the number of bytes
 * consumed and the character (*eight_bit: a raw byte, else a code point), or -EINVAL. */
static int cunescape_one(const char *p, uint32_t *ret, bool *eight_bit) {
        *eight_bit = false;
        switch (p[0]) {
        case 'a': *ret = '\a'; return 1;
        case 'b': *ret = '\b'; return 1;
        case 'f': *ret = '\f'; return 1;
        case 'n': *ret = '\n'; return 1;
        case 'r': *ret = '\r'; return 1;
        case 't': *ret = '\t'; return 1;
        case 'v': *ret = '\v'; return 1;
        case '\\': *ret = '\\'; return 1;
        case '"': *ret = '"'; return 1;
        case '\'': *ret = '\''; return 1;
        case 's': *ret = ' '; return 1;
        case 'x': {
                int a = unhex(p[1]), b = a < 0 ? -1 : unhex(p[2]);
                if (a < 0 || b < 0 || (a == 0 && b == 0))
                        return -EINVAL;
                *ret = (uint32_t) ((a << 4) | b);
                *eight_bit = true;
                return 3;
        }
        case 'u':
        case 'U': {
                size_t digits = p[0] == 'u' ? 4 : 8;
                uint32_t c = 0;
                for (size_t i = 1; i <= digits; i++) {
                        int x = unhex(p[i]);
                        if (x < 0)
                                return -EINVAL;
                        c = (c << 4) | (uint32_t) x;
                }
                if (c == 0 || (p[0] == 'U' && !unichar_is_valid(c)))
                        return -EINVAL;
                *ret = c;
                return (int) digits + 1;
        }
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
                int a = unoct(p[0]), b = unoct(p[1]), c = b < 0 ? -1 : unoct(p[2]);
                uint32_t m;
                if (b < 0 || c < 0 || (a == 0 && b == 0 && c == 0))
                        return -EINVAL;
                m = (uint32_t) ((a << 6) | (b << 3) | c);
                if (m > 255)
                        return -EINVAL;
                *ret = m;
                *eight_bit = true;
                return 3;
        }
        default:
                return -EINVAL;
        }
}

static size_t utf8_encode(char *out, uint32_t g) {
        if (g < (1 << 7)) {
                out[0] = (char) g;
                return 1;
        }
        if (g < (1 << 11)) {
                out[0] = (char) (0xc0 | (g >> 6));
                out[1] = (char) (0x80 | (g & 0x3f));
                return 2;
        }
        if (g < (1 << 16)) {
                out[0] = (char) (0xe0 | (g >> 12));
                out[1] = (char) (0x80 | ((g >> 6) & 0x3f));
                out[2] = (char) (0x80 | (g & 0x3f));
                return 3;
        }
        if (g < (1 << 21)) {
                out[0] = (char) (0xf0 | (g >> 18));
                out[1] = (char) (0x80 | ((g >> 12) & 0x3f));
                out[2] = (char) (0x80 | ((g >> 6) & 0x3f));
                out[3] = (char) (0x80 | (g & 0x3f));
                return 4;
        }
        return 0;
}

int words_first_field(const char *s, char sep, char **ret) {
        /* an escape is at least as long as what it stands for (see words_split_flags()) */
        _cleanup_(freep) char *out = malloc(strlen(s) + 1);
        size_t n = 0;

        if (!out)
                return -ENOMEM;
        for (const char *p = s; *p && *p != sep; p++) {
                uint32_t u;
                bool eight_bit;
                int k;

                if (*p != '\\') {
                        out[n++] = *p;
                        continue;
                }
                if (p[1] == sep) {
                        out[n++] = *++p;
                        continue;
                }
                k = cunescape_one(p + 1, &u, &eight_bit);
                if (k < 0)
                        return -EINVAL;
                if (eight_bit)
                        out[n++] = (char) u;
                else
                        n += utf8_encode(out + n, u);
                p += k;
        }
        out[n] = 0;
        *ret = TAKE_PTR(out);
        return 0;
}

/* extract_first_word(p, ret, WHITESPACE, EXTRACT_UNQUOTE [| EXTRACT_CUNESCAPE]): returns 1 and a word, 0 at the
 * end, -EINVAL on an unbalanced quote, a trailing backslash or (with cunescape) a bad escape. Quotes may start
 * anywhere in a word; whitespace between words is skipped (and after the word, so *p is at the next word). */
static int extract_word(const char **p, WordsFlags flags, char **ret) {
        bool cunescape = flags & WORDS_CUNESCAPE;
        _cleanup_(freep) char *s = NULL;
        const char *q = *p;
        size_t n = 0;
        char quote = 0;

        while (is_ws(*q))
                q++;
        if (!*q) {
                *p = q;
                *ret = NULL;
                return 0;
        }
        /* the result is never longer than the input */
        s = malloc(strlen(q) + 1);
        if (!s)
                return -ENOMEM;

        for (;;) {
                char c = *q;

                if (c == 0) {
                        if (quote)
                                return -EINVAL;
                        break;
                }
                if (c == '\\') {
                        q++;
                        if (*q == 0) {
                                /* a trailing backslash: kept verbatim in relaxed mode, else an error */
                                if (!(flags & WORDS_RELAX) || quote)
                                        return -EINVAL;
                                s[n++] = '\\';
                                break;
                        }
                        if (flags & WORDS_RETAIN_ESCAPE) {
                                s[n++] = '\\';
                                s[n++] = *q++;
                                continue;
                        }
                        if (cunescape) {
                                uint32_t u;
                                bool eight_bit;
                                int k = cunescape_one(q, &u, &eight_bit);
                                if (k < 0 && (flags & WORDS_RELAX)) {
                                        /* kept as written; what follows the backslash is read as usual */
                                        s[n++] = '\\';
                                        s[n++] = *q++;
                                        continue;
                                }
                                if (k < 0)
                                        return -EINVAL;
                                if (eight_bit)
                                        s[n++] = (char) u;
                                else {
                                        /* an escape is at least as long as its UTF-8 encoding, except a
                                         * \u that needs 3 bytes from 6 characters: always fits */
                                        n += utf8_encode(s + n, u);
                                }
                                q += k;
                        } else
                                s[n++] = *q++;
                        continue;
                }
                if (quote) {
                        if (c == quote)
                                quote = 0;
                        else
                                s[n++] = c;
                        q++;
                        continue;
                }
                if (c == '\'' || c == '"') {
                        quote = c;
                        q++;
                        continue;
                }
                if (is_ws(c))
                        break;
                s[n++] = c;
                q++;
        }
        while (is_ws(*q))
                q++;
        s[n] = 0;
        *p = q;
        *ret = TAKE_PTR(s);
        return 1;
}

int words_split_flags(const char *s, WordsFlags flags, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        size_t n = 0, allocated = 0;

        if (GREEDY_REALLOC(l, allocated, 1) < 0)
                return -ENOMEM;
        l[0] = NULL;
        for (;;) {
                char *w;
                int r = extract_word(&s, flags, &w);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                if (GREEDY_REALLOC(l, allocated, n + 2) < 0) {
                        free(w);
                        return -ENOMEM;
                }
                l[n++] = w;
                l[n] = NULL;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

int words_split_quoted(const char *s, bool cunescape, char ***ret) {
        return words_split_flags(s, cunescape ? WORDS_CUNESCAPE : 0, ret);
}

/* ---- Exec*= ---- */

void exec_command_list_free(ExecCommand *l, size_t n) {
        for (size_t i = 0; l && i < n; i++) {
                free(l[i].path);
                strv_free(l[i].argv);
        }
        free(l);
}

static bool string_is_safe(const char *p) {
        for (; *p; p++) {
                unsigned char c = (unsigned char) *p;
                if ((c > 0 && c < ' ') || c == '"' || c == '\'' || c == '\\' || c == 0x7f)
                        return false;
        }
        return true;
}

static bool filename_is_valid(const char *p) {
        return !isempty(p) && !strchr(p, '/') && !streq(p, ".") && !streq(p, "..") && strlen(p) <= 255;
}

static bool path_is_valid(const char *p) {
        size_t l = 0;

        if (isempty(p) || strlen(p) >= PATH_MAX)
                return false;
        for (; *p; p++) {
                if (*p == '/')
                        l = 0;
                else if (++l > 255)
                        return false;
        }
        return true;
}

/* The prefix characters a version accepts (knowledge/unit-syntax.md §4; rules/features.xml exec-prefix-*). */
static const char *exec_prefixes(const char *f, const FeatureSet *fs, ExecFlags *flags, bool *bangbang_ignored) {
        const ExecFlags exclusive = EXEC_PRIVILEGED | EXEC_NO_SETUID | EXEC_AMBIENT;

        for (;; f++) {
                if (*f == '-' && !(*flags & EXEC_IGNORE_FAILURE))
                        *flags |= EXEC_IGNORE_FAILURE;
                else if (*f == '@' && !(*flags & EXEC_ARGV0))
                        *flags |= EXEC_ARGV0;
                else if (*f == ':' && feature_enabled(fs, FEATURE_EXEC_PREFIX_COLON) && !(*flags & EXEC_NO_ENV_EXPAND))
                        *flags |= EXEC_NO_ENV_EXPAND;
                else if (*f == '+' && feature_enabled(fs, FEATURE_EXEC_PREFIX_PLUS) && !(*flags & exclusive))
                        *flags |= EXEC_PRIVILEGED;
                else if (*f == '!' && feature_enabled(fs, FEATURE_EXEC_PREFIX_BANG) && !(*flags & exclusive))
                        *flags |= EXEC_NO_SETUID;
                else if (*f == '!' && feature_enabled(fs, FEATURE_EXEC_PREFIX_BANG) && !(*flags & (EXEC_PRIVILEGED | EXEC_AMBIENT))) {
                        *flags &= ~EXEC_NO_SETUID;
                        *flags |= EXEC_AMBIENT; /* from 258 only a guard against more prefixes, as its ambient_hack */
                        if (feature_enabled(fs, FEATURE_EXEC_PREFIX_BANGBANG_IGNORED))
                                *bangbang_ignored = true;
                } else if (*f == '|' && feature_enabled(fs, FEATURE_EXEC_PREFIX_PIPE) && !(*flags & EXEC_VIA_SHELL))
                        *flags |= EXEC_VIA_SHELL;
                else
                        return f;
        }
}

static int argv_push(char ***argv, size_t *n, size_t *allocated, char *w) {
        if (!w)
                return -ENOMEM;
        if (GREEDY_REALLOC(*argv, *allocated, *n + 2) < 0) {
                free(w);
                return -ENOMEM;
        }
        (*argv)[(*n)++] = w;
        (*argv)[*n] = NULL;
        return 0;
}

/* One command; *p is advanced past it and its ';'. Returns 1 with *ret filled, 0 if there is no command left,
 * 2 if the rest of the value is to be ignored with a warning (*error), -EINVAL on an error that fails the unit
 * (*error), -ENOMEM. */
/* extract_first_word_and_warn(): a word with an unknown escape is read again with the escape kept as written, where
 * the version does so (*relaxed is then set). */
static int exec_word(const char **p, const FeatureSet *fs, char **ret, bool *relaxed) {
        const char *save = *p;
        int r = extract_word(p, WORDS_CUNESCAPE, ret);

        if (r != -EINVAL || !feature_enabled(fs, FEATURE_EXEC_UNKNOWN_ESCAPE_RELAXED))
                return r;
        *p = save;
        r = extract_word(p, WORDS_CUNESCAPE | WORDS_RELAX, ret);
        if (r > 0)
                *relaxed = true;
        return r;
}

static int exec_one(const char **p, const FeatureSet *fs, ExecCommand *ret, const char **error) {
        _cleanup_(freep) char *first = NULL, *path = NULL;
        _cleanup_(strv_freep) char **argv = NULL;
        size_t n = 0, allocated = 0;
        ExecFlags flags = 0;
        const char *f;
        bool ignore, relaxed = false, bangbang = false;
        int r;

        /* A lone ";" where a command would start is skipped. */
        for (;;) {
                r = exec_word(p, fs, &first, &relaxed);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        /* systemd warns and ignores the rest of the value, keeping earlier commands */
                        *error = "invalid quoting or escape in the executable";
                        return 2;
                }
                if (r == 0)
                        return 0;
                if (!streq(first, ";"))
                        break;
                first = mfree(first);
        }

        f = exec_prefixes(first, fs, &flags, &bangbang);
        ignore = flags & EXEC_IGNORE_FAILURE;

#define FAIL(msg)                                                       \
        do {                                                            \
                *error = (msg);                                         \
                return ignore ? 2 : -EINVAL;                            \
        } while (0)

        if (isempty(f))
                FAIL("empty executable path (only prefixes)");
        if (!(flags & EXEC_VIA_SHELL) && !strchr(f, '%')) {
                /* specifiers are expanded before these checks in systemd: only check what is final here */
                if (!string_is_safe(f))
                        FAIL("executable name contains special characters");
                if (endswith(f, "/"))
                        FAIL("executable path specifies a directory");
                bool relative_ok = feature_enabled(fs, FEATURE_EXEC_RELATIVE);
                if (path_is_absolute(f) ? !path_is_valid(f) : !relative_ok || !filename_is_valid(f))
                        FAIL(!relative_ok ? "executable path is not absolute (this systemd version needs an "
                                            "absolute path)"
                                          : "neither a valid executable name nor an absolute path");
        }
        if (!(flags & EXEC_ARGV0)) {
                r = argv_push(&argv, &n, &allocated, strdup(f));
                if (r < 0)
                        return r;
        }
        path = path_is_absolute(f) && !strchr(f, '%') ? path_simplify_dup(f) : strdup(f);
        if (!path)
                return -ENOMEM;

        while (**p) {
                char *w;

                if ((*p)[0] == ';' && ((*p)[1] == 0 || is_ws((*p)[1]))) {
                        (*p)++;
                        while (is_ws(**p))
                                (*p)++;
                        break;
                }
                if ((*p)[0] == '\\' && (*p)[1] == ';' && ((*p)[2] == 0 || is_ws((*p)[2]))) {
                        *p += 2;
                        while (is_ws(**p))
                                (*p)++;
                        r = argv_push(&argv, &n, &allocated, strdup(";"));
                        if (r < 0)
                                return r;
                        continue;
                }
                r = exec_word(p, fs, &w, &relaxed);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        FAIL("invalid quoting or escape in an argument");
                if (r == 0)
                        break;
                r = argv_push(&argv, &n, &allocated, w);
                if (r < 0)
                        return r;
        }
        if (n == 0)
                FAIL("empty executable name or zeroeth argument ('@' needs an argv[0] word)");
#undef FAIL

        *ret = (ExecCommand) {
                .flags = flags,
                .path = TAKE_PTR(path),
                .argv = TAKE_PTR(argv),
                .unknown_escape = relaxed,
                .bangbang_ignored = bangbang,
        };
        return 1;
}

int exec_command_parse(const char *value, const FeatureSet *fs, ExecCommand **ret, size_t *ret_n,
                       const char **ret_error) {
        ExecCommand *l = NULL;
        size_t n = 0, allocated = 0;
        const char *p = value, *error = NULL;
        int r;

        for (;;) {
                ExecCommand c;

                r = exec_one(&p, fs, &c, &error);
                if (r <= 0 || r == 2)
                        break;
                if (GREEDY_REALLOC(l, allocated, n + 1) < 0) {
                        free(c.path);
                        strv_free(c.argv);
                        r = -ENOMEM;
                        break;
                }
                l[n++] = c;
        }
        if (r < 0) {
                exec_command_list_free(l, n);
                if (ret_error)
                        *ret_error = r == -ENOMEM ? NULL : error;
                return r;
        }
        *ret = l;
        *ret_n = n;
        if (ret_error)
                *ret_error = error;
        return r == 2 ? 1 : 0;
}
