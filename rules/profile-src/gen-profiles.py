#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes rules/profile-TARGET.xml: what a default installation of a release adds to its boot transaction beyond
systemd's own units (its network stack, cloud-init), as reduced unit-file text with each unit's package, version
and source, and the links its packages create at installation or boot.

    gen-profiles.py [--rules DIR] [--git NAME=GITDIR]... [TARGET...]

DIR is the rules directory (default: the one beside this script); profiles are written there for every TARGET
(default: every target of PROFILES below that DIR/targets.xml names; a target it does not name yet is skipped).

Debian: the packages of the release, downloaded by deb-fetch.sh (beside this script; cache $DEB_CACHE, default
$LAB_SRV/deb-cache). A unit counts as enabled when the package's postinst runs "deb-systemd-helper enable" for it
outside a "debian-installed" guard (dh_installsystemd's snippet; --no-enable units only have the guarded one), and
its [Install] section then gives the links (WantedBy=, RequiredBy=, UpheldBy=, Alias=, Also=), as
deb-systemd-helper makes them; links the package ships in .wants/ directories count too.

Ubuntu and RHEL: their packages cannot be downloaded here, so the units come from the upstream projects'
repositories at the version the release ships: --git cloud-init=DIR netplan=DIR NetworkManager=DIR firewalld=DIR
systemd=DIR dbus=DIR, each a git directory (a clone or mirror of github.com/canonical/cloud-init, canonical/netplan,
NetworkManager/NetworkManager, firewalld/firewalld, systemd/systemd, freedesktop/dbus). A target whose sources are not given is
skipped and its file left as it is. Nothing of those repositories is copied: only the settings below.

Only the settings that matter to the model are kept (KEEP: dependencies, ordering, conditions, [Install], default
dependencies, the exec, socket, timer, path and mount settings that add implicit dependencies or that bootrace's
checks read); commands keep only the program (ExecStart=/sbin/ifup), so that systemd would load the unit. Comments,
descriptions and everything else are left out.
"""
import argparse, io, os, re, subprocess, sys, tarfile, tempfile
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- what each target's profiles hold

# Debian: debian-installer installs ifupdown (Priority: important) and enables networking.service, and the system
# bus, dbus (Priority: standard, and systemd Recommends default-dbus-system-bus, which it provides; not systemd's
# unit, so no base model from upstream units/ has it); a desktop task adds network-manager (task-desktop Recommends
# it), whose units are enabled as well.
DEBIAN_SERVER = ("a default installation (debootstrap, debian-installer): ifupdown brings the network up "
                 "with networking.service")
DEBIAN_DESKTOP = "a desktop installation: the server profile and NetworkManager (task-desktop)"

PROFILES = {}
for suite, target in (("bullseye", "debian-bullseye"), ("bookworm", "debian-bookworm"),
                      ("trixie", "debian-trixie"), ("forky", "debian-forky"),
                      ("sid", "debian-sid")):
    PROFILES[target] = {
        "default": "server",
        "profiles": [
            ("server", None, DEBIAN_SERVER, [("deb", suite, "ifupdown",
                                              "Priority: important; installed by debootstrap and debian-installer"),
                                             ("deb", suite, "dbus",
                                              "Priority: standard; systemd Recommends: default-dbus-system-bus | "
                                              "dbus-system-bus, which dbus provides")] +
                                            # from 1.14 dbus.socket is in the package dbus Depends on
                                            ([] if suite == "bullseye" else
                                             [("deb", suite, "dbus-system-bus-common",
                                               "dbus Depends: dbus-system-bus-common (dbus.socket)")])),
            ("desktop", "server", DEBIAN_DESKTOP, [("deb", suite, "network-manager",
                                                    "task-desktop Recommends: network-manager")]),
        ],
    }

# Ubuntu 24.04: netplan's generator enables systemd-networkd for the server's networkd configuration; cloud images
# add cloud-init. Versions: netplan.io 1.0 was the release's (Ubuntu 24.04 shipped netplan 1.0) and 1.1.2 is its
# update; cloud-init from the newest noble upload in cloud-init's ubuntu/noble packaging branch. The system bus is
# dbus 1.14.10-4ubuntu4 (packages.ubuntu.com/noble/dbus), the provider of default-dbus-system-bus
# (packages.ubuntu.com/noble/default-dbus-system-bus) that systemd's package Recommends; not systemd's own unit, so
# the base model (upstream units/) has none. Its units come from freedesktop/dbus at ef55a3db (dbus-1.13.18-45):
# bus/dbus.service.in and bus/dbus.socket.in are unchanged there since 18a0a889 (2018), and Debian's 1.14.10 build
# installs them with both links (the lab bookworm tree, dbus 1.14.10-1~deb12u1).
PROFILES["ubuntu-noble"] = {
    "default": "server",
    "profiles": [
        ("server", None, "a server installation: netplan renders the network for systemd-networkd and enables it "
                         "(systemd-networkd-wait-online too) from its generator",
         [("netplan", "1.1.2", "1.1.2-2~ubuntu24.04.1"), ("systemd-units", "v255", "networkd"),
          ("dbus", "ef55a3db", "1.14.10-4ubuntu4")]),
        ("cloud", "server", "a cloud image: the server profile and cloud-init, whose generator puts cloud-init.target "
                            "into multi-user.target when a datasource is found",
         [("cloud-init", "ubuntu/26.1-0ubuntu1_24.04.1", "ubuntu")]),
    ],
}

# RHEL 9: NetworkManager (with NetworkManager-wait-online) and firewalld, enabled by the distribution's presets;
# versions of RHEL 9.5 (NetworkManager-1.48.10-5.el9_5, firewalld-1.3.4-9.el9_5 in rpm -qa listings of its rebuilds).
PROFILES["rhel-9"] = {
    "default": "server",
    "profiles": [
        ("server", None, "a server installation: NetworkManager and NetworkManager-wait-online configure the "
                         "network, firewalld guards it",
         [("NetworkManager", "1.48.10", "rhel"), ("firewalld", "v1.3.4", "rhel")]),
    ],
}

# RHEL 10 (CentOS Stream 10 is its alias): the same stack at RHEL 10.0's versions, NetworkManager-1.52.0-8.el10_0
# and firewalld-2.3.1-1.el10_0 (the package file names in AlmaLinux's 10.0 BaseOS, a rebuild of RHEL 10.0:
# vault.almalinux.org/10.0/BaseOS/x86_64_v2/os/Packages/).
PROFILES["rhel-10"] = {
    "default": "server",
    "profiles": [
        ("server", None, "a server installation: NetworkManager and NetworkManager-wait-online configure the "
                         "network, firewalld guards it",
         [("NetworkManager", "1.52.0", "rhel"), ("firewalld", "v2.3.1", "rhel")]),
    ],
}

# ---- reducing a unit file to what the model uses

KEEP = {
    "Unit": """Wants Requires Requisite BindsTo PartOf Upholds Conflicts Before After OnFailure OnSuccess
        PropagatesReloadTo ReloadPropagatedFrom PropagatesStopTo StopPropagatedFrom JoinsNamespaceOf
        RequiresMountsFor WantsMountsFor OnFailureJobMode DefaultDependencies IgnoreOnIsolate StopWhenUnneeded
        RefuseManualStart RefuseManualStop AllowIsolate SuccessAction FailureAction SourcePath""",
    "Install": "WantedBy RequiredBy UpheldBy Also Alias DefaultInstance",
    "Service": """Type BusName RemainAfterExit Sockets Slice PrivateTmp DynamicUser WorkingDirectory RootDirectory
        RootImage MountImages ExtensionImages RuntimeDirectory StateDirectory CacheDirectory LogsDirectory
        ConfigurationDirectory StandardInput StandardOutput StandardError LogNamespace ManagedOOMSwap
        ManagedOOMMemoryPressure LoadCredential LoadCredentialEncrypted SetCredential SetCredentialEncrypted
        ImportCredential ReadWritePaths ReadOnlyPaths InaccessiblePaths BindPaths BindReadOnlyPaths
        TemporaryFileSystem ProtectSystem ProtectHome PrivateDevices PrivateNetwork NetworkNamespacePath
        TTYPath PIDFile""",
    "Socket": """ListenStream ListenDatagram ListenSequentialPacket ListenFIFO ListenSpecial ListenNetlink
        ListenMessageQueue ListenUSBFunction Accept Service BindToDevice Symlinks Slice""",
    "Timer": """OnActiveSec OnBootSec OnStartupSec OnUnitActiveSec OnUnitInactiveSec OnCalendar Persistent Unit""",
    "Path": "PathExists PathExistsGlob PathChanged PathModified DirectoryNotEmpty Unit",
    "Mount": "What Where Type Options",
    "Automount": "Where",
    "Swap": "What Options",
    "Slice": "",
}
KEEP = {s: set(v.split()) for s, v in KEEP.items()}
EXEC = re.compile(r"^Exec(Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)$")
# the exec settings of these sections also go into [Service]'s set (socket, mount, swap have an exec context)
for s in ("Socket", "Mount", "Swap"):
    KEEP[s] |= KEEP["Service"] - {"Type", "BusName", "RemainAfterExit", "Sockets", "PIDFile"}


def parse_unit(text):
    """[(section, key, value)] of a unit file, continuation lines joined, comments dropped."""
    out, section, pending = [], None, None
    for raw in text.split("\n"):
        line = raw.rstrip()
        if pending is not None:
            line = pending + " " + line.strip()
            pending = None
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        if s.endswith("\\"):
            pending = s[:-1].rstrip()
            continue
        if s.startswith("[") and s.endswith("]"):
            section = s[1:-1]
            continue
        if "=" in s and section:
            k, v = s.split("=", 1)
            out.append((section, k.strip(), v.strip()))
    return out


def exec_program(value):
    """ExecStart=-/bin/sh -c '...' -> -/bin/sh (prefixes and the program only; with @ also argv[0])."""
    m = re.match(r"^([-@:+!|]*)(\S*)\s*(\S*)", value)
    if not m:
        return value
    prefix, prog, argv0 = m.groups()
    return prefix + prog + (" " + argv0 if "@" in prefix and argv0 else "")


def reduce_unit(text):
    """The unit-file text bootrace keeps of a unit: KEEP's settings in their sections, in file order."""
    sections = {}
    order = []
    for section, k, v in parse_unit(text):
        if section not in KEEP:
            continue
        if EXEC.match(k):
            v = exec_program(v)
        elif k not in KEEP[section] and not k.startswith(("Condition", "Assert")):
            continue
        if section not in sections:
            sections[section] = []
            order.append(section)
        sections[section].append(f"{k}={v}")
    return "\n\n".join("[%s]\n%s" % (s, "\n".join(sections[s])) for s in order) + "\n"


def install_of(text):
    """{key: [words]} of a unit's [Install] section."""
    inst = {}
    for section, k, v in parse_unit(text):
        if section == "Install":
            inst.setdefault(k, []).extend(v.split())
    return inst


def unit_type(name):
    return name.rsplit(".", 1)[-1]


def is_unit_name(name):
    return re.match(r"^[A-Za-z0-9:_.\\@-]+\.(service|socket|target|device|mount|automount|swap|timer|path|slice|"
                    r"scope)$", name) is not None

# ---- the profile being built


class Profile:
    def __init__(self, name, extends, description):
        self.name, self.extends, self.description = name, extends, description
        self.packages = []  # (name, version, source, reason)
        self.units = {}     # name -> (text, package, version, path, source)
        self.links = []     # (type, unit, name, package, source)
        self.aliases = []   # (name, unit, package, source)

    def add_link(self, typ, unit, name, package, source):
        if (typ, unit, name) not in [(l[0], l[1], l[2]) for l in self.links]:
            self.links.append((typ, unit, name, package, source))

    def enable(self, name, package, source, texts, seen=None):
        """What deb-systemd-helper enable / systemctl enable makes for name: its [Install] links, aliases and
        the units of Also=. texts: name -> unit text of the same package."""
        seen = seen if seen is not None else set()
        if name in seen or name not in texts:
            return
        seen.add(name)
        inst = install_of(texts[name])
        for key, typ in (("WantedBy", "Wants"), ("RequiredBy", "Requires"), ("UpheldBy", "Upholds")):
            for target in inst.get(key, []):
                self.add_link(typ, target, name, package, source + f" ([Install] {key}={target})")
        for a in inst.get("Alias", []):
            if a not in [x[0] for x in self.aliases]:
                self.aliases.append((a, name, package, source + f" ([Install] Alias={a})"))
        for also in inst.get("Also", []):
            self.enable(also, package, source + f", Also= of {name}", texts, seen)

# ---- Debian packages


def deb_fetch(suite, pkg):
    out = subprocess.run([os.path.join(HERE, "deb-fetch.sh"), suite, pkg], check=True, capture_output=True,
                         text=True)
    return out.stdout.strip().split("\n")[-1]


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], check=True, capture_output=True,
                          text=True).stdout.strip()


