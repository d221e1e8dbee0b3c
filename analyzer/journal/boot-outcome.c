/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "journal/boot-outcome.h"

static const char * const outcome_table[_OUTCOME_MAX] = {
        [OUTCOME_UNKNOWN] = "unknown",
        [OUTCOME_SUCCEEDED] = "succeeded",
        [OUTCOME_FAILED] = "failed",
        [OUTCOME_SKIPPED] = "skipped",
        [OUTCOME_NOT_RUN] = "not-run",
};

const char *outcome_to_string(Outcome o) {
        return o >= 0 && o < _OUTCOME_MAX ? outcome_table[o] : NULL;
}

Outcome outcome_from_string(const char *s) {
        return (Outcome) string_table_lookup(outcome_table, _OUTCOME_MAX, s);
}

#define LINES_MAX 4

static uint64_t hash_string(const char *s) {
        uint64_t h = 14695981039346656037ULL;
        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 1099511628211ULL;
        return h;
}

static void cycle_done(Cycle *c) {
        free(c->start);
        strv_free(c->lines);
        strv_free(c->deleted);
        strv_free(c->units);
}

static void unit_boot_done(UnitBoot *u) {
        free(u->result);
        free(u->exit_status);
        strv_free(u->signatures);
        strv_free(u->lines);
}

static void boot_info_done(BootInfo *b) {
        free(b->manager_version);
        free(b->kernel);
        for (size_t i = 0; i < b->n_cycles; i++)
                cycle_done(&b->cycles[i]);
        free(b->cycles);
        for (size_t i = 0; i < b->n_events; i++)
                journal_event_done(&b->events[i]);
        free(b->events);
}

BootAnalysis *boot_analysis_free(BootAnalysis *a) {
        if (!a)
                return NULL;
        for (size_t i = 0; i < a->n_boots; i++)
                boot_info_done(&a->boots[i]);
        free(a->boots);
        for (size_t i = 0; i < a->n_units; i++) {
                free(a->units[i].name);
                for (size_t b = 0; b < a->n_boots; b++)
                        unit_boot_done(&a->units[i].boots[b]);
                free(a->units[i].boots);
        }
        free(a->units);
        free(a->hash);
        for (size_t i = 0; i < a->n_desc; i++) {
                free(a->descs[i].description);
                free(a->descs[i].unit);
        }
        free(a->descs);
        free(a);
        return NULL;
}

int boot_analysis_new(char * const *ids, size_t n_boots, BootAnalysis **ret) {
        _cleanup_(boot_analysis_freep) BootAnalysis *a = NULL;

        a = calloc(1, sizeof(BootAnalysis));
        if (!a)
                return -ENOMEM;
        a->boots = calloc(MAX(n_boots, (size_t) 1), sizeof(BootInfo));
        if (!a->boots)
                return -ENOMEM;
        a->n_boots = n_boots;
        for (size_t i = 0; i < n_boots; i++)
                snprintf(a->boots[i].id, sizeof a->boots[i].id, "%s", ids[i]);
        *ret = TAKE_PTR(a);
        return 0;
}

static ssize_t hash_lookup(const BootAnalysis *a, const char *name, size_t *ret_slot) {
        size_t mask = a->hash_size - 1, i;

        if (a->hash_size == 0)
                return -ENOENT;
        for (i = hash_string(name) & mask;; i = (i + 1) & mask) {
                size_t v = a->hash[i];
                if (v == 0) {
                        if (ret_slot)
                                *ret_slot = i;
                        return -ENOENT;
                }
                if (streq(a->units[v - 1].name, name))
                        return (ssize_t) v - 1;
        }
}

static int hash_grow(BootAnalysis *a) {
        size_t size = a->hash_size ? a->hash_size * 2 : 256;
        size_t *h = calloc(size, sizeof(size_t));

        if (!h)
                return -ENOMEM;
        free(a->hash);
        a->hash = h;
        a->hash_size = size;
        for (size_t u = 0; u < a->n_units; u++) {
                size_t slot;
                (void) hash_lookup(a, a->units[u].name, &slot);
                a->hash[slot] = u + 1;
        }
        return 0;
}

