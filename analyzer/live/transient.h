/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Starting a transient unit and learning, without guessing, what became of it (knowledge/dbus-jobs.md §3–4):
 * StartTransientUnit with mode "fail", waited for with job-wait; UnitExists is inspected, never assumed fine
 * (a stale failed transient unit is reset and the start retried; an active one or a unit file of that name
 * is left alone); a timeout, a lost bus, a manager that left or an interruption is "unknown", and the unit
 * is then stopped and reset on a small budget of its own. Nothing here prints. */

#include <signal.h>
#include <systemd/sd-bus.h>

#include "basic/util.h"

/* ---- properties for StartTransientUnit */

typedef enum TransientPropKind {
        TPROP_BOOL,   /* b */
        TPROP_STRING, /* s */
        TPROP_STRV,   /* as */
        TPROP_U32,    /* u */
        TPROP_EXEC,   /* a(sasb): one command, path + argv */
        TPROP_BINDS,  /* a(ssbt): BindPaths=, BindReadOnlyPaths= */
        TPROP_TMPFS,  /* a(ss): TemporaryFileSystem= */
        _TPROP_KIND_MAX,
} TransientPropKind;

typedef struct TransientProp {
        char *name;         /* the D-Bus property: "PrivateTmp" */
        TransientPropKind kind;
        bool b;
        uint32_t u;
        char *s;            /* string; for EXEC the path */
        char **strv; /* list; EXEC argv; BINDS/TMPFS "source\0dest"-style pairs, see transient_prop_add_pair
                      */
        char **strv2;       /* BINDS destinations, TMPFS options */
        uint64_t *flags;    /* BINDS: 0 or MS_REC (16384) */
        bool *ignore;       /* BINDS: '-' prefix (missing source is fine) */
        bool exec_ignore_failure;
        char *origin;       /* where it came from: "FILE:LINE" or "-p" */
} TransientProp;

typedef struct TransientProps {
        TransientProp *props;
        size_t n, allocated;
} TransientProps;

void transient_props_done(TransientProps *p);
/* Adds a property; returns it (owned by p) or NULL on OOM. A later property of the same name replaces an
 * earlier one. */
TransientProp *transient_props_add(TransientProps *p, const char *name, TransientPropKind kind,
                                   const char *origin);
const TransientProp *transient_props_get(const TransientProps *p, const char *name);
/* Appends every property as (sv) to m, which must be inside the a(sv) container. */
int transient_props_append(const TransientProps *p, sd_bus_message *m);
/* "PrivateTmp=yes", "ReadWritePaths=/a /b", "ExecStart=/bin/true x": for reports. Caller frees. */
char *transient_prop_format(const TransientProp *p);

/* ---- running */

typedef enum TransientOutcome {
        TRANSIENT_DONE,        /* job done */
        TRANSIENT_SKIPPED,     /* job skipped: a condition failed, nothing ran (not a failure) */
        TRANSIENT_CANCELED,    /* job canceled or collected */
        TRANSIENT_FAILED,      /* job failed: the Service Result and exit status say why */
        TRANSIENT_JOB_TIMEOUT, /* job timeout: a start timeout of the unit itself */
        TRANSIENT_DEPENDENCY,  /* job dependency: something it needs failed (a mount PrivateTmp= pulls in,
                                  ...) */
        TRANSIENT_INVALID,
        TRANSIENT_ASSERT,
        TRANSIENT_UNSUPPORTED,
        TRANSIENT_ONCE,
        TRANSIENT_UNEXPECTED,      /* a job result this code does not know (newer systemd?) */
        TRANSIENT_TIMEOUT,         /* our deadline: no reply or no JobRemoved; outcome unknown */
        TRANSIENT_BUS_LOST,        /* the connection broke; outcome unknown */
        TRANSIENT_MANAGER_GONE,    /* systemd left the bus or was replaced; outcome unknown */
        TRANSIENT_INTERRUPTED,     /* SIGINT/SIGTERM; outcome unknown */
        TRANSIENT_CALL_FAILED,     /* StartTransientUnit was refused: error says why; nothing started */
        TRANSIENT_ALREADY_RUNNING, /* a unit of that name is active or has a job: left alone */
        TRANSIENT_NAME_CLASH,      /* a unit file (not a transient unit) has that name: left alone */
        TRANSIENT_NAME_IN_USE,     /* a loaded inactive unit keeps the name after the retries */
        TRANSIENT_SETUP_FAILED,    /* the match rules could not be installed: nothing was sent */
        _TRANSIENT_OUTCOME_MAX,
        _TRANSIENT_OUTCOME_INVALID = -EINVAL,
} TransientOutcome;

