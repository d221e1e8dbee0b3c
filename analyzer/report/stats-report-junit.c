/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stats --format=junit: one testcase per unit per boot, written with libxml2. */

#include <libxml/tree.h>

#include "journal/race-evidence.h"
#include "report/stats-report.h"

static inline void xmlFreeDocp(xmlDocPtr *d) {
        if (*d)
                xmlFreeDoc(*d);
}

static void set_uint(xmlNodePtr n, const char *name, unsigned long v) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lu", v);
        xmlSetProp(n, BAD_CAST name, BAD_CAST buf);
}

static int set_text(xmlNodePtr n, const char *name, const char *value) {
        /* libxml2 wants UTF-8: journal text is mostly that, but not always. */
        _cleanup_(freep) char *v = utf8_sanitize(value);
        if (!v)
                return -ENOMEM;
        if (name)
                xmlSetProp(n, BAD_CAST name, BAD_CAST v);
        else
                xmlNodeAddContent(n, BAD_CAST v);
        return 0;
}

static int testcase(xmlNodePtr suite, const StatsReport *rep, const StatsSample *s, const UnitStats *u, size_t b,
                    unsigned *failures, unsigned *skipped) {
        const BootAnalysis *a = s->analysis;
        const UnitBoot *ub = u->index >= 0 ? &a->units[u->index].boots[b] : &(UnitBoot) {};
        const char * const *anchors = rep->options->anchors ? (const char * const *) rep->options->anchors :
                                                              stats_default_anchors;
        _cleanup_(freep) char *name = NULL, *what = NULL;
        xmlNodePtr tc, x;
        int r;

        if (asprintf_safe(&name, "boot %zu %s", b + 1, a->boots[b].id) < 0)
                return -ENOMEM;
        tc = xmlNewChild(suite, NULL, BAD_CAST "testcase", NULL);
        if (!tc)
                return -ENOMEM;
        if ((r = set_text(tc, "classname", u->unit)) < 0 || (r = set_text(tc, "name", name)) < 0)
                return r;
        if (ub->end_usec && ub->start_usec && ub->end_usec >= ub->start_usec) {
                char t[32];
                snprintf(t, sizeof t, "%.6f", (ub->end_usec - ub->start_usec) / 1e6);
                xmlSetProp(tc, BAD_CAST "time", BAD_CAST t);
        }
        if ((r = stats_fmt_unit_boot(ub, &what)) < 0)
                return r;

        if (outcome_is_failure(ub->outcome, rep->options->not_run_is_failure)) {
                _cleanup_(race_evidence_done) RaceEvidence e = {};
                _cleanup_(freep) char *body = NULL;
                (*failures)++;
                x = xmlNewChild(tc, NULL, BAD_CAST "failure", NULL);
                if (!x)
                        return -ENOMEM;
                if ((r = set_text(x, "message", what)) < 0 ||
                    (r = set_text(x, "type", outcome_to_string(ub->outcome))) < 0)
                        return r;
                STRV_FOREACH(l, ub->lines) {
                        char *n = strjoin(strempty(body), *l, "\n");
                        if (!n)
                                return -ENOMEM;
                        free(body);
                        body = n;
                }
                if (u->index >= 0) {
                        char *n;
                        if ((r = race_evidence_build(a, (size_t) u->index, b, anchors, &e)) < 0)
                                return r;
                        n = strjoin(strempty(body), "race evidence: ", e.summary, "\n");
                        if (!n)
                                return -ENOMEM;
                        free(body);
                        body = n;
                }
                if (body && (r = set_text(x, NULL, body)) < 0)
                        return r;
        } else if (ub->outcome != OUTCOME_SUCCEEDED) {
                (*skipped)++;
                x = xmlNewChild(tc, NULL, BAD_CAST "skipped", NULL);
                if (!x)
                        return -ENOMEM;
                if (ub->outcome == OUTCOME_UNKNOWN)
                        r = set_text(x, "message", "unknown: no record of the unit's outcome in this boot");
                else
                        r = set_text(x, "message", what);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int suite(xmlNodePtr root, const StatsReport *rep, const StatsSample *s, unsigned *tests,
                 unsigned *failures, unsigned *skipped) {
        _cleanup_(freep) char *name = strjoin("bootrace stats ", s->label, ": ", s->source->description);
        unsigned t = 0, f = 0, k = 0;
        xmlNodePtr n, props, p;
        int r;

        if (!name || !(n = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL)))
                return -ENOMEM;
        if ((r = set_text(n, "name", name)) < 0)
                return r;
        props = xmlNewChild(n, NULL, BAD_CAST "properties", NULL);
        if (!props)
                return -ENOMEM;
        STRV_FOREACH(v, s->systemd_versions) {
                if (!(p = xmlNewChild(props, NULL, BAD_CAST "property", NULL)))
                        return -ENOMEM;
                xmlSetProp(p, BAD_CAST "name", BAD_CAST "systemd");
                if ((r = set_text(p, "value", *v)) < 0)
                        return r;
        }
        if (!(p = xmlNewChild(props, NULL, BAD_CAST "property", NULL)))
                return -ENOMEM;
        xmlSetProp(p, BAD_CAST "name", BAD_CAST "criterion");
        if ((r = set_text(p, "value", rep->criterion)) < 0)
                return r;
        for (size_t i = 0; i < s->n_units; i++)
                for (size_t b = 0; b < s->analysis->n_boots; b++) {
                        if ((r = testcase(n, rep, s, &s->units[i], b, &f, &k)) < 0)
                                return r;
                        t++;
                }
        set_uint(n, "tests", t);
        set_uint(n, "failures", f);
        set_uint(n, "skipped", k);
        set_uint(n, "errors", 0);
        *tests += t;
        *failures += f;
        *skipped += k;
        return 0;
}

int stats_report_junit(const StatsReport *rep, FILE *f) {
        _cleanup_(xmlFreeDocp) xmlDocPtr doc = NULL;
        xmlChar *buf = NULL;
        xmlNodePtr root;
        unsigned t = 0, fl = 0, k = 0;
        int size = 0, r;

        doc = xmlNewDoc(BAD_CAST "1.0");
        if (!doc)
                return -ENOMEM;
        root = xmlNewNode(NULL, BAD_CAST "testsuites");
        if (!root)
                return -ENOMEM;
        xmlDocSetRootElement(doc, root);
        xmlSetProp(root, BAD_CAST "name", BAD_CAST "bootrace stats");
        if (rep->has_baseline && (r = suite(root, rep, &rep->baseline, &t, &fl, &k)) < 0)
                return r;
        if ((r = suite(root, rep, &rep->sample, &t, &fl, &k)) < 0)
                return r;
        set_uint(root, "tests", t);
        set_uint(root, "failures", fl);
        set_uint(root, "skipped", k);
        xmlDocDumpFormatMemoryEnc(doc, &buf, &size, "UTF-8", 1);
        if (!buf)
                return -ENOMEM;
        fwrite(buf, 1, (size_t) size, f);
        xmlFree(buf);
        return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
