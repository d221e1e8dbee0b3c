/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <pthread.h>

#include "prefetch.h"

#define PREFETCH_MIN_NAMES 1000

typedef enum EntryState {
        ENTRY_QUEUED,  /* hinted, nobody on it yet */
        ENTRY_LOADING, /* the worker is loading it */
        ENTRY_DONE,    /* loaded by the worker, not taken yet */
        ENTRY_MODEL,   /* the model came first: it loads the unit itself, the worker skips it */
} EntryState;

typedef struct Entry {
        char *name;
        EntryState state;
        int r;
        Unit *unit;
        DiagList diags;
} Entry;

/* The hinted names in order. The worker goes through them from worker_next on, the model from model_next on
 * (each name once, in the same order); an entry is freed by whichever of the two passes it last. */
struct Prefetch {
        const Loader *loader;
        pthread_t thread;
        bool started;
        pthread_mutex_t lock; /* guards all below */
        pthread_cond_t more;  /* an entry was added, or stop set */
        pthread_cond_t done;  /* an entry became ENTRY_DONE */
        Entry **entries;
        size_t n_entries, allocated, worker_next, model_next;
        size_t n_finished; /* entries the worker has loaded or skipped */
        bool stop;
        bool worker_waits, model_waits; /* on more, on done: the other side signals only then */
};

bool prefetch_wanted(size_t n_names) {
        const char *e = getenv("BOOTRACE_PREFETCH");

        if (e && (streq(e, "0") || streq(e, "1")))
                return streq(e, "1");
        return n_names >= PREFETCH_MIN_NAMES && usable_cpus() > 1;
}

static void entry_free(Entry *e) {
        if (!e)
                return;
        free(e->name);
        unit_free(e->unit);
        diag_list_done(&e->diags);
        free(e);
}

/* Loads e (ENTRY_QUEUED) into it. Called with the lock held, which is let go while loading. */
static void load_entry(Prefetch *p, Entry *e) {
        Unit *u = NULL;
        int r;

        e->state = ENTRY_LOADING;
        pthread_mutex_unlock(&p->lock);
        r = loader_load(p->loader, e->name, &u, &e->diags);
        pthread_mutex_lock(&p->lock);
        e->unit = u;
        e->r = r;
        __atomic_store_n(&e->state, ENTRY_DONE, __ATOMIC_RELEASE); /* wait_loaded() looks unlocked */
        if (p->model_waits)
                pthread_cond_broadcast(&p->done);
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
        __asm__ __volatile__("yield");
#endif
}

static void *worker(void *userdata) {
        Prefetch *p = userdata;

        pthread_mutex_lock(&p->lock);
        for (;;) {
                Entry *e;

                if (!p->stop && p->worker_next == p->n_entries) {
                        /* the model names the next unit within microseconds, mostly: watching for it briefly is
                         * cheaper, for both, than sleeping and being woken */
                        size_t seen = p->worker_next;
                        pthread_mutex_unlock(&p->lock);
                        for (unsigned i = 0; i < 4000 && __atomic_load_n(&p->n_entries, __ATOMIC_RELAXED) == seen; i++)
                                cpu_relax();
                        pthread_mutex_lock(&p->lock);
                }
                while (!p->stop && p->worker_next == p->n_entries) {
                        p->worker_waits = true;
                        pthread_cond_wait(&p->more, &p->lock);
                        p->worker_waits = false;
                }
                if (p->stop)
                        break;
                e = p->entries[p->worker_next++];
                if (e->state == ENTRY_MODEL) {
                        /* the model is past it and left it to us */
                        entry_free(e);
                        p->entries[p->worker_next - 1] = NULL;
                } else if (e->state == ENTRY_QUEUED)
                        load_entry(p, e);
                /* else the model, waiting for another unit, took this one on meanwhile */
                p->n_finished++;
        }
        pthread_mutex_unlock(&p->lock);
        return NULL;
}

int prefetch_start(const Loader *l, Prefetch **ret) {
        Prefetch *p = calloc(1, sizeof(Prefetch));
        int r;

        if (!p)
                return -ENOMEM;
        p->loader = l;
        pthread_mutex_init(&p->lock, NULL);
        pthread_cond_init(&p->more, NULL);
        pthread_cond_init(&p->done, NULL);
        loader_freeze(l, true);
        r = pthread_create(&p->thread, NULL, worker, p);
        if (r != 0) {
                prefetch_free(p);
                return -r;
        }
        p->started = true;
        *ret = p;
        return 0;
}

