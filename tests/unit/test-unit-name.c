/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit names: validity, templates, prefixes and drop-in name order, escaping. The escaping is also compared with
 * the real systemd-escape when it is installed (skipped otherwise). */

#include <sys/wait.h>

#include "basic/unit-name.h"
#include "tap.h"

static void valid(const char *n, UnitNameFlags f, bool want) {
        tap_ok(unit_name_is_valid(n, f) == want, "'%s' %s (flags %d)", n, want ? "valid" : "invalid", f);
}

static void test_valid(void) {
        char long_name[300];

        valid("foo.service", UNIT_NAME_PLAIN, true);
        valid("foo.service", UNIT_NAME_INSTANCE, false);
        valid("foo@.service", UNIT_NAME_TEMPLATE, true);
        valid("foo@.service", UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE, false);
        valid("foo@bar.service", UNIT_NAME_INSTANCE, true);
        valid("foo@bar@baz.service", UNIT_NAME_INSTANCE, true); /* systemd lets '@' into the instance */
        valid("@bar.service", UNIT_NAME_ANY, false);
        valid("foo.bar", UNIT_NAME_ANY, false);
        valid("foo", UNIT_NAME_ANY, false);
        valid(".service", UNIT_NAME_ANY, false);
        valid("", UNIT_NAME_ANY, false);
        valid("foo bar.service", UNIT_NAME_ANY, false);
        valid("a:b_c.d-e\\x2d.mount", UNIT_NAME_ANY, true);
        valid("foo/bar.service", UNIT_NAME_ANY, false);
        valid("foo@b/r.service", UNIT_NAME_ANY, false);
        valid("a.b.service", UNIT_NAME_PLAIN, true);
        valid("sys-devices-x.device", UNIT_NAME_PLAIN, true);
        valid("-.mount", UNIT_NAME_PLAIN, true);
        valid("-.slice", UNIT_NAME_PLAIN, true);
        valid("foo.Service", UNIT_NAME_ANY, false);
        memset(long_name, 'a', 247);
        strcpy(long_name + 247, ".service"); /* 255 */
        valid(long_name, UNIT_NAME_PLAIN, true);
        memset(long_name, 'a', 248);
        strcpy(long_name + 248, ".service"); /* 256 */
        valid("x", UNIT_NAME_PLAIN, false);
        tap_ok(!unit_name_is_valid(long_name, UNIT_NAME_PLAIN), "256 characters invalid");

        TAP_INTEQ(unit_name_to_type("foo.socket"), UNIT_SOCKET, "type of foo.socket");
        TAP_INTEQ(unit_name_to_type("foo@x.automount"), UNIT_AUTOMOUNT, "type of foo@x.automount");
        TAP_INTEQ(unit_name_to_type("foo"), _UNIT_TYPE_INVALID, "type of foo");
        TAP_STREQ(unit_type_to_string(UNIT_SCOPE), "scope", "scope to string");
        TAP_INTEQ(unit_type_from_string("swap"), UNIT_SWAP, "swap from string");
        TAP_INTEQ(unit_type_from_string("nope"), _UNIT_TYPE_INVALID, "bad type from string");
        TAP_INTEQ(unit_type_from_string(NULL), _UNIT_TYPE_INVALID, "no type from NULL");
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++)
                tap_ok(unit_type_to_string(t) && unit_type_from_string(unit_type_to_string(t)) == t,
                       "type %d: '%s' and back", t, strna(unit_type_to_string(t)));
}

static void str_fn(int (*fn)(const char *, char **), const char *in, const char *want, const char *what) {
        char *got = NULL;
        int r = fn(in, &got);
        char label[300];

        snprintf(label, sizeof label, "%s(%s)", what, in);
        if (!want)
                tap_ok(r < 0, "%s fails", label);
        else
                TAP_STREQ(r >= 0 ? got : "(error)", want, label);
        free(got);
}

