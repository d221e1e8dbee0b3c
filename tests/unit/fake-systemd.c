/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fake-systemd: a small org.freedesktop.systemd1 for tests, on whatever bus DBUS_SYSTEM_BUS_ADDRESS names.
 * It does what real systemd will not do on demand (knowledge/dbus-jobs.md §5): late, missing, duplicated or
 * malformed JobRemoved signals, replies of the wrong type, leaving the bus, floods. One scenario per run:
 *
 *   fake-systemd SCENARIO[:ARG...] --log=FILE [--daemon-pid=PID]
 *
 * It prints "READY" on stdout once it owns the name, logs every method call it gets (and the properties of
 * StartTransientUnit) to FILE, one line each, flushed before it answers, and runs until SIGTERM or until the
 * scenario makes it leave. Units the fake holds are served at /org/freedesktop/systemd1/unit/... with the
 * Unit and Service properties bootrace reads; the "live" scenario holds a small booted system for the live
 * loader and the critical chain. */

#include <signal.h>
#include <stdarg.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "live/bus-util.h"

#define MSEC 1000ULL

typedef struct FakeUnit {
        char *name;
        char *path;
        char *description;
        char *load_state, *active_state, *sub_state;
        char *fragment;
        int transient;
        int default_deps;
        uint32_t job_id;
        char *result;
        int32_t exec_code, exec_status;
        char **names, **after, **before, **requires, **wants, **dropins;
        uint64_t ts_inactive_exit, ts_active_enter, ts_active_exit, ts_inactive_enter;
        uint8_t invocation[16];
} FakeUnit;

static struct {
        sd_bus *bus;
        sd_bus *bus2;          /* a second connection: replacement manager (S20), spoofed signals (S5) */
        sd_event *event;
        FILE *log;
        char scenario[64];
        char arg1[64], arg2[64], arg3[64];
        pid_t daemon_pid;
        FakeUnit **units;
        size_t n_units;
        uint32_t next_job;
        unsigned n_start; /* StartTransientUnit calls seen */
        sd_bus_message *held; /* a call answered later */
} F = { .next_job = 1 };

static bool is(const char *s) {
        return streq(F.scenario, s);
}

static void logf_(const char *fmt, ...) _printf_(1, 2);
static void logf_(const char *fmt, ...) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(F.log, fmt, ap);
        va_end(ap);
        fputc('\n', F.log);
        fflush(F.log);
}

/* ---- units */

static FakeUnit *unit_find(const char *name) {
        for (size_t i = 0; i < F.n_units; i++)
                if (streq(F.units[i]->name, name))
                        return F.units[i];
        return NULL;
}

/* LoadUnit/GetUnit also know the aliases: those in Names, and default.target, which (as for a real PID 1
 * that has not loaded the alias yet) is not among multi-user.target's Names */
static FakeUnit *unit_find_alias(const char *name) {
        FakeUnit *u = unit_find(name);

        if (u)
                return u;
        for (size_t i = 0; i < F.n_units; i++)
                if (strv_contains(F.units[i]->names, name))
                        return F.units[i];
        if (is("live") && streq(name, "default.target"))
                return unit_find("multi-user.target");
        return NULL;
}

static FakeUnit *unit_find_path(const char *path) {
        for (size_t i = 0; i < F.n_units; i++)
                if (streq(F.units[i]->path, path))
                        return F.units[i];
        return NULL;
}

static void unit_free(FakeUnit *u) {
        free(u->name);
        free(u->path);
        free(u->description);
        free(u->load_state);
        free(u->active_state);
        free(u->sub_state);
        free(u->fragment);
        free(u->result);
        strv_free(u->names);
        strv_free(u->after);
        strv_free(u->before);
        strv_free(u->requires);
        strv_free(u->wants);
        strv_free(u->dropins);
        free(u);
}

static void unit_remove(const char *name) {
        for (size_t i = 0; i < F.n_units; i++)
                if (streq(F.units[i]->name, name)) {
                        unit_free(F.units[i]);
                        memmove(F.units + i, F.units + i + 1, (F.n_units - i - 1) * sizeof(FakeUnit *));
                        F.n_units--;
                        return;
                }
}

static void set(char **p, const char *v) {
        free(*p);
        *p = strdup(v);
        if (!*p)
                abort();
}