void prefetch_hint(Prefetch *p, const char *name) {
        Entry *e = calloc(1, sizeof(Entry));

        if (!e || !(e->name = strdup(name))) {
                free(e);
                return; /* the model loads it itself */
        }
        pthread_mutex_lock(&p->lock);
        if (GREEDY_REALLOC(p->entries, p->allocated, p->n_entries + 1) >= 0) {
                p->entries[p->n_entries] = TAKE_PTR(e);
                __atomic_store_n(&p->n_entries, p->n_entries + 1, __ATOMIC_RELAXED); /* the worker watches it */
                if (p->worker_waits)
                        pthread_cond_signal(&p->more);
        }
        pthread_mutex_unlock(&p->lock);
        entry_free(e);
}


/* Waits until the worker is through with e. Called with the lock held. */
static void wait_loaded(Prefetch *p, Entry *e) {
        while (e->state == ENTRY_LOADING) {
                /* rather than idle, the model loads the next unit the worker would have (it is then the
                 * model's entry in the same order; the worker skips it) */
                Entry *next = NULL;
                for (size_t k = p->worker_next; k < p->n_entries && k < p->worker_next + 16 && !next; k++)
                        if (p->entries[k]->state == ENTRY_QUEUED)
                                next = p->entries[k];
                if (next) {
                        load_entry(p, next);
                        continue;
                }
                /* nothing to take on: a unit takes some microseconds to load, watching for it briefly is
                 * cheaper than sleeping and being woken (the worker frees nothing the model has not passed) */
                pthread_mutex_unlock(&p->lock);
                for (unsigned i = 0; i < 2000 && __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == ENTRY_LOADING; i++)
                        cpu_relax();
                pthread_mutex_lock(&p->lock);
                if (e->state != ENTRY_LOADING)
                        break;
                p->model_waits = true;
                pthread_cond_wait(&p->done, &p->lock);
                p->model_waits = false;
        }
}

/* The model's next entry, if it is name (the model asks in the order it hinted; a name asked for out of that
 * order, or never hinted, is not the worker's business). Called with the lock held. */
static Entry *model_entry(Prefetch *p, const char *name) {
        if (p->model_next >= p->n_entries || !streq(p->entries[p->model_next]->name, name))
                return NULL;
        return p->entries[p->model_next];
}

/* The model is past its next entry: whoever passes it last frees it. Called with the lock held. */
static void model_pass(Prefetch *p, Entry *e) {
        if (p->model_next < p->worker_next) {
                entry_free(e);
                p->entries[p->model_next] = NULL;
        } else
                e->state = ENTRY_MODEL;
        p->model_next++;
}

int prefetch_take(Prefetch *p, const char *name, Unit **ret, DiagList *diags, int *ret_r) {
        Entry *e;
        Unit *u;
        int r, lr;

        pthread_mutex_lock(&p->lock);
        e = model_entry(p, name);
        if (!e) {
                pthread_mutex_unlock(&p->lock);
                return 0;
        }
        wait_loaded(p, e);
        if (e->state != ENTRY_DONE) {
                model_pass(p, e); /* the worker has not come to it: ours */
                pthread_mutex_unlock(&p->lock);
                return 0;
        }
        u = TAKE_PTR(e->unit);
        lr = e->r;
        r = diag_list_move(diags, &e->diags);
        model_pass(p, e);
        pthread_mutex_unlock(&p->lock);
        if (r < 0) {
                unit_free(u);
                return r;
        }
        *ret = u;
        *ret_r = lr;
        return 1;
}

size_t prefetch_finished(Prefetch *p) {
        size_t n;

        pthread_mutex_lock(&p->lock);
        n = p->n_finished;
        pthread_mutex_unlock(&p->lock);
        return n;
}

void prefetch_skip(Prefetch *p, const char *name) {
        Entry *e;

        pthread_mutex_lock(&p->lock);
        e = model_entry(p, name);
        if (e) {
                wait_loaded(p, e);
                model_pass(p, e);
        }
        pthread_mutex_unlock(&p->lock);
}

Prefetch *prefetch_free(Prefetch *p) {
        if (!p)
                return NULL;
        if (p->started) {
                pthread_mutex_lock(&p->lock);
                p->stop = true;
                pthread_cond_signal(&p->more);
                pthread_mutex_unlock(&p->lock);
                pthread_join(p->thread, NULL);
        }
        loader_freeze(p->loader, false);
        for (size_t i = MIN(p->model_next, p->worker_next); i < p->n_entries; i++)
                entry_free(p->entries[i]);
        free(p->entries);
        pthread_cond_destroy(&p->more);
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->lock);
        return mfree(p);
}