def deb_members(deb):
    """{path: (kind, text-or-link-target)} of the package's unit directories."""
    data = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True, capture_output=True).stdout
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for m in t.getmembers():
            p = m.name.lstrip("./")
            if not re.match(r"^(usr/)?lib/systemd/system/", p):
                continue
            if m.isfile():
                out["/" + p] = ("file", t.extractfile(m).read().decode("utf-8", "replace"))
            elif m.issym():
                out["/" + p] = ("link", m.linkname)
    return out


def deb_postinst(deb):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["dpkg-deb", "-e", deb, d], check=True)
        p = os.path.join(d, "postinst")
        return open(p).read() if os.path.exists(p) else ""


def enabled_by_postinst(postinst):
    """Units dh_installsystemd's postinst snippet enables on a new installation: "deb-systemd-helper enable"
    outside an "if deb-systemd-helper debian-installed" (the --no-enable form, which only keeps an old enablement)."""
    stack, out = [], []
    for line in postinst.split("\n"):
        s = line.strip()
        if re.match(r"^(if|elif)\b", s) and s.startswith("if"):
            stack.append(s)
        elif re.match(r"^fi\b", s):
            if stack:
                stack.pop()
        m = re.search(r"deb-systemd-helper\s+enable\s+(.*?)(\s*>|\s*\|\||$)", s)
        if m and not any("debian-installed" in c for c in stack):
            out += [w.strip("'\"") for w in m.group(1).split()]
    return out


