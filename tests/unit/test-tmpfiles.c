/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tmpfiles.d lines: fields, quotes, "-", comments, bad lines, and the order and masking of the directories. */

#include <dirent.h>

#include "load/tmpfiles.h"
#include "tap.h"

static void test_parse(void) {
        _cleanup_(tmpfiles_list_done) TmpfilesList l = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        const char *text = "# comment\n"
                           "\n"
                           "d /var/lib/foo 0755 foo foo -\n"
                           "  L+ /etc/foo.conf - - - - /usr/share/foo/foo.conf  \n"
                           "f \"/run/foo bar\" 0644 - - - hello world\r\n"
                           "D /run/foo\n"
                           "w /proc/sys/x - - - - 1\n"
                           "?! /x\n"
                           "d relative\n"
                           "d\n"
                           "d '/unterminated\n";
        const TmpfilesEntry *e;

        TAP_INTEQ(tmpfiles_parse(text, "pkg.deb:usr/lib/tmpfiles.d/foo.conf", &l, &diags), 0, "parse");
        TAP_INTEQ((int) l.n, 5, "five lines kept");
        if (l.n < 5)
                return;
        tap_ok(streq(l.items[0].type, "d") && streq(l.items[0].path, "/var/lib/foo") &&
                       streq_ptr(l.items[0].mode, "0755") && streq_ptr(l.items[0].user, "foo") && !l.items[0].age &&
                       !l.items[0].argument && l.items[0].line == 3,
               "d line: fields, '-' is none, line number");
        tap_ok(streq(l.items[1].type, "L+") && streq_ptr(l.items[1].argument, "/usr/share/foo/foo.conf") &&
                       !l.items[1].mode,
               "L+ with an argument, surrounding blanks dropped");
        tap_ok(streq(l.items[2].path, "/run/foo bar") && streq_ptr(l.items[2].argument, "hello world"),
               "quoted path; the argument is the rest of the line (CR dropped)");
        tap_ok(streq(l.items[3].path, "/run/foo") && !l.items[3].mode, "missing fields are none");
        TAP_INTEQ((int) diags.n, 4, "four bad lines are warnings");
        e = tmpfiles_find_creator(&l, "/var/lib/foo");
        tap_ok(e && e->line == 3, "/var/lib/foo is created by line 3");
        tap_ok(!tmpfiles_find_creator(&l, "/proc/sys/x"), "w does not create");
        tap_ok(!tmpfiles_find_creator(&l, "/var/lib"), "a parent is not created by a child's line");
        tap_ok(tmpfiles_type_creates("L+") && tmpfiles_type_creates("d") && !tmpfiles_type_creates("z") &&
                       !tmpfiles_type_creates("R!"),
               "which types create");
}

static void test_load(void) {
        _cleanup_(tmpfiles_list_done) TmpfilesList l = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(root_freep) Root *root = NULL;
        MemTree *t = NULL;

        if (mem_tree_new(&t) < 0 ||
            mem_tree_add_file(t, "usr/lib/tmpfiles.d/a.conf", "d /a\n", 5, "a.deb:") < 0 ||
            mem_tree_add_file(t, "etc/tmpfiles.d/a.conf", "d /etc-a\n", 9, "a.deb:") < 0 ||
            mem_tree_add_file(t, "lib/tmpfiles.d/b.conf", "d /b\n", 5, "b.deb:") < 0 ||
            mem_tree_add_file(t, "usr/lib/tmpfiles.d/c.conf", "d /c\n", 5, "c.deb:") < 0 ||
            mem_tree_add_symlink(t, "etc/tmpfiles.d/c.conf", "/dev/null", "c.deb:") < 0 ||
            mem_tree_add_file(t, "usr/lib/tmpfiles.d/d.txt", "d /d\n", 5, "d.deb:") < 0 ||
            root_open_mem(t, "x:", &root) < 0) {
                tap_skip("cannot make the tree");
                return;
        }
        TAP_INTEQ(tmpfiles_load(root, &l, &diags), 0, "load");
        tap_ok(l.n == 2 && streq(l.items[0].path, "/etc-a") && streq(l.items[0].file, "a.deb:etc/tmpfiles.d/a.conf") &&
                       streq(l.items[1].path, "/b") && streq(l.items[1].file, "b.deb:lib/tmpfiles.d/b.conf"),
               "/etc overrides the same name, /lib is read, /dev/null masks, only *.conf");
}

int main(void) {
        test_parse();
        test_load();
        return tap_done();
}
