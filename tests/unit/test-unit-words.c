/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Word splitting (plain, quoted, C escapes) and Exec*= parsing with prefixes per version. */

#include "features.h"
#include "load/unit-words.h"
#include "tap.h"

static char *join(char **l) {
        size_t len = 1;
        char *s;

        STRV_FOREACH(i, l)
                len += strlen(*i) + 3;
        s = calloc(1, len);
        STRV_FOREACH(i, l) {
                if (i != l)
                        strcat(s, "|");
                strcat(s, "<");
                strcat(s, *i);
                strcat(s, ">");
        }
        return s;
}

static void plain(const char *in, const char *want) {
        char **l = NULL, *got;

        tap_ok(words_split_plain(in, &l) == 0, "plain split of '%s' succeeds", in);
        got = join(l);
        TAP_STREQ(got, want, "plain split result");
        free(got);
        strv_free(l);
}

static void quoted(const char *in, bool cunescape, const char *want) {
        char **l = NULL, *got;
        int r = words_split_quoted(in, cunescape, &l);
        char label[300];

        snprintf(label, sizeof label, "quoted%s split of '%s'", cunescape ? "+cunescape" : "", in);
        if (!want) {
                tap_ok(r == -EINVAL, "%s fails", label);
                strv_free(l);
                return;
        }
        got = r >= 0 ? join(l) : strdup("(error)");
        TAP_STREQ(got, want, label);
        free(got);
        strv_free(l);
}

static void test_split(void) {
        plain("a.service  b.service\tc.service", "<a.service>|<b.service>|<c.service>");
        plain("  \"a b\" 'c'  ", "<\"a>|<b\">|<'c'>");
        plain("x\\ y", "<x\\>|<y>");
        plain("", "");
        plain("a.service # note", "<a.service>|<#>|<note>");

        quoted("\"a b\" 'c d' e", false, "<a b>|<c d>|<e>");
        quoted("a\"b c\"d", false, "<ab cd>");
        quoted("''", false, "<>");
        quoted("a \"\" b", false, "<a>|<>|<b>");
        quoted("\"unbalanced", false, NULL);
        quoted("'x", true, NULL);
        quoted("trailing\\", false, NULL);
        quoted("a\\ b", false, "<a b>");
        quoted("a\\nb", false, "<anb>");
        quoted("a\\nb", true, "<a\nb>");
        quoted("\\x41\\101\\u00e9\\U0001F600\\s\\t", true, "<AA\xc3\xa9\xf0\x9f\x98\x80 \t>");
        quoted("\"in \\\"quotes\\\"\"", true, "<in \"quotes\">");
        quoted("'single \\' inside'", true, "<single ' inside>");
        quoted("\\x00", true, NULL);
        quoted("\\000", true, NULL);
        quoted("\\400", true, NULL);
        quoted("\\q", true, NULL);
        quoted("\\u0000", true, NULL);
        quoted("\\UFFFFFFFF", true, NULL);
        quoted("\\xzz", true, NULL);
        quoted("  spaced   out  ", true, "<spaced>|<out>");
}

/* Renders commands as "flags:path:argv;..." */
static char *render_exec(const char *value, unsigned v, int *ret_r, const char **ret_error) {
        ExecCommand *l = NULL;
        size_t n = 0;
        char *out = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&out, &len);

        *ret_r = exec_command_parse(value, test_features(v), &l, &n, ret_error);
        if (*ret_r < 0)
                fputs("(error)", m);
        for (size_t i = 0; *ret_r >= 0 && i < n; i++) {
                char *a = join(l[i].argv);
                fprintf(m, "%s%x:%s:%s", i ? " ;; " : "", (unsigned) l[i].flags, l[i].path, a);
                free(a);
        }
        fclose(m);
        if (*ret_r >= 0)
                exec_command_list_free(l, n);
        return out;
}

