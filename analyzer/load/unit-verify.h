/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The consistency checks systemd makes after loading a unit (service_verify(), socket_verify(), ...): a unit
 * that fails them has load state bad-setting and cannot be started. */

#include "basic/diag.h"
#include "load/unit-settings.h"
#include "rules/features.h"
#include "rules/rules.h"

/* Returns 0 when the unit passes, the load state systemd fs->version gives it when it refuses it (LOAD_BAD_SETTING,
 * or LOAD_NOT_FOUND for a scope read from a file; a DIAG_ERROR says why, naming the fragment, and the line of a
 * fatal setting), -ENOMEM. st is the classification from unit_settings_classify(). */
int unit_verify(const Unit *u, const SettingStatus *st, const FeatureSet *fs, DiagList *diags);
