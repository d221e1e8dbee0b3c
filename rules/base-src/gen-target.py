#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Adds to rules/base-N.xml what one Debian or Ubuntu release really enables: a <target name=...> element.

    gen-target.py rules/base-N.xml ROOT DEBIAN --target NAME --source TEXT
    gen-target.py rules/base-N.xml - DEBIAN --target NAME --source TEXT

ROOT is a fresh installation of the release (the lab trees of ../shared/lab/lab-build.sh: debootstrap of the suite,
`LAB_SRV/SUITE`); DEBIAN is the debian/ directory of the release's systemd source package (`apt-get source
systemd=VERSION`). The element replaces the model's <target name=NAME> if there is one; everything else in the
file stays as gen-base.py wrote it. Nothing of ROOT or DEBIAN is copied: only which links and aliases exist.

What it takes, for the binary packages built from source systemd that ROOT has installed (var/lib/dpkg/status)
and the files they own (var/lib/dpkg/info/PKG.list):
- <link>: the .wants/, .requires/ and .upholds/ symlinks to their units that the installation made (the packages'
  own under lib/systemd/system and those their postinst made under etc/systemd/system: Debian applies no preset,
  its postinst runs `systemctl enable` for getty@tty1, remote-fs.target, systemd-pstore) and the model lacks;
- <unlink>: the model's static links to units those packages ship that the installation does not have;
- <alias>: alias symlinks in lib/systemd/system those packages ship that the model lacks (debian/systemd.links);
- <omit>: the model's units that Debian's build takes out of the unit path: absent from ROOT and named by
  debian/rules where it deletes or moves files (ldconfig.service, systemd-update-done.service, tmp.mount up to
  bookworm, ...), and those only a build profile installs (debian/PKG.install: `<pkg.systemd.upstream> ...`, as
  systemd-vmspawn@.service in trixie). Units of packages ROOT does not have (udev, systemd-container, ...) are kept: an installation
  with those packages has them.
Without an installation (ROOT "-", the Ubuntu releases): the same from DEBIAN alone, see from_source().
Links the lab made (lab-*, racy-* units, the console-getty mask) are not systemd's and are left out by the owner
check, and so are links to Debian's own units, which the model does not have (getty-static.service,
systemd-fsckd: fixtures/base/SUITE.explained names them).
"""
import argparse, html, os, re, sys
from xml.sax.saxutils import quoteattr

KIND = {"wants": "Wants", "requires": "Requires", "upholds": "Upholds"}


def systemd_packages(root):
    pkgs, p, src, ok = set(), None, None, False
    for l in open(os.path.join(root, "var/lib/dpkg/status"), encoding="utf-8") .read().split("\n") + [""]:
        if l.startswith("Package: "):
            p, src, ok = l.split()[1], None, False
        elif l.startswith("Source: "):
            src = l.split()[1]
        elif l.startswith("Status: "):
            ok = l.endswith(" installed")
        elif l == "" and p:
            if ok and (src or p) == "systemd":
                pkgs.add(p)
            p = None
    return pkgs


def from_root(a, units, links, aliases, removed, generated):
    """The links, unlinks, aliases and omitted units of a fresh installation ROOT of the release."""
    owned = set()
    for p in systemd_packages(a.root):
        for arch in ("", ":amd64"):
            f = os.path.join(a.root, "var/lib/dpkg/info", p + arch + ".list")
            if os.path.exists(f):
                owned |= {l.strip() for l in open(f, encoding="utf-8")}
    usr = os.path.islink(os.path.join(a.root, "lib"))
    unitdir = "/usr/lib/systemd/system" if usr else "/lib/systemd/system"
    shipped = {os.path.basename(f) for f in owned if re.match(r"^(/usr)?/lib/systemd/system/[^/]+$", f)}

    def ours(name):
        """A unit name (or its template) that the systemd packages ship."""
        if name in shipped:
            return True
        m = re.match(r"^([^@]+@)[^.]+(\.\w+)$", name)
        return bool(m) and m.group(1) + m.group(2) in shipped

    have = set()
    for d in (a.root + unitdir, os.path.join(a.root, "etc/systemd/system")):
        for n in sorted(os.listdir(d)):
            m = re.match(r"^(.+)\.(wants|requires|upholds)$", n)
            if not m or not os.path.isdir(os.path.join(d, n)):
                continue
            for e in os.listdir(os.path.join(d, n)):
                if ours(e) and (e in units or re.sub(r"@[^.]+\.", "@.", e) in units):
                    have.add((KIND[m.group(2)], m.group(1), e))
    add = have - links
    unlink = {l for l in links if ours(l[2]) and l not in have and l != generated}
    alias = []
    for n in sorted(os.listdir(a.root + unitdir)):
        p = os.path.join(a.root + unitdir, n)
        if os.path.islink(p) and n not in aliases and n in shipped:
            t = os.path.basename(os.readlink(p))
            if t != "null" and t in units:
                alias.append((n, t))
    omit = [u for u in sorted(units) if u not in shipped and not os.path.exists(a.root + unitdir + "/" + u)
            and removed(u)]
    return add, unlink, alias, omit


def install_links(text, name):
    """The links `systemctl enable NAME` makes from the unit's [Install] (text: the model's unit)."""
    out, sec, inst = [], None, None
    for l in text.split("\n"):
        l = l.strip()
        if l.startswith("["):
            sec = l
        elif sec == "[Install]" and "=" in l:
            k, v = l.split("=", 1)
            if k == "DefaultInstance":
                inst = v.strip()
            for kk, kind in (("WantedBy", "Wants"), ("RequiredBy", "Requires"), ("UpheldBy", "Upholds")):
                if k == kk:
                    out += [(kind, t, None) for t in v.split()]
    return [(k, t, name) for k, t, _ in out], inst


def from_source(a, x, units, links, aliases, removed):
    """The same from the release's debian/ alone (no installation at hand): the units Debian's debian/rules
    removes, the `systemctl enable UNIT` lines of debian/systemd.postinst (their [Install] gives the links), the
    aliases of debian/systemd.links and debian/udev.links between units of the model."""
    omit = [u for u in sorted(units) if removed(u)]
    add = set()
    post = os.path.join(a.debian, "systemd.postinst")
    for l in open(post, encoding="utf-8") if os.path.exists(post) else []:
        m = re.match(r"^\s*systemctl\b.*\benable\s+([\w@.\\-]+\.(?:service|socket|target|timer|path|mount))\b", l)
        if not m or m.group(1) in omit:
            continue
        u = m.group(1)
        tmpl = re.sub(r"@[^.]+\.", "@.", u)
        mm = re.search(r'<unit name="%s"[^>]*>\n(.*?)</unit>' % re.escape(tmpl), x, re.S)
        if not mm:
            continue
        ls, inst = install_links(html.unescape(mm.group(1)), u)
        add |= {l for l in ls if l not in links}
    alias = []
    for f in ("systemd.links", "udev.links"):
        p = os.path.join(a.debian, f)
        for l in open(p, encoding="utf-8") if os.path.exists(p) else []:
            w = l.split()
            if len(w) == 2 and "/systemd/system/" in w[0] and re.search(r"/systemd/system/[^/]+$", w[1]):
                t, n = os.path.basename(w[0]), os.path.basename(w[1])
                if t in units and n not in aliases and n not in units:
                    alias.append((n, t))
    return add, set(), sorted(set(alias)), omit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("root")
    ap.add_argument("debian")
    ap.add_argument("--target", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    x = open(a.base, encoding="utf-8").read()
    x = re.sub(r'<target name=%s .*?</target>\n' % re.escape(quoteattr(a.target)), "", x, flags=re.S)
    units = set(re.findall(r'<unit name="([^"]*)"', x))
    links = {(html.unescape(t), html.unescape(u), html.unescape(n))
             for t, u, n in re.findall(r'<link type="(\w+)" unit="([^"]*)" name="([^"]*)"/>', x)}
    aliases = {html.unescape(n) for n in re.findall(r'<alias name="([^"]*)"', x)}

    rules = open(os.path.join(a.debian, "rules"), encoding="utf-8").read().split("\n")
    removing = [l for l in rules if re.search(r"\b(rm|mv|find)\b|-name ", l)]
    # units only a build profile installs (debian/PKG.install lines "<pkg.systemd.upstream> path", not "<!stage1>"):
    # the archive's build does not use it
    profiled = set()
    for f in sorted(os.listdir(a.debian)):
        if f.endswith(".install"):
            for l in open(os.path.join(a.debian, f), encoding="utf-8"):
                m = re.match(r"^<(?!!)[^>]+>\s+\S*/systemd/system/([^/\s]+)$", l.strip())
                if m:
                    profiled.add(m.group(1))

    def removed(u):
        """Whether debian/rules deletes u, or moves it out of the unit path (not into another package's)."""
        stem = u[:-len(".service")] if u.endswith(".service") else u
        for l in removing:
            if not (re.search(r"(?<![\w.@-])%s(?![\w.@/-])" % re.escape(u), l) or "'%s*'" % stem in l):
                continue
            w = l.split()
            if "mv" in w and "/systemd/system" in w[-1]:
                continue
            return True
        return u in profiled

    # the fstab generator's want that gen-base.py adds (bootrace runs no generators) is no static link
    generated = ("Wants", "local-fs.target", "systemd-remount-fs.service")
    if a.root != "-":
        add, unlink, alias, omit = from_root(a, units, links, aliases, removed, generated)
    else:
        add, unlink, alias, omit = from_source(a, x, units, links, aliases, removed)

    out = ["<target name=%s source=%s>\n" % (quoteattr(a.target), quoteattr(a.source))]
    out += ["<omit unit=%s/>\n" % quoteattr(u) for u in omit]
    key = lambda l: (l[1], l[0], l[2])
    out += ["<unlink type=%s unit=%s name=%s/>\n" % tuple(map(quoteattr, l)) for l in sorted(unlink, key=key)
            if l[2] not in omit]
    out += ["<link type=%s unit=%s name=%s/>\n" % tuple(map(quoteattr, l)) for l in sorted(add, key=key)]
    out += ["<alias name=%s unit=%s/>\n" % tuple(map(quoteattr, l)) for l in alias]
    out.append("</target>\n")
    x = x.replace("</base>\n", "".join(out) + "</base>\n")
    open(a.base, "w", encoding="utf-8").write(x)


main()
