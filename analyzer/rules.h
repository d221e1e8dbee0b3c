/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Knowledge as data: the XML files in rules/ (read with libxml2, validated against the RelaxNG schemas in
 * rules/schema/, errors reported with file:line). A new systemd release should be a data change only. */

#include "diag.h"
#include "finding.h"
#include "unit-name.h"

typedef struct Rules Rules;

/* Where rules are read from: $BOOTRACE_RULES_DIR if set, else the installed PKGDATADIR "/rules". */
const char *rules_default_dir(void);

/* Loads every rules file from dir (NULL: rules_default_dir()). Returns 0, or -EBADMSG/-ENOENT/... with a
 * DIAG_ERROR naming file:line. Each file is validated against its RelaxNG schema in dir/schema/ first. */
int rules_load(const char *dir, Rules **ret, DiagList *diags);
Rules *rules_free(Rules *r);
static inline void rules_freep(Rules **r) {
        rules_free(*r);
}
/* The paths of the files that were loaded, in load order (a new strv, NULL on OOM). */
char **rules_file_paths(const Rules *r);

/* ---- releases (rules/targets.xml) */

/* Resolves a release name ("ubuntu-xenial", "debian-bookworm", "rhel-9", also aliases like "xenial", "16.04",
 * "debian-12") to its systemd version. Returns -ENOENT when unknown. */
int rules_target_version(const Rules *r, const char *name, unsigned *ret_version, const char **ret_canonical);
/* All canonical target names, in file order (for --help, completion and error messages). */
char **rules_target_names(const Rules *r);

/* The newest systemd version of any target (0 if there are none). The comment here used to speak of "the versions
 * nearest below or equal to v", which the signature cannot do; choosing a base model for v belongs to the base-model
 * rules, which can add their own lookup. */
unsigned rules_newest_version(const Rules *r);
/* The free-text note of a target (e.g. a point release with another systemd), or NULL. */
const char *rules_target_note(const Rules *r, const char *name);

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

const char *key_kind_to_string(KeyKind k);    /* "single", "list", "dependency", "condition", "assert" */
KeyKind key_kind_from_string(const char *s);

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

const char *value_type_to_string(ValueType t); /* "string", "bool", "unit-list", "path-list", "path", "exec", "enum" */
ValueType value_type_from_string(const char *s);

typedef struct KeyInfo {
        const char *name;     /* "PrivateTmp" */
        const char *section;  /* "Service" for exec-context keys etc.; see unit_types for where it may appear */
        unsigned unit_types;  /* bitmask of 1 << UnitType where the key is valid in that section */
        KeyKind kind;
        ValueType type;
        unsigned since;       /* first systemd version that knows it (0 = always) */
        unsigned until;       /* last version that knows it (0 = still known) */
        char **values;        /* for VALUE_ENUM (and bools with extra words like PrivateTmp=disconnected); a word
                               * ending in ':' is a prefix (StandardOutput=file:PATH); see rules_key_value_known() */
        const char *renamed_to; /* for deprecated aliases, or NULL */
        unsigned ignored_since; /* systemd still accepts the key but ignores it from this version on (0 = never) */
} KeyInfo;

/* Looks a key up for a unit of type t in section at systemd version v. Returns NULL when unknown (the caller
 * decides between "unknown key" and "not known to this version" with rules_key_lookup_any()). One hash lookup
 * and a walk over the (one to three) entries of that name. */
const KeyInfo *rules_key_lookup(const Rules *r, UnitType t, const char *section, const char *key, unsigned v);
/* Any version, any section: for "did you mean" and "not supported by systemd N" messages. Of several entries of
 * that name it returns the one with the smallest since. */
const KeyInfo *rules_key_lookup_any(const Rules *r, const char *key);
/* Whether value is accepted for k by systemd v: booleans for VALUE_BOOL, k->values with their versions for bools
 * and enums, anything for other types (their syntax is checked elsewhere). */
bool rules_key_value_known(const KeyInfo *k, const char *value, unsigned v);
/* The versions of one word of k->values (prefix words match by prefix). Returns 0, or -ENOENT. */
int rules_key_value_since(const KeyInfo *k, const char *value, unsigned *ret_since, unsigned *ret_until);
/* Every key entry in file order (for listings and tests). */
size_t rules_key_count(const Rules *r);
const KeyInfo *rules_key_get(const Rules *r, size_t i);
/* ---- lint checks (rules/checks.xml) */

typedef struct CheckInfo {
        char *id;             /* "private-tmp-before-remount" */
        Severity severity;    /* the default */
        char *title;          /* one line */
        char *explanation;    /* paragraphs separated by blank lines */
        char **references;    /* text of each reference */
        char **reference_urls; /* parallel to references */
} CheckInfo;

const CheckInfo *rules_check_lookup(const Rules *r, const char *id);
size_t rules_check_count(const Rules *r);
const CheckInfo *rules_check_get(const Rules *r, size_t i);

/* The type's own section ("Service" for services), NULL for types without one (targets, devices). */
const char *rules_type_section(UnitType t);
/* Is section valid for unit type t ("Unit", "Install", the type section)? */
bool rules_section_is_valid(UnitType t, const char *section);
