/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "report/graph-report.h"

static void put_uint(FILE *f, unsigned v) {
        char b[16], *p = b + sizeof b;

        *--p = 0;
        do
                *--p = (char) ('0' + v % 10);
        while ((v /= 10) > 0);
        fputs_unlocked(p, f);
}

void origin_print_text(FILE *f, const Origin *o) {
        switch (o->kind) {
        case ORIGIN_FILE:
        case ORIGIN_DROPIN:
                fputs_unlocked(origin_kind_to_string(o->kind), f);
                fputc_unlocked(' ', f);
                fputs_unlocked(strna(o->file), f);
                fputc_unlocked(':', f);
                put_uint(f, o->line);
                if (o->base)
                        fputs_unlocked(" (base model)", f);
                break;
        case ORIGIN_LINK:
                fputs_unlocked("link ", f);
                fputs_unlocked(strna(o->file), f);
                if (o->base)
                        fputs_unlocked(" (base model)", f);
                break;
        case ORIGIN_RULE:
                /* the rule's id is stable, its line in the rules file is not: that is in the JSON only */
                fputs_unlocked(strna(o->class), f);
                fputc_unlocked(' ', f);
                fputs_unlocked(strna(o->rule), f);
                fputs_unlocked(" (systemd ", f);
                put_uint(f, o->version);
                fputc_unlocked(')', f);
                break;
        case ORIGIN_MOUNTS_FOR:
                fputs_unlocked("mounts-for ", f);
                fputs_unlocked(strna(o->detail), f);
                fputs_unlocked(" (", f);
                if (o->rule)
                        fputs_unlocked(o->rule, f);
                else {
                        fputs_unlocked(strna(o->file), f);
                        fputc_unlocked(':', f);
                        put_uint(f, o->line);
                }
                fputc_unlocked(')', f);
                break;
        default:
                fputs_unlocked(strna(origin_kind_to_string(o->kind)), f);
        }
}

char *origin_to_text(const Origin *o) {
        char *s = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&s, &n);

        if (!f)
                return NULL;
        origin_print_text(f, o);
        if (fclose(f) != 0) {
                free(s);
                return NULL;
        }
        return s;
}

void origin_to_json(JsonWriter *w, const Origin *o) {
        json_begin_object(w);
        json_kv_string(w, "kind", origin_kind_to_string(o->kind));
        json_kv_string(w, "systemd", sd_origin_to_string(o->sd));
        json_kv_string(w, "file", o->file);
        if (o->line > 0)
                json_kv_uint(w, "line", o->line);
        if (o->rule)
                json_kv_string(w, "rule", o->rule);
        if (o->class)
                json_kv_string(w, "class", o->class);
        if (o->kind == ORIGIN_MOUNTS_FOR)
                json_kv_string(w, "path", o->detail);
        else if (o->kind == ORIGIN_RULE)
                json_kv_string(w, "source", o->detail);
        else if (o->detail)
                json_kv_string(w, "key", o->detail);
        if (o->version > 0)
                json_kv_uint(w, "version", o->version);
        json_kv_bool(w, "base", o->base);
        json_end_object(w);
}
