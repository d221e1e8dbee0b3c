/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "journal/chain.h"

#define CHAIN_DEPTH_MAX 64

void chain_done(Chain *c) {
        for (size_t i = 0; i < c->n; i++)
                free(c->links[i].unit);
        free(c->links);
        *c = (Chain) {};
}

static int chain_push(Chain *c, const char *unit, const ChainTimes *t, bool inferred) {
        ChainLink *l = realloc(c->links, (c->n + 1) * sizeof(ChainLink));

        if (!l)
                return -ENOMEM;
        c->links = l;
        l[c->n] = (ChainLink) { .unit = strdup(unit), .times = *t, .inferred = inferred };
        if (!l[c->n].unit)
                return -ENOMEM;
        c->n++;
        return 0;
}

static bool chain_has(const Chain *c, const char *unit) {
        for (size_t i = 0; i < c->n; i++)
                if (streq(c->links[i].unit, unit))
                        return true;
        return false;
}

int chain_build(const ChainSource *src, const char *unit, Chain *ret) {
        _cleanup_(chain_done) Chain c = {};
        ChainTimes t;
        int r;

        r = src->times(src->userdata, unit, &t);
        if (r < 0)
                return r;
        if (r == 0 || (t.active == 0 && t.activating == 0))
                return -ENOENT;
        r = chain_push(&c, unit, &t, false);
        if (r < 0)
                return r;

        while (c.n < CHAIN_DEPTH_MAX) {
                const ChainLink *cur = &c.links[c.n - 1];
                /* it waited for what became active before it started (a target: before it was reached) */
                uint64_t ref = cur->times.activating ?: cur->times.active;
                _cleanup_(strv_freep) char **candidates = NULL;
                _cleanup_(freep) char *best = NULL;
                ChainTimes best_t = {};
                bool inferred = false;

                r = src->after ? src->after(src->userdata, cur->unit, &candidates) : -EOPNOTSUPP;
                if (r == -EOPNOTSUPP) {
                        inferred = true;
                        r = src->units(src->userdata, &candidates);
                }
                if (r < 0)
                        return r;
                STRV_FOREACH(u, candidates) {
                        ChainTimes ut;
                        if (chain_has(&c, *u))
                                continue;
                        r = src->times(src->userdata, *u, &ut);
                        if (r < 0)
                                return r;
                        if (r == 0 || ut.active == 0 || ut.active > ref)
                                continue;
                        if (!best || ut.active > best_t.active) {
                                free(best);
                                if (!(best = strdup(*u)))
                                        return -ENOMEM;
                                best_t = ut;
                        }
                }
                if (!best)
                        break;
                r = chain_push(&c, best, &best_t, inferred);
                if (r < 0)
                        return r;
        }
        *ret = c;
        c = (Chain) {};
        return 0;
}

static int journal_times(void *userdata, const char *unit, ChainTimes *ret) {
        const ChainJournalSource *js = userdata;
        int u = boot_analysis_find_unit(js->analysis, unit);
        const UnitBoot *ub;

        if (u < 0)
                return 0;
        ub = &js->analysis->units[u].boots[js->boot];
        /* a start phase that failed never became active: it is not on anybody's chain */
        *ret = (ChainTimes) {
                .activating = ub->start_usec,
                .active = ub->outcome == OUTCOME_SUCCEEDED ? ub->active_usec : 0,
        };
        return ret->activating || ret->active ? 1 : 0;
}

static int journal_units(void *userdata, char ***ret) {
        const ChainJournalSource *js = userdata;
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t u = 0; u < js->analysis->n_units; u++) {
                const UnitBoot *ub = &js->analysis->units[u].boots[js->boot];
                if (ub->active_usec && strv_extend(&l, js->analysis->units[u].name) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

void chain_source_journal(ChainJournalSource *js, ChainSource *ret) {
        *ret = (ChainSource) {
                .userdata = js,
                .times = journal_times,
                .after = NULL, /* the journal does not record ordering dependencies */
                .units = journal_units,
        };
}
