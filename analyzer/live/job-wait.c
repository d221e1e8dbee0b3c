/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "live/bus-util.h"
#include "live/job-wait.h"

static const char * const job_wait_status_table[_JOB_WAIT_STATUS_MAX] = {
        [JOB_WAIT_FINISHED] = "finished",
        [JOB_WAIT_CALL_FAILED] = "call-failed",
        [JOB_WAIT_DEADLINE] = "deadline",
        [JOB_WAIT_BUS_LOST] = "bus-lost",
        [JOB_WAIT_MANAGER_GONE] = "manager-gone",
        [JOB_WAIT_INTERRUPTED] = "interrupted",
};

const char *job_wait_status_to_string(JobWaitStatus s) {
        return s >= 0 && s < _JOB_WAIT_STATUS_MAX ? job_wait_status_table[s] : NULL;
}

static void early_clear(JobWait *w) {
        for (size_t i = 0; i < w->n_early; i++) {
                free(w->early[i].path);
                free(w->early[i].result);
                free(w->early[i].sender);
        }
        w->n_early = 0;
}

/* ---- callbacks: they parse, compare and copy into *w, nothing else (no bus calls, no frees of w) */

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        JobWait *w = userdata;
        const char *path, *unit, *result, *sender = sd_bus_message_get_sender(m);
        uint32_t id;

        if (w->result) { /* the first JobRemoved of our job wins */
                w->n_ignored++;
                return 0;
        }
        if (!sd_bus_message_has_signature(m, "uoss") ||
            sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0) {
                w->n_malformed++;
                return 0;
        }
        if (w->reply == JOB_REPLY_OK) {
                if (streq(path, w->job) && streq_ptr(sender, w->manager)) {
                        w->result = strdup(result);
                        if (!w->result)
                                w->oom = true;
                } else
                        w->n_ignored++;
        } else if (w->reply == JOB_REPLY_PENDING && streq(unit, w->unit)) {
                JobEarly *e;
                if (w->n_early >= JOB_WAIT_EARLY_MAX) {
                        w->n_early_dropped++;
                        return 0;
                }
                e = &w->early[w->n_early];
                *e = (JobEarly) { .path = strdup(path), .result = strdup(result) };
                if (sender)
                        e->sender = strdup(sender);
                if (!e->path || !e->result || (sender && !e->sender)) {
                        free(e->path);
                        free(e->result);
                        free(e->sender);
                        w->oom = true;
                        return 0;
                }
                w->n_early++;
        } else
                w->n_ignored++;
        return 0;
}

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        JobWait *w = userdata;
        const char *path, *sender = sd_bus_message_get_sender(m);

        if (sd_bus_message_is_method_error(m, NULL)) {
                if (sd_bus_error_copy(&w->error, sd_bus_message_get_error(m)) == -ENOMEM)
                        w->oom = true;
                w->reply = JOB_REPLY_ERROR;
                return 0;
        }
        if (!sd_bus_message_has_signature(m, "o") || sd_bus_message_read(m, "o", &path) < 0) {
                (void) sd_bus_error_setf(&w->error, "org.bootrace.BadReply",
                                         "expected a job object path (o), got '%s'",
                                         strempty(sd_bus_message_get_signature(m, true)));
                w->reply = JOB_REPLY_ERROR;
                return 0;
        }
        w->job = strdup(path);
        if (sender)
                w->manager = strdup(sender);
        if (!w->job || (sender && !w->manager))
                w->oom = true;
        w->reply = JOB_REPLY_OK;
        for (size_t i = 0; w->job && i < w->n_early; i++)
                if (streq(w->early[i].path, w->job) && streq_ptr(w->early[i].sender, w->manager)) {
                        w->result = TAKE_PTR(w->early[i].result);
                        break;
                }
        early_clear(w);
        return 0;
}

static int on_disconnected(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        JobWait *w = userdata;
        w->bus_lost = true;
        return 0;
}

static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        JobWait *w = userdata;
        const char *name, *old_owner, *new_owner;

        if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 || !streq(name, SD_DEST))
                return 0;
        if (isempty(new_owner))
                w->manager_lost = true;
        else if (!isempty(old_owner)) {
                /* a restart that kept the name busy, or someone replaced the manager: our job is gone with
                 * it */
                w->manager_changed = true;
                w->manager_lost = true;
        }
        return 0;
}

