/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Knowledge as data: the XML files in rules/ (read with libxml2, validated against the RelaxNG schemas in
 * rules/schema/, errors reported with file:line). A new systemd release should be a data change only. */

#include "basic/dep-type.h"
#include "basic/diag.h"
#include "basic/severity.h"
#include "basic/unit-name.h"

typedef struct Rules Rules;

/* Where rules are read from: $BOOTRACE_RULES_DIR if set, else the installed PKGDATADIR "/rules". */
const char *rules_default_dir(void);

/* Loads every rules file from dir (NULL: rules_default_dir()). Returns 0, or -EBADMSG/-ENOENT/... with a
 * DIAG_ERROR naming file:line. Each file is validated against its RelaxNG schema in dir/schema/ first. */
int rules_load(const char *dir, Rules **ret, DiagList *diags);
/* As rules_load(), but a base model (base-NNN.xml) is read, validated and checked only when a model first asks
 * for it (rules_base_model_load()): a run needs one or two of them, and reading them all is most of a short
 * run's cost. The cross-file checks of base models then see only those read; the test suite loads the shipped
 * rules in full. */
typedef enum RulesLoadFlags {
        RULES_BASES_ON_DEMAND = 1 << 0,
} RulesLoadFlags;
int rules_load_on_demand(const char *dir, Rules **ret, DiagList *diags);
int rules_load_flags(const char *dir, RulesLoadFlags flags, Rules **ret, DiagList *diags);
/* The loaded rules are read-only: they may be shared. rules_ref() adds a holder, rules_free() drops one and frees
 * the rules with the last (returns NULL). */
Rules *rules_ref(Rules *r);
Rules *rules_free(Rules *r);
static inline void rules_freep(Rules **r) {
        rules_free(*r);
}
/* The paths of the files that were loaded, in load order (a new strv, NULL on OOM). */
char **rules_file_paths(const Rules *r);

/* ---- releases (rules/targets.xml) */

/* Resolves a release name ("ubuntu-xenial", "debian-bookworm", "rhel-9", also aliases like "xenial", "16.04",
 * "debian-12") to its systemd version; a rolling release (status="rolling": Arch, Tumbleweed) has the newest
 * modelled version. Returns -ENOENT when unknown (or rolling with no base model). */
int rules_target_version(const Rules *r, const char *name, unsigned *ret_version, const char **ret_canonical);
/* All canonical target names, in file order (for --help, completion and error messages). */
char **rules_target_names(const Rules *r);

/* Where the target's version comes from (its source= attribute), or NULL. */
const char *rules_target_source(const Rules *r, const char *name);
/* The newest systemd version of any target (0 if there are none; a rolling one counts as the newest modelled).
 * The comment here used to speak of "the versions nearest below or equal to v", which the signature cannot do; choosing a base model for v belongs to the base-model
 * rules, which can add their own lookup. */
unsigned rules_newest_version(const Rules *r);
/* The range of systemd versions bootrace models: the oldest and the newest base model (rules/base-NNN.xml).
 * 0 when there are none. */
unsigned rules_oldest_modelled(const Rules *r);
unsigned rules_newest_modelled(const Rules *r);
/* The free-text note of a target (e.g. a point release with another systemd), or NULL. */
const char *rules_target_note(const Rules *r, const char *name);

/* ---- unit-file keys (rules/unit-keys.xml) */