static void exec_is(const char *value, unsigned v, int want_r, const char *want) {
        const char *error = NULL;
        int r;
        char *got = render_exec(value, v, &r, &error);
        char label[400];

        snprintf(label, sizeof label, "v%u ExecStart=%s", v, value);
        TAP_STREQ(got, want, label);
        if (r != want_r)
                tap_diag("return %d (%s), want %d", r, strna(error), want_r);
        tap_ok(r == want_r && (r == 0) == (error == NULL), "%s: return %d%s%s", label, want_r,
               error ? " - " : "", error ?: "");
        free(got);
}

static void test_exec(void) {
        exec_is("/bin/echo hello world", 0, 0, "0:/bin/echo:</bin/echo>|<hello>|<world>");
        exec_is("", 0, 0, "");
        exec_is("-/bin/false", 0, 0, "1:/bin/false:</bin/false>");
        exec_is("@/bin/sleep sleeper 5", 0, 0, "2:/bin/sleep:<sleeper>|<5>");
        exec_is("-@/bin/sleep sleeper", 229, 0, "3:/bin/sleep:<sleeper>");
        exec_is("+/bin/true", 231, 0, "4:/bin/true:</bin/true>");
        exec_is("+/bin/true", 230, -EINVAL, "(error)");
        exec_is("-+/bin/true", 230, 1, "");
        exec_is("!/bin/true", 235, 0, "8:/bin/true:</bin/true>");
        exec_is("!/bin/true", 234, -EINVAL, "(error)");
        exec_is("!!/bin/true", 235, 0, "10:/bin/true:</bin/true>");
        exec_is("+!/bin/true", 0, -EINVAL, "(error)");
        exec_is("!+/bin/true", 0, -EINVAL, "(error)");
        exec_is(":/bin/true", 242, 0, "20:/bin/true:</bin/true>");
        exec_is(":/bin/true", 241, -EINVAL, "(error)");
        exec_is("-:+@/bin/true argv0 x", 0, 0, "27:/bin/true:<argv0>|<x>");
        exec_is("|echo hi", 258, 0, "40:echo:<echo>|<hi>");
        exec_is("|echo hi", 257, 0, "0:|echo:<|echo>|<hi>");
        exec_is("/bin/a ; /bin/b x", 0, 0, "0:/bin/a:</bin/a> ;; 0:/bin/b:</bin/b>|<x>");
        exec_is("/bin/a\t;\t/bin/b", 0, 0, "0:/bin/a:</bin/a> ;; 0:/bin/b:</bin/b>");
        exec_is("/bin/a \\; b", 0, 0, "0:/bin/a:</bin/a>|<;>|<b>");
        exec_is("/bin/a x;y \";\"", 0, 0, "0:/bin/a:</bin/a>|<x;y>|<;>");
        exec_is("; /bin/a", 0, 0, "0:/bin/a:</bin/a>");
        exec_is("/bin/a ;", 0, 0, "0:/bin/a:</bin/a>");
        exec_is("/bin/a ; ; /bin/b", 0, 0, "0:/bin/a:</bin/a> ;; 0:/bin/b:</bin/b>");
        exec_is("foo arg", 239, 0, "0:foo:<foo>|<arg>");
        exec_is("foo arg", 238, -EINVAL, "(error)");
        exec_is("-foo arg", 238, 1, "");
        exec_is("bin/foo", 0, -EINVAL, "(error)");
        exec_is("\"/bin/with space\" 'a b'", 0, 0, "0:/bin/with space:</bin/with space>|<a b>");
        exec_is("/bin/a \"unbalanced", 0, -EINVAL, "(error)");
        exec_is("-/bin/a \"unbalanced", 0, 1, "");
        exec_is("/bin/a ; \"bad", 0, 1, "0:/bin/a:</bin/a>");
        /* an unknown escape fails the command before 228, and is kept as written from 228 (extract-word.c) */
        exec_is("/bin/a ; /bin/b \\q", 227, -EINVAL, "(error)");
        exec_is("/bin/a ; -/bin/b \\q", 227, 1, "0:/bin/a:</bin/a>");
        exec_is("/bin/a ; /bin/b \\q", 228, 0, "0:/bin/a:</bin/a> ;; 0:/bin/b:</bin/b>|<\\q>");
        exec_is("/bin/sh -c \"echo a\\-b\\x41\"", 252, 0, "0:/bin/sh:</bin/sh>|<-c>|<echo a\\-bA>");
        /* kept in the executable too, where the backslash is a special character that fails it */
        exec_is("/bin/a\\q x", 252, -EINVAL, "(error)");
        exec_is("/bin/a \"\\q", 252, -EINVAL, "(error)");
        {
                ExecCommand *l = NULL;
                size_t n = 0;
                bool flagged = exec_command_parse("/bin/a \\- ; /bin/b \\t", test_features(252), &l, &n, NULL) == 0 &&
                               n == 2 && l[0].unknown_escape && !l[1].unknown_escape;
                exec_command_list_free(l, n);
                tap_ok(flagged, "the command with the unknown escape is flagged, the other not");
        }
        exec_is("/usr//bin/./x", 0, 0, "0:/usr/bin/x:</usr//bin/./x>");
        exec_is("/bin/", 0, -EINVAL, "(error)");
        exec_is("-", 0, 1, "");
        exec_is("@/bin/a", 0, -EINVAL, "(error)");
        exec_is("/bin/a\\x41 \\x41\\n", 0, 0, "0:/bin/aA:</bin/aA>|<A\n>");
        exec_is("\"/bin/it's\"", 0, -EINVAL, "(error)");
        exec_is("%h/bin/foo %i", 252, 0, "0:%h/bin/foo:<%h/bin/foo>|<%i>");
        exec_is("/bin/sh -c 'echo \"$$HOME\" ${FOO}'", 0, 0,
                "0:/bin/sh:</bin/sh>|<-c>|<echo \"$$HOME\" ${FOO}>");
}

