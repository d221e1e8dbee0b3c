/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "config.h"
#include "report/json-header.h"
#include "report/live-report.h"

void live_report_json_begin(JsonWriter *w, const LiveSystem *s) {
        report_json_begin(w, NULL);
        json_kv_string(w, "source", "live");
        json_kv_string(w, "systemd", s->manager.version);
        json_kv_string(w, "virtualization", s->manager.virtualization);
}

static void strv_line(FILE *f, const char *label, char * const *l) {
        fprintf(f, "%s:", label);
        STRV_FOREACH(x, l)
                fprintf(f, " %s", *x);
        fputc('\n', f);
}

static void json_usec_or_null(JsonWriter *w, const char *key, uint64_t v) {
        json_key(w, key);
        if (v)
                json_uint(w, v);
        else
                json_null(w);
}

void live_report_units_text(const LiveSystem *s, LiveUnit * const *units, size_t n, FILE *f) {
        for (size_t i = 0; i < n; i++) {
                const LiveUnit *u = units[i];

                if (i > 0)
                        fputc('\n', f);
                fprintf(f, "# %s, as PID 1 holds it (systemd %s)\n", u->id, strna(s->manager.version));
                strv_line(f, "Names", u->names);
                if (!isempty(u->description))
                        fprintf(f, "Description: %s\n", u->description);
                fprintf(f, "LoadState: %s\n", strna(u->load_state));
                if (u->load_error)
                        fprintf(f, "LoadError: %s: %s\n", u->load_error, strempty(u->load_error_msg));
                fprintf(f, "ActiveState: %s (%s)\n", strna(u->active_state), strna(u->sub_state));
                fprintf(f, "Fragment: %s\n", isempty(u->fragment_path) ? "-" : u->fragment_path);
                if (!isempty(u->source_path))
                        fprintf(f, "SourcePath: %s\n", u->source_path);
                STRV_FOREACH(d, u->drop_in_paths)
                        fprintf(f, "DropIn: %s\n", *d);
                fprintf(f, "Transient: %s\n", u->transient ? "yes" : "no");
                fprintf(f, "DefaultDependencies: %s\n", u->default_dependencies ? "yes" : "no");
                if (!isempty(u->following))
                        fprintf(f, "Following: %s\n", u->following);
                for (LiveDep d = 0; d < _LIVE_DEP_MAX; d++)
                        if (u->deps[d] && u->deps[d][0])
                                strv_line(f, live_dep_to_string(d), u->deps[d]);
                if (u->job_id)
                        fprintf(f, "Job: %" PRIu32 "\n", u->job_id);
                if (u->invocation_id)
                        fprintf(f, "InvocationID: %s\n", u->invocation_id);
                fprintf(f,
                        "Timestamps (CLOCK_MONOTONIC, µs): InactiveExit=%" PRIu64 " ActiveEnter=%" PRIu64
                        " ActiveExit=%" PRIu64 " InactiveEnter=%" PRIu64 "\n",
                        u->times.inactive_exit, u->times.active_enter, u->times.active_exit,
                        u->times.inactive_enter);
        }
}