static void test_parts(void) {
        char *s = NULL;

        str_fn(unit_name_to_prefix, "foo@bar.service", "foo", "prefix");
        str_fn(unit_name_to_prefix, "foo-bar.service", "foo-bar", "prefix");
        str_fn(unit_name_to_prefix, "a.b.service", "a.b", "prefix");
        str_fn(unit_name_to_instance, "foo@bar.service", "bar", "instance");
        str_fn(unit_name_to_instance, "foo@.service", "", "instance");
        str_fn(unit_name_to_instance, "foo@a.b.service", "a.b", "instance");
        tap_ok(unit_name_to_instance("foo.service", &s) == 0 && !s, "no instance gives NULL");
        str_fn(unit_name_template, "foo@bar.service", "foo@.service", "template");
        str_fn(unit_name_template, "foo.service", NULL, "template");
        str_fn(unit_name_strip_suffix, "foo@bar.service", "foo@bar", "strip");
        tap_ok(unit_name_replace_instance("getty@.service", "tty1", &s) == 0 && streq(s, "getty@tty1.service"),
               "replace instance");
        s = mfree(s);
        tap_ok(unit_name_replace_instance("getty@.service", "a b", &s) < 0, "replace with bad instance fails");
        tap_ok(unit_name_replace_instance("getty.service", "x", &s) < 0, "replace on plain name fails");
}

static void strv_is(char **l, const char *want, const char *label) {
        char buf[1024] = "";

        STRV_FOREACH(i, l) {
                if (buf[0])
                        strcat(buf, " ");
                strcat(buf, *i);
        }
        TAP_STREQ(buf, want, label);
}

static void test_dropin_names(void) {
        char **l = NULL;

        tap_ok(unit_name_dash_prefixes("a-b-c.service", &l) == 0, "dash prefixes ok");
        strv_is(l, "a-b- a-", "a-b-c.service prefixes");
        l = strv_free(l);
        unit_name_dash_prefixes("a-b-.service", &l);
        strv_is(l, "a-", "a-b-.service prefixes (trailing dash chopped once)");
        l = strv_free(l);
        unit_name_dash_prefixes("-a.service", &l);
        strv_is(l, "", "-a.service has none (leading dash)");
        l = strv_free(l);
        unit_name_dash_prefixes("a-b@x-y.service", &l);
        strv_is(l, "a-", "instance: prefix only from the part before '@'");
        l = strv_free(l);
        unit_name_dash_prefixes("foo.service", &l);
        strv_is(l, "", "no dash no prefixes");
        l = strv_free(l);

        unit_name_dropin_names("a-b-c.service", true, &l);
        strv_is(l, "a-b-c.service a-b-.service a-.service", "drop-in names of a-b-c.service");
        l = strv_free(l);
        unit_name_dropin_names("a-b-c.service", false, &l);
        strv_is(l, "a-b-c.service", "v238: no prefix drop-ins");
        l = strv_free(l);
        unit_name_dropin_names("a-b@x.service", true, &l);
        strv_is(l, "a-b@x.service a-b@.service a-.service a-@x.service a-@.service",
                "drop-in names of an instance keep the instance");
        l = strv_free(l);
        unit_name_dropin_names("foo@bar.service", false, &l);
        strv_is(l, "foo@bar.service foo@.service", "v238: instance and template");
        l = strv_free(l);
        unit_name_dropin_names("sys-fs-fuse-connections.mount", true, &l);
        strv_is(l, "sys-fs-fuse-connections.mount sys-fs-fuse-.mount sys-fs-.mount sys-.mount",
                "mount unit prefixes");
        l = strv_free(l);
        unit_name_dropin_names("-.mount", true, &l);
        strv_is(l, "-.mount", "root mount");
        l = strv_free(l);
}

struct esc {
        const char *in, *plain, *path, *unesc;
};

