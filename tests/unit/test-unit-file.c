/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The line parser against every row of unit-syntax.md §1–2 at each version boundary. Each case parses a string
 * with one systemd version and compares a compact rendering of the result: "Section.Key=value@line" joined by
 * " | ", or "FAIL@line" when the version refuses the file. With PARSE_TREES=root1:root2... set, also parses every
 * unit file and drop-in of those trees and expects no error. */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "features.h"
#include "load/unit-file.h"
#include "tap.h"

static char *render(const char *data, size_t size, unsigned v, const char * const *sections, DiagList *d) {
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        ParseOptions o = { .features = test_features(v), .sections = sections };
        char *out = NULL;
        size_t len = 0;
        FILE *m;
        int r;

        r = unit_file_parse("test.service", data, size, &o, &f, d);
        m = open_memstream(&out, &len);
        if (!m)
                abort();
        if (r < 0) {
                unsigned line = 0;
                for (size_t i = 0; d && i < d->n; i++)
                        if (d->items[i].level == DIAG_ERROR)
                                line = d->items[i].line;
                fprintf(m, "FAIL@%u", line);
                if (r != -EBADMSG)
                        fprintf(m, " r=%d", r);
        } else
                for (size_t i = 0; i < f->n_assignments; i++) {
                        const Assignment *a = &f->assignments[i];
                        fprintf(m, "%s%s.%s=%s@%u", i ? " | " : "", a->section ?: "(null)", a->key, a->value,
                                a->line);
                }
        fclose(m);
        return out;
}

static void check_n(const char *name, const char *data, size_t size, unsigned v, const char *want) {
        DiagList d = {};
        char *got = render(data, size, v, NULL, &d);
        char label[256];

        snprintf(label, sizeof label, "v%u: %s", v, name);
        TAP_STREQ(got, want, label);
        free(got);
        diag_list_done(&d);
}

static void check(const char *name, const char *data, unsigned v, const char *want) {
        check_n(name, data, strlen(data), v, want);
}

/* count diagnostics of a level */
static size_t diags_of(const char *data, unsigned v, const char * const *sections, DiagLevel level) {
        DiagList d = {};
        char *got = render(data, strlen(data), v, sections, &d);
        size_t n = diag_count(&d, level);

        free(got);
        diag_list_done(&d);
        return n;
}

static void test_basics(void) {
        check("simple", "[Unit]\nDescription=Foo\n", 0, "Unit.Description=Foo@2");
        check("whitespace around key and value", "[Unit]\n  Description \t=  a  b \t\n", 0,
              "Unit.Description=a  b@2");
        check("empty value", "[Service]\nExecStart=\n", 0, "Service.ExecStart=@2");
        check("'=' in value splits at the first", "[Service]\nEnvironment=A=B=C\n", 0,
              "Service.Environment=A=B=C@2");
        check("section repeated accumulates", "[Unit]\nA=1\n[Service]\nB=2\n[Unit]\nC=3\n", 0,
              "Unit.A=1@2 | Service.B=2@4 | Unit.C=3@6");
        check("no trailing newline", "[Unit]\nA=1", 0, "Unit.A=1@2");
        check("section name kept exactly", "[ Unit ]\nA=1\n", 0, " Unit .A=1@2");
        check("inline comment is value", "[Unit]\nAfter=a.service # note\n", 0, "Unit.After=a.service # note@2");
        check("key case kept", "[Unit]\ndescription=x\n", 0, "Unit.description=x@2");
        check("empty file", "", 0, "");
        check("blank lines only", "\n\n  \n", 0, "");
}

static void test_sections(void) {
        for (unsigned i = 0; i < 3; i++) {
                unsigned v = (unsigned[]) { 229, 247, 0 }[i];
                check("missing ']' fails", "[Unit\nA=1\n", v, "FAIL@1");
                check("junk after ']' fails", "[Unit] x\nA=1\n", v, "FAIL@1");
                check("assignment before first header ignored", "A=1\n[Unit]\nB=2\n", v, "Unit.B=2@3");
        }
        tap_ok(diags_of("A=1\n[Unit]\n", 0, NULL, DIAG_WARNING) == 1, "key outside section warns");
        check("line without '=' outside section: only a warning", "foo\n[Unit]\nA=1\n", 229, "Unit.A=1@3");
        check("unsafe section name v247 accepted", "[U\"nit]\nA=1\n", 247, "U\"nit.A=1@2");
        check("unsafe section name v252 fails", "[U\"nit]\nA=1\n", 252, "FAIL@1");
        check("control char in section name fails", "[U\tnit]\nA=1\n", 0, "FAIL@1");

        static const char * const known[] = { "Unit", "Service", "Install", "-Mount", NULL };
        const char *text = "[Unit]\nA=1\n[Foo]\nB=2\nnoequals\n[X-Bar]\nC=3\n[Mount]\nD=4\n[Service]\nE=5\n";
        DiagList d = {};
        char *got = render(text, strlen(text), 242, known, &d);
        TAP_STREQ(got, "Unit.A=1@2 | Service.E=5@11", "known sections: others dropped, no-'=' line in them ok");
        TAP_INTEQ(diag_count(&d, DIAG_WARNING), 1, "only the unknown non-X-, non-'-' section warns");
        free(got);
        diag_list_done(&d);
}

