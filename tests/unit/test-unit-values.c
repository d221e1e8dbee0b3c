/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Setting values as systemd uses them: unit lists split and expanded into unit names, with a warning for each
 * word systemd drops; setting_unit_names_foreach() gives what setting_words() gives, word for word and warning
 * for warning. */

#include "features.h"
#include "load/unit-values.h"
#include "tap.h"

static Unit unit_with(const char *id, Setting *s) {
        static Source src = { .path = (char *) "/etc/systemd/system/x.service" };
        return (Unit) { .id = (char *) id, .type = UNIT_SERVICE, .sources = &src, .n_sources = 1, .settings = s,
                        .n_settings = 1 };
}

static char *join(char **l) {
        char *out = strdup("");
        for (size_t i = 0; out && l && l[i]; i++) {
                char *n = strjoin(out, i > 0 ? "|" : "", l[i]);
                free(out);
                out = n;
        }
        return out;
}

static int collect(const char *name, void *userdata) {
        return strv_extend(userdata, name);
}

static int stop_at_second(const char *name, void *userdata) {
        size_t *n = userdata;
        (void) name;
        return ++*n == 2 ? -ECANCELED : 0;
}

/* Both ways over value: the names and the warnings each gives must be the same; returns the names joined by
 * "|" (NULL when the two differ) and the number of warnings. */
static char *both_ways(const char *id, const char *value, unsigned v, size_t *ret_warnings) {
        Setting s = { .section = (char *) "Unit", .key = (char *) "After", .value = (char *) value, .line = 7 };
        Unit u = unit_with(id, &s);
        KeyInfo k = { .name = "After", .section = "Unit", .type = VALUE_UNIT_LIST };
        _cleanup_(strv_freep) char **words = NULL, **walked = NULL;
        _cleanup_(diag_list_done) DiagList d1 = {}, d2 = {};
        int r1, r2;

        r1 = setting_words(&u, &s, &k, test_features(v), &words, &d1);
        r2 = setting_unit_names_foreach(&u, &s, test_features(v), &d2, collect, &walked);
        if (r1 < 0 || r2 < 0 || strv_length(words) != strv_length(walked) || d1.n != d2.n) {
                tap_diag("%s: setting_words %d (%zu words, %zu warnings), foreach %d (%zu, %zu)", value, r1,
                         strv_length(words), d1.n, r2, strv_length(walked), d2.n);
                return NULL;
        }
        for (size_t i = 0; words && words[i]; i++)
                if (!streq(words[i], walked[i]))
                        return NULL;
        for (size_t i = 0; i < d1.n; i++)
                if (!streq(d1.items[i].message, d2.items[i].message) || d1.items[i].line != 7 ||
                    d1.items[i].level != d2.items[i].level)
                        return NULL;
        *ret_warnings = d1.n;
        return join(words);
}

static void check(const char *id, const char *value, unsigned v, const char *want, size_t want_warnings,
                  const char *name) {
        size_t w = SIZE_MAX;
        _cleanup_(freep) char *got = both_ways(id, value, v, &w);

        TAP_STREQ(got, want, name);
        if (got && w != want_warnings)
                tap_diag("%zu warnings, want %zu", w, want_warnings);
        tap_ok(got && w == want_warnings, "%s: %zu warnings", name, want_warnings);
}

/* names, whitespace and empty values */
static void test_words(void) {
        check("x.service", "a.service b.target", 257, "a.service|b.target", 0, "two names");
        check("x.service", " \ta.service\n\r b.service \t", 257, "a.service|b.service", 0,
              "space, tab, newline and return around and between");
        check("x.service", "", 257, "", 0, "an empty value: no names");
        check("x.service", "   ", 257, "", 0, "only whitespace: no names");
}

/* specifiers, and words that are no unit names */
static void test_specifiers_and_bad_words(void) {
        check("t@inst.service", "dep@%i.service %n.wants", 257, "dep@inst.service", 1,
              "%i and %n expanded (\"t@inst.service.wants\" is no unit name: dropped with a warning)");
        check("t@inst.service", "%p-helper.service", 257, "t-helper.service", 0, "%p expanded");
        check("x.service", "a%%b.service", 257, "", 1, "\"%%\" is a '%', which no unit name has");
        check("x.service", "a.service %Z.service b.service", 257, "a.service|b.service", 1,
              "an unknown specifier drops the word, with a warning, from v237 on");
        check("x.service", "a.service \"b.service\" c\\x2d.service", 257, "a.service|c\\x2d.service", 1,
              "quotes are kept, so the quoted word is no unit name; a backslash is a name character");
        check("x.service", "a.service bogus c.service", 257, "a.service|c.service", 1,
              "a word with no unit type is dropped with a warning");
        /* a specifier not known offline: a notice, no name, and no warning unless no value could make it valid */
        check("x.service", "a.service %H.service", 257, "a.service", 1,
              "%H.service: unknown offline, dropped with only the notice");
        check("x.service", "%m@%b.service", 257, "", 1, "%m@%b.service: unknown offline, only the notice");
        check("x.service", "%H/x.service", 257, "", 2, "%H/x.service: invalid whatever %H is, notice and warning");
        check("x.service", "%H%%.service", 257, "", 2, "%H%%.service: the '%' makes it invalid anyway");
}

/* the 255-character limit of a unit name, before and after expansion */
static void test_long_names(void) {
        char long_name[400];

        memset(long_name, 'a', sizeof long_name);
        strcpy(long_name + 300, ".service b.service");
        check("x.service", long_name, 257, "b.service", 1, "a name longer than 255 characters is dropped");
        memset(long_name, 'a', sizeof long_name);
        memcpy(long_name, "%i", 2);
        strcpy(long_name + 246, ".service"); /* 254 characters, 257 expanded */
        check("t@xyzzy.service", long_name, 257, "", 1,
              "a word that expands past 255 characters is dropped too");
}

/* a callback's error ends setting_unit_names_foreach() */
static void test_callback_error(void) {
        Setting s = { .section = (char *) "Unit", .key = (char *) "After",
                      .value = (char *) "a.service b.service c.service" };
        Unit u = unit_with("x.service", &s);
        size_t n = 0;

        TAP_INTEQ(setting_unit_names_foreach(&u, &s, test_features(257), NULL, stop_at_second, &n), -ECANCELED,
                  "the callback's error stops the walk and is returned");
        TAP_INTEQ(n, 2, "no name after the failing call");
}

int main(void) {
        test_words();
        test_specifiers_and_bad_words();
        test_long_names();
        test_callback_error();
        return tap_done();
}
