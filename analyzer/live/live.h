/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Units as a running systemd holds them, read over sd-bus: names, load and active state, fragment and
 * drop-ins, every dependency list by type (implicit and default edges included; PID 1 does not say where an
 * edge came from), and the monotonic state-change timestamps. One GetAll(org.freedesktop.systemd1.Unit) per
 * unit, pipelined (many calls in flight), never one call per property. Nothing here prints.
 *
 * The seam for `bootrace drift` (what PID 1 holds against what the model predicts): live_load_all() gives
 * every loaded unit with every dependency list PID 1 has for it, forward and inverse (LiveUnit.deps[];
 * LiveUnit.has_deps says which lists this systemd version sends), and LiveManager.version_major is the version
 * whose rules the model should apply. live_graph_edges() gives the same as typed edges, After= only. */

#include <systemd/sd-bus.h>

#include "basic/diag.h"
#include "basic/hashmap.h"

/* The dependency lists of org.freedesktop.systemd1.Unit, forward types first. A property this systemd does
 * not have is absent (LiveUnit.has_deps), which differs from an empty list. */
typedef enum LiveDep {
        LIVE_DEP_REQUIRES,
        LIVE_DEP_REQUISITE,
        LIVE_DEP_WANTS,
        LIVE_DEP_BINDS_TO,
        LIVE_DEP_PART_OF,
        LIVE_DEP_UPHOLDS,
        LIVE_DEP_CONFLICTS,
        LIVE_DEP_BEFORE,
        LIVE_DEP_AFTER,
        LIVE_DEP_ON_SUCCESS,
        LIVE_DEP_ON_FAILURE,
        LIVE_DEP_TRIGGERS,
        LIVE_DEP_PROPAGATES_RELOAD_TO,
        LIVE_DEP_RELOAD_PROPAGATED_FROM,
        LIVE_DEP_PROPAGATES_STOP_TO,
        LIVE_DEP_STOP_PROPAGATED_FROM,
        LIVE_DEP_JOINS_NAMESPACE_OF,
        /* inverse lists, computed by PID 1 */
        LIVE_DEP_REQUIRED_BY,
        LIVE_DEP_REQUISITE_OF,
        LIVE_DEP_WANTED_BY,
        LIVE_DEP_BOUND_BY,
        LIVE_DEP_CONSISTS_OF,
        LIVE_DEP_UPHELD_BY,
        LIVE_DEP_CONFLICTED_BY,
        LIVE_DEP_ON_SUCCESS_OF,
        LIVE_DEP_ON_FAILURE_OF,
        LIVE_DEP_TRIGGERED_BY,
        /* path lists */
        LIVE_DEP_REQUIRES_MOUNTS_FOR,
        LIVE_DEP_WANTS_MOUNTS_FOR,
        _LIVE_DEP_MAX,
        _LIVE_DEP_INVALID = -EINVAL,
} LiveDep;

const char *live_dep_to_string(LiveDep d); /* the property name: "Requires", "RequiresMountsFor" */
LiveDep live_dep_from_string(const char *s);
/* A forward type that is also a unit-file key and an edge of its own in a graph (Before= is left out: every
 * Before= has its After= on the other unit; ReloadPropagatedFrom=/StopPropagatedFrom= likewise). */
bool live_dep_is_graph_edge(LiveDep d);
bool live_dep_is_path_list(LiveDep d);

typedef struct LiveTimes {
        uint64_t inactive_exit;  /* InactiveExitTimestampMonotonic: activation began */
        uint64_t active_enter;   /* ActiveEnterTimestampMonotonic: became active */
        uint64_t active_exit;    /* ActiveExitTimestampMonotonic */
        uint64_t inactive_enter; /* InactiveEnterTimestampMonotonic */
} LiveTimes;

