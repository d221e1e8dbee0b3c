/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <pthread.h>

#include "basic/print-chunked.h"

typedef struct Chunks {
        size_t n, chunk, n_chunks;
        ChunkFormat format;
        void *userdata;
        pthread_mutex_t lock; /* guards all below */
        pthread_cond_t cond;  /* a chunk was handed over or taken, or stop set */
        char *buf;            /* the helper's next chunk, formatted; NULL when it could not format it */
        size_t size;
        bool full;            /* buf holds the next odd chunk the caller writes */
        bool stop;            /* the caller is done: the helper formats no more */
        bool used;            /* the helper formatted a chunk */
} Chunks;

static void format_chunk(const Chunks *c, FILE *f, size_t k) {
        c->format(f, k * c->chunk, MIN((k + 1) * c->chunk, c->n), c->userdata);
}

/* The odd chunks, each into a buffer of its own, handed over one at a time: at most two are held at once. */
static void *helper(void *userdata) {
        Chunks *c = userdata;

        for (size_t k = 1; k < c->n_chunks; k += 2) {
                char *buf = NULL;
                size_t size = 0;
                FILE *f = open_memstream(&buf, &size);

                if (f) {
                        format_chunk(c, f, k);
                        if (fclose(f) != 0)
                                buf = mfree(buf); /* out of memory: the caller formats this chunk itself */
                }
                pthread_mutex_lock(&c->lock);
                while (c->full && !c->stop)
                        pthread_cond_wait(&c->cond, &c->lock);
                if (c->stop) {
                        pthread_mutex_unlock(&c->lock);
                        free(buf);
                        break;
                }
                c->buf = buf;
                c->size = size;
                c->full = true;
                c->used = c->used || buf;
                pthread_cond_signal(&c->cond);
                pthread_mutex_unlock(&c->lock);
        }
        return NULL;
}

bool print_chunked_with(FILE *out, size_t n, size_t chunk, ChunkFormat format, void *userdata) {
        Chunks c = {
                .n = n, .chunk = MAX(chunk, (size_t) 1), .format = format, .userdata = userdata,
        };
        pthread_t thread;
        bool used;

        c.n_chunks = (n + c.chunk - 1) / c.chunk;
        if (c.n_chunks < 2) {
                format(out, 0, n, userdata);
                return false;
        }
        pthread_mutex_init(&c.lock, NULL);
        pthread_cond_init(&c.cond, NULL);
        if (pthread_create(&thread, NULL, helper, &c) != 0) {
                format(out, 0, n, userdata);
                used = false;
                goto finish;
        }
        for (size_t k = 0; k < c.n_chunks; k++) {
                char *buf;
                size_t size;

                if (k % 2 == 0) {
                        format_chunk(&c, out, k);
                        continue;
                }
                pthread_mutex_lock(&c.lock);
                while (!c.full)
                        pthread_cond_wait(&c.cond, &c.lock);
                buf = TAKE_PTR(c.buf);
                size = c.size;
                c.full = false;
                pthread_cond_signal(&c.cond);
                pthread_mutex_unlock(&c.lock);
                if (buf)
                        fwrite_unlocked(buf, 1, size, out);
                else
                        format_chunk(&c, out, k);
                free(buf);
        }
        pthread_mutex_lock(&c.lock);
        c.stop = true;
        pthread_cond_signal(&c.cond);
        pthread_mutex_unlock(&c.lock);
        pthread_join(thread, NULL);
        used = c.used;
finish:
        pthread_cond_destroy(&c.cond);
        pthread_mutex_destroy(&c.lock);
        return used;
}

void print_chunked(FILE *out, size_t n, ChunkFormat format, void *userdata) {
        if (n < 2 * PRINT_CHUNK || usable_cpus() < 2) {
                format(out, 0, n, userdata);
                return;
        }
        (void) print_chunked_with(out, n, PRINT_CHUNK, format, userdata);
}
