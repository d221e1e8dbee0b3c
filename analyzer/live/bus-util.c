/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "live/bus-util.h"

int bus_open_target(const BusTarget *t, sd_bus **ret) {
        if (t && t->host)
                return sd_bus_open_system_remote(ret, t->host);
        if (t && t->machine)
                return sd_bus_open_system_machine(ret, t->machine);
        return sd_bus_open_system(ret);
}

const char *bus_target_describe(const BusTarget *t, char buf[static 256]) {
        const char *addr = getenv("DBUS_SYSTEM_BUS_ADDRESS");

        if (t && t->host)
                snprintf(buf, 256, "the system bus of %s (over ssh)", t->host);
        else if (t && t->machine)
                snprintf(buf, 256, "the system bus of machine %s", t->machine);
        else if (!isempty(addr))
                snprintf(buf, 256, "the system bus at %s", addr);
        else
                snprintf(buf, 256, "the system bus");
        return buf;
}

char *bus_unit_path(const char *name) {
        static const char hex[] = "0123456789abcdef";
        size_t l = strlen(name);
        char *p = malloc(strlen(SD_UNIT_PATH_PREFIX) + l * 3 + 2), *q;

        if (!p)
                return NULL;
        q = stpcpy(p, SD_UNIT_PATH_PREFIX);
        if (l == 0)
                *q++ = '_';
        for (size_t i = 0; i < l; i++) {
                unsigned char c = name[i];
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9'))
                        *q++ = c;
                else {
                        *q++ = '_';
                        *q++ = hex[c >> 4];
                        *q++ = hex[c & 15];
                }
        }
        *q = 0;
        return p;
}

static const struct {
        const char *name;
        const char *text;
} error_table[] = {
        { SD_DEST ".NoSuchUnit", "no such unit is loaded" },
        { SD_DEST ".NoSuchJob", "no such job" },
        { SD_DEST ".UnitExists", "a unit of that name is already loaded" },
        { SD_DEST ".LoadFailed", "the unit failed to load" },
        { SD_DEST ".BadUnitSetting", "systemd refused a unit setting" },
        { SD_DEST ".UnitMasked", "the unit is masked" },
        { SD_DEST ".UnitGenerated", "the unit is generated" },
        { SD_DEST ".UnitLinked", "the unit is linked" },
        { SD_DEST ".OnlyByDependency", "the unit may only be started as a dependency" },
        { SD_DEST ".JobTypeNotApplicable", "the job type does not apply to this unit" },
        { SD_DEST ".TransactionJobsConflicting", "the start conflicts with jobs already queued" },
        { SD_DEST ".TransactionOrderIsCyclic", "the transaction has an ordering cycle" },
        { SD_DEST ".TransactionIsDestructive", "the transaction would cancel jobs already queued" },
        { SD_DEST ".ShuttingDown", "the system is shutting down" },
        { SD_DEST ".NotSubscribed", "the client is not subscribed" },
        { SD_DEST ".AlreadySubscribed", "the client is already subscribed" },
        { SD_DEST ".NotReferenced", "the unit is not referenced by this client" },
        { SD_DEST ".UnitBusy", "the unit is busy" },
        { SD_DEST ".UnitInactive", "the unit is inactive" },
        { "org.freedesktop.DBus.Error.NoReply", "no reply in time, or the manager went away" },
        { "org.freedesktop.DBus.Error.AccessDenied", "access denied (run as root, or check polkit)" },
        { "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired",
          "interactive authorization required" },
        { "org.freedesktop.DBus.Error.InvalidArgs", "invalid arguments" },
        { "org.freedesktop.DBus.Error.UnknownProperty",
          "this systemd does not know a property (older than the setting?)" },
        { "org.freedesktop.DBus.Error.PropertyReadOnly",
          "this systemd cannot set a property on transient units (older than the setting?)" },
        { "org.freedesktop.DBus.Error.UnknownMethod", "this systemd does not have the method" },
        { "org.freedesktop.DBus.Error.UnknownObject", "no such object" },
        { "org.freedesktop.DBus.Error.UnknownInterface", "no such interface" },
        { "org.freedesktop.DBus.Error.ServiceUnknown", "systemd is not reachable: nobody owns " SD_DEST },
        { "org.freedesktop.DBus.Error.NameHasNoOwner", "systemd is not reachable: nobody owns " SD_DEST },
        { "org.freedesktop.DBus.Error.Spawn.ChildExited", "bus activation was attempted and failed" },
        { "org.freedesktop.DBus.Error.LimitsExceeded", "a bus daemon limit was exceeded" },
        { "org.freedesktop.DBus.Error.NoMemory", "the bus daemon is out of memory" },
        { "org.freedesktop.DBus.Error.Disconnected", "the connection was lost" },
        { "org.freedesktop.DBus.Error.Timeout", "timed out" },
        { "org.bootrace.BadReply", "the reply had an unexpected type" },
};