int boot_analysis_find_unit(const BootAnalysis *a, const char *name) {
        ssize_t i = hash_lookup(a, name, NULL);
        return i < 0 ? -ENOENT : (int) i;
}

int boot_analysis_find_boot(const BootAnalysis *a, const char *id) {
        for (size_t i = 0; i < a->n_boots; i++)
                if (streq(a->boots[i].id, id))
                        return (int) i;
        return -ENOENT;
}

static int unit_ensure(BootAnalysis *a, const char *name, size_t *ret) {
        _cleanup_(freep) char *n = NULL;
        _cleanup_(freep) UnitBoot *boots = NULL;
        ssize_t i;
        size_t slot;
        int r;

        i = hash_lookup(a, name, NULL);
        if (i >= 0) {
                *ret = (size_t) i;
                return 0;
        }
        if ((a->n_units + 1) * 2 > a->hash_size && (r = hash_grow(a)) < 0)
                return r;
        n = strdup(name);
        boots = calloc(MAX(a->n_boots, (size_t) 1), sizeof(UnitBoot));
        if (!n || !boots || GREEDY_REALLOC(a->units, a->allocated_units, a->n_units + 1) < 0)
                return -ENOMEM;
        (void) hash_lookup(a, name, &slot);
        a->units[a->n_units] = (UnitRecord) { .name = TAKE_PTR(n), .boots = TAKE_PTR(boots) };
        a->hash[slot] = ++a->n_units;
        *ret = a->n_units - 1;
        return 0;
}

int boot_analysis_add_event(BootAnalysis *a, size_t b, JournalEvent *e) {
        BootInfo *boot;

        if (b >= a->n_boots)
                return -EINVAL;
        boot = &a->boots[b];
        if (GREEDY_REALLOC(boot->events, boot->allocated_events, boot->n_events + 1) < 0)
                return -ENOMEM;
        boot->events[boot->n_events++] = *e;
        *e = (JournalEvent) {};
        return 0;
}

/* Descriptions seen together with a unit name. A description used by two units is ambiguous: mapped to "". */
static int desc_learn(BootAnalysis *a, const char *desc, const char *unit) {
        _cleanup_(freep) char *k = NULL, *u = NULL;

        for (size_t i = 0; i < a->n_desc; i++)
                if (streq(a->descs[i].description, desc)) {
                        if (!streq(a->descs[i].unit, unit))
                                a->descs[i].unit[0] = 0;
                        return 0;
                }
        k = strdup(desc);
        u = strdup(unit);
        if (!k || !u || GREEDY_REALLOC(a->descs, a->allocated_desc, a->n_desc + 1) < 0)
                return -ENOMEM;
        a->descs[a->n_desc++] = (struct DescEntry) { .description = TAKE_PTR(k), .unit = TAKE_PTR(u) };
        return 0;
}

static const char *desc_lookup(const BootAnalysis *a, const char *desc) {
        for (size_t i = 0; i < a->n_desc; i++)
                if (streq(a->descs[i].description, desc))
                        return a->descs[i].unit[0] ? a->descs[i].unit : NULL;
        return NULL;
}

/* Replay state of one unit in one boot; borrowed strings point into the boot's events. */
typedef struct Track {
        bool stopping;
        bool done, success, skipped, failed, spawn_failed, job_failed, exit_bad, exit_ok, not_run;
        const char *fail_result, *spawn_result, *job_result, *exit_result, *skip_result, *not_run_result;
        uint64_t fail_usec, ok_usec, output_error_usec; /* the first record of each kind */
        char **output_errors; /* owned */
} Track;

static bool is_not_run_job_result(const char *r) {
        static const char * const l[] = { "dependency", "canceled", "collected", "invalid", "unsupported",
                                           "concurrency", "once" };
        for (size_t i = 0; i < ELEMENTSOF(l); i++)
                if (streq(r, l[i]))
                        return true;
        return false;
}

static int add_line(UnitBoot *ub, const char *line) {
        if (!line || strv_length(ub->lines) >= LINES_MAX || strv_contains(ub->lines, line))
                return 0;
        return strv_extend(&ub->lines, line);
}

