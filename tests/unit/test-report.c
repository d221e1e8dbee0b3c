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

/* The findings every format renders: one with evidence and a fix, one with hostile characters, one suppressed.
 * A set-up failure bails out: no check after it would mean anything. */
static void make_findings(FindingList *l) {
        Finding *f;

        f = finding_add(l, "private-tmp-before-remount", SEVERITY_ERROR, "foo.service", "debian/foo.service", 7,
                        "PrivateTmp=yes but nothing orders foo.service after systemd-remount-fs.service");
        if (!f || finding_add_evidence(f, "needs: /tmp writable") < 0 ||
            finding_add_evidence(f, "missing: After=systemd-remount-fs.service") < 0 ||
            !(f->fix = strdup("[Unit]\nAfter=systemd-remount-fs.service")))
                tap_bail("cannot make the finding with evidence");
        f = finding_add(l, "unknown-key", SEVERITY_WARNING, "bar.service", "a b/bar\"<&>.service", 3,
                        "unknown key PrivateTMP= (quotes \" and <markup> & \xff bytes)");
        if (!f)
                tap_bail("cannot make the finding with hostile characters");
        f = finding_add(l, "ordering-cycle", SEVERITY_ERROR, "baz.service", NULL, 0, "cycle");
        if (!f || !(f->suppressed = strdup("override bootrace-overrides:2")))
                tap_bail("cannot make the suppressed finding");
        finding_list_sort(l);
}

static void test_sort_and_count(const FindingList *l) {
        TAP_STREQ(l->items[0].check, "ordering-cycle", "sorted: findings without a file first");
        TAP_INTEQ(finding_list_count_at_least(l, SEVERITY_ERROR), 1, "suppressed findings do not count");
        TAP_INTEQ(finding_list_count_at_least(l, SEVERITY_WARNING), 2, "warning and above");
}

static void test_text(const FindingList *l, const ReportMeta *m) {
        _cleanup_(freep) char *text = render(report_text, l, m);

        TAP_CONTAINS(text, "debian/foo.service:7: error: [private-tmp-before-remount]", "text: file:line: severity: [check]");
        TAP_CONTAINS(text, "    needs: /tmp writable", "text: the evidence, indented");
        tap_ok(text && !strstr(text, "[ordering-cycle]"), "text: a suppressed finding is not listed");
        TAP_CONTAINS(text, "1 error, 1 warning, 0 info (1 suppressed), systemd 229 for ubuntu-xenial", "text: summary");
}

static void test_json(const FindingList *l, const ReportMeta *m) {
        _cleanup_(freep) char *json = render(report_json, l, m);

        TAP_CONTAINS(json, "{\"tool\":\"bootrace\",\"version\":\"0.1.0\",", "json: the header first");
        TAP_CONTAINS(json, "\"systemd\":229", "json: systemd");
        TAP_CONTAINS(json, "\"target\":\"ubuntu-xenial\"", "json: target");
        TAP_INTEQ(json ? count(json, "\"check\":") : 0, 3, "json: every finding");
        TAP_CONTAINS(json, "\"summary\":{\"units\":4,\"errors\":1,\"warnings\":1,\"info\":0,\"suppressed\":1,"
                           "\"input_errors\":0}", "json: summary");
        TAP_CONTAINS(json, "\"fix\":\"[Unit]\\nAfter=systemd-remount-fs.service\"", "json: fix");
        tap_ok(json && !strstr(json, "\\ufffd"), "json: invalid UTF-8 is not escaped");
        TAP_CONTAINS(json, "\xef\xbf\xbd", "json: invalid UTF-8 replaced by U+FFFD");
}

static void test_sarif(const FindingList *l, const ReportMeta *m) {
        _cleanup_(freep) char *sarif = render(report_sarif, l, m);

        TAP_CONTAINS(sarif, "\"version\": \"2.1.0\"", "sarif: version 2.1.0");
        TAP_INTEQ(sarif ? count(sarif, "\"ruleId\":") : 0, 3, "sarif: a result per finding");
        TAP_INTEQ(sarif ? count(sarif, "\"id\": \"") : 0, rules_check_count(m->rules), "sarif: a rule per check");
        TAP_CONTAINS(sarif, "\"uri\": \"a%20b/bar%22%3C&%3E.service\"", "sarif: URIs percent-encoded");
        TAP_CONTAINS(sarif, "\"kind\": \"external\"", "sarif: the suppression");
        TAP_CONTAINS(sarif, "\"startLine\": 7", "sarif: region");
        /* code scanning shows messages, related locations and fixes, not properties */
        TAP_CONTAINS(sarif, "\"uri\": \"debian/foo.service\",\n", "sarif: a file's URI");
        TAP_CONTAINS(sarif, "\"uriBaseId\": \"%SRCROOT%\"", "sarif: against %SRCROOT%");
        TAP_INTEQ(sarif ? count(sarif, "\"relatedLocations\":") : 0, 1, "sarif: evidence as related locations");
        TAP_CONTAINS(sarif, "\"text\": \"needs: /tmp writable\"", "sarif: an evidence line's text");
        TAP_CONTAINS(sarif, "\"markdown\": \"PrivateTmp=yes but nothing orders foo.service after "
                            "systemd-remount-fs.service\\n\\nEvidence:\\n- needs: /tmp writable\\n",
                     "sarif: markdown message with the evidence as a list");
        TAP_CONTAINS(sarif, "```ini\\n[Unit]\\nAfter=systemd-remount-fs.service\\n```", "sarif: the fix as code");
        TAP_CONTAINS(sarif, "unknown key PrivateTMP= (quotes \\\" and \\\\<markup\\\\> & ",
                     "sarif: markup from the input escaped");
        TAP_INTEQ(sarif ? count(sarif, "\"fixes\":") : 0, 1, "sarif: one finding has fixes");
        TAP_CONTAINS(sarif, "\"uri\": \"debian/foo.service.d/bootrace-fix.conf\"", "sarif: a drop-in fix's artifact");
        TAP_CONTAINS(sarif, "\"insertedContent\": {\n", "sarif: a drop-in fix is inserted");
        TAP_CONTAINS(sarif, "\"text\": \"[Unit]\\nAfter=systemd-remount-fs.service\\n\"", "sarif: the drop-in's text");
        TAP_CONTAINS(sarif, "\"columnKind\": \"unicodeCodePoints\"", "sarif: columns in code points");
}

