/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fix-edit: lines go where a person would put them, and nothing else in the file changes. */

#include "fix/fix-edit.h"
#include "tap.h"

static char *add1(const char *text, const char *section, const char *line) {
        char *l[] = { (char *) line, NULL }, *r = NULL;
        if (fix_edit_add(text, section, l, &r) < 0)
                return strdup("ERROR");
        return r;
}

static char *rmw(const char *text, unsigned line, const char *key, const char *word, int *ret_r) {
        char *r = NULL;
        *ret_r = fix_edit_remove_word(text, line, key, word, &r);
        return r;
}

/* fix_edit_add() of one line: where it goes. */
static void test_add(void) {
        char *s;

        s = add1("[Unit]\nDescription=x\nDefaultDependencies=no\nBefore=cloud-init-local.service\n\n"
                 "[Service]\nPrivateTmp=yes\n",
                 "Unit", "After=systemd-remount-fs.service");
        TAP_STREQ(s,
                  "[Unit]\nDescription=x\nDefaultDependencies=no\nBefore=cloud-init-local.service\n"
                  "After=systemd-remount-fs.service\n\n[Service]\nPrivateTmp=yes\n",
                  "after the last dependency line of [Unit]");
        free(s);

        s = add1("# a comment\n[Unit]\nDescription=x\nDefaultDependencies=no\n# trailing comment\n\n[Service]\n",
                 "Unit", "After=a.service");
        TAP_STREQ(s,
                  "# a comment\n[Unit]\nDescription=x\nDefaultDependencies=no\nAfter=a.service\n"
                  "# trailing comment\n\n[Service]\n",
                  "no dependency line: after the last assignment, comments stay where they were");
        free(s);

        s = add1("[Unit]\n\n[Service]\nExecStart=/bin/true\n", "Unit", "After=a.service");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\n\n[Service]\nExecStart=/bin/true\n", "an empty [Unit]: after its header");
        free(s);

        s = add1("# SPDX\n[Service]\nExecStart=/bin/true\n", "Unit", "After=a.service");
        TAP_STREQ(s, "# SPDX\n[Unit]\nAfter=a.service\n\n[Service]\nExecStart=/bin/true\n",
                  "no [Unit]: a new one before the first section");
        free(s);

        s = add1("[Unit]\nAfter=a.service \\\n  b.service\nDescription=x\n", "Unit", "After=c.service");
        TAP_STREQ(s, "[Unit]\nAfter=a.service \\\n  b.service\nAfter=c.service\nDescription=x\n",
                  "after the continuation lines of the last dependency");
        free(s);

        s = add1("[Unit]\r\nDescription=x\r\nWants=a.service\r\n", "Unit", "After=a.service");
        TAP_STREQ(s, "[Unit]\r\nDescription=x\r\nWants=a.service\r\nAfter=a.service\r\n", "CRLF line endings kept");
        free(s);

        s = add1("[Unit]\nAfter=a.service", "Unit", "After=b.service");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\nAfter=b.service\n", "a last line without newline gets one");
        free(s);

        s = add1("[Unit]\n  Description=x\n  After=a.service\n[Service]\n", "Unit", "After=b.service");
        TAP_STREQ(s, "[Unit]\n  Description=x\n  After=a.service\n  After=b.service\n[Service]\n",
                  "indentation of the line before is kept");
        free(s);

        s = add1("[Unit]\nWants=x.service\n[Service]\nExecStart=/bin/true\n[Unit]\nAfter=a.service\n"
                 "Description=y\n",
                 "Unit", "After=b.service");
        TAP_STREQ(s,
                  "[Unit]\nWants=x.service\n[Service]\nExecStart=/bin/true\n[Unit]\nAfter=a.service\n"
                  "After=b.service\nDescription=y\n",
                  "two [Unit] sections: after the last dependency line of all");
        free(s);

        s = add1("", "Unit", "After=a.service");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\n", "an empty drop-in");
        free(s);

        s = add1("[Unit]\nAfter=a.service\n", "Service", "PrivateTmp=no");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\n\n[Service]\nPrivateTmp=no\n", "a new [Service] goes at the end");
        free(s);
}

