/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>

#include "basic/diag.h"
#include "basic/json.h"
#include "basic/util.h"
#include "tap.h"

static void test_paths(void) {
        _cleanup_(freep) char *a = path_simplify_dup("//a/./b//c/"), *b = path_join("/a/", "/b"),
                              *c = path_simplify_dup("/");
        TAP_STREQ(a, "/a/b/c", "path_simplify_dup collapses // and /./");
        TAP_STREQ(b, "/a/b", "path_join avoids double slash");
        TAP_STREQ(c, "/", "path_simplify_dup keeps /");
        tap_ok(path_is_normalized("/var/lib/x"), "normalized path accepted");
        tap_ok(!path_is_normalized("/var/../x"), "path with .. is not normalized");
        tap_ok(!path_is_normalized("/var//x"), "path with // is not normalized");
        TAP_STREQ(path_basename("/a/b.service"), "b.service", "path_basename");
        {
                _cleanup_(freep) char *r = path_text_relative("--- /w/units/a.service (/w/x) /wx/y a/w/z /w/", "/w"),
                                      *r2 = path_text_relative("/a/b", "/");
                TAP_STREQ(r, "--- units/a.service (x) /wx/y a/w/z ", "path_text_relative: paths starting a word");
                TAP_STREQ(r2, "/a/b", "path_text_relative: nothing is below / that way");
        }
}

static void test_strv(void) {
        _cleanup_(strv_freep) char **l = NULL;
        tap_ok(strv_extend(&l, "b") == 0 && strv_extend(&l, "a") == 0, "strv_extend");
        tap_ok(strv_extend_unique(&l, "a") == 0 && strv_length(l) == 2, "strv_extend_unique skips duplicates");
        strv_sort(l);
        TAP_STREQ(l[0], "a", "strv_sort");
}

static void test_utf8(void) {
        tap_ok(utf8_is_valid_n("h\xc3\xa9llo", 6, 0), "valid UTF-8 accepted");
        TAP_INTEQ(utf8_first_invalid("ab\xff", 3, 0), 2, "invalid byte located");
        tap_ok(!utf8_is_valid_n("\xc0\x80", 2, 0), "overlong NUL rejected");
        tap_ok(!utf8_is_valid_n("\xed\xa0\x80", 3, 0), "surrogate rejected");
        tap_ok(!utf8_is_valid_n("\xf4\x90\x80\x80", 4, 0), "beyond U+10FFFF rejected");
        TAP_INTEQ(utf8_first_invalid("a\xe2\x82", 3, 0), 1, "truncated sequence located at its start");

        /* noncharacters: valid UTF-8, refused only as systemd refuses them */
        static const char * const nonchars[] = { "\xef\xb7\x90" /* U+FDD0 */, "\xef\xb7\xaf" /* U+FDEF */,
                                                 "\xef\xbf\xbe" /* U+FFFE */, "\xef\xbf\xbf" /* U+FFFF */,
                                                 "\xf0\x9f\xbf\xbf" /* U+1FFFF */,
                                                 "\xf4\x8f\xbf\xbe" /* U+10FFFE */ };
        for (size_t i = 0; i < ELEMENTSOF(nonchars); i++) {
                size_t n = strlen(nonchars[i]);
                tap_ok(utf8_is_valid_n(nonchars[i], n, 0), "noncharacter %zu accepted without the flag", i);
                tap_ok(utf8_first_invalid(nonchars[i], n, UTF8_REFUSE_NONCHARACTERS) == 0,
                       "noncharacter %zu refused with UTF8_REFUSE_NONCHARACTERS", i);
        }
        tap_ok(utf8_is_valid_n("\xef\xb7\x8f\xef\xb7\xb0\xef\xbf\xbd", 9, UTF8_REFUSE_NONCHARACTERS),
               "U+FDCF, U+FDF0 and U+FFFD are characters");
        TAP_INTEQ(utf8_first_invalid("ab\xef\xbf\xbe", 5, UTF8_REFUSE_NONCHARACTERS), 2, "noncharacter located");

        {
                _cleanup_(freep) char *a = utf8_sanitize("a\xff\xc3\xa9\xe2\x82"), *b = utf8_sanitize("");
                TAP_STREQ(a, "a\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd",
                          "utf8_sanitize replaces each invalid byte by U+FFFD");
                TAP_STREQ(b, "", "utf8_sanitize of an empty string");
        }
}

static void test_free_and_strdup(void) {
        _cleanup_(freep) char *p = NULL;

        tap_ok(free_and_strdup(&p, "one") == 0 && streq_ptr(p, "one"), "free_and_strdup into NULL");
        tap_ok(free_and_strdup(&p, "two") == 0 && streq_ptr(p, "two"), "free_and_strdup replaces the string");
        tap_ok(free_and_strdup(&p, p) == 0 && streq_ptr(p, "two"), "free_and_strdup of the string itself");
        tap_ok(free_and_strdup(&p, "") == 0 && streq_ptr(p, ""), "free_and_strdup of \"\"");
}