static FakeUnit *unit_add(const char *name, const char *active, const char *sub, int transient,
                          const char *fragment) {
        FakeUnit *u = calloc(1, sizeof(FakeUnit));
        FakeUnit **a = realloc(F.units, (F.n_units + 1) * sizeof(FakeUnit *));

        if (!u || !a)
                abort();
        F.units = a;
        F.units[F.n_units++] = u;
        set(&u->name, name);
        u->path = bus_unit_path(name);
        set(&u->description, name);
        set(&u->load_state, "loaded");
        set(&u->active_state, active);
        set(&u->sub_state, sub);
        set(&u->fragment, fragment);
        set(&u->result, "success");
        u->transient = transient;
        u->default_deps = 1;
        if (!u->path || strv_extend(&u->names, name) < 0)
                abort();
        for (size_t i = 0; i < 16; i++)
                u->invocation[i] = (uint8_t) (0x10 + i + F.n_units);
        return u;
}

static void unit_state(FakeUnit *u, const char *active, const char *sub, const char *result, int code,
                       int status) {
        set(&u->active_state, active);
        set(&u->sub_state, sub);
        set(&u->result, result);
        u->exec_code = code;
        u->exec_status = status;
        u->job_id = 0;
}

/* ---- signals and timers */

static char *job_path(uint32_t id) {
        char *p = NULL;
        if (asprintf_safe(&p, SD_PATH "/job/%" PRIu32, id) < 0)
                abort();
        return p;
}

static void emit_job_removed_on(sd_bus *bus, uint32_t id, const char *unit, const char *result) {
        _cleanup_(freep) char *p = job_path(id);
        int r = sd_bus_emit_signal(bus, SD_PATH, SD_IFACE_MANAGER, "JobRemoved", "uoss", id, p, unit,
                                   result);
        if (r < 0)
                logf_("EMIT-FAILED %s", strerror(-r));
}

static void emit_job_removed(uint32_t id, const char *unit, const char *result) {
        emit_job_removed_on(F.bus, id, unit, result);
}

typedef struct Later {
        void (*fn)(struct Later *l);
        uint32_t id;
        char unit[256];
        char result[64];
} Later;

static int later_cb(sd_event_source *s, uint64_t usec, void *userdata) {
        Later *l = userdata;
        l->fn(l);
        free(l);
        sd_event_source_unref(s);
        return 0;
}

static void later(uint64_t msec, void (*fn)(Later *l), uint32_t id, const char *unit, const char *result) {
        Later *l = calloc(1, sizeof(Later));
        sd_event_source *s;
        uint64_t now;

        if (!l)
                abort();
        *l = (Later) { .fn = fn, .id = id };
        snprintf(l->unit, sizeof l->unit, "%s", strempty(unit));
        snprintf(l->result, sizeof l->result, "%s", strempty(result));
        sd_event_now(F.event, CLOCK_MONOTONIC, &now);
        if (sd_event_add_time(F.event, &s, CLOCK_MONOTONIC, now + msec * MSEC, 0, later_cb, l) < 0)
                abort();
}

/* the job ends: the unit takes the state that goes with the result, then JobRemoved */
static void finish_job(Later *l) {
        FakeUnit *u = unit_find(l->unit);

        if (u && u->job_id == l->id) {
                if (streq(l->result, "done"))
                        unit_state(u, "inactive", "dead", "success", 1, 0);
                else if (streq(l->result, "failed")) {
                        int code = 1, status = 1;
                        const char *res = "exit-code";
                        if (is("S15")) {
                                res = F.arg1;
                                code = *F.arg2 ? atoi(F.arg2) : 0;
                                status = *F.arg3 ? atoi(F.arg3) : 0;
                        }
                        unit_state(u, "failed", "failed", res, code, status);
                } else
                        unit_state(u, "inactive", "dead", "success", 0, 0);
        }
        if (is("S16"))
                unit_remove(l->unit); /* collected before anybody could read it */
        emit_job_removed(l->id, l->unit, l->result);
}

static void emit_later(Later *l) {
        emit_job_removed(l->id, l->unit, l->result);
}

static void leave_bus(Later *l) {
        logf_("LEAVING");
        sd_bus_flush(F.bus);
        sd_event_exit(F.event, 0);
}

static void kill_daemon(Later *l) {
        logf_("KILLING-DAEMON %s", l->result);
        if (F.daemon_pid > 0)
                kill(F.daemon_pid, streq(l->result, "term") ? SIGTERM : SIGKILL);
}

static void replace_manager(Later *l) {
        int r;

        r = sd_bus_open_system(&F.bus2);
        if (r >= 0)
                r = sd_bus_request_name(F.bus2, SD_DEST, SD_BUS_NAME_REPLACE_EXISTING);
        logf_("REPLACED %s", r < 0 ? strerror(-r) : "ok");
}

