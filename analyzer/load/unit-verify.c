/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/unit-verify.h"
#include "load/unit-words.h"

/* The last effective value of a single-valued key, or NULL. */
static const char *effective_value(const Unit *u, const SettingStatus *st, const char *section, const char *key) {
        for (size_t i = u->n_settings; i > 0; i--) {
                const Setting *s = &u->settings[i - 1];
                if (st[i - 1] == SETTING_EFFECTIVE && streq(s->key, key) && streq(s->section, section))
                        return s->value;
        }
        return NULL;
}

/* How many commands the effective assignments of an Exec*= key hold (';' separates several on one line). */
static size_t exec_count(const Unit *u, const SettingStatus *st, const char *section, const char *key,
                         const FeatureSet *fs) {
        size_t n = 0;
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                ExecCommand *c = NULL;
                size_t k = 0;
                const char *err = NULL;

                if (st[i] != SETTING_EFFECTIVE || !streq(s->key, key) || !streq(s->section, section) ||
                    isempty(s->value))
                        continue;
                if (exec_command_parse(s->value, fs, &c, &k, &err) >= 0) {
                        n += k;
                        exec_command_list_free(c, k);
                }
        }
        return n;
}

static bool has_effective(const Unit *u, const SettingStatus *st, const char *section, const char * const *keys) {
        for (size_t i = 0; i < u->n_settings; i++) {
                if (st[i] != SETTING_EFFECTIVE || isempty(u->settings[i].value) ||
                    !streq(u->settings[i].section, section))
                        continue;
                for (const char * const *k = keys; *k; k++)
                        if (streq(u->settings[i].key, *k))
                                return true;
        }
        return false;
}

static int refuse(const Unit *u, DiagList *diags, const char *why) {
        (void) diag_add(diags, DIAG_ERROR, u->fragment_path ?: u->id, 0, "%s: %s Refusing (load state bad-setting).",
                        u->id, why);
        return LOAD_BAD_SETTING;
}

/* A bad value of a key that refuses the unit (unit-keys.xml <fatal>): the first one, with its line. */
static int refuse_fatal(const Unit *u, const SettingStatus *st, DiagList *diags) {
        for (size_t i = 0; i < u->n_settings; i++)
                if (st[i] == SETTING_FATAL) {
                        const Setting *s = &u->settings[i];
                        (void) diag_add(diags, DIAG_ERROR, u->sources[s->source].path, s->line,
                                        "%s: %s=%s cannot be parsed: the unit configuration has a fatal error "
                                        "(load state bad-setting)", u->id, s->key, s->value);
                        return LOAD_BAD_SETTING;
                }
        return 0;
}

static int verify_service(const Unit *u, const SettingStatus *st, const FeatureSet *fs, DiagList *diags) {
        size_t n_start = exec_count(u, st, "Service", "ExecStart", fs);
        size_t n_stop = exec_count(u, st, "Service", "ExecStop", fs);
        const char *type = effective_value(u, st, "Service", "Type");
        const char *bus = effective_value(u, st, "Service", "BusName");
        const char *success = effective_value(u, st, "Unit", "SuccessAction");
        const char *rae = effective_value(u, st, "Service", "RemainAfterExit");
        const char *restart = effective_value(u, st, "Service", "Restart");
        bool success_ok = feature_enabled(fs, FEATURE_SUCCESS_ACTION_WITHOUT_EXEC);
        bool has_success = success_ok && success && !streq(success, "none") && !isempty(success);
        bool oneshot;

        /* an unset Type= is chosen from what is there: dbus with BusName=, simple with ExecStart=, else oneshot */
        if (isempty(type))
                type = !isempty(bus) ? "dbus" : n_start > 0 ? "simple" : "oneshot";
        oneshot = streq(type, "oneshot");

        if (n_start == 0 && n_stop == 0 && !has_success)
                return refuse(u, diags, success_ok ? "Service has no ExecStart=, ExecStop=, or SuccessAction=."
                                                 : "Service lacks both ExecStart= and ExecStop= setting.");
        if (!oneshot && n_start == 0)
                return refuse(u, diags,
                              "Service has no ExecStart= setting, which is only allowed for Type=oneshot services.");
        if (n_start == 0 && !(rae && parse_boolean(rae) > 0) && !has_success)
                return refuse(u, diags,
                              "Service has no ExecStart= setting, which is only allowed for RemainAfterExit=yes "
                              "services.");
        if (!oneshot && n_start > 1)
                return refuse(u, diags,
                              "Service has more than one ExecStart= setting, which is only allowed for "
                              "Type=oneshot services.");
        if (oneshot && restart && (streq(restart, "always") || streq(restart, "on-success")))
                return refuse(u, diags,
                              "Service has Restart= set to either always or on-success, which isn't allowed for "
                              "Type=oneshot services.");
        if (streq(type, "dbus") && isempty(bus))
                return refuse(u, diags, "Service is of type D-Bus but no D-Bus service name has been specified.");
        return 0;
}

int unit_verify(const Unit *u, const SettingStatus *st, const FeatureSet *fs, DiagList *diags) {
        static const char * const listen[] = { "ListenStream", "ListenDatagram", "ListenSequentialPacket",
                                               "ListenFIFO", "ListenSpecial", "ListenNetlink", "ListenMessageQueue",
                                               "ListenUSBFunction", NULL };
        static const char * const timers[] = { "OnActiveSec", "OnBootSec", "OnStartupSec", "OnUnitActiveSec",
                                               "OnUnitInactiveSec", "OnCalendar", "OnClockChange",
                                               "OnTimezoneChange", NULL };
        static const char * const paths[] = { "PathExists", "PathExistsGlob", "PathChanged", "PathModified",
                                              "DirectoryNotEmpty", NULL };

        int r;

        if (u->load_state != LOAD_LOADED || !u->fragment_path)
                return 0;
        if (u->type == UNIT_SCOPE) {
                /* scope_load(): a scope is never loaded from a file, only created at run time (-ENOENT) */
                (void) diag_add(diags, DIAG_ERROR, u->fragment_path, 0,
                                "%s: scope units cannot be loaded from unit files, only created at run time "
                                "(load state not-found)", u->id);
                return LOAD_NOT_FOUND;
        }
        r = refuse_fatal(u, st, diags);
        if (r != 0)
                return r;
        switch (u->type) {
        case UNIT_SERVICE:
                return verify_service(u, st, fs, diags);
        case UNIT_SOCKET:
                if (!has_effective(u, st, "Socket", listen))
                        return refuse(u, diags, "Unit has no Listen setting (ListenStream=, ListenDatagram=, "
                                                "ListenFIFO=, ...).");
                return 0;
        case UNIT_TIMER: {
                const char *occ = effective_value(u, st, "Timer", "OnClockChange");
                const char *otc = effective_value(u, st, "Timer", "OnTimezoneChange");
                bool any = has_effective(u, st, "Timer", timers + 0) &&
                           !(occ && parse_boolean(occ) == 0 && otc && parse_boolean(otc) == 0 &&
                             !has_effective(u, st, "Timer", (const char * const[]) { "OnActiveSec", "OnBootSec",
                                                                                     "OnStartupSec",
                                                                                     "OnUnitActiveSec",
                                                                                     "OnUnitInactiveSec",
                                                                                     "OnCalendar", NULL }));
                if (!any)
                        return refuse(u, diags, "Timer unit lacks value setting.");
                return 0;
        }
        case UNIT_PATH:
                if (!has_effective(u, st, "Path", paths))
                        return refuse(u, diags, "Path unit lacks path setting.");
                return 0;
        default:
                return 0;
        }
}