typedef enum KeyKind {
        KEY_SINGLE,     /* last assignment wins */
        KEY_LIST,       /* accumulates; an empty assignment resets it */
        KEY_DEPENDENCY, /* accumulates; an empty assignment is a no-op (After=, Wants=, RequiresMountsFor=, ...) */
        KEY_CONDITION,  /* Condition*=: accumulates; an empty assignment resets ALL conditions */
        KEY_ASSERT,     /* Assert*=: likewise for asserts */
        KEY_LISTEN,     /* Listen*=: accumulate into the socket's one list of ports; an empty assignment of any resets
                         * ALL of them (config_parse_socket_listen(): socket_free_ports()) */
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

/* How systemd checks a value beyond its type (unit-keys.xml syntax=; rules/README.md says what each accepts). */
typedef enum ValueSyntax {
        VALUE_SYNTAX_NONE,
        VALUE_SYNTAX_INT,               /* a decimal number inside the <range>s */
        VALUE_SYNTAX_USER_GROUP,        /* a user or group name, or a numeric id */
        VALUE_SYNTAX_USER_GROUP_LIST,   /* several of them */
        VALUE_SYNTAX_ABSOLUTE_PATH,     /* absolute, no ".." */
        VALUE_SYNTAX_ABSOLUTE_PATH_LIST, /* words (quotes taken off) that are each an absolute path, no ".." */
        VALUE_SYNTAX_WORKING_DIRECTORY, /* "~", or an absolute path, optionally after "-" */
        VALUE_SYNTAX_IFNAME,            /* an interface name, its length inside the <range> */
        VALUE_SYNTAX_NAMESPACES,        /* a boolean, or namespace words (values), optionally after "~" */
        VALUE_SYNTAX_SOCKET_ADDRESS,    /* a listening address (load/socket-address.h judges it) */
        VALUE_SYNTAX_CALENDAR,          /* a calendar specification (load/calendar-spec.h judges it) */
        VALUE_SYNTAX_DEVICE_ALLOW,      /* DeviceAllow=: a device node path, block-NAME or char-NAME, then rwm */
        VALUE_SYNTAX_SOCKET_BIND,       /* SocketBindAllow=/Deny=: load/socket-address.h socket_bind_why() */
        VALUE_SYNTAX_SIGNAL,            /* a signal, as load/exit-status.h signal_parse() reads it */
        VALUE_SYNTAX_EXIT_STATUS_LIST,  /* exit statuses and signals (load/exit-status.h exit_status_list_why()) */
        VALUE_SYNTAX_DOCUMENTATION,     /* Documentation= URLs (load/unit-values.h documentation_why()) */
        _VALUE_SYNTAX_MAX,
        _VALUE_SYNTAX_INVALID = -EINVAL,
} ValueSyntax;

const char *value_syntax_to_string(ValueSyntax s);
ValueSyntax value_syntax_from_string(const char *s);

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
        ValueSyntax syntax;   /* VALUE_SYNTAX_NONE: the type alone decides */
        const char *range_if_key; /* some <range> depends on the value of this key set before (if-key=), or NULL */
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
/* Whether systemd v accepts value for k, by type, syntax and the value facts (<value>, <range>, <empty>) of that
 * version: 0 when it does, -EINVAL when it warns and ignores the assignment (or refuses the unit, see
 * rules_key_fatal()); *ret_why (optional) then says why in a few words (static text). Values with specifiers
 * ('%') are accepted where the syntax cannot be judged before expansion. */
int rules_key_check_value(const KeyInfo *k, const char *value, unsigned v, const char **ret_why);
/* The <range>s of k that depend on another key (if-key=): is the number value inside the one that holds in v
 * while that key has the value given (NULL: not set, or reset)? 1 inside, 0 outside (*ret_why, optional, says
 * why), -ENOENT when no such range holds (nothing to judge), -EINVAL when value is not a number. */
int rules_key_check_range_given(const KeyInfo *k, const char *value, unsigned v, const char *given,
                                const char **ret_why);
/* Does a bad value of k refuse the whole unit in v (<fatal>)? */
bool rules_key_fatal(const KeyInfo *k, unsigned v);
/* Does systemd v warn that k is not supported for units of type t and ignore it (<unsupported>)? */
bool rules_key_unsupported(const KeyInfo *k, UnitType t, unsigned v);
/* The warning systemd v prints whenever k is assigned (<warn>), or NULL. */
const char *rules_key_warning(const KeyInfo *k, unsigned v, const char *value);
/* The versions of one word of k->values (prefix words match by prefix). Returns 0, or -ENOENT. */
int rules_key_value_since(const KeyInfo *k, const char *value, unsigned *ret_since, unsigned *ret_until);
/* ---- named words inside values (rules/value-words.xml) */
/* Is word one of set's words ("exit-status", "signal") in version v? 1 or 0; -ENOENT when r has no such set (the
 * file is optional: the caller leaves names unjudged). */
int rules_value_word_known(const Rules *r, const char *set, const char *word, unsigned v);
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
/* A check's note about a unit (ordering-cycle: what the boot loses when the unit's job is deleted), or NULL. */
const char *rules_check_loss(const Rules *r, const char *id, const char *unit);
const CheckInfo *rules_check_get(const Rules *r, size_t i);
/* The check id closest to a mistyped one (a borrowed string of r), or NULL: for "did you mean". */
const char *rules_suggest_check(const Rules *r, const char *id);

/* The type's own section ("Service" for services), NULL for types without one (targets, devices). */
const char *rules_type_section(UnitType t);
/* Is section valid for unit type t ("Unit", "Install", the type section)? */
bool rules_section_is_valid(UnitType t, const char *section);

/* ---- dependency rules (rules/dependencies.xml): implicit and default dependencies per systemd version */

typedef enum DepCondKind {
        DEP_COND_SETTING, /* an effective setting of the unit (after <set> rules) */
        DEP_COND_VAR,     /* a value the model computes: id, stem, prefix, instance, where, what, ... */
        DEP_COND_DISTRO,  /* the target's distribution ("debian", "ubuntu", "rhel") */
        DEP_COND_ANY,     /* at least one of the nested conditions */
        /* exec-writes.xml only: the unit's place in the model */
        DEP_COND_MOUNTS_FOR, /* name is in its RequiresMountsFor=/WantsMountsFor= */
        DEP_COND_LOADED,     /* the unit called name is loaded */
        DEP_COND_AFTER,      /* it is ordered after the unit called name, directly */
        _DEP_COND_KIND_MAX,
        _DEP_COND_KIND_INVALID = -EINVAL,
} DepCondKind;

typedef struct DepCond {
        DepCondKind kind;
        bool negate;         /* <unless> */
        char *section;       /* for settings: NULL = the unit type's own section */
        char *name;          /* setting key, variable or distro */
        char **patterns;     /* fnmatch() patterns; "@true"/"@false" match systemd's booleans; "*" = non-empty */
        char *dflt;          /* value when unset ("@Name" = a manager default); NULL: unset matches nothing */
        bool word;           /* match any comma- or blank-separated word (mount options, unit and path lists) */
        unsigned since, until; /* the condition only exists in these versions (elsewhere it is left out) */
        struct DepCond *any; /* DEP_COND_ANY */
        size_t n_any;
} DepCond;

typedef enum DepActionKind {
        DEP_ACTION_ADD,        /* add dependencies of the types in deps on unit */
        DEP_ACTION_MOUNTS_FOR, /* a RequiresMountsFor=/WantsMountsFor= entry for path */
        DEP_ACTION_SET,        /* normalisation: give setting the value (DynamicUser= -> PrivateTmp=) */
        DEP_ACTION_AFTER_PULLED, /* targets: After= on what they pull in (deps), when both have default deps */
        _DEP_ACTION_KIND_MAX,
        _DEP_ACTION_KIND_INVALID = -EINVAL,
} DepActionKind;

typedef struct DepAction {
        DepActionKind kind;
        unsigned deps;       /* DEP_MASK() bits (add, after-pulled) */
        char *unit;          /* template: "{stem}.service", "systemd-journald@{LogNamespace}.socket" */
        char *path;          /* template for mounts-for */
        bool wants;          /* mounts-for: WantsMountsFor= instead of RequiresMountsFor= */
        char *each;          /* iterate over the words of this setting; {word} in the templates */
        char *setting;       /* set: the key (type section) */
        char *value;         /* set: its new value */
        unsigned line;
} DepAction;

typedef struct DepRule {
        char *id;            /* stable name, shown as the origin of the edges it adds */
        char *class;         /* bootrace's origin class: implicit, default, slice, path, ... */
        SdOrigin origin;     /* how systemd labels the edges */
        unsigned unit_types; /* 1 << UnitType */
        unsigned since, until;
        char *source;        /* upstream commit or document the rule comes from */
        DepCond *conds;
        size_t n_conds;
        DepAction *actions;
        size_t n_actions;
        const char *file;
        unsigned line;
} DepRule;

/* The rules in file order: first every rule with a <set> action (normalisations), then the others. */
size_t rules_dep_count(const Rules *r);
const DepRule *rules_dep_get(const Rules *r, size_t i);
/* Does the rule hold for systemd v and unit type t? */
bool dep_rule_applies(const DepRule *d, UnitType t, unsigned v);
/* Is the condition part of the rule at systemd v? */
bool dep_cond_applies(const DepCond *c, unsigned v);
/* Does a <mount-point> of role ("api", "ignored", "extrinsic") in rules/dependencies.xml hold for the mount at where
 * with file system type fstype (either may be NULL) at version v? */
bool rules_mount_point(const Rules *r, const char *role, const char *where, const char *fstype, unsigned v);
/* A manager default ("DefaultStandardOutput"): the value PID 1 uses at boot, or with offline the value that
 * systemd-analyze verify uses. NULL when unknown. */
const char *rules_manager_default(const Rules *r, const char *name, unsigned v, bool offline);
/* Units that exist without a unit file (-.mount, -.slice, init.scope) in v: is name one of them? With
 * ret_no_default_deps (optional): whether the manager turns its default dependencies off. */
bool rules_unit_is_perpetual(const Rules *r, const char *name, unsigned v, bool *ret_no_default_deps);

/* ---- the exec-time write model (rules/exec-writes.xml, rules/target-tmpfiles.xml) */

typedef enum ExecWriteOp {
        EXEC_WRITE_MKDTEMP,
        EXEC_WRITE_MKDIR,
        EXEC_WRITE_MOUNT,
        EXEC_WRITE_CHMOD, /* chmod()/chown() of what exists: a write even when nothing is made */
        EXEC_WRITE_NONE,  /* nothing is made: the path must exist */
        _EXEC_WRITE_OP_MAX,
        _EXEC_WRITE_OP_INVALID = -EINVAL,
} ExecWriteOp;

typedef struct ExecWriteFailure {
        unsigned since, until;
        char *text;    /* what the journal shows when the file system is read-only */
        char *source;
} ExecWriteFailure;

/* A path PID 1 (pid1) or the unit's child writes before exec when the conditions hold. */
typedef struct ExecWrite {
        char *id;
        bool pid1;
        char *setting;        /* the key that asks for it */
        char *path, *under;   /* templates: %n the unit name, {word}/{dest}/{src} each word of the setting */
        ExecWriteOp op;
        bool lasting;         /* used while the unit runs: nothing may remove it */
        bool missing;         /* made only when it does not exist */
        bool in_root;         /* with RootDirectory= it is inside that directory (RootImage=: inside the image) */
        char **checks;        /* the checks that judge it (none: empty) */
        unsigned since, until;
        char *source;
        DepCond *conds;
        size_t n_conds;
        ExecWriteFailure *fails;
        size_t n_fails;
        const char *file;
        unsigned line;
} ExecWrite;

size_t rules_exec_write_count(const Rules *r);
const ExecWrite *rules_exec_write_get(const Rules *r, size_t i);
bool exec_write_applies(const ExecWrite *w, unsigned v);
/* Does the check called id judge w? */
bool exec_write_judged_by(const ExecWrite *w, const char *id);
/* The failure of w on a read-only file system at v, or NULL. */
const ExecWriteFailure *exec_write_failure(const ExecWrite *w, unsigned v);
const char *exec_write_op_to_string(ExecWriteOp op);

/* The tmpfiles.d lines of /tmp and /var/tmp that a target's systemd-tmpfiles-setup.service runs at boot. */
typedef struct TargetTmpfiles {
        char *target;   /* NULL: upstream's, for the versions since..until */
        unsigned since, until;
        char *source;
        char **lines;
        unsigned *line_numbers; /* the line of each of lines in file */
        const char *file;
        unsigned line;
} TargetTmpfiles;

/* The lines of target (a canonical name, or NULL) at v: its own, else upstream's of v. NULL when none. */
const TargetTmpfiles *rules_target_tmpfiles(const Rules *r, const char *target, unsigned v);

/* ---- base models (rules/base-NNN.xml): the units systemd NNN ships for early boot, as unit-file text */

typedef struct BaseUnit {
        const char *name;
        const char *text;  /* the unit file */
        size_t size;
        const char *path;  /* where the distribution installs it (for messages), may be NULL */
        const char *file;  /* the rules file */
        unsigned line;     /* line of the file where text's first line is */
        const char *package, *version; /* profiles: the package and version it comes from (NULL in base models) */
} BaseUnit;

typedef struct BaseLink {
        DepType type;      /* Wants, Requires or Upholds: a NAME.wants/ (...) symlink */
        const char *unit;
        const char *name;
        unsigned line;
        const char *package; /* profiles: the package whose installation or generator makes it (NULL in base models) */
} BaseLink;

typedef struct BaseModel BaseModel;

/* The base model for systemd v: the newest one not newer than v, else the oldest. NULL when there are none. */
const BaseModel *rules_base_model(const Rules *r, unsigned v);
/* The same, reading the model first when it was left for later (rules_load_on_demand()); the rules stay
 * logically unchanged. Returns 0 (*ret NULL when there are no base models) or <0 with diagnostics. */
int rules_base_model_load(const Rules *r, unsigned v, const BaseModel **ret, DiagList *diags);
/* The modelled range at once (rules_oldest_modelled(), rules_newest_modelled()). Returns 0, or -ENOENT when the
 * rules have no base model. */
int rules_model_range(const Rules *r, unsigned *ret_oldest, unsigned *ret_newest);
unsigned base_model_version(const BaseModel *b);
const char *base_model_file(const BaseModel *b);
const char *base_model_source(const BaseModel *b);
const BaseUnit *base_model_unit(const BaseModel *b, const char *name);
size_t base_model_unit_count(const BaseModel *b);
const BaseUnit *base_model_unit_get(const BaseModel *b, size_t i);
/* The links of unit (pointers into the model; *ret_n of them). */
size_t base_model_links(const BaseModel *b, const char *unit, const BaseLink **ret);
/* The unit an alias name stands for, or NULL. */
const char *base_model_alias(const BaseModel *b, const char *name);

/* A release's enablement on top of a base model (<target> in base-NNN.xml): the links and aliases its packages
 * create on install (postinst, presets), the static links it removes, the units it keeps out of the unit path. */
typedef struct BaseTarget BaseTarget;

/* The enablement of the release named name (canonical target name) in b, or NULL when b has none for it. */
const BaseTarget *base_model_target(const BaseModel *b, const char *name);
size_t base_model_target_count(const BaseModel *b);
const BaseTarget *base_model_target_get(const BaseModel *b, size_t i);
const char *base_target_name(const BaseTarget *t);
const char *base_target_source(const BaseTarget *t);
/* The links the release adds to unit (pointers into the target; *ret_n of them). t may be NULL. */
size_t base_target_links(const BaseTarget *t, const char *unit, const BaseLink **ret);
/* Whether the release removes this static link of the base model (t may be NULL). */
bool base_target_unlinks(const BaseTarget *t, const BaseLink *l, const char *unit);
/* Whether the release keeps unit out of the unit path (t may be NULL). */
bool base_target_omits(const BaseTarget *t, const char *unit);
/* The unit an alias of the release stands for, or NULL (t may be NULL). */
const char *base_target_alias(const BaseTarget *t, const char *name);
/* Every name of the base unit called unit: unit first, then the aliases b and the release t (may be NULL) give it,
 * as a new strv in *ret. Returns 0 or -ENOMEM. */
int base_model_names(const BaseModel *b, const BaseTarget *t, const char *unit, char ***ret);
/* ---- profiles (rules/profile-TARGET.xml): what a default installation of a release adds to its boot
 * transaction beyond systemd's own units (its network stack, cloud-init), per profile */

#define PROFILE_MINIMAL "minimal" /* systemd's units only: no profile */

typedef struct ProfilePackage {
        const char *name, *version;
        const char *source; /* where it was read: a Debian archive file, an upstream repository at a tag */
        const char *reason; /* why a default installation has it */
} ProfilePackage;

typedef struct Profile Profile;

/* The profile name of target (a canonical name), its default one for name NULL. NULL when there is none. */
const Profile *rules_profile(const Rules *r, const char *target, const char *name);
/* "minimal" and the profile names of target, in file order (a new strv, NULL on OOM). */
char **rules_profile_names(const Rules *r, const char *target);
const char *profile_name(const Profile *p);
const char *profile_target(const Profile *p);
const char *profile_description(const Profile *p);
const char *profile_file(const Profile *p); /* the rules file */
bool profile_is_default(const Profile *p);
size_t profile_package_count(const Profile *p);
const ProfilePackage *profile_package_get(const Profile *p, size_t i);
/* A unit of the profile (of the profiles it extends too), with package and version set; NULL when none. */
const BaseUnit *profile_unit(const Profile *p, const char *name);
/* The profile's links of unit (pointers into the profile; *ret_n of them). */
size_t profile_links(const Profile *p, const char *unit, const BaseLink **ret);
/* The unit an alias name stands for, or NULL. */
const char *profile_alias(const Profile *p, const char *name);
/* ---- journal messages (rules/messages.xml): how PID 1's lifecycle records look, per systemd version */

/* The placeholders of a text form ({ident}, {unit}, …; messages.xml lists them), and a literal part. */
typedef enum MessageSlot {
        MESSAGE_SLOT_LITERAL,     /* not a placeholder: MessagePart.literal */
        MESSAGE_SLOT_IDENT,       /* a unit as job status texts name it (StatusUnitFormat=) */
        MESSAGE_SLOT_UNIT,
        MESSAGE_SLOT_JOB_UNIT,
        MESSAGE_SLOT_JOB_TYPE,
        MESSAGE_SLOT_CYCLE_UNIT,
        MESSAGE_SLOT_CYCLE_TYPE,
        MESSAGE_SLOT_RESULT,
        MESSAGE_SLOT_EXIT_CODE,
        MESSAGE_SLOT_EXIT_STATUS,
        MESSAGE_SLOT_STEP,
        MESSAGE_SLOT_ERROR,
        MESSAGE_SLOT_JOBS,
        MESSAGE_SLOT_VERSION,
        MESSAGE_SLOT_NUMBER,
        MESSAGE_SLOT_TEXT,
        _MESSAGE_SLOT_MAX,
        _MESSAGE_SLOT_INVALID = -EINVAL,
} MessageSlot;

const char *message_slot_to_string(MessageSlot s); /* "ident", "unit", "job-unit", …; "" for the literal */
MessageSlot message_slot_from_string(const char *s);

typedef enum MessageWriter {
        MESSAGE_WRITER_MANAGER,  /* PID 1 and its helpers (systemd-executor) */
        MESSAGE_WRITER_JOURNALD,
        MESSAGE_WRITER_KERNEL,
        _MESSAGE_WRITER_MAX,
        _MESSAGE_WRITER_INVALID = -EINVAL,
} MessageWriter;

const char *message_writer_to_string(MessageWriter w); /* "manager", "journald", "kernel" */
MessageWriter message_writer_from_string(const char *s);

typedef struct MessagePart {
        MessageSlot slot;
        const char *literal; /* MESSAGE_SLOT_LITERAL only, else NULL */
} MessagePart;

/* One text form (<text>). The strings live as long as the Rules. */
typedef struct MessageText {
        const char *event;        /* the event name of schema/messages.rng: "job-start", "unit-failed", … */
        bool unit_scope;          /* the text after a "UNIT: " prefix; else the whole MESSAGE */
        MessageWriter from;
        const char *result, *job_type, *step; /* set by the form itself; NULL when not */
        const char *form;         /* the text with its placeholders, white space normalised */
        const MessagePart *parts; /* form split into literals and placeholders, in order */
        size_t n_parts;
        unsigned since, until;    /* 0: open */
        const char *file;
        unsigned line;
} MessageText;

typedef struct MessageField {
        const char *name; /* the journal field: "UNIT_RESULT" */
        const char *to;   /* what it sets: "result", "exit-code", "exit-status", "job-unit", "job-type", "errno" */
        unsigned since, until;
} MessageField;

typedef struct MessageOnResult {
        const char *value; /* NULL: any other value */
        const char *event; /* NULL: the record's own event */
} MessageOnResult;

typedef struct MessageRequire {
        const char *field, *value;
        unsigned since, until;
} MessageRequire;

/* One structured record (<message-id>). */
typedef struct MessageIdInfo {
        const char *id;    /* 32 lower-case hex digits */
        const char *name;  /* "SD_MESSAGE_UNIT_STARTED" */
        const char *event;
        const char *job_type, *result; /* set by the record; result only when nothing else gives one */
        bool any_writer;   /* also written by others than PID 1 */
        unsigned since, until;
        const MessageField *fields;
        size_t n_fields;
        const MessageOnResult *on_result;
        size_t n_on_result;
        const MessageRequire *requires;
        size_t n_requires;
} MessageIdInfo;

typedef struct MessageWriterInfo {
        const char *identifier; /* SYSLOG_IDENTIFIER */
        MessageWriter role;
        unsigned since, until;
} MessageWriterInfo;

typedef struct MessageIdentInfo {
        const char *format;    /* "description", "name", "combined" */
        const char *separator; /* combined: between name and description (" - "); else NULL */
        unsigned since, until;
} MessageIdentInfo;

/* The entries of messages.xml, in file order: *ret points into the Rules; the count is returned. */
size_t rules_message_texts(const Rules *r, const MessageText **ret);
size_t rules_message_ids(const Rules *r, const MessageIdInfo **ret);
size_t rules_message_writers(const Rules *r, const MessageWriterInfo **ret);
size_t rules_message_idents(const Rules *r, const MessageIdentInfo **ret);
