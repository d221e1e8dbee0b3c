/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "graph-report.h"

char *origin_to_text(const Origin *o) {
        char *s = NULL;
        int r;

        switch (o->kind) {
        case ORIGIN_FILE:
        case ORIGIN_DROPIN:
                r = asprintf_safe(&s, "%s %s:%u%s", origin_kind_to_string(o->kind), strna(o->file), o->line,
                                  o->base ? " (base model)" : "");
                break;
        case ORIGIN_LINK:
                r = asprintf_safe(&s, "link %s%s", strna(o->file), o->base ? " (base model)" : "");
                break;
        case ORIGIN_RULE:
                /* the rule's id is stable, its line in the rules file is not: that is in the JSON only */
                r = asprintf_safe(&s, "%s %s (systemd %u)", strna(o->class), strna(o->rule), o->version);
                break;
        case ORIGIN_MOUNTS_FOR:
                if (o->rule)
                        r = asprintf_safe(&s, "mounts-for %s (%s)", strna(o->detail), o->rule);
                else
                        r = asprintf_safe(&s, "mounts-for %s (%s:%u)", strna(o->detail), strna(o->file), o->line);
                break;
        default:
                r = asprintf_safe(&s, "%s", strna(origin_kind_to_string(o->kind)));
        }
        return r < 0 ? NULL : s;
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