/* A diff fix inside a .deb: the member's URI against the package's base. */
static void test_sarif_deb(const ReportMeta *m) {
        _cleanup_(finding_list_done) FindingList dl = {};
        _cleanup_(freep) char *s = NULL;
        Package pkg = { .file = (char *) "foo_1.0_all.deb", .origin = (char *) "foo_1.0_all.deb:",
                        .name = (char *) "foo", .version = (char *) "1.0", .architecture = (char *) "all" };
        PackageSet ps = { .packages = &pkg, .n_packages = 1 };
        ReportMeta dm = *m;
        Finding *d = finding_add(&dl, "ordering-cycle", SEVERITY_ERROR, "q.service",
                                 "foo_1.0_all.deb:lib/systemd/system/q\\x2d1.service", 3, "cycle");

        if (!d ||
            finding_add_evidence(d, "q.service Before=x.service (foo_1.0_all.deb:lib/systemd/system/q\\x2d1.service:3)") < 0 ||
            finding_add_evidence(d, "x.service After=y.service (base-252.xml:12, base model)") < 0 ||
            !(d->fix = strdup("--- a\n+++ a\n@@ -2,3 +2,2 @@\n [Unit]\n-Before=x.service\n Description=d\u00e9j\u00e0\n")))
                tap_bail("cannot make the finding in a .deb");
        dm.packages = &ps;
        s = render(report_sarif, &dl, &dm);
        TAP_CONTAINS(s, "\"uri\": \"lib/systemd/system/q%5Cx2d1.service\",\n", "sarif .deb: the member's URI");
        TAP_CONTAINS(s, "\"uriBaseId\": \"PACKAGE1\"", "sarif .deb: against the package's base");
        TAP_CONTAINS(s, "\"PACKAGE1\": {\n", "sarif .deb: the base is described");
        TAP_CONTAINS(s, "\"uri\": \"foo_1.0_all.deb/\"", "sarif .deb: the base is the package");
        TAP_INTEQ(s ? count(s, "\"startLine\": 3") : 0, 2, "sarif .deb: the result and the evidence naming it");
        TAP_INTEQ(s ? count(s, "\"physicalLocation\":") : 0, 3, "sarif .deb: evidence that names a file located");
        TAP_CONTAINS(s, "\"startLine\": 2,\n", "sarif .deb: a diff fix replaces its hunk from its first line");
        TAP_CONTAINS(s, "\"endLine\": 4,\n", "sarif .deb: to its last");
        TAP_CONTAINS(s, "\"endColumn\": 17\n", "sarif .deb: columns in code points");
        TAP_CONTAINS(s, "\"text\": \"[Unit]\\nDescription=d\u00e9j\u00e0\"", "sarif .deb: the hunk's new text");
        TAP_CONTAINS(s, "```diff\\n--- a", "sarif .deb: the diff in the markdown message");
}

static void test_junit(const FindingList *l, const ReportMeta *m) {
        _cleanup_(freep) char *junit = render(report_junit, l, m);
        xmlDoc *doc = junit ? xmlReadMemory(junit, (int) strlen(junit), "junit.xml", NULL,
                                            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                            : NULL;
        xmlNode *suite = doc ? xmlDocGetRootElement(doc)->children : NULL;
        xmlChar *tests, *failures;

        tap_ok(doc != NULL, "junit: well-formed XML");
        while (suite && suite->type != XML_ELEMENT_NODE)
                suite = suite->next;
        tests = suite ? xmlGetProp(suite, BAD_CAST "tests") : NULL;
        failures = suite ? xmlGetProp(suite, BAD_CAST "failures") : NULL;
        TAP_STREQ((char *) tests, "4", "junit: 3 findings + 1 clean unit");
        TAP_STREQ((char *) failures, "2", "junit: 2 failures");
        xmlFree(tests);
        xmlFree(failures);
        xmlFreeDoc(doc);
}

int main(void) {
        _cleanup_(finding_list_done) FindingList l = {};
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **units = NULL;

        if (rules_load(NULL, &rules, &diags) < 0)
                tap_bail("cannot load the rules (BOOTRACE_RULES_DIR)");
        make_findings(&l);
        if (strv_extend(&units, "foo.service") < 0 || strv_extend(&units, "bar.service") < 0 ||
            strv_extend(&units, "baz.service") < 0 || strv_extend(&units, "clean.service") < 0)
                tap_bail("out of memory");
        ReportMeta m = { .tool_version = "0.1.0", .systemd = 229, .target = "ubuntu-xenial", .rules = rules,
                         .units = units };

        test_sort_and_count(&l);
        test_text(&l, &m);
        test_json(&l, &m);
        test_sarif(&l, &m);
        test_sarif_deb(&m);
        test_junit(&l, &m);
        return tap_done();
}
