/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Drift: the dependencies a running systemd holds (a LiveSystem) against those the model predicts for its
 * version (a Model built from the same unit files). Both sides are reduced to facts "UNIT TYPE OTHER" in one
 * direction per pair (an inverse list such as WantedBy= or Before= is folded into the forward fact on the
 * other unit, so each difference is found once), names resolved to the ids PID 1 uses. A fact counts when one
 * end is a unit compared and the running systemd has that list at all. Nothing here prints. */

#include "live/live.h"
#include "model/model.h"

typedef enum DriftSide {
        DRIFT_ONLY_LIVE,
        DRIFT_ONLY_MODEL,
        _DRIFT_SIDE_MAX,
} DriftSide;

const char *drift_side_to_string(DriftSide s); /* "only-live", "only-model" */

typedef struct DriftItem {
        char *unit;
        LiveDep type;  /* a forward type (Requires, After, ...), Before when the model's edge is a Before=,
                        * or a path list (RequiresMountsFor, WantsMountsFor: other is then the path) */
        char *other;
        DriftSide side;
        uint32_t *origins; /* only-model: the model's origins of the fact (graph origin ids), first is primary */
        size_t n_origins;
} DriftItem;

typedef struct Drift {
        DriftItem *items; /* sorted by unit, type, other */
        size_t n_items;
        size_t n_units;   /* units compared */
        size_t n_facts;   /* facts compared (the union of both sides) */
} Drift;

void drift_done(Drift *d);

/* Compares the units named (NULL: every unit in s) of s with model m, which must be finished. Returns 0 or
 * -ENOMEM. */
int drift_compare(const LiveSystem *s, const Model *m, char * const *units, Drift *ret);
