/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* print_chunked(): the output on two threads is byte for byte the output on one, whatever the number of items
 * and the chunk size; every item is formatted once. */

#include "basic/print-chunked.h"
#include "tap.h"

#define N_MAX 5000

typedef struct Items {
        unsigned seen[N_MAX]; /* how many times each item was formatted (both threads add) */
} Items;

/* Lines of different lengths, and no line at all for every seventh item (graph leaves out unwanted edges). */
static void format_items(FILE *f, size_t begin, size_t end, void *userdata) {
        Items *it = userdata;

        for (size_t i = begin; i < end; i++) {
                __atomic_fetch_add(&it->seen[i], 1, __ATOMIC_RELAXED);
                if (i % 7 == 3)
                        continue;
                fprintf(f, "item %zu", i);
                for (size_t k = 0; k < i % 13; k++)
                        fputc_unlocked('.', f);
                fputc_unlocked('\n', f);
        }
}

/* The output for n items: by print_chunked_with() (chunk > 0) or in one call; NULL on failure. */
static char *output(size_t n, size_t chunk, bool *ret_used, bool *ret_once) {
        static Items it;
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        bool used = false;

        if (!f)
                return NULL;
        memset(&it, 0, sizeof it);
        if (chunk > 0)
                used = print_chunked_with(f, n, chunk, format_items, &it);
        else
                format_items(f, 0, n, &it);
        if (fclose(f) != 0)
                return mfree(buf);
        if (ret_used)
                *ret_used = used;
        if (ret_once) {
                *ret_once = true;
                for (size_t i = 0; i < N_MAX; i++)
                        if (it.seen[i] != (i < n))
                                *ret_once = false;
        }
        return buf;
}

/* print_chunked_with(): for every count and chunk size the output of one thread, each item once, and the
 * helper thread used exactly when there are two chunks or more */
static void test_chunks(size_t chunk) {
        static const size_t counts[] = { 0, 1, 2, 63, 64, 65, 128, 129, 1000, N_MAX };
        unsigned same = 0, once = 0, helped = 0, want_helped = 0;

        for (size_t i = 0; i < ELEMENTSOF(counts); i++) {
                size_t n = counts[i];
                bool used = false, all_once = false;
                _cleanup_(freep) char *one = output(n, 0, NULL, NULL);
                _cleanup_(freep) char *two = output(n, chunk, &used, &all_once);

                if (!one || !two)
                        tap_diag("%zu items in chunks of %zu: no output (set-up failed)", n, chunk);
                else if (streq(one, two))
                        same++;
                else
                        tap_diag("%zu items in chunks of %zu: the outputs differ", n, chunk);
                once += all_once;
                want_helped += n > chunk;
                helped += used && n > chunk;
                if (used && n <= chunk)
                        tap_diag("%zu items in chunks of %zu: a helper for one chunk", n, chunk);
        }
        char name[128];

        snprintf(name, sizeof name, "chunks of %zu items: the output of one thread", chunk);
        TAP_INTEQ(same, ELEMENTSOF(counts), name);
        snprintf(name, sizeof name, "chunks of %zu items: each item formatted once", chunk);
        TAP_INTEQ(once, ELEMENTSOF(counts), name);
        snprintf(name, sizeof name, "chunks of %zu items: the helper formats whenever there are two chunks", chunk);
        TAP_INTEQ(helped, want_helped, name);
}

/* print_chunked() itself: below two chunks one thread, above it whatever the CPUs allow */
static void test_print_chunked(void) {
        _cleanup_(freep) char *one = output(N_MAX, 0, NULL, NULL);
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        static Items it;

        tap_ok(one != NULL, "print_chunked(): the one-thread output was made");
        tap_ok(f != NULL, "print_chunked(): a memory stream was opened");
        if (f) {
                print_chunked(f, N_MAX, format_items, &it);
                tap_ok(fclose(f) == 0, "print_chunked(): the stream was written");
        }
        tap_ok(one && buf && streq(one, buf), "print_chunked(): the output of one thread");
        free(buf);
}

int main(void) {
        static const size_t chunks[] = { 1, 3, 64, 4096 };

        for (size_t c = 0; c < ELEMENTSOF(chunks); c++)
                test_chunks(chunks[c]);
        test_print_chunked();
        return tap_done();
}
