/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The start transaction PID 1 builds for a target (systemd's transaction_add_job_and_dependencies()): a start job
 * for the anchor and, transitively, for what Requires=/BindsTo=/Requisite= (links that "matter") and Wants=/
 * Upholds= (links that do not) pull in. Its ordering cycles (After=/Before= among the jobs) are found as strongly
 * connected components, each split into elementary cycles; the jobs systemd may delete to break a cycle are the
 * ones that do not matter to the anchor (transaction_find_jobs_that_matter_to_anchor()). */

#include "model/model.h"

typedef struct Transaction Transaction;

typedef struct Cycle {
        uint32_t *nodes;   /* the jobs' units, in order: each is ordered after the next (the last after the first) */
        uint32_t *edges;   /* parallel: the graph edge that orders nodes[i] after nodes[i+1] */
        size_t n;
        uint32_t *victims; /* units of jobs systemd may delete to break it */
        size_t n_victims;
} Cycle;

/* Builds the transaction for anchor (a unit name, loaded in m; m must be finished). Required units that are not
 * loaded are reported in diags (systemd would fail the transaction). Returns 0, -ENOENT (anchor unknown), -ENOMEM. */
int transaction_build(const Model *m, const char *anchor, Transaction **ret, DiagList *diags);
Transaction *transaction_free(Transaction *t);
static inline void transaction_freep(Transaction **t) {
        transaction_free(*t);
}

bool transaction_has_job(const Transaction *t, uint32_t node);
/* Does the job matter to the anchor (reachable over Requires=/BindsTo=/Requisite= links only)? */
bool transaction_matters(const Transaction *t, uint32_t node);
size_t transaction_job_count(const Transaction *t);
/* The edge over which the job was first pulled in (UINT32_MAX for the anchor). */
uint32_t transaction_pulled_by(const Transaction *t, uint32_t node);

/* Every elementary ordering cycle among the jobs, up to max; *ret_truncated is set when there were more (or the
 * search budget ran out). Returns 0 or -ENOMEM. */
int transaction_cycles(const Transaction *t, size_t max, Cycle **ret, size_t *ret_n, bool *ret_truncated);
void cycle_list_free(Cycle *c, size_t n);
/* Does the cycle go through the unit (a graph node)? */
bool cycle_has(const Cycle *c, uint32_t node);