static void test_equals(void) {
        check("no '=' fails <= v242", "[Unit]\nfoo\nA=1\n", 242, "FAIL@2");
        check("no '=' warns v243", "[Unit]\nfoo\nA=1\n", 243, "Unit.A=1@3");
        tap_ok(diags_of("[Unit]\nfoo\n", 243, NULL, DIAG_WARNING) == 1, "v243: no '=' is a warning");
        check("empty key ignored", "[Unit]\n=x\nA=1\n", 0, "Unit.A=1@3");
        check("empty key ignored v229", "[Unit]\n =x\nA=1\n", 229, "Unit.A=1@3");
}

static void test_comments(void) {
        const char *inside = "[Service]\nExecStart=/bin/a \\\n# comment\nB=1\n";
        const char *indented = "[Unit]\n  # indented\nA=1\n";
        const char *ends_bs = "[Unit]\n# comment \\\nA=1\nB=2\n";

        check("comment inside continuation becomes value (v239)", inside, 239,
              "Service.ExecStart=/bin/a  # comment@3 | Service.B=1@4");
        check("comment inside continuation vanishes (v240)", inside, 240, "Service.ExecStart=/bin/a  B=1@4");
        check("comment inside continuation vanishes (v241)", inside, 241, "Service.ExecStart=/bin/a  B=1@4");
        check("comment inside continuation vanishes (newest)", inside, 0, "Service.ExecStart=/bin/a  B=1@4");
        check("indented comment ok (v239)", indented, 239, "Unit.A=1@3");
        check("indented comment fails the file (v240)", indented, 240, "FAIL@2");
        check("indented comment ok (v241)", indented, 241, "Unit.A=1@3");
        check("comment ending in \\ swallows next line (v239)", ends_bs, 239, "Unit.B=2@4");
        check("comment ending in \\ does nothing (v240)", ends_bs, 240, "Unit.A=1@3 | Unit.B=2@4");
        check("comment ending in \\ does nothing (newest)", ends_bs, 0, "Unit.A=1@3 | Unit.B=2@4");
        check("';' comment", "[Unit]\n; x\nA=1\n", 0, "Unit.A=1@3");
        check("';' comment (v229)", "[Unit]\n  ; x\nA=1\n", 229, "Unit.A=1@3");
}

static void test_continuation(void) {
        const char *blank = "[Service]\nExecStart=/bin/a \\\n\nB=1\n";
        const char *wsline = "[Service]\nExecStart=/bin/a \\\n   \nB=1\n";
        const char *eof = "[Unit]\nA=1\nB=x \\";

        check("continuation joins with a space", "[Unit]\nA=a\\\nb\n", 0, "Unit.A=a b@3");
        check("continuation keeps indentation", "[Unit]\nA=a \\\n    b\n", 0, "Unit.A=a      b@3");
        check("even backslashes: no continuation", "[Unit]\nA=a\\\\\nB=b\n", 0, "Unit.A=a\\\\@2 | Unit.B=b@3");
        check("three backslashes continue", "[Unit]\nA=a\\\\\\\nb\n", 0, "Unit.A=a\\\\ b@3");
        check("backslash then blanks: no continuation", "[Unit]\nA=a\\  \nB=b\n", 0, "Unit.A=a\\@2 | Unit.B=b@3");
        check("multi-line", "[Unit]\nA=1 \\\n 2 \\\n 3\nB=4\n", 0, "Unit.A=1   2   3@4 | Unit.B=4@5");
        check("blank line ends continuation (v239)", blank, 239, "Service.ExecStart=/bin/a@3 | Service.B=1@4");
        check("blank line does not end continuation (v240)", blank, 240, "Service.ExecStart=/bin/a  B=1@4");
        check("blank line does not end continuation (v242)", blank, 242, "Service.ExecStart=/bin/a  B=1@4");
        check("blank line ends continuation (v243)", blank, 243, "Service.ExecStart=/bin/a@3 | Service.B=1@4");
        check("blank line ends continuation (newest)", blank, 0, "Service.ExecStart=/bin/a@3 | Service.B=1@4");
        check("whitespace line ends continuation (v240)", wsline, 240,
              "Service.ExecStart=/bin/a@3 | Service.B=1@4");
        check("whitespace line does not end continuation (v241)", wsline, 241,
              "Service.ExecStart=/bin/a  B=1@4");
        check("whitespace line ends continuation (v243)", wsline, 243,
              "Service.ExecStart=/bin/a@3 | Service.B=1@4");
        check("\\ at EOF dropped (v238)", eof, 238, "Unit.A=1@2");
        check("\\ at EOF accepted (v239)", eof, 239, "Unit.A=1@2 | Unit.B=x@4");
        check("\\ at EOF with newline accepted (newest)", "[Unit]\nB=x \\\n", 0, "Unit.B=x@3");
        check("continued header", "[Un\\\nit]\nA=1\n", 0, "Un it.A=1@3");
        check("continuation into missing '=' (v242)", "[Unit]\nA=1 \\\n", 242, "Unit.A=1@3");
}

