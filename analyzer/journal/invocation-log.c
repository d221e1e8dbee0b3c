/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <systemd/sd-journal.h>

#include "journal/invocation-log.h"

void invocation_log_done(InvocationLog *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->lines[i].identifier);
                free(l->lines[i].pid);
                free(l->lines[i].message);
        }
        free(l->lines);
        *l = (InvocationLog) {};
}

/* The value of field in the current entry (a copy), or NULL when absent. -ENOMEM on OOM. */
static int field(sd_journal *j, const char *name, char **ret) {
        const void *d;
        size_t l, n = strlen(name);
        int r;

        *ret = NULL;
        r = sd_journal_get_data(j, name, &d, &l);
        if (r < 0 || l <= n || ((const char *) d)[n] != '=')
                return 0;
        *ret = strndup_safe((const char *) d + n + 1, l - n - 1);
        return *ret ? 0 : -ENOMEM;
}

static int read_entry(sd_journal *j, const char *invocation_id, bool *seen, InvocationLog *log, size_t max) {
        _cleanup_(freep) char *pid = NULL, *ident = NULL, *comm = NULL, *msg = NULL, *prio = NULL,
                              *job = NULL, *unit = NULL, *inv1 = NULL, *inv2 = NULL;
        InvocationLine *l;
        uint64_t rt = 0;
        int r;

        if ((r = field(j, "_SYSTEMD_INVOCATION_ID", &inv1)) < 0 ||
            (r = field(j, "INVOCATION_ID", &inv2)) < 0)
                return r;
        if (inv1 || inv2) {
                if (!streq_ptr(inv1, invocation_id) && !streq_ptr(inv2, invocation_id))
                        return 0; /* another invocation of the same name */
                *seen = true;
        } else if (!*seen)
                return 0; /* no invocation ID, and before ours began */
        if ((r = field(j, "_PID", &pid)) < 0 || (r = field(j, "SYSLOG_IDENTIFIER", &ident)) < 0 ||
            (r = field(j, "_COMM", &comm)) < 0 || (r = field(j, "MESSAGE", &msg)) < 0 ||
            (r = field(j, "PRIORITY", &prio)) < 0 || (r = field(j, "JOB_RESULT", &job)) < 0 ||
            (r = field(j, "UNIT", &unit)) < 0)
                return r;
        bool manager = streq_ptr(pid, "1") && unit;
        if (manager && job)
                log->complete = true;
        if (log->n >= max)
                return 0;
        (void) sd_journal_get_realtime_usec(j, &rt);
        if (GREEDY_REALLOC(log->lines, log->allocated, log->n + 1) < 0)
                return -ENOMEM;
        l = &log->lines[log->n++];
        *l = (InvocationLine) {
                .realtime_usec = rt,
                .identifier = ident ? TAKE_PTR(ident) : TAKE_PTR(comm),
                .pid = TAKE_PTR(pid),
                .message = TAKE_PTR(msg),
                .priority = prio && prio[0] >= '0' && prio[0] <= '7' && !prio[1] ? prio[0] - '0' : -1,
                .manager = manager,
        };
        return 0;
}

int invocation_log_read(const char *directory, bool os_root, const char *unit, const char *invocation_id,
                        uint64_t deadline, size_t max, InvocationLog *ret) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        _cleanup_(invocation_log_done) InvocationLog log = {};
        _cleanup_(freep) char *m1 = NULL, *m2 = NULL, *m3 = NULL;
        bool seen = false;
        int r;

        if (directory)
                r = sd_journal_open_directory(&j, directory, os_root ? SD_JOURNAL_OS_ROOT : 0);
        else
                r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
        if (r < 0)
                return r;
        m1 = strjoin("_SYSTEMD_INVOCATION_ID=", invocation_id);
        m2 = strjoin("INVOCATION_ID=", invocation_id);
        m3 = strjoin("_SYSTEMD_UNIT=", unit);
        if (!m1 || !m2 || !m3)
                return -ENOMEM;
        if ((r = sd_journal_add_match(j, m1, 0)) < 0 || (r = sd_journal_add_disjunction(j)) < 0 ||
            (r = sd_journal_add_match(j, m2, 0)) < 0 || (r = sd_journal_add_disjunction(j)) < 0 ||
            (r = sd_journal_add_match(j, m3, 0)) < 0)
                return r;
        r = sd_journal_seek_head(j);
        if (r < 0)
                return r;
        for (;;) {
                uint64_t left;

                r = sd_journal_next(j);
                if (r < 0)
                        return r;
                if (r > 0) {
                        r = read_entry(j, invocation_id, &seen, &log, max);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (log.complete)
                        break;
                left = deadline_remaining(deadline);
                if (left == 0)
                        break;
                r = sd_journal_wait(j, left);
                if (r < 0 && r != -EINTR)
                        return r;
        }
        *ret = log;
        log = (InvocationLog) {};
        return 0;
}
