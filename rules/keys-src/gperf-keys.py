#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Lists the unit-file keys of one systemd source tree, for checking rules/unit-keys.xml against a release.

    gperf-keys.py SRCDIR            # a systemd source tree (a tag's checkout, or apt-get source systemd)
    gperf-keys.py --file GPERF      # or the table itself (git show vNNN:src/core/load-fragment-gperf.gperf.in)

Prints "Section.Key" per line, sorted, as `systemd --dump-configuration-items` lists them: keys that systemd
accepts but ignores (config_parse_warn_compat with DISABLED_LEGACY: "Support for option X= has been removed") get a
tab and "ignored" after them, and are what `rules-query dump` leaves out. Reads the jinja form of the table (v248 and later, .gperf.in); every branch of
an {% if %} counts, as Debian builds with seccomp, SELinux, AppArmor and the rest that the branches depend on.
"""
import os, re, sys


def read_table(argv):
    if len(argv) == 3 and argv[1] == "--file":
        return open(argv[2], encoding="utf-8").read()
    if len(argv) == 2:
        return open(os.path.join(argv[1], "src/core/load-fragment-gperf.gperf.in"), encoding="utf-8").read()
    sys.exit(__doc__.strip())


def expand(text):
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    macros = {}

    def define(m):
        macros[m.group(1)] = (m.group(2), m.group(3))
        return ""

    text = re.sub(r"\{%-?\s*macro\s+(\w+)\((\w+)\)\s*-?%\}(.*?)\{%-?\s*endmacro\s*-?%\}", define, text, flags=re.S)

    def subst(t, env):
        def call(m):
            param, body = macros[m.group(1)]
            return subst(body, {**env, param: m.group(2).strip("'\" ")})
        t = re.sub(r"\{\{-?\s*(\w+)\(([^)]*)\)\s*-?\}\}", call, t)
        for k, v in env.items():
            t = re.sub(r"\{\{-?\s*" + k + r"\s*-?\}\}", v, t)
        return t

    return re.sub(r"\{%.*?%\}", "", subst(text, {}))


def main():
    keys = {}
    for line in expand(read_table(sys.argv)).split("\n"):
        m = re.match(r"^([A-Z][A-Za-z]*)\.([A-Za-z0-9]+),\s*(\w+)\s*,\s*([^,]*),", line)
        if not m:
            continue
        sk = m.group(1) + "." + m.group(2)
        ignored = m.group(3) == "config_parse_warn_compat" and m.group(4).strip() == "DISABLED_LEGACY"
        # a key listed twice (in both branches of an {% if %}) is known if either branch knows it
        keys[sk] = keys.get(sk, True) and ignored
    for sk in sorted(keys):
        print(sk + ("\tignored" if keys[sk] else ""))


main()
