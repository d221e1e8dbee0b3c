/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Running a transient unit (transient.h): StartTransientUnit, UnitExists handled, the job waited for, the
 * outcome and the unit's details read, cleanup after an unknown outcome. Properties are transient-props.c's,
 * explanations transient-explain.c's. */

#include <inttypes.h>
#include <stdarg.h>

#include "live/bus-util.h"
#include "live/job-wait.h"
#include "live/transient.h"

/* ---- outcomes */

static const char * const outcome_table[_TRANSIENT_OUTCOME_MAX] = {
        [TRANSIENT_DONE] = "done",
        [TRANSIENT_SKIPPED] = "skipped",
        [TRANSIENT_CANCELED] = "canceled",
        [TRANSIENT_FAILED] = "failed",
        [TRANSIENT_JOB_TIMEOUT] = "job-timeout",
        [TRANSIENT_DEPENDENCY] = "dependency",
        [TRANSIENT_INVALID] = "invalid",
        [TRANSIENT_ASSERT] = "assert",
        [TRANSIENT_UNSUPPORTED] = "unsupported",
        [TRANSIENT_ONCE] = "once",
        [TRANSIENT_UNEXPECTED] = "unexpected-result",
        [TRANSIENT_TIMEOUT] = "timeout",
        [TRANSIENT_BUS_LOST] = "bus-lost",
        [TRANSIENT_MANAGER_GONE] = "manager-gone",
        [TRANSIENT_INTERRUPTED] = "interrupted",
        [TRANSIENT_CALL_FAILED] = "call-failed",
        [TRANSIENT_ALREADY_RUNNING] = "already-running",
        [TRANSIENT_NAME_CLASH] = "name-clash",
        [TRANSIENT_NAME_IN_USE] = "name-in-use",
        [TRANSIENT_SETUP_FAILED] = "setup-failed",
};

const char *transient_outcome_to_string(TransientOutcome o) {
        return o >= 0 && o < _TRANSIENT_OUTCOME_MAX ? outcome_table[o] : NULL;
}

static const char * const verdict_table[_VERDICT_MAX] = {
        [VERDICT_DONE] = "done",
        [VERDICT_FAILED] = "failed",
        [VERDICT_UNKNOWN] = "unknown",
};

const char *transient_verdict_to_string(TransientVerdict v) {
        return v >= 0 && v < _VERDICT_MAX ? verdict_table[v] : NULL;
}

static const char * const cleanup_table[_TRANSIENT_CLEANUP_MAX] = {
        [CLEANUP_NONE] = "none",
        [CLEANUP_DONE] = "done",
        [CLEANUP_INCOMPLETE] = "incomplete",
};

const char *transient_cleanup_to_string(TransientCleanup c) {
        return c >= 0 && c < _TRANSIENT_CLEANUP_MAX ? cleanup_table[c] : NULL;
}

TransientVerdict transient_verdict(const TransientResult *r) {
        switch (r->outcome) {
        case TRANSIENT_DONE:
                return VERDICT_DONE;
        case TRANSIENT_FAILED:
        case TRANSIENT_JOB_TIMEOUT:
        case TRANSIENT_DEPENDENCY:
        case TRANSIENT_INVALID:
        case TRANSIENT_ASSERT:
        case TRANSIENT_UNSUPPORTED:
        case TRANSIENT_ONCE:
        case TRANSIENT_UNEXPECTED:
                return VERDICT_FAILED;
        default:
                return VERDICT_UNKNOWN;
        }
}

static TransientOutcome outcome_from_job_result(const char *result) {
        static const struct {
                const char *result;
                TransientOutcome outcome;
        } map[] = {
                { "done", TRANSIENT_DONE },
                { "skipped", TRANSIENT_SKIPPED },
                { "canceled", TRANSIENT_CANCELED },
                { "collected", TRANSIENT_CANCELED },
                { "failed", TRANSIENT_FAILED },
                { "timeout", TRANSIENT_JOB_TIMEOUT },
                { "dependency", TRANSIENT_DEPENDENCY },
                { "invalid", TRANSIENT_INVALID },
                { "assert", TRANSIENT_ASSERT },
                { "unsupported", TRANSIENT_UNSUPPORTED },
                { "once", TRANSIENT_ONCE },
        };
        for (size_t i = 0; i < ELEMENTSOF(map); i++)
                if (streq(map[i].result, result))
                        return map[i].outcome;
        return TRANSIENT_UNEXPECTED;
}

