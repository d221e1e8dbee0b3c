/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>

#include "basic/json.h"

void json_init(JsonWriter *w, FILE *f, bool pretty) {
        *w = (JsonWriter) { .f = f, .pretty = pretty };
}

static void newline_indent(JsonWriter *w) {
        if (!w->pretty)
                return;
        fputc('\n', w->f);
        for (unsigned i = 0; i < w->depth; i++)
                fputs("  ", w->f);
}

/* Called before every value or key: writes the separating comma and indentation. */
static void before_value(JsonWriter *w) {
        if (w->after_key) {
                w->after_key = false;
                return;
        }
        if (w->depth > 0) {
                if (w->need_comma[w->depth])
                        fputc(',', w->f);
                w->need_comma[w->depth] = true;
                newline_indent(w);
        }
}

static void begin(JsonWriter *w, char c) {
        before_value(w);
        fputc(c, w->f);
        if (w->depth + 1 < JSON_DEPTH_MAX)
                w->depth++;
        w->need_comma[w->depth] = false;
}

static void end(JsonWriter *w, char c) {
        bool had = w->need_comma[w->depth];
        if (w->depth > 0)
                w->depth--;
        if (had)
                newline_indent(w);
        fputc(c, w->f);
}

void json_begin_object(JsonWriter *w) {
        begin(w, '{');
}
void json_end_object(JsonWriter *w) {
        end(w, '}');
}
void json_begin_array(JsonWriter *w) {
        begin(w, '[');
}
void json_end_array(JsonWriter *w) {
        end(w, ']');
}

static void write_escaped(FILE *f, const char *s, size_t n) {
        fputc('"', f);
        for (size_t i = 0; i < n;) {
                unsigned char c = (unsigned char) s[i];
                size_t bad;

                switch (c) {
                case '"':
                        fputs("\\\"", f);
                        i++;
                        continue;
                case '\\':
                        fputs("\\\\", f);
                        i++;
                        continue;
                case '\n':
                        fputs("\\n", f);
                        i++;
                        continue;
                case '\t':
                        fputs("\\t", f);
                        i++;
                        continue;
                case '\r':
                        fputs("\\r", f);
                        i++;
                        continue;
                }
                if (c < 0x20 || c == 0x7f) {
                        fprintf(f, "\\u%04x", c);
                        i++;
                        continue;
                }
                if (c < 0x80) {
                        fputc(c, f);
                        i++;
                        continue;
                }
                /* copy the longest valid UTF-8 run, replace one invalid byte */
                bad = utf8_first_invalid(s + i, n - i, 0);
                if (bad == 0) {
                        fputs("\xef\xbf\xbd", f);
                        i++;
                        continue;
                }
                {
                        size_t run = 0;
                        /* only copy up to the next ASCII byte so escapes above still apply */
                        while (run < bad && (unsigned char) s[i + run] >= 0x80)
                                run++;
                        fwrite(s + i, 1, run, f);
                        i += run;
                }
        }
        fputc('"', f);
}

void json_key(JsonWriter *w, const char *key) {
        before_value(w);
        write_escaped(w->f, key, strlen(key));
        fputs(w->pretty ? ": " : ":", w->f);
        w->after_key = true;
}

void json_string_n(JsonWriter *w, const char *s, size_t n) {
        before_value(w);
        write_escaped(w->f, s, n);
}

void json_string(JsonWriter *w, const char *s) {
        if (!s) {
                json_null(w);
                return;
        }
        json_string_n(w, s, strlen(s));
}

void json_int(JsonWriter *w, long long v) {
        before_value(w);
        fprintf(w->f, "%lld", v);
}

void json_uint(JsonWriter *w, unsigned long long v) {
        before_value(w);
        fprintf(w->f, "%llu", v);
}

void json_double(JsonWriter *w, double v) {
        before_value(w);
        if (!isfinite(v))
                fputs("null", w->f);
        else
                fprintf(w->f, "%.6g", v);
}

void json_bool(JsonWriter *w, bool b) {
        before_value(w);
        fputs(b ? "true" : "false", w->f);
}

void json_null(JsonWriter *w) {
        before_value(w);
        fputs("null", w->f);
}

void json_finish(JsonWriter *w) {
        fputc('\n', w->f);
        fflush(w->f);
}

void json_kv_strv(JsonWriter *w, const char *key, char * const *l) {
        json_key(w, key);
        json_begin_array(w);
        STRV_FOREACH(s, l)
                json_string(w, *s);
        json_end_array(w);
}
