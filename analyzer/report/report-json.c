/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/json.h"
#include "report/json-header.h"
#include "report/report.h"

void report_json_finding(JsonWriter *w, const Finding *x);

void report_json_finding(JsonWriter *w, const Finding *x) {
        json_begin_object(w);
        json_kv_string(w, "check", x->check);
        json_kv_string(w, "severity", severity_to_string(x->severity));
        json_kv_string(w, "unit", x->unit);
        json_kv_string(w, "file", x->file);
        if (x->line > 0)
                json_kv_uint(w, "line", x->line);
        else {
                json_key(w, "line");
                json_null(w);
        }
        json_kv_string(w, "message", x->message);
        json_kv_strv(w, "evidence", x->evidence);
        if (x->fix)
                json_kv_string(w, "fix", x->fix);
        if (x->fix_details) {
                const FindingFix *d = x->fix_details;
                json_key(w, "fix_details");
                json_begin_object(w);
                json_kv_string(w, "candidate", d->candidate);
                if (d->candidate) {
                        json_kv_string(w, "form", d->form);
                        json_kv_uint(w, "lines", d->lines);
                        if (d->note)
                                json_kv_string(w, "note", d->note);
                        json_kv_strv(w, "delayed", d->delayed);
                } else
                        json_kv_string(w, "reason", d->none_reason);
                json_key(w, "rejected");
                json_begin_array(w);
                for (char **r = d->rejected; r && r[0] && r[1]; r += 2) {
                        json_begin_object(w);
                        json_kv_string(w, "candidate", r[0]);
                        json_kv_string(w, "reason", r[1]);
                        json_end_object(w);
                }
                json_end_array(w);
                json_end_object(w);
        }
        if (x->suppressed)
                json_kv_string(w, "suppressed", x->suppressed);
        if (x->profile)
                json_kv_string(w, "profile", x->profile);
        json_end_object(w);
}

/* The profile the units were judged with, or null. */
static void profile(JsonWriter *w, const Profile *p) {
        json_key(w, "profile");
        if (!p) {
                json_null(w);
                return;
        }
        json_begin_object(w);
        json_kv_string(w, "name", profile_name(p));
        json_kv_string(w, "target", profile_target(p));
        json_kv_bool(w, "default", profile_is_default(p));
        json_kv_string(w, "file", path_basename(profile_file(p)));
        json_key(w, "packages");
        json_begin_array(w);
        for (size_t i = 0; i < profile_package_count(p); i++) {
                const ProfilePackage *k = profile_package_get(p, i);
                json_begin_object(w);
                json_kv_string(w, "name", k->name);
                json_kv_string(w, "version", k->version);
                json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
}

static void kv_string_or_null(JsonWriter *w, const char *key, const char *value) {
        json_key(w, key);
        if (value)
                json_string(w, value);
        else
                json_null(w);
}

/* The packages read and what systemd-tmpfiles would create from them (always present, maybe empty). */
static void packages(JsonWriter *w, const ReportMeta *m) {
        json_key(w, "packages");
        json_begin_array(w);
        for (size_t i = 0; m->packages && i < m->packages->n_packages; i++) {
                const Package *p = &m->packages->packages[i];
                json_begin_object(w);
                json_kv_string(w, "file", p->file);
                json_kv_string(w, "kind", p->data ? "stdin" : p->debian ? "debian" : p->tree ? "tree" : "deb");
                kv_string_or_null(w, "package", p->name);
                kv_string_or_null(w, "version", p->version);
                kv_string_or_null(w, "architecture", p->architecture);
                json_kv_uint(w, "entries", p->n_kept);
                json_end_object(w);
        }
        json_end_array(w);
        json_key(w, "tmpfiles");
        json_begin_array(w);
        for (size_t i = 0; m->tmpfiles && i < m->tmpfiles->n; i++) {
                const TmpfilesEntry *e = &m->tmpfiles->items[i];
                json_begin_object(w);
                json_kv_string(w, "file", e->file);
                json_kv_uint(w, "line", e->line);
                json_kv_string(w, "type", e->type);
                json_kv_string(w, "path", e->path);
                kv_string_or_null(w, "mode", e->mode);
                kv_string_or_null(w, "user", e->user);
                kv_string_or_null(w, "group", e->group);
                kv_string_or_null(w, "age", e->age);
                kv_string_or_null(w, "argument", e->argument);
                json_kv_bool(w, "creates", tmpfiles_type_creates(e->type));
                json_end_object(w);
        }
        json_end_array(w);
}

void report_json_nearest_model(JsonWriter *w, const VersionChoice *c) {
        if (!version_choice_nearest(c))
                return;
        json_key(w, "nearest_model");
        json_begin_object(w);
        json_kv_uint(w, "asked", c->asked);
        json_kv_uint(w, "judged", c->version);
        json_kv_uint(w, "oldest", c->oldest);
        json_kv_uint(w, "newest", c->newest);
        json_kv_string(w, "from", version_source_to_string(c->source));
        json_end_object(w);
}

/* "input_errors": what could not be judged, [{"file", "line", "message"}] (file and line null where unknown). */
static void input_errors(JsonWriter *w, const DiagList *l) {
        json_key(w, "input_errors");
        json_begin_array(w);
        for (size_t i = 0; l && i < l->n; i++) {
                json_begin_object(w);
                kv_string_or_null(w, "file", l->items[i].file);
                json_key(w, "line");
                if (l->items[i].line > 0)
                        json_uint(w, l->items[i].line);
                else
                        json_null(w);
                json_kv_string(w, "message", l->items[i].message);
                json_end_object(w);
        }
        json_end_array(w);
}

int report_json(const FindingList *l, const ReportMeta *m, FILE *f) {
        JsonWriter w;

        json_init(&w, f, false);
        report_json_begin(&w, m->tool_version);
        report_json_run(&w, l, m);
        json_end_object(&w);
        json_finish(&w);
        return ferror(f) ? -EIO : 0;
}

void report_json_run(JsonWriter *w, const FindingList *l, const ReportMeta *m) {
        size_t n_sev[_SEVERITY_MAX] = {}, n_suppressed = 0;

        json_kv_uint(w, "systemd", m->systemd);
        json_kv_string(w, "target", m->target);
        report_json_nearest_model(w, m->version_choice);
        profile(w, m->profile);
        json_key(w, "findings");
        json_begin_array(w);
        for (size_t i = 0; i < l->n; i++) {
                report_json_finding(w, &l->items[i]);
                if (l->items[i].suppressed)
                        n_suppressed++;
                else
                        n_sev[l->items[i].severity]++;
        }
        json_end_array(w);
        json_key(w, "summary");
        json_begin_object(w);
        json_kv_uint(w, "units", strv_length(m->units));
        json_kv_uint(w, "errors", n_sev[SEVERITY_ERROR]);
        json_kv_uint(w, "warnings", n_sev[SEVERITY_WARNING]);
        json_kv_uint(w, "info", n_sev[SEVERITY_INFO]);
        json_kv_uint(w, "suppressed", n_suppressed);
        json_kv_uint(w, "input_errors", m->errors ? m->errors->n : 0);
        json_end_object(w);
        input_errors(w, m->errors);
        packages(w, m);
}