void transient_result_done(TransientResult *r) {
        free(r->job_result);
        sd_bus_error_free(&r->error);
        free(r->active_state);
        free(r->sub_state);
        free(r->fragment_path);
        free(r->service_result);
        free(r->invocation_id);
        free(r->cleanup_detail);
        *r = (TransientResult) { .exec_main_code = -1 };
}

/* ---- synchronous helper calls, each bounded by a deadline */

/* A call with the time left until deadline. Returns 0, -ETIMEDOUT when no time is left, or the call's error
 * (error set for method errors). Afterwards pending signals are processed, so a lost bus or manager shows. */
static int call_bounded(JobWait *w, sd_bus_message *m, uint64_t deadline, sd_bus_error *error,
                        sd_bus_message **reply) {
        uint64_t left = deadline_remaining(deadline);
        int r;

        if (left == 0)
                return -ETIMEDOUT;
        r = sd_bus_call(w->bus, m, left, error, reply);
        if (r < 0)
                for (int i = 0; i < 64 && sd_bus_process(w->bus, NULL) > 0; i++)
                        ;
        return r;
}

static int manager_call(JobWait *w, const char *member, uint64_t deadline, sd_bus_error *error,
                        sd_bus_message **reply, const char *types, ...) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        va_list ap;
        int r;

        r = bus_new_manager_call(w->bus, SD_PATH, SD_IFACE_MANAGER, member, &m);
        if (r < 0)
                return r;
        va_start(ap, types);
        r = sd_bus_message_appendv(m, types, ap);
        va_end(ap);
        if (r < 0)
                return r;
        return call_bounded(w, m, deadline, error, reply);
}

typedef struct UnitState {
        char *active_state, *sub_state, *fragment_path, *invocation_id;
        bool transient;
        uint32_t job_id;
        char *result;
        int exec_main_code, exec_main_status;
} UnitState;

static void unit_state_done(UnitState *s) {
        free(s->active_state);
        free(s->sub_state);
        free(s->fragment_path);
        free(s->invocation_id);
        free(s->result);
        *s = (UnitState) {};
}

static int read_getall(sd_bus_message *reply, UnitState *st) {
        int r;

        r = sd_bus_message_enter_container(reply, 'a', "{sv}");
        if (r < 0)
                return r;
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                const char *name, *contents, *s;
                char type;

                r = sd_bus_message_read(reply, "s", &name);
                if (r >= 0)
                        r = sd_bus_message_peek_type(reply, &type, &contents);
                if (r < 0)
                        return r;
                if (streq(contents, "s") &&
                    (streq(name, "ActiveState") || streq(name, "SubState") || streq(name, "FragmentPath") ||
                     streq(name, "Result"))) {
                        r = sd_bus_message_read(reply, "v", "s", &s);
                        if (r >= 0)
                                r = free_and_strdup(streq(name, "ActiveState") ? &st->active_state :
                                            streq(name, "SubState")    ? &st->sub_state :
                                            streq(name, "Result")      ? &st->result :
                                                                         &st->fragment_path,
                                            s);
                } else if (streq(contents, "b") && streq(name, "Transient")) {
                        int b;
                        r = sd_bus_message_read(reply, "v", "b", &b);
                        st->transient = b;
                } else if (streq(contents, "(uo)") && streq(name, "Job"))
                        r = sd_bus_message_read(reply, "v", "(uo)", &st->job_id, NULL);
                else if (streq(contents, "i") && streq(name, "ExecMainCode"))
                        r = sd_bus_message_read(reply, "v", "i", &st->exec_main_code);
                else if (streq(contents, "i") && streq(name, "ExecMainStatus"))
                        r = sd_bus_message_read(reply, "v", "i", &st->exec_main_status);
                else if (streq(contents, "ay") && streq(name, "InvocationID")) {
                        const uint8_t *p;
                        size_t n;
                        r = sd_bus_message_enter_container(reply, 'v', "ay");
                        if (r >= 0)
                                r = sd_bus_message_read_array(reply, 'y', (const void **) &p, &n);
                        if (r >= 0)
                                r = sd_bus_message_exit_container(reply);
                        if (r >= 0 && n == 16) {
                                char h[33];
                                for (size_t i = 0; i < 16; i++)
                                        snprintf(h + 2 * i, 3, "%02x", p[i]);
                                r = free_and_strdup(&st->invocation_id, h);
                        }
                } else
                        r = sd_bus_message_skip(reply, "v");
                if (r < 0)
                        return r;
                r = sd_bus_message_exit_container(reply);
                if (r < 0)
                        return r;
        }
        if (r < 0)
                return r;
        return sd_bus_message_exit_container(reply);
}

