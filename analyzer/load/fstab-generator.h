/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What systemd-fstab-generator writes at boot for a root's /etc/fstab, written offline into a directory that the
 * loader then searches where systemd searches /run/systemd/generator: a mount unit per entry (a swap unit per
 * swap entry), linked into local-fs.target (remote-fs.target for network file systems) through .requires/
 * (.wants/ with nofail; not at all with noauto), fsck units when the root has fsck.TYPE, and from v242 the want
 * of systemd-remount-fs.service. Checked against the real generator of the lab trees (tests). */

#include "basic/diag.h"
#include "load/root.h"
#include "rules/features.h"

/* dir must exist and be empty. Returns the number of entries read (0 without /etc/fstab), or -errno. */
int fstab_generate(const Root *root, const FeatureSet *fs, const char *dir, DiagList *diags);
/* Removes what fstab_generate() wrote, and dir. */
void fstab_generated_remove(const char *dir);
