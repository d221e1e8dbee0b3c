/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The model of one systemd version: starting from some units it loads them and, as PID 1 does, everything they
 * reference, from the root's unit files and, where the root has none, from the embedded base model of that
 * version (rules/base-*.xml). Then it applies the version's dependency rules (rules/dependencies.xml) and builds
 * the graph in which every edge carries its origin. Diagnostics go to the DiagList; nothing is printed. */

#include "load/loader.h"
#include "load/unit-settings.h"
#include "model/graph.h"
#include "model/mount-table.h"
#include "rules/features.h"
#include "rules/rules.h"

typedef struct ModelOptions {
        const Root *root;  /* NULL: no root tree, only extra_dirs and the base model */
        char **extra_dirs; /* host directories searched first (unit files given as paths) */
        const Root *package_root; /* packages read into memory, and their unit directories (LoaderOptions) */
        char **package_dirs;
        unsigned systemd;
        const char *distro; /* "debian", "ubuntu", "rhel", ... or NULL */
        /* the release judged (a canonical name of targets.xml), or NULL: the base model's units are those the
         * release ships (its <target> in rules/base-NNN.xml: omitted units, aliases) and, without a root (which
         * has its own), enabled as the release enables them, not as systemd's own install */
        const char *target;
        bool offline;       /* as systemd-analyze verify sees units (its manager defaults, no mount table) */
        bool no_base;       /* never use the base model */
        /* what a default installation of the target release adds (rules/profile-TARGET.xml), or NULL: its units
         * where neither the files nor the base model have one, its links on top */
        const Profile *profile;
        char **mounted;     /* mount points known from the mount table: their mount units exist without a file */
        /* the running system's mount table in PID 1's order, or NULL: file system types of mounts without
         * Type=, and which mount units PID 1 loaded as references before the table named them */
        const MountTable *mount_table;
        const char *generator_dir; /* offline generator output searched as /run/systemd/generator, or NULL */
} ModelOptions;

/* A RequiresMountsFor=/WantsMountsFor= entry of a unit. */
typedef struct MountsFor {
        char *path;
        bool wants;
        unsigned sd_mask;  /* 1 << SdOrigin: how systemd labels the entry */
        uint32_t origin;   /* graph origin of the first assignment or rule that made it */
} MountsFor;

typedef struct ModelUnit {
        Unit *unit;
        SettingStatus *st;
        uint64_t st_keys;   /* which keys the effective settings have, as bits of setting_key_bit() */
        uint32_t node;
        bool base;          /* from the embedded base model */
        char *profile_package; /* from ModelOptions.profile: its package and version ("ifupdown 0.8.41"), else NULL */
        bool loaded;        /* load state "loaded" (a unit without a file may be loaded: slices, -.mount, ...) */
        bool default_deps;
        bool target;        /* asked for by model_add() */
        /* a mount PID 1 loaded as a reference before the mount table named it: it has only the table's
         * dependencies (no exec, no slice, its mounts-for paths unexpanded) */
        bool reference_stub;
        MountsFor *mounts_for;
        size_t n_mounts_for;
        /* normalisations from <set> rules: keys and values, NULL-terminated, borrowed from the rules */
        const char **set_keys, **set_values;
} ModelUnit;

typedef struct Model Model;

int model_new(const ModelOptions *opts, const Rules *rules, Model **ret, DiagList *diags);
Model *model_free(Model *m);
static inline void model_freep(Model **m) {
        model_free(*m);
}
/* For the end of a run, just before the process exits: frees m, unless it has MODEL_RELEASE_MIN units or more.
 * Such a model is left for the exit to give back at once (freeing 100k units, an allocation at a time, takes a
 * fifth of a second); it stays reachable from here, so leak checkers do not count it. (The threshold is the
 * worker's: t6013 runs both ways under the sanitizers and valgrind.) */
#define MODEL_RELEASE_MIN 1000
void model_release(Model *m);
static inline void model_releasep(Model **m) {
        model_release(*m);
}

/* Loads name (a unit name) and, transitively, everything it references. Returns 0, -EINVAL for an invalid name,
 * -ENOMEM. *ret (optional) is the unit (borrowed). */
int model_add(Model *m, const char *name, ModelUnit **ret);
/* Before model_add() of n_names names: has a second thread load units ahead until model_finish(), when
 * prefetch_wanted() says so (prefetch.h). What the model builds is the same either way. */
int model_prefetch(Model *m, size_t n_names);
/* Before model_add(m, names[i]), for a caller adding names[0..n) in order: with a worker, starts loading the units
 * of names[i] and of the names after it, MODEL_HINT_AHEAD in all, while the model is at the ones before. *next is
 * the first name not named so yet (0 before the first call). Only a hint: nothing changes if a name is never
 * added. */
#define MODEL_HINT_AHEAD 64
void model_hint_names(Model *m, char * const *names, size_t n, size_t i, size_t *next);
/* Adds the edges that need every unit loaded (mount-path expansion, targets' default ordering) and indexes the
 * graph. Call once after the last model_add(). */
int model_finish(Model *m);

Graph *model_graph(const Model *m);
/* Does condition c (rules.h) hold for mu? 1 yes, 0 no, -ENOMEM. The model kinds (mounts-for, loaded, after)
 * need model_finish() first. */
int model_unit_cond_holds(const Model *m, const ModelUnit *mu, const DepCond *c);
/* The unit known by name (any of its names), or NULL. */
ModelUnit *model_get(const Model *m, const char *name);
/* The unit of a graph node, or NULL for a name that was referenced but never loaded. */
ModelUnit *model_unit_of_node(const Model *m, uint32_t node);
size_t model_unit_count(const Model *m);
ModelUnit *model_unit(const Model *m, size_t i);
unsigned model_version(const Model *m);
/* The version facts of model_version() (rules/features.xml), evaluated once; valid as long as m is. */
const FeatureSet *model_features(const Model *m);
/* The base model file used (NULL when none exists for this version or it is disabled). */
const char *model_base_file(const Model *m);
/* The names of every unit file the model can see (the tree's name map, then base units it lacks), sorted. */
int model_list_names(const Model *m, char ***ret);
