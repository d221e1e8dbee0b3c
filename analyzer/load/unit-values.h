/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The values of a unit's settings as systemd uses them: specifiers expanded, dependency lists split into unit
 * names (invalid ones dropped with a warning, as systemd does), path lists into paths, string lists into words.
 * Diagnostics name the setting's file and line. */

#include "basic/diag.h"
#include "load/unit.h"
#include "rules/features.h"
#include "rules/rules.h"

/* Expands specifiers in the value of s. Returns 0 and *ret; -ENXIO when a specifier cannot be known offline
 * (the value is returned unexpanded and a notice added); -EBADMSG when systemd would reject the assignment. */
int setting_expand(const Unit *u, const Setting *s, const FeatureSet *fs, char **ret, DiagList *diags);

/* The words of s according to the key's value type: unit names for unit lists, paths for path lists, words
 * (quotes removed, C escapes applied) for string lists. Returns 0 and a strv (maybe empty), or -ENOMEM. */
int setting_words(const Unit *u, const Setting *s, const KeyInfo *k, const FeatureSet *fs, char ***ret,
                  DiagList *diags);

/* The unit names of a unit-list setting (After=, Wants=, ...), as setting_words() gives them, one call of f each,
 * with nothing allocated for a name without specifiers (a large tree has millions). f's error stops the walk and is
 * returned; else 0, or -ENOMEM. */
int setting_unit_names_foreach(const Unit *u, const Setting *s, const FeatureSet *fs, DiagList *diags,
                               int (*f)(const char *name, void *userdata), void *userdata);

/* Documentation= (syntax="documentation"): NULL when systemd keeps every word of value, else why it warns about one
 * (config_parse_documentation() drops that word only). */
const char *documentation_why(const char *value);