static bool error_is_gone(const sd_bus_error *e) {
        return sd_bus_error_has_name(e, SD_DEST ".NoSuchUnit") ||
               sd_bus_error_has_name(e, "org.freedesktop.DBus.Error.UnknownObject") ||
               sd_bus_error_has_name(e, "org.freedesktop.DBus.Error.UnknownInterface");
}

/* GetUnit + GetAll of the interfaces given. Returns 1 when read, 0 when the unit is not loaded (any more),
 * or -errno (-ETIMEDOUT when the deadline passed; error set for other method errors). */
static int unit_state_read(JobWait *w, const char *name, bool service, uint64_t deadline, UnitState *st,
                           sd_bus_error *error) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        _cleanup_(freep) char *path = NULL;
        const char *ifaces[2] = { SD_IFACE_UNIT, service ? SD_IFACE_SERVICE : NULL };
        const char *p;
        int r;

        *st = (UnitState) { .exec_main_code = -1 };
        r = manager_call(w, "GetUnit", deadline, error, &reply, "s", name);
        if (r < 0)
                return error_is_gone(error) ? (sd_bus_error_free(error), 0) : r;
        r = sd_bus_message_read(reply, "o", &p);
        if (r < 0)
                return r;
        path = strdup(p);
        if (!path)
                return -ENOMEM;
        for (size_t i = 0; i < ELEMENTSOF(ifaces) && ifaces[i]; i++) {
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL, *rep = NULL;
                r = bus_new_manager_call(w->bus, path, "org.freedesktop.DBus.Properties", "GetAll", &m);
                if (r >= 0)
                        r = sd_bus_message_append(m, "s", ifaces[i]);
                if (r >= 0)
                        r = call_bounded(w, m, deadline, error, &rep);
                if (r < 0)
                        return error_is_gone(error) ? (sd_bus_error_free(error), 0) : r;
                r = read_getall(rep, st);
                if (r < 0)
                        return r;
        }
        return 1;
}

/* ---- UnitExists */

typedef enum Decision {
        DECIDE_RETRY,
        DECIDE_ALREADY_RUNNING,
        DECIDE_NAME_CLASH,
        DECIDE_STOP, /* the result is set: return it */
} Decision;

static bool state_is_busy(const char *s) {
        static const char *const busy[] = { "active", "activating", "deactivating", "reloading",
                                            "refreshing" };
        for (size_t i = 0; s && i < ELEMENTSOF(busy); i++)
                if (streq(s, busy[i]))
                        return true;
        return false;
}

static int result_from_state(TransientResult *res, UnitState *st) {
        free(res->active_state);
        free(res->sub_state);
        free(res->fragment_path);
        res->active_state = TAKE_PTR(st->active_state);
        res->sub_state = TAKE_PTR(st->sub_state);
        res->fragment_path = TAKE_PTR(st->fragment_path);
        res->transient = st->transient;
        return 0;
}