static void replacement_job_removed(Later *l) {
        if (F.bus2)
                emit_job_removed_on(F.bus2, l->id, l->unit, l->result);
        sd_bus_flush(F.bus2);
}

static void reply_held(Later *l) {
        if (!F.held)
                return;
        logf_("LATE-REPLY");
        _cleanup_(freep) char *p = job_path(l->id);
        (void) sd_bus_reply_method_return(F.held, "o", p);
        F.held = sd_bus_message_unref(F.held);
}

/* ---- StartTransientUnit */

static void log_props(sd_bus_message *m) {
        int r;

        r = sd_bus_message_enter_container(m, 'a', "(sv)");
        if (r < 0)
                return;
        while (sd_bus_message_enter_container(m, 'r', "sv") > 0) {
                const char *name, *contents, *s;
                char type;
                int b;
                uint32_t u;
                char line[4096] = "";
                size_t n = 0;

                if (sd_bus_message_read(m, "s", &name) < 0 ||
                    sd_bus_message_peek_type(m, &type, &contents) < 0)
                        return;
                if (streq(contents, "b") && sd_bus_message_read(m, "v", "b", &b) >= 0)
                        snprintf(line, sizeof line, "%s", b ? "yes" : "no");
                else if (streq(contents, "s") && sd_bus_message_read(m, "v", "s", &s) >= 0)
                        snprintf(line, sizeof line, "%s", s);
                else if (streq(contents, "u") && sd_bus_message_read(m, "v", "u", &u) >= 0)
                        snprintf(line, sizeof line, "%04o", u);
                else if (streq(contents, "as")) {
                        char **l = NULL;
                        if (bus_read_strv_variant(m, &l) < 0)
                                return;
                        STRV_FOREACH(x, l)
                        n += snprintf(line + n, sizeof line - MIN(n, sizeof line), "%s%s", n ? " " : "", *x);
                        strv_free(l);
                } else if (streq(contents, "a(sasb)")) {
                        char **argv = NULL;
                        const char *path;
                        int ign;
                        if (sd_bus_message_enter_container(m, 'v', "a(sasb)") < 0 ||
                            sd_bus_message_enter_container(m, 'a', "(sasb)") < 0 ||
                            sd_bus_message_enter_container(m, 'r', "sasb") < 0 ||
                            sd_bus_message_read(m, "s", &path) < 0 ||
                            sd_bus_message_read_strv(m, &argv) < 0 || sd_bus_message_read(m, "b", &ign) < 0)
                                return;
                        n += snprintf(line, sizeof line, "%s", path);
                        for (size_t i = 1; argv && argv[0] && argv[i]; i++)
                                n += snprintf(line + n, sizeof line - MIN(n, sizeof line), " %s", argv[i]);
                        strv_free(argv);
                        for (int k = 0; k < 3; k++)
                                (void) sd_bus_message_exit_container(m);
                } else if (streq(contents, "a(ssbt)")) {
                        const char *a, *b2;
                        int ign;
                        uint64_t fl;
                        if (sd_bus_message_enter_container(m, 'v', "a(ssbt)") < 0 ||
                            sd_bus_message_enter_container(m, 'a', "(ssbt)") < 0)
                                return;
                        while (sd_bus_message_read(m, "(ssbt)", &a, &b2, &ign, &fl) > 0)
                                n += snprintf(line + n, sizeof line - MIN(n, sizeof line), "%s%s%s:%s:%s",
                                              n ? " " : "", ign ? "-" : "", a, b2, fl ? "rbind" : "norbind");
                        (void) sd_bus_message_exit_container(m);
                        (void) sd_bus_message_exit_container(m);
                } else if (streq(contents, "a(ss)")) {
                        const char *a, *b2;
                        if (sd_bus_message_enter_container(m, 'v', "a(ss)") < 0 ||
                            sd_bus_message_enter_container(m, 'a', "(ss)") < 0)
                                return;
                        while (sd_bus_message_read(m, "(ss)", &a, &b2) > 0)
                                n += snprintf(line + n, sizeof line - MIN(n, sizeof line), "%s%s:%s",
                                              n ? " " : "", a, b2);
                        (void) sd_bus_message_exit_container(m);
                        (void) sd_bus_message_exit_container(m);
                } else {
                        (void) sd_bus_message_skip(m, "v");
                        snprintf(line, sizeof line, "<%s>", contents);
                }
                logf_("PROP %s=%s", name, line);
                (void) sd_bus_message_exit_container(m);
        }
        (void) sd_bus_message_exit_container(m);
}

