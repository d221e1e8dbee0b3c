/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>

#include "fix/fix-edit.h"

typedef enum LineKind {
        LINE_BLANK,
        LINE_COMMENT,
        LINE_HEADER,
        LINE_ASSIGN,
        LINE_CONT, /* a continuation line of the assignment above */
        LINE_OTHER, /* text without '=' */
} LineKind;

typedef struct TextLine {
        size_t start, len; /* the line without its terminator */
        size_t end; /* after the terminator */
        LineKind kind;
        size_t section; /* index of its section's header line, SIZE_MAX before the first */
        size_t last; /* LINE_ASSIGN: index of the last line of the assignment (continuations) */
        size_t key, key_len; /* LINE_ASSIGN: the key, trimmed; LINE_HEADER: the section name */
} TextLine;

typedef struct Text {
        const char *s;
        size_t size;
        TextLine *lines;
        size_t n;
} Text;

static const char * const dependency_keys[] = {
        "After",
        "Before",
        "Requires",
        "Requisite",
        "Wants",
        "BindsTo",
        "PartOf",
        "Upholds",
        "Conflicts",
        "OnFailure",
        "OnSuccess",
        "PropagatesReloadTo",
        "ReloadPropagatedFrom",
        "PropagatesStopTo",
        "StopPropagatedFrom",
        "JoinsNamespaceOf",
        "RequiresMountsFor",
        "WantsMountsFor",
        "RequiresOverridable",
        "RequisiteOverridable",
        NULL,
};

bool fix_edit_is_dependency_key(const char *key) {
        for (const char * const *k = dependency_keys; *k; k++)
                if (streq(*k, key))
                        return true;
        return false;
}

static void text_done(Text *t) {
        t->lines = mfree(t->lines);
}

/* The line without trailing whitespace (and CR) ends with a backslash: the assignment continues. */
static bool continues(const char *s, size_t len) {
        while (len > 0 && isspace((unsigned char) s[len - 1]))
                len--;
        return len > 0 && s[len - 1] == '\\';
}

static int text_parse(const char *s, Text *t) {
        size_t n = 0, section = SIZE_MAX, cont_of = SIZE_MAX;

        *t = (Text) { .s = s, .size = strlen(s) };
        for (size_t i = 0; i < t->size; i++)
                n += s[i] == '\n';
        t->lines = calloc(n + 2, sizeof(TextLine));
        if (!t->lines)
                return -ENOMEM;
        for (size_t pos = 0; pos < t->size;) {
                const char *nl = memchr(s + pos, '\n', t->size - pos);
                size_t len = nl ? (size_t) (nl - (s + pos)) : t->size - pos, lead = 0;
                TextLine *l = &t->lines[t->n];

                *l = (TextLine) { .start = pos, .len = len, .end = pos + len + !!nl, .section = section };
                while (lead < len && isspace((unsigned char) s[pos + lead]))
                        lead++;
                if (cont_of != SIZE_MAX) {
                        /* comments inside a continuation do not end it; anything else ends it unless it
                         * continues itself */
                        l->kind = LINE_CONT;
                        t->lines[cont_of].last = t->n;
                        if (lead < len && !strchr("#;", s[pos + lead]) && !continues(s + pos, len))
                                cont_of = SIZE_MAX;
                        else if (lead == len)
                                cont_of = SIZE_MAX;
                } else if (lead == len)
                        l->kind = LINE_BLANK;
                else if (strchr("#;", s[pos + lead]))
                        l->kind = LINE_COMMENT;
                else if (s[pos + lead] == '[') {
                        const char *close = memchr(s + pos + lead, ']', len - lead);
                        l->kind = LINE_HEADER;
                        l->key = pos + lead + 1;
                        l->key_len = close ? (size_t) (close - (s + l->key)) : 0;
                        section = t->n;
                        l->section = section;
                } else {
                        const char *eq = memchr(s + pos + lead, '=', len - lead);
                        if (!eq)
                                l->kind = LINE_OTHER;
                        else {
                                size_t klen = (size_t) (eq - (s + pos + lead));
                                while (klen > 0 && isspace((unsigned char) s[pos + lead + klen - 1]))
                                        klen--;
                                l->kind = LINE_ASSIGN;
                                l->key = pos + lead;
                                l->key_len = klen;
                                l->last = t->n;
                                if (continues(s + pos, len))
                                        cont_of = t->n;
                        }
                }
                t->n++;
                pos = l->end;
        }
        return 0;
}

static bool key_is(const Text *t, const TextLine *l, const char *key) {
        return l->key_len == strlen(key) && memcmp(t->s + l->key, key, l->key_len) == 0;
}

static bool in_section(const Text *t, const TextLine *l, const char *section) {
        return l->section != SIZE_MAX && key_is(t, &t->lines[l->section], section);
}

/* The line ending a line uses ("\r\n" or "\n"); "\n" for a last line without one. */
static const char *line_ending(const Text *t, const TextLine *l) {
        return l->end > l->start + l->len && l->len > 0 && t->s[l->start + l->len - 1] == '\r' ? "\r\n"
                                                                                               : "\n";
}