static void test_parse_boolean(void) {
        static const char * const yes[] = { "1", "yes", "y", "true", "t", "on", "YES", "True", "oN" };
        static const char * const no[] = { "0", "no", "n", "false", "f", "off", "NO", "False", "OFF" };
        static const char * const neither[] = { "", "2", "yess", "enable", "nope", " yes", "yes ", "-1" };

        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                tap_ok(parse_boolean(yes[i]) == 1, "parse_boolean('%s') = 1", yes[i]);
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                tap_ok(parse_boolean(no[i]) == 0, "parse_boolean('%s') = 0", no[i]);
        for (size_t i = 0; i < ELEMENTSOF(neither); i++)
                tap_ok(parse_boolean(neither[i]) == -EINVAL, "parse_boolean('%s') = -EINVAL", neither[i]);
}

static void test_escape_control(void) {
        _cleanup_(freep) char *a = escape_control("a\nb\tc\033[31m\x7f\x01 \xc3\xa9\\"), *b = escape_control("");
        TAP_STREQ(a, "a\\nb\\tc\\x1b[31m\\x7f\\x01 \xc3\xa9\\", "escape_control escapes control characters only");
        TAP_STREQ(b, "", "escape_control of an empty string");
}

static void test_json(void) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        JsonWriter w;

        json_init(&w, f, false);
        json_begin_object(&w);
        json_kv_string(&w, "a", "x\"y\n");
        json_key(&w, "l");
        json_begin_array(&w);
        json_int(&w, 1);
        json_string(&w, "\xff");
        json_end_array(&w);
        json_end_object(&w);
        fclose(f);
        TAP_STREQ(buf, "{\"a\":\"x\\\"y\\n\",\"l\":[1,\"\xef\xbf\xbd\"]}", "json writer escapes and separates");
        free(buf);
}

/* diag_list_copy(): copies of what is as severe as asked, src left as it was */
static void test_diag_copy(void) {
        DiagList src = {}, errors = {}, all = {};

        tap_ok(diag_add(&src, DIAG_WARNING, "a.service", 3, "warned") == 0 &&
                       diag_add(&src, DIAG_ERROR, "b.service", 7, "refused %d", 1) == 0 &&
                       diag_add(&src, DIAG_NOTICE, NULL, 0, "noted") == 0,
               "diag_add: three diagnostics");
        TAP_INTEQ(diag_list_copy(&errors, &src, DIAG_ERROR), 0, "diag_list_copy: errors only");
        TAP_INTEQ(errors.n, 1, "diag_list_copy: one error copied");
        tap_ok(errors.n == 1 && errors.items[0].level == DIAG_ERROR && streq(errors.items[0].file, "b.service") &&
                       errors.items[0].line == 7 && streq(errors.items[0].message, "refused 1"),
               "diag_list_copy: the error's file, line and message");
        TAP_INTEQ(diag_list_copy(&all, &src, DIAG_NOTICE), 0, "diag_list_copy: everything");
        TAP_INTEQ(all.n, 3, "diag_list_copy: three copied");
        tap_ok(all.n == 3 && all.items[2].file == NULL && streq(all.items[2].message, "noted"),
               "diag_list_copy: a diagnostic without a file stays without one");
        TAP_INTEQ(src.n, 3, "diag_list_copy: the source keeps its diagnostics");
        TAP_INTEQ(diag_list_copy(NULL, &src, DIAG_NOTICE), 0, "diag_list_copy: to NULL drops them");
        diag_list_done(&src);
        diag_list_done(&errors);
        diag_list_done(&all);
}

int main(void) {
        test_diag_copy();
        test_paths();
        test_strv();
        test_utf8();
        test_free_and_strdup();
        test_parse_boolean();
        test_escape_control();
        test_json();
        {
                char p[] = "/var/lib/foo", r[] = "/", *steps[5] = {};
                size_t n = 0;
                do
                        steps[n++] = strdup(p);
                while (n < 5 && path_cut_last(p));
                tap_ok(n == 4 && streq(steps[0], "/var/lib/foo") && streq(steps[1], "/var/lib") &&
                               streq(steps[2], "/var") && streq(steps[3], "/"),
                       "path_cut_last: a path, then each parent up to /");
                for (size_t k = 0; k < n; k++)
                        free(steps[k]);
                tap_ok(!path_cut_last(r) && streq(r, "/"), "path_cut_last: nothing to cut off /");
        }
        {
                struct stat st;
                int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd2 = open("/dev/null", O_RDONLY | O_CLOEXEC);
                TAP_INTEQ(fd >= 0 ? fd_stat_regular(fd, &st) : 0, -EISDIR, "fd_stat_regular: a directory");
                TAP_INTEQ(fd2 >= 0 ? fd_stat_regular(fd2, &st) : 0, -EBADFD, "fd_stat_regular: a device");
                if (fd >= 0)
                        close(fd);
                if (fd2 >= 0)
                        close(fd2);
                fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
                tap_ok(fd >= 0 && fd_stat_regular(fd, &st) == 0 && S_ISREG(st.st_mode),
                       "fd_stat_regular: a regular file, and its stat");
                if (fd >= 0)
                        close(fd);
        }
        return tap_done();
}
