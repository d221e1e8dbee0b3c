/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Specifier expansion (%n %N %p %P %i %I %j %J %f %t %S %C %L %T %V %E %h %% ...) for unit settings, per systemd
 * version (knowledge/unit-syntax.md §5). What cannot be known offline (%H host, %m machine id, %b boot id, %v
 * kernel, ...) is expanded from SpecifierContext when set there, else left unexpanded and reported. */

#include "basic/diag.h"
#include "rules/features.h"

typedef enum SpecifierUse {
        SPECIFIER_USE_VALUE,     /* any setting value */
        SPECIFIER_USE_UNIT_NAME, /* a word of a dependency list: only the subset allowed in names */
} SpecifierUse;

typedef struct SpecifierContext {
        const char *unit_name; /* the unit's full name, e.g. "foo@bar.service" (required) */
        const FeatureSet *features; /* the version's rules (rules/features.xml); required */
        /* optional values known about the target system; NULL = unknown */
        const char *hostname, *machine_id, *boot_id, *kernel_release, *architecture;
        /* the unit's User= (NULL = none): before v236 %u %U %h %s described this user, later the manager's */
        const char *user;
        /* the unit's fragment path inside the root, for %y/%Y (v251); NULL = unknown */
        const char *fragment_path;
} SpecifierContext;

/* Expands specifiers in s. Returns 0 and *ret on success. An unknown alphanumeric specifier is an error from
 * v236 (-EBADMSG, the assignment is rejected) and kept verbatim before; so is a letter outside the name subset
 * with SPECIFIER_USE_UNIT_NAME. A specifier whose value cannot be known offline returns -ENXIO and names it in
 * *ret_unknown (static string like "%H") unless the context has it. A specifier whose value cannot be computed
 * (%f of an instance that is not a valid escaped path) gives -EINVAL, also named. -ENOMEM on OOM. ret_unknown
 * may be NULL. */
int specifier_expand(const char *s, const SpecifierContext *c, SpecifierUse use, char **ret,
                     const char **ret_unknown);

/* Whether the letter is a specifier for this use in this version (0 = newest). */
bool specifier_is_known(char letter, SpecifierUse use, const FeatureSet *fs);
