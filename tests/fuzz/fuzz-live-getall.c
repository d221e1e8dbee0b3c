/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes the parsing of GetAll(org.freedesktop.systemd1.Unit) replies (live_unit_from_getall()): what a
 * hostile or confused manager (systemctl --host to another machine, a fake bus) can send. The input is a
 * recipe for the message body, built with sd-bus on a bus that is never connected, so every message is
 * well-formed D-Bus and the parser meets what sd-bus would deliver:
 *
 *     byte 0           0x00..0xef: the body is a{sv}; 0xf0..: some other top-level type (s, as, a{ss}, ...)
 *     then per entry   a name byte (a property the parser knows, or a string from the input), a type byte
 *                      (s, as, b, t, (uo), ay, (ss), u, o, a(ss), i) and the value's bytes
 *
 * The parsed unit then goes through live_graph_edges() as a one-unit system. FUZZ_DEBUG=1 prints what an input
 * became. */

#include <inttypes.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "live/live.h"

#define ENTRIES_MAX 64

typedef struct Input {
        const uint8_t *p;
        size_t n;
} Input;

static uint8_t take(Input *in) {
        uint8_t b;

        if (in->n == 0)
                return 0;
        b = *in->p++;
        in->n--;
        return b;
}

/* A string of up to 255 bytes from the input (sd-bus refuses invalid UTF-8 and NULs: then append fails and
 * the entry is dropped, which is fine). */
static char *take_string(Input *in) {
        size_t want = take(in), l = MIN(want, in->n); /* MIN() evaluates twice: not take() in it */
        char *s = strndup_safe((const char *) in->p, l);

        in->p += l;
        in->n -= l;
        return s;
}

static uint64_t take_u64(Input *in) {
        uint64_t v = 0;

        for (unsigned i = 0; i < 8; i++)
                v = v << 8 | take(in);
        return v;
}

static const char *property_name(Input *in, char **buf) {
        static const char *const known[] = {
                "Id",
                "Names",
                "Description",
                "LoadState",
                "ActiveState",
                "SubState",
                "FragmentPath",
                "SourcePath",
                "DropInPaths",
                "Following",
                "Transient",
                "DefaultDependencies",
                "InactiveExitTimestampMonotonic",
                "ActiveEnterTimestampMonotonic",
                "ActiveExitTimestampMonotonic",
                "InactiveEnterTimestampMonotonic",
                "Job",
                "InvocationID",
                "LoadError",
                "Requires",
                "Wants",
                "After",
                "Before",
                "RequiresMountsFor",
                "WantsMountsFor",
                "Conflicts",
                "ConsistsOf",
                "TriggeredBy",
                "Upholds",
                "PartOf",
                "",
        };
        uint8_t b = take(in);

        if (b < ELEMENTSOF(known) * 6)
                return known[b % ELEMENTSOF(known)];
        *buf = take_string(in);
        return *buf ?: "";
}

/* Appends one value of the type chosen by t, as a variant. */
static int append_value(sd_bus_message *m, uint8_t t, Input *in) {
        _cleanup_(freep) char *a = NULL, *b = NULL;
        _cleanup_(strv_freep) char **l = NULL;
        uint8_t k;
        int r;

        switch (t % 11) {
        case 0:
                a = take_string(in);
                return sd_bus_message_append(m, "v", "s", strempty(a));
        case 1:
                k = take(in) % 16;
                for (uint8_t i = 0; i < k; i++) {
                        char *s = take_string(in);
                        if (!s || strv_push(&l, s) < 0)
                                return -ENOMEM;
                }
                r = sd_bus_message_open_container(m, 'v', "as");
                if (r < 0)
                        return r;
                r = sd_bus_message_append_strv(m, l);
                if (r < 0)
                        return r;
                return sd_bus_message_close_container(m);
        case 2:
                return sd_bus_message_append(m, "v", "b", (int) (take(in) & 1));
        case 3:
                return sd_bus_message_append(m, "v", "t", take_u64(in));
        case 4:
                return sd_bus_message_append(m, "v", "(uo)", (uint32_t) take_u64(in),
                                             "/org/freedesktop/systemd1/job/1");
        case 5:
                k = take(in) % 40; /* 16 is an invocation id, anything else is not */
                r = sd_bus_message_open_container(m, 'v', "ay");
                if (r < 0)
                        return r;
                r = sd_bus_message_append_array(m, 'y', in->p, MIN((size_t) k, in->n));
                if (r < 0)
                        return r;
                in->p += MIN((size_t) k, in->n);
                in->n -= MIN((size_t) k, in->n);
                return sd_bus_message_close_container(m);
        case 6:
                a = take_string(in);
                b = take_string(in);
                return sd_bus_message_append(m, "v", "(ss)", strempty(a), strempty(b));
        case 7:
                return sd_bus_message_append(m, "v", "u", (uint32_t) take_u64(in));
        case 8:
                return sd_bus_message_append(m, "v", "o", "/org/freedesktop/systemd1/unit/x");
        case 9:
                a = take_string(in);
                return sd_bus_message_append(m, "v", "a(ss)", 2, strempty(a), "x", "y", strempty(a));
        default:
                return sd_bus_message_append(m, "v", "i", (int32_t) take_u64(in));
        }
}

