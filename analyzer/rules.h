/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Knowledge as data: the XML files in rules/ (read with libxml2, validated against the RelaxNG schemas in
 * rules/schema/, errors reported with file:line). A new systemd release should be a data change only. */

#include "diag.h"
#include "unit-name.h"

typedef struct Rules Rules;

/* Where rules are read from: $BOOTRACE_RULES_DIR if set, else the installed PKGDATADIR "/rules". */
const char *rules_default_dir(void);

/* Loads every rules file from dir (NULL: rules_default_dir()). Returns 0, or -EBADMSG/-ENOENT/... with a
 * DIAG_ERROR naming file:line. */
int rules_load(const char *dir, Rules **ret, DiagList *diags);
Rules *rules_free(Rules *r);
static inline void rules_freep(Rules **r) {
        rules_free(*r);
}

/* ---- releases (rules/targets.xml) */

/* Resolves a release name ("ubuntu-xenial", "debian-bookworm", "rhel-9", also aliases like "xenial", "16.04",
 * "debian-12") to its systemd version. Returns -ENOENT when unknown. */
int rules_target_version(const Rules *r, const char *name, unsigned *ret_version, const char **ret_canonical);
/* All canonical target names, in file order (for --help, completion and error messages). */
char **rules_target_names(const Rules *r);

/* The modelled systemd versions nearest below or equal to v (for choosing a base model): returns 0 if none. */
unsigned rules_newest_version(const Rules *r);

/* ---- unit-file keys (rules/unit-keys.xml) */

typedef enum KeyKind {
        KEY_SINGLE,     /* last assignment wins */
        KEY_LIST,       /* accumulates; an empty assignment resets it */
        KEY_DEPENDENCY, /* accumulates; an empty assignment is a no-op (After=, Wants=, RequiresMountsFor=, ...) */
        KEY_CONDITION,  /* Condition*=: accumulates; an empty assignment resets ALL conditions */
        KEY_ASSERT,     /* Assert*=: likewise for asserts */
        _KEY_KIND_MAX,
        _KEY_KIND_INVALID = -EINVAL,
} KeyKind;

typedef enum ValueType {
        VALUE_STRING,
        VALUE_BOOL,
        VALUE_UNIT_LIST,    /* unit names, specifiers allowed (name subset) */
        VALUE_PATH_LIST,    /* absolute paths, quotes removed, '-'/'+' prefixes where allowed */
        VALUE_PATH,         /* one absolute path */
        VALUE_EXEC,         /* command line */
        VALUE_ENUM,         /* one of KeyInfo.values */
        _VALUE_TYPE_MAX,
        _VALUE_TYPE_INVALID = -EINVAL,
} ValueType;

typedef struct KeyInfo {
        const char *name;     /* "PrivateTmp" */
        const char *section;  /* "Service" for exec-context keys etc.; see unit_types for where it may appear */
        unsigned unit_types;  /* bitmask of 1 << UnitType where the key is valid in that section */
        KeyKind kind;
        ValueType type;
        unsigned since;       /* first systemd version that knows it (0 = always) */
        unsigned until;       /* last version that knows it (0 = still known) */
        char **values;        /* for VALUE_ENUM (and bools with extra words like PrivateTmp=disconnected) */
        const char *renamed_to; /* for deprecated aliases, or NULL */
} KeyInfo;

/* Looks a key up for a unit of type t in section at systemd version v. Returns NULL when unknown (the caller
 * decides between "unknown key" and "not known to this version" with rules_key_lookup_any()). */
const KeyInfo *rules_key_lookup(const Rules *r, UnitType t, const char *section, const char *key, unsigned v);
/* Any version, any section: for "did you mean" and "not supported by systemd N" messages. */
const KeyInfo *rules_key_lookup_any(const Rules *r, const char *key);
/* Is section valid for unit type t ("Unit", "Install", the type section)? */
bool rules_section_is_valid(UnitType t, const char *section);
