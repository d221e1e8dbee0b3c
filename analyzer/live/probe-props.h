/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What a probe runs with: the sandbox settings of a unit as the loader reads it (PrivateTmp=,
 * ProtectSystem=, ReadWritePaths=, DefaultDependencies=, ...) or given as -p KEY=VALUE, translated into
 * StartTransientUnit properties the way systemd-run does; plus the probe's own frame (Type=oneshot,
 * ExecStart=, AddRef=yes). */

#include "basic/diag.h"
#include "live/transient.h"
#include "load/unit-settings.h"
#include "load/unit.h"
#include "rules/rules.h"

/* Is key (a unit-file key) one the probe can apply? */
bool probe_key_supported(const char *key);
/* The supported keys, for --help and error messages: a static NULL-terminated list. */
const char * const *probe_supported_keys(void);

/* Translates the effective settings of u (st from unit_settings_classify()) that the probe supports into
 * props, each with its file:line as origin. Effective settings of the unit's own section that are not
 * applied (and are not about how the main process is started or restarted) are listed in *ret_not_applied as
 * "KEY= (FILE:LINE)". Returns 0, or -EINVAL with a diagnostic naming file:line for a value systemd would
 * refuse; -ENOMEM. */
int probe_props_from_unit(const Unit *u, const SettingStatus *st, const Rules *rules, unsigned version,
                          TransientProps *props, char ***ret_not_applied, DiagList *diags);

/* One -p KEY=VALUE. Returns 0, or -EINVAL with *ret_error set to a static explanation; -ENOMEM. */
int probe_props_assign(TransientProps *props, const char *assignment, const char **ret_error);

/* The probe's frame: Description=, Type=oneshot, ExecStart=argv (argv[0] must be absolute), AddRef=yes. */
int probe_props_frame(TransientProps *props, const char *description, char * const *argv);
