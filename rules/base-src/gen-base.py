#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes rules/base-NNN.xml: the early-boot units of one systemd version, as unit-file text.

    gen-base.py --tree DIR --version N --source TEXT [--from-version M] > rules/base-N.xml

DIR is a lab tree (LAB_SRV/SUITE) of systemd M (default N). The units in EARLY_BOOT are taken from the tree's vendor
directory, with the links of their vendor .wants/.requires directories among themselves; udevd's units (absent from
the lab trees) come from udev.units beside this script. When N differs from M, PATCHES turns M's facts into N's
(knowledge/implicit-deps.md §5-§7); units that did not exist in N are dropped (SINCE). Links enabled by default in the tree's /etc count too. The fstab generator's
Wants= of systemd-remount-fs.service (v242+; a static link before) is added as a link: bootrace runs no generators.
"""
import argparse, os, re, sys
from xml.sax.saxutils import escape, quoteattr

EARLY_BOOT = """
local-fs-pre.target local-fs.target sysinit.target basic.target sockets.target paths.target timers.target
slices.target multi-user.target graphical.target shutdown.target umount.target final.target swap.target
remote-fs-pre.target remote-fs.target network-pre.target network.target network-online.target nss-lookup.target
time-sync.target time-set.target cryptsetup-pre.target cryptsetup.target emergency.target rescue.target
emergency.service rescue.service getty.target getty-pre.target getty@.service
systemd-remount-fs.service systemd-fsck-root.service systemd-fsck@.service systemd-tmpfiles-setup.service
systemd-tmpfiles-setup-dev.service systemd-tmpfiles-clean.service systemd-tmpfiles-clean.timer
systemd-journald.service systemd-journald.socket systemd-journald-dev-log.socket systemd-journald-audit.socket
systemd-journal-flush.service systemd-sysusers.service systemd-random-seed.service systemd-update-utmp.service
systemd-sysctl.service systemd-modules-load.service kmod-static-nodes.service systemd-machine-id-commit.service
systemd-firstboot.service systemd-user-sessions.service systemd-logind.service dbus.socket dbus.service
tmp.mount dev-hugepages.mount dev-mqueue.mount sys-kernel-debug.mount sys-kernel-config.mount
sys-fs-fuse-connections.mount proc-sys-fs-binfmt_misc.automount proc-sys-fs-binfmt_misc.mount
systemd-binfmt.service user.slice machine.slice
""".split()

# first upstream version of units that are younger than 219
SINCE = {"time-set.target": 236, "systemd-tmpfiles-setup-dev.service": 0, "getty-pre.target": 235,
         "cryptsetup-pre.target": 0, "systemd-journald-audit.socket": 219, "sys-kernel-tracing.mount": 246,
         "systemd-boot-system-token.service": 247, "systemd-repart.service": 245, "integritysetup.target": 250,
         "veritysetup.target": 248, "systemd-pcrphase.service": 252, "systemd-pcrphase-sysinit.service": 252,
         "systemd-tpm2-setup.service": 256, "systemd-tpm2-setup-early.service": 256}

def patch(name, text, v):
    """The version facts of implicit-deps.md §7 applied to a newer unit's text."""
    lines = text.split("\n")
    if name == "systemd-tmpfiles-setup.service" and v < 240:
        # After=systemd-journald.service came with 5c86583cf8 (v240)
        lines = [re.sub(r"\s*systemd-journald\.service", "", l) if l.startswith("After=") else l for l in lines]
    if name == "systemd-tmpfiles-setup.service" and v < 250:
        lines = [l for l in lines if "initrd-switch-root.target" not in l]
    if name == "systemd-remount-fs.service" and v < 242:
        # statically wanted by local-fs.target with ConditionPathExists=/etc/fstab until 9b69569d2c (v242)
        out = []
        for l in lines:
            out.append(l)
            if l.startswith("Before=local-fs.target"):
                out.append("ConditionPathExists=/etc/fstab")
        lines = out
    if v < 239:
        # a bare command name (PATH lookup) needs 239 (5008da1ec1): older units name the binary by path
        lines = [re.sub(r"^(Exec\w+=[-@+!:]*)([a-z][^ /]*)", r"\1/bin/\2", l) for l in lines]
    return "\n".join(lines)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--version", type=int, required=True)
    ap.add_argument("--from-version", type=int)
    ap.add_argument("--source", required=True)
    ap.add_argument("--no-tmp-mount", action="store_true", help="the distribution keeps tmp.mount outside the unit path")
    a = ap.parse_args()
    v, m = a.version, a.from_version or a.version
    vendor = None
    for d in ("usr/lib/systemd/system", "lib/systemd/system"):
        if os.path.isdir(os.path.join(a.tree, d)):
            vendor = os.path.join(a.tree, d)
            break
    units = {}
    for n in EARLY_BOOT:
        if n == "tmp.mount" and a.no_tmp_mount:
            continue
        if SINCE.get(n, 0) > v:
            continue
        p = os.path.join(vendor, n)
        if os.path.isfile(p) and not os.path.islink(p) and os.path.getsize(p) > 0:
            units[n] = (patch(n, open(p, encoding="utf-8").read(), v), "/" + os.path.relpath(p, a.tree))
    here = os.path.dirname(os.path.abspath(__file__))
    cur = None
    for l in open(os.path.join(here, "udev.units"), encoding="utf-8"):
        if l.startswith("#") and cur is None:
            continue
        if l.startswith("== "):
            cur = l[3:].strip()
            units[cur] = ("", None)
            continue
        units[cur] = (units[cur][0] + l, None)
    links = []
    # the vendor directory's links, and those the packages enable by default in /etc (remote-fs.target, ...)
    for n in sorted(units):
        for kind, suffix, base in (("Wants", ".wants", vendor), ("Requires", ".requires", vendor),
                                   ("Wants", ".wants", os.path.join(a.tree, "etc/systemd/system")),
                                   ("Requires", ".requires", os.path.join(a.tree, "etc/systemd/system"))):
            d = os.path.join(base, n + suffix)
            if os.path.isdir(d):
                for x in sorted(os.listdir(d)):
                    if x in units and SINCE.get(x, 0) <= v and (kind, n, x) not in links:
                        links.append((kind, n, x))
    if ("Wants", "local-fs.target", "systemd-remount-fs.service") not in links and "systemd-remount-fs.service" in units:
        links.append(("Wants", "local-fs.target", "systemd-remount-fs.service"))
    if "systemd-udevd.service" in units:
        for s in ("systemd-udevd-control.socket", "systemd-udevd-kernel.socket"):
            links.append(("Wants", "sockets.target", s))
        links.append(("Wants", "sysinit.target", "systemd-udevd.service"))
        links.append(("Wants", "sysinit.target", "systemd-udev-trigger.service"))
    w = sys.stdout.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n<!-- SPDX-License-Identifier: LGPL-2.1-or-later -->\n')
    w("<!-- Generated by rules/base-src/gen-base.py (see its header and rules/README.md); do not edit by hand. -->\n")
    w("<base systemd=%s source=%s>\n" % (quoteattr(str(v)), quoteattr(a.source)))
    for n in sorted(units):
        text, path = units[n]
        w("<unit name=%s%s>\n%s</unit>\n" % (quoteattr(n), " path=%s" % quoteattr(path) if path else "",
                                            escape(text.rstrip("\n") + "\n")))
    for kind, u, x in links:
        w("<link type=%s unit=%s name=%s/>\n" % (quoteattr(kind), quoteattr(u), quoteattr(x)))
    w('<alias name="default.target" unit="graphical.target"/>\n</base>\n')

main()
