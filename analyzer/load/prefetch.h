/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Loading units ahead of the model, on a second thread. The model names each unit it is going to ask for as soon as
 * it knows (its walk is breadth-first: it queues names, and the caller may name the units it will add next); the
 * worker loads them in the order named, so that most units are loaded by the time the model asks. The model asks
 * with the handle it got for the name, in whatever order it comes to them. A unit the worker has not started on is
 * loaded by the model itself, and the worker leaves it alone; while the model waits for a unit the worker is
 * loading, it loads the worker's next one. The two share the work without tuning. Either way the Unit and its
 * diagnostics are those loader_load() gives: what the model builds does not depend on the worker. */

#include "load/loader.h"

typedef struct Prefetch Prefetch;

/* Whether to use a worker for a model given this many names: more than one CPU to run on and enough names;
 * BOOTRACE_PREFETCH=0 or 1 in the environment decides instead (for tests and for comparing). */
bool prefetch_wanted(size_t n_names);

/* The model's own first step with a unit it will take, done where the unit is loaded (on the worker's thread,
 * mostly): prepare gets each unit loader_load() loaded and returns what the model keeps with it, or NULL (the
 * model does that step itself); free_prepared frees what prepare returned when the model does not take it. Both
 * may run on either thread: prepare must only read what the model does not change meanwhile. */
typedef struct PrefetchPrepare {
        void *(*prepare)(const Unit *u, void *userdata);
        void (*free_prepared)(void *prepared);
        void *userdata;
} PrefetchPrepare;

/* Starts a worker that loads, with l, the names given to prefetch_hint(), and prepares each with prep (NULL:
 * loading only). Until prefetch_free() the loader and its roots are frozen (loader_freeze()). Returns 0, -ENOMEM
 * or the error of pthread_create(). */
int prefetch_start(const Loader *l, const PrefetchPrepare *prep, Prefetch **ret);

typedef struct PrefetchEntry PrefetchEntry;

/* The model will ask for name. The handle is the model's to give back exactly once, to prefetch_take() or
 * prefetch_skip(); NULL when out of memory (the model loads the unit itself; take and skip accept NULL). */
PrefetchEntry *prefetch_hint(Prefetch *p, const char *name);

/* For the model, in place of loader_load(l, name, ret, diags) for the name of handle e: returns 1 and what
 * loader_load() returned (in *ret_r; the unit in *ret, the diagnostics appended to diags) if the worker loaded it,
 * waiting for it if it is loading it now; 0 if it had not started on it (the caller loads it, the worker will not),
 * or for a NULL e; -ENOMEM. Either way e is given back. With 1, *ret_prepared (optional) gets what prepare
 * returned for the unit, the caller's to free; without ret_prepared it is freed. */
int prefetch_take(Prefetch *p, PrefetchEntry *e, Unit **ret, DiagList *diags, void **ret_prepared, int *ret_r);
/* The model does not need the unit of e after all (it has it by another name): gives e back. */
void prefetch_skip(Prefetch *p, PrefetchEntry *e);

/* How many hinted names the worker is through with (loaded, or skipped as the model's). */
size_t prefetch_finished(Prefetch *p);

/* Stops the worker (it finishes the unit it is loading), frees what was not taken and thaws the loader. Handles
 * not given back are void. */
Prefetch *prefetch_free(Prefetch *p);
static inline void prefetch_freep(Prefetch **p) {
        prefetch_free(*p);
}
