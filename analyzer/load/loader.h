/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Loads units the way the system manager of a given systemd version finds them: the search path under a root,
 * a name map of files, aliases (symlinks inside the search path), linked units (symlinks leading outside it),
 * masks (/dev/null or empty), templates and instances, drop-ins in systemd's order and .wants/.requires/
 * .upholds directories (knowledge/unit-syntax.md §6–9). Diagnostics go to the DiagList; nothing is printed. */

#include "basic/diag.h"
#include "load/root.h"
#include "load/unit.h"
#include "rules/features.h"

typedef struct LoaderOptions {
        const Root *root;   /* NULL: the host's own "/" */
        char **extra_dirs;  /* host directories searched before everything (unit files given as paths) */
        const Root *package_root; /* packages read into memory (package.h), or NULL */
        char **package_dirs; /* unit directories inside package_root, searched after extra_dirs and before the
                              * root's search path; their units count as given, like those of extra_dirs */
        const FeatureSet *features; /* the rules of the systemd version (rules/features.xml); required */
        bool no_search_path; /* only extra_dirs: no root tree at all (the model's base units fill in) */
        const char *generator_dir; /* host directory searched in place of /run/systemd/generator (offline
                                    * generator output, see fstab-generator.h), or NULL */
} LoaderOptions;

typedef struct Loader Loader;

/* Reads the search path and builds the name map. Returns 0 or -errno (with a diagnostic). */
int loader_new(const LoaderOptions *opts, Loader **ret, DiagList *diags);
Loader *loader_free(Loader *l);
static inline void loader_freep(Loader **l) {
        loader_free(*l);
}

/* Loads the unit called name. A unit that cannot be found or parsed is still returned, with load_state
 * not-found/error/masked, so callers can show what happened. Returns -EINVAL for invalid names. */
int loader_load(const Loader *l, const char *name, Unit **ret, DiagList *diags);
/* loader_load() of a unit that also goes by the names in also, which the tree does not know as its aliases (the
 * base model's, for a unit without a file in the tree): their drop-ins and .wants/, .requires/ and .upholds/
 * links count as the unit's, as systemd reads those of every name a unit has. */
int loader_load_also(const Loader *l, const char *name, char * const *also, Unit **ret, DiagList *diags);
/* loader_load() up to knowing the unit: its id, names, fragment path and whether it is masked, not found or a
 * broken alias; its files are not read (no settings, drop-ins or links). For listing the units of a tree. */
int loader_identify(const Loader *l, const char *name, Unit **ret, DiagList *diags);
/* loader_identify() of names[0..n), for listing the units of a tree: (*ret)[i] is the id of names[i]'s unit
 * when it has a file and is not masked, else NULL (an invalid name, a broken alias, a mask; diagnostics are not
 * kept). Many names are shared out to a second thread, l frozen meanwhile. Returns 0 with a new array of n
 * strings or NULLs in *ret, or -ENOMEM. */
int loader_identify_ids(const Loader *l, char * const *names, size_t n, char ***ret);
/* While frozen (root_freeze() of every root it reads), loader_load() and loader_identify() may run on several
 * threads at once: the loader itself is not changed after loader_new(). */
void loader_freeze(const Loader *l, bool frozen);

/* The search path actually used (display paths), highest priority first. */
char **loader_search_path(const Loader *l);

/* Every name in the name map (regular files, aliases, links, masks), sorted. */
int loader_list_names(const Loader *l, char ***ret);
