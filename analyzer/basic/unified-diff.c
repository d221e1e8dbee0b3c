/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/unified-diff.h"

#define DIFF_MAX_D 2000

typedef struct Line {
        const char *p;
        size_t len; /* without the newline */
        bool nl; /* ends with a newline */
} Line;

typedef enum OpType { OP_EQ, OP_DEL, OP_INS } OpType;

typedef struct Op {
        OpType type;
        size_t a, b; /* old line (EQ, DEL), new line (EQ, INS) */
} Op;

static int split_lines(const char *s, size_t n, Line **ret, size_t *ret_n) {
        size_t count = 0, k = 0;
        Line *l;

        for (size_t i = 0; i < n; i++)
                if (s[i] == '\n')
                        count++;
        if (n > 0 && s[n - 1] != '\n')
                count++;
        l = calloc(count + 1, sizeof(Line));
        if (!l)
                return -ENOMEM;
        for (size_t i = 0; i < n;) {
                const char *nl = memchr(s + i, '\n', n - i);
                size_t len = nl ? (size_t) (nl - (s + i)) : n - i;
                l[k++] = (Line) { .p = s + i, .len = len, .nl = !!nl };
                i += len + !!nl;
        }
        *ret = l;
        *ret_n = count;
        return 0;
}

static bool line_eq(const Line *x, const Line *y) {
        return x->len == y->len && x->nl == y->nl && memcmp(x->p, y->p, x->len) == 0;
}

/* Myers' greedy forward search over a[0..n) and b[0..m), keeping V of every step for the way back. Appends
 * the ops (offset by off_a/off_b) to *ops in order. */
static int myers(const Line *a, size_t n, const Line *b, size_t m, size_t off_a, size_t off_b, Op **ops,
                 size_t *n_ops) {
        size_t max = n + m, dmax = MIN(max, (size_t) DIFF_MAX_D), found = SIZE_MAX;
        _cleanup_(freep) long *v = NULL, *trace = NULL;
        _cleanup_(freep) Op *rev = NULL;
        size_t n_rev = 0;
        long x, y;

        v = calloc(2 * dmax + 3, sizeof(long));
        trace = calloc((dmax + 1) * (dmax + 1) + 1, sizeof(long));
        rev = calloc(max + 1, sizeof(Op));
        if (!v || !trace || !rev)
                return -ENOMEM;
#define V(k) v[(k) + (long) dmax + 1]
        for (size_t d = 0; d <= dmax && found == SIZE_MAX; d++) {
                for (long k = -(long) d; k <= (long) d; k += 2) {
                        if (k == -(long) d || (k != (long) d && V(k - 1) < V(k + 1)))
                                x = V(k + 1);
                        else
                                x = V(k - 1) + 1;
                        y = x - k;
                        while ((size_t) x < n && (size_t) y < m && line_eq(&a[x], &b[y]))
                                x++, y++;
                        V(k) = x;
                        if ((size_t) x >= n && (size_t) y >= m) {
                                found = d;
                                break;
                        }
                }
                for (long k = -(long) d; k <= (long) d; k++)
                        trace[d * d + (size_t) (k + (long) d)] = V(k);
        }
#undef V
        if (found == SIZE_MAX)
                return -E2BIG;

        /* back from (n, m) to (0, 0): each step is one insertion or deletion followed by a snake */
        x = (long) n;
        y = (long) m;
        for (size_t d = found; d > 0; d--) {
                const long *pv = trace + (d - 1) * (d - 1);
                long k = x - y, pk, px, py, mx, my;
                bool ins;
#define PV(kk) pv[(kk) + (long) (d - 1)]
                ins = k == -(long) d || (k != (long) d && PV(k - 1) < PV(k + 1));
                pk = ins ? k + 1 : k - 1;
                px = PV(pk);
#undef PV
                py = px - pk;
                mx = ins ? px : px + 1;
                my = ins ? py + 1 : py;
                while (x > mx && y > my) {
                        x--, y--;
                        rev[n_rev++] = (Op) { OP_EQ, (size_t) x + off_a, (size_t) y + off_b };
                }
                if (ins)
                        rev[n_rev++] = (Op) { OP_INS, 0, (size_t) py + off_b };
                else
                        rev[n_rev++] = (Op) { OP_DEL, (size_t) px + off_a, 0 };
                x = px;
                y = py;
        }
        while (x > 0 && y > 0) {
                x--, y--;
                rev[n_rev++] = (Op) { OP_EQ, (size_t) x + off_a, (size_t) y + off_b };
        }
        for (size_t i = n_rev; i > 0; i--)
                (*ops)[(*n_ops)++] = rev[i - 1];
        return 0;
}

