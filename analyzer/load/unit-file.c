/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The line-level unit-file parser. One pass over the buffer; physical lines are never copied unless they take
 * part in a continuation. Each rule names the systemd release that introduced it (knowledge/unit-syntax.md §1–2,
 * checked against conf-parser.c and fileio.c read_line() of the releases concerned). */

#include <limits.h>

#include "load/unit-file.h"

#define COMMENTS "#;"
#define UTF8_BOM "\xef\xbb\xbf"

/* read_line() refuses a line once LONG_LINE_MAX content bytes were read (v235+), and a joined continuation may
 * not exceed it. */
#define LONG_LINE_MAX ((size_t) 1024 * 1024)
/* fgets() into a LINE_MAX (2048) buffer reads at most 2047 bytes, newline included (<= v234). */
#define OLD_LINE_PIECE 2047

#define NO_SECTION SIZE_MAX

typedef struct Parser {
        const char *path;
        const FeatureSet *fs; /* the version's syntax rules (rules/features.xml, unit-file-*) */
        const char * const *known;
        UnitFile *f;
        DiagList *diags;

        bool section_ignored; /* section_off is NO_SECTION because the section is ignored */
        bool bom_seen;

        /* The pool of f (see unit-file.h), grown as the file is read. Until the end of the parse the assignments
         * are kept as offsets into it (offs, one per assignment; NO_SECTION for none), as growing moves it;
         * sect: the offsets of the distinct section names, section_off the one in effect. */
        char *pool;
        size_t pool_len, pool_alloc;
        struct {
                size_t section, key, value;
        } *offs;
        size_t offs_alloc;
        size_t *sect, n_sect, sect_alloc;
        size_t section_off;

        char *cont; /* the joined continuation, when in_cont */
        size_t cont_len, cont_alloc;
        unsigned cont_line; /* the first physical line of the continuation */
        bool in_cont;
} Parser;

UnitFile *unit_file_free(UnitFile *f) {
        if (!f)
                return NULL;
        free(f->assignments);
        free(f->pool);
        free(f->path);
        return mfree(f);
}

static bool is_ws(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* systemd's string_is_safe(): no control characters, quotes, backslashes or DEL. */
static bool section_name_is_safe(const char *s, size_t n) {
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char) s[i];
                if ((c > 0 && c < ' ') || c == '"' || c == '\'' || c == '\\' || c == 0x7f)
                        return false;
        }
        return true;
}

/* Appends s[0..n) and a NUL to the pool; its offset in *ret. */
static int pool_add(Parser *P, const char *s, size_t n, size_t *ret) {
        if (n > SIZE_MAX - P->pool_len - 1)
                return -ENOMEM;
        if (P->pool_len + n + 1 > P->pool_alloc) {
                /* a unit file's strings are about as long as the file: grow by half, not by doubling */
                size_t a = MAX(P->pool_len + n + 1, P->pool_alloc + P->pool_alloc / 2);
                char *q = realloc(P->pool, MAX(a, (size_t) 64));
                if (!q)
                        return -ENOMEM;
                P->pool = q;
                P->pool_alloc = MAX(a, (size_t) 64);
        }
        memcpy(P->pool + P->pool_len, s, n);
        P->pool[P->pool_len + n] = 0;
        *ret = P->pool_len;
        P->pool_len += n + 1;
        return 0;
}

static int add_assignment(Parser *P, const char *key, size_t key_len, const char *value, size_t value_len,
                          unsigned line) {
        UnitFile *f = P->f;
        size_t k, v;
        int r;

        if (GREEDY_REALLOC(f->assignments, f->allocated, f->n_assignments + 1) < 0 ||
            GREEDY_REALLOC(P->offs, P->offs_alloc, f->n_assignments + 1) < 0)
                return -ENOMEM;
        r = pool_add(P, key, key_len, &k);
        if (r >= 0)
                r = pool_add(P, value, value_len, &v);
        if (r < 0)
                return r;
        P->offs[f->n_assignments].section = P->section_off;
        P->offs[f->n_assignments].key = k;
        P->offs[f->n_assignments].value = v;
        f->assignments[f->n_assignments++] = (Assignment) { .line = line };
        return 0;
}