def add_deb(prof, suite, pkg, reason):
    deb = deb_fetch(suite, pkg)
    version = deb_field(deb, "Version")
    debname = os.path.basename(deb)
    prof.packages.append((pkg, version, f"Debian {suite} main: {debname}", reason))
    members = deb_members(deb)
    texts = {}
    for path, (kind, val) in sorted(members.items()):
        name = os.path.basename(path)
        parent = os.path.basename(os.path.dirname(path))
        if kind == "file" and is_unit_name(name) and parent == "system":
            texts[name] = val
            prof.units[name] = (reduce_unit(val), pkg, version, path, f"{debname}: {path.lstrip('/')}")
        elif kind == "link" and re.match(r".*\.(wants|requires|upholds)$", parent):
            typ = {"wants": "Wants", "requires": "Requires", "upholds": "Upholds"}[parent.rsplit(".", 1)[1]]
            prof.add_link(typ, parent.rsplit(".", 1)[0], name, pkg, f"{debname}: {path.lstrip('/')} (shipped)")
        elif kind == "link" and parent == "system" and is_unit_name(name):
            prof.aliases.append((name, os.path.basename(val), pkg, f"{debname}: {path.lstrip('/')} (shipped)"))
    for name in enabled_by_postinst(deb_postinst(deb)):
        prof.enable(name, pkg, f"{debname}: postinst, deb-systemd-helper enable {name}", texts)