static int on_match_installed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        JobWait *w = userdata;
        const sd_bus_error *e = sd_bus_message_get_error(m);

        if (w->matches_pending > 0)
                w->matches_pending--;
        if (e && w->match_error == 0) {
                w->match_error = sd_bus_message_get_errno(m) > 0 ? -sd_bus_message_get_errno(m) : -EIO;
                if (sd_bus_error_copy(&w->match_bus_error, e) == -ENOMEM)
                        w->oom = true;
        }
        return 0;
}

/* ---- the loop */

typedef enum PumpStop {
        PUMP_FINISHED,
        PUMP_DEADLINE,
        PUMP_BUS_ERROR,
} PumpStop;

typedef enum PumpWhat {
        PUMP_MATCHES, /* until the AddMatch calls are answered */
        PUMP_JOB,     /* until the reply and our JobRemoved */
        PUMP_IDLE,    /* only notice losses */
} PumpWhat;

static bool finished(const JobWait *w, PumpWhat what) {
        if (w->bus_lost || w->manager_lost || w->oom || (w->cancel && *w->cancel))
                return true;
        switch (what) {
        case PUMP_MATCHES:
                return w->matches_pending == 0 || w->match_error != 0;
        case PUMP_JOB:
                return w->reply == JOB_REPLY_ERROR || (w->reply == JOB_REPLY_OK && w->result);
        case PUMP_IDLE:
                return false;
        }
        return true;
}

static PumpStop pump(JobWait *w, uint64_t deadline, PumpWhat what) {
        for (;;) {
                uint64_t left;
                int r;

                r = sd_bus_process(w->bus, NULL);
                if (r < 0) {
                        w->bus_lost = true;
                        return PUMP_BUS_ERROR;
                }
                /* sd_bus_process() may return 0 after running a callback: test after every call */
                if (finished(w, what))
                        return PUMP_FINISHED;
                if (r > 0)
                        continue;
                left = deadline_remaining(deadline);
                if (left == 0)
                        return PUMP_DEADLINE;
                /* with a cancel flag, wake up now and then: a signal between the test and the poll is not
                 * lost */
                if (w->cancel && left > 250 * USEC_PER_MSEC)
                        left = 250 * USEC_PER_MSEC;
                r = sd_bus_wait(w->bus, left);
                if (r < 0 && r != -EINTR) {
                        w->bus_lost = true;
                        return PUMP_BUS_ERROR;
                }
        }
}

int job_wait_init(JobWait *w, sd_bus *bus, const char *unit, uint64_t deadline,
                  volatile sig_atomic_t *cancel) {
        _cleanup_(freep) char *job_match = NULL;
        int r;

        *w = (JobWait) { .bus = sd_bus_ref(bus), .cancel = cancel, .error = SD_BUS_ERROR_NULL,
                         .match_bus_error = SD_BUS_ERROR_NULL };
        w->unit = strdup(unit);
        if (!w->unit)
                return -ENOMEM;
        r = sd_bus_is_bus_client(bus);
        w->direct = r <= 0;

        /* on a direct connection to PID 1 there is no sender name to match */
        job_match = strjoin("type='signal',", w->direct ? "" : "sender='" SD_DEST "',",
                            "path='" SD_PATH "',interface='" SD_IFACE_MANAGER "',member='JobRemoved'");
        if (!job_match)
                return -ENOMEM;
        r = sd_bus_add_match_async(bus, &w->slot_job_removed, job_match, on_job_removed, on_match_installed,
                                   w);
        if (r < 0)
                return r;
        if (!w->direct)
                w->matches_pending++;
        /* a local match: sd-bus does not send it to the daemon, so no install callback runs */
        r = sd_bus_add_match_async(bus, &w->slot_disconnected,
                                   "type='signal',sender='org.freedesktop.DBus.Local',"
                                   "interface='org.freedesktop.DBus.Local',member='Disconnected'",
                                   on_disconnected, on_match_installed, w);
        if (r < 0)
                return r;
        if (!w->direct) {
                r = sd_bus_add_match_async(
                        bus, &w->slot_owner,
                        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                        "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                        "arg0='" SD_DEST "'",
                        on_owner_changed, on_match_installed, w);
                if (r < 0)
                        return r;
                w->matches_pending++;
        }
        switch (pump(w, deadline, PUMP_MATCHES)) {
        case PUMP_DEADLINE:
                return -ETIMEDOUT;
        case PUMP_BUS_ERROR:
                return -ECONNRESET;
        case PUMP_FINISHED:
                break;
        }
        if (w->oom)
                return -ENOMEM;
        if (w->match_error)
                return w->match_error;
        if (w->bus_lost)
                return -ECONNRESET;
        if (w->cancel && *w->cancel)
                return -EINTR;
        return 0;
}

