/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JUnit XML with libxml2's text writer: one testsuite, one failing testcase per finding (suppressed ones are
 * skipped), one passing testcase per unit without findings. */

#include <libxml/xmlwriter.h>

#include "report/report.h"

static inline void xmlFreeTextWriterp(xmlTextWriterPtr *w) {
        if (*w)
                xmlFreeTextWriter(*w);
}
static inline void xmlBufferFreep(xmlBufferPtr *b) {
        if (*b)
                xmlBufferFree(*b);
}

static bool unit_has_findings(const FindingList *l, const char *unit) {
        for (size_t i = 0; i < l->n; i++)
                if (streq_ptr(l->items[i].unit, unit))
                        return true;
        return false;
}

/* libxml2 refuses invalid UTF-8 (and XML 1.0 forbids most control characters): clean strings first */
static int write_attr(xmlTextWriterPtr w, const char *name, const char *value) {
        _cleanup_(freep) char *v = utf8_sanitize(strempty(value));
        if (!v)
                return -1;
        for (char *p = v; *p; p++)
                if ((unsigned char) *p < 0x20 && *p != '\n' && *p != '\t')
                        *p = '?';
        return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
}

static int write_string(xmlTextWriterPtr w, const char *value) {
        _cleanup_(freep) char *v = utf8_sanitize(strempty(value));
        if (!v)
                return -1;
        for (char *p = v; *p; p++)
                if ((unsigned char) *p < 0x20 && *p != '\n' && *p != '\t')
                        *p = '?';
        return xmlTextWriterWriteString(w, BAD_CAST v);
}

#define W(expr)                             \
        do {                                \
                if ((expr) < 0)             \
                        return -EIO;        \
        } while (0)

/* One testsuite: name, then a failing case per finding, an erroring one per input error, a passing one per
 * clean unit. */
