/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/calendar-spec.h"
#include "load/exit-status.h"
#include "load/socket-address.h"
#include "load/specifier.h"
#include "load/unit-settings.h"
#include "load/unit-values.h"
#include "load/unit-words.h"

static const char * const setting_status_table[_SETTING_STATUS_MAX] = {
        [SETTING_EFFECTIVE] = "effective",
        [SETTING_OVERRIDDEN] = "overridden",
        [SETTING_RESET] = "reset",
        [SETTING_EMPTY_RESET] = "empty-reset",
        [SETTING_EMPTY_NOOP] = "empty-noop",
        [SETTING_UNKNOWN_KEY] = "unknown-key",
        [SETTING_UNSUPPORTED] = "unsupported",
        [SETTING_UNKNOWN_SECTION] = "unknown-section",
        [SETTING_IGNORED] = "ignored",
        [SETTING_INVALID] = "invalid",
        [SETTING_FATAL] = "fatal",
};

const char *setting_status_to_string(SettingStatus s) {
        return s >= 0 && s < _SETTING_STATUS_MAX ? setting_status_table[s] : NULL;
}

/* A judge's reason as unit_value_check() returns it: 0 for none, else -EINVAL with the reason in *ret_why. */
static int judged(const char *why, const char **ret_why) {
        if (why && ret_why)
                *ret_why = why;
        return why ? -EINVAL : 0;
}