const char *transient_outcome_to_string(TransientOutcome o); /* "done", "job-timeout", "name-clash", ... */

typedef enum TransientVerdict {
        VERDICT_DONE,    /* exit 0 */
        VERDICT_FAILED,  /* exit 1 */
        VERDICT_UNKNOWN, /* exit 2: no verdict (error, timeout, lost, skipped, canceled, name problems) */
        _VERDICT_MAX,
} TransientVerdict;

const char *transient_verdict_to_string(TransientVerdict v); /* "done", "failed", "unknown" */

typedef enum TransientCleanup {
        CLEANUP_NONE,       /* not needed */
        CLEANUP_DONE,       /* stopped and reset */
        CLEANUP_INCOMPLETE, /* the cleanup budget ran out, or systemd refused */
        _TRANSIENT_CLEANUP_MAX,
} TransientCleanup;

const char *transient_cleanup_to_string(TransientCleanup c);

typedef struct TransientRequest {
        const char *name;              /* the unit name; unique names avoid UnitExists altogether */
        const char *mode;              /* NULL: "fail" */
        const TransientProps *props;
        uint64_t budget;               /* the one deadline for everything (µs from the call) */
        uint64_t cleanup_budget;       /* stop + reset after a timeout (0: 5 s) */
        uint64_t backoff; /* wait before retrying after UnitExists (0: 100 ms; grows per attempt) */
        volatile sig_atomic_t *cancel; /* non-zero: stop waiting (signal handlers set it) */
        bool unref;                    /* the props hold AddRef=yes: UnrefUnit after reading the result */
} TransientRequest;

typedef struct TransientResult {
        TransientOutcome outcome;
        char *job_result;        /* JobRemoved's result */
        const char *phase;       /* TIMEOUT & co: "installing matches", "waiting for the reply", ... */
        sd_bus_error error;      /* CALL_FAILED, SETUP_FAILED: the manager's or the daemon's answer */
        /* details of the unit after the job (or of the unit in the way, for UnitExists outcomes) */
        char *active_state, *sub_state;
        char *fragment_path;
        bool transient;
        char *service_result;    /* Result= of the service */
        int exec_main_code;      /* -1 unknown, 0 never ran, 1 exited, 2 killed, 3 dumped */
        int exec_main_status;
        char *invocation_id;     /* 32 hex digits */
        bool details_missing;    /* the unit was collected (or unreachable) before the details were read */
        unsigned attempts;       /* StartTransientUnit calls sent */
        unsigned resets;         /* ResetFailedUnit calls sent for a stale unit in the way */
        TransientCleanup cleanup;
        char *cleanup_detail;
        size_t ignored_signals;  /* JobRemoved that were not ours */
        size_t early_dropped;
        uint64_t elapsed_usec;
} TransientResult;

void transient_result_done(TransientResult *r);

/* Runs req. Returns 0 with *ret filled for every outcome that involved the bus (the outcome says what
 * happened); -errno only for local failures (out of memory). */
int transient_run(sd_bus *bus, const TransientRequest *req, TransientResult *ret);

TransientVerdict transient_verdict(const TransientResult *r);
/* One sentence on what happened and why ("the command exited with status 226 (NAMESPACE: ...)"). Caller
 * frees. */
char *transient_explain(const TransientResult *r);
/* "226/NAMESPACE" style names of systemd's exit statuses, NULL for other values. */
const char *exit_status_name(int status);