static int junit_suite(xmlTextWriterPtr w, const FindingList *l, const ReportMeta *m, const char *suite) {
        size_t n_fail = 0, n_skip = 0, n_tests = 0, n_errors = m->errors ? m->errors->n : 0;
        char num[32];

        for (size_t i = 0; i < l->n; i++)
                l->items[i].suppressed ? n_skip++ : n_fail++;
        n_tests = l->n + n_errors;
        STRV_FOREACH(u, m->units)
                if (!unit_has_findings(l, *u))
                        n_tests++;

        W(xmlTextWriterStartElement(w, BAD_CAST "testsuite"));
        W(write_attr(w, "name", suite));
        snprintf(num, sizeof num, "%zu", n_tests);
        W(write_attr(w, "tests", num));
        snprintf(num, sizeof num, "%zu", n_fail);
        W(write_attr(w, "failures", num));
        snprintf(num, sizeof num, "%zu", n_skip);
        W(write_attr(w, "skipped", num));
        snprintf(num, sizeof num, "%zu", n_errors);
        W(write_attr(w, "errors", num));
        W(xmlTextWriterStartElement(w, BAD_CAST "properties"));
        W(xmlTextWriterStartElement(w, BAD_CAST "property"));
        W(write_attr(w, "name", "systemd"));
        snprintf(num, sizeof num, "%u", m->systemd);
        W(write_attr(w, "value", num));
        W(xmlTextWriterEndElement(w));
        if (m->nearest_note) {
                W(xmlTextWriterStartElement(w, BAD_CAST "property"));
                W(write_attr(w, "name", "systemd-asked"));
                snprintf(num, sizeof num, "%u", m->version_choice->asked);
                W(write_attr(w, "value", num));
                W(xmlTextWriterEndElement(w));
                W(xmlTextWriterStartElement(w, BAD_CAST "property"));
                W(write_attr(w, "name", "nearest-model"));
                W(write_attr(w, "value", m->nearest_note));
                W(xmlTextWriterEndElement(w));
        }
        W(xmlTextWriterEndElement(w));

        for (size_t i = 0; i < l->n; i++) {
                const Finding *x = &l->items[i];
                _cleanup_(freep) char *name = NULL, *body = NULL;
                size_t len = 0;

                if (asprintf_safe(&name, "%s: %s", x->check, x->file ?: strempty(x->unit)) < 0)
                        return -ENOMEM;
                W(xmlTextWriterStartElement(w, BAD_CAST "testcase"));
                W(write_attr(w, "classname", x->unit ?: "bootrace"));
                W(write_attr(w, "name", name));
                if (x->suppressed) {
                        W(xmlTextWriterStartElement(w, BAD_CAST "skipped"));
                        W(write_attr(w, "message", x->suppressed));
                        W(xmlTextWriterEndElement(w));
                } else {
                        W(xmlTextWriterStartElement(w, BAD_CAST "failure"));
                        W(write_attr(w, "type", severity_to_string(x->severity)));
                        W(write_attr(w, "message", x->message));
                        STRV_FOREACH(e, x->evidence)
                                len += strlen(*e) + 1;
                        body = calloc(len + 1, 1);
                        if (!body)
                                return -ENOMEM;
                        STRV_FOREACH(e, x->evidence) {
                                strcat(body, *e);
                                strcat(body, "\n");
                        }
                        W(write_string(w, body));
                        W(xmlTextWriterEndElement(w));
                }
                W(xmlTextWriterEndElement(w));
        }
        for (size_t i = 0; i < n_errors; i++) {
                const Diag *d = &m->errors->items[i];
                W(xmlTextWriterStartElement(w, BAD_CAST "testcase"));
                W(write_attr(w, "classname", "bootrace"));
                W(write_attr(w, "name", d->file ?: "input"));
                W(xmlTextWriterStartElement(w, BAD_CAST "error"));
                W(write_attr(w, "type", "input"));
                W(write_attr(w, "message", d->message));
                W(xmlTextWriterEndElement(w));
                W(xmlTextWriterEndElement(w));
        }
        STRV_FOREACH(u, m->units) {
                if (unit_has_findings(l, *u))
                        continue;
                W(xmlTextWriterStartElement(w, BAD_CAST "testcase"));
                W(write_attr(w, "classname", *u));
                W(write_attr(w, "name", "lint"));
                W(xmlTextWriterEndElement(w));
        }
        W(xmlTextWriterEndElement(w));
        return 0;
}

int report_junit(const FindingList *l, const ReportMeta *m, FILE *f) {
        return report_junit_runs(&(ReportRun) { .findings = l, .meta = m }, 1, f);
}

int report_junit_runs(const ReportRun *runs, size_t n, FILE *f) {
        _cleanup_(xmlBufferFreep) xmlBufferPtr buf = xmlBufferCreate();
        _cleanup_(xmlFreeTextWriterp) xmlTextWriterPtr w = NULL;

        if (!buf)
                return -ENOMEM;
        w = xmlNewTextWriterMemory(buf, 0);
        if (!w)
                return -ENOMEM;
        W(xmlTextWriterSetIndent(w, 1));
        W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
        W(xmlTextWriterStartElement(w, BAD_CAST "testsuites"));
        for (size_t i = 0; i < n; i++) {
                const ReportMeta *m = runs[i].meta;
                _cleanup_(freep) char *name = NULL;
                int r;

                /* one suite keeps its name; several are told apart by their target */
                if (n == 1)
                        name = strdup("bootrace lint");
                else if (asprintf_safe(&name, "bootrace lint %s (systemd %u)", m->target ?: "-", m->systemd) < 0)
                        name = NULL;
                if (!name)
                        return -ENOMEM;
                r = junit_suite(w, runs[i].findings, m, name);
                if (r < 0)
                        return r;
        }
        W(xmlTextWriterEndElement(w));
        W(xmlTextWriterEndDocument(w));
        xmlFreeTextWriter(w);
        w = NULL;
        fwrite(xmlBufferContent(buf), 1, xmlBufferLength(buf), f);
        return ferror(f) ? -EIO : 0;
}
