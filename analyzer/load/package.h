/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Packages read for linting: Debian binary packages (.deb: an ar archive of debian-binary, control.tar.* and
 * data.tar.*, read as a stream with libarchive) and unpacked package trees (debian/tmp, debian/foo). Only what
 * the system manager and systemd-tmpfiles read is kept, the unit directories and tmpfiles.d, in one in-memory
 * tree, as if the packages were installed together into an empty root: nothing is extracted to a disk, dpkg is
 * not needed and no maintainer script runs. Hostile input: absolute names and ".." are refused, symlinks are kept
 * as symlinks (the tree resolves them inside itself only), devices, FIFOs and duplicates are refused, and limits
 * cap the size of a member, the bytes and entries kept and the members read. Problems go to the DiagList. */

#include "basic/diag.h"
#include "load/root.h"
#include "rules/features.h"

/* Limits: a member bigger than PACKAGE_MEMBER_MAX is not read; more kept than the other two is an error. */
#define PACKAGE_MEMBER_MAX (4u << 20)
#define PACKAGE_BYTES_MAX (64u << 20)
#define PACKAGE_ENTRIES_MAX 100000u
/* members of data.tar looked at, kept or not (a tar of many empty members decompresses fast and endlessly) */
#define PACKAGE_MEMBERS_MAX 2000000u

typedef struct Package {
        char *file;          /* as given */
        char *origin;        /* display prefix of its paths: "FILE:" for an archive, "DIR/" for a tree */
        char *name, *version, *architecture; /* from the control file; NULL when there is none (a tree) */
        bool tree;
        bool data;           /* one file given as bytes (standard input), no package */
        bool debian;         /* a source package's debian/ directory (tree is set too) */
        unsigned n_kept;     /* files and symlinks kept */
} Package;

typedef struct PackageSet {
        MemTree *tree;       /* until package_set_root() */
        Root *root;
        Package *packages;
        size_t n_packages;
} PackageSet;

void package_set_done(PackageSet *s);

/* Does the file start like a Debian binary package (an ar archive whose first member is debian-binary)? 1 yes,
 * 0 no, <0 cannot read it. */
int package_file_is_deb(const char *path);
/* Is dir an unpacked package tree (it has DEBIAN/ or a unit or tmpfiles.d directory at its install path)?
 * 1 yes, 0 no. */
int package_dir_is_tree(const char *dir);

/* Add one package. Returns 0; -EBADMSG when the archive is damaged or not a package, -E2BIG when a limit is
 * exceeded (a diagnostic names the file), other -errno for I/O errors. */
int package_set_add_deb(PackageSet *s, const char *path, DiagList *diags);
int package_set_add_tree(PackageSet *s, const char *dir, DiagList *diags);
/* Is dir a source package's debian/ directory (named "debian", with a control file)? 1 yes, 0 no. */
int package_dir_is_debian(const char *dir);
/* The unit and tmpfiles.d files of a source package's debian/ directory, as debhelper installs them
 * (dh-names.h): debian/foo.bar.service is read as bar.service, and shown as itself. only: just that file of dir
 * (a name in it), or NULL for all. A file debhelper does not install but with a unit name is read under its own
 * name (a debian/PKG.install may put it anywhere). A renamed file is a notice in diags. */
int package_set_add_debian(PackageSet *s, const char *dir, const char *only, DiagList *diags);
/* Is path a file of a debian/ directory (package_dir_is_debian()) that debhelper installs under another name than
 * its own (debian/foo.bar.service, the main package's debian/service) or into tmpfiles.d? 1 with *ret_dir (its
 * directory, to give package_set_add_debian()), 0 no, -ENOMEM. */
int package_debian_file_renamed(const char *path, char **ret_dir);
/* size bytes of data as the unit file name, shown as shown (standard input: "<stdin>"). */
int package_set_add_data(PackageSet *s, const char *shown, const char *name, const void *data, size_t size,
                         DiagList *diags);

/* The root over everything added (built on the first call, then the same; nothing may be added after). */
int package_set_root(PackageSet *s, const Root **ret);

/* The unit directories of the search path of systemd fs->version that the packages fill, highest priority first. A package's
 * /lib/systemd/system counts where the version no longer searches it (255+): on the merged-/usr systems of those
 * releases dpkg unpacks it into /usr/lib/systemd/system. */
int package_set_unit_dirs(PackageSet *s, const FeatureSet *fs, char ***ret);
/* The unit files in dirs (regular files with unit names, not masks; aliases are symlinks and not listed), each
 * name once, in directory order. */
int package_set_unit_files(PackageSet *s, char * const *dirs, char ***ret);
