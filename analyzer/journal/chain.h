/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The critical chain of a unit, as systemd-analyze critical-chain shows it: the unit, then the unit it waited
 * for last, and so on back to the start of the boot. Where the times and dependencies come from is a
 * ChainSource: a past boot from the journal (times only; the predecessor is inferred as the unit that became
 * active last before this one started), or later a live system over sd-bus (times and After=). */

#include "journal/boot-outcome.h"

typedef struct ChainTimes {
        uint64_t activating; /* left the inactive state ("Starting…"); 0 when unknown */
        uint64_t active;     /* became active (start job done); 0 when unknown */
} ChainTimes;

typedef struct ChainSource {
        void *userdata;
        /* Times of a unit: 1 when known, 0 when the source has none, -errno. */
        int (*times)(void *userdata, const char *unit, ChainTimes *ret);
        /* The unit's After= dependencies as a strv the caller frees, or -EOPNOTSUPP when the source does not
         * know dependencies (then every unit from units() is a candidate and the link is marked inferred). */
        int (*after)(void *userdata, const char *unit, char ***ret);
        /* Every unit the source has times for, as a strv the caller frees. */
        int (*units)(void *userdata, char ***ret);
} ChainSource;

typedef struct ChainLink {
        char *unit;
        ChainTimes times;
        bool inferred; /* chosen by time alone, not from a known ordering dependency */
} ChainLink;

typedef struct Chain {
        ChainLink *links; /* links[0] is the unit asked for, then what it waited for, … */
        size_t n;
} Chain;

void chain_done(Chain *c);

/* Builds the chain of unit. Returns 0, -ENOENT when the source has no times for unit, -ENOMEM. */
int chain_build(const ChainSource *src, const char *unit, Chain *ret);

/* A source over one boot of an analysis (which must outlive the source's use). */
typedef struct ChainJournalSource {
        const BootAnalysis *analysis;
        size_t boot;
} ChainJournalSource;

void chain_source_journal(ChainJournalSource *js, ChainSource *ret);
