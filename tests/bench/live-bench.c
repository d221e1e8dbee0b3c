/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* live-bench: what loading every unit from a running systemd costs, three ways: one GetAll per unit
 * pipelined (what bootrace does), one GetAll per unit waited for one by one, and one Get per property (what
 * a naive client does). Talks to the system bus (DBUS_SYSTEM_BUS_ADDRESS); run by tests/bench/run.sh when a
 * bus is there. Prints one line per way: calls, round trips, milliseconds (best of REPEAT). */

#include "live/bus-util.h"
#include "live/live.h"

static const char *const props[] = {
        "Id",
        "Names",
        "Description",
        "LoadState",
        "ActiveState",
        "SubState",
        "FragmentPath",
        "DropInPaths",
        "Transient",
        "DefaultDependencies",
        "Requires",
        "Requisite",
        "Wants",
        "BindsTo",
        "PartOf",
        "Conflicts",
        "Before",
        "After",
        "OnFailure",
        "Triggers",
        "RequiredBy",
        "WantedBy",
        "RequiresMountsFor",
        "InactiveExitTimestampMonotonic",
        "ActiveEnterTimestampMonotonic",
        "ActiveExitTimestampMonotonic",
        "InactiveEnterTimestampMonotonic",
        "Job",
        "InvocationID",
};

static int load(sd_bus *bus, unsigned window, LiveSystem **ret) {
        _cleanup_(sd_bus_error_free) sd_bus_error e = SD_BUS_ERROR_NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        LiveOptions o = { .window = window };
        int r = live_load_manager(bus, &o, ret, &e);
        if (r >= 0)
                r = live_load_all(bus, &o, *ret, &d, &e);
        return r;
}

/* One synchronous Get per property per unit. */
static int per_property(sd_bus *bus, const LiveSystem *s, unsigned *calls) {
        for (size_t i = 0; i < s->n_units; i++)
                for (size_t k = 0; k < ELEMENTSOF(props); k++) {
                        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
                        _cleanup_(sd_bus_error_free) sd_bus_error e = SD_BUS_ERROR_NULL;
                        int r = sd_bus_call_method(bus, SD_DEST, s->units[i]->object_path,
                                                   "org.freedesktop.DBus.Properties", "Get", &e, &reply,
                                                   "ss", SD_IFACE_UNIT, props[k]);
                        (*calls)++;
                        if (r < 0 &&
                            !sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.UnknownProperty"))
                                return r;
                }
        return 0;
}

int main(int argc, char *argv[]) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        unsigned repeat = argc > 1 ? (unsigned) atoi(argv[1]) : 3;
        const unsigned windows[] = { 64, 1 };
        size_t n_units = 0;
        int r;

        r = sd_bus_open_system(&bus);
        if (r < 0) {
                fprintf(stderr, "live-bench: no system bus: %s\n", strerror(-r));
                return 77;
        }
        for (size_t w = 0; w < ELEMENTSOF(windows); w++) {
                uint64_t best = UINT64_MAX;
                LiveStats st = {};
                for (unsigned i = 0; i < repeat; i++) {
                        _cleanup_(live_system_freep) LiveSystem *s = NULL;
                        r = load(bus, windows[w], &s);
                        if (r < 0) {
                                fprintf(stderr, "live-bench: %s\n", strerror(-r));
                                return 1;
                        }
                        if (s->stats.elapsed_usec < best) {
                                best = s->stats.elapsed_usec;
                                st = s->stats;
                        }
                        n_units = s->n_units;
                }
                printf("getall-window-%u\tunits=%zu\tcalls=%u\tround_trips=%u\tms=%.1f\n", windows[w],
                       n_units, st.calls, windows[w] == 1 ? st.calls : st.batches, best / 1e3);
        }
        {
                _cleanup_(live_system_freep) LiveSystem *s = NULL;
                unsigned calls = 0;
                uint64_t t0;
                r = load(bus, 0, &s);
                if (r < 0)
                        return 1;
                t0 = now_usec();
                r = per_property(bus, s, &calls);
                if (r < 0) {
                        fprintf(stderr, "live-bench: per-property: %s\n", strerror(-r));
                        return 1;
                }
                printf("get-per-property\tunits=%zu\tcalls=%u\tround_trips=%u\tms=%.1f\n", s->n_units, calls,
                       calls, (now_usec() - t0) / 1e3);
        }
        return 0;
}
