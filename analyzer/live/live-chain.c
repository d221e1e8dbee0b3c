/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <inttypes.h>

#include "live/live-chain.h"

void live_chain_done(LiveChain *c) {
        for (size_t i = 0; i < c->n_lines; i++)
                free(c->lines[i].unit);
        free(c->lines);
        free(c->unit);
        *c = (LiveChain) {};
}

typedef struct ChainBuild {
        const LiveSystem *s;
        Hashmap times;          /* id -> LiveChainTimes (only units that started during this boot) */
        LiveChainTimes *all;    /* storage for the map's values */
        uint64_t userspace, finish, fuzz;
        char **seen;            /* every unit whose predecessors were listed */
        LiveChain *out;
        size_t allocated;
} ChainBuild;

static void shift(uint64_t *a, uint64_t b) {
        if (*a > 0)
                *a = *a > b ? *a - b : 0;
}

/* The boot and unit times as systemd-analyze prepares them (acquire_boot_times(), acquire_time_data()). */
static int times_prepare(ChainBuild *b) {
        const LiveManager *m = &b->s->manager;
        uint64_t reverse = 0;

        b->userspace = m->userspace_usec;
        b->finish = m->finish_usec;
        if (m->softreboot_start_usec > 0) {
                reverse = m->softreboot_start_usec;
                shift(&b->finish, reverse);
                shift(&b->userspace, reverse);
        } else if (m->security_start_usec == 0) {
                /* containers (and user managers): everything relative to the start of userspace */
                reverse = m->userspace_usec;
                b->userspace = 0;
                shift(&b->finish, reverse);
        }

        b->all = calloc(b->s->n_units + 1, sizeof(LiveChainTimes));
        if (!b->all)
                return -ENOMEM;
        for (size_t i = 0; i < b->s->n_units; i++) {
                const LiveUnit *u = b->s->units[i];
                LiveChainTimes *t = &b->all[i];

                *t = (LiveChainTimes) {
                        .activating = u->times.inactive_exit,
                        .activated = u->times.active_enter,
                        .deactivating = u->times.active_exit,
                        .deactivated = u->times.inactive_enter,
                };
                if (m->softreboot_start_usec > 0 &&
                    ((t->activated > 0 && t->activated < m->softreboot_start_usec) ||
                     (t->activating > 0 && t->activating < m->softreboot_start_usec)))
                        continue; /* activated before the soft reboot */
                shift(&t->activating, reverse);
                shift(&t->activated, reverse);
                if (m->softreboot_start_usec > 0) {
                        t->deactivating = t->deactivating < reverse ? 0 : t->deactivating - reverse;
                        t->deactivated = t->deactivated < reverse ? 0 : t->deactivated - reverse;
                } else {
                        shift(&t->deactivating, reverse);
                        shift(&t->deactivated, reverse);
                }
                if (t->activated >= t->activating)
                        t->time = t->activated - t->activating;
                else if (t->deactivated >= t->activating)
                        t->time = t->deactivated - t->activating;
                else
                        t->time = 0;
                if (t->activating == 0)
                        continue;
                if (hashmap_put(&b->times, u->id, t) == -ENOMEM)
                        return -ENOMEM;
        }
        return 0;
}

static bool in_range(const LiveChainTimes *t, const ChainBuild *b) {
        return t && t->activated > 0 && t->activated <= b->finish;
}

typedef struct Dep {
        const char *name;
        const LiveChainTimes *t;
        size_t index; /* the order PID 1 listed them in: keeps equal times in that order */
} Dep;

static int dep_cmp(const void *x, const void *y) {
        const Dep *a = x, *b = y;
        uint64_t ua = a->t ? a->t->activated : 0, ub = b->t ? b->t->activated : 0;

        if (ua != ub)
                return ua > ub ? -1 : 1; /* latest first */
        return a->index < b->index ? -1 : a->index > b->index;
}

static int line_add(ChainBuild *b, const char *name, unsigned level, uint64_t branches, bool last,
                    const LiveChainTimes *t) {
        LiveChain *c = b->out;
        LiveChainLine *l;

        if (GREEDY_REALLOC(c->lines, b->allocated, c->n_lines + 1) < 0)
                return -ENOMEM;
        l = &c->lines[c->n_lines];
        *l = (LiveChainLine) { .level = level, .branches = branches, .last = last, .has_times = t != NULL };
        if (t)
                l->t = *t;
        if (name && !(l->unit = strdup(name)))
                return -ENOMEM;
        c->n_lines++;
        return 0;
}

