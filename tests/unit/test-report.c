/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The four report formats over a fixed list of findings: each is well-formed and carries every finding. */

#include <libxml/parser.h>

#include "report/report.h"
#include "tap.h"

static char *render(int (*fn)(const FindingList *, const ReportMeta *, FILE *), const FindingList *l,
                    const ReportMeta *m) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        int r;

        if (!f)
                return NULL;
        r = fn(l, m, f);
        fclose(f);
        if (r < 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

static size_t count(const char *hay, const char *needle) {
        size_t n = 0;
        for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
                n++;
        return n;
}

int main(void) {
        _cleanup_(finding_list_done) FindingList l = {};
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **units = NULL;
        _cleanup_(freep) char *text = NULL, *json = NULL, *sarif = NULL, *junit = NULL;
        Finding *f;

        tap_ok(rules_load(NULL, &rules, &diags) >= 0, "rules load (BOOTRACE_RULES_DIR)");
        f = finding_add(&l, "private-tmp-before-remount", SEVERITY_ERROR, "foo.service", "debian/foo.service", 7,
                        "PrivateTmp=yes but nothing orders foo.service after systemd-remount-fs.service");
        tap_ok(f && finding_add_evidence(f, "needs: /tmp writable") >= 0 &&
                       finding_add_evidence(f, "missing: After=systemd-remount-fs.service") >= 0,
               "finding with evidence");
        f->fix = strdup("[Unit]\nAfter=systemd-remount-fs.service");
        f = finding_add(&l, "unknown-key", SEVERITY_WARNING, "bar.service", "a b/bar\"<&>.service", 3,
                        "unknown key PrivateTMP= (quotes \" and <markup> & \xff bytes)");
        tap_ok(f != NULL, "finding with hostile characters");
        f = finding_add(&l, "ordering-cycle", SEVERITY_ERROR, "baz.service", NULL, 0, "cycle");
        f->suppressed = strdup("override bootrace-overrides:2");
        finding_list_sort(&l);
        TAP_STREQ(l.items[0].check, "ordering-cycle", "sorted: findings without a file first");
        TAP_INTEQ(finding_list_count_at_least(&l, SEVERITY_ERROR), 1, "suppressed findings do not count");
        TAP_INTEQ(finding_list_count_at_least(&l, SEVERITY_WARNING), 2, "warning and above");
        strv_extend(&units, "foo.service");
        strv_extend(&units, "bar.service");
        strv_extend(&units, "baz.service");
        strv_extend(&units, "clean.service");

        ReportMeta m = { .tool_version = "0.1.0", .systemd = 229, .target = "ubuntu-xenial", .rules = rules,
                         .units = units };
        text = render(report_text, &l, &m);
        tap_ok(text && strstr(text, "debian/foo.service:7: error: [private-tmp-before-remount]") &&
                       strstr(text, "    needs: /tmp writable") && !strstr(text, "[ordering-cycle]") &&
                       strstr(text, "1 error, 1 warning, 0 info (1 suppressed), systemd 229 for ubuntu-xenial"),
               "text: file:line: severity: [check] message, evidence, summary");
        json = render(report_json, &l, &m);
        tap_ok(json && strstr(json, "\"tool\":\"bootrace\"") && strstr(json, "\"systemd\":229") &&
                       strstr(json, "\"target\":\"ubuntu-xenial\"") && count(json, "\"check\":") == 3 &&
                       strstr(json, "\"summary\":{\"units\":4,\"errors\":1,\"warnings\":1,\"info\":0,"
                                    "\"suppressed\":1,\"input_errors\":0}") &&
                       strstr(json, "\"fix\":\"[Unit]\\nAfter=systemd-remount-fs.service\""),
               "json: contract fields, summary, fix");
        tap_ok(json && strstr(json, "\\ufffd") == NULL && strstr(json, "\xef\xbf\xbd") != NULL,
               "json: invalid UTF-8 replaced");
        sarif = render(report_sarif, &l, &m);
        tap_ok(sarif && strstr(sarif, "\"version\": \"2.1.0\"") && count(sarif, "\"ruleId\":") == 3 &&
                       count(sarif, "\"id\": \"") == rules_check_count(rules) &&
                       strstr(sarif, "\"uri\": \"a%20b/bar%22%3C&%3E.service\"") &&
                       strstr(sarif, "\"kind\": \"external\"") && strstr(sarif, "\"startLine\": 7"),
               "sarif: rules, results, URIs, suppressions, regions");
        junit = render(report_junit, &l, &m);
        {
                xmlDoc *doc = junit ? xmlReadMemory(junit, (int) strlen(junit), "junit.xml", NULL,
                                                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                                    : NULL;
                xmlNode *suite = doc ? xmlDocGetRootElement(doc)->children : NULL;
                while (suite && suite->type != XML_ELEMENT_NODE)
                        suite = suite->next;
                xmlChar *tests = suite ? xmlGetProp(suite, BAD_CAST "tests") : NULL,
                        *failures = suite ? xmlGetProp(suite, BAD_CAST "failures") : NULL;
                tap_ok(doc != NULL, "junit: well-formed XML");
                tap_ok(tests && streq((char *) tests, "4") && failures && streq((char *) failures, "2"),
                       "junit: 3 findings + 1 clean unit, 2 failures");
                xmlFree(tests);
                xmlFree(failures);
                xmlFreeDoc(doc);
        }
        return tap_done();
}
