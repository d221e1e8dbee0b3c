/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Options shared by every verb and the parsing helper verbs use for their own options. */

#include <getopt.h>

#include "basic/diag.h"
#include "basic/severity.h"
#include "load/version.h"
#include "report/format.h"
#include "rules/features.h"

typedef struct Context {
        char *root;        /* --root=DIR, NULL for the host's own system */
        char *target;      /* --target=NAME, e.g. "debian-bookworm" (the last one given) */
        char **targets;    /* every --target=NAME, in order (fix judges a repair for several) */
        unsigned systemd;  /* --systemd=N; 0 = decide from target, root or default */
        OutputFormat format;
        Severity fail_on;
        bool color;
        bool quiet;
        bool nearest_model; /* --nearest-model: a version outside the modelled range is judged with the nearest */
        char *instance;    /* --instance=NAME: the instance a template file is loaded as; NULL = as verify does */
        bool list_options; /* cli_parse() lists the options instead of parsing them (bootrace __complete) */
} Context;

void context_init(Context *c);
void context_done(Context *c);

/* The instance a template given as a file is loaded as (show, graph): --instance=, else what that version's
 * systemd-analyze verify takes ("i" up to 256, "test_instance" from 257; features.xml). */
const char *context_template_instance(const Context *c, const FeatureSet *fs);

/* Exit statuses (DESIGN.md): 0 clean, 1 findings/fixes/failed verdict, 2 usage, input or environment error. */
enum {
        EXIT_CLEAN = 0,
        EXIT_FINDINGS = 1,
        EXIT_ERROR = 2,
};

/* A verb's own option handler: returns 0 when handled, -EINVAL after printing a usage error. */
typedef int (*VerbOptionHandler)(int c, const char *arg, void *userdata);

/* Parses argv (argv[0] is the verb name) with the global options plus extra/extra_short. On return *ret_optind
 * indexes the first positional argument. Returns 0, 1 when --help was printed (caller exits 0), or -EINVAL after
 * printing a usage error. help is printed for --help. With ctx->list_options set it parses nothing, prints
 * every option it would accept, one per line ("--root=", "--quiet", "-q", "-D="; "=" when it takes an
 * argument), and returns 1 like --help. */
int cli_parse(int argc, char *argv[], Context *ctx, const struct option *extra, const char *extra_short,
              VerbOptionHandler handler, void *userdata, const char *help, int *ret_optind);

/* Is arg a global option that takes its value from the next argument ("--target" of "--target NAME", also an
 * unambiguous abbreviation such as "--targ")? main.c asks it of the options before the verb. */
bool cli_global_option_takes_value(const char *arg);

/* Is format one of the allowed ones (a _FORMAT_INVALID-terminated list)? Prints an error when not. */
int cli_check_format(const Context *ctx, const char *verb, const OutputFormat *allowed);

/* A verb option naming a unit (--transaction=UNIT): a plain or instance unit name, copied into *ret (replacing
 * what was there). Returns 0, -ENOMEM, or -EINVAL after printing a usage error that names option. */
int cli_set_unit_name(const char *option, const char *arg, char **ret);

typedef struct Root Root;
typedef struct Rules Rules;

/* The tree of --root=DIR into *ret, or NULL without --root. Returns 0, or a negative errno after printing an
 * error. */
int cli_open_root(const Context *ctx, Root **ret);
/* bootrace's rules (from rules_default_dir()). Returns 0, or a negative errno after printing the diagnostics in
 * diags and an error. */
int cli_load_rules(Rules **ret, DiagList *diags);
/* Drops this process's rules (main(), after the verb). */
void cli_release_rules(void);

/* What the verbs that judge unit files read before their own work, in this order: the tree of --root, the
 * version judged for (with INPUTS_VERSION), the rules, the facts of that version (with INPUTS_FEATURES). */
typedef enum InputsFlags {
        INPUTS_VERSION = 1 << 0,  /* resolve the version (context_resolve_version()), its note and --target's names */
        INPUTS_FEATURES = 1 << 1, /* and the version's facts (implies INPUTS_VERSION) */
} InputsFlags;

typedef struct Inputs {
        Root *root;               /* NULL without --root */
        Rules *rules;
        VersionChoice vc;         /* with INPUTS_VERSION */
        char *nearest;            /* version_choice_note(&vc): NULL unless judged with the nearest model */
        const char *target_name;  /* the canonical name of --target (owned by rules), or NULL */
        char *distro;             /* its distribution ("debian" of "debian-bookworm"), or NULL */
        FeatureSet features;      /* with INPUTS_FEATURES */
} Inputs;

/* Opens ctx's inputs into *ret (what reading the rules said goes to diags). Returns 0, or a negative errno after
 * printing an error. *ret is to be released with inputs_done() either way. */
int cli_open_inputs(const Context *ctx, InputsFlags flags, Inputs *ret, DiagList *diags);
void inputs_done(Inputs *in);

typedef struct Profile Profile;

/* The profile of --profile=NAME (lint, fix) for target (a canonical target name, or NULL): NULL for "minimal",
 * for a root (judged as it is) and for a target without profiles; without name the target's default. Returns 0,
 * or -EINVAL/-ENOENT/-ENOMEM after printing an error (a name with a root or without a target, an unknown name
 * with the target's names). */
int cli_resolve_profile(const Rules *rules, const char *target, bool root, const char *name, const Profile **ret);
/* Says on stderr which profile target is judged with (nothing when quiet or without a target). */
void cli_say_profile(const Profile *p, const char *target, bool quiet);

/* Long option ids for verbs start here so they never clash with the global ones. */
#define ARG_VERB_BASE 0x200

/* Prints "bootrace: " + message to stderr. */
void log_error(const char *fmt, ...) _printf_(1, 2);
void log_warning(const char *fmt, ...) _printf_(1, 2);
/* The same + ": " + strerror(error) (error negative or positive); return the negative errno, so that
 * "return log_error_errno(r, ...);" reports and fails at once. */
int log_error_errno(int error, const char *fmt, ...) _printf_(2, 3);
int log_warning_errno(int error, const char *fmt, ...) _printf_(2, 3);
/* "bootrace: out of memory"; returns -ENOMEM. */
int log_oom(void);

/* The version facts of version (rules/features.xml) into *ret, loading the rules into *rules first when it is
 * NULL (the caller frees them). Returns 0, or a negative errno after printing an error. */
int cli_feature_set(Rules **rules, unsigned version, FeatureSet *ret);

/* Resolves the version for ctx into *ret (VersionChoice). A version outside the modelled range (the oldest and
 * newest base model) is -ERANGE after a one-line error naming the range, unless --nearest-model, which judges
 * with the nearest end of it. Returns 0, -ENOENT for an unknown --target, or another negative errno (after
 * printing an error). */
int context_resolve_version(const Context *ctx, const Root *root, VersionChoice *ret);
/* The same check for a version found elsewhere (drift: the running systemd's), what naming where it comes from
 * ("the running systemd"). */
int context_check_version(const Context *ctx, unsigned asked, VersionSource source, const char *what,
                          VersionChoice *ret);
/* --version: bootrace's version and the modelled range (from the rules' base models), on stdout. */
bool cli_print_version(void); /* false (said on stderr) when the rules cannot be read */
/* The line reports print when version_choice_nearest(c): "judged with systemd N, the nearest model to M ..." */
char *version_choice_note(const VersionChoice *c);
