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

int main(void) {
        static const size_t counts[] = { 0, 1, 2, 63, 64, 65, 128, 129, 1000, N_MAX };
        static const size_t chunks[] = { 1, 3, 64, 4096 };

        for (size_t c = 0; c < ELEMENTSOF(chunks); c++) {
                unsigned same = 0, once = 0, helped = 0, want_helped = 0;

                for (size_t i = 0; i < ELEMENTSOF(counts); i++) {
                        size_t n = counts[i];
                        bool used = false, all_once = false;
                        _cleanup_(freep) char *one = output(n, 0, NULL, NULL);
                        _cleanup_(freep) char *two = output(n, chunks[c], &used, &all_once);

                        if (one && two && streq(one, two))
                                same++;
                        else
                                tap_diag("%zu items in chunks of %zu: the outputs differ", n, chunks[c]);
                        once += all_once;
                        want_helped += n > chunks[c];
                        helped += used && n > chunks[c];
                        if (used && n <= chunks[c])
                                tap_diag("%zu items in chunks of %zu: a helper for one chunk", n, chunks[c]);
                }
                TAP_INTEQ(same, ELEMENTSOF(counts), "chunks of items: the output of one thread");
                TAP_INTEQ(once, ELEMENTSOF(counts), "chunks of items: each item formatted once");
                TAP_INTEQ(helped, want_helped, "chunks of items: the helper formats whenever there are two chunks");
        }
        {
                /* print_chunked() itself: below two chunks one thread, above it whatever the CPUs allow */
                _cleanup_(freep) char *one = output(N_MAX, 0, NULL, NULL);
                char *buf = NULL;
                size_t size = 0;
                FILE *f = open_memstream(&buf, &size);
                static Items it;

                if (f) {
                        print_chunked(f, N_MAX, format_items, &it);
                        fclose(f);
                }
                tap_ok(one && buf && streq(one, buf), "print_chunked(): the output of one thread");
                free(buf);
        }
        return tap_done();
}
