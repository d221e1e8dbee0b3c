/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unified_diff(): fixed cases against what `diff -u` writes, and random edits whose diff, applied by a small
 * strict applier here, gives back the new text exactly. */

#include "basic/unified-diff.h"
#include "tap.h"

static char *diff(const char *a, const char *b) {
        char *r = NULL;
        if (unified_diff(a, strlen(a), b, strlen(b), "x", "x", 3, &r) < 0)
                return strdup("ERROR");
        return r;
}

typedef struct TLine {
        const char *p;
        size_t len;
        bool nl;
} TLine;

static size_t tsplit(const char *s, TLine *l) {
        size_t n = 0;
        while (*s) {
                const char *e = strchr(s, '\n');
                size_t len = e ? (size_t) (e - s) : strlen(s);
                l[n++] = (TLine) { s, len, !!e };
                s += len + !!e;
        }
        return n;
}

/* Applies d to old strictly (context and removed lines must match, hunks in order); returns the new text or
 * NULL. */
static char *apply(const char *old, const char *d) {
        TLine *o = calloc(strlen(old) + 2, sizeof(TLine)), *h = calloc(strlen(d) + 2, sizeof(TLine));
        TLine *out = calloc(strlen(old) + strlen(d) + 2, sizeof(TLine));
        size_t no = tsplit(old, o), nh = tsplit(d, h), nout = 0, pos = 0, i = 2;
        char *buf = NULL;
        size_t len = 0;
        FILE *f;

        while (i < nh) {
                unsigned long a, b = 1;
                TLine *last = NULL;

                if (sscanf(h[i].p, "@@ -%lu,%lu", &a, &b) != 2 && sscanf(h[i].p, "@@ -%lu", &a) != 1)
                        goto fail;
                for (size_t start = b == 0 ? a : a - 1; pos < start && pos < no;)
                        out[nout++] = o[pos++];
                for (i++; i < nh && h[i].len > 0 && strchr(" -+\\", h[i].p[0]); i++) {
                        TLine body = { h[i].p + 1, h[i].len - 1, true };
                        if (h[i].p[0] == '\\') {
                                if (!last)
                                        goto fail;
                                last->nl = false;
                                continue;
                        }
                        if (h[i].p[0] != '+') {
                                if (pos >= no || o[pos].len != body.len || memcmp(o[pos].p, body.p, body.len))
                                        goto fail;
                                pos++;
                        }
                        if (h[i].p[0] == '-') {
                                /* a removed line's own marker concerns the old side only */
                                static TLine scratch;
                                last = &scratch;
                                continue;
                        }
                        out[nout] = body;
                        last = &out[nout++];
                }
        }
        while (pos < no)
                out[nout++] = o[pos++];
        f = open_memstream(&buf, &len);
        for (size_t k = 0; k < nout; k++) {
                fwrite(out[k].p, 1, out[k].len, f);
                if (out[k].nl)
                        fputc('\n', f);
        }
        fclose(f);
        free(o);
        free(h);
        free(out);
        return buf;
fail:
        free(o);
        free(h);
        free(out);
        return NULL;
}

static unsigned long rnd_state = 12345;
static unsigned rnd(unsigned n) {
        rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
        return (unsigned) ((rnd_state >> 33) % n);
}

static char *random_text(unsigned lines, bool final_nl) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        for (unsigned i = 0; i < lines; i++)
                fprintf(f, "line%u%s", rnd(6), i + 1 < lines || final_nl ? "\n" : "");
        fclose(f);
        return buf;
}

/* Fixed cases, as diff -u writes them. */
static void test_fixed(void) {
        char *d;

        d = diff("a\nb\n", "a\nb\n");
        tap_ok(d == NULL, "equal texts: no diff");
        free(d);

        d = diff("[Unit]\nDescription=x\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\n",
                 "[Unit]\nDescription=x\nDefaultDependencies=no\nAfter=systemd-remount-fs.service\n\n"
                 "[Service]\nExecStart=/bin/true\n");
        TAP_STREQ(d,
                  "--- x\n+++ x\n@@ -1,6 +1,7 @@\n [Unit]\n Description=x\n DefaultDependencies=no\n"
                  "+After=systemd-remount-fs.service\n \n [Service]\n ExecStart=/bin/true\n",
                  "one inserted line: one hunk with 3 lines of context");
        free(d);

        d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\n6\n7\n8\n9\n10\n");
        TAP_STREQ(d, "--- x\n+++ x\n@@ -2,7 +2,6 @@\n 2\n 3\n 4\n-5\n 6\n 7\n 8\n", "one deleted line");
        free(d);

        d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n",
                 "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n");
        TAP_STREQ(d,
                  "--- x\n+++ x\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -13,3 +14,4 @@\n 13\n 14\n 15\n+16\n",
                  "two distant changes: two hunks, as diff -u writes them");
        free(d);

        d = diff("a\nb", "a\nb\nc\n");
        TAP_STREQ(d, "--- x\n+++ x\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n",
                  "a last line without newline is marked");
        free(d);

        d = diff("", "[Unit]\nAfter=a.service\n");
        TAP_STREQ(d, "--- x\n+++ x\n@@ -0,0 +1,2 @@\n+[Unit]\n+After=a.service\n", "creation from nothing");
        free(d);

        d = diff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\nX\n5\n6\nY\n8\n");
        TAP_STREQ(d, "--- x\n+++ x\n@@ -1,8 +1,8 @@\n 1\n 2\n 3\n-4\n+X\n 5\n 6\n-7\n+Y\n 8\n",
                  "changes closer than 2x context share a hunk");
        free(d);
}

/* b: a few edits of a (lines inserted at line starts). */
static char *edit(const char *a) {
        char *b = strdup(a);

        if (!b)
                tap_bail("out of memory");
        for (unsigned e = rnd(4); e > 0; e--) {
                size_t len = strlen(b), at = len ? rnd((unsigned) len) : 0;
                char *c = NULL;
                while (at > 0 && b[at - 1] != '\n')
                        at--;
                if (asprintf(&c, "%.*sins%u\n%s", (int) at, b, rnd(3), b + at) < 0)
                        tap_bail("out of memory");
                free(b);
                b = c;
        }
        return b;
}

/* Random edits: the diff applies back exactly. */
static void test_random(void) {
        unsigned bad = 0;

        for (unsigned t = 0; t < 400; t++) {
                unsigned n = rnd(40);
                char *a = random_text(n, rnd(4) != 0), *b = random_text(rnd(4) == 0 ? rnd(40) : 0, true);
                char *back, *d = NULL;

                if (!a || !b)
                        tap_bail("out of memory");
                if (rnd(2)) {
                        /* a few edits of a instead of an unrelated text */
                        free(b);
                        b = edit(a);
                }
                if (unified_diff(a, strlen(a), b, strlen(b), "x", "x", 3, &d) < 0) {
                        bad++;
                        free(a);
                        free(b);
                        continue;
                }
                back = d ? apply(a, d) : strdup(a);
                if (!back || strcmp(back, b) != 0) {
                        if (bad++ == 0)
                                tap_diag("old:\n%s\nnew:\n%s\ndiff:\n%s\nback:\n%s", a, b, strna(d), strna(back));
                }
                free(back);
                free(d);
                free(a);
                free(b);
        }
        TAP_INTEQ(bad, 0, "400 random edits: every diff applies back to the new text");
}

int main(void) {
        test_fixed();
        test_random();
        return tap_done();
}
