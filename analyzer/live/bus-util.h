/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Talking to systemd's manager over sd-bus: connecting (system bus, --host over ssh, --machine), a monotonic
 * deadline shared by every call of an operation, unit object paths, and the D-Bus error names systemd and
 * the bus daemon answer with, explained (always compared by name, never by text). Nothing here prints. */

#include <systemd/sd-bus.h>

#include "basic/util.h"

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_IFACE_MANAGER SD_DEST ".Manager"
#define SD_IFACE_UNIT SD_DEST ".Unit"
#define SD_IFACE_SERVICE SD_DEST ".Service"
#define SD_UNIT_PATH_PREFIX SD_PATH "/unit/"

/* Where the manager is: NULL host and machine = the local system bus (which honours
 * DBUS_SYSTEM_BUS_ADDRESS). */
typedef struct BusTarget {
        const char *host;    /* [USER@]HOST: over ssh, like systemctl --host */
        const char *machine; /* a local container, like systemctl --machine */
} BusTarget;

/* Opens the system bus of target. Returns 0 or -errno. */
int bus_open_target(const BusTarget *t, sd_bus **ret);
/* "the system bus", "the system bus of HOST (ssh)", ...: for error messages. Never NULL. */
const char *bus_target_describe(const BusTarget *t, char buf[static 256]);

/* The object path of a unit, as systemd builds it (every byte that is not [A-Za-z], or a digit past the
 * first position, as _xx). Returns NULL on OOM. Prefer GetUnit/LoadUnit; this is for tests and fallbacks. */
char *bus_unit_path(const char *name);

/* A short explanation of a D-Bus error name systemd or the bus daemon uses ("the unit is masked"), or NULL
 * when the name is not one of them. */
const char *bus_error_explain(const char *name);
/* "NAME: message (explanation)" for an error, or strerror(-r) when error is unset. Never NULL; uses buf. */
const char *bus_error_describe(const sd_bus_error *e, int r, char buf[static 512]);

/* Reads a variant holding "as" (the message must point at the variant). Returns 0 or a negative errno. */
int bus_read_strv_variant(sd_bus_message *m, char ***ret);

/* Sends the prepared method calls with at most window (0: 64) outstanding at a time and collects every
 * reply, method errors included, into replies[i] (owned by the caller; unref each). Each call may take until
 * deadline. Returns 0 when every call was answered, -ETIMEDOUT at the deadline, or -errno when the
 * connection failed (the replies received so far are kept). */
int bus_call_batch(sd_bus *bus, sd_bus_message **calls, size_t n, unsigned window, uint64_t deadline,
                   sd_bus_message **replies);

/* A method call to the manager with auto-start off (a missing manager must fail fast, not be activated). */
int bus_new_manager_call(sd_bus *bus, const char *path, const char *iface, const char *member,
                         sd_bus_message **ret);