static const struct esc escapes[] = {
        { "/var/tmp", "-var-tmp", "var-tmp", NULL },
        { "/", "-", "-", NULL },
        { "foo-bar", "foo\\x2dbar", "foo\\x2dbar", NULL },
        { ".hidden", "\\x2ehidden", "\\x2ehidden", NULL },
        { "/.dot/dir", "-.dot-dir", "\\x2edot-dir", NULL },
        { "a b", "a\\x20b", "a\\x20b", NULL },
        { "Grüße", "Gr\\xc3\\xbc\\xc3\\x9fe", "Gr\\xc3\\xbc\\xc3\\x9fe", NULL },
        { "a\\b", "a\\x5cb", "a\\x5cb", NULL },
        { "//var//lib/", "--var--lib-", "var-lib", NULL },
        { "/a/./b", "-a-.-b", "a-b", NULL },
        { "/a/../b", "-a-..-b", NULL, NULL },
        { "a:b_c.d", "a:b_c.d", "a:b_c.d", NULL },
        { "@at", "\\x40at", "\\x40at", NULL },
        { "tab\there", "tab\\x09here", "tab\\x09here", NULL },
        { "", "", "-", NULL },
        { "rel/path", "rel-path", "rel-path", NULL },
};

static void test_escape(void) {
        for (size_t i = 0; i < ELEMENTSOF(escapes); i++) {
                str_fn(unit_name_escape, escapes[i].in, escapes[i].plain, "escape");
                str_fn(unit_name_path_escape, escapes[i].in, escapes[i].path, "path_escape");
        }
        str_fn(unit_name_unescape, "-var-tmp", "/var/tmp", "unescape");
        str_fn(unit_name_unescape, "foo\\x2dbar", "foo-bar", "unescape");
        str_fn(unit_name_unescape, "a\\x2", NULL, "unescape");
        str_fn(unit_name_unescape, "a\\n", NULL, "unescape");
        str_fn(unit_name_unescape, "\\xC3\\xBC", "ü", "unescape");
        str_fn(unit_name_path_unescape, "var-tmp", "/var/tmp", "path_unescape");
        str_fn(unit_name_path_unescape, "-", "/", "path_unescape");
        str_fn(unit_name_path_unescape, "-var", NULL, "path_unescape");
        str_fn(unit_name_path_unescape, "var-", NULL, "path_unescape");
        str_fn(unit_name_path_unescape, "a--b", NULL, "path_unescape");
        str_fn(unit_name_path_unescape, "a-..-b", NULL, "path_unescape");
        str_fn(unit_name_path_unescape, "", NULL, "path_unescape");
        str_fn(unit_name_path_unescape, "dev-disk-by\\x2duuid-1234", "/dev/disk/by-uuid/1234", "path_unescape");

        char *s = NULL;
        tap_ok(unit_name_from_path("/var/tmp", ".mount", &s) == 0 && streq(s, "var-tmp.mount"), "from path");
        s = mfree(s);
        tap_ok(unit_name_from_path("/", ".mount", &s) == 0 && streq(s, "-.mount"), "from path /");
        s = mfree(s);
        tap_ok(unit_name_from_path("/a/../b", ".mount", &s) < 0, "from path with .. fails");
        {
                _cleanup_(strv_freep) char **l = NULL, **root = NULL;
                tap_ok(unit_name_mounts_of_path("/var//lib/x/", &l) == 0 && strv_length(l) == 4 &&
                               streq(l[0], "var-lib-x.mount") && streq(l[1], "var-lib.mount") &&
                               streq(l[2], "var.mount") && streq(l[3], "-.mount"),
                       "the mount units of a path and its parents, innermost first");
                tap_ok(unit_name_mounts_of_path("/", &root) == 0 && strv_length(root) == 1 &&
                               streq(root[0], "-.mount"),
                       "the root's: -.mount only");
        }
}

/* Runs systemd-escape with args and input; returns its stdout without the newline, or NULL on failure. */
static char *run_escape(const char *binary, bool path, bool unescape, const char *in) {
        char cmd[4096], *out = NULL, *q;
        size_t n = 0;
        FILE *p;
        char quoted[2048], *o = quoted;

        /* single-quote for the shell */
        *o++ = '\'';
        for (const char *c = in; *c && o < quoted + sizeof quoted - 8; c++) {
                if (*c == '\'') {
                        memcpy(o, "'\\''", 4);
                        o += 4;
                } else
                        *o++ = *c;
        }
        *o++ = '\'';
        *o = 0;
        snprintf(cmd, sizeof cmd, "%s %s%s-- %s 2>/dev/null", binary, path ? "--path " : "",
                 unescape ? "--unescape " : "", quoted);
        p = popen(cmd, "r");
        if (!p)
                return NULL;
        if (getline(&out, &n, p) < 0) {
                free(out);
                out = NULL;
        }
        if (pclose(p) != 0) {
                free(out);
                return NULL;
        }
        if (out && (q = strchr(out, '\n')))
                *q = 0;
        return out;
}

