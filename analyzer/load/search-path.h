/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The system manager's unit search path for a systemd version, highest priority first
 * (knowledge/unit-syntax.md §6), honouring $SYSTEMD_UNIT_PATH like systemd (a trailing ':' appends the
 * defaults). */

#include "basic/util.h"
#include "rules/features.h"

int search_path_for(const FeatureSet *fs, char ***ret);

/* Is dir one of the generator output directories? (their units count as "generated") */
bool search_path_is_generator(const char *dir);
/* Is dir a runtime directory (/run/...)? */
bool search_path_is_runtime(const char *dir);
