/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What systemd makes of each assignment of a loaded unit: which ones take effect, which a later one overrides
 * or an empty assignment resets, which are ignored (unknown section or key, a key this version does not know). */

#include "basic/diag.h"
#include "load/unit.h"
#include "rules/features.h"
#include "rules/rules.h"

/* one byte (packed): a large tree has a million settings, each with its status */
typedef enum __attribute__((packed)) SettingStatus {
        SETTING_EFFECTIVE,
        SETTING_OVERRIDDEN,  /* single-valued key assigned again later */
        SETTING_RESET,       /* a later empty assignment cleared the list */
        SETTING_EMPTY_RESET, /* this empty assignment clears the list (has no value itself) */
        SETTING_EMPTY_NOOP,  /* empty assignment of a dependency list: does nothing */
        SETTING_UNKNOWN_KEY,
        SETTING_UNSUPPORTED, /* a key this systemd version does not know yet (or any more) */
        SETTING_UNKNOWN_SECTION,
        SETTING_IGNORED,     /* X- sections and keys */
        SETTING_INVALID,     /* a value this version does not accept: warned about and ignored */
        SETTING_FATAL,       /* a value this version does not accept for a key that then refuses the unit */
        _SETTING_STATUS_MAX,
        _SETTING_STATUS_INVALID = -EINVAL,
} SettingStatus;

const char *setting_status_to_string(SettingStatus s);

/* Does systemd v accept value for key k of the unit called unit_name (fs: v's features)? The checks of
 * rules_key_check_value() and, for syntax="socket-address", socket_address_judge() of the value with its
 * specifiers expanded where that is known offline (unit_name NULL: not expanded). Returns 0 (accepted, or not
 * judged), -EINVAL with *ret_why (optional) saying why not, or -ENOMEM. */
int unit_value_check(const KeyInfo *k, const char *key, const char *value, const char *unit_name, unsigned v,
                     const FeatureSet *fs, const char **ret_why);

/* unit_value_check() of setting i of u, and the checks that depend on what came before it in the unit: a number
 * whose range depends on another key's value (<range if-key=>), judged with the statuses st of settings 0..i-1. */
int unit_setting_check(const Unit *u, const SettingStatus *st, size_t i, const KeyInfo *k, unsigned v,
                       const FeatureSet *fs, const char **ret_why);

/* Computes the status of every setting of u (ret has u->n_settings entries, caller frees) for systemd version v.
 * Warnings systemd would log (unknown key, unknown section, unsupported key) are added to diags. */
int unit_settings_classify(const Unit *u, const Rules *rules, unsigned v, SettingStatus **ret, DiagList *diags);