void live_report_units_json(const LiveSystem *s, LiveUnit * const *units, size_t n, const DiagList *diags,
                            FILE *f) {
        JsonWriter w;

        json_init(&w, f, false);
        live_report_json_begin(&w, s);
        json_key(&w, "units");
        json_begin_array(&w);
        for (size_t i = 0; i < n; i++) {
                const LiveUnit *u = units[i];

                json_begin_object(&w);
                json_kv_string(&w, "id", u->id);
                json_kv_strv(&w, "names", u->names);
                json_kv_string(&w, "description", u->description);
                json_kv_string(&w, "load_state", u->load_state);
                json_kv_string(&w, "load_error", u->load_error);
                json_kv_string(&w, "active_state", u->active_state);
                json_kv_string(&w, "sub_state", u->sub_state);
                json_kv_string(&w, "fragment", isempty(u->fragment_path) ? NULL : u->fragment_path);
                json_kv_string(&w, "source_path", isempty(u->source_path) ? NULL : u->source_path);
                json_kv_strv(&w, "dropins", u->drop_in_paths);
                json_kv_bool(&w, "transient", u->transient);
                json_kv_bool(&w, "default_dependencies", u->default_dependencies);
                json_key(&w, "dependencies");
                json_begin_object(&w);
                for (LiveDep d = 0; d < _LIVE_DEP_MAX; d++)
                        if (u->has_deps & (UINT64_C(1) << d))
                                json_kv_strv(&w, live_dep_to_string(d), u->deps[d]);
                json_end_object(&w);
                json_key(&w, "job");
                if (u->job_id)
                        json_uint(&w, u->job_id);
                else
                        json_null(&w);
                json_kv_string(&w, "invocation_id", u->invocation_id);
                json_key(&w, "timestamps");
                json_begin_object(&w);
                json_usec_or_null(&w, "inactive_exit_usec", u->times.inactive_exit);
                json_usec_or_null(&w, "active_enter_usec", u->times.active_enter);
                json_usec_or_null(&w, "active_exit_usec", u->times.active_exit);
                json_usec_or_null(&w, "inactive_enter_usec", u->times.inactive_enter);
                json_end_object(&w);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_key(&w, "diagnostics");
        json_begin_array(&w);
        for (size_t i = 0; diags && i < diags->n; i++) {
                json_begin_object(&w);
                json_kv_string(&w, "level", diag_level_to_string(diags->items[i].level));
                json_kv_string(&w, "message", diags->items[i].message);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

static void dot_quoted(FILE *f, const char *s) {
        fputc('"', f);
        for (; *s; s++) {
                if (*s == '"' || *s == '\\')
                        fputc('\\', f);
                fputc(*s, f);
        }
        fputc('"', f);
}

/* Is the unit with this id one of those asked for (all when none were)? */
static bool wanted(const LiveSystem *s, const char * const *units, size_t n, const char *id) {
        if (n == 0)
                return true;
        for (size_t i = 0; i < n; i++) {
                const LiveUnit *u = live_system_find(s, units[i]);
                if (u && streq(u->id, id))
                        return true;
        }
        return false;
}

/* The same shapes as the offline graph verb prints (bootrace(1)), with every origin "live": PID 1 keeps no
 * record of where an edge came from, and no label ("origin-file", ...) either. */
static void graph_json_origin(JsonWriter *w) {
        json_begin_object(w);
        json_kv_string(w, "kind", "live");
        json_kv_string(w, "systemd", NULL);
        json_kv_string(w, "file", NULL);
        json_kv_bool(w, "base", false);
        json_end_object(w);
}

int live_report_graph(const LiveSystem *s, const char * const *units, size_t n_units, OutputFormat format,
                      FILE *f) {
        _cleanup_(freep) LiveEdge *e = NULL;
        size_t n, k = 0;
        int r;

        r = live_graph_edges(s, &e, &n);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                if (wanted(s, units, n_units, e[i].from))
                        e[k++] = e[i];
        n = k;

        if (format == FORMAT_JSON) {
                JsonWriter w;
                json_init(&w, f, false);
                report_json_begin(&w, NULL);
                json_kv_uint(&w, "systemd", s->manager.version_major);
                json_kv_string(&w, "systemd_from", "live");
                json_kv_string(&w, "systemd_version", s->manager.version);
                json_kv_string(&w, "target", NULL);
                json_kv_string(&w, "root", NULL);
                json_kv_string(&w, "base_model", NULL);
                json_key(&w, "units");
                json_begin_array(&w);
                for (size_t i = 0; i < s->n_units; i++) {
                        const LiveUnit *u = s->units[i];
                        if (!wanted(s, units, n_units, u->id))
                                continue;
                        json_begin_object(&w);
                        json_kv_string(&w, "id", u->id);
                        json_kv_string(&w, "load_state", u->load_state);
                        json_kv_string(&w, "active_state", u->active_state);
                        json_kv_string(&w, "fragment", isempty(u->fragment_path) ? NULL : u->fragment_path);
                        json_kv_bool(&w, "base", false);
                        json_kv_bool(&w, "default_dependencies", u->default_dependencies);
                        json_key(&w, "mounts_for");
                        json_begin_array(&w);
                        for (LiveDep d = LIVE_DEP_REQUIRES_MOUNTS_FOR; d <= LIVE_DEP_WANTS_MOUNTS_FOR; d++)
                                STRV_FOREACH(p, u->deps[d]) {
                                        json_begin_object(&w);
                                        json_kv_string(&w, "path", *p);
                                        json_kv_string(&w, "mode",
                                                       d == LIVE_DEP_WANTS_MOUNTS_FOR ? "wants" :
                                                                                        "requires");
                                        json_key(&w, "origin");
                                        graph_json_origin(&w);
                                        json_end_object(&w);
                                }
                        json_end_array(&w);
                        json_end_object(&w);
                }
                json_end_array(&w);
                json_key(&w, "edges");
                json_begin_array(&w);
                for (size_t i = 0; i < n; i++) {
                        json_begin_object(&w);
                        json_kv_string(&w, "from", e[i].from);
                        json_kv_string(&w, "type", live_dep_to_string(e[i].type));
                        json_kv_string(&w, "to", e[i].to);
                        json_key(&w, "origin");
                        graph_json_origin(&w);
                        json_end_object(&w);
                }
                json_end_array(&w);
                json_end_object(&w);
                json_finish(&w);
        } else if (format == FORMAT_DOT) {
                fputs("digraph bootrace {\n\trankdir=LR;\n", f);
                for (size_t i = 0; i < n; i++) {
                        /* "a After b" is drawn b -> a: arrows point the way the boot goes */
                        bool rev = e[i].type == LIVE_DEP_AFTER;
                        fputc('\t', f);
                        dot_quoted(f, rev ? e[i].to : e[i].from);
                        fputs(" -> ", f);
                        dot_quoted(f, rev ? e[i].from : e[i].to);
                        fprintf(f, " [label=\"%s\"];\n", live_dep_to_string(e[i].type));
                }
                fputs("}\n", f);
        } else {
                for (size_t i = 0; i < n; i++)
                        fprintf(f, "%s\t%s\t%s\t-\tlive\n", e[i].from, live_dep_to_string(e[i].type),
                                e[i].to);
                for (size_t i = 0; i < s->n_units; i++) {
                        const LiveUnit *u = s->units[i];
                        if (!wanted(s, units, n_units, u->id))
                                continue;
                        for (LiveDep d = LIVE_DEP_REQUIRES_MOUNTS_FOR; d <= LIVE_DEP_WANTS_MOUNTS_FOR; d++)
                                STRV_FOREACH(p, u->deps[d])
                        fprintf(f, "%s\t%s\t%s\t-\tlive\n", u->id, live_dep_to_string(d), *p);
                }
        }
        return 0;
}

/* systemd draws trees with box-drawing characters in a UTF-8 locale, and when no locale is set at all; an
 * explicitly set C, POSIX or other non-UTF-8 locale gets ASCII (its is_locale_utf8()). */
static bool locale_is_utf8(void) {
        static const char * const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

        for (size_t i = 0; i < ELEMENTSOF(vars); i++) {
                const char *v = getenv(vars[i]);
                if (isempty(v))
                        continue;
                return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
        }
        return true;
}

static void chain_indent(FILE *f, unsigned level, uint64_t branches, bool utf8) {
        for (unsigned i = level; i > 0; i--)
                fputs(branches & (UINT64_C(1) << (i - 1)) ? (utf8 ? "│ " : "| ") : "  ", f);
}

void live_report_chain_text(const LiveChain *c, bool color, FILE *f) {
        const char *red = color ? "\x1b[0;1;31m" : "", *normal = color ? "\x1b[0m" : "";
        bool utf8 = locale_is_utf8();
        char a[64], b[64];

        fputs("The time when unit became active or started is printed after the \"@\" character.\n"
              "The time the unit took to start is printed after the \"+\" character.\n\n",
              f);
        if (c->has_times) {
                if (c->t.time)
                        fprintf(f, "%s%s +%s%s\n", red, c->unit, live_format_timespan(a, c->t.time), normal);
                else if (c->t.activated > c->userspace)
                        fprintf(f, "%s @%s\n", c->unit,
                                live_format_timespan(a, c->t.activated - c->userspace));
                else
                        fprintf(f, "%s\n", c->unit);
        }
        for (size_t i = 0; i < c->n_lines; i++) {
                const LiveChainLine *l = &c->lines[i];

                chain_indent(f, l->level, l->branches, utf8);
                fputs(l->last ? (utf8 ? "└─" : "`-") : (utf8 ? "├─" : "|-"), f);
                if (!l->unit)
                        fputs("...\n", f);
                else if (l->has_times && l->t.activating >= c->userspace) {
                        if (l->t.time)
                                fprintf(f, "%s%s @%s +%s%s\n", red, l->unit,
                                        live_format_timespan(a, l->t.activating - c->userspace),
                                        live_format_timespan(b, l->t.time), normal);
                        else
                                fprintf(f, "%s @%s\n", l->unit,
                                        live_format_timespan(a, l->t.activated - c->userspace));
                } else
                        fprintf(f, "%s\n", l->unit);
        }
}

static void chain_json_times(JsonWriter *w, bool has, const LiveChainTimes *t, uint64_t userspace) {
        json_key(w, "activating_usec");
        if (has && t->activating >= userspace)
                json_uint(w, t->activating - userspace);
        else
                json_null(w);
        json_key(w, "active_usec");
        if (has && t->activated >= userspace && t->activated > 0)
                json_uint(w, t->activated - userspace);
        else
                json_null(w);
        json_key(w, "duration_usec");
        if (has)
                json_uint(w, t->time);
        else
                json_null(w);
}

void live_report_chain_json(const LiveSystem *s, const LiveChain *c, FILE *f) {
        JsonWriter w;

        json_init(&w, f, false);
        live_report_json_begin(&w, s);
        json_kv_string(&w, "unit", c->unit);
        json_kv_uint(&w, "finish_usec", c->finish >= c->userspace ? c->finish - c->userspace : 0);
        json_key(&w, "chain");
        json_begin_array(&w);
        json_begin_object(&w);
        json_kv_string(&w, "unit", c->unit);
        json_kv_uint(&w, "level", 0);
        chain_json_times(&w, c->has_times, &c->t, c->userspace);
        json_kv_bool(&w, "inferred", false);
        json_kv_bool(&w, "repeated", false);
        json_end_object(&w);
        for (size_t i = 0; i < c->n_lines; i++) {
                const LiveChainLine *l = &c->lines[i];
                if (!l->unit) /* the "..." marker: the entry before it is a repeat */
                        continue;
                json_begin_object(&w);
                json_kv_string(&w, "unit", l->unit);
                json_kv_uint(&w, "level", l->level + 1);
                chain_json_times(&w, l->has_times, &l->t, c->userspace);
                json_kv_bool(&w, "inferred", false);
                json_kv_bool(&w, "repeated", i + 1 < c->n_lines && !c->lines[i + 1].unit);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}