# ---- upstream repositories


def git_show(gitdir, rev, path):
    return subprocess.run(["git", "--git-dir", gitdir, "show", f"{rev}:{path}"], check=True, capture_output=True,
                          text=True).stdout


def git_tree(gitdir, rev, dest):
    a = subprocess.run(["git", "--git-dir", gitdir, "archive", rev], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(a)) as t:
        t.extractall(dest, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(dest)


def jinja(text, **params):
    import jinja2
    return jinja2.Template(text, undefined=jinja2.Undefined, keep_trailing_newline=True).render(**params)


def add_cloud_init(prof, gitdir, tag, variant):
    """cloud-init's units as Ubuntu builds them: the packaging tag's tree with debian/patches applied, the
    templates rendered for the variant (tools/render-template), every unit with [Install] enabled
    (dh_installsystemd without --no-enable, debian/rules), and cloud-init-generator's link of cloud-init.target
    into multi-user.target.wants when ds-identify finds a datasource (which a cloud image has)."""
    version = tag.split("/", 1)[1].replace("_", "~")
    cite = f"canonical/cloud-init@{tag}"
    prof.packages.append(("cloud-init", version, cite, "cloud images"))
    with tempfile.TemporaryDirectory() as d:
        git_tree(gitdir, tag, d)
        series = os.path.join(d, "debian/patches/series")
        if os.path.exists(series):
            for p in open(series).read().split():
                subprocess.run(["patch", "-s", "-p1", "-i", os.path.join(d, "debian/patches", p)], cwd=d,
                               check=True)
        rules = open(os.path.join(d, "debian/rules")).read()
        no_enable = "--no-enable" in rules
        texts = {}
        for f in sorted(os.listdir(os.path.join(d, "systemd"))):
            name = f[:-5] if f.endswith(".tmpl") else f
            if not is_unit_name(name):
                continue
            text = open(os.path.join(d, "systemd", f)).read()
            if text.startswith("## template:jinja"):
                text = jinja(text.split("\n", 1)[1], variant=variant, prefix="/usr")
            texts[name] = text
            how = f", rendered for variant {variant}" if f.endswith(".tmpl") else ""
            prof.units[name] = (reduce_unit(text), "cloud-init", version, f"/usr/lib/systemd/system/{name}",
                                f"{cite}: systemd/{f}{how}, after debian/patches/series")
        if not no_enable:
            for name in sorted(texts):
                if install_of(texts[name]):
                    prof.enable(name, "cloud-init", f"{cite}: debian/rules, dh_installsystemd enables {name}", texts)
        gen = open(os.path.join(d, "systemd/cloud-init-generator.tmpl")).read()
        assert 'target_name="multi-user.target"' in gen and 'CLOUD_TARGET_NAME="cloud-init.target"' in gen
        prof.add_link("Wants", "multi-user.target", "cloud-init.target", "cloud-init",
                      f"{cite}: systemd/cloud-init-generator.tmpl (a datasource found: "
                      "multi-user.target.wants/cloud-init.target)")


def add_netplan(prof, gitdir, tag, version):
    """netplan's generator: with networkd configuration (a server's) it links systemd-networkd.service into
    multi-user.target.wants and systemd-networkd-wait-online.service into network-online.target.wants."""
    cite = f"canonical/netplan@{tag}"
    src = git_show(gitdir, tag, "src/generate.c")
    assert '"multi-user.target.wants", "systemd-networkd.service"' in src
    assert '"network-online.target.wants", "systemd-networkd-wait-online.service"' in src
    prof.packages.append(("netplan.io", version, cite, "Ubuntu server: netplan renders the network configuration"))
    why = f"{cite}: src/generate.c enable_networkd() (networkd configuration present)"
    prof.add_link("Wants", "multi-user.target", "systemd-networkd.service", "netplan.io", why)
    prof.add_link("Wants", "network-online.target", "systemd-networkd-wait-online.service", "netplan.io", why)


SYSTEMD_PARAMS = dict(LIBEXECDIR="/usr/lib/systemd", ROOTLIBEXECDIR="/usr/lib/systemd", BINDIR="/usr/bin",
                      ROOTBINDIR="/usr/bin", SBINDIR="/usr/sbin", ROOTPREFIX="/usr", PREFIX="/usr",
                      SERVICE_WATCHDOG="WatchdogSec=3min", ENABLE_NETWORKD=True)


def add_systemd_units(prof, gitdir, tag, which):
    """systemd's own networkd units at the tag, for a base model that has none (the base model's units win)."""
    cite = f"systemd/systemd@{tag}"
    names = {"networkd": ["systemd-networkd.service", "systemd-networkd-wait-online.service",
                          "systemd-networkd.socket"]}[which]
    for name in names:
        path = f"units/{name}.in"
        try:
            text = git_show(gitdir, tag, path)
        except subprocess.CalledProcessError:
            path = f"units/{name}"
            text = git_show(gitdir, tag, path)
        text = jinja(text, **SYSTEMD_PARAMS)
        prof.units[name] = (reduce_unit(text), "systemd", tag.lstrip("v"), f"/usr/lib/systemd/system/{name}",
                            f"{cite}: {path} (systemd's own unit: used only when the base model has none)")


def add_dbus(prof, gitdir, rev, version):
    """The system bus: dbus.service and dbus.socket as dbus's build installs them (bus/Makefile.am's
    install-data-hook links dbus.socket into sockets.target.wants and dbus.service into multi-user.target.wants;
    the package ships those links)."""
    cite = f"freedesktop/dbus@{rev}"
    prof.packages.append(("dbus", version, cite, "systemd Recommends: default-dbus-system-bus | dbus-system-bus, "
                                                 "which dbus provides: installed by default"))
    make = git_show(gitdir, rev, "bus/Makefile.am")
    params = {"@EXPANDED_BINDIR@": "/usr/bin", "@DBUS_SYSTEM_SOCKET@": "/run/dbus/system_bus_socket"}
    for name, wants in (("dbus.socket", "sockets.target"), ("dbus.service", "multi-user.target")):
        assert f"ln -fs ../{name} $(DESTDIR)$(systemdsystemunitdir)/{wants}.wants/{name}" in make
        text = re.sub(r"@\w+@", lambda x: params.get(x.group(0), ""), git_show(gitdir, rev, f"bus/{name}.in"))
        prof.units[name] = (reduce_unit(text), "dbus", version, f"/usr/lib/systemd/system/{name}",
                            f"{cite}: bus/{name}.in")
        prof.add_link("Wants", wants, name, "dbus", f"{cite}: bus/Makefile.am install-data-hook ({wants}.wants/{name}, "
                                                   "shipped in the package)")


def add_networkmanager(prof, gitdir, tag, _):
    """NetworkManager's units (data/*.service.in); the RPM's %systemd_post enables them by the distribution's
    preset (contrib/fedora/rpm/NetworkManager.spec: "rely on preset"), which enables NetworkManager,
    NetworkManager-dispatcher and NetworkManager-wait-online."""
    cite = f"NetworkManager/NetworkManager@{tag}"
    prof.packages.append(("NetworkManager", tag, cite, "RHEL's network stack"))
    spec = git_show(gitdir, tag, "contrib/fedora/rpm/NetworkManager.spec")
    macros = dict(re.findall(r"^%global\s+(\w+)\s+(.*)$", spec, re.M))
    m = re.search(r"^%systemd_post\s+(.*)$", spec, re.M)
    enabled = re.sub(r"%\{(\w+)\}", lambda x: macros.get(x.group(1), ""), m.group(1)).split() if m else []
    texts = {}
    for name in enabled:
        text = git_show(gitdir, tag, f"data/{name}.in")
        text = re.sub(r"@\w+@", lambda x: {"@sbindir@": "/usr/sbin", "@bindir@": "/usr/bin",
                                            "@libexecdir@": "/usr/libexec"}.get(x.group(0), ""), text)
        texts[name] = text
        prof.units[name] = (reduce_unit(text), "NetworkManager", tag, f"/usr/lib/systemd/system/{name}",
                            f"{cite}: data/{name}.in")
    for name in enabled:
        prof.enable(name, "NetworkManager",
                    f"{cite}: contrib/fedora/rpm/NetworkManager.spec, %systemd_post {name} (systemctl preset: "
                    "the distribution's 90-default.preset enables it)", texts)


def add_firewalld(prof, gitdir, tag, _):
    cite = f"firewalld/firewalld@{tag}"
    prof.packages.append(("firewalld", tag.lstrip("v"), cite, "RHEL's firewall, enabled by default"))
    text = git_show(gitdir, tag, "config/firewalld.service.in")
    text = re.sub(r"@\w+@", lambda x: {"@sbindir@": "/usr/sbin", "@sysconfdir@": "/etc"}.get(x.group(0), ""), text)
    prof.units["firewalld.service"] = (reduce_unit(text), "firewalld", tag.lstrip("v"),
                                       "/usr/lib/systemd/system/firewalld.service",
                                       f"{cite}: config/firewalld.service.in")
    spec = git_show(gitdir, tag, "firewalld.spec") if tag_has(gitdir, tag, "firewalld.spec") else ""
    how = ("firewalld.spec, %systemd_post firewalld.service (systemctl preset: the distribution's 90-default.preset "
           "enables it)") if "%systemd_post firewalld.service" in spec else \
        "the distribution's preset"
    prof.enable("firewalld.service", "firewalld", f"{cite}: {how}", {"firewalld.service": text})


def tag_has(gitdir, tag, path):
    return subprocess.run(["git", "--git-dir", gitdir, "cat-file", "-e", f"{tag}:{path}"],
                          capture_output=True).returncode == 0


UPSTREAM = {"cloud-init": add_cloud_init, "netplan": add_netplan, "systemd-units": add_systemd_units, "dbus": add_dbus,
            "NetworkManager": add_networkmanager, "firewalld": add_firewalld}
GITNAME = {"systemd-units": "systemd"}

# ---- output


def q(s):
    return quoteattr(s)


def write_profiles(path, target, spec, built):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!-- SPDX-License-Identifier: LGPL-2.1-or-later -->",
           "<!-- Generated by rules/profile-src/gen-profiles.py (see its header and rules/README.md); do not edit by "
           "hand. Units are reduced to the settings the model uses; each names its package, version and source. -->",
           f"<profiles target={q(target)} default={q(spec['default'])}>"]
    for p in built:
        ext = f" extends={q(p.extends)}" if p.extends else ""
        out.append(f"<profile name={q(p.name)}{ext} description={q(p.description)}>")
        for name, version, source, reason in p.packages:
            out.append(f"  <package name={q(name)} version={q(version)} source={q(source)} reason={q(reason)}/>")
        for name in sorted(p.units):
            text, pkg, version, upath, source = p.units[name]
            out.append(f"<unit name={q(name)} package={q(pkg)} version={q(version)} path={q(upath)} "
                       f"source={q(source)}>")
            out.append(escape(text).rstrip("\n"))
            out.append("</unit>")
        for typ, unit, name, pkg, source in p.links:
            out.append(f"  <link type={q(typ)} unit={q(unit)} name={q(name)} package={q(pkg)} source={q(source)}/>")
        for name, unit, pkg, source in p.aliases:
            out.append(f"  <alias name={q(name)} unit={q(unit)} package={q(pkg)} source={q(source)}/>")
        out.append("</profile>")
    out.append("</profiles>")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)