static void test_add_several(void) {
        char *l[] = { (char *) "After=a.service", (char *) "RequiresMountsFor=/srv", NULL };
        _cleanup_(freep) char *o = NULL;

        TAP_INTEQ(fix_edit_add("[Unit]\nDescription=x\n", "Unit", l, &o), 0, "several lines: added");
        TAP_STREQ(o, "[Unit]\nDescription=x\nAfter=a.service\nRequiresMountsFor=/srv\n", "several lines: in order");
}

/* fix_edit_remove_word(): the word and its blanks, or the whole line. */
static void test_remove_word(void) {
        char *s;
        int r;

        s = rmw("[Unit]\nDefaultDependencies=no\nBefore=systemd-remount-fs.service\n[Service]\n", 3, "Before",
                "systemd-remount-fs.service", &r);
        TAP_STREQ(s, "[Unit]\nDefaultDependencies=no\n[Service]\n", "the only word: the line goes");
        free(s);

        s = rmw("[Unit]\nBefore=a.service  b.service c.service\n", 2, "Before", "b.service", &r);
        TAP_STREQ(s, "[Unit]\nBefore=a.service c.service\n", "a middle word and the blanks before it");
        free(s);

        s = rmw("[Unit]\nBefore= a.service b.service\n", 2, "Before", "a.service", &r);
        TAP_STREQ(s, "[Unit]\nBefore= b.service\n", "the first word and the blanks after it");
        free(s);

        s = rmw("[Unit]\nBefore=a.service b.service\r\n", 2, "Before", "b.service", &r);
        TAP_STREQ(s, "[Unit]\nBefore=a.service\r\n", "the last word of a CRLF line");
        free(s);

        s = rmw("[Unit]\nBefore=a.service \\\n b.service\n", 2, "Before", "a.service", &r);
        TAP_INTEQ(r, -EOPNOTSUPP, "a continued assignment is not edited");
        tap_ok(!s, "a continued assignment: no text");
}

/* fix_edit_remove_word() of what is not there: -ENOENT and no text. */
static void test_remove_word_missing(void) {
        static const struct {
                unsigned line;
                const char *key, *word, *name;
        } cases[] = {
                { 2, "After", "a.service", "another key at that line" },
                { 2, "Before", "a.serv", "a word is matched whole" },
                { 9, "Before", "a.service", "a line beyond the end" },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                int r;
                char *s = rmw("[Unit]\nBefore=a.service\n", cases[i].line, cases[i].key, cases[i].word, &r);
                TAP_INTEQ(r, -ENOENT, cases[i].name);
                tap_ok(!s, "%s: no text", cases[i].name);
                free(s);
        }
}

static void test_remove_key(void) {
        char *s = NULL;
        int r;

        r = fix_edit_remove_key("[Unit]\nPrivateTmp=yes\n[Service]\n# keep\nPrivateTmp=yes\nExecStart=/bin/true\n"
                                "PrivateTmp=\\\n  yes\n",
                                "Service", "PrivateTmp", &s);
        TAP_INTEQ(r, 0, "remove a key: done");
        TAP_STREQ(s, "[Unit]\nPrivateTmp=yes\n[Service]\n# keep\nExecStart=/bin/true\n",
                  "remove a key: in its section only, continuation lines included");
        free(s);
        s = NULL;
        r = fix_edit_remove_key("[Service]\nExecStart=/bin/true\n", "Service", "PrivateTmp", &s);
        TAP_INTEQ(r, -ENOENT, "remove a missing key: -ENOENT");
        tap_ok(!s, "remove a missing key: no text");
}

int main(void) {
        test_add();
        test_add_several();
        test_remove_word();
        test_remove_word_missing();
        test_remove_key();
        tap_ok(fix_edit_is_dependency_key("RequiresMountsFor"), "RequiresMountsFor= is a dependency key");
        tap_ok(!fix_edit_is_dependency_key("Description"), "Description= is none");
        return tap_done();
}
