/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The version facts of a systemd version for C tests: the rules of $BOOTRACE_RULES_DIR (make check sets it) are
 * loaded once; each version's FeatureSet is kept for the life of the test. A test that cannot have them aborts:
 * its checks would mean nothing. */

#include <stdio.h>
#include <stdlib.h>

#include "rules/features.h"
#include "rules/rules.h"

static inline const Rules *test_rules(void) {
        static Rules *rules;

        if (!rules) {
                DiagList diags = {};
                if (rules_load(NULL, &rules, &diags) < 0) {
                        diag_list_print(&diags, stderr, DIAG_ERROR);
                        fprintf(stderr, "cannot load the rules (set BOOTRACE_RULES_DIR)\n");
                        printf("Bail out! cannot load the rules\n");
                        exit(1);
                }
                diag_list_done(&diags);
        }
        return rules;
}

/* v 0: the newest modelled version */
static inline const FeatureSet *test_features(unsigned v) {
        static FeatureSet sets[64];
        static size_t n;

        if (v == 0)
                v = rules_newest_modelled(test_rules());
        for (size_t i = 0; i < n; i++)
                if (sets[i].version == v)
                        return &sets[i];
        if (n == 64 || rules_feature_set(test_rules(), v, &sets[n]) < 0) {
                printf("Bail out! no feature set for systemd %u\n", v);
                exit(1);
        }
        return &sets[n++];
}