static int start_job(sd_bus_message *m, FakeUnit *u, uint32_t id, const char *result, uint64_t after_msec) {
        _cleanup_(freep) char *p = job_path(id);

        u->job_id = id;
        set(&u->active_state, "activating");
        set(&u->sub_state, "start");
        if (result)
                later(after_msec, finish_job, id, u->name, result);
        return sd_bus_reply_method_return(m, "o", p);
}

static int method_start_transient(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name, *mode;
        FakeUnit *u;
        uint32_t id;

        if (sd_bus_message_read(m, "ss", &name, &mode) < 0)
                return sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "bad arguments");
        logf_("CALL StartTransientUnit %s %s", name, mode);
        log_props(m);
        F.n_start++;

        if (is("S17"))
                return sd_bus_error_setf(error, F.arg1, "fake refusal (%s)", F.arg1);
        if (is("S19")) {
                logf_("LEAVING-WITHOUT-REPLY");
                sd_event_exit(F.event, 0);
                return 1;
        }

        u = unit_find(name);
        if (u && !is("S8")) {
                if (is("S13"))
                        unit_remove(name); /* it goes away right after saying it exists */
                return sd_bus_error_setf(error, SD_DEST ".UnitExists", "Unit %s was already loaded or has a "
                                         "fragment file.", name);
        }
        if (!u)
                u = unit_add(name, "inactive", "dead", 1, "");
        free(u->fragment);
        if (asprintf_safe(&u->fragment, "/run/systemd/transient/%s", name) < 0)
                abort();
        id = is("S27") ? 5 : F.next_job++;

        if (is("S2")) { /* the signal overtakes the reply */
                _cleanup_(freep) char *p = job_path(id);
                u->job_id = id;
                unit_state(u, "inactive", "dead", "success", 1, 0);
                emit_job_removed(id, name, "done");
                return sd_bus_reply_method_return(m, "o", p);
        }
        if (is("S3")) {
                emit_job_removed(900, "other.service", "failed");
                emit_job_removed(901, name, "failed"); /* our unit, another job */
                later(20, emit_later, 902, name, "failed");
                later(25, emit_later, 903, "other.service", "done");
                return start_job(m, u, id, "done", 60);
        }
        if (is("S4")) {
                later(40, emit_later, id, name, "failed"); /* the duplicate, after the first */
                return start_job(m, u, id, "done", 30);
        }
        if (is("S5")) {
                _cleanup_(sd_bus_message_unrefp) sd_bus_message *bad = NULL;
                if (sd_bus_message_new_signal(F.bus, &bad, SD_PATH, SD_IFACE_MANAGER, "JobRemoved") >= 0 &&
                    sd_bus_message_append(bad, "s", "garbage") >= 0)
                        (void) sd_bus_send(F.bus, bad, NULL);
                if (sd_bus_open_system(&F.bus2) >= 0) /* someone else, same signal, our job */
                        emit_job_removed_on(F.bus2, id, name, "failed");
                return start_job(m, u, id, "done", 300);
        }
        if (is("S6") || is("S25"))
                return start_job(m, u, id, NULL, 0);
        if (is("S7")) {
                u->job_id = id;
                F.held = sd_bus_message_ref(m);
                later(atoi(F.arg1), reply_held, id, name, NULL);
                return 1;
        }
        if (is("S8")) {
                if (F.n_start == 1)
                        return start_job(m, u, id, NULL, 0); /* never finishes: the client gives up */
                /* the first job's JobRemoved arrives late, during the second wait */
                emit_job_removed(1, name, "failed");
                return start_job(m, u, id, "done", 300);
        }
        if (is("S14"))
                return start_job(m, u, id, F.arg1, 30);
        if (is("S15") || is("S16"))
                return start_job(m, u, id, "failed", 30);
        if (is("S18")) {
                later(50, leave_bus, 0, NULL, NULL);
                return start_job(m, u, id, NULL, 0);
        }
        if (is("S20")) {
                later(50, replace_manager, 0, NULL, NULL);
                later(150, replacement_job_removed, id, name, "done");
                return start_job(m, u, id, NULL, 0);
        }
        if (is("S21")) {
                later(50, kill_daemon, 0, NULL, F.arg1);
                return start_job(m, u, id, NULL, 0);
        }
        if (is("S24")) {
                /* noise before the reply: other units, our unit with other jobs (more than the early buffer)
                 */
                for (unsigned i = 0; i < 2000; i++) {
                        char other[64];
                        snprintf(other, sizeof other, "noise-%u.service", i);
                        emit_job_removed(10000 + i, other, "done");
                        if (i < 100)
                                emit_job_removed(20000 + i, name, "failed");
                        (void) sd_bus_emit_signal(F.bus, SD_PATH, SD_IFACE_MANAGER, "UnitNew", "so", other,
                                                  "/org/freedesktop/systemd1/unit/noise");
                }
                return start_job(m, u, id, "done", 200);
        }
        if (is("S27")) {
                /* the same job path twice: the first run ends done, the second failed */
                return start_job(m, u, id, F.n_start == 1 ? "done" : "failed", 30);
        }
        if (is("S28"))
                return start_job(m, u, id, *F.arg1 ? NULL : "done", 1500);
        return start_job(m, u, id, "done", 50); /* S1 and the default */
}

