/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Unit names: validity, type suffixes, templates and instances, prefixes, and path escaping as
 * systemd-escape does it (knowledge/unit-syntax.md §8, implicit-deps.md §5). Pure string functions. */

#include "basic/util.h"

typedef enum UnitType {
        UNIT_SERVICE,
        UNIT_SOCKET,
        UNIT_TARGET,
        UNIT_DEVICE,
        UNIT_MOUNT,
        UNIT_AUTOMOUNT,
        UNIT_SWAP,
        UNIT_TIMER,
        UNIT_PATH,
        UNIT_SLICE,
        UNIT_SCOPE,
        _UNIT_TYPE_MAX,
        _UNIT_TYPE_INVALID = -EINVAL,
} UnitType;

const char *unit_type_to_string(UnitType t);   /* "service" */
UnitType unit_type_from_string(const char *s);
UnitType unit_name_to_type(const char *name); /* from the suffix; _UNIT_TYPE_INVALID if none */

typedef enum UnitNameFlags {
        UNIT_NAME_PLAIN = 1 << 0,    /* foo.service */
        UNIT_NAME_TEMPLATE = 1 << 1, /* foo@.service */
        UNIT_NAME_INSTANCE = 1 << 2, /* foo@bar.service */
        UNIT_NAME_ANY = UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE | UNIT_NAME_INSTANCE,
} UnitNameFlags;

#define UNIT_NAME_MAX 255

/* Valid characters, at most one '@', a known type suffix, length <= UNIT_NAME_MAX, of a kind in flags. */
bool unit_name_is_valid(const char *name, UnitNameFlags flags);

/* "foo@bar.service" -> "foo" (ret_prefix), "bar" (ret_instance, NULL for non-instances). */
int unit_name_to_prefix(const char *name, char **ret);
int unit_name_to_instance(const char *name, char **ret); /* 0 and *ret=NULL when there is none */
/* "foo@bar.service" -> "foo@.service". -EINVAL for names without an instance. */
int unit_name_template(const char *name, char **ret);
/* "foo@.service" + "bar" -> "foo@bar.service" */
int unit_name_replace_instance(const char *name, const char *instance, char **ret);
/* "foo.service" -> "foo" (the name without the type suffix, instance kept) */
int unit_name_strip_suffix(const char *name, char **ret);
/* Prefixes for prefix drop-ins: "a-b-c.service" -> {"a-b-", "a-"} (longest first). For instances the
 * part before '@' is split: "a-b@x.service" -> {"a-"}. Returns a strv (maybe empty). Note that systemd keeps the
 * instance when it builds the prefix name (a-@x.service, then its template a-@.service): use
 * unit_name_dropin_names() for the exact list. */
int unit_name_dash_prefixes(const char *name, char ***ret);
/* The names whose NAME.d/ (and .wants/ .requires/ .upholds/) directories systemd searches for one unit name, in
 * systemd's order (dropin.c unit_file_find_dirs): the name; for an instance its template, expanded the same way;
 * then, with prefix_dirs (the version has prefix drop-ins: feature dropin-prefix-dirs), the next dash prefix
 * built with the same instance, expanded recursively.
 * "a-b@x.service" -> {a-b@x.service, a-b@.service, a-.service, a-@x.service, a-@.service}. Duplicates are
 * dropped (the first kept, which is what decides precedence). The type-level name ("service", v244+) is not
 * included; systemd adds it after all names and aliases. */
int unit_name_dropin_names(const char *name, bool prefix_dirs, char ***ret);

/* systemd-escape: escape one string (as for a prefix or instance), and unescape. */
int unit_name_escape(const char *s, char **ret);
int unit_name_unescape(const char *s, char **ret);
/* systemd-escape --path: "/var/tmp" -> "var-tmp", "/" -> "-". The path is simplified first ("//" and "."
 * components); a ".." component gives -EINVAL. Like systemd, a relative path is accepted ("a/b" -> "a-b"). */
int unit_name_path_escape(const char *path, char **ret);
/* The reverse: "var-tmp" -> "/var/tmp". */
int unit_name_path_unescape(const char *s, char **ret);
/* "/var/tmp" + ".mount" -> "var-tmp.mount" */
int unit_name_from_path(const char *path, const char *suffix, char **ret);
/* The mount unit names of path and of every parent, innermost first: "/var/lib/x" -> var-lib-x.mount,
 * var-lib.mount, var.mount, -.mount. A part that makes no valid unit name is left out. */
int unit_name_mounts_of_path(const char *path, char ***ret);

/* The path of a unit file split into its directory, made absolute against the working directory but otherwise
 * as given ("/" for a file in /), and its file name, which must be a unit name (-EINVAL). The file is not
 * looked at. Returns 0 with both owned by the caller, -EINVAL, -ENOMEM or getcwd()'s -errno. */
int unit_name_split_file_path(const char *path, char **ret_dir, char **ret_name);

/* The unit a file named *name is loaded as when it is given as a file: a template (NAME@.service) becomes its
 * instance NAME@INSTANCE.service, as systemd-analyze verify does (analyze-verify.c@v235..v261: "i" up to 256,
 * "test_instance" or its --instance= from 257), since a template is not a unit; other names stay. Returns 0
 * (*name replaced when it changed), -EINVAL (not a valid instance) or -ENOMEM. */
int unit_name_file_instance(char **name, const char *instance);
