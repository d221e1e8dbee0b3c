/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Specifier expansion: values for the system manager, per-letter introduction versions, the unit-name subset,
 * unknown specifiers before/after v236, and values only known from the context. */

#include "features.h"
#include "load/specifier.h"
#include "tap.h"

static void expand(const char *unit, unsigned v, SpecifierUse use, const char *in, int want_r, const char *want,
                   const char *want_unknown) {
        SpecifierContext c = { .unit_name = unit, .features = test_features(v) };
        const char *unknown = NULL;
        char *got = NULL;
        int r = specifier_expand(in, &c, use, &got, &unknown);
        char label[300];

        snprintf(label, sizeof label, "v%u %s%s: '%s'", v, unit, use == SPECIFIER_USE_UNIT_NAME ? " (name)" : "",
                 in);
        if (want_r < 0) {
                tap_ok(r == want_r && streq_ptr(unknown, want_unknown), "%s fails with %d naming %s", label, want_r,
                       strna(want_unknown));
                if (r != want_r || !streq_ptr(unknown, want_unknown))
                        tap_diag("got %d, %s", r, strna(unknown));
        } else
                TAP_STREQ(r == 0 ? got : "(error)", want, label);
        free(got);
}

#define V(unit, in, want) expand(unit, 0, SPECIFIER_USE_VALUE, in, 0, want, NULL)

static void test_values(void) {
        V("foo@bar.service", "%n", "foo@bar.service");
        V("foo@bar.service", "%N", "foo@bar");
        V("foo@bar.service", "%p", "foo");
        V("foo@bar.service", "%i", "bar");
        V("foo.service", "%i", "");
        V("foo.service", "%I", "");
        V("a-b@x-y.service", "%P %I", "a/b x/y");
        V("getty@tty1.service", "/dev/%I", "/dev/tty1");
        V("systemd-fsck@dev-disk-by\\x2duuid-1234.service", "%f", "/dev/disk/by-uuid/1234");
        V("systemd-fsck@dev-disk-by\\x2duuid-1234.service", "%i", "dev-disk-by\\x2duuid-1234");
        V("systemd-fsck@dev-disk-by\\x2duuid-1234.service", "%I", "dev/disk/by-uuid/1234");
        V("var-lib-foo.mount", "%f", "/var/lib/foo");
        V("-.mount", "%f", "/");
        V("foo-bar-baz@i.service", "%j %J", "baz baz");
        V("foo-bar-b\\x2dz.service", "%j|%J", "b\\x2dz|b-z");
        V("nodash@i.service", "%j", "nodash");
        V("foo.service", "%t %S %C %L %T %V %E", "/run /var/lib /var/cache /var/log /tmp /var/tmp /etc");
        V("foo.service", "%h %s %u %U %g %G", "/root /bin/sh root 0 root 0");
        V("foo.service", "%d", "/run/credentials/foo.service");
        V("foo.service", "%D", "/usr/share");
        V("foo.service", "100%% sure", "100% sure");
        V("foo.service", "trailing %", "trailing %");
        V("foo.service", "%-x %/", "%-x %/");
        V("foo.service", "no specifiers", "no specifiers");
        V("foo.service", "", "");
}

static void test_versions(void) {
        /* unknown alphanumeric: verbatim before v236, error since */
        expand("foo.service", 235, SPECIFIER_USE_VALUE, "a%zb", 0, "a%zb", NULL);
        expand("foo.service", 236, SPECIFIER_USE_VALUE, "a%zb", -EBADMSG, NULL, "%z");
        expand("foo.service", 0, SPECIFIER_USE_VALUE, "%9", -EBADMSG, NULL, "%9");
        /* introduction versions */
        expand("foo.service", 235, SPECIFIER_USE_VALUE, "%S", 0, "%S", NULL);
        expand("foo.service", 236, SPECIFIER_USE_VALUE, "%S %C %L", 0, "/var/lib /var/cache /var/log", NULL);
        expand("a-b.service", 238, SPECIFIER_USE_VALUE, "%j", -EBADMSG, NULL, "%j");
        expand("a-b.service", 239, SPECIFIER_USE_VALUE, "%j %T %V %E", 0, "b /tmp /var/tmp /etc", NULL);
        expand("foo.service", 239, SPECIFIER_USE_VALUE, "%g", -EBADMSG, NULL, "%g");
        expand("foo.service", 240, SPECIFIER_USE_VALUE, "%g %G", 0, "root 0", NULL);
        expand("foo.service", 250, SPECIFIER_USE_VALUE, "%d", -EBADMSG, NULL, "%d");
        expand("foo.service", 255, SPECIFIER_USE_VALUE, "%D", -EBADMSG, NULL, "%D");
        expand("foo.service", 256, SPECIFIER_USE_VALUE, "%D", 0, "/usr/share", NULL);
        expand("foo.service", 229, SPECIFIER_USE_VALUE, "%t %u %h", 0, "/run root /root", NULL);
        expand("foo.service", 186, SPECIFIER_USE_VALUE, "%u", 0, "%u", NULL);
}