static int method_stop_unit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name, *mode;
        FakeUnit *u;
        uint32_t id;
        _cleanup_(freep) char *p = NULL;

        if (sd_bus_message_read(m, "ss", &name, &mode) < 0)
                return -EINVAL;
        logf_("CALL StopUnit %s %s", name, mode);
        u = unit_find(name);
        if (!u)
                return sd_bus_error_setf(error, SD_DEST ".NoSuchUnit", "Unit %s not loaded.", name);
        if (is("S25") && streq(F.arg1, "noreply"))
                return 1; /* never answered */
        id = F.next_job++;
        p = job_path(id);
        if (u->job_id) /* a stop replaces the pending start: that job ends canceled */
                emit_job_removed(u->job_id, name, "canceled");
        u->job_id = id;
        if (!(is("S25") && streq(F.arg1, "nofinish")))
                later(20, finish_job, id, name, "done");
        return sd_bus_reply_method_return(m, "o", p);
}

static int method_reset_failed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name;
        FakeUnit *u;

        if (sd_bus_message_read(m, "s", &name) < 0)
                return -EINVAL;
        logf_("CALL ResetFailedUnit %s", name);
        u = unit_find(name);
        if (!u)
                return sd_bus_error_setf(error, SD_DEST ".NoSuchUnit", "Unit %s not loaded.", name);
        if (is("S11"))
                return sd_bus_reply_method_return(m, ""); /* survives */
        if (streq(u->active_state, "failed") || streq(u->active_state, "inactive"))
                unit_remove(name); /* reset, then garbage-collected */
        return sd_bus_reply_method_return(m, "");
}

static int method_get_unit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name;
        FakeUnit *u;

        if (sd_bus_message_read(m, "s", &name) < 0)
                return -EINVAL;
        logf_("CALL GetUnit %s", name);
        u = unit_find_alias(name);
        if (!u)
                return sd_bus_error_setf(error, SD_DEST ".NoSuchUnit", "Unit %s not loaded.", name);
        return sd_bus_reply_method_return(m, "o", u->path);
}

static int method_load_unit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name;
        FakeUnit *u;

        if (sd_bus_message_read(m, "s", &name) < 0)
                return -EINVAL;
        logf_("CALL LoadUnit %s", name);
        u = unit_find_alias(name);
        if (!u) {
                u = unit_add(name, "inactive", "dead", 0, "");
                set(&u->load_state, "not-found");
        }
        return sd_bus_reply_method_return(m, "o", u->path);
}

static int method_simple(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name = NULL;
        (void) sd_bus_message_read(m, "s", &name);
        logf_("CALL %s %s", sd_bus_message_get_member(m), strempty(name));
        return sd_bus_reply_method_return(m, "");
}

/* the last reference is gone: an inactive unit is garbage-collected (a failed one waits for ResetFailedUnit)
 */
static int method_unref(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        const char *name;
        FakeUnit *u;

        if (sd_bus_message_read(m, "s", &name) < 0)
                return -EINVAL;
        logf_("CALL UnrefUnit %s", name);
        u = unit_find(name);
        if (u && streq(u->active_state, "inactive") && u->job_id == 0)
                unit_remove(name);
        return sd_bus_reply_method_return(m, "");
}