static void test_split_flags(void) {
        _cleanup_(strv_freep) char **a = NULL, **b = NULL, **c = NULL;

        /* Documentation=man:x(1) \ : systemd keeps the trailing backslash as a word (and then warns it is no URL) */
        tap_ok(words_split_flags("man:x(1) \\", WORDS_RETAIN_ESCAPE | WORDS_RELAX, &a) >= 0 &&
                       strv_length(a) == 2 && streq(a[1], "\\"),
               "relaxed split keeps a trailing backslash");
        tap_ok(words_split_flags("a\\tb", WORDS_RETAIN_ESCAPE, &b) >= 0 && strv_length(b) == 1 &&
                       streq(b[0], "a\\tb"),
               "retained escapes keep backslash and character");
        tap_ok(words_split_flags("x \\", 0, &c) < 0, "a trailing backslash is an error without relax");
}

/* words_first_field(): an exec directory's SOURCE of SOURCE[:SYMLINK] */
static void test_first_field(void) {
        static const struct {
                const char *in, *want; /* want NULL: -EINVAL */
        } cases[] = {
                { "plain", "plain" },     { "a:b", "a" },        { "a\\:b:c", "a:b" }, { "x\\x41y", "xAy" },
                { "\\u00e9:x", "\xc3\xa9" }, { "o\\101", "oA" }, { "a\\q", NULL },     { "a\\", NULL },
                { ":b", "" },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                _cleanup_(freep) char *got = NULL;
                int r = words_first_field(cases[i].in, ':', &got);
                if (cases[i].want)
                        tap_ok(r == 0 && streq_ptr(got, cases[i].want), "first field of %s: \"%s\" (got r=%d \"%s\")",
                               cases[i].in, cases[i].want, r, strna(got));
                else
                        tap_ok(r == -EINVAL, "first field of %s: refused (got r=%d)", cases[i].in, r);
        }
}

int main(void) {
        test_first_field();
        test_split_flags();
        test_split();
        test_exec();
        return tap_done();
}
