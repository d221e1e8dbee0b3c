/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Findings through a profile's units say so (rules/profile-TARGET.xml): an ordering cycle that has a unit of the
 * profile in it, or whose jobs a profile unit pulled into the boot transaction. */

#include "lint/lint.h"

/* For the findings l->items[from..] of c that go through the profile's units (ordering cycles: a unit of the
 * profile in a cycle through the finding's unit, or pulling one of its jobs in; other checks: an edge of a
 * profile unit in the evidence): appends "(with ifupdown's networking.service, as
 * installed by default on debian-bookworm)" to the message, sets the finding's profile to that text, and adds
 * evidence lines ("network.target is in the boot transaction through networking.service (ifupdown 0.8.41)").
 * Nothing without a profile. Returns 0 or -ENOMEM. */
int lint_profile_annotate(const LintContext *c, const Profile *p, FindingList *l, size_t from);
