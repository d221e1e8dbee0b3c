/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A unit as loaded from disk: its names, the files read (fragment, then drop-ins in the order applied), every
 * assignment with its file and line, and the dependencies its .wants/.requires/.upholds directories add. */

#include "basic/unit-name.h"
#include "basic/util.h"
#include "load/unit-ignores.h"

typedef enum LoadState {
        LOAD_LOADED,
        LOAD_NOT_FOUND,
        LOAD_BAD_SETTING,
        LOAD_ERROR,
        LOAD_MASKED,
        _LOAD_STATE_MAX,
        _LOAD_STATE_INVALID = -EINVAL,
} LoadState;

const char *load_state_to_string(LoadState s);

/* section, key and value point into the pool of their source (Unit.sources[source].pool): a large tree has a
 * million settings, and one allocation per file holds them all. */
typedef struct Setting {
        char *section;
        char *key;
        char *value;
        uint32_t source; /* index into Unit.sources */
        unsigned line;
} Setting;


typedef enum LinkKind {
        LINK_WANTS,
        LINK_REQUIRES,
        LINK_UPHOLDS,
        _LINK_KIND_MAX,
        _LINK_KIND_INVALID = -EINVAL,
} LinkKind;

const char *link_kind_to_string(LinkKind k);      /* "Wants" */
const char *link_kind_dir_suffix(LinkKind k);     /* ".wants" */

typedef struct DirLink {
        LinkKind kind;
        char *name;    /* the dependency: the symlink's name (with our instance for template entries) */
        char *path;    /* display path of the symlink */
        char *target;  /* what the symlink points to, as stored (NULL for non-symlinks) */
        bool masked;   /* symlink to /dev/null: this one dependency is disabled */
} DirLink;

typedef struct Source {
        char *path;    /* display path (root prefix included); the unit's fragment_path itself when shared */
        char *pool;    /* the strings of the file's settings (UnitFile.pool), owned */
        bool dropin;
        bool masked;   /* a drop-in that is a symlink to /dev/null or empty: read, contributes nothing */
        bool included; /* read through ".include" (systemd <= 245) */
        bool refused;  /* systemd refused the file at a line: its settings are those before it, for warnings only */
        bool shared;   /* path is the unit's fragment_path (the fragment's source): not freed on its own */
        SourceIgnore *ignores; /* its "# bootrace: ignore" comments (unit-ignores.h), owned */
        size_t n_ignores;
} Source;

typedef struct Unit {
        char *id;                  /* its main name: the fragment's name when loaded through an alias */
        char *requested;           /* the name it was asked for, kept only when it is not id: see unit_requested() */
        UnitType type;
        LoadState load_state;
        int load_error;            /* negative errno for LOAD_ERROR / LOAD_NOT_FOUND details */
        char *fragment_path;       /* display path of the unit file, NULL if none */
        char *fragment_link;       /* display path of the symlink that led to it, if any (alias or linked) */
        bool linked;               /* fragment reached through a symlink pointing outside the search path */
        bool generated;            /* fragment in a generator directory */
        bool from_extra_dir;       /* fragment in a directory given on the command line */
        char **names;              /* id first, then the other names (aliases), sorted */
        Source *sources;           /* [0] is the fragment (if any), then drop-ins in applied order */
        size_t n_sources;
        Setting *settings;         /* all assignments, in the order systemd applies them */
        size_t n_settings, allocated_settings;
        DirLink *links;
        size_t n_links;
} Unit;

Unit *unit_free(Unit *u);
/* Makes id (taken over) the unit's main name; the name it was asked for stays in requested, if different. */
void unit_set_id(Unit *u, char *id);
/* The name the unit was asked for. */
static inline const char *unit_requested(const Unit *u) {
        return u->requested ?: u->id;
}
static inline void unit_freep(Unit **u) {
        unit_free(*u);
}

/* The assignments for section/key, in application order (pointers into u->settings). */
size_t unit_find_settings(const Unit *u, const char *section, const char *key, const Setting **ret, size_t max);
/* The last assignment of a single-valued key, or NULL. */
const Setting *unit_last_setting(const Unit *u, const char *section, const char *key);
