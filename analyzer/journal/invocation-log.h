/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The journal lines of one invocation of a unit: what its processes wrote (_SYSTEMD_INVOCATION_ID=) and what
 * PID 1 logged about it (INVOCATION_ID=). A process that exits at once leaves lines journald cannot tie to
 * the invocation (its cgroup is gone): those carry only _SYSTEMD_UNIT=, and are taken when they come after
 * the invocation's first line. journald may still be writing when the job ends, so reading waits (bounded)
 * for PID 1's message that ends the job. Nothing here prints. */

#include "basic/util.h"

typedef struct InvocationLine {
        uint64_t realtime_usec;
        char *identifier; /* SYSLOG_IDENTIFIER or _COMM */
        char *pid;        /* _PID, may be NULL */
        char *message;
        int priority;     /* -1 unknown */
        bool manager;     /* logged by PID 1 about the unit */
} InvocationLine;

typedef struct InvocationLog {
        InvocationLine *lines;
        size_t n, allocated;
        bool complete; /* PID 1's job-end message (JOB_RESULT=) was seen */
} InvocationLog;

void invocation_log_done(InvocationLog *l);

/* Reads the lines of invocation_id (32 hex digits) of unit from the journal in directory (NULL: the local
 * system's journal; with os_root, directory is the root of an OS tree and its /var/log/journal and
 * /run/log/journal are read), waiting until deadline for the job-end message. Returns 0 (lines found or not:
 * see complete), or -errno when the journal cannot be opened. At most max lines are kept (the first ones).
 */
int invocation_log_read(const char *directory, bool os_root, const char *unit, const char *invocation_id,
                        uint64_t deadline, size_t max, InvocationLog *ret);