/* Makes the section name[0..n) the one in effect, adding it to the pool if it is new in this file. */
static int intern_section(Parser *P, const char *name, size_t n) {
        for (size_t i = 0; i < P->n_sect; i++) {
                const char *t = P->pool + P->sect[i];
                if (strlen(t) == n && memcmp(t, name, n) == 0) {
                        P->section_off = P->sect[i];
                        return 0;
                }
        }
        if (GREEDY_REALLOC(P->sect, P->sect_alloc, P->n_sect + 1) < 0 || pool_add(P, name, n, &P->section_off) < 0)
                return -ENOMEM;
        P->sect[P->n_sect++] = P->section_off;
        return 0;
}

/* The end of a parse: the pool shrunk to its size, and the assignments' offsets made pointers into it. */
static void finish_pool(Parser *P) {
        UnitFile *f = P->f;

        if (P->pool_len > 0 && P->pool_len < P->pool_alloc) {
                char *q = realloc(P->pool, P->pool_len);
                if (q)
                        P->pool = q;
        }
        for (size_t i = 0; i < f->n_assignments; i++) {
                size_t so = P->offs[i].section;
                f->assignments[i].section = so == NO_SECTION ? NULL : P->pool + so;
                f->assignments[i].key = P->pool + P->offs[i].key;
                f->assignments[i].value = P->pool + P->offs[i].value;
        }
        f->pool = TAKE_PTR(P->pool);
}

static bool section_known(Parser *P, const char *name, size_t n, bool *ret_silent) {
        *ret_silent = n >= 2 && memcmp(name, "X-", 2) == 0;
        for (const char * const *t = P->known; *t; t++) {
                const char *k = *t;
                bool minus = k[0] == '-';

                if (strlen(k + minus) == n && memcmp(k + minus, name, n) == 0) {
                        if (!minus)
                                return true;
                        *ret_silent = true;
                }
        }
        return false;
}

/* ".include" followed by whitespace or the end (systemd's first_word()); returns the argument or NULL. */
static const char *include_argument(const char *s, const char *end) {
        const size_t wl = strlen(UNIT_FILE_INCLUDE_KEY);

        if ((size_t) (end - s) < wl || memcmp(s, UNIT_FILE_INCLUDE_KEY, wl) != 0)
                return NULL;
        s += wl;
        if (s < end && !is_ws(*s))
                return NULL;
        while (s < end && is_ws(*s))
                s++;
        return s;
}

static bool has(const Parser *P, Feature f) {
        return feature_enabled(P->fs, f);
}

/* The line-end characters of read_line_full() as bits (EOL_ZERO, EOL_NEWLINE, EOL_RETURN of fileio.c). */
static unsigned eol_bit(char c) {
        return c == 0 ? 1u : c == '\n' ? 2u : c == '\r' ? 4u : 0u;
}

static int bad_file(Parser *P, unsigned line, const char *what, const char *l, size_t n) {
        int r;

        r = diag_add(P->diags, DIAG_ERROR, P->path, line, "%s: '%.*s'", what, (int) MIN(n, (size_t) 200), l);
        return r < 0 ? r : -EBADMSG;
}