int fix_edit_add(const char *text, const char *section, char * const *lines, char **ret) {
        _cleanup_(text_done) Text t = {};
        _cleanup_(freep) char *out = NULL;
        size_t after = SIZE_MAX, first_header = SIZE_MAX, first_instance = SIZE_MAX, last_assign = SIZE_MAX,
               len = 0, at;
        const char *eol = "\n", *indent = "";
        size_t indent_len = 0;
        bool new_section = false;
        FILE *f;

        if (text_parse(text, &t) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < t.n; i++) {
                const TextLine *l = &t.lines[i];

                if (l->kind == LINE_HEADER) {
                        if (first_header == SIZE_MAX)
                                first_header = i;
                        if (first_instance == SIZE_MAX && key_is(&t, l, section))
                                first_instance = i;
                }
                if (l->kind != LINE_ASSIGN || !in_section(&t, l, section))
                        continue;
                if (l->section == first_instance)
                        last_assign = i;
                if (streq(section, "Unit")) {
                        _cleanup_(freep) char *k = strndup_safe(t.s + l->key, l->key_len);
                        if (!k)
                                return -ENOMEM;
                        if (fix_edit_is_dependency_key(k))
                                after = i;
                }
        }
        if (after == SIZE_MAX)
                after = last_assign;
        if (after != SIZE_MAX) {
                const TextLine *a = &t.lines[after];
                indent = t.s + a->start;
                indent_len = a->key - a->start;
                eol = line_ending(&t, a);
                after = a->last;
                at = t.lines[after].end;
        } else if (first_instance != SIZE_MAX) {
                eol = line_ending(&t, &t.lines[first_instance]);
                after = first_instance;
                at = t.lines[first_instance].end;
        } else {
                new_section = true;
                if (streq(section, "Unit") && first_header != SIZE_MAX)
                        at = t.lines[first_header].start;
                else
                        at = t.size;
                if (t.n > 0)
                        eol = line_ending(&t, &t.lines[0]);
        }

        f = open_memstream(&out, &len);
        if (!f)
                return -ENOMEM;
        fwrite(t.s, 1, at, f);
        /* a last line without newline gets one before anything follows it */
        if (at == t.size && t.size > 0 && t.s[t.size - 1] != '\n')
                fputs(eol, f);
        if (new_section) {
                /* a blank line between the section before and the new one */
                if (at == t.size && t.n > 0 && t.lines[t.n - 1].kind != LINE_BLANK)
                        fputs(eol, f);
                fprintf(f, "[%s]%s", section, eol);
        }
        STRV_FOREACH(l, lines)
        fprintf(f, "%.*s%s%s", (int) indent_len, indent, *l, eol);
        if (new_section && at < t.size)
                fputs(eol, f);
        fwrite(t.s + at, 1, t.size - at, f);
        if (fclose(f) != 0)
                return -ENOMEM;
        *ret = TAKE_PTR(out);
        return 0;
}

int fix_edit_remove_word(const char *text, unsigned line, const char *key, const char *word, char **ret) {
        _cleanup_(text_done) Text t = {};
        const TextLine *l;
        const char *v, *end;
        size_t cut_from = 0, cut_to = 0, n_words = 0, wl = strlen(word);
        bool found = false;
        char *out;

        if (text_parse(text, &t) < 0)
                return -ENOMEM;
        if (line == 0 || line > t.n)
                return -ENOENT;
        l = &t.lines[line - 1];
        if (l->kind != LINE_ASSIGN || !key_is(&t, l, key))
                return -ENOENT;
        if (l->last != line - 1)
                return -EOPNOTSUPP;
        v = memchr(t.s + l->key, '=', l->len) + 1;
        end = t.s + l->start + l->len;
        if (end > v && end[-1] == '\r')
                end--;
        for (const char *p = v, *prev_end = v; p < end;) {
                const char *w;
                while (p < end && isspace((unsigned char) *p))
                        p++;
                if (p >= end)
                        break;
                w = p;
                while (p < end && !isspace((unsigned char) *p))
                        p++;
                n_words++;
                if (!found && (size_t) (p - w) == wl && memcmp(w, word, wl) == 0) {
                        found = true;
                        /* the word and the blank before it; the first word takes the blank after it */
                        if (n_words > 1) {
                                cut_from = (size_t) (prev_end - t.s);
                                cut_to = (size_t) (p - t.s);
                        } else {
                                const char *q = p;
                                while (q < end && isspace((unsigned char) *q))
                                        q++;
                                cut_from = (size_t) (w - t.s);
                                cut_to = (size_t) (q - t.s);
                        }
                }
                prev_end = p;
        }
        if (!found)
                return -ENOENT;
        if (n_words == 1) {
                /* the whole line goes */
                cut_from = l->start;
                cut_to = l->end;
        }
        out = malloc(t.size - (cut_to - cut_from) + 1);
        if (!out)
                return -ENOMEM;
        memcpy(out, t.s, cut_from);
        memcpy(out + cut_from, t.s + cut_to, t.size - cut_to);
        out[t.size - (cut_to - cut_from)] = 0;
        *ret = out;
        return 0;
}

int fix_edit_remove_key(const char *text, const char *section, const char *key, char **ret) {
        _cleanup_(text_done) Text t = {};
        _cleanup_(freep) char *out = NULL;
        size_t len = 0, pos = 0;
        bool found = false;
        FILE *f;

        if (text_parse(text, &t) < 0)
                return -ENOMEM;
        f = open_memstream(&out, &len);
        if (!f)
                return -ENOMEM;
        for (size_t i = 0; i < t.n; i++) {
                const TextLine *l = &t.lines[i];
                if (l->kind != LINE_ASSIGN || !in_section(&t, l, section) || !key_is(&t, l, key))
                        continue;
                fwrite(t.s + pos, 1, l->start - pos, f);
                pos = t.lines[l->last].end;
                i = l->last;
                found = true;
        }
        fwrite(t.s + pos, 1, t.size - pos, f);
        if (fclose(f) != 0)
                return -ENOMEM;
        if (!found)
                return -ENOENT;
        *ret = TAKE_PTR(out);
        return 0;
}