static void test_names(void) {
        const SpecifierUse N = SPECIFIER_USE_UNIT_NAME;

        expand("foo@bar.service", 229, N, "other@%i.service", 0, "other@bar.service", NULL);
        expand("foo@bar.service", 229, N, "%p-helper.service %N.socket", 0, "foo-helper.service foo@bar.socket",
               NULL);
        /* %t is not a name specifier: verbatim before v236, an error after */
        expand("foo.service", 229, N, "x%t.service", 0, "x%t.service", NULL);
        expand("foo.service", 0, N, "x%t.service", -EBADMSG, NULL, "%t");
        expand("foo@bar.service", 0, N, "%I.service", -EBADMSG, NULL, "%I");
        expand("foo.service", 235, N, "%u.service", 0, "%u.service", NULL);
        expand("foo.service", 236, N, "%u-%U.service", 0, "root-0.service", NULL);
        expand("a-b.service", 238, N, "%j.service", -EBADMSG, NULL, "%j");
        expand("a-b.service", 239, N, "%j.service", 0, "b.service", NULL);
        expand("foo.service", 236, N, "%H.service", -ENXIO, NULL, "%H");
}

static void test_context(void) {
        SpecifierContext c = {
                .unit_name = "foo.service",
                .features = test_features(0),
                .hostname = "box.example.com",
                .machine_id = "0123456789abcdef0123456789abcdef",
                .boot_id = "fedcba9876543210fedcba9876543210",
                .kernel_release = "6.1.0-18-amd64",
                .architecture = "x86-64",
                .fragment_path = "/usr/lib/systemd/system/foo.service",
        };
        const char *unknown = NULL;
        char *s = NULL;

        tap_ok(specifier_expand("%H %l %m %b %v %a %y %Y", &c, SPECIFIER_USE_VALUE, &s, &unknown) == 0 &&
                       streq(s, "box.example.com box 0123456789abcdef0123456789abcdef fedcba9876543210fedcba9876543210 "
                                "6.1.0-18-amd64 x86-64 /usr/lib/systemd/system/foo.service /usr/lib/systemd/system"),
               "context values expanded");
        s = mfree(s);
        c.hostname = NULL;
        tap_ok(specifier_expand("x%Hy", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -ENXIO && streq(unknown, "%H"),
               "unknown host gives -ENXIO naming %%H");
        tap_ok(specifier_expand("%o", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -ENXIO && streq(unknown, "%o"),
               "os-release values unknown offline");
        tap_ok(specifier_expand("%c", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -ENXIO && streq(unknown, "%c"),
               "cgroup specifiers unknown offline");

        /* before v236 %u %U %h %s described the unit's User= */
        c.features = test_features(235);
        c.user = "www-data";
        tap_ok(specifier_expand("%u", &c, SPECIFIER_USE_VALUE, &s, &unknown) == 0 && streq(s, "www-data"),
               "v235: %%u is User=");
        s = mfree(s);
        tap_ok(specifier_expand("%h", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -ENXIO && streq(unknown, "%h"),
               "v235: %%h of another user unknown offline");
        c.features = test_features(236);
        tap_ok(specifier_expand("%u %h", &c, SPECIFIER_USE_VALUE, &s, &unknown) == 0 && streq(s, "root /root"),
               "v236: %%u %%h are the manager's user");
        s = mfree(s);

        /* %f of an instance that is not a valid escaped path */
        c.unit_name = "foo@a--b.service";
        tap_ok(specifier_expand("%f", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -EINVAL && streq(unknown, "%f"),
               "%%f of a bad instance fails");
        c.unit_name = "not a unit";
        tap_ok(specifier_expand("%n", &c, SPECIFIER_USE_VALUE, &s, &unknown) == -EINVAL, "bad unit name refused");

        tap_ok(specifier_is_known('j', SPECIFIER_USE_VALUE, test_features(239)) &&
                       !specifier_is_known('j', SPECIFIER_USE_VALUE, test_features(238)),
               "specifier_is_known follows versions");
        tap_ok(!specifier_is_known('t', SPECIFIER_USE_UNIT_NAME, test_features(0)) &&
                       specifier_is_known('i', SPECIFIER_USE_UNIT_NAME, test_features(0)),
               "specifier_is_known knows the name subset");
}

int main(void) {
        test_values();
        test_versions();
        test_names();
        test_context();
        return tap_done();
}
