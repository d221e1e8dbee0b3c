/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Version facts that the code asks for by name: each holds for the systemd versions rules/features.xml gives it
 * (<feature name= since= until= source=>). The list below is the only place a name appears in C; the rules loader
 * refuses a features.xml that lacks one of them or names one bootrace does not know. A FeatureSet is every fact
 * evaluated once for one version: a bitset, so hot paths test a bit, not a range. */

#include "basic/util.h"

/* X(ENUM_SUFFIX, "name in features.xml") */
#define FEATURE_LIST(X)                                                                                         \
        /* unit-file syntax (knowledge/unit-syntax.md §1) */                                                   \
        X(UNIT_FILE_BOM, "unit-file-bom")                                                                       \
        X(UNIT_FILE_READ_LINE, "unit-file-read-line")                                                           \
        X(UNIT_FILE_CONTINUATION_AT_EOF, "unit-file-continuation-at-eof")                                       \
        X(UNIT_FILE_UTF8_FATAL, "unit-file-utf8-fatal")                                                         \
        X(UNIT_FILE_INCLUDE, "unit-file-include")                                                               \
        X(UNIT_FILE_INCLUDE_WARNS, "unit-file-include-warns")                                                   \
        X(UNIT_FILE_EARLY_COMMENTS, "unit-file-early-comments")                                                 \
        X(UNIT_FILE_COMMENTS_COLUMN_0, "unit-file-comments-column-0")                                           \
        X(UNIT_FILE_BLANK_LINE_CONTINUES, "unit-file-blank-line-continues")                                     \
        X(UNIT_FILE_NO_EQUALS_WARNS, "unit-file-no-equals-warns")                                               \
        X(UNIT_FILE_CR_EOL, "unit-file-cr-eol")                                                                 \
        X(UNIT_FILE_NUL_ENDS_LINE, "unit-file-nul-ends-line")                                                   \
        X(UNIT_FILE_SAFE_SECTION_NAMES, "unit-file-safe-section-names")                                         \
        /* the unit search path and what the loader reads (§6–§9) */                                           \
        X(SEARCH_PATH_CONTROL, "search-path-control")                                                           \
        X(SEARCH_PATH_TRANSIENT, "search-path-transient")                                                       \
        X(SEARCH_PATH_ATTACHED, "search-path-attached")                                                         \
        X(SEARCH_PATH_LIB, "search-path-lib")                                                                   \
        X(DROPIN_PREFIX_DIRS, "dropin-prefix-dirs")                                                             \
        X(DROPIN_TYPE_DIRS, "dropin-type-dirs")                                                                 \
        X(UPHOLDS_DIRS, "upholds-dirs")                                                                         \
        X(NAME_MAP_LINKED, "name-map-linked")                                                                   \
        /* command lines (§4) */                                                                                \
        X(EXEC_PREFIX_PLUS, "exec-prefix-plus")                                                                 \
        X(EXEC_PREFIX_BANG, "exec-prefix-bang")                                                                 \
        X(EXEC_PREFIX_COLON, "exec-prefix-colon")                                                               \
        X(EXEC_PREFIX_PIPE, "exec-prefix-pipe")                                                                 \
        X(EXEC_PREFIX_BANGBANG_IGNORED, "exec-prefix-bangbang-ignored")                                                                 \
        X(EXEC_RELATIVE, "exec-relative")                                                                       \
        X(EXEC_UNKNOWN_ESCAPE_RELAXED, "exec-unknown-escape-relaxed")                                           \
        /* specifiers (§5): a letter known in values, and allowed in unit names */                             \
        X(SPECIFIER_UNKNOWN_IS_ERROR, "specifier-unknown-is-error")                                             \
        X(SPECIFIER_MANAGER_USER, "specifier-manager-user")                                                     \
        X(SPECIFIER_a, "specifier-a") X(SPECIFIER_A, "specifier-A")                                             \
        X(SPECIFIER_b, "specifier-b") X(SPECIFIER_B, "specifier-B")                                             \
        X(SPECIFIER_c, "specifier-c") X(SPECIFIER_C, "specifier-C")                                             \
        X(SPECIFIER_d, "specifier-d") X(SPECIFIER_D, "specifier-D")                                             \
        X(SPECIFIER_E, "specifier-E") X(SPECIFIER_f, "specifier-f")                                             \
        X(SPECIFIER_g, "specifier-g") X(SPECIFIER_G, "specifier-G")                                             \
        X(SPECIFIER_h, "specifier-h") X(SPECIFIER_H, "specifier-H")                                             \
        X(SPECIFIER_i, "specifier-i") X(SPECIFIER_I, "specifier-I")                                             \
        X(SPECIFIER_j, "specifier-j") X(SPECIFIER_J, "specifier-J")                                             \
        X(SPECIFIER_l, "specifier-l") X(SPECIFIER_L, "specifier-L")                                             \
        X(SPECIFIER_m, "specifier-m") X(SPECIFIER_M, "specifier-M")                                             \
        X(SPECIFIER_n, "specifier-n") X(SPECIFIER_N, "specifier-N")                                             \
        X(SPECIFIER_o, "specifier-o") X(SPECIFIER_p, "specifier-p")                                             \
        X(SPECIFIER_P, "specifier-P") X(SPECIFIER_q, "specifier-q")                                             \
        X(SPECIFIER_r, "specifier-r") X(SPECIFIER_R, "specifier-R")                                             \
        X(SPECIFIER_s, "specifier-s") X(SPECIFIER_S, "specifier-S")                                             \
        X(SPECIFIER_t, "specifier-t") X(SPECIFIER_T, "specifier-T")                                             \
        X(SPECIFIER_u, "specifier-u") X(SPECIFIER_U, "specifier-U")                                             \
        X(SPECIFIER_v, "specifier-v") X(SPECIFIER_V, "specifier-V")                                             \
        X(SPECIFIER_w, "specifier-w") X(SPECIFIER_W, "specifier-W")                                             \
        X(SPECIFIER_y, "specifier-y") X(SPECIFIER_Y, "specifier-Y")                                             \
        X(SPECIFIER_NAME_n, "specifier-in-names-n") X(SPECIFIER_NAME_N, "specifier-in-names-N")                 \
        X(SPECIFIER_NAME_p, "specifier-in-names-p") X(SPECIFIER_NAME_i, "specifier-in-names-i")                 \
        X(SPECIFIER_NAME_u, "specifier-in-names-u") X(SPECIFIER_NAME_U, "specifier-in-names-U")                 \
        X(SPECIFIER_NAME_b, "specifier-in-names-b") X(SPECIFIER_NAME_H, "specifier-in-names-H")                 \
        X(SPECIFIER_NAME_m, "specifier-in-names-m") X(SPECIFIER_NAME_v, "specifier-in-names-v")                 \
        X(SPECIFIER_NAME_j, "specifier-in-names-j") X(SPECIFIER_NAME_g, "specifier-in-names-g")                 \
        X(SPECIFIER_NAME_G, "specifier-in-names-G") X(SPECIFIER_NAME_a, "specifier-in-names-a")                 \
        X(SPECIFIER_NAME_B, "specifier-in-names-B") X(SPECIFIER_NAME_o, "specifier-in-names-o")                 \
        X(SPECIFIER_NAME_w, "specifier-in-names-w") X(SPECIFIER_NAME_W, "specifier-in-names-W")                 \
        X(SPECIFIER_NAME_l, "specifier-in-names-l") X(SPECIFIER_NAME_A, "specifier-in-names-A")                 \
        X(SPECIFIER_NAME_M, "specifier-in-names-M") X(SPECIFIER_NAME_q, "specifier-in-names-q")                 \
        /* what units mean (unit-verify, lint paths) */                                                        \
        X(SUCCESS_ACTION_WITHOUT_EXEC, "success-action-without-exec")                                          \
        X(DYNAMIC_USER_PRIVATE_TMP, "dynamic-user-private-tmp")                                                 \
        X(EXEC_DIRECTORIES, "exec-directories")                                                                 \
        X(EXEC_DIRECTORY_SYMLINKS, "exec-directory-symlinks")                                                   \
        X(REFUSAL_BAD_SETTING, "refusal-bad-setting")                                                           \
        X(MOUNT_WHERE_MATCHES_NAME, "mount-where-matches-name")                                                 \
        X(MOUNT_WHAT_REQUIRED, "mount-what-required")                                                           \
        X(AUTOMOUNT_WHERE_MATCHES_NAME, "automount-where-matches-name")                                         \
        X(SWAP_WHAT_MATCHES_NAME, "swap-what-matches-name")                                                     \
        X(VERIFY_INSTANCE_TEST_INSTANCE, "verify-instance-test-instance")                                       \
        /* the model's machinery (implicit-deps.md §5) */                                                      \
        X(MOUNTS_FOR_LOAD, "mounts-for-load")                                                                   \
        X(MOUNTINFO_REFERENCE_STUBS, "mountinfo-reference-stubs")                                               \
        /* systemd-fstab-generator's output (implicit-deps.md §6–§7) */                                       \
        X(FSTAB_REMOUNT_FS_WANT, "fstab-remount-fs-want")                                                       \
        X(FSTAB_BLOCKDEV_AFTER, "fstab-blockdev-after")                                                         \
        X(FSTAB_BEFORE_LOCAL_FS, "fstab-before-local-fs")                                                       \
        X(FSTAB_FSCK_ROOT_WANT, "fstab-fsck-root-want")                                                         \
        /* what systemd-tmpfiles --remove --boot removes (target-tmpfiles.xml) */                               \
        X(TMPFILES_HONOURS_EXCLUSIONS, "tmpfiles-honours-exclusions")                                           \
        /* socket addresses (ListenStream=, ListenDatagram=, ListenSequentialPacket=: load/socket-address.c) */  \
        X(SOCKET_ADDRESS_PARSE, "socket-address-parse")                                                         \
        X(VSOCK_SOCKET_TYPES, "vsock-socket-types")                                                             \
        X(VSOCK_NAMED_CIDS, "vsock-named-cids")                                                                 \
        X(VSOCK_CID_ANY_NAMES, "vsock-cid-any-names")                                                           \
        X(SOCKET_BIND_PORT_ZERO, "socket-bind-port-zero")                                                       \
        X(PATH_PRINTF_MAX, "path-printf-max")                                                                   \
        /* calendar specifications (OnCalendar=: load/calendar-spec.c) */                                       \
        X(CALENDAR_SPEC_PARSE, "calendar-spec-parse")                                                           \
        /* exit statuses and signals (SuccessExitStatus=, KillSignal=, ...: load/exit-status.c) */             \
        X(EXIT_STATUS_NAMES, "exit-status-names")                                                               \
        X(SIGNAL_PARSE_RTMAX, "signal-parse-rtmax")                                                             \
        X(NUMBER_BASE_PREFIXES, "number-base-prefixes")

