/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/specifier.h"
#include "load/unit-verify.h"
#include "load/unit-words.h"

/* The last effective assignment of a single-valued key, or NULL. */
static const Setting *effective_setting(const Unit *u, const SettingStatus *st, const char *section,
                                        const char *key) {
        for (size_t i = u->n_settings; i > 0; i--) {
                const Setting *s = &u->settings[i - 1];
                if (st[i - 1] == SETTING_EFFECTIVE && streq(s->key, key) && streq(s->section, section))
                        return s;
        }
        return NULL;
}

static const char *effective_value(const Unit *u, const SettingStatus *st, const char *section, const char *key) {
        const Setting *s = effective_setting(u, st, section, key);
        return s ? s->value : NULL;
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

/* The load state of a unit its type's checks refuse: bad-setting from 239, error before (features.xml). */
static LoadState refused_state(const FeatureSet *fs) {
        return feature_enabled(fs, FEATURE_REFUSAL_BAD_SETTING) ? LOAD_BAD_SETTING : LOAD_ERROR;
}

/* Refuses u, naming the line of s when the refusal is that assignment's (NULL: the unit's). */
static int refuse_at(const Unit *u, const FeatureSet *fs, const Setting *s, DiagList *diags, const char *why) {
        LoadState state = refused_state(fs);

        (void) diag_add(diags, DIAG_ERROR, s ? u->sources[s->source].path : u->fragment_path ?: u->id,
                        s ? s->line : 0, "%s: %s Refusing (load state %s).", u->id, why,
                        load_state_to_string(state));
        return state;
}

static int refuse(const Unit *u, const FeatureSet *fs, DiagList *diags, const char *why) {
        return refuse_at(u, fs, NULL, diags, why);
}

static bool unit_has_name(const Unit *u, const char *name) {
        if (streq(u->id, name))
                return true;
        STRV_FOREACH(n, u->names)
                if (streq(*n, name))
                        return true;
        return false;
}

/* The path a mount's Where= or a swap's What= gives (specifiers expanded, simplified), else the one the unit's
 * name stands for (mount_add_extras(), swap_add_extras()). *ret NULL: neither is known offline. */
static int unit_own_path(const Unit *u, const Setting *s, const FeatureSet *fs, char **ret) {
        _cleanup_(freep) char *stem = NULL, *x = NULL;
        int r;

        *ret = NULL;
        if (s) {
                SpecifierContext sc = { .unit_name = u->id, .features = fs };
                r = specifier_expand(s->value, &sc, SPECIFIER_USE_VALUE, &x, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return 0; /* a specifier only the running system knows: nothing to compare */
                *ret = path_simplify_dup(x);
                return *ret ? 0 : -ENOMEM;
        }
        r = unit_name_strip_suffix(u->id, &stem);
        if (r < 0)
                return r == -ENOMEM ? r : 0;
        r = unit_name_path_unescape(stem, &x);
        if (r == -ENOMEM)
                return r;
        *ret = r < 0 ? NULL : path_simplify_dup(x);
        return r < 0 || *ret ? 0 : -ENOMEM;
}

/* mount_verify(), automount_verify(), swap_verify(): the path must give the unit's name back. */
static int verify_path_name(const Unit *u, const SettingStatus *st, const FeatureSet *fs, const char *section,
                            const char *key, const char *suffix, DiagList *diags) {
        const Setting *s = effective_setting(u, st, section, key);
        _cleanup_(freep) char *path = NULL, *name = NULL;
        int r;

        if (s && isempty(s->value))
                s = NULL; /* an empty assignment resets it: the path of the name again */

        r = unit_own_path(u, s, fs, &path);
        if (r < 0)
                return r;
        if (!path)
                return 0;
        if (u->type == UNIT_AUTOMOUNT && streq(path, "/"))
                return refuse_at(u, fs, s, diags, "Cannot have an automount unit for the root directory.");
        r = unit_name_from_path(path, suffix, &name);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                /* "Failed to generate unit name from path": the load fails with that error (state error) */
                (void) diag_add(diags, DIAG_ERROR, s ? u->sources[s->source].path : u->fragment_path,
                                s ? s->line : 0, "%s: %s=%s: no unit name can be made from the path (load state "
                                "error)", u->id, key, path);
                return LOAD_ERROR;
        }
        if (unit_has_name(u, name))
                return 0;
        return refuse_at(u, fs, s, diags, u->type == UNIT_SWAP ? "Value of What= and unit name do not match."
                                                               : "Where= setting doesn't match unit name.");
}

/* A bad value of a key that refuses the unit (unit-keys.xml <fatal>): the first one, with its line. */
static int refuse_fatal(const Unit *u, const SettingStatus *st, const FeatureSet *fs, DiagList *diags) {
        for (size_t i = 0; i < u->n_settings; i++)
                if (st[i] == SETTING_FATAL) {
                        const Setting *s = &u->settings[i];
                        LoadState state = refused_state(fs);
                        (void) diag_add(diags, DIAG_ERROR, u->sources[s->source].path, s->line,
                                        "%s: %s=%s cannot be parsed: the unit configuration has a fatal error "
                                        "(load state %s)", u->id, s->key, s->value,
                                        load_state_to_string(state));
                        return state;
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
                return refuse(u, fs, diags, success_ok ? "Service has no ExecStart=, ExecStop=, or SuccessAction=."
                                                 : "Service lacks both ExecStart= and ExecStop= setting.");
        if (!oneshot && n_start == 0)
                return refuse(u, fs, diags,
                              "Service has no ExecStart= setting, which is only allowed for Type=oneshot services.");
        if (n_start == 0 && !(rae && parse_boolean(rae) > 0) && !has_success)
                return refuse(u, fs, diags,
                              "Service has no ExecStart= setting, which is only allowed for RemainAfterExit=yes "
                              "services.");
        if (!oneshot && n_start > 1)
                return refuse(u, fs, diags,
                              "Service has more than one ExecStart= setting, which is only allowed for "
                              "Type=oneshot services.");
        if (oneshot && restart && (streq(restart, "always") || streq(restart, "on-success")))
                return refuse(u, fs, diags,
                              "Service has Restart= set to either always or on-success, which isn't allowed for "
                              "Type=oneshot services.");
        if (streq(type, "dbus") && isempty(bus))
                return refuse(u, fs, diags, "Service is of type D-Bus but no D-Bus service name has been specified.");
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
        r = refuse_fatal(u, st, fs, diags);
        if (r != 0)
                return r;
        switch (u->type) {
        case UNIT_SERVICE:
                return verify_service(u, st, fs, diags);
        case UNIT_MOUNT:
                if (feature_enabled(fs, FEATURE_MOUNT_WHERE_MATCHES_NAME) &&
                    (r = verify_path_name(u, st, fs, "Mount", "Where", ".mount", diags)) != 0)
                        return r;
                if (feature_enabled(fs, FEATURE_MOUNT_WHAT_REQUIRED) && !streq(u->id, "-.mount") &&
                    isempty(effective_value(u, st, "Mount", "What")))
                        return refuse(u, fs, diags, "What= setting is missing.");
                return 0;
        case UNIT_AUTOMOUNT:
                if (feature_enabled(fs, FEATURE_AUTOMOUNT_WHERE_MATCHES_NAME))
                        return verify_path_name(u, st, fs, "Automount", "Where", ".automount", diags);
                return 0;
        case UNIT_SWAP:
                if (feature_enabled(fs, FEATURE_SWAP_WHAT_MATCHES_NAME))
                        return verify_path_name(u, st, fs, "Swap", "What", ".swap", diags);
                return 0;
        case UNIT_SOCKET:
                if (!has_effective(u, st, "Socket", listen))
                        return refuse(u, fs, diags, "Unit has no Listen setting (ListenStream=, ListenDatagram=, "
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
                        return refuse(u, fs, diags, "Timer unit lacks value setting.");
                return 0;
        }
        case UNIT_PATH:
                if (!has_effective(u, st, "Path", paths))
                        return refuse(u, fs, diags, "Path unit lacks path setting.");
                return 0;
        default:
                return 0;
        }
}