/* Maps a failure of a helper call to the result; returns DECIDE_STOP. */
static Decision helper_failed(JobWait *w, TransientResult *res, int r, sd_bus_error *error,
                              const char *phase) {
        res->phase = phase;
        if (w->cancel && *w->cancel)
                res->outcome = TRANSIENT_INTERRUPTED;
        else if (w->bus_lost || r == -ECONNRESET || r == -ENOTCONN)
                res->outcome = TRANSIENT_BUS_LOST;
        else if (w->manager_lost)
                res->outcome = TRANSIENT_MANAGER_GONE;
        else if (r == -ETIMEDOUT || sd_bus_error_has_name(error, "org.freedesktop.DBus.Error.NoReply"))
                res->outcome = TRANSIENT_TIMEOUT;
        else {
                res->outcome = TRANSIENT_CALL_FAILED;
                if (sd_bus_error_is_set(error))
                        (void) sd_bus_error_copy(&res->error, error);
                else
                        (void) sd_bus_error_set_errno(&res->error, r);
        }
        return DECIDE_STOP;
}

static Decision unit_exists(JobWait *w, const TransientRequest *req, unsigned attempt, uint64_t deadline,
                            TransientResult *res) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(unit_state_done) UnitState st = {};
        uint64_t backoff = (req->backoff ?: 100 * USEC_PER_MSEC) * attempt;
        int r;

        r = unit_state_read(w, req->name, false, deadline, &st, &error);
        if (r < 0)
                return helper_failed(w, res, r, &error, "inspecting the unit in the way");
        if (r == 0) /* gone meanwhile */
                return DECIDE_RETRY;
        if (!st.transient ||
            (!isempty(st.fragment_path) && !startswith(st.fragment_path, "/run/systemd/transient/"))) {
                result_from_state(res, &st);
                return DECIDE_NAME_CLASH;
        }
        if (state_is_busy(st.active_state) || st.job_id != 0) {
                result_from_state(res, &st);
                return DECIDE_ALREADY_RUNNING;
        }
        if (streq_ptr(st.active_state, "failed")) {
                /* a stale failed transient unit (CollectMode=inactive keeps it): clear it; GC unloads it */
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
                res->resets++;
                r = manager_call(w, "ResetFailedUnit", deadline, &error, &reply, "s", req->name);
                if (r < 0 && !error_is_gone(&error))
                        return helper_failed(w, res, r, &error, "resetting the failed unit in the way");
        }
        result_from_state(res, &st);
        /* GC runs inside PID 1 after the reset, or whoever pins the unit lets go: give it a moment */
        r = job_wait_idle(w, MIN(deadline, deadline_after(backoff)));
        if (r < 0)
                return helper_failed(w, res, r, &error, "waiting before the retry");
        if (r != JOB_WAIT_DEADLINE)
                return helper_failed(w, res, r == JOB_WAIT_BUS_LOST ? -ECONNRESET : -EIO, &error,
                                     "waiting before the retry");
        if (deadline_remaining(deadline) == 0)
                return helper_failed(w, res, -ETIMEDOUT, &error, "waiting before the retry");
        return DECIDE_RETRY;
}

/* ---- cleanup after an unknown outcome: stop (cancels a pending start, stops processes), then reset */