static int method_list_units(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        int r;

        logf_("CALL ListUnits");
        r = sd_bus_message_new_method_return(m, &reply);
        if (r >= 0)
                r = sd_bus_message_open_container(reply, 'a', "(ssssssouso)");
        for (size_t i = 0; r >= 0 && i < F.n_units; i++) {
                FakeUnit *u = F.units[i];
                r = sd_bus_message_append(reply, "(ssssssouso)", u->name, u->description, u->load_state,
                                          u->active_state, u->sub_state, "", u->path, 0, "", "/");
        }
        if (r >= 0)
                r = sd_bus_message_close_container(reply);
        if (r < 0)
                return r;
        return sd_bus_send(NULL, reply, NULL);
}

/* ---- properties */

static uint64_t mgr_userspace = 5000000, mgr_finish = 6000000, mgr_security = 0;

static int prop_strv(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error) {
        FakeUnit *u = userdata;
        char **l = streq(property, "Names")       ? u->names :
                   streq(property, "After")       ? u->after :
                   streq(property, "Before")      ? u->before :
                   streq(property, "Requires")    ? u->requires :
                   streq(property, "Wants")       ? u->wants :
                   streq(property, "DropInPaths") ? u->dropins :
                                                    NULL;
        return sd_bus_message_append_strv(reply, l);
}

static int prop_job(sd_bus *bus, const char *path, const char *interface, const char *property,
                    sd_bus_message *reply, void *userdata, sd_bus_error *error) {
        FakeUnit *u = userdata;
        _cleanup_(freep) char *p = u->job_id ? job_path(u->job_id) : strdup("/");
        return sd_bus_message_append(reply, "(uo)", u->job_id, p);
}

static int prop_invocation(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error) {
        FakeUnit *u = userdata;
        return sd_bus_message_append_array(reply, 'y', u->invocation, 16);
}

static int prop_manager(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
        if (streq(property, "Version"))
                return sd_bus_message_append(reply, "s", "252.99-fake");
        if (streq(property, "Virtualization"))
                return sd_bus_message_append(reply, "s", "container-other");
        return sd_bus_message_append(reply, "t",
                                     streq(property, "UserspaceTimestampMonotonic") ? mgr_userspace :
                                     streq(property, "FinishTimestampMonotonic")    ? mgr_finish :
                                                                                      mgr_security);
}