static bool exit_status_is_zero(const char *s) {
        return s && (streq(s, "0") || startswith(s, "0/"));
}

/* Forgets what decided the outcome so far: a new invocation begins. */
static void track_restart(UnitBoot *ub, Track *t) {
        char **output_errors = t->output_errors;

        strv_free(output_errors);
        *t = (Track) {};
        ub->exit_status = mfree(ub->exit_status);
        ub->start_usec = ub->active_usec = 0;
}

static int track_unit_event(UnitBoot *ub, Track *t, const JournalEvent *e) {
        if (e->type == JOURNAL_EVENT_UNIT_OUTPUT) {
                /* a unit's own output says it ran; errors in it are kept for signatures and inference */
                ub->output_seen = true;
                ub->evidence |= EVIDENCE_BIT(e->origin);
                if (ub->first_usec == 0)
                        ub->first_usec = e->usec;
                if (e->error && !t->stopping) {
                        if (t->output_error_usec == 0)
                                t->output_error_usec = e->usec;
                        if (strv_extend_unique(&t->output_errors, e->error) < 0)
                                return -ENOMEM;
                        return add_line(ub, e->message);
                }
                return 0;
        }

        if (e->type == JOURNAL_EVENT_JOB_START || e->type == JOURNAL_EVENT_JOB_DONE) {
                if (e->job_type && !streq(e->job_type, "start"))
                        return 0;
                if (t->stopping) {
                        /* started again after a stop (a restart, or the real root after the initrd): the new
                         * activation is the one to time against */
                        t->stopping = false;
                        ub->start_usec = ub->active_usec = 0;
                }
                if (e->type == JOURNAL_EVENT_JOB_START && ub->start_usec == 0)
                        ub->start_usec = e->usec;
        }
        if (t->stopping)
                return 0; /* the stop phase (shutdown, restarts) does not decide a boot's outcome */

        ub->evidence |= EVIDENCE_BIT(e->origin);
        if (ub->first_usec == 0)
                ub->first_usec = e->usec;

        switch (e->type) {
        case JOURNAL_EVENT_UNIT_FAILED:
        case JOURNAL_EVENT_SPAWN_FAILED:
        case JOURNAL_EVENT_JOB_FAILED:
                if (t->fail_usec == 0)
                        t->fail_usec = e->usec;
                break;
        case JOURNAL_EVENT_JOB_DONE:
        case JOURNAL_EVENT_UNIT_SUCCESS:
        case JOURNAL_EVENT_CONDITION_SKIP:
        case JOURNAL_EVENT_EXEC_CONDITION:
                if (t->ok_usec == 0)
                        t->ok_usec = e->usec;
                break;
        default:
                break;
        }

        switch (e->type) {
        case JOURNAL_EVENT_JOB_DONE:
                t->done = true;
                if (ub->active_usec == 0)
                        ub->active_usec = e->usec;
                break;
        case JOURNAL_EVENT_JOB_FAILED:
                if (e->result && is_not_run_job_result(e->result)) {
                        t->not_run = true;
                        t->not_run_result = t->not_run_result ?: e->result;
                } else if (e->result && streq(e->result, "skipped")) {
                        t->skipped = true;
                        t->skip_result = t->skip_result ?: "skipped";
                } else {
                        t->job_failed = true;
                        t->job_result = t->job_result ?: e->result;
                        return add_line(ub, e->message);
                }
                break;
        case JOURNAL_EVENT_CONDITION_SKIP:
                t->skipped = true;
                t->skip_result = t->skip_result ?: "condition";
                break;
        case JOURNAL_EVENT_EXEC_CONDITION:
                t->skipped = true;
                t->skip_result = t->skip_result ?: (e->result ?: "exec-condition");
                break;
        case JOURNAL_EVENT_UNIT_SUCCESS:
                t->success = true;
                break;
        case JOURNAL_EVENT_UNIT_FAILED:
                t->failed = true;
                t->fail_result = t->fail_result ?: e->result;
                return add_line(ub, e->message);
        case JOURNAL_EVENT_PROCESS_EXIT:
                if (e->exit_status && !ub->exit_status && !(ub->exit_status = strdup(e->exit_status)))
                        return -ENOMEM;
                if (streq_ptr(e->exit_code, "exited") && exit_status_is_zero(e->exit_status))
                        t->exit_ok = true;
                else {
                        t->exit_bad = true;
                        t->exit_result = t->exit_result ?: (streq_ptr(e->exit_code, "killed") ? "signal" :
                                                            streq_ptr(e->exit_code, "dumped") ? "core-dump" :
                                                                                                "exit-code");
                        return add_line(ub, e->message);
                }
                break;
        case JOURNAL_EVENT_SPAWN_FAILED:
                t->spawn_failed = true;
                t->spawn_result = t->spawn_result ?: e->result;
                if (e->error && strv_extend_unique(&ub->signatures, e->error) < 0)
                        return -ENOMEM;
                return add_line(ub, e->message);
        case JOURNAL_EVENT_STOP:
                t->stopping = true;
                break;
        case JOURNAL_EVENT_RESTART:
                /* PID 1 starts it again by itself (Restart=): the boot's outcome is the last invocation's, as
                 * the unit's final state says; the earlier ones only count as restarts */
                ub->restarts++;
                track_restart(ub, t);
                break;
        default:
                break;
        }
        return 0;
}