static void test_against_systemd_escape(void) {
        const char *bin = getenv("SYSTEMD_ESCAPE") ?: "/usr/bin/systemd-escape";
        static const char * const more[] = { "/srv/a-b/c d", "/ünï/cödé", "x/y", "~user", "/a//b", "-", "--",
                                             "\\x2d", "a.", "/.", "/..", "/a/.", "...", "%n", "a+b=c,d;e" };

        if (access(bin, X_OK) < 0) {
                tap_skip("systemd-escape not installed");
                return;
        }
        for (size_t i = 0; i < ELEMENTSOF(escapes) + ELEMENTSOF(more); i++) {
                const char *in = i < ELEMENTSOF(escapes) ? escapes[i].in : more[i - ELEMENTSOF(escapes)];

                if (!in[0])
                        continue; /* systemd-escape refuses an empty argument list entry differently */
                for (int path = 0; path < 2; path++) {
                        char *want = run_escape(bin, path, false, in), *got = NULL;
                        int r = path ? unit_name_path_escape(in, &got) : unit_name_escape(in, &got);
                        char label[300];

                        snprintf(label, sizeof label, "systemd-escape %s'%s'", path ? "--path " : "", in);
                        if (!want)
                                tap_ok(r < 0, "%s: both refuse", label);
                        else
                                TAP_STREQ(r >= 0 ? got : "(error)", want, label);
                        /* and back */
                        if (want && r >= 0) {
                                char *back = run_escape(bin, path, true, want), *mine = NULL;
                                int k = path ? unit_name_path_unescape(want, &mine) : unit_name_unescape(want, &mine);
                                snprintf(label, sizeof label, "systemd-escape --unescape %s'%s'",
                                         path ? "--path " : "", want);
                                if (!back)
                                        tap_ok(k < 0, "%s: both refuse", label);
                                else
                                        TAP_STREQ(k >= 0 ? mine : "(error)", back, label);
                                free(back);
                                free(mine);
                        }
                        free(want);
                        free(got);
                }
        }
}

static void split(const char *path, int want_r, const char *want_dir, const char *want_name) {
        _cleanup_(freep) char *dir = NULL, *name = NULL;
        int r = unit_name_split_file_path(path, &dir, &name);

        if (want_r < 0) {
                tap_ok(r == want_r, "split '%s': %d (want %d)", path, r, want_r);
                return;
        }
        tap_ok(r == 0 && streq_ptr(dir, want_dir) && streq_ptr(name, want_name), "split '%s': '%s' + '%s'", path,
               strna(dir), strna(name));
}

static void test_split_file_path(void) {
        _cleanup_(freep) char *cwd = getcwd(NULL, 0), *sub = NULL, *subdot = NULL;

        split("/etc/systemd/system/a.service", 0, "/etc/systemd/system", "a.service");
        split("/a@.service", 0, "/", "a@.service");
        split("/x/./y//a@i.socket", 0, "/x/./y/", "a@i.socket");   /* not simplified */
        split("/x/a.nope", -EINVAL, NULL, NULL);
        split("/x/units/", -EINVAL, NULL, NULL);
        split("/x/-", -EINVAL, NULL, NULL);
        if (!cwd) {
                tap_ok(false, "getcwd: %s", strerror(errno));
                return;
        }
        sub = path_join(cwd, "units");
        subdot = path_join(cwd, ".");
        split("units/b.target", 0, sub, "b.target");
        split("./b.target", 0, subdot, "b.target");
}

int main(void) {
        test_valid();
        test_parts();
        test_dropin_names();
        test_escape();
        test_against_systemd_escape();
        test_split_file_path();
        return tap_done();
}
