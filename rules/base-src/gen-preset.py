#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Adds to rules/base-N.xml what a release that applies systemd presets enables: a <target name=...> element.

    gen-preset.py rules/base-N.xml --target NAME --source TEXT PRESET-FILE...
    gen-preset.py rules/base-N.xml --target NAME --source TEXT --enable-script FILE

The first form is for Fedora and RHEL/CentOS Stream, whose systemd package runs `systemctl preset-all` when it is
first installed (Fedora's systemd.spec %post, yuwata/systemd-fedora 041d0e2394300bb5ff1ab46f4d84778d64fcf36c,
"Version 255.5"): PRESET-FILEs are every *.preset of /usr/lib/systemd/system-preset a default installation has
(the release package's 85-display-manager, 90-default, 99-default-disable; systemd's own 90-systemd.preset),
read out of the repositories they come from, e.g.

    git --git-dir=DIR show COMMIT:90-default.preset > /tmp/p/90-default.preset

The second form is for Arch, which applies no preset: its systemd.install's post_install() runs `systemctl enable`
for a few units (FILE is that script); the units named there are enabled as the preset "enable" lines would.

What it computes, as systemd's src/shared/install.c does (unit_file_preset_all(), query_presets(),
pattern_match_multiple_instances(), install_context_apply(), read at v252 and v261.2):
- the files are read in the order of their names; the first line whose pattern (fnmatch) matches a unit decides;
  `enable TEMPLATE@.service INST...` names instances; `ignore` (from v254; older versions skip the line) leaves
  the unit alone; no matching line: enable;
- every unit file of the model is asked (aliases and instances are not unit files); an enabled unit gets the
  links of its [Install] section (WantedBy= -> .wants/, RequiredBy= -> .requires/, UpheldBy= -> .upholds/; a
  template its listed instances, or DefaultInstance=, or nothing), its Alias= names, and its Also= units are
  enabled with it whatever their own preset line says;
- disable lines remove links in /etc only, so the model's static links stay: the element has no <unlink>;
- an Alias= of a template is not instantiated: from v260 getty@.service has Alias=autovt@.service without a static
  autovt@.service link, so `systemctl enable getty@tty1.service` also makes autovt@tty1.service, which no unit of the
  boot names (logind starts autovt@ttyN on a VT switch); the element leaves it out.
