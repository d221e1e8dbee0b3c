/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* debhelper's names for debian/ files (load/dh-names.c), against dh_installsystemd(1), dh_installtmpfiles(1) and
 * Dh_Lib's pkgfile() of debhelper 13; and the "# bootrace: ignore" comments of a unit file (load/unit-ignores.c). */

#include "basic/util.h"
#include "load/dh-names.h"
#include "load/unit-ignores.h"
#include "tap.h"

static char **packages;

/* base is installed as want_name (kind want_kind), told with a note (how) or not */
static void name_is(const char *base, int want_kind, const char *want_name, bool want_how) {
        _cleanup_(freep) char *name = NULL, *how = NULL;
        int kind = dh_install_name(packages, base, &name, &how);

        TAP_INTEQ(kind, want_kind, base);
        if (want_name)
                tap_ok(streq_ptr(name, want_name), "debian/%s is installed as %s (got %s)", base, want_name,
                       strna(name));
        tap_ok(!!how == want_how, "debian/%s: %s (got \"%s\")", base, want_how ? "a note of how" : "no note",
               strna(how));
}

static void test_control(void) {
        static const char control[] = "Source: foo\nMaintainer: M <m@example.org>\n\n"
                                      "Package: foo\nArchitecture: any\n\n"
                                      "package:  foo-utils \r\nArchitecture: all\n\n"
                                      "Package: foo.x\nDescription: d\n";
        _cleanup_(strv_freep) char **none = NULL;

        TAP_INTEQ(dh_control_packages(control, strlen(control), &packages), 0, "control: read");
        TAP_INTEQ((int) strv_length(packages), 3, "control: three binary packages");
        TAP_STREQ(packages[0], "foo", "control: the first is the main package");
        TAP_STREQ(packages[1], "foo-utils", "control: the field name in any case, the value trimmed");
        TAP_INTEQ(dh_control_packages("Source: foo\n", 12, &none), -EBADMSG, "control without Package: refused");
        tap_ok(!none, "control without Package: no list");
}

static void test_names(void) {
        name_is("foo.service", DH_FILE_UNIT, "foo.service", false);
        name_is("foo@.service", DH_FILE_UNIT, "foo@.service", false);
        name_is("foo.socket", DH_FILE_UNIT, "foo.socket", false);
        name_is("foo.mount", DH_FILE_UNIT, "foo.mount", false);
        name_is("foo@.mount", DH_FILE_NONE, NULL, false); /* no template form of mount */
        name_is("foo.bar.service", DH_FILE_UNIT, "bar.service", true);
        name_is("foo@.bar.timer", DH_FILE_UNIT, "bar@.timer", true);
        name_is("foo-utils.service", DH_FILE_UNIT, "foo-utils.service", false); /* the longest package */
        name_is("foo-utils.helper.path", DH_FILE_UNIT, "helper.path", true);
        name_is("foo.x.service", DH_FILE_UNIT, "foo.x.service", false); /* package foo.x, not foo --name=x */
        name_is("service", DH_FILE_UNIT, "foo.service", true);          /* the main package's */
        name_is("target", DH_FILE_UNIT, "foo.target", true);
        name_is("foo.tmpfiles", DH_FILE_TMPFILES, "foo.conf", false);
        name_is("foo.tmpfile", DH_FILE_TMPFILES, "foo.conf", false);  /* the deprecated name */
        name_is("foo-utils.cache.tmpfiles", DH_FILE_TMPFILES, "cache.conf", true);
        name_is("tmpfiles", DH_FILE_TMPFILES, "foo.conf", true);
        name_is("foo.postinst", DH_FILE_NONE, NULL, false);
        name_is("bar.service", DH_FILE_NONE, NULL, false); /* no package bar: installed by nothing of debhelper's */
        name_is("changelog", DH_FILE_NONE, NULL, false);
        name_is("foo.service.amd64", DH_FILE_NONE, NULL, false); /* architecture files are not read */
        packages = strv_free(packages);
}

static void test_ignores(void) {
        static const char unit[] = "# bootrace: ignore a, b -- reason, c\n[Unit]\n"
                                   "  ;bootrace:ignore all\n# bootrace: ignored x\n#bootrace: ignore\n"
                                   "Description=bootrace: ignore y\n# bootrace: ignore z\0after the NUL\n";
        SourceIgnore *l = NULL;
        size_t n = 0;

        TAP_INTEQ(source_ignores_parse(unit, sizeof unit - 1, &l, &n), 0, "ignores: parsed");
        TAP_INTEQ((int) n, 4, "ignores: four comments (not 'ignored', not in a value)");
        if (n == 4) {
                TAP_INTEQ((int) l[0].line, 1, "ignores: the first on line 1");
                TAP_INTEQ((int) strv_length(l[0].checks), 2, "ignores: a, b (the reason after -- is no id)");
                TAP_STREQ(l[0].checks[1], "b", "ignores: ids split at commas and blanks");
                TAP_INTEQ((int) l[1].line, 3, "ignores: ';' and blanks before it, no blank after 'bootrace:'");
                TAP_STREQ(l[1].checks[0], "all", "ignores: all");
                TAP_INTEQ((int) l[2].line, 5, "ignores: a comment naming nothing");
                TAP_INTEQ((int) strv_length(l[2].checks), 0, "ignores: its empty list");
                TAP_INTEQ((int) l[3].line, 7, "ignores: the line numbers count physical lines");
                TAP_STREQ(l[3].checks[0], "z", "ignores: a NUL ends the id list");
                TAP_INTEQ((int) strv_length(l[3].checks), 1, "ignores: nothing read after the NUL");
        }
        source_ignores_free(l, n);
        TAP_INTEQ(source_ignores_parse("[Unit]\n", 7, &l, &n), 0, "ignores: a file without any");
        tap_ok(!l && n == 0, "ignores: none, nothing allocated");
}

int main(void) {
        test_control();
        test_names();
        test_ignores();
        return tap_done();
}