static const sd_bus_vtable manager_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("StartTransientUnit", "ssa(sv)a(sa(sv))", "o", method_start_transient, 0),
        SD_BUS_METHOD("StopUnit", "ss", "o", method_stop_unit, 0),
        SD_BUS_METHOD("ResetFailedUnit", "s", "", method_reset_failed, 0),
        SD_BUS_METHOD("GetUnit", "s", "o", method_get_unit, 0),
        SD_BUS_METHOD("LoadUnit", "s", "o", method_load_unit, 0),
        SD_BUS_METHOD("RefUnit", "s", "", method_simple, 0),
        SD_BUS_METHOD("UnrefUnit", "s", "", method_unref, 0),
        SD_BUS_METHOD("Subscribe", "", "", method_simple, 0),
        SD_BUS_METHOD("ListUnits", "", "a(ssssssouso)", method_list_units, 0),
        SD_BUS_PROPERTY("Version", "s", prop_manager, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Virtualization", "s", prop_manager, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("UserspaceTimestampMonotonic", "t", prop_manager, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("FinishTimestampMonotonic", "t", prop_manager, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("SecurityStartTimestampMonotonic", "t", prop_manager, 0,
                        SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_SIGNAL("JobRemoved", "uoss", 0),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable unit_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Id", "s", NULL, offsetof(FakeUnit, name), 0),
        SD_BUS_PROPERTY("Names", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("Description", "s", NULL, offsetof(FakeUnit, description), 0),
        SD_BUS_PROPERTY("LoadState", "s", NULL, offsetof(FakeUnit, load_state), 0),
        SD_BUS_PROPERTY("ActiveState", "s", NULL, offsetof(FakeUnit, active_state), 0),
        SD_BUS_PROPERTY("SubState", "s", NULL, offsetof(FakeUnit, sub_state), 0),
        SD_BUS_PROPERTY("FragmentPath", "s", NULL, offsetof(FakeUnit, fragment), 0),
        SD_BUS_PROPERTY("DropInPaths", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("Transient", "b", NULL, offsetof(FakeUnit, transient), 0),
        SD_BUS_PROPERTY("DefaultDependencies", "b", NULL, offsetof(FakeUnit, default_deps), 0),
        SD_BUS_PROPERTY("Job", "(uo)", prop_job, 0, 0),
        SD_BUS_PROPERTY("InvocationID", "ay", prop_invocation, 0, 0),
        SD_BUS_PROPERTY("After", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("Before", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("Requires", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("Wants", "as", prop_strv, 0, 0),
        SD_BUS_PROPERTY("InactiveExitTimestampMonotonic", "t", NULL, offsetof(FakeUnit, ts_inactive_exit),
                        0),
        SD_BUS_PROPERTY("ActiveEnterTimestampMonotonic", "t", NULL, offsetof(FakeUnit, ts_active_enter), 0),
        SD_BUS_PROPERTY("ActiveExitTimestampMonotonic", "t", NULL, offsetof(FakeUnit, ts_active_exit), 0),
        SD_BUS_PROPERTY("InactiveEnterTimestampMonotonic", "t", NULL, offsetof(FakeUnit, ts_inactive_enter),
                        0),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable service_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Result", "s", NULL, offsetof(FakeUnit, result), 0),
        SD_BUS_PROPERTY("ExecMainCode", "i", NULL, offsetof(FakeUnit, exec_code), 0),
        SD_BUS_PROPERTY("ExecMainStatus", "i", NULL, offsetof(FakeUnit, exec_status), 0),
        SD_BUS_VTABLE_END,
};

static int find_unit(sd_bus *bus, const char *path, const char *interface, void *userdata, void **found,
                     sd_bus_error *error) {
        FakeUnit *u = unit_find_path(path);
        if (!u)
                return 0;
        if (interface && streq(interface, SD_IFACE_SERVICE) && !endswith(u->name, ".service"))
                return 0;
        *found = u;
        return 1;
}

/* ---- the booted system for the live tests: a.service <- b.target <- c.service, with an alias */

static void live_system(void) {
        FakeUnit *u;

        u = unit_add("local-fs.target", "active", "active", 0, "/lib/systemd/system/local-fs.target");
        u->ts_inactive_exit = 5100000;
        u->ts_active_enter = 5100000;
        strv_extend(&u->before, "early.service");
        u = unit_add("early.service", "active", "exited", 0, "/lib/systemd/system/early.service");
        u->ts_inactive_exit = 5100000;
        u->ts_active_enter = 5350000; /* +250 ms */
        strv_extend(&u->after, "local-fs.target");
        strv_extend(&u->requires, "local-fs.target");
        strv_extend(&u->names, "early-alias.service");
        strv_extend(&u->dropins, "/etc/systemd/system/early.service.d/override.conf");
        u = unit_add("other.service", "active", "exited", 0, "/lib/systemd/system/other.service");
        u->ts_inactive_exit = 5100000;
        u->ts_active_enter = 5200000;
        strv_extend(&u->after, "local-fs.target");
        u = unit_add("late.service", "active", "running", 0, "/etc/systemd/system/late.service");
        u->ts_inactive_exit = 5400000;
        u->ts_active_enter = 5401500; /* +1.5 ms */
        strv_extend(&u->after, "early.service");
        strv_extend(&u->after, "other.service");
        strv_extend(&u->after, "never.service");
        strv_extend(&u->wants, "early.service");
        u = unit_add("never.service", "inactive", "dead", 0, "/lib/systemd/system/never.service");
        u = unit_add("multi-user.target", "active", "active", 0, "/lib/systemd/system/multi-user.target");
        u->ts_inactive_exit = 5500000;
        u->ts_active_enter = 5500000;
        strv_extend(&u->after, "late.service");
        strv_extend(&u->wants, "late.service");
        u = unit_add("after-boot.service", "active", "running", 0, "/lib/systemd/system/after-boot.service");
        u->ts_inactive_exit = 6500000; /* after FinishTimestamp: never on a chain */
        u->ts_active_enter = 6600000;
}

static void preset_units(void) {
        FakeUnit *u;
        const char *name = "probe-test.service";

        if (is("S9"))
                unit_add(name, "failed", "failed", 1, "/run/systemd/transient/probe-test.service");
        else if (is("S10")) {
                if (streq(F.arg1, "job")) {
                        u = unit_add(name, "inactive", "dead", 1,
                                     "/run/systemd/transient/probe-test.service");
                        u->job_id = 77;
                } else
                        unit_add(name, F.arg1, streq(F.arg1, "active") ? "running" : "start", 1,
                                 "/run/systemd/transient/probe-test.service");
        } else if (is("S11"))
                unit_add(name, "inactive", "dead", 1, "/run/systemd/transient/probe-test.service");
        else if (is("S12"))
                unit_add(name, "failed", "failed", 0, "/etc/systemd/system/probe-test.service");
        else if (is("S13"))
                unit_add(name, "failed", "failed", 1, "/run/systemd/transient/probe-test.service");
        else if (is("live"))
                live_system();
}

/* S26: answer StartTransientUnit with a string. The vtable would enforce its declared "o", so this runs as a
 * filter, before the object dispatch. */
static int filter_wrong_type(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        if (!sd_bus_message_is_method_call(m, SD_IFACE_MANAGER, "StartTransientUnit"))
                return 0;
        logf_("CALL StartTransientUnit (answered with a string)");
        (void) sd_bus_reply_method_return(m, "s", "/org/freedesktop/systemd1/job/1");
        return 1;
}

static int on_term(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        sd_event_exit(F.event, 0);
        return 0;
}

int main(int argc, char *argv[]) {
        const char *log_path = NULL;
        sigset_t ss;
        char *c;
        int r;

        if (argc < 2) {
                fprintf(stderr, "usage: fake-systemd SCENARIO[:ARG...] --log=FILE [--daemon-pid=PID]\n");
                return 2;
        }
        snprintf(F.scenario, sizeof F.scenario, "%s", argv[1]);
        if ((c = strchr(F.scenario, ':'))) {
                *c++ = 0;
                char *d = strchr(c, ':');
                if (d)
                        *d++ = 0;
                snprintf(F.arg1, sizeof F.arg1, "%s", c);
                if (d) {
                        char *e = strchr(d, ':');
                        if (e)
                                *e++ = 0;
                        snprintf(F.arg2, sizeof F.arg2, "%s", d);
                        if (e)
                                snprintf(F.arg3, sizeof F.arg3, "%s", e);
                }
        }
        for (int i = 2; i < argc; i++) {
                if (startswith(argv[i], "--log="))
                        log_path = argv[i] + 6;
                else if (startswith(argv[i], "--daemon-pid="))
                        F.daemon_pid = atoi(argv[i] + 13);
        }
        F.log = log_path ? fopen(log_path, "ae") : stderr;
        if (!F.log)
                return 2;
        preset_units();

        sigemptyset(&ss);
        sigaddset(&ss, SIGTERM);
        sigaddset(&ss, SIGINT);
        sigprocmask(SIG_BLOCK, &ss, NULL);
        r = sd_event_default(&F.event);
        if (r >= 0)
                r = sd_event_add_signal(F.event, NULL, SIGTERM, on_term, NULL);
        if (r >= 0)
                r = sd_event_add_signal(F.event, NULL, SIGINT, on_term, NULL);
        if (r >= 0)
                r = sd_bus_open_system(&F.bus);
        if (r >= 0)
                r = sd_bus_attach_event(F.bus, F.event, 0);
        if (r >= 0)
                r = sd_bus_add_object_vtable(F.bus, NULL, SD_PATH, SD_IFACE_MANAGER, manager_vtable, NULL);
        if (r >= 0)
                r = sd_bus_add_fallback_vtable(F.bus, NULL, SD_PATH "/unit", SD_IFACE_UNIT, unit_vtable,
                                               find_unit, NULL);
        if (r >= 0)
                r = sd_bus_add_fallback_vtable(F.bus, NULL, SD_PATH "/unit", SD_IFACE_SERVICE,
                                               service_vtable, find_unit, NULL);
        if (r >= 0 && is("S26"))
                r = sd_bus_add_filter(F.bus, NULL, filter_wrong_type, NULL);
        /* the previous scenario's fake is gone, but the bus may not have dropped its name yet: it allowed
         * replacement, so take the name over instead of failing with -EEXIST */
        if (r >= 0)
                r = sd_bus_request_name(F.bus, SD_DEST, SD_BUS_NAME_ALLOW_REPLACEMENT | SD_BUS_NAME_REPLACE_EXISTING);
        if (r < 0) {
                fprintf(stderr, "fake-systemd: %s\n", strerror(-r));
                return 1;
        }
        {
                const char *unique = NULL;

                (void) sd_bus_get_unique_name(F.bus, &unique);
                printf("READY %s\n", unique ?: "?");
        }
        fflush(stdout);
        r = sd_event_loop(F.event);
        F.held = sd_bus_message_unref(F.held);
        sd_bus_flush_close_unref(F.bus2);
        sd_bus_flush_close_unref(F.bus);
        sd_event_unref(F.event);
        for (size_t i = 0; i < F.n_units; i++)
                unit_free(F.units[i]);
        free(F.units);
        if (F.log != stderr)
                fclose(F.log);
        return r < 0 ? 1 : 0;
}
