/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The names debhelper installs the files of a source package's debian/ directory under (debhelper at 13.x,
 * dh_installsystemd(1) and dh_installtmpfiles(1), the pkgfile() lookup of Debian::Debhelper::Dh_Lib):
 *   debian/P.T, debian/P@.T      -> P.T, P@.T (T: service target socket path timer; mount without the @ form)
 *   debian/P.N.T, debian/P@.N.T  -> N.T, N@.T (dh_installsystemd --name=N)
 *   debian/T                     -> M.T for the main package M (the first binary package in debian/control)
 *   debian/P.tmpfiles, debian/P.tmpfile, debian/P.N.tmpfiles -> usr/lib/tmpfiles.d/P.conf (N.conf)
 * where P is a binary package of debian/control. Architecture-specific files (debian/P.T.ARCH) are not read. */

#include <stddef.h>

typedef enum DhFileKind {
        DH_FILE_NONE,     /* debhelper installs nothing from it */
        DH_FILE_UNIT,     /* a unit file: *ret_name is the unit's name */
        DH_FILE_TMPFILES, /* a tmpfiles.d file: *ret_name is its name in usr/lib/tmpfiles.d ("P.conf") */
} DhFileKind;

/* The binary packages of a debian/control text, in order (the first is the main package). -EBADMSG when there is
 * none, -ENOMEM. */
int dh_control_packages(const char *text, size_t size, char ***ret);

/* What base (a file name in debian/) is installed as, for the binary packages packages (dh_control_packages()).
 * *ret_name is set for DH_FILE_UNIT and DH_FILE_TMPFILES; *ret_how, when not NULL, to the debhelper call that
 * installs it so when it is not the file's own name ("what dh_installsystemd --name=bar installs"), else NULL. Returns the kind
 * or -ENOMEM. */
int dh_install_name(char * const *packages, const char *base, char **ret_name, char **ret_how);