void job_wait_done(JobWait *w) {
        /* slots first: after this no callback can reach *w */
        w->slot_call = sd_bus_slot_unref(w->slot_call);
        w->slot_job_removed = sd_bus_slot_unref(w->slot_job_removed);
        w->slot_disconnected = sd_bus_slot_unref(w->slot_disconnected);
        w->slot_owner = sd_bus_slot_unref(w->slot_owner);
        early_clear(w);
        sd_bus_error_free(&w->error);
        sd_bus_error_free(&w->match_bus_error);
        w->job = mfree(w->job);
        w->manager = mfree(w->manager);
        w->result = mfree(w->result);
        w->unit = mfree(w->unit);
        w->bus = sd_bus_unref(w->bus);
}

static JobWaitStatus status_after(JobWait *w, PumpStop stop) {
        if (stop == PUMP_BUS_ERROR || w->bus_lost)
                return JOB_WAIT_BUS_LOST;
        if (w->manager_lost)
                return JOB_WAIT_MANAGER_GONE;
        if (w->cancel && *w->cancel)
                return JOB_WAIT_INTERRUPTED;
        if (w->reply == JOB_REPLY_ERROR) {
                /* sd-bus answers pending calls with NoReply when the connection closes */
                if (sd_bus_error_has_name(&w->error, "org.freedesktop.DBus.Error.NoReply") &&
                    sd_bus_is_open(w->bus) <= 0)
                        return JOB_WAIT_BUS_LOST;
                return JOB_WAIT_CALL_FAILED;
        }
        if (stop == PUMP_DEADLINE)
                return JOB_WAIT_DEADLINE;
        return JOB_WAIT_FINISHED;
}

int job_wait_call(JobWait *w, sd_bus_message *call, uint64_t deadline) {
        uint64_t left;
        PumpStop stop;
        int r;

        w->slot_call = sd_bus_slot_unref(w->slot_call);
        w->reply = JOB_REPLY_PENDING;
        sd_bus_error_free(&w->error);
        w->job = mfree(w->job);
        w->manager = mfree(w->manager);
        w->result = mfree(w->result);
        early_clear(w);
        if (w->bus_lost)
                return JOB_WAIT_BUS_LOST;
        if (w->manager_lost)
                return JOB_WAIT_MANAGER_GONE;

        left = deadline_remaining(deadline);
        if (left == 0) /* never pass 0: sd-bus would take it as its 25 s default */
                return JOB_WAIT_DEADLINE;
        r = sd_bus_call_async(w->bus, &w->slot_call, call, on_reply, w, left);
        if (r == -ENOTCONN || r == -ECONNRESET || r == -EPIPE) {
                w->bus_lost = true;
                return JOB_WAIT_BUS_LOST;
        }
        if (r < 0)
                return r;
        stop = pump(w, deadline, PUMP_JOB);
        /* a reply that comes after this is dropped by sd-bus: nobody waits for it any more */
        w->slot_call = sd_bus_slot_unref(w->slot_call);
        if (w->oom)
                return -ENOMEM;
        return status_after(w, stop);
}

int job_wait_idle(JobWait *w, uint64_t deadline) {
        PumpStop stop = pump(w, deadline, PUMP_IDLE);

        if (w->oom)
                return -ENOMEM;
        if (stop == PUMP_BUS_ERROR || w->bus_lost)
                return JOB_WAIT_BUS_LOST;
        if (w->manager_lost)
                return JOB_WAIT_MANAGER_GONE;
        if (w->cancel && *w->cancel)
                return JOB_WAIT_INTERRUPTED;
        return JOB_WAIT_DEADLINE;
}