static void test_encoding(void) {
        const char *bom = "\xef\xbb\xbf[Unit]\nA=1\n";
        const char *bad = "[Unit]\nA=\xff\xfe\n";
        const char *badcomment = "[Unit]\n# \xff\nA=1\n";

        check("BOM skipped (v230)", bom, 230, "Unit.A=1@2");
        check("BOM skipped (newest)", bom, 0, "Unit.A=1@2");
        check("BOM not skipped (v229): no header, all ignored", bom, 229, "");
        check("invalid UTF-8 accepted (v238)", bad, 238, "Unit.A=\xff\xfe@2");
        check("invalid UTF-8 fails (v239)", bad, 239, "FAIL@2");
        check("invalid UTF-8 fails (newest)", bad, 0, "FAIL@2");
        check("invalid UTF-8 in a comment is fine (newest)", badcomment, 0, "Unit.A=1@3");
        check("invalid UTF-8 in a comment is fine (v239)", badcomment, 239, "Unit.A=1@3");
        check("U+FFFE refused like systemd", "[Unit]\nA=\xef\xbf\xbe\n", 0, "FAIL@2");
        check("valid UTF-8 kept", "[Unit]\nDescription=Grüße ✓\n", 0, "Unit.Description=Grüße ✓@2");
        /* read_line() (v235+) ends a line at a NUL and reads on; fgets() (up to v234) kept it, and the C string
         * ended there: the rest of that line was lost */
        check_n("NUL ends the line", "[Unit]\nA=1\0B=2\nC=3\n", 19, 0, "Unit.A=1@2 | Unit.B=2@3 | Unit.C=3@4");
        check_n("NUL ends the line (v235)", "[Unit]\nA=1\0B=2\nC=3\n", 19, 235, "Unit.A=1@2 | Unit.B=2@3 | Unit.C=3@4");
        check_n("NUL then newline: an empty line between", "[Unit]\nA=1\0\nC=3\n", 16, 0, "Unit.A=1@2 | Unit.C=3@4");
        check_n("NUL drops the rest of the line (v234)", "[Unit]\nA=1\0B=2\nC=3\n", 19, 234, "Unit.A=1@2 | Unit.C=3@3");
        check_n("NUL drops the rest of the line (v229)", "[Unit]\n\0", 8, 229, "");
        /* from v240 a NUL closes a \n/\r line end (read_line_full()): "\n\0" is one, "\0\n" two */
        check_n("newline then NUL: one line end (v240)", "[Unit]\nA=1\n\0C=3\n", 16, 240, "Unit.A=1@2 | Unit.C=3@3");
        check_n("newline then NUL: two line ends (v239)", "[Unit]\nA=1\n\0C=3\n", 16, 239, "Unit.A=1@2 | Unit.C=3@4");
        check_n("CR LF NUL: one line end (v252)", "[Unit]\nA=1\r\n\0C=3\n", 17, 252, "Unit.A=1@2 | Unit.C=3@3");
}