static int build_body(sd_bus_message *m, Input *in) {
        uint8_t top = take(in);
        int r;

        if (top >= 0xf0) {
                /* not the a{sv} a GetAll reply has */
                switch (top & 3) {
                case 0:
                        return sd_bus_message_append(m, "s", "Id");
                case 1:
                        return sd_bus_message_append(m, "as", 1, "Id");
                case 2:
                        return sd_bus_message_append(m, "a{ss}", 1, "Id", "a.service");
                default:
                        return 0; /* an empty body */
                }
        }
        r = sd_bus_message_open_container(m, 'a', "{sv}");
        if (r < 0)
                return r;
        for (unsigned i = 0; i < ENTRIES_MAX && in->n > 0; i++) {
                _cleanup_(freep) char *buf = NULL;
                const char *name = property_name(in, &buf);
                uint8_t t = take(in);

                r = sd_bus_message_open_container(m, 'e', "sv");
                if (r < 0)
                        return r;
                r = sd_bus_message_append(m, "s", name);
                if (r >= 0)
                        r = append_value(m, t, in);
                if (r < 0)
                        return r; /* a half-built entry: the message is abandoned */
                r = sd_bus_message_close_container(m);
                if (r < 0)
                        return r;
        }
        return sd_bus_message_close_container(m);
}

static sd_bus *bus;

static void bus_release(void) {
        bus = sd_bus_close_unref(bus);
}

/* A bus object that can make messages: sd-bus wants a started one. It talks to a socket nobody reads. */
static void setup(void) {
        int fds[2];

        if (bus)
                return;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds) < 0 ||
            sd_bus_new(&bus) < 0 || sd_bus_set_fd(bus, fds[0], fds[0]) < 0 || sd_bus_start(bus) < 0)
                abort();
        atexit(bus_release);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        LiveUnit *u = NULL;
        Input in = { data, size };
        int r;

        if (size > 64 * 1024)
                return 0;
        setup();
        if (sd_bus_message_new_signal(bus, &m, "/org/freedesktop/systemd1/unit/a_2eservice",
                                      "org.freedesktop.DBus.Properties", "GetAllReply") < 0)
                abort();
        if (build_body(m, &in) < 0 || sd_bus_message_seal(m, 1, 0) < 0 || sd_bus_message_rewind(m, true) < 0)
                return 0;

        r = live_unit_from_getall(m, "/org/freedesktop/systemd1/unit/a_2eservice", &u);
        if (getenv("FUZZ_DEBUG"))
                fprintf(stderr, "%s: %s, %zu names, deps %#" PRIx64 ", invocation %s\n",
                        r < 0 ? strerror(-r) : "parsed", u ? strna(u->id) : "-", u ? strv_length(u->names) : 0,
                        u ? u->has_deps : 0, u ? strna(u->invocation_id) : "-");
        if (r >= 0) {
                LiveSystem s = {.units = &u, .n_units = 1};
                LiveEdge *e = NULL;
                size_t n = 0;

                if (!u->id || !u->names)
                        abort(); /* the contract: a parsed unit has an id, and names */
                if (live_graph_edges(&s, &e, &n) >= 0)
                        free(e);
                live_unit_free(u);
        }
        return 0;
}
