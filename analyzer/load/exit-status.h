/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What systemd makes of a signal (KillSignal=, RestartKillSignal=, FinalKillSignal=, WatchdogSignal=:
 * syntax="signal" in rules/unit-keys.xml) and of an exit status list (SuccessExitStatus=,
 * RestartPreventExitStatus=, RestartForceExitStatus=: syntax="exit-status-list"): signal_from_string() of
 * src/basic/signal-util.c and config_parse_set_status() of src/core/load-fragment.c, at v219..v261. The names are
 * data (rules/value-words.xml, sets "signal" and "exit-status"); how words are read around them are the version
 * facts exit-status-names, signal-parse-rtmax and number-base-prefixes of rules/features.xml. Neither key expands
 * specifiers: a '%' is a character like any other. */

#include "rules/features.h"

/* The signal number systemd of fs's version reads in s, or -EINVAL/-ERANGE when it refuses it; -ENOENT when the
 * rules have no signal names (the value is then not judged). */
int signal_parse(const char *s, const FeatureSet *fs);

/* NULL when systemd takes every word of the exit status list value, else why it warns (about the first word it
 * ignores, or about the value when it stops reading it): static text. */
const char *exit_status_list_why(const char *value, const FeatureSet *fs);