int unit_value_check(const KeyInfo *k, const char *key, const char *value, const char *unit_name, unsigned v,
                     const FeatureSet *fs, const char **ret_why) {
        _cleanup_(freep) char *expanded = NULL;
        int r = rules_key_check_value(k, value, v, ret_why);

        if (r < 0 || !k || isempty(value) || !fs)
                return r;
        switch (k->syntax) {
        case VALUE_SYNTAX_SOCKET_BIND:
                /* (no specifiers: the item is parsed as written) */
                return judged(socket_bind_why(value, fs), ret_why);
        case VALUE_SYNTAX_SIGNAL: {
                /* config_parse_signal(): no specifiers, and 0 is no signal either */
                int sig = signal_parse(value, fs);
                return judged(sig == -ENOENT || sig > 0
                                      ? NULL
                                      : "not a signal (a name, with or without SIG, RTMIN+n, RTMAX-n or 1..64)",
                              ret_why);
        }
        case VALUE_SYNTAX_EXIT_STATUS_LIST:
                /* config_parse_set_status(): no specifiers; a bad word is skipped, the others are kept */
                return judged(exit_status_list_why(value, fs), ret_why);
        case VALUE_SYNTAX_DOCUMENTATION:
        case VALUE_SYNTAX_SOCKET_ADDRESS:
        case VALUE_SYNTAX_CALENDAR:
        case VALUE_SYNTAX_DEVICE_ALLOW:
                break; /* judged below, with the specifiers expanded where that is known */
        default:
                return r;
        }
        if (unit_name && strchr(value, '%')) {
                r = specifier_expand(value, &(SpecifierContext) { .unit_name = unit_name, .features = fs },
                                     SPECIFIER_USE_VALUE, &expanded, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        expanded = mfree(expanded); /* not known here: judged as written */
        }
        /* rules_key_check_value() left a value with specifiers alone: judged once they are expanded */
        if (k->syntax == VALUE_SYNTAX_DEVICE_ALLOW)
                return expanded ? rules_key_check_value(k, expanded, v, ret_why) : 0;
        if (k->syntax == VALUE_SYNTAX_DOCUMENTATION)
                /* config_parse_documentation(): a word that is no URL is dropped, the others are kept */
                return judged(documentation_why(expanded ?: value), ret_why);
        if (k->syntax == VALUE_SYNTAX_CALENDAR)
                return calendar_spec_judge(expanded ?: value, !!expanded, fs, ret_why) == CALENDAR_BAD ? -EINVAL : 0;
        switch (socket_address_judge(key, expanded ?: value, !!expanded, fs, ret_why)) {
        case SOCKET_ADDRESS_BAD:
        case SOCKET_ADDRESS_TOO_LONG:
        case SOCKET_ADDRESS_FAMILY:
                return -EINVAL;
        default:
                return 0;
        }
}

/* The value key had when config_parse() reached setting i: the last assignment before i of key in the same section
 * that took effect (NULL: none, or an empty one that reset it). */
static const char *value_before(const Unit *u, const SettingStatus *st, size_t i, const char *key) {
        for (size_t j = i; j-- > 0;) {
                const Setting *s = &u->settings[j];
                if (!streq(s->key, key) || !streq(s->section, u->settings[i].section))
                        continue;
                if (st[j] == SETTING_EFFECTIVE || st[j] == SETTING_OVERRIDDEN || st[j] == SETTING_EMPTY_RESET)
                        return isempty(s->value) ? NULL : s->value;
        }
        return NULL;
}

int unit_setting_check(const Unit *u, const SettingStatus *st, size_t i, const KeyInfo *k, unsigned v,
                       const FeatureSet *fs, const char **ret_why) {
        const Setting *s = &u->settings[i];
        int r = unit_value_check(k, s->key, s->value, u->id, v, fs, ret_why);

        if (r < 0 || !k || !k->range_if_key || isempty(s->value) || strchr(s->value, '%'))
                return r;
        /* a number whose range depends on a key set before it (CPUSchedulingPriority= up to 251) */
        r = rules_key_check_range_given(k, s->value, v, value_before(u, st, i, k->range_if_key), ret_why);
        return r == 0 ? -EINVAL : 0;
}

int unit_settings_classify(const Unit *u, const Rules *rules, unsigned v, SettingStatus **ret, DiagList *diags) {
        _cleanup_(freep) SettingStatus *st = NULL;
        _cleanup_(freep) const KeyInfo **info = NULL;
        _cleanup_(strv_freep) char **warned_sections = NULL;

        st = calloc(u->n_settings + 1, sizeof(SettingStatus));
        info = calloc(u->n_settings + 1, sizeof(KeyInfo *));
        if (!st || !info)
                return -ENOMEM;

        bool stopped = false;
        FeatureSet fs;
        /* the features of v, for the command lines (exec_command_parse()); none for version 0 */
        bool fs_ok = rules_feature_set(rules, v, &fs) >= 0;

        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                const char *file = u->sources[s->source].path;

                if (stopped) {
                        /* config_parse() stops at the first fatal setting: nothing after it is read */
                        st[i] = SETTING_IGNORED;
                        continue;
                }
                if (startswith(s->section, "X-") || startswith(s->key, "X-")) {
                        st[i] = SETTING_IGNORED;
                        continue;
                }
                if (!rules_section_is_valid(u->type, s->section)) {
                        st[i] = SETTING_UNKNOWN_SECTION;
                        if (!strv_contains(warned_sections, s->section)) {
                                if (strv_extend(&warned_sections, s->section) < 0)
                                        return -ENOMEM;
                                (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                "unknown section [%s] for a %s unit, its keys are ignored", s->section,
                                                unit_type_to_string(u->type));
                        }
                        continue;
                }
                info[i] = rules_key_lookup(rules, u->type, s->section, s->key, v);
                if (!info[i]) {
                        const KeyInfo *any = rules_key_lookup_any(rules, s->key);
                        if (any && (any->since > v || (any->until && any->until < v))) {
                                st[i] = SETTING_UNSUPPORTED;
                                if (any->since > v)
                                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                        "%s= is not known to systemd %u (it appeared in %u), ignored",
                                                        s->key, v, any->since);
                                else
                                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                        "%s= is not known to systemd %u (removed after %u), ignored",
                                                        s->key, v, any->until);
                        } else {
                                st[i] = SETTING_UNKNOWN_KEY;
                                if (any)
                                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                        "%s= does not belong in [%s] of a %s unit (it goes in [%s]), "
                                                        "ignored",
                                                        s->key, s->section, unit_type_to_string(u->type),
                                                        any->section);
                                else
                                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                        "unknown key %s= in section [%s], ignored", s->key,
                                                        s->section);
                        }
                        continue;
                }
                /* config_parse_warn_compat(DISABLED_LEGACY): known, and ignored with a word every time */
                if (info[i]->ignored_since > 0 && v >= info[i]->ignored_since) {
                        st[i] = SETTING_IGNORED;
                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                        "%s=: support for it was removed (systemd %u ignores it since %u), ignored",
                                        s->key, v, info[i]->ignored_since);
                        continue;
                }
                /* the cgroup keys of the types that cannot delegate or be watched by systemd-oomd */
                if (rules_key_unsupported(info[i], u->type, v)) {
                        st[i] = SETTING_IGNORED;
                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                        "%s=: not supported for %s units, ignored", s->key,
                                        unit_type_to_string(u->type));
                        continue;
                }
                st[i] = SETTING_EFFECTIVE;
                if (info[i]->kind == KEY_SINGLE || info[i]->syntax != VALUE_SYNTAX_NONE) {
                        const char *why = NULL;

                        int r = unit_setting_check(u, st, i, info[i], v, fs_ok ? &fs : NULL, &why);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0) {
                                bool fatal = rules_key_fatal(info[i], v);
                                /* a value of a page or more is named by its length */
                                _cleanup_(freep) char *shown = NULL;
                                size_t len = strlen(s->value);

                                if (len > 1024 && asprintf_safe(&shown, "(%zu bytes)", len) < 0)
                                        return -ENOMEM;
                                if (info[i]->syntax == VALUE_SYNTAX_EXIT_STATUS_LIST ||
                                    info[i]->syntax == VALUE_SYNTAX_DOCUMENTATION) {
                                        /* only the bad word is lost: the setting stays in effect */
                                        (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                        "%s=%s: %s for systemd %u, that word is ignored", s->key,
                                                        shown ?: s->value, strna(why), v);
                                        continue;
                                }
                                st[i] = fatal ? SETTING_FATAL : SETTING_INVALID;
                                stopped = fatal;
                                (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                fatal ? "%s=%s: %s; systemd %u refuses the unit for it"
                                                      : "%s=%s: %s for systemd %u, ignored",
                                                s->key, shown ?: s->value, strna(why), v);
                                continue;
                        }
                }
                if (fs_ok && info[i]->type == VALUE_EXEC && !isempty(s->value)) {
                        ExecCommand *c = NULL;
                        size_t n = 0;
                        bool relaxed = false, bangbang = false;

                        if (exec_command_parse(s->value, &fs, &c, &n, NULL) == -ENOMEM)
                                return -ENOMEM;
                        for (size_t k = 0; k < n; k++) {
                                relaxed = relaxed || c[k].unknown_escape;
                                bangbang = bangbang || c[k].bangbang_ignored;
                        }
                        exec_command_list_free(c, n);
                        if (relaxed)
                                (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                "%s=: unknown escape sequences, kept as written (backslash and all)",
                                                s->key);
                        if (bangbang)
                                (void) diag_add(diags, DIAG_WARNING, file, s->line,
                                                "%s=: the !! prefix is no longer supported by systemd %u and is "
                                                "ignored (as if neither ! were there); remove it", s->key, v);
                }
                if (rules_key_warning(info[i], v, s->value))
                        (void) diag_add(diags, DIAG_WARNING, file, s->line, "%s=%s: %s", s->key,
                                        rules_key_warning(info[i], v, NULL) ? "" : s->value,
                                        rules_key_warning(info[i], v, s->value));
        }

        /* second pass, backwards: overrides and resets */
        for (size_t i = u->n_settings; i > 0; i--) {
                const Setting *s = &u->settings[i - 1];
                const KeyInfo *k = info[i - 1];

                if (st[i - 1] != SETTING_EFFECTIVE || !k)
                        continue;
                switch (k->kind) {
                case KEY_SINGLE:
                        for (size_t j = i; j < u->n_settings; j++)
                                if (info[j] == k && streq(u->settings[j].section, s->section) &&
                                    st[j] == SETTING_EFFECTIVE) {
                                        st[i - 1] = SETTING_OVERRIDDEN;
                                        break;
                                }
                        break;
                case KEY_DEPENDENCY:
                        if (isempty(s->value))
                                st[i - 1] = SETTING_EMPTY_NOOP;
                        break;
                case KEY_LIST:
                case KEY_CONDITION:
                case KEY_ASSERT:
                case KEY_LISTEN:
                        if (isempty(s->value)) {
                                st[i - 1] = SETTING_EMPTY_RESET;
                                break;
                        }
                        for (size_t j = i; j < u->n_settings; j++) {
                                const KeyInfo *kj = info[j];
                                if (!kj || !isempty(u->settings[j].value) ||
                                    (st[j] != SETTING_EMPTY_RESET && st[j] != SETTING_EFFECTIVE))
                                        continue;
                                if (kj == k || (k->kind != KEY_LIST && kj->kind == k->kind)) {
                                        st[i - 1] = SETTING_RESET;
                                        break;
                                }
                        }
                        break;
                default:
                        break;
                }
        }
        *ret = TAKE_PTR(st);
        return 0;
}