static void cleanup_by_name(JobWait *w, const TransientRequest *req, TransientResult *res) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *stop = NULL, *reply = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        uint64_t deadline = deadline_after(req->cleanup_budget ?: 5 * USEC_PER_SEC);
        const char *what = NULL;
        int r, st;

        /* an interruption ends the wait, not the cleanup (it has its own small budget) */
        w->cancel = NULL;
        res->cleanup = CLEANUP_INCOMPLETE;
        if (w->bus_lost || w->manager_lost) {
                (void) free_and_strdup(&res->cleanup_detail, "not attempted: systemd is not reachable any more");
                return;
        }
        r = bus_new_manager_call(w->bus, SD_PATH, SD_IFACE_MANAGER, "StopUnit", &stop);
        if (r >= 0)
                r = sd_bus_message_append(stop, "ss", req->name, "replace");
        if (r < 0) {
                (void) free_and_strdup(&res->cleanup_detail, "could not build the StopUnit call");
                return;
        }
        st = job_wait_call(w, stop, deadline);
        if (st == JOB_WAIT_CALL_FAILED && error_is_gone(&w->error))
                what = NULL; /* nothing loaded: nothing to stop */
        else if (st == JOB_WAIT_DEADLINE)
                what = w->reply == JOB_REPLY_PENDING ?
                               "StopUnit got no reply within the cleanup budget" :
                               "the stop job did not finish within the cleanup budget";
        else if (st == JOB_WAIT_CALL_FAILED) {
                char buf[512];
                (void) asprintf_safe(&res->cleanup_detail, "StopUnit failed: %s",
                                     bus_error_describe(&w->error, 0, buf));
                return;
        } else if (st != JOB_WAIT_FINISHED) {
                (void) asprintf_safe(&res->cleanup_detail, "stopping: %s",
                                     st < 0 ? strerror(-st) : job_wait_status_to_string(st));
                return;
        }
        if (what) {
                (void) free_and_strdup(&res->cleanup_detail, what);
                return;
        }
        r = manager_call(w, "ResetFailedUnit", deadline, &error, &reply, "s", req->name);
        if (r < 0 && !error_is_gone(&error)) {
                char buf[512];
                (void) asprintf_safe(&res->cleanup_detail, "ResetFailedUnit: %s",
                                     r == -ETIMEDOUT ? "the cleanup budget ran out" :
                                                       bus_error_describe(&error, r, buf));
                return;
        }
        res->cleanup = CLEANUP_DONE;
}

/* ---- after the job: what the unit says, then let go of it */

static void read_details(JobWait *w, const TransientRequest *req, uint64_t deadline, TransientResult *res) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(unit_state_done) UnitState st = {};
        uint64_t release = deadline_after(req->cleanup_budget ?: 5 * USEC_PER_SEC);
        int r;

        /* the job result is known: the details get at least a moment even when the deadline is near */
        r = unit_state_read(w, req->name, true, MAX(deadline, deadline_after(USEC_PER_SEC)), &st, &error);
        if (r <= 0) {
                res->details_missing = true;
                return;
        }
        res->service_result = TAKE_PTR(st.result);
        res->exec_main_code = st.exec_main_code;
        res->exec_main_status = st.exec_main_status;
        res->invocation_id = TAKE_PTR(st.invocation_id);
        bool failed = streq_ptr(st.active_state, "failed");
        result_from_state(res, &st);

        /* leave nothing behind: drop our reference (AddRef=yes), clear a failed state */
        if (req->unref) {
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
                sd_bus_error_free(&error);
                (void) manager_call(w, "UnrefUnit", release, &error, &reply, "s", req->name);
        }
        if (failed) {
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
                sd_bus_error_free(&error);
                (void) manager_call(w, "ResetFailedUnit", release, &error, &reply, "s", req->name);
        }
}

