/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Inside the rules module: the Rules object and the table of rules file kinds. Adding a kind of rules file is a
 * schema in rules/schema/, a parse function and an entry in rules_file_kinds[] (rules.c); the parse function
 * stores what it read in its own member of Rules and frees it in its done function. */

#include <libxml/tree.h>

#include "basic/hashmap.h"
#include "rules/rules.h"

typedef struct RulesFileKind RulesFileKind;

/* One loaded file, kept for messages and for modules that want to know what was read. */
typedef struct RulesFile {
        char *path;
        const RulesFileKind *kind;
} RulesFile;

/* A parse function reads a validated document. It reports semantic errors (duplicates, bad numbers, unknown
 * names) as DIAG_ERROR with file:line and then returns -EBADMSG; -ENOMEM on OOM. */
typedef int (*RulesParseFunc)(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
typedef void (*RulesDoneFunc)(Rules *r);
/* Runs once after every file of the kind was parsed (cross-file checks, indexes). */
typedef int (*RulesFinishFunc)(Rules *r, DiagList *diags);

struct RulesFileKind {
        const char *pattern;  /* file name or fnmatch() pattern in the rules directory */
        const char *schema;   /* file name in the rules directory's schema/ */
        bool required;        /* a missing file is an error (else: zero files of this kind are fine) */
        RulesParseFunc parse;
        RulesFinishFunc finish;
        RulesDoneFunc done;
};

typedef struct Target {
        char *name;
        unsigned version;
        char *package;
        char *status;
        char *note;
        char *source;      /* where the version comes from, or NULL */
        bool rolling;      /* status="rolling": no version of its own, the newest modelled one */
        char **aliases;
        char *file;
        unsigned line;
} Target;

/* A key as stored: the public KeyInfo plus what only this module needs. */
typedef enum KeyFactKind {
        KEY_FACT_RANGE,
        KEY_FACT_FATAL,
        KEY_FACT_EMPTY,
        KEY_FACT_WARN,
        KEY_FACT_UNSUPPORTED,
        _KEY_FACT_KIND_MAX,
} KeyFactKind;

/* One <range>, <fatal>, <empty>, <warn> or <unsupported> of a key, for since..until (until 0: still true). */
typedef struct KeyFact {
        KeyFactKind kind;
        unsigned since, until;
        bool has_min, has_max;
        long long min, max;     /* RANGE */
        bool empty_reset;       /* EMPTY: means="reset" (else "invalid") */
        char *text;             /* WARN */
        char *value;            /* WARN: only when the key is given this value (NULL: any value) */
        unsigned unit_types;    /* UNSUPPORTED: the unit types (bits) that cannot have the key */
        char *if_key;           /* RANGE: holds only while if_key, set before in the unit, has one of if_values */
        char **if_values;
        bool if_unset;          /* RANGE with if_key: also while if_key is not set (or was reset) */
} KeyFact;

typedef struct KeyEntry {
        KeyInfo info;
        unsigned *value_since, *value_until; /* parallel to info.values */
        KeyFact *facts;
        size_t n_facts;
        bool type_section;                   /* [Service] etc.; false: [Unit] or [Install] */
        char *file;                          /* borrowed from RulesFile */
        unsigned line;
        struct KeyEntry *next;               /* the next entry with the same name */
} KeyEntry;

typedef struct CheckEntry {
        CheckInfo info;
        char **loss_units, **loss_texts; /* parallel */
        const char *file; /* borrowed from RulesFile */
        unsigned line;
} CheckEntry;

typedef struct PendingBase {
        char *path;       /* rules/base-NNN.xml */
        unsigned version; /* NNN */
} PendingBase;

struct Rules {
        unsigned n_ref;
        char *dir;
        RulesFile *files;
        size_t n_files, allocated_files;

        /* targets.xml */
        Target *targets;
        size_t n_targets, allocated_targets;

        /* unit-keys.xml */
        KeyEntry **keys;          /* every entry, in file order */
        size_t n_keys, allocated_keys;
        Hashmap keys_by_name;     /* name -> first KeyEntry with that name (chain via next) */
        char **strings;           /* interned strings shared by entries (section names, renamed_to) */

        /* dependencies.xml */
        DepRule **dep_rules;      /* <set> rules first, then the others, each group in file order */
        size_t n_dep_rules, allocated_dep_rules;
        struct RulesVersioned *perpetual, *manager_defaults, *mount_points;
        size_t n_perpetual, n_manager_defaults, n_mount_points;

        /* checks.xml */
        CheckEntry *checks;
        size_t n_checks, allocated_checks;

        /* features.xml */
        struct FeatureRange *feature_ranges;
        size_t n_feature_ranges, allocated_feature_ranges;

        /* base-NNN.xml */
        struct BaseModel **bases;
        size_t n_bases;
        /* rules_load_on_demand(): the base models not read yet, by the version their file name gives */
        PendingBase *pending_bases;
        size_t n_pending_bases;

        /* profile-TARGET.xml */
        struct Profile **profiles;
        size_t n_profiles;
        /* messages.xml */
        MessageText *message_texts;
        size_t n_message_texts, allocated_message_texts;
        MessageIdInfo *message_ids;
        size_t n_message_ids, allocated_message_ids;
        MessageWriterInfo *message_writers;
        size_t n_message_writers, allocated_message_writers;
        MessageIdentInfo *message_idents;
        size_t n_message_idents, allocated_message_idents;

        /* exec-writes.xml, target-tmpfiles.xml */
        ExecWrite *exec_writes;
        size_t n_exec_writes;
        TargetTmpfiles *target_tmpfiles;
        size_t n_target_tmpfiles;

        /* value-words.xml */
        struct ValueWordSet *word_sets;
        size_t n_word_sets;

        /* add the parsed data of new rules file kinds here */
};

/* A named fact that holds for a range of versions (perpetual units, manager defaults, mount points). */
typedef struct RulesVersioned {
        char *name;
        char *value, *offline_value; /* manager defaults only; mount points: value is the role */
        char *fstype;                /* mount points only: the entry matches a file system type, not a path */
        unsigned since, until;
        bool no_default_deps;        /* perpetual units only */
        bool tree;                   /* mount points only: everything below the path too */
} RulesVersioned;

/* One range of a feature (features.xml). */
typedef struct FeatureRange {
        int feature;      /* Feature */
        unsigned since, until; /* until 0 = still holds */
        const char *file; /* borrowed from RulesFile */
        unsigned line;
} FeatureRange;

int rules_parse_features(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
int rules_features_finish(Rules *r, DiagList *diags);
void rules_features_done(Rules *r);

int rules_parse_value_words(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_value_words_done(Rules *r);

int rules_parse_targets(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_targets_done(Rules *r);

int rules_parse_checks(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_checks_done(Rules *r);

int rules_parse_unit_keys(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
int rules_unit_keys_finish(Rules *r, DiagList *diags);
void rules_unit_keys_done(Rules *r);

int rules_parse_dependencies(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_dependencies_done(Rules *r);

int rules_parse_exec_writes(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
int rules_exec_writes_finish(Rules *r, DiagList *diags);
void rules_exec_writes_done(Rules *r);
int rules_parse_target_tmpfiles(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_target_tmpfiles_done(Rules *r);

/* A condition of dependencies.xml's grammar (<if>, <unless>, <any>), for other files that use it. */
int rules_parse_dep_cond(const RulesFile *f, xmlNode *n, DepCond *c, DiagList *diags);
void rules_dep_cond_done(DepCond *c);

int rules_parse_base(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
/* Reads the pending base model r->pending_bases[i] now (it leaves the pending list). Returns 0, or <0 with the
 * diagnostics in diags. */
int rules_load_pending_base(Rules *r, size_t i, DiagList *diags);
int rules_base_finish(Rules *r, DiagList *diags);
void rules_base_done(Rules *r);
/* Shared with the profiles: BaseUnit by name, BaseLink by unit then line, and the links of unit in a sorted array. */
/* Frees what a BaseUnit / the BaseLinks of an array own (a profile's package and version too). */
void base_unit_done(BaseUnit *u);
void base_links_free(BaseLink *l, size_t n);
int base_unit_cmp(const void *a, const void *b);
int base_link_cmp(const void *a, const void *b);
size_t base_links_find(const BaseLink *links, size_t n, const char *unit, const BaseLink **ret);

int rules_parse_profiles(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_profiles_done(Rules *r);

int rules_parse_messages(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags);
void rules_messages_done(Rules *r);

/* Shared by the parse functions: a version attribute ("257"); absent is 0 when optional. Reports a DIAG_ERROR
 * naming file:line and returns -EBADMSG when the value is not a number (or missing and required). */
int rules_parse_version(const RulesFile *f, xmlNode *n, const char *attr, bool required, unsigned *ret,
                        DiagList *diags);
/* The version-fact attributes of an element: since= and until= (both optional, both inclusive; absent = 0 for
 * "from the oldest" and "still holds"); refuses since > until. Every rules file reads them with this. */
int rules_parse_range(const RulesFile *f, xmlNode *n, unsigned *ret_since, unsigned *ret_until, DiagList *diags);
/* Adds a DIAG_ERROR at file:line and returns -EBADMSG (or -ENOMEM). */
int rules_bad(DiagList *diags, const char *file, unsigned line, const char *fmt, ...) _printf_(4, 5);