static bool strv_contains_substring(char * const *needles, char * const *haystack) {
        STRV_FOREACH(n, needles)
                STRV_FOREACH(h, haystack)
                        if (**n && strstr(*h, *n))
                                return true;
        return false;
}

static int classify(UnitBoot *ub, Track *t, const BootAnalysisOptions *o) {
        const char *result = NULL;
        char buf[64];

        if (t->failed || t->spawn_failed || t->job_failed || (t->exit_bad && !t->success && !t->done)) {
                ub->outcome = OUTCOME_FAILED;
                result = t->fail_result ?: t->spawn_result ?: t->exit_result ?: t->job_result ?: "failed";
        } else if (t->success || t->done || t->exit_ok)
                ub->outcome = OUTCOME_SUCCEEDED;
        else if (t->skipped) {
                ub->outcome = OUTCOME_SKIPPED;
                result = t->skip_result;
        } else if (t->not_run || ub->deleted) {
                ub->outcome = OUTCOME_NOT_RUN;
                result = ub->deleted ? RESULT_CYCLE_DELETED : t->not_run_result;
        } else if (o && strv_contains_substring(o->output_signatures, t->output_errors)) {
                ub->outcome = OUTCOME_FAILED;
                result = RESULT_OUTPUT_SIGNATURE;
        } else
                ub->outcome = OUTCOME_UNKNOWN;

        ub->end_usec = ub->outcome == OUTCOME_FAILED ? (t->fail_usec ?: t->output_error_usec) : t->ok_usec;
        if (result && !(ub->result = strdup(result)))
                return -ENOMEM;
        if (ub->outcome == OUTCOME_FAILED) {
                STRV_FOREACH(s, t->output_errors)
                        if (strv_extend_unique(&ub->signatures, *s) < 0)
                                return -ENOMEM;
                if (ub->exit_status && !exit_status_is_zero(ub->exit_status)) {
                        snprintf(buf, sizeof buf, "status=%s", ub->exit_status);
                        if (strv_extend_unique(&ub->signatures, buf) < 0)
                                return -ENOMEM;
                }
        }
        return 0;
}

/* The latest cycle started from unit start, or the latest at all when the text does not say. */
static Cycle *cycle_find(BootInfo *b, const char *start) {
        for (size_t i = b->n_cycles; i > 0; i--) {
                Cycle *c = &b->cycles[i - 1];
                if (!start || !c->start || streq(c->start, start))
                        return c;
        }
        return NULL;
}

static Cycle *cycle_new(BootInfo *b) {
        Cycle *c = realloc(b->cycles, (b->n_cycles + 1) * sizeof(Cycle));

        if (!c)
                return NULL;
        b->cycles = c;
        c = &b->cycles[b->n_cycles++];
        *c = (Cycle) {};
        return c;
}