/* parse_line() of conf-parser.c: one logical (joined) line. */
static int parse_logical(Parser *P, const char *l, size_t n, unsigned line) {
        const char *a = l, *b = l + n, *e, *ks, *ke, *vs, *ve;
        int r;

        while (a < b && is_ws(*a))
                a++;
        while (b > a && is_ws(b[-1]))
                b--;
        if (a == b)
                return 0;

        /* Up to v239 comments were only recognised here, after joining. */
        if (!has(P, FEATURE_UNIT_FILE_EARLY_COMMENTS) && strchr(COMMENTS, *a))
                return 0;

        if (has(P, FEATURE_UNIT_FILE_INCLUDE)) {
                const char *arg = include_argument(a, b);
                if (arg) {
                        if (has(P, FEATURE_UNIT_FILE_INCLUDE_WARNS)) {
                                unsigned last = feature_set_until(P->fs, FEATURE_UNIT_FILE_INCLUDE);
                                r = diag_add(P->diags, DIAG_WARNING, P->path, line,
                                             ".include directives are deprecated (followed up to systemd v%u, "
                                             "removed in v%u); use drop-in files instead", last, last + 1);
                                if (r < 0)
                                        return r;
                        }
                        return add_assignment(P, UNIT_FILE_INCLUDE_KEY, strlen(UNIT_FILE_INCLUDE_KEY), arg,
                                              (size_t) (b - arg), line);
                }
        }

        if (has(P, FEATURE_UNIT_FILE_UTF8_FATAL) && !utf8_is_valid_n(a, (size_t) (b - a), UTF8_REFUSE_NONCHARACTERS))
        {
                char what[128];
                snprintf(what, sizeof what, "invalid UTF-8 (systemd >= v%u refuses the whole file, although its "
                         "message says 'ignoring')", feature_set_since(P->fs, FEATURE_UNIT_FILE_UTF8_FATAL));
                return bad_file(P, line, what, a, (size_t) (b - a));
        }

        if (*a == '[') {
                const char *name = a + 1;
                size_t nl;
                bool silent;

                if (b[-1] != ']' || b - a < 2)
                        return bad_file(P, line, "invalid section header (no closing ']'), the file is refused",
                                        a, (size_t) (b - a));
                nl = (size_t) (b - a - 2);
                if (has(P, FEATURE_UNIT_FILE_SAFE_SECTION_NAMES) && !section_name_is_safe(name, nl))
                        return bad_file(P, line, "bad characters in section header, the file is refused", a,
                                        (size_t) (b - a));

                if (P->known && !section_known(P, name, nl, &silent)) {
                        if (!silent) {
                                r = diag_add(P->diags, DIAG_WARNING, P->path, line,
                                             "unknown section '%.*s', ignoring it and its settings", (int) nl,
                                             name);
                                if (r < 0)
                                        return r;
                        }
                        P->section_off = NO_SECTION;
                        P->section_ignored = true;
                        return 0;
                }
                r = intern_section(P, name, nl);
                if (r < 0)
                        return r;
                P->section_ignored = false;
                return 0;
        }

        if (P->section_off == NO_SECTION) {
                if (P->section_ignored)
                        return 0;
                return diag_add(P->diags, DIAG_WARNING, P->path, line,
                                "assignment outside of any section, ignoring: '%.*s'",
                                (int) MIN((size_t) (b - a), (size_t) 200), a);
        }

        e = memchr(a, '=', (size_t) (b - a));
        if (!e) {
                if (!has(P, FEATURE_UNIT_FILE_NO_EQUALS_WARNS))
                {
                        unsigned since = feature_set_since(P->fs, FEATURE_UNIT_FILE_NO_EQUALS_WARNS);
                        char what[96];
                        snprintf(what, sizeof what, "missing '=' (systemd <= v%u refuses the whole file)",
                                 since > P->fs->version ? since - 1 : P->fs->version);
                        return bad_file(P, line, what, a, (size_t) (b - a));
                }
                return diag_add(P->diags, DIAG_WARNING, P->path, line, "missing '=', ignoring line: '%.*s'",
                                (int) MIN((size_t) (b - a), (size_t) 200), a);
        }
        if (e == a)
                return diag_add(P->diags, DIAG_WARNING, P->path, line,
                                "missing key name before '=', ignoring line");

        ks = a;
        ke = e;
        while (ke > ks && is_ws(ke[-1]))
                ke--;
        vs = e + 1;
        ve = b;
        while (vs < ve && is_ws(*vs))
                vs++;
        return add_assignment(P, ks, (size_t) (ke - ks), vs, (size_t) (ve - vs), line);
}