static int list_one(ChainBuild *b, const char *name, unsigned level, uint64_t branches) {
        const LiveUnit *u = live_system_find(b->s, name);
        _cleanup_(freep) Dep *deps = NULL;
        uint64_t longest = 0;
        size_t n = 0, to_print = 0;
        int r;

        r = strv_extend(&b->seen, name);
        if (r < 0)
                return r;
        if (!u || !u->deps[LIVE_DEP_AFTER])
                return 0;
        n = strv_length(u->deps[LIVE_DEP_AFTER]);
        deps = calloc(n + 1, sizeof(Dep));
        if (!deps)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                const char *d = u->deps[LIVE_DEP_AFTER][i];
                deps[i] = (Dep) { .name = d, .t = hashmap_get(&b->times, d), .index = i };
        }
        qsort_safe(deps, n, sizeof(Dep), dep_cmp);

        for (size_t i = 0; i < n; i++)
                if (in_range(deps[i].t, b) && deps[i].t->activated >= longest)
                        longest = deps[i].t->activated;
        if (longest == 0)
                return 0;
        for (size_t i = 0; i < n; i++)
                if (in_range(deps[i].t, b) && longest - deps[i].t->activated <= b->fuzz)
                        to_print++;

        for (size_t i = 0; i < n && to_print > 0; i++) {
                const Dep *d = &deps[i];
                uint64_t sub;

                if (!in_range(d->t, b) || longest - d->t->activated > b->fuzz)
                        continue;
                to_print--;
                r = line_add(b, d->name, level, branches, to_print == 0, d->t);
                if (r < 0)
                        return r;
                sub = (branches << 1) | (to_print ? 1 : 0);
                if (strv_contains(b->seen, d->name)) {
                        r = line_add(b, NULL, level + 1, sub, true, NULL);
                        if (r < 0)
                                return r;
                        continue;
                }
                r = list_one(b, d->name, level + 1, sub);
                if (r < 0)
                        return r;
        }
        return 0;
}

int live_chain_build(const LiveSystem *s, const char *unit, uint64_t fuzz, LiveChain *ret) {
        _cleanup_(live_chain_done) LiveChain c = {};
        ChainBuild b = { .s = s, .fuzz = fuzz, .out = &c };
        const LiveUnit *u;
        const LiveChainTimes *t;
        int r;

        if (s->manager.finish_usec == 0)
                return -EINPROGRESS;
        u = live_system_find(s, unit);
        if (!u)
                return -ENOENT;
        hashmap_init(&b.times);
        r = times_prepare(&b);
        if (r < 0)
                goto finish;
        c.unit = strdup(u->id);
        if (!c.unit) {
                r = -ENOMEM;
                goto finish;
        }
        c.userspace = b.userspace;
        c.finish = b.finish;
        t = hashmap_get(&b.times, u->id);
        if (t) {
                c.has_times = true;
                c.t = *t;
        }
        r = list_one(&b, unit, 0, 0);
        if (r < 0)
                goto finish;
        *ret = c;
        c = (LiveChain) {};
finish:
        hashmap_done(&b.times);
        free(b.all);
        strv_free(b.seen);
        return r;
}

const char *live_format_timespan(char buf[static 64], uint64_t t) {
        static const struct {
                const char *suffix;
                uint64_t usec;
        } table[] = {
                { "y", UINT64_C(31557600000000) }, { "month", UINT64_C(2629800000000) },
                { "w", UINT64_C(604800000000) },   { "d", UINT64_C(86400000000) },
                { "h", UINT64_C(3600000000) },     { "min", UINT64_C(60000000) },
                { "s", UINT64_C(1000000) },        { "ms", UINT64_C(1000) },
                { "us", 1 },
        };
        const uint64_t accuracy = 1000;
        size_t l = 64;
        char *p = buf;
        bool something = false;

        if (t == 0) {
                strcpy(buf, "0");
                return buf;
        }
        for (size_t i = 0; i < ELEMENTSOF(table) && t > 0; i++) {
                uint64_t a, b;
                bool done = false;
                int k = 0;

                if (t < accuracy && something)
                        break;
                if (t < table[i].usec)
                        continue;
                if (l <= 1)
                        break;
                a = t / table[i].usec;
                b = t % table[i].usec;
                /* below a minute, a remainder is written as decimals down to the accuracy */
                if (t < table[5].usec && b > 0) {
                        int j = 0;
                        for (uint64_t cc = table[i].usec; cc > 1; cc /= 10)
                                j++;
                        for (uint64_t cc = accuracy; cc > 1; cc /= 10) {
                                b /= 10;
                                j--;
                        }
                        if (j > 0) {
                                k = snprintf(p, l, "%s%" PRIu64 ".%0*" PRIu64 "%s", p > buf ? " " : "", a, j,
                                             b, table[i].suffix);
                                t = 0;
                                done = true;
                        }
                }
                if (!done) {
                        k = snprintf(p, l, "%s%" PRIu64 "%s", p > buf ? " " : "", a, table[i].suffix);
                        t = b;
                }
                if (k < 0)
                        break;
                size_t n = MIN((size_t) k, l);
                l -= n;
                p += n;
                something = true;
        }
        *p = 0;
        return buf;
}
