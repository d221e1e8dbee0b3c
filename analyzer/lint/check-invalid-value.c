/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* invalid-value: values of the settings the checks read that systemd would ignore for this version (booleans,
 * enums with their versions, paths that are not absolute, unit names that are not valid, bad specifiers). */

#include "lint/check-common.h"
#include "load/unit-values.h"

/* The settings whose values decide what the other checks see. */
static const char * const judged_keys[] = {
        "PrivateTmp", "DynamicUser", "DefaultDependencies", "ProtectSystem", "ProtectHome", "PrivateDevices",
        "ReadWritePaths", "ReadWriteDirectories", "WorkingDirectory", "StateDirectory", "CacheDirectory",
        "LogsDirectory", "ConfigurationDirectory", "RootDirectory", "RequiresMountsFor", "WantsMountsFor",
        "After", "Before", "Wants", "Requires", "Requisite", "BindsTo", "PartOf", "Upholds", "Conflicts",
        NULL,
};

static bool judged(const char *key) {
        for (const char * const *k = judged_keys; *k; k++)
                if (streq(*k, key))
                        return true;
        return false;
}

int check_invalid_value(const LintContext *c, ModelUnit *u, FindingList *out) {
        for (size_t i = 0; i < u->unit->n_settings; i++) {
                const Setting *s = &u->unit->settings[i];
                const char *file = u->unit->sources[s->source].path;
                const KeyInfo *k;
                _cleanup_(diag_list_done) DiagList local = {};
                _cleanup_(strv_freep) char **words = NULL;

                bool rejected;

                if (!u->st)
                        continue;
                /* the loader rejected the value (unit_settings_classify()): reported for every key, it is
                 * one of systemd's warnings; the others only for the keys the checks read */
                rejected = u->st[i] == SETTING_INVALID || u->st[i] == SETTING_FATAL;
                if (!rejected && (u->st[i] != SETTING_EFFECTIVE || !judged(s->key) || isempty(s->value)))
                        continue;
                k = rules_key_lookup(c->rules, u->unit->type, s->section, s->key, c->version);
                if (!k)
                        continue;
                if (rejected && (isempty(s->value) || (k->type != VALUE_BOOL && k->type != VALUE_ENUM))) {
                        const char *why = NULL;
                        if (unit_setting_check(u->unit, u->st, i, k, c->version, model_features(c->model), &why) ==
                            -ENOMEM)
                                return -ENOMEM;
                        if (!lint_finding(c, out, "invalid-value", u, file, s->line,
                                          "%s=%s: %s; %s", s->key, s->value, strna(why),
                                          u->st[i] == SETTING_FATAL ? "systemd refuses the unit"
                                                                    : "the assignment is ignored"))
                                return -ENOMEM;
                        continue;
                }
                if (k->type == VALUE_BOOL || k->type == VALUE_ENUM) {
                        unsigned since = 0, until = 0;
                        if (rules_key_value_known(k, s->value, c->version))
                                continue;
                        if (rules_key_value_since(k, s->value, &since, &until) >= 0 && since > c->version) {
                                if (!lint_finding(c, out, "invalid-value", u, file, s->line,
                                                  "%s=%s is not valid for systemd %u (it is from %u); the assignment "
                                                  "is ignored",
                                                  s->key, s->value, c->version, since))
                                        return -ENOMEM;
                        } else if (!lint_finding(c, out, "invalid-value", u, file, s->line,
                                                 "%s=%s is not a valid value; the assignment is ignored", s->key,
                                                 s->value))
                                return -ENOMEM;
                        continue;
                }
                if (k->type == VALUE_UNIT_LIST || k->type == VALUE_PATH_LIST) {
                        if (setting_words(u->unit, s, k, model_features(c->model), &words, &local) < 0)
                                return -ENOMEM;
                        for (size_t d = 0; d < local.n; d++)
                                if (local.items[d].level <= DIAG_WARNING &&
                                    !lint_finding(c, out, "invalid-value", u, file, s->line, "%s",
                                                  local.items[d].message))
                                        return -ENOMEM;
                }
        }
        return 0;
}
