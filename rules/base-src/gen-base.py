#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes rules/base-NNN.xml: every system unit systemd NNN installs, from the upstream source tree of that release.

    gen-base.py SRCDIR --version N > rules/base-N.xml

SRCDIR is a systemd source tree: a tag's files (`git archive vN units meson.build meson_options.txt Makefile.am |
tar -x -C SRCDIR`) or a source tarball's (Debian's `systemd_N.orig.tar.gz`, which is upstream's, unpatched).
The committed models were generated from (`--source` names it in the model):

    219 229 232 237 239 241 245 249 255 258 259 260 261   the tag vN of upstream systemd
    247   v247.3 (Debian bullseye's 247.3; its units/ equal v247's)
    252   v252.39 of systemd-stable, from Debian's systemd_252.39.orig.tar.gz (bookworm ships 252.39)
    257   v257.13 (trixie ships 257.13)
    262   Debian's systemd_262.orig.tar.gz (upstream 262; the upstream mirror's tags end at v261.2)

The four lab versions take the point release Debian ships, so that tests/t6011-graph-base-lab.sh can compare
them with the lab trees unit by unit: what is left are Debian's patches and packaging (fixtures/base/*.explained).
What a release enables on top (Debian's postinst links, the units its build drops) is its <target> element, which
gen-target.py adds afterwards (rerun it after this). Nothing of it is copied verbatim: each unit is rendered as the
build renders it (@var@ substitution, m4, jinja2 with the build's config values) and stored without comments,
blank lines and Documentation=.

Which units, where, and with which values: the build options Debian uses for that release, PROFILES below (the
Debian rules they come from are named there); a condition of the build (ENABLE_X, HAVE_X) holds unless the profile
turns it off. The unit list and its symlinks come from the build files of the tag: units/meson.build in its two
forms (lists of [name, conditions, symlinks] up to 254, dictionaries from 255) and, before meson (up to 233),
Makefile.am's unit variables, the *_TARGET_WANTS lists and the alias lists. A symlink into X.wants/ or X.requires/
is a <link>, any other an <alias>: what systemd's own install creates (presets are not applied), plus the
fstab generator's Wants= of systemd-remount-fs.service from local-fs.target (bootrace runs no generators). Drop-in
files of units/ (user-.slice.d/, ...) are not stored.

Needs python3-jinja2 (units of 248 and later) and m4 (before 249).
"""
import argparse, os, re, subprocess, sys
from xml.sax.saxutils import escape, quoteattr

# Debian's build options per release, as far as they decide which system units are built and what their text says.
# off: build conditions that are false; usr: merged /usr (split-usr=false: units in /usr/lib/systemd/system);
# vars: the values the unit templates use. Versions between two profiles take the older one.
PROFILES = {
    # Debian's 247.3-7+deb11u5 debian/rules: -Dsplit-usr=true, rootprefix /, -Dvconsole=false -Dfirstboot=false
    # -Drepart=false -Duserdb=false -Dhomed=false -Doomd=false -Dqrencode=false, -Dsysvinit-path=/etc/init.d
    219: dict(usr=False, off={"ENABLE_VCONSOLE", "ENABLE_FIRSTBOOT", "ENABLE_REPART", "ENABLE_USERDB",
                             "ENABLE_HOMED", "ENABLE_OOMD", "HAVE_QRENCODE", "HAVE_SMACK"},
              source="Debian 247.3-7+deb11u5 debian/rules (split /usr, no vconsole, firstboot, repart, userdb, "
                     "homed, oomd)"),
    # 252.39-1~deb12u2: -Dsplit-usr=true, -Dvconsole=false -Dsysupdate=false; firstboot, repart, oomd, homed,
    # userdb built
    249: dict(usr=False, off={"ENABLE_VCONSOLE", "ENABLE_SYSUPDATE", "HAVE_SMACK"},
              source="Debian 252.39-1~deb12u2 debian/rules (split /usr, no vconsole, no sysupdate)"),
    # 257.13-1~deb13u1: merged /usr, -Dvconsole=false -Dutmp=false -Dsysvinit-path=/etc/init.d; sysupdated is only
    # in pkg.systemd.upstream builds (debian/not-installed)
    255: dict(usr=True, off={"ENABLE_VCONSOLE", "ENABLE_UTMP", "ENABLE_SYSUPDATED", "HAVE_SMACK"},
              source="Debian 257.13-1~deb13u1 debian/rules (merged /usr, no vconsole, no utmp)"),
    # 262-1: as 257, SysV compatibility gone upstream (v260) and -Dcompat-sysv-interfaces=false
    258: dict(usr=True, off={"ENABLE_VCONSOLE", "ENABLE_UTMP", "ENABLE_SYSUPDATED", "HAVE_SMACK",
                             "HAVE_SYSV_COMPAT", "ENABLE_COMPAT_SYSV_INTERFACES"},
              source="Debian 262-1 debian/rules (merged /usr, no vconsole, no utmp, no SysV interfaces)"),
}


def profile(v):
    return PROFILES[max(k for k in PROFILES if k <= v)] if v >= min(PROFILES) else PROFILES[min(PROFILES)]


def values(v, p):
    """The config values the unit templates of version v use, for Debian's layout."""
    root = "/usr" if p["usr"] else ""
    d = {
        "rootprefix": root or "/", "rootlibexecdir": root + "/lib/systemd", "ROOTLIBEXECDIR": root + "/lib/systemd",
        "LIBEXECDIR": root + "/lib/systemd" if p["usr"] else "/lib/systemd", "libexecdir": "/usr/lib/systemd",
        "pkglibexecdir": root + "/lib/systemd",
        "rootbindir": root + "/bin", "ROOTBINDIR": root + "/bin", "BINDIR": "/usr/bin", "bindir": "/usr/bin",
        "rootsbindir": root + "/sbin", "udevlibexecdir": root + "/lib/udev", "UDEVLIBEXECDIR": root + "/lib/udev",
        "SYSTEM_GENERATOR_DIR": root + "/lib/systemd/system-generators", "systemunitdir": root + "/lib/systemd/system",
        "SYSTEMCTL": root + "/bin/systemctl",
        "SERVICE_WATCHDOG": "WatchdogSec=3min", "HIGH_RLIMIT_NOFILE": 512 * 1024,
        "RC_LOCAL_PATH": "/etc/rc.local", "RC_LOCAL_SCRIPT_PATH_START": "/etc/rc.local",
        "SYSTEM_SYSVRCLOCAL_PATH": "/etc/rc.local", "RC_LOCAL_SCRIPT_PATH_STOP": "/usr/sbin/halt.local",
        "DEBUGTTY": "/dev/tty9", "SUSHELL": root + "/bin/bash", "SULOGIN": root + "/sbin/sulogin",
        "QUOTAON": root + "/sbin/quotaon", "QUOTACHECK": root + "/sbin/quotacheck", "KMOD": root + "/bin/kmod",
        "AGETTY": root + "/sbin/agetty", "RANDOM_SEED": "/var/lib/systemd/random-seed",
        "DEFAULT_USER_TIMEOUT_SEC": 90, "DYNAMIC_UID_MIN": 61184, "DYNAMIC_UID_MAX": 65519,
        "CONTAINER_UID_BASE_MIN": 0x00080000, "CONTAINER_UID_BASE_MAX": 0x6FFF0000,
        "HAVE_LOCALEGEN": 1, "INPUT": "", "sysconfdir": "/etc", "localstatedir": "/var",
    }
    return d


# Build conditions no distribution build had: opt-in (default off) in configure.ac, and Debian never turned them on
# (kdbus' .busname units, 219-230; the experimental terminal, 219-227).
OPT_IN = {"ENABLE_KDBUS", "ENABLE_TERMINAL"}


class Conf(dict):
    """Build conditions: true unless the profile turns them off (or they are OPT_IN)."""
    def __init__(self, p):
        super().__init__()
        self.off = p["off"] | OPT_IN

    def get(self, name, default=None):
        return 0 if name in self.off else 1


# ---- units/meson.build

def meson_value(text, conf, flags):
    """A meson literal (array, dictionary, string, a?b:c, +) as Python."""
    t = re.sub(r"#[^\n']*\n", "\n", text)
    t = re.sub(r"conf\.get\('(\w+)'\)\s*==\s*1", lambda m: str(bool(conf.get(m.group(1)))), t)
    t = re.sub(r"conf\.get\('(\w+)'\)\s*!=\s*1", lambda m: str(not conf.get(m.group(1))), t)
    for name, cond in flags.items():
        t = re.sub(r"\b%s\b" % name, str(bool(conf.get(cond))), t)
    t = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", t))
    # c ? a : b, with c a boolean and a, b list or string literals -> (a if c else b)
    lit = r"(\[[^\]]*\]|'[^']*')"
    t, _ = re.subn(r"\b(True|False)\s*\?\s*" + lit + r"\s*:\s*" + lit, r"(\2 if \1 else \3)", t)
    if re.search(r"\?\s*[\['(]", t):
        raise ValueError("cannot read a ?: in units/meson.build")
    # up to 241 the install also linked into /etc/systemd/system (pkgsysconfdir)
    names = {"__builtins__": {}, "pkgsysconfdir": "/etc/systemd",
             "join_paths": lambda *a: os.path.join(*a)}
    return eval(t.strip(), names)


def meson_arrays(text):
    """The top-level "name = [ ... ]" assignments of a meson file."""
    out = {}
    for m in re.finditer(r"^(\w+)\s*=\s*\[", text, re.M):
        i, depth = m.end() - 1, 0
        for j in range(i, len(text)):
            if text[j] == "[":
                depth += 1
            elif text[j] == "]":
                depth -= 1
                if depth == 0:
                    out[m.group(1)] = text[i:j + 1]
                    break
    return out


def units_meson(src, conf):
    text = open(os.path.join(src, "units/meson.build"), encoding="utf-8").read()
    arrays = meson_arrays(text)
    # "runlevels = conf.get('ENABLE_COMPAT_SYSV_INTERFACES') == 1" and the like
    flags = dict(re.findall(r"^(\w+)\s*=\s*conf\.get\('(\w+)'\)\s*==\s*1\s*$", text, re.M))
    units = []
    if re.search(r"\{\s*'file'", arrays.get("units", "")):
        for u in meson_value(arrays["units"], conf, flags):
            f = u["file"]
            if not all(conf.get(c) for c in u.get("conditions", [])):
                continue
            units.append((u.get("name", f[:-3] if f.endswith(".in") else f), f, u.get("symlinks", [])))
        return units
    for kind in ("units", "in_units", "m4_units", "m4_in_units"):
        if kind not in arrays:
            continue
        for t in meson_value(arrays[kind], conf, flags):
            conds = t[1].split()
            # the foreach loops test the first two conditions only
            if not all(conf.get(c) for c in conds[:2]):
                continue
            name = t[0]
            default = {"units": name, "in_units": name + ".in", "m4_units": name + ".m4",
                       "m4_in_units": name + ".m4.in"}[kind]
            inp = t[3] if len(t) > 3 and kind in ("units", "m4_units") else default
            units.append((name, inp, t[2].split() if len(t) > 2 else []))
    return units


# ---- Makefile.am (before meson)

def units_automake(src, conf):
    lines = open(os.path.join(src, "Makefile.am"), encoding="utf-8").read().replace("\\\n", " ").split("\n")
    var, stack = {}, []
    for l in lines:
        s = l.strip()
        m = re.match(r"^if\s+(!?)(\w+)$", s)
        if m:
            stack.append(bool(conf.get(m.group(2))) != bool(m.group(1)))
            continue
        if s == "else" or s.startswith("else "):
            stack[-1] = not stack[-1]
            continue
        if s == "endif" or s.startswith("endif "):
            stack.pop()
            continue
        m = re.match(r"^(\w+)\s*(\+?=)\s*(.*)$", l)
        if not m or not all(stack):
            continue
        words = m.group(3).split()
        var[m.group(1)] = (var.get(m.group(1), []) if m.group(2) == "+=" else []) + words

    def expand(name, seen=()):
        out = []
        for w in var.get(name, []):
            mm = re.match(r"^\$\((\w+)\)$", w)
            out += expand(mm.group(1), seen + (name,)) if mm and mm.group(1) not in seen else [w]
        return out

    files = [w for v in ("dist_systemunit_DATA", "nodist_systemunit_DATA") for w in expand(v)
             if w.startswith("units/") and "/user/" not in w]
    syml = {}
    text = "\n".join(lines)
    for m in re.finditer(r'what="\$\((\w+)\)" && wants=([\w.@-]+) && dir=\$\(systemunitdir\)', text):
        for u in expand(m.group(1)):
            syml.setdefault(u, []).append(m.group(2) + ".wants/")
    for v in ("SYSTEM_UNIT_ALIASES", "GENERAL_ALIASES"):
        w = expand(v)
        for a, b in zip(w[0::2], w[1::2]):
            if v == "GENERAL_ALIASES":
                if not a.startswith("$(systemunitdir)/") or not b.startswith("$(systemunitdir)/"):
                    continue
                a, b = a.split("/", 1)[1], b.split("/", 1)[1]
            syml.setdefault(a, []).append(b)
    units = []
    for f in files:
        name = os.path.basename(f)
        inp = None
        for cand in (name, name + ".in", name + ".m4", name + ".m4.in"):
            if os.path.exists(os.path.join(src, "units", cand)):
                inp = cand
                break
        if inp is None:
            sys.stderr.write("gen-base: no source for %s\n" % f)
            continue
        units.append((name, inp, syml.get(name, [])))
    return units


# ---- rendering

def render(src, inp, vals, conf):
    text = open(os.path.join(src, "units", inp), encoding="utf-8").read()
    if inp.endswith(".in") or inp.endswith(".m4"):
        text = re.sub(r"@(\w+)@", lambda m: str(vals[m.group(1)]) if m.group(1) in vals else m.group(0), text)
        text = "\n".join(l for l in text.split("\n") if not l.startswith("## "))
    if ".m4" in inp:
        defs = ["-D%s" % k for k in ("HAVE_SYSV_COMPAT", "ENABLE_LOGIND", "HAVE_SMACK", "HAVE_SELINUX",
                                     "ENABLE_NETWORKD", "ENABLE_RESOLVED", "ENABLE_TIMESYNCD") if conf.get(k)]
        text = subprocess.run(["m4", "-P"] + defs, input=text, capture_output=True, text=True, check=True).stdout
    if "{{" in text or "{%" in text:
        import jinja2
        env = {**{k: vals[k] for k in vals}}
        for k in re.findall(r"\b((?:ENABLE|HAVE)_\w+)\b", text):
            env[k] = conf.get(k)
        text = jinja2.Template(text, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                               undefined=jinja2.StrictUndefined).render(env)
    return text


def strip(text):
    """What the model needs: no comments, no blank lines, no Documentation=; continuation lines kept whole."""
    out, cont = [], False
    for l in text.split("\n"):
        s = l.strip()
        if not cont and (not s or s[0] in "#;" or s.startswith("Documentation=")):
            continue
        cont = bool(re.search(r"(?<!\\)(\\\\)*\\$", l))
        out.append(l.rstrip() if not cont else l)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--version", type=int, required=True)
    ap.add_argument("--source", help="where SRCDIR came from (default: the tag)")
    a = ap.parse_args()
    v, p = a.version, profile(a.version)
    conf, vals = Conf(p), values(a.version, p)
    if os.path.exists(os.path.join(a.src, "units/meson.build")):
        units = units_meson(a.src, conf)
    else:
        units = units_automake(a.src, conf)
    unitdir = ("/usr" if p["usr"] else "") + "/lib/systemd/system"
    out, links, aliases = {}, [], []
    for name, inp, syml in units:
        # .busname units (installed up to 229): a type that works only on kdbus, which no distribution kernel had;
        # without it systemd refuses the type (busname_supported()), so they never take part in a boot
        if name in out or name.endswith(".busname"):
            continue
        out[name] = strip(render(a.src, inp, vals, conf))
        for s in syml:
            # "X.wants/" (a link named as the unit) or, 234-241, a path ".../X.wants/NAME" (an instance:
            # /etc/systemd/system/getty.target.wants/getty@tty1.service)
            m = re.match(r"^(?:.*/)?([^/]+)\.(wants|requires|upholds)/([^/]*)$", s)
            if m:
                links.append(({"wants": "Wants", "requires": "Requires", "upholds": "Upholds"}[m.group(2)],
                              m.group(1), m.group(3) or name))
            elif not s.endswith("/"):
                aliases.append((os.path.basename(s), name))
    # systemd-fstab-generator's Wants= on systemd-remount-fs.service (v242+, 9b69569d2c; a static link before):
    # every boot has it, and bootrace runs no generators
    if "systemd-remount-fs.service" in out and "local-fs.target" in out:
        links.append(("Wants", "local-fs.target", "systemd-remount-fs.service"))
    w = sys.stdout.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n<!-- SPDX-License-Identifier: LGPL-2.1-or-later -->\n')
    w("<!-- Generated by rules/base-src/gen-base.py (see its header and rules/README.md); do not edit by hand. -->\n")
    w("<base systemd=%s source=%s>\n" % (quoteattr(str(v)), quoteattr(
        "units/ at %s, built with the options of %s" % (a.source or "v%d" % v, p["source"]))))
    for n in sorted(out):
        w("<unit name=%s path=%s>\n%s</unit>\n" % (quoteattr(n), quoteattr(unitdir + "/" + n), escape(out[n])))
    for kind, u, x in sorted(set(links), key=lambda l: (l[1], l[0], l[2])):
        w("<link type=%s unit=%s name=%s/>\n" % (quoteattr(kind), quoteattr(u), quoteattr(x)))
    for n, u in sorted(set(aliases)):
        w("<alias name=%s unit=%s/>\n" % (quoteattr(n), quoteattr(u)))
    w("</base>\n")


main()