typedef struct LiveUnit {
        char *id;
        char *object_path;
        char *description;
        char **names; /* Names: the id and its aliases */
        char *load_state, *active_state, *sub_state;
        char *load_error;     /* LoadError's name, when set */
        char *load_error_msg; /* and its message */
        char *fragment_path, *source_path;
        char **drop_in_paths;
        char *following;
        bool transient;
        bool default_dependencies;
        char **deps[_LIVE_DEP_MAX];
        uint64_t has_deps; /* bit 1 << LiveDep for every list the manager sent */
        LiveTimes times;
        uint32_t job_id;
        char *invocation_id; /* 32 hex digits, NULL when none */
} LiveUnit;

typedef struct LiveManager {
        char *version;        /* "252.39-1~deb12u2" */
        unsigned version_major;
        char *virtualization; /* "" on bare metal */
        char *system_state;
        uint64_t userspace_usec;       /* UserspaceTimestampMonotonic */
        uint64_t finish_usec;          /* FinishTimestampMonotonic: 0 while booting */
        uint64_t security_start_usec;  /* SecurityStartTimestampMonotonic: 0 in containers */
        uint64_t softreboot_start_usec; /* SoftRebootStartTimestampMonotonic (v254+; 0 otherwise) */
} LiveManager;

/* What loading cost: for the measurements in the man page and `make bench`. */
typedef struct LiveStats {
        unsigned calls;       /* method calls sent */
        unsigned batches;     /* waves of calls in flight at once (latency-bound round trips) */
        uint64_t elapsed_usec;
} LiveStats;

typedef struct LiveSystem {
        LiveManager manager;
        LiveUnit **units; /* in the order loaded (ListUnits order, or the order asked for) */
        size_t n_units;
        Hashmap by_name; /* every name of every unit -> LiveUnit */
        char **requested;  /* names asked for that PID 1 resolved to another unit (keys of by_name) */
        LiveStats stats;
} LiveSystem;

typedef struct LiveOptions {
        uint64_t deadline; /* CLOCK_MONOTONIC µs (deadline_after()); 0 = 30 s from the call */
        unsigned window;   /* calls in flight at once; 0 = 64; 1 = one round trip per call */
} LiveOptions;

LiveSystem *live_system_free(LiveSystem *s);
static inline void live_system_freep(LiveSystem **s) {
        live_system_free(*s);
}

/* Reads the manager's version, state and boot timestamps. Returns 0 or -errno; *error says what the manager
 * answered (caller frees it). */
int live_load_manager(sd_bus *bus, const LiveOptions *o, LiveSystem **ret, sd_bus_error *error);

/* Every loaded unit: ListUnits, then GetAll(Unit) for all of them. Units that vanish in between are skipped
 * (a notice in diags). Returns 0 or -errno (with *error set for method errors). */
int live_load_all(sd_bus *bus, const LiveOptions *o, LiveSystem *s, DiagList *diags, sd_bus_error *error);

/* The named units (LoadUnit, so PID 1 reads them from disk if needed), then GetAll(Unit). A unit that cannot
 * be loaded is an error naming it. Units already in s are not read again. */
int live_load_units(sd_bus *bus, const LiveOptions *o, LiveSystem *s, char * const *names, DiagList *diags,
                    sd_bus_error *error);

/* Finds a unit by any of its names. */
LiveUnit *live_system_find(const LiveSystem *s, const char *name);

/* Parses the reply of GetAll(org.freedesktop.systemd1.Unit) into a new LiveUnit (exposed for the tests). */
int live_unit_from_getall(sd_bus_message *reply, const char *object_path, LiveUnit **ret);
LiveUnit *live_unit_free(LiveUnit *u);

/* One typed dependency edge for a graph: the seam for the graph verb (graph --live) and for drift. from/to
 * point into s; type is a forward type with live_dep_is_graph_edge() (After= for every ordering edge). Edges
 * come unit by unit in s's order, types in LiveDep order. Returns 0 or -ENOMEM; the caller frees *ret. */
typedef struct LiveEdge {
        const char *from;
        const char *to;
        LiveDep type;
} LiveEdge;

int live_graph_edges(const LiveSystem *s, LiveEdge **ret, size_t *ret_n);