def known_targets(rules):
    text = open(os.path.join(rules, "targets.xml")).read()
    return set(re.findall(r'<target name="([^"]+)"', text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default=os.path.dirname(HERE))
    ap.add_argument("--git", action="append", default=[], metavar="NAME=GITDIR")
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    gits = dict(g.split("=", 1) for g in a.git)
    known = known_targets(a.rules)
    for target in a.targets or sorted(PROFILES):
        if target not in PROFILES:
            sys.exit(f"gen-profiles.py: no profiles defined for {target}")
        if target not in known:
            print(f"gen-profiles.py: {target}: not in targets.xml yet, skipped", file=sys.stderr)
            continue
        spec = PROFILES[target]
        need = {GITNAME.get(kind, kind) for _, _, _, parts in spec["profiles"] for kind, *_ in parts
                if kind != "deb"}
        missing = sorted(need - set(gits))
        if missing:
            print(f"gen-profiles.py: {target}: no --git for {', '.join(missing)}, skipped", file=sys.stderr)
            continue
        built = []
        for name, extends, description, parts in spec["profiles"]:
            p = Profile(name, extends, description)
            for part in parts:
                if part[0] == "deb":
                    add_deb(p, *part[1:])
                else:
                    kind, ref, extra = part
                    UPSTREAM[kind](p, gits[GITNAME.get(kind, kind)], ref, extra)
            built.append(p)
        path = os.path.join(a.rules, f"profile-{target}.xml")
        write_profiles(path, target, spec, built)
        print(f"gen-profiles.py: wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