static void test_crlf(void) {
        const char *crlf = "[Unit]\r\nA=1\r\nB=x \\\r\n y\r\n";

        check("CRLF (newest): one line end, continuation works", crlf, 0, "Unit.A=1@2 | Unit.B=x   y@4");
        check("CRLF (v240)", crlf, 240, "Unit.A=1@2 | Unit.B=x   y@4");
        check("CRLF (v239): \\r stripped as whitespace, no continuation", crlf, 239,
              "FAIL@4");
        check("CRLF (v234): truncate_nl cuts \\r, continuation works", crlf, 234, "Unit.A=1@2 | Unit.B=x   y@4");
        check("lone CR ends a line (newest)", "[Unit]\rA=1\rB=2\r", 0, "Unit.A=1@2 | Unit.B=2@3");
        check("lone CR cuts the line (v234)", "[Unit]\nA=1\rB=2\n", 234, "Unit.A=1@2");
        check("LF CR is one line end (newest)", "[Unit]\n\rA=1\n", 0, "Unit.A=1@2");
        check("CR CR is two line ends (newest)", "[Unit]\r\rA=1\n", 0, "Unit.A=1@3");
}

static void test_long_lines(void) {
        size_t big = 10 * 1024 * 1024, lim = 1024 * 1024;
        char *s = malloc(big + 64), *p;
        char *got;
        DiagList d = {};

        /* 10 MB line */
        p = stpcpy(s, "[Unit]\nDescription=");
        memset(p, 'x', big);
        strcpy(p + big, "\nA=1\n");
        got = render(s, strlen(s), 0, NULL, &d);
        TAP_STREQ(got, "FAIL@2", "10 MB line fails the file (newest)");
        free(got);
        diag_list_done(&d);

        /* exactly at the limit: a line of 1 MiB - 1 bytes is fine, 1 MiB fails */
        p = stpcpy(s, "[Unit]\nA=");
        memset(p, 'y', lim - 1 - 2);
        strcpy(p + lim - 3, "\n");
        got = render(s, strlen(s), 235, NULL, &d);
        tap_ok(got && strncmp(got, "Unit.A=yyy", 10) == 0 && strlen(got) == 7 + (lim - 3) + 2,
               "v235: line of 1 MiB - 1 bytes accepted");
        free(got);
        diag_list_done(&d);
        p = stpcpy(s, "[Unit]\nA=");
        memset(p, 'y', lim - 2);
        strcpy(p + lim - 2, "\n");
        got = render(s, strlen(s), 235, NULL, &d);
        TAP_STREQ(got, "FAIL@2", "v235: line of 1 MiB fails");
        free(got);
        diag_list_done(&d);

        /* continuation over 1 MiB */
        p = stpcpy(s, "[Unit]\nA=");
        memset(p, 'z', lim - 100);
        p = stpcpy(p + lim - 100, "\\\n");
        memset(p, 'z', 200);
        strcpy(p + 200, "\n");
        got = render(s, strlen(s), 0, NULL, &d);
        TAP_STREQ(got, "FAIL@3", "joined continuation over 1 MiB fails");
        free(got);
        diag_list_done(&d);

        /* v234: split into 2047-byte pieces; the rest becomes a line of its own */
        p = stpcpy(s, "[Unit]\nDescription=");
        memset(p, 'd', 2047 - 12);
        strcpy(p + 2047 - 12, "After=b.service\n");
        got = render(s, strlen(s), 234, NULL, &d);
        tap_ok(got && strstr(got, " | Unit.After=b.service@2") && !strstr(got, "FAIL"),
               "v234: long line split at 2047 bytes, the tail parsed as a line");
        free(got);
        diag_list_done(&d);
        got = render(s, strlen(s), 235, NULL, &d);
        tap_ok(got && !strstr(got, "| Unit.After"), "v235: same long line kept whole");
        free(got);
        diag_list_done(&d);
        free(s);
}

static void test_include(void) {
        const char *inc = ".include /lib/systemd/system/foo.service\n[Unit]\n.include  bar.conf \nA=1\n";

        check(".include recorded (v229)", inc, 229,
              "(null)..include=/lib/systemd/system/foo.service@1 | Unit..include=bar.conf@3 | Unit.A=1@4");
        check(".include recorded (v245)", inc, 245,
              "(null)..include=/lib/systemd/system/foo.service@1 | Unit..include=bar.conf@3 | Unit.A=1@4");
        check(".include is a line without '=' (v246)", inc, 246, "Unit.A=1@4");
        tap_ok(diags_of(inc, 245, NULL, DIAG_WARNING) == 2, "v245: .include deprecated warnings");
        check(".includex is not an include", "[Unit]\n.includex=1\n", 245, "Unit..includex=1@2");
}

