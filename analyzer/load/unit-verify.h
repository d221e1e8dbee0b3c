/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The consistency checks systemd makes after loading a unit (service_verify(), socket_verify(), ...): a unit
 * that fails them has load state bad-setting and cannot be started. */

#include "basic/diag.h"
#include "load/unit-settings.h"
#include "rules/features.h"
#include "rules/rules.h"

/* Returns 0 when the unit passes, 1 when systemd fs->version would refuse it (a DIAG_ERROR says why, naming the
 * fragment), -ENOMEM. st is the classification from unit_settings_classify(). */
int unit_verify(const Unit *u, const SettingStatus *st, const FeatureSet *fs, DiagList *diags);