const char *bus_error_explain(const char *name) {
        if (!name)
                return NULL;
        for (size_t i = 0; i < ELEMENTSOF(error_table); i++)
                if (streq(error_table[i].name, name))
                        return error_table[i].text;
        return NULL;
}

const char *bus_error_describe(const sd_bus_error *e, int r, char buf[static 512]) {
        const char *x;

        if (!e || !sd_bus_error_is_set(e)) {
                snprintf(buf, 512, "%s", strerror(r < 0 ? -r : r));
                return buf;
        }
        x = bus_error_explain(e->name);
        if (x && !isempty(e->message))
                snprintf(buf, 512, "%s (%s: %s)", x, e->name, e->message);
        else if (x)
                snprintf(buf, 512, "%s (%s)", x, e->name);
        else
                snprintf(buf, 512, "%s: %s", e->name, strempty(e->message));
        return buf;
}

int bus_read_strv_variant(sd_bus_message *m, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        int r;

        r = sd_bus_message_enter_container(m, 'v', "as");
        if (r < 0)
                return r;
        r = sd_bus_message_read_strv(m, &l);
        if (r < 0)
                return r;
        r = sd_bus_message_exit_container(m);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(l);
        return 0;
}

typedef struct BatchSlot {
        sd_bus_message **reply; /* where the reply goes */
        size_t *outstanding;
        sd_bus_slot *slot;
} BatchSlot;

/* Only records the reply (the parsing happens after the batch, outside any callback). */
static int batch_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        BatchSlot *b = userdata;

        *b->reply = sd_bus_message_ref(m);
        (*b->outstanding)--;
        return 0;
}

int bus_call_batch(sd_bus *bus, sd_bus_message **calls, size_t n, unsigned window, uint64_t deadline,
                   sd_bus_message **replies) {
        _cleanup_(freep) BatchSlot *slots = calloc(n + 1, sizeof(BatchSlot));
        size_t next = 0, outstanding = 0;
        int r = 0;

        if (!slots)
                return -ENOMEM;
        if (window == 0)
                window = 64;
        for (size_t i = 0; i < n; i++)
                replies[i] = NULL;

        while (next < n || outstanding > 0) {
                while (next < n && outstanding < window) {
                        uint64_t left = deadline_remaining(deadline);
                        if (left == 0) {
                                r = -ETIMEDOUT;
                                goto finish;
                        }
                        slots[next] = (BatchSlot) { .reply = &replies[next], .outstanding = &outstanding };
                        r = sd_bus_call_async(bus, &slots[next].slot, calls[next], batch_reply, &slots[next],
                                              left);
                        if (r < 0)
                                goto finish;
                        outstanding++;
                        next++;
                }
                r = sd_bus_process(bus, NULL);
                if (r < 0)
                        goto finish;
                if (r > 0)
                        continue;
                if (outstanding == 0)
                        continue;
                uint64_t left = deadline_remaining(deadline);
                if (left == 0) {
                        r = -ETIMEDOUT;
                        goto finish;
                }
                r = sd_bus_wait(bus, left);
                if (r < 0 && r != -EINTR)
                        goto finish;
        }
        r = 0;
finish:
        /* every slot points into slots[]: release them all before it goes away */
        for (size_t i = 0; i < n; i++)
                slots[i].slot = sd_bus_slot_unref(slots[i].slot);
        return r;
}

int bus_new_manager_call(sd_bus *bus, const char *path, const char *iface, const char *member,
                         sd_bus_message **ret) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        int r;

        r = sd_bus_message_new_method_call(bus, &m, SD_DEST, path ?: SD_PATH, iface ?: SD_IFACE_MANAGER,
                                           member);
        if (r < 0)
                return r;
        r = sd_bus_message_set_auto_start(m, 0);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(m);
        return 0;
}