static void put_line(FILE *f, char tag, const Line *l) {
        fputc(tag, f);
        fwrite(l->p, 1, l->len, f);
        fputc('\n', f);
        if (!l->nl)
                fputs("\\ No newline at end of file\n", f);
}

static void put_range(FILE *f, char tag, size_t start, size_t count) {
        /* diff -u: an empty range names the line before it; a range of one line has no count */
        if (count == 1)
                fprintf(f, "%c%zu", tag, start + 1);
        else
                fprintf(f, "%c%zu,%zu", tag, count == 0 ? start : start + 1, count);
}

int unified_diff(const char *old_text, size_t old_size, const char *new_text, size_t new_size,
                 const char *old_label, const char *new_label, unsigned context, char **ret) {
        _cleanup_(freep) Line *a = NULL, *b = NULL;
        _cleanup_(freep) Op *ops = NULL;
        _cleanup_(freep) char *buf = NULL;
        size_t n, m, head = 0, tail = 0, n_ops = 0, len = 0;
        FILE *f;
        int r;

        *ret = NULL;
        if (split_lines(old_text, old_size, &a, &n) < 0 || split_lines(new_text, new_size, &b, &m) < 0)
                return -ENOMEM;
        while (head < n && head < m && line_eq(&a[head], &b[head]))
                head++;
        while (tail < n - head && tail < m - head && line_eq(&a[n - 1 - tail], &b[m - 1 - tail]))
                tail++;
        if (head == n && head == m)
                return 0;

        ops = calloc(n + m + 1, sizeof(Op));
        if (!ops)
                return -ENOMEM;
        for (size_t i = 0; i < head; i++)
                ops[n_ops++] = (Op) { OP_EQ, i, i };
        r = myers(a + head, n - head - tail, b + head, m - head - tail, head, head, &ops, &n_ops);
        if (r < 0)
                return r;
        for (size_t i = 0; i < tail; i++)
                ops[n_ops++] = (Op) { OP_EQ, n - tail + i, m - tail + i };

        f = open_memstream(&buf, &len);
        if (!f)
                return -ENOMEM;
        fprintf(f, "--- %s\n+++ %s\n", old_label, new_label);
        for (size_t i = 0; i < n_ops;) {
                size_t c = i, start, end, last, old_start = 0, new_start = 0, old_count = 0, new_count = 0;

                while (c < n_ops && ops[c].type == OP_EQ)
                        c++;
                if (c == n_ops)
                        break;
                start = c > i + context ? c - context : i;
                /* extend over changes whose gaps are at most 2 * context equal lines */
                last = c;
                for (size_t j = c + 1; j < n_ops; j++) {
                        if (ops[j].type == OP_EQ)
                                continue;
                        if (j - last - 1 > 2 * context)
                                break;
                        last = j;
                }
                end = MIN(last + 1 + context, n_ops);
                for (size_t j = 0; j < start; j++) {
                        old_start += ops[j].type != OP_INS;
                        new_start += ops[j].type != OP_DEL;
                }
                for (size_t j = start; j < end; j++) {
                        old_count += ops[j].type != OP_INS;
                        new_count += ops[j].type != OP_DEL;
                }
                fputs("@@ ", f);
                put_range(f, '-', old_start, old_count);
                fputc(' ', f);
                put_range(f, '+', new_start, new_count);
                fputs(" @@\n", f);
                for (size_t j = start; j < end; j++)
                        if (ops[j].type == OP_EQ)
                                put_line(f, ' ', &a[ops[j].a]);
                        else if (ops[j].type == OP_DEL)
                                put_line(f, '-', &a[ops[j].a]);
                        else
                                put_line(f, '+', &b[ops[j].b]);
                i = end;
        }
        if (fclose(f) != 0)
                return -ENOMEM;
        *ret = TAKE_PTR(buf);
        return 0;
}