static int cont_append(Parser *P, const char *s, size_t n) {
        if (GREEDY_REALLOC(P->cont, P->cont_alloc, P->cont_len + n + 1) < 0)
                return -ENOMEM;
        memcpy(P->cont + P->cont_len, s, n);
        P->cont_len += n;
        P->cont[P->cont_len] = 0;
        return 0;
}

/* One physical line (without its terminator), as config_parse() sees it. */
static int process_line(Parser *P, const char *s, size_t n, unsigned line) {
        size_t trailing = 0;
        int r;

        if (has(P, FEATURE_UNIT_FILE_EARLY_COMMENTS)) {
                bool skip;

                if (has(P, FEATURE_UNIT_FILE_COMMENTS_COLUMN_0))
                        /* v240: column 0 only; strchr() also matched the NUL of an empty line */
                        skip = n == 0 || strchr(COMMENTS, s[0]);
                else {
                        size_t k = 0;
                        while (k < n && is_ws(s[k]))
                                k++;
                        if (has(P, FEATURE_UNIT_FILE_BLANK_LINE_CONTINUES))
                                /* v241–v242: the same strchr() quirk makes blank lines "comments", so they
                                 * do not end a continuation */
                                skip = k == n || strchr(COMMENTS, s[k]);
                        else
                                skip = k < n && strchr(COMMENTS, s[k]);
                }
                if (skip)
                        return 0;
        }

        if (has(P, FEATURE_UNIT_FILE_BOM) && !P->bom_seen && n >= 3 && memcmp(s, UTF8_BOM, 3) == 0) {
                s += 3;
                n -= 3;
                P->bom_seen = true;
        }

        while (trailing < n && s[n - 1 - trailing] == '\\')
                trailing++;

        if (P->in_cont) {
                if (has(P, FEATURE_UNIT_FILE_READ_LINE) && P->cont_len + n > LONG_LINE_MAX)
                        return bad_file(P, line, "continuation line too long (more than 1 MiB), the file is refused",
                                        P->cont, 80);
                r = cont_append(P, s, n);
                if (r < 0)
                        return r;
        }

        if (trailing % 2 == 1) {
                if (!P->in_cont) {
                        P->cont_len = 0;
                        r = cont_append(P, s, n);
                        if (r < 0)
                                return r;
                        P->in_cont = true;
                        P->cont_line = line;
                }
                P->cont[P->cont_len - 1] = ' ';
                return 0;
        }

        if (P->in_cont) {
                /* config_parse() names a joined line by its last physical line (src/shared/conf-parser.c@v219..v262) */
                P->in_cont = false;
                return parse_logical(P, P->cont, P->cont_len, line);
        }
        return parse_logical(P, s, n, line);
}

