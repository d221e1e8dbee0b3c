/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Calling a manager method that returns a job (StartTransientUnit, StopUnit, ...) and waiting for that job's
 * JobRemoved, the way knowledge/dbus-jobs.md §3 says: the match rules are installed (synchronously, within
 * the deadline) before the call is sent; one deadline bounds everything and every wait gets the time left; a
 * JobRemoved that arrives before the reply is buffered; the job is the exact path of the reply; callbacks
 * only record state; every slot is owned and released before the wait ends; a timeout, a lost bus or a
 * manager that left the bus is reported as such, never as success. The caller owns the connection; nothing
 * here prints. */

#include <signal.h>
#include <systemd/sd-bus.h>

#include "basic/util.h"

#define JOB_WAIT_EARLY_MAX 16

typedef enum JobWaitStatus {
        JOB_WAIT_FINISHED,     /* the job was removed: see result */
        JOB_WAIT_CALL_FAILED,  /* the method call failed: see error (no job exists) */
        JOB_WAIT_DEADLINE,     /* the deadline passed (no reply, or no JobRemoved): outcome unknown */
        JOB_WAIT_BUS_LOST,     /* the connection broke: outcome unknown */
        JOB_WAIT_MANAGER_GONE, /* org.freedesktop.systemd1 lost or changed its owner: outcome unknown */
        JOB_WAIT_INTERRUPTED,  /* *cancel became non-zero (SIGINT/SIGTERM): outcome unknown */
        _JOB_WAIT_STATUS_MAX,
        _JOB_WAIT_STATUS_INVALID = -EINVAL,
} JobWaitStatus;

const char *job_wait_status_to_string(JobWaitStatus s);

typedef enum JobReplyState {
        JOB_REPLY_PENDING,
        JOB_REPLY_OK,
        JOB_REPLY_ERROR,
} JobReplyState;

typedef struct JobEarly {
        char *path;
        char *result;
        char *sender;
} JobEarly;

/* One wait context. Embedded (job_wait_init/job_wait_done); never copied while slots point at it. */
typedef struct JobWait {
        sd_bus *bus;
        char *unit;                /* the unit the job is for (JobRemoved's third argument) */
        bool direct;               /* peer-to-peer connection to PID 1: no bus daemon, no sender names */
        volatile sig_atomic_t *cancel;

        /* state written by the callbacks (and only there) */
        JobReplyState reply;
        sd_bus_error error;        /* the reply's error */
        char *job;                 /* the job path of the reply */
        char *manager;             /* the reply's sender: JobRemoved must come from it */
        char *result;              /* JobRemoved's result for our job */
        JobEarly early[JOB_WAIT_EARLY_MAX];
        size_t n_early;
        size_t n_early_dropped;    /* early JobRemoved for our unit beyond the buffer */
        size_t n_ignored; /* JobRemoved that were not ours (other units, other jobs, duplicates, ...) */
        size_t n_malformed;
        bool oom;                  /* a callback could not copy: the wait fails with -ENOMEM */
        bool bus_lost;
        bool manager_lost;
        bool manager_changed;      /* the name moved to a new owner (a restart or a replacement) */
        unsigned matches_pending;  /* AddMatch calls not yet answered */
        int match_error;           /* the first AddMatch failure */
        sd_bus_error match_bus_error;

        sd_bus_slot *slot_job_removed;
        sd_bus_slot *slot_disconnected;
        sd_bus_slot *slot_owner;
        sd_bus_slot *slot_call;
} JobWait;

/* Installs the matches (JobRemoved; Disconnected; NameOwnerChanged of org.freedesktop.systemd1 unless
 * direct) and waits until the bus daemon acknowledged them, within deadline. Returns 0; -ETIMEDOUT; or
 * -errno with w->match_bus_error set when the daemon refused a match (then nothing else must be sent). */
int job_wait_init(JobWait *w, sd_bus *bus, const char *unit, uint64_t deadline,
                  volatile sig_atomic_t *cancel);
/* Releases every slot first, then frees the state. Safe on a zeroed or half-initialised JobWait. */
void job_wait_done(JobWait *w);

/* Sends call (its auto-start should be off) and waits for its reply and for JobRemoved of the job path in
 * the reply, until deadline. A reply that is not an object path is a JOB_WAIT_CALL_FAILED with error
 * org.bootrace.BadReply. May be called again on the same JobWait for a retry: the per-call state (reply,
 * job, result, early buffer) is reset first; the matches stay. Returns the status (>= 0) or -errno for local
 * failures (out of memory, message construction). */
int job_wait_call(JobWait *w, sd_bus_message *call, uint64_t deadline);

/* Pumps the connection until deadline without a call of its own: lets a retry backoff pass while still
 * noticing a lost bus or manager. Returns JOB_WAIT_DEADLINE when the time passed quietly, or the status that
 * ended it early. */
int job_wait_idle(JobWait *w, uint64_t deadline);
