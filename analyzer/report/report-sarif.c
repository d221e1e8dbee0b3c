/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SARIF 2.1.0 (OASIS): one run, the checks as rules of the driver, one result per finding. */

#include "basic/json.h"
#include "report/report.h"

static const char *sarif_level(Severity s) {
        return s == SEVERITY_ERROR ? "error" : s == SEVERITY_WARNING ? "warning" : "note";
}

static void message(JsonWriter *w, const char *key, const char *text) {
        json_key(w, key);
        json_begin_object(w);
        json_kv_string(w, "text", text);
        json_end_object(w);
}

/* Relative paths are URI references as they are; absolute ones become file:// URIs. Characters that URIs do
 * not allow are percent-encoded. */
static char *path_to_uri(const char *p) {
        static const char hex[] = "0123456789ABCDEF";
        size_t n = strlen(p);
        char *r = malloc(n * 3 + 8), *o = r;

        if (!r)
                return NULL;
        if (p[0] == '/') {
                memcpy(o, "file://", 7);
                o += 7;
        } else if (memchr(p, ':', strcspn(p, "/"))) {
                /* "foo_1.0_all.deb:lib/..." would read as a URI scheme: a dot-segment first (RFC 3986 4.2) */
                memcpy(o, "./", 2);
                o += 2;
        }
        for (; *p; p++) {
                unsigned char c = (unsigned char) *p;
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    strchr("/-._~:@!$&'()*+,;=", c))
                        *o++ = (char) c;
                else {
                        *o++ = '%';
                        *o++ = hex[c >> 4];
                        *o++ = hex[c & 15];
                }
        }
        *o = 0;
        return r;
}

/* A physicalLocation's array "locations" for file:line (line 0: no region). */
static void locations(JsonWriter *w, const char *file, unsigned line) {
        _cleanup_(freep) char *uri = path_to_uri(file);

        json_key(w, "locations");
        json_begin_array(w);
        json_begin_object(w);
        json_key(w, "physicalLocation");
        json_begin_object(w);
        json_key(w, "artifactLocation");
        json_begin_object(w);
        json_kv_string(w, "uri", uri);
        json_end_object(w);
        if (line > 0) {
                json_key(w, "region");
                json_begin_object(w);
                json_kv_uint(w, "startLine", line);
                json_end_object(w);
        }
        json_end_object(w);
        json_end_object(w);
        json_end_array(w);
}

/* invocations: whether everything asked for could be judged, and each thing that could not as an error
 * notification (GitHub code scanning shows them as tool errors). */
static void invocations(JsonWriter *w, const DiagList *errors) {
        json_key(w, "invocations");
        json_begin_array(w);
        json_begin_object(w);
        json_kv_bool(w, "executionSuccessful", !errors || errors->n == 0);
        if (errors && errors->n > 0) {
                json_key(w, "toolExecutionNotifications");
                json_begin_array(w);
                for (size_t i = 0; i < errors->n; i++) {
                        json_begin_object(w);
                        json_kv_string(w, "level", "error");
                        message(w, "message", errors->items[i].message);
                        if (errors->items[i].file)
                                locations(w, errors->items[i].file, errors->items[i].line);
                        json_end_object(w);
                }
                json_end_array(w);
        }
        json_end_object(w);
        json_end_array(w);
}

int report_sarif(const FindingList *l, const ReportMeta *m, FILE *f) {
        return report_sarif_runs(&(ReportRun) { .findings = l, .meta = m }, 1, f);
}

int report_sarif_runs(const ReportRun *runs, size_t n, FILE *f) {
        JsonWriter w;

        json_init(&w, f, true);
        json_begin_object(&w);
        json_kv_string(&w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        json_kv_string(&w, "version", "2.1.0");
        json_key(&w, "runs");
        json_begin_array(&w);
        for (size_t i = 0; i < n; i++)
                report_sarif_run(&w, runs[i].findings, runs[i].meta);
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
        return ferror(f) ? -EIO : 0;
}

void report_sarif_run(JsonWriter *w, const FindingList *l, const ReportMeta *m) {
        size_t n_rules = rules_check_count(m->rules);

        json_begin_object(w);

        json_key(w, "tool");
        json_begin_object(w);
        json_key(w, "driver");
        json_begin_object(w);
        json_kv_string(w, "name", "bootrace");
        json_kv_string(w, "version", m->tool_version);
        json_key(w, "rules");
        json_begin_array(w);
        for (size_t i = 0; i < n_rules; i++) {
                const CheckInfo *c = rules_check_get(m->rules, i);
                json_begin_object(w);
                json_kv_string(w, "id", c->id);
                message(w, "shortDescription", c->title);
                message(w, "fullDescription", c->explanation);
                if (c->reference_urls && !isempty(c->reference_urls[0]))
                        json_kv_string(w, "helpUri", c->reference_urls[0]);
                json_key(w, "defaultConfiguration");
                json_begin_object(w);
                json_kv_string(w, "level", sarif_level(c->severity));
                json_end_object(w);
                json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
        json_end_object(w);

        invocations(w, m->errors);

        json_key(w, "properties");
        json_begin_object(w);
        json_kv_uint(w, "systemd", m->systemd);
        json_kv_string(w, "target", m->target);
        report_json_nearest_model(w, m->version_choice);
        if (m->nearest_note)
                json_kv_string(w, "note", m->nearest_note);
        json_end_object(w);

        json_key(w, "results");
        json_begin_array(w);
        for (size_t i = 0; i < l->n; i++) {
                const Finding *x = &l->items[i];
                json_begin_object(w);
                json_kv_string(w, "ruleId", x->check);
                for (size_t k = 0; k < n_rules; k++)
                        if (streq(rules_check_get(m->rules, k)->id, x->check)) {
                                json_kv_uint(w, "ruleIndex", k);
                                break;
                        }
                json_kv_string(w, "level", sarif_level(x->severity));
                message(w, "message", x->message);
                if (x->file)
                        locations(w, x->file, x->line);
                if (x->suppressed) {
                        json_key(w, "suppressions");
                        json_begin_array(w);
                        json_begin_object(w);
                        json_kv_string(w, "kind", startswith(x->suppressed, "override ") ? "external" : "inSource");
                        json_kv_string(w, "justification", x->suppressed);
                        json_end_object(w);
                        json_end_array(w);
                }
                json_key(w, "properties");
                json_begin_object(w);
                json_kv_string(w, "unit", x->unit);
                json_kv_strv(w, "evidence", x->evidence);
                if (x->fix)
                        json_kv_string(w, "fix", x->fix);
                json_end_object(w);
                json_end_object(w);
        }
        json_end_array(w);

        json_end_object(w);
}