Checked against the real thing, systemd 252's systemctl over the model's units written out as a tree DIR:
`systemctl --root=DIR preset-all` with the fedora-40 and rhel-9 preset files, `systemctl --root=DIR enable` of
arch's three units, made the same links and aliases as the elements, besides the model's static
ctrl-alt-del.target alias, which it makes again, and arch's autovt@tty1.service above; tests/t2031 does the same
with preset files of its own.
The element holds the <link>s and <alias>es that result and that the model lacks. Only systemd's own units are
in a base model: what the presets say of other packages' units (NetworkManager, chronyd, ...) is the business of
profile-TARGET.xml. The element replaces the model's <target name=NAME> if there is one.
"""
import argparse, fnmatch, html, os, re, sys
from xml.sax.saxutils import quoteattr

KIND = {"WantedBy": "Wants", "RequiredBy": "Requires", "UpheldBy": "Upholds"}


def read_presets(files):
    """The rules of the preset files, in the order systemd applies them: by file name, then line."""
    names = [os.path.basename(f) for f in files]
    if len(set(names)) != len(names):
        sys.exit("gen-preset.py: two preset files of one name (the first directory would shadow the other)")
    rules = []
    for f in sorted(files, key=os.path.basename):
        for n, l in enumerate(open(f, encoding="utf-8"), 1):
            w = l.split()
            if not w or w[0].startswith(("#", ";")):
                continue
            if w[0] not in ("enable", "disable", "ignore") or len(w) < 2:
                sys.exit("%s:%d: not a preset line" % (f, n))
            rules.append((w[0], w[1], w[2:] if w[0] == "enable" else [], "%s:%d" % (os.path.basename(f), n)))
    return rules


def query(rules, name):
    """(action, instances, where) of the first rule for unit file name, as query_presets()."""
    for action, pattern, instances, where in rules:
        if instances and "@." in name and pattern == name:
            return action, instances, where
        if fnmatch.fnmatchcase(name, pattern):
            return action, [], where
    return "enable", [], "no rule (systemd enables)"


def install_section(text):
    out = {}
    sec = None
    for l in text.split("\n"):
        l = l.strip()
        if l.startswith("["):
            sec = l
        elif sec == "[Install]" and "=" in l:
            k, v = l.split("=", 1)
            out.setdefault(k.strip(), []).extend(v.split())
    return out


def script_enables(path):
    """The units of the `systemctl enable` commands of an install script (continuation lines joined)."""
    text = re.sub(r"\\\n", " ", open(path, encoding="utf-8").read())
    units = []
    for l in text.split("\n"):
        m = re.match(r"^\s*systemctl\s+(?:--[\w-]+\s+)*enable\s+(.*)$", l)
        if m:
            units += [w for w in m.group(1).split() if not w.startswith("-")]
    return units


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("presets", nargs="*")
    ap.add_argument("--target", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--enable-script")
    ap.add_argument("--verbose", action="store_true", help="say on stderr what decided each unit")
    a = ap.parse_intermixed_args()
    if bool(a.presets) == bool(a.enable_script):
        sys.exit("gen-preset.py: give preset files or --enable-script, not both")

    x = open(a.base, encoding="utf-8").read()
    x = re.sub(r'<target name=%s .*?</target>\n' % re.escape(quoteattr(a.target)), "", x, flags=re.S)
    model = re.sub(r'<target name=.*?</target>\n', "", x, flags=re.S)  # systemd's own install, no release's
    units = {html.unescape(n): html.unescape(t)
             for n, t in re.findall(r'<unit name="([^"]*)"[^>]*>\n?(.*?)</unit>', model, re.S)}
    links = {(html.unescape(t), html.unescape(u), html.unescape(n))
             for t, u, n in re.findall(r'<link type="(\w+)" unit="([^"]*)" name="([^"]*)"/>', model)}
    aliases = {html.unescape(n) for n in re.findall(r'<alias name="([^"]*)"', model)}

    # what is enabled: (unit file, instances or None for the file's own DefaultInstance=)
    todo = []
    if a.presets:
        rules = read_presets(a.presets)
        for u in sorted(units):
            action, inst, where = query(rules, u)
            if a.verbose and install_section(units[u]):
                print("%-45s %-7s %s" % (u, action, where), file=sys.stderr)
            if action == "enable":
                todo.append((u, inst or None))
    else:
        for u in script_enables(a.enable_script):
            m = re.match(r"^([^@]+@)([^.]+)(\.\w+)$", u)
            if m and m.group(1) + m.group(3) in units:
                todo.append((m.group(1) + m.group(3), [m.group(2)]))
            elif u in units:
                todo.append((u, None))
            else:
                print("gen-preset.py: %s is no unit of the model, left out" % u, file=sys.stderr)

    add, alias, done = set(), [], set()
    while todo:
        u, inst = todo.pop(0)
        if (u, tuple(inst or ())) in done:
            continue
        done.add((u, tuple(inst or ())))
        sec = install_section(units[u])
        names = [u]
        if "@." in u:
            inst = inst or sec.get("DefaultInstance", [])[-1:]
            names = [u.replace("@.", "@%s." % i) for i in inst]
        for k, kind in KIND.items():
            for t in sec.get(k, []):
                if "%" in t:
                    print("gen-preset.py: %s: %s=%s has a specifier, left out" % (u, k, t), file=sys.stderr)
                    continue
                add |= {(kind, t, n) for n in names if (kind, t, n) not in links}
        for n in sec.get("Alias", []):
            if "@." not in u and n not in aliases and n not in units and (n, u) not in alias:
                alias.append((n, u))
        for o in sec.get("Also", []):
            if o in units:
                todo.append((o, None))

    out = ["<target name=%s source=%s>\n" % (quoteattr(a.target), quoteattr(a.source))]
    key = lambda l: (l[1], l[0], l[2])
    out += ["<link type=%s unit=%s name=%s/>\n" % tuple(map(quoteattr, l)) for l in sorted(add, key=key)]
    out += ["<alias name=%s unit=%s/>\n" % tuple(map(quoteattr, l)) for l in sorted(alias)]
    out.append("</target>\n")
    x = x.replace("</base>\n", "".join(out) + "</base>\n")
    open(a.base, "w", encoding="utf-8").write(x)


main()