int transient_run(sd_bus *bus, const TransientRequest *req, TransientResult *res) {
        _cleanup_(job_wait_done) JobWait w = {};
        uint64_t t0 = now_usec(), deadline = deadline_after(req->budget);
        int st = JOB_WAIT_CALL_FAILED, r;

        *res = (TransientResult) { .exec_main_code = -1, .error = SD_BUS_ERROR_NULL };

        r = job_wait_init(&w, bus, req->name, deadline, req->cancel);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                res->phase = "installing the match rules";
                res->outcome = r == -ETIMEDOUT   ? TRANSIENT_TIMEOUT :
                               r == -EINTR       ? TRANSIENT_INTERRUPTED :
                               r == -ECONNRESET  ? TRANSIENT_BUS_LOST :
                                                   TRANSIENT_SETUP_FAILED;
                if (sd_bus_error_is_set(&w.match_bus_error))
                        (void) sd_bus_error_copy(&res->error, &w.match_bus_error);
                else
                        (void) sd_bus_error_set_errno(&res->error, r);
                goto finish;
        }

        for (unsigned attempt = 1; attempt <= 3; attempt++) {
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
                Decision d;

                r = bus_new_manager_call(bus, SD_PATH, SD_IFACE_MANAGER, "StartTransientUnit", &m);
                if (r >= 0)
                        r = sd_bus_message_append(m, "ss", req->name, req->mode ?: "fail");
                if (r >= 0)
                        r = sd_bus_message_open_container(m, 'a', "(sv)");
                if (r >= 0)
                        r = transient_props_append(req->props, m);
                if (r >= 0)
                        r = sd_bus_message_close_container(m);
                if (r >= 0)
                        r = sd_bus_message_append(m, "a(sa(sv))", 0);
                if (r < 0)
                        return r;
                res->attempts++;
                st = job_wait_call(&w, m, deadline);
                if (st < 0)
                        return st;
                if (st != JOB_WAIT_CALL_FAILED || !sd_bus_error_has_name(&w.error, SD_DEST ".UnitExists"))
                        break;
                if (attempt == 3) {
                        res->outcome = TRANSIENT_NAME_IN_USE;
                        (void) sd_bus_error_copy(&res->error, &w.error);
                        goto finish;
                }
                d = unit_exists(&w, req, attempt, deadline, res);
                if (d == DECIDE_ALREADY_RUNNING) {
                        res->outcome = TRANSIENT_ALREADY_RUNNING;
                        goto finish;
                }
                if (d == DECIDE_NAME_CLASH) {
                        res->outcome = TRANSIENT_NAME_CLASH;
                        goto finish;
                }
                if (d == DECIDE_STOP)
                        goto finish;
        }

        switch (st) {
        case JOB_WAIT_FINISHED:
                res->job_result = strdup(w.result);
                if (!res->job_result)
                        return -ENOMEM;
                res->outcome = outcome_from_job_result(w.result);
                read_details(&w, req, deadline, res);
                break;
        case JOB_WAIT_CALL_FAILED:
                if (sd_bus_error_has_name(&w.error, "org.freedesktop.DBus.Error.NoReply")) {
                        /* the call timed out: it may have been carried out */
                        res->outcome = TRANSIENT_TIMEOUT;
                        res->phase = "waiting for the reply (NoReply)";
                        (void) sd_bus_error_copy(&res->error, &w.error);
                        cleanup_by_name(&w, req, res);
                } else {
                        res->outcome = TRANSIENT_CALL_FAILED;
                        (void) sd_bus_error_copy(&res->error, &w.error);
                }
                break;
        case JOB_WAIT_DEADLINE:
                res->outcome = TRANSIENT_TIMEOUT;
                res->phase =
                        w.reply == JOB_REPLY_PENDING ? "waiting for the reply" : "waiting for JobRemoved";
                cleanup_by_name(&w, req, res);
                break;
        case JOB_WAIT_INTERRUPTED:
                res->outcome = TRANSIENT_INTERRUPTED;
                res->phase =
                        w.reply == JOB_REPLY_PENDING ? "waiting for the reply" : "waiting for JobRemoved";
                cleanup_by_name(&w, req, res);
                break;
        case JOB_WAIT_BUS_LOST:
                res->outcome = TRANSIENT_BUS_LOST;
                res->phase =
                        w.reply == JOB_REPLY_PENDING ? "waiting for the reply" : "waiting for JobRemoved";
                break;
        case JOB_WAIT_MANAGER_GONE:
                res->outcome = TRANSIENT_MANAGER_GONE;
                res->phase = w.manager_changed ? "systemd was restarted or replaced during the wait" :
                                                 "systemd left the bus during the wait";
                break;
        }
finish:
        res->ignored_signals = w.n_ignored + w.n_malformed;
        res->early_dropped = w.n_early_dropped;
        res->elapsed_usec = now_usec() - t0;
        return 0;
}
