/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The critical chain of a unit on a running system, computed as systemd-analyze critical-chain does: from
 * the unit, follow only After= edges; among the predecessors that became active during the boot (0 <
 * activated <= FinishTimestamp) keep the one(s) that became active last (within fuzz) and recurse. A greedy
 * backward walk, not a longest path; a unit met again is shown once more with "..." below it and not
 * followed. */

#include "live/live.h"

typedef struct LiveChainTimes {
        /* shifted like systemd-analyze: relative to the start of userspace in containers, raw on hosts */
        uint64_t activating, activated, deactivating, deactivated;
        uint64_t time; /* how long the start took: activated - activating (or deactivated - activating) */
} LiveChainTimes;

typedef struct LiveChainLine {
        char *unit;        /* NULL: the "..." below a unit already shown */
        unsigned level;    /* 0 = a direct predecessor of the unit asked for */
        uint64_t branches; /* bit i-1 set: a vertical line at depth i (tree drawing) */
        bool last;         /* the last sibling: └─ instead of ├─ */
        bool has_times;
        LiveChainTimes t;
} LiveChainLine;

typedef struct LiveChain {
        char *unit;      /* the Id of the unit asked for */
        bool has_times;  /* false: it never started during this boot (no headline, as systemd-analyze) */
        LiveChainTimes t;
        uint64_t userspace; /* the shifted userspace timestamp: "@" times are relative to it */
        uint64_t finish;
        LiveChainLine *lines;
        size_t n_lines;
} LiveChain;

void live_chain_done(LiveChain *c);

/* Builds the chain of unit (any of its names) from s, which must hold every loaded unit (live_load_all) and
 * the manager. Returns 0; -EINPROGRESS while the boot has not finished (FinishTimestampMonotonic is 0);
 * -ENOENT when s has no such unit; -ENOMEM. */
int live_chain_build(const LiveSystem *s, const char *unit, uint64_t fuzz, LiveChain *ret);

/* systemd's format_timespan() with millisecond accuracy ("224ms", "1.234s", "1min 2.345s", "0"). */
const char *live_format_timespan(char buf[static 64], uint64_t usec);