#define _FEATURE_ENUM(e, s) FEATURE_##e,
typedef enum Feature {
        FEATURE_LIST(_FEATURE_ENUM)
        _FEATURE_MAX,
        _FEATURE_INVALID = -EINVAL,
} Feature;
#undef _FEATURE_ENUM

const char *feature_to_string(Feature f);
Feature feature_from_string(const char *s);

typedef struct Rules Rules;

typedef struct FeatureSet {
        unsigned version;    /* the systemd version evaluated */
        const Rules *rules;  /* borrowed: where the facts came from (for feature_set_since() in messages) */
        uint64_t bits[(_FEATURE_MAX + 63) / 64];
} FeatureSet;

/* Every fact of rules/features.xml evaluated for systemd version v into *ret. Returns 0, or -EINVAL for v == 0. */
int rules_feature_set(const Rules *r, unsigned v, FeatureSet *ret);

static inline bool feature_enabled(const FeatureSet *s, Feature f) {
        return (s->bits[(unsigned) f / 64] >> ((unsigned) f % 64)) & 1;
}

/* The first version of the range of f that contains s->version or comes after it (for messages such as "systemd
 * before v243 refuses the file"), or 0 when f holds for no later version. */
unsigned feature_set_since(const FeatureSet *s, Feature f);
/* The last version of f's range that contains s->version, or of the last range before it; 0 when unbounded. */
unsigned feature_set_until(const FeatureSet *s, Feature f);