static void test_line_numbers(void) {
        /* config_parse() names a joined line by its last physical line; one open at the end of the file by the
         * line after the last (++line), whether the file ends in a line end or not */
        check("line of a continued key is its last line", "[Unit]\n\nA=1 \\\n2\nB=3\n", 0,
              "Unit.A=1  2@4 | Unit.B=3@5");
        check("open continuation at the end of the file: the line after", "[Unit]\nA=1 \\\n# c\n", 0,
              "Unit.A=1@4");
        check("open continuation at the end, no line end: the line after", "[Unit]\nA=1 \\\n# c", 0,
              "Unit.A=1@4");
        check("comment lines counted", "# a\n# b\n[Unit]\n# c\nA=1\n", 0, "Unit.A=1@5");
}

static bool is_unit_or_dropin(const char *name) {
        static const char * const sfx[] = { ".service", ".socket", ".target", ".device", ".mount", ".automount",
                                            ".swap", ".timer", ".path", ".slice", ".scope", ".conf" };
        for (size_t i = 0; i < ELEMENTSOF(sfx); i++)
                if (endswith(name, sfx[i]))
                        return true;
        return false;
}

static void parse_tree(const char *dir, unsigned *n_files, unsigned *n_bad, unsigned depth) {
        DIR *d = opendir(dir);
        struct dirent *de;

        if (!d || depth > 3) {
                if (d)
                        closedir(d);
                return;
        }
        while ((de = readdir(d))) {
                _cleanup_(freep) char *p = NULL, *buf = NULL;
                _cleanup_(closep) int fd = -EBADF;
                struct stat st;
                size_t size;

                if (de->d_name[0] == '.')
                        continue;
                p = path_join(dir, de->d_name);
                if (!p || lstat(p, &st) < 0)
                        continue;
                if (S_ISDIR(st.st_mode)) {
                        parse_tree(p, n_files, n_bad, depth + 1);
                        continue;
                }
                if (!S_ISREG(st.st_mode) || !is_unit_or_dropin(de->d_name))
                        continue;
                fd = open(p, O_RDONLY | O_CLOEXEC);
                if (fd < 0 || read_full_fd(fd, 64 << 20, &buf, &size) < 0) {
                        (*n_bad)++;
                        tap_diag("cannot read %s", p);
                        continue;
                }
                for (unsigned k = 0; k < 3; k++) {
                        _cleanup_(unit_file_freep) UnitFile *f = NULL;
                        DiagList dl = {};
                        ParseOptions o = { .features = test_features((unsigned[]) { 247, 252, 257 }[k]) };

                        if (unit_file_parse(p, buf, size, &o, &f, &dl) < 0 || diag_count(&dl, DIAG_ERROR) > 0) {
                                (*n_bad)++;
                                tap_diag("v%u: %s: %s", o.features->version, p, dl.n ? dl.items[0].message : "?");
                        }
                        diag_list_done(&dl);
                }
                (*n_files)++;
        }
        closedir(d);
}

static void test_trees(const char *trees) {
        _cleanup_(freep) char *copy = strdup(trees);
        char *save = NULL;

        for (char *root = strtok_r(copy, ":", &save); root; root = strtok_r(NULL, ":", &save)) {
                static const char * const sub[] = { "lib/systemd/system", "usr/lib/systemd/system",
                                                    "etc/systemd/system" };
                unsigned n_files = 0, n_bad = 0;
                struct stat st;

                for (size_t i = 0; i < ELEMENTSOF(sub); i++) {
                        _cleanup_(freep) char *d = path_join(root, sub[i]);
                        /* /lib may be a symlink to usr/lib: do not parse the same tree twice */
                        if (i == 0 && lstat(d, &st) == 0 && !S_ISDIR(st.st_mode))
                                continue;
                        {
                                _cleanup_(freep) char *l = path_join(root, "lib");
                                if (i == 0 && l && lstat(l, &st) == 0 && S_ISLNK(st.st_mode))
                                        continue;
                        }
                        parse_tree(d, &n_files, &n_bad, 0);
                }
                tap_ok(n_files > 0 && n_bad == 0, "%s: %u unit files and drop-ins parse without error", root,
                       n_files);
        }
}

int main(void) {
        const char *trees = getenv("PARSE_TREES");

        if (trees && *trees) {
                test_trees(trees);
                return tap_done();
        }
        test_basics();
        test_sections();
        test_equals();
        test_comments();
        test_continuation();
        test_encoding();
        test_crlf();
        test_long_lines();
        test_include();
        test_line_numbers();
        return tap_done();
}
