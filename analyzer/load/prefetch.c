/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <pthread.h>

#include "load/prefetch.h"

#define PREFETCH_MIN_NAMES 1000

typedef enum EntryState {
        ENTRY_QUEUED,  /* hinted, nobody on it yet */
        ENTRY_LOADING, /* being loaded (by the worker, or by the model while it waits) */
        ENTRY_DONE,    /* loaded, not taken yet */
        ENTRY_MODEL,   /* the model came first, or does not want it: the worker skips it */
} EntryState;

struct PrefetchEntry {
        char *name;
        EntryState state;
        size_t index;     /* in Prefetch.entries */
        bool worker_done; /* the worker is past it */
        bool model_done;  /* the model gave the handle back */
        int r;
        Unit *unit;
        void *prepared; /* what prepare returned for unit */
        DiagList diags;
};
typedef struct PrefetchEntry Entry;

/* The hinted names in order. The worker goes through them from worker_next on; the model gives each handle back
 * once, in any order; an entry is freed by whichever of the two is done with it last. */
struct Prefetch {
        const Loader *loader;
        PrefetchPrepare prep; /* prepare NULL: none */
        pthread_t thread;
        bool started;
        pthread_mutex_t lock; /* guards all below */
        pthread_cond_t more;  /* an entry was added, or stop set */
        pthread_cond_t done;  /* an entry became ENTRY_DONE */
        Entry **entries;      /* NULL where freed */
        size_t n_entries, allocated, worker_next;
        size_t n_finished; /* entries the worker is past */
        bool stop;
        bool worker_waits, model_waits; /* on more, on done: the other side signals only then */
};

bool prefetch_wanted(size_t n_names) {
        const char *e = getenv("BOOTRACE_PREFETCH");

        if (e && (streq(e, "0") || streq(e, "1")))
                return streq(e, "1");
        return n_names >= PREFETCH_MIN_NAMES && usable_cpus() > 1;
}

static void entry_free(Prefetch *p, Entry *e) {
        if (!e)
                return;
        free(e->name);
        unit_free(e->unit);
        if (e->prepared)
                p->prep.free_prepared(e->prepared);
        diag_list_done(&e->diags);
        free(e);
}

/* One of the two is done with e: the second frees it. Called with the lock held. */
static void entry_release(Prefetch *p, Entry *e, bool worker) {
        if (worker)
                e->worker_done = true;
        else
                e->model_done = true;
        if (e->worker_done && e->model_done) {
                p->entries[e->index] = NULL;
                entry_free(p, e);
        }
}

/* Loads e (ENTRY_QUEUED) into it. Called with the lock held, which is let go while loading. */
static void load_entry(Prefetch *p, Entry *e) {
        Unit *u = NULL;
        int r;

        e->state = ENTRY_LOADING;
        pthread_mutex_unlock(&p->lock);
        r = loader_load(p->loader, e->name, &u, &e->diags);
        void *prepared = r >= 0 && u && p->prep.prepare ? p->prep.prepare(u, p->prep.userdata) : NULL;
        pthread_mutex_lock(&p->lock);
        e->unit = u;
        e->prepared = prepared;
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
                if (e) {
                        if (e->state == ENTRY_QUEUED)
                                load_entry(p, e);
                        /* else the model took it over, or loaded it while it waited for another */
                        entry_release(p, e, true);
                }
                p->n_finished++;
        }
        pthread_mutex_unlock(&p->lock);
        return NULL;
}

int prefetch_start(const Loader *l, const PrefetchPrepare *prep, Prefetch **ret) {
        Prefetch *p = calloc(1, sizeof(Prefetch));
        int r;

        if (!p)
                return -ENOMEM;
        if (prep && (!prep->prepare || !prep->free_prepared)) {
                free(p);
                return -EINVAL;
        }
        p->loader = l;
        if (prep)
                p->prep = *prep;
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

PrefetchEntry *prefetch_hint(Prefetch *p, const char *name) {
        Entry *e = calloc(1, sizeof(Entry));

        if (!e || !(e->name = strdup(name))) {
                free(e);
                return NULL; /* the model loads it itself */
        }
        pthread_mutex_lock(&p->lock);
        if (GREEDY_REALLOC(p->entries, p->allocated, p->n_entries + 1) < 0) {
                pthread_mutex_unlock(&p->lock);
                entry_free(p, e);
                return NULL;
        }
        e->index = p->n_entries;
        p->entries[p->n_entries] = e;
        __atomic_store_n(&p->n_entries, p->n_entries + 1, __ATOMIC_RELAXED); /* the worker watches it */
        if (p->worker_waits)
                pthread_cond_signal(&p->more);
        pthread_mutex_unlock(&p->lock);
        return e;
}

/* Waits until the worker is through with e. Called with the lock held. */
static void wait_loaded(Prefetch *p, Entry *e) {
        while (e->state == ENTRY_LOADING) {
                /* rather than idle, the model loads the next unit the worker would have (the worker finds it
                 * loaded when it comes to it) */
                Entry *next = NULL;
                for (size_t k = p->worker_next; k < p->n_entries && k < p->worker_next + 16 && !next; k++)
                        if (p->entries[k] && p->entries[k]->state == ENTRY_QUEUED)
                                next = p->entries[k];
                if (next) {
                        load_entry(p, next);
                        continue;
                }
                /* nothing to take on: a unit takes some microseconds to load, watching for it briefly is
                 * cheaper than sleeping and being woken (e is not freed while the model holds its handle) */
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

int prefetch_take(Prefetch *p, PrefetchEntry *e, Unit **ret, DiagList *diags, void **ret_prepared, int *ret_r) {
        void *prepared;
        Unit *u;
        int r, lr;

        if (!e)
                return 0;
        pthread_mutex_lock(&p->lock);
        wait_loaded(p, e);
        if (e->state != ENTRY_DONE) {
                e->state = ENTRY_MODEL; /* nobody has started on it: ours */
                entry_release(p, e, false);
                pthread_mutex_unlock(&p->lock);
                return 0;
        }
        u = TAKE_PTR(e->unit);
        prepared = TAKE_PTR(e->prepared);
        lr = e->r;
        r = diag_list_move(diags, &e->diags);
        entry_release(p, e, false);
        pthread_mutex_unlock(&p->lock);
        if (r < 0 || !ret_prepared) {
                if (prepared)
                        p->prep.free_prepared(prepared);
                prepared = NULL;
        }
        if (r < 0) {
                unit_free(u);
                return r;
        }
        *ret = u;
        *ret_r = lr;
        if (ret_prepared)
                *ret_prepared = prepared;
        return 1;
}

size_t prefetch_finished(Prefetch *p) {
        size_t n;

        pthread_mutex_lock(&p->lock);
        n = p->n_finished;
        pthread_mutex_unlock(&p->lock);
        return n;
}

void prefetch_skip(Prefetch *p, PrefetchEntry *e) {
        if (!e)
                return;
        pthread_mutex_lock(&p->lock);
        wait_loaded(p, e);
        if (e->state == ENTRY_QUEUED)
                e->state = ENTRY_MODEL;
        entry_release(p, e, false);
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
        for (size_t i = 0; i < p->n_entries; i++)
                entry_free(p, p->entries[i]);
        free(p->entries);
        pthread_cond_destroy(&p->more);
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->lock);
        return mfree(p);
}
