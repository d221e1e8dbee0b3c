/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The loader's own parts, shared by its files: loader.c (the name map, and loading a unit from it) and
 * loader-dirs.c (the drop-in and .wants directories of a unit, and the files in them). Nothing outside load/
 * includes this. */

#include "basic/hashmap.h"
#include "load/loader.h"
#include "rules/rules.h"

/* One directory of the search path. */
typedef struct UnitDir {
        const Root *root;
        char *path;     /* as listed, inside root */
        char *resolved; /* after following symlinks inside root; NULL when missing */
        bool listed;    /* false: it could not be listed (it may have any entry) */
        Hashmap name_set; /* its entries that may be drop-in or dependency directories (name.d, name.wants,
                           * name.requires, name.upholds): a small set to look them up in, owning its keys */
        size_t n_dir_suffix[4]; /* how many of each of those four there are */
        bool extra;
} UnitDir;

/* One name of the name map: either a file (path set) or an alias of another name (alias set). */
typedef struct NameEntry {
        char *name;
        size_t dir;     /* index of the directory it was found in */
        char *path;     /* in-root path of the file (or of the link, for linked units) */
        char *link;     /* in-root path of the symlink when the entry is one */
        char *alias;    /* the unit name this one is an alias of */
        bool linked;
        bool name_in_path; /* name points into path (a regular file's entry) */
} NameEntry;

/* The reverse map: final unit name -> every name that leads to it (systemd's unit_names_map). */
typedef struct NameList {
        char *key;
        char **names;
} NameList;

struct Loader {
        LoaderOptions opts;
        FeatureSet features; /* a copy: opts.features need not outlive loader_new() */
        Root *host;     /* for extra dirs */
        UnitDir *dirs;
        size_t n_dirs;
        Hashmap ids;    /* name -> NameEntry */
        Hashmap rnames; /* final name -> char** of names pointing to it */
};

static inline bool loader_has(const Loader *l, Feature f) {
        return feature_enabled(&l->features, f);
}

typedef struct FoundDir {
        const Root *root;
        char *path; /* in-root, resolved */
} FoundDir;

typedef struct FoundDirs {
        FoundDir *items;
        size_t n, allocated;
} FoundDirs;

typedef struct ConfFile {
        const Root *root;
        char *name;
        char *path;
} ConfFile;

/* Which of the four directory suffixes (".d", ".wants", ".requires", ".upholds") name ends with, or -1. */
int loader_dir_suffix_index(const char *name);
void found_dirs_done(FoundDirs *f);
/* The existing directories "NAME" + suffix of every name in names (with the template's and the prefixes'), in
 * the order of the search path; type_level adds "TYPE" + suffix last. */
int loader_collect_dirs(const Loader *l, char * const *names, const char *suffix, bool type_level,
                        FoundDirs *out, DiagList *diags);
/* conf_files_list: the files in dirs (ending in file_suffix, unless NULL), the first directory that has a file
 * name wins; sorted by file name. Free with conf_files_free(). */
int loader_list_conf_files(const FoundDirs *dirs, const char *file_suffix, ConfFile **ret, size_t *ret_n);
void conf_files_free(ConfFile *f, size_t n);