static int parse_buffer(Parser *P, const char *data, size_t size) {
        const char *p = data, *end = data + size;
        bool nul_eol = has(P, FEATURE_UNIT_FILE_NUL_ENDS_LINE);
        unsigned line = 1;
        bool unterminated = false; /* the last line had no line end */
        int r;

        while (p < end) {
                const char *eol = p;
                size_t n;
                unsigned next = line;

                if (has(P, FEATURE_UNIT_FILE_CR_EOL)) {
                        while (eol < end && *eol != '\n' && *eol != '\r' && !(nul_eol && *eol == 0))
                                eol++;
                } else if (nul_eol) {
                        while (eol < end && *eol != '\n' && *eol != 0)
                                eol++;
                } else {
                        eol = memchr(p, '\n', (size_t) (end - p));
                        if (!eol)
                                eol = end;
                }
                n = (size_t) (eol - p);

                if (has(P, FEATURE_UNIT_FILE_READ_LINE) && n >= LONG_LINE_MAX)
                        return bad_file(P, line, "line too long (1 MiB or more), the file is refused", p, 80);

                if (!has(P, FEATURE_UNIT_FILE_READ_LINE)) {
                        /* fgets() pieces; truncate_nl() cuts at the first \r */
                        const char *cr;
                        size_t k = MIN(n, (size_t) OLD_LINE_PIECE);

                        /* the piece as a C string: it ends at a NUL, the rest of the piece is lost */
                        cr = memchr(p, 0, k);
                        if (cr)
                                k = (size_t) (cr - p);
                        cr = memchr(p, '\r', k);
                        if (cr)
                                k = (size_t) (cr - p);
                        r = process_line(P, p, k, line);
                        if (r < 0)
                                return r;
                        if (n >= OLD_LINE_PIECE) {
                                p += OLD_LINE_PIECE;
                                continue;
                        }
                } else {
                        r = process_line(P, p, n, line);
                        if (r < 0)
                                return r;
                }

                p = eol;
                unterminated = p >= end;
                if (p < end) {
                        char first = *p++;
                        next++;
                        /* v240+ (read_line_full()): a line end is a run of distinct characters of \n, \r and
                         * NUL that stops after a NUL: "\r\n", "\n\r", "\n\0" and "\r\n\0" are one line end,
                         * "\n\n", "\r\r" and "\0\n" two */
                        if (has(P, FEATURE_UNIT_FILE_CR_EOL)) {
                                unsigned seen = eol_bit(first);

                                while (first != 0 && p < end && eol_bit(*p) != 0 && (seen & eol_bit(*p)) == 0) {
                                        if (!nul_eol && *p == 0)
                                                break;
                                        seen |= eol_bit(*p);
                                        first = *p++;
                                }
                        }
                }
                line = next;
        }

        if (P->in_cont) {
                if (has(P, FEATURE_UNIT_FILE_CONTINUATION_AT_EOF)) {
                        /* ... and one still open at the end of the file by the line after the last one (++line) */
                        P->in_cont = false;
                        return parse_logical(P, P->cont, P->cont_len, line + unterminated);
                }
                return diag_add(P->diags, DIAG_NOTICE, P->path, P->cont_line,
                                "continuation open at end of file: systemd < v%u drops this line",
                                feature_set_since(P->fs, FEATURE_UNIT_FILE_CONTINUATION_AT_EOF));
        }
        return 0;
}

int unit_file_parse(const char *path, const char *data, size_t size, const ParseOptions *opts, UnitFile **ret,
                    DiagList *diags) {
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        Parser P;
        int r;

        f = calloc(1, sizeof(*f));
        if (!f)
                return -ENOMEM;
        f->path = strdup(path ?: "");
        if (!f->path)
                return -ENOMEM;

        P = (Parser) {
                .path = f->path,
                .fs = opts->features,
                .known = opts ? opts->sections : NULL,
                .f = f,
                .diags = diags,
                .section_off = NO_SECTION,
        };
        /* the strings of a file (keys, values, section names, each with a NUL where the file has '=', a newline
         * or brackets) take no more room than the file and one NUL: one allocation, shrunk at the end */
        P.pool_alloc = MIN(size, (size_t) 1 << 20) + 1;
        P.pool = malloc(P.pool_alloc);
        if (!P.pool)
                r = -ENOMEM;
        else
                r = parse_buffer(&P, data, size);
        if (r >= 0 || r == -EBADMSG)
                finish_pool(&P);
        free(P.cont);
        free(P.pool);
        free(P.offs);
        free(P.sect);
        if (r < 0 && r != -EBADMSG)
                return r;

        *ret = TAKE_PTR(f);
        return r < 0 ? r : 0;
}