static int mark_in_cycle(BootAnalysis *a, size_t b, Cycle *c, const char *unit) {
        size_t u;
        int r;

        if (!unit)
                return 0;
        r = unit_ensure(a, unit, &u);
        if (r < 0)
                return r;
        a->units[u].boots[b].in_cycle = true;
        return strv_extend_unique(&c->units, unit);
}

static int track_cycle_event(BootAnalysis *a, size_t b, const JournalEvent *e) {
        BootInfo *boot = &a->boots[b];
        Cycle *c;
        int r;

        /* every "Found ordering cycle" starts a new one; the other lines belong to the latest with their start */
        c = e->type == JOURNAL_EVENT_CYCLE_FOUND ? NULL : cycle_find(boot, e->cycle_unit);
        if (!c && !(c = cycle_new(boot)))
                return -ENOMEM;
        if (!c->start && e->cycle_unit && !(c->start = strdup(e->cycle_unit)))
                return -ENOMEM;
        if (e->message && (r = strv_extend(&c->lines, e->message)) < 0)
                return r;
        if (e->type == JOURNAL_EVENT_CYCLE_UNFIXABLE)
                c->unfixable = true;
        if ((r = mark_in_cycle(a, b, c, e->cycle_unit)) < 0 || (r = mark_in_cycle(a, b, c, e->job_unit)) < 0)
                return r;
        STRV_FOREACH(u, e->units)
                if ((r = mark_in_cycle(a, b, c, *u)) < 0)
                        return r;
        STRV_FOREACH(j, e->cycle_jobs) {
                _cleanup_(freep) char *unit = strndup_safe(*j, strcspn(*j, "/"));
                if (!unit || (r = mark_in_cycle(a, b, c, unit)) < 0)
                        return unit ? r : -ENOMEM;
        }
        if ((e->type == JOURNAL_EVENT_CYCLE_DELETED || e->type == JOURNAL_EVENT_CYCLE_BREAKING) && e->job_unit) {
                _cleanup_(freep) char *job = strjoin(e->job_unit, "/", e->job_type ?: "start");
                size_t u;
                if (!job || (r = strv_extend_unique(&c->deleted, job)) < 0)
                        return job ? r : -ENOMEM;
                /* only a deleted start job keeps the unit from running */
                if (!e->job_type || streq(e->job_type, "start")) {
                        if ((r = unit_ensure(a, e->job_unit, &u)) < 0)
                                return r;
                        a->units[u].boots[b].deleted = true;
                }
        }
        return 0;
}

static bool event_is_unit_event(JournalEventType t) {
        return t <= JOURNAL_EVENT_RESTART || t == JOURNAL_EVENT_UNIT_OUTPUT;
}

static int track_boot_event(BootInfo *boot, const JournalEvent *e) {
        switch (e->type) {
        case JOURNAL_EVENT_STARTUP_FINISHED:
                boot->startup_finished = true;
                break;
        case JOURNAL_EVENT_JOURNAL_FLUSHED:
                boot->flushed = true;
                break;
        case JOURNAL_EVENT_JOURNAL_STOPPED:
                boot->journal_stopped = true;
                break;
        case JOURNAL_EVENT_MANAGER_VERSION:
                if (!boot->manager_version && e->result && !(boot->manager_version = strdup(e->result)))
                        return -ENOMEM;
                break;
        case JOURNAL_EVENT_KERNEL_VERSION:
                if (!boot->kernel && e->result && !(boot->kernel = strdup(e->result)))
                        return -ENOMEM;
                break;
        default:
                break;
        }
        return 0;
}

static int event_cmp(const void *x, const void *y) {
        const JournalEvent *a = x, *b = y;
        return (a->usec > b->usec) - (a->usec < b->usec);
}

