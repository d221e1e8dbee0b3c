/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Per boot and per unit outcomes from decoded journal events (knowledge/journal.md §6, sru-and-stats.md §2).
 * Events are collected per boot, then boot_analysis_finish() replays each boot and classifies every unit it saw:
 * succeeded, failed, skipped, not run, or unknown (no evidence). It also gathers the ordering cycles, failure
 * signatures and the timestamps the race evidence and the critical chain need. No sd-journal here: the input is
 * JournalEvents, so it can be tested with synthetic ones. */

#include "journal/journal-events.h"

typedef enum Outcome {
        OUTCOME_UNKNOWN,   /* no record says what happened to the unit in this boot */
        OUTCOME_SUCCEEDED, /* a start job done or "Deactivated successfully", and no failure */
        OUTCOME_FAILED,    /* a failure record: unit result, failed start job, spawn failure, bad exit */
        OUTCOME_SKIPPED,   /* a Condition…= or ExecCondition= said no */
        OUTCOME_NOT_RUN,   /* its start job was deleted to break an ordering cycle, or a dependency failed */
        _OUTCOME_MAX,
        _OUTCOME_INVALID = -EINVAL,
} Outcome;

const char *outcome_to_string(Outcome o);
Outcome outcome_from_string(const char *s);

/* Which kinds of record were seen for a unit in a boot (a bit per JournalOrigin) */
#define EVIDENCE_BIT(origin) (1u << (origin))

/* The result recorded when a failure is inferred from a signature in the unit's own output only. */
#define RESULT_OUTPUT_SIGNATURE "output-signature"
/* Results recorded for "not run" */
#define RESULT_CYCLE_DELETED "deleted-by-cycle"

typedef struct UnitBoot {
        Outcome outcome;
        unsigned evidence;  /* EVIDENCE_BIT(origin) for every record about the unit in the start phase */
        char *result;       /* failed: unit/job result; not run: dependency, deleted-by-cycle…; skipped: condition */
        char *exit_status;  /* "2/INVALIDARGUMENT" when a process exit was recorded */
        char **signatures;  /* distinct failure signatures: errno texts, "status=226/NAMESPACE", … */
        char **lines;       /* a few of the failure lines, quoted by the reports */
        uint64_t start_usec;  /* "Starting…" (0 = not recorded) */
        uint64_t active_usec; /* start job done */
        uint64_t end_usec;    /* the failure, success or skip record that decided the outcome */
        uint64_t first_usec;  /* the first record about the unit in this boot */
        unsigned restarts;
        bool in_cycle;        /* named in an ordering-cycle record of this boot */
        bool deleted;         /* its start job was deleted to break a cycle */
        bool output_seen;     /* its own processes logged something: it ran */
} UnitBoot;

typedef struct UnitRecord {
        char *name;
        UnitBoot *boots; /* n_boots entries, indexed like BootAnalysis.boots */
} UnitRecord;

typedef struct Cycle {
        char *start;     /* X: the unit whose job the walk started from (may be NULL for ≤v219 texts) */
        char **lines;    /* the records' texts, in order */
        char **deleted;  /* "D/T" of every job deleted to break it */
        char **units;    /* every unit named in it */
        bool unfixable;
} Cycle;

typedef struct BootInfo {
        char id[33];               /* _BOOT_ID, 32 hex digits */
        uint64_t first_realtime, last_realtime;
        uint64_t first_monotonic, last_monotonic;
        uint64_t n_entries;        /* entries read for this boot */
        bool current;              /* the running system's boot: it has not ended yet */
        bool startup_finished, flushed, journal_stopped;
        char *manager_version;     /* "252.39-1~deb12u2" from "systemd … running in system mode" */
        char *kernel;              /* "6.1.0-50-amd64" from "Linux version …" */
        Cycle *cycles;
        size_t n_cycles;
        /* collected events, replayed by boot_analysis_finish() */
        JournalEvent *events;
        size_t n_events, allocated_events;
} BootInfo;

typedef struct BootAnalysisOptions {
        /* A failure is inferred from a unit's own output when it has no manager record of its outcome in that
         * boot but its output contains one of these texts. NULL or empty: never infer. */
        char **output_signatures;
} BootAnalysisOptions;

typedef struct BootAnalysis {
        BootInfo *boots;
        size_t n_boots;
        UnitRecord *units;
        size_t n_units, allocated_units;
        /* name -> index (open addressing) */
        size_t *hash;
        size_t hash_size;
        /* description -> unit, learnt from records that carry both (for texts without a unit name) */
        struct DescEntry {
                char *description;
                char *unit; /* "" when two units share the description */
        } *descs;
        size_t n_desc, allocated_desc;
        bool finished;
} BootAnalysis;

/* Makes an analysis for n_boots boots whose ids are taken from ids (32 hex digits each, in boot order). */
int boot_analysis_new(char * const *ids, size_t n_boots, BootAnalysis **ret);
BootAnalysis *boot_analysis_free(BootAnalysis *a);
static inline void boot_analysis_freep(BootAnalysis **a) {
        boot_analysis_free(*a);
}

/* Adds one decoded event to boot index b, taking its contents (e is reset). Returns 0 or -ENOMEM. */
int boot_analysis_add_event(BootAnalysis *a, size_t b, JournalEvent *e);

/* Replays every boot's events (ordered by time, stable) and classifies. Returns 0 or -ENOMEM. */
int boot_analysis_finish(BootAnalysis *a, const BootAnalysisOptions *o);

/* Index of a unit, or -ENOENT. */
int boot_analysis_find_unit(const BootAnalysis *a, const char *name);
/* Index of a boot by id, or -ENOENT. */
int boot_analysis_find_boot(const BootAnalysis *a, const char *id);

/* Is this unit-boot outcome something a failure rate counts (failed; not run when not_run_is_failure)? */
static inline bool outcome_is_failure(Outcome o, bool not_run_is_failure) {
        return o == OUTCOME_FAILED || (o == OUTCOME_NOT_RUN && not_run_is_failure);
}

/* "var-lib.mount" -> "/var/lib" (systemd path unescaping); NULL for other names or on OOM. */
char *mount_unit_to_path(const char *unit);