static int replay_boot(BootAnalysis *a, size_t b, const BootAnalysisOptions *o) {
        BootInfo *boot = &a->boots[b];
        _cleanup_(freep) Track *tracks = NULL;
        size_t n_tracks;
        int r = 0;

        /* every unit named in this boot exists before the replay, so the track array has a fixed size */
        for (size_t i = 0; i < boot->n_events; i++) {
                JournalEvent *e = &boot->events[i];
                size_t u;
                if (!e->unit && e->description && event_is_unit_event(e->type)) {
                        const char *m = desc_lookup(a, e->description);
                        if (m && !(e->unit = strdup(m)))
                                return -ENOMEM;
                }
                if (e->unit && event_is_unit_event(e->type) && (r = unit_ensure(a, e->unit, &u)) < 0)
                        return r;
        }
        n_tracks = a->n_units;
        tracks = calloc(MAX(n_tracks, (size_t) 1), sizeof(Track));
        if (!tracks)
                return -ENOMEM;

        /* events of two scans (manager records, then unit output) merge by time: a stable insertion sort,
         * cheap because the events are nearly in order */
        for (size_t i = 1; i < boot->n_events; i++)
                for (size_t k = i; k > 0 && event_cmp(&boot->events[k - 1], &boot->events[k]) > 0; k--) {
                        JournalEvent tmp = boot->events[k - 1];
                        boot->events[k - 1] = boot->events[k];
                        boot->events[k] = tmp;
                }

        for (size_t i = 0; i < boot->n_events && r >= 0; i++) {
                const JournalEvent *e = &boot->events[i];
                if (e->type >= JOURNAL_EVENT_CYCLE_FOUND && e->type <= JOURNAL_EVENT_CYCLE_OTHER)
                        r = track_cycle_event(a, b, e);
                else if (event_is_unit_event(e->type)) {
                        int u = e->unit ? boot_analysis_find_unit(a, e->unit) : -ENOENT;
                        if (u >= 0 && (size_t) u < n_tracks)
                                r = track_unit_event(&a->units[u].boots[b], &tracks[u], e);
                        if (r >= 0 && e->type == JOURNAL_EVENT_JOB_DONE && streq_ptr(e->unit,
                                                                                    "systemd-journal-flush.service"))
                                boot->flushed = true;
                } else
                        r = track_boot_event(boot, e);
        }
        for (size_t u = 0; u < a->n_units && r >= 0; u++)
                r = classify(&a->units[u].boots[b], u < n_tracks ? &tracks[u] : &(Track) {}, o);
        for (size_t u = 0; u < n_tracks; u++)
                strv_free(tracks[u].output_errors);
        return r;
}

int boot_analysis_finish(BootAnalysis *a, const BootAnalysisOptions *o) {
        int r;

        if (a->finished)
                return 0;
        for (size_t b = 0; b < a->n_boots; b++)
                for (size_t i = 0; i < a->boots[b].n_events; i++) {
                        const JournalEvent *e = &a->boots[b].events[i];
                        if (e->unit && e->description && e->origin != JOURNAL_ORIGIN_OUTPUT &&
                            (r = desc_learn(a, e->description, e->unit)) < 0)
                                return r;
                }
        for (size_t b = 0; b < a->n_boots; b++) {
                r = replay_boot(a, b, o);
                if (r < 0)
                        return r;
        }
        /* units first seen in a later boot were not classified in the earlier ones: they stay unknown, which
         * is what a zeroed UnitBoot says */
        a->finished = true;
        return 0;
}

char *mount_unit_to_path(const char *unit) {
        const char *suffix = endswith(unit, ".mount");
        size_t n;
        char *p, *q;

        if (!suffix)
                return NULL;
        n = suffix - unit;
        if (n == 1 && unit[0] == '-')
                return strdup("/");
        p = malloc(n + 2);
        if (!p)
                return NULL;
        q = p;
        *q++ = '/';
        for (size_t i = 0; i < n; i++) {
                if (unit[i] == '-')
                        *q++ = '/';
                else if (unit[i] == '\\' && i + 3 < n && unit[i + 1] == 'x') {
                        char hex[3] = { unit[i + 2], unit[i + 3], 0 };
                        char *end;
                        long v = strtol(hex, &end, 16);
                        if (*end || v <= 0) {
                                free(p);
                                return NULL;
                        }
                        *q++ = (char) v;
                        i += 3;
                } else
                        *q++ = unit[i];
        }
        *q = 0;
        return p;
}
