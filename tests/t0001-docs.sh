#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Documentation stays complete: every verb that `bootrace --help` lists has its section in bootrace(1), and the
# README starts with exactly two fenced commands (install+build+example, and the test suite).
. "$(dirname "$0")/lib.sh"

man1=$top_srcdir/man/bootrace.1.scd
for verb in $("$BOOTRACE" --help | awk '/^Verbs:/{v=1; next} v && /^  [a-z]/{print $1} v && /^$/{exit}'); do
        test_expect "bootrace(1) documents the $verb verb" grep -q "^## bootrace $verb\b" "$man1"
        test_expect "bootrace(1)'s EXAMPLES use the $verb verb" sh -c '
                sed -n "/^# EXAMPLES/,/^# /p" "$1" | grep -q "^    bootrace $2 "' - "$man1" "$verb"
done
# the global options from cli.c's table (and -V, which main.c takes before it): each in bootrace(1) and --help
globals=$(sed -n '/^static const struct option global_options\[\] = {/,/^};/s/^ *{ "\([a-z-]*\)".*/\1/p' \
        "$top_srcdir/analyzer/cli.c")
test_expect "cli.c's table of global options is read (root, instance among them)" sh -c '
        echo "$0" | grep -qx root && echo "$0" | grep -qx instance' "$globals"
test_expect "bootrace(1) documents every global option" sh -c '
        for o in $1 version; do
                grep -q -- "\*--$o\*" "$0" || { echo "missing --$o"; exit 1; }
        done' "$man1" "$globals"
test_expect "bootrace --help lists every global option" sh -c '
        help=$("$BOOTRACE" --help) || exit 1
        for o in $0 version; do
                echo "$help" | grep -q -- "--$o\b" || { echo "missing --$o"; exit 1; }
        done' "$globals"
test_expect "bootrace(1) documents every BOOTRACE_ variable the code reads" sh -c '
        for v in $(grep -oh "getenv(\"BOOTRACE_[A-Z_]*\")" "$0"/analyzer/*.c "$0"/analyzer/*/*.c | sed "s/getenv(\"//; s/\")//" | sort -u); do
                grep -q "^\*$v\*" "$0/man/bootrace.1.scd" || { echo "missing $v"; exit 1; }
        done' "$top_srcdir"
test_expect "README starts with exactly two fenced commands" sh -c '
        awk "/^\`\`\`/{n++} END{exit !(n >= 4)}" "$0" &&
        [ "$(awk "/^\`\`\`/{b++; next} b==1||b==3{print}" "$0" | wc -l)" = 2 ] &&
        ! awk "/^## /{exit} /^\`\`\`/{n++} END{exit !(n > 4)}" "$0"' "$top_srcdir/README.md"

# The README's first command installs through tools/install-deps, the one list of packages: apt-get as root itself
# (a root container has no sudo), through sudo for anyone else. Fakes of apt-get, sudo and id record what it runs.
readme1=$(awk '/^```/{b++; next} b==1{print}' "$top_srcdir/README.md")
test_expect "README's first command runs no sudo itself" sh -c '! printf "%s\n" "$0" | grep -qw sudo' "$readme1"
test_expect "README's first command installs with tools/install-deps" sh -c \
        'printf "%s\n" "$0" | grep -q "^\./tools/install-deps && "' "$readme1"
deps=$top_srcdir/tools/install-deps
if [ -x "$deps" ]; then
        mkdir -p "$TMP/fake/root" "$TMP/fake/user"
        printf '#!/bin/sh\necho "apt-get $*" >> "$TMP/apt.log"\n' > "$TMP/fake/apt-get"
        printf '#!/bin/sh\necho "sudo $*" >> "$TMP/apt.log"\n' > "$TMP/fake/sudo"
        printf '#!/bin/sh\necho 0\n' > "$TMP/fake/root/id"
        printf '#!/bin/sh\necho 1000\n' > "$TMP/fake/user/id"
        chmod 755 "$TMP"/fake/*/id "$TMP/fake/apt-get" "$TMP/fake/sudo"
        pkgs=$("$deps" --list | tr '\n' ' ')
        for who in root user; do
                sudo=; [ $who = root ] || sudo="sudo "
                lock='-o DPkg::Lock::Timeout=600' # waits for another apt (unattended upgrades on a fresh machine)
                printf '%sapt-get %s update\n%sapt-get %s install -y %s\n' "$sudo" "$lock" "$sudo" "$lock" "${pkgs% }" \
                        > "$TMP/apt.$who"
                test_expect "tools/install-deps as $who: ${sudo:-no sudo, }apt-get update and install" sh -c '
                        rm -f "$TMP/apt.log" && PATH=$TMP/fake/$0:$TMP/fake:$PATH "$1" &&
                        diff -u "$TMP/apt.$0" "$TMP/apt.log"' $who "$deps"
        done
else
        for who in root user; do
                test_skip "tools/install-deps as $who: apt-get update and install" "no tools/install-deps in this tree"
        done
fi
# debian/control is the other list of what the build needs; Debian implies build-essential, and debhelper builds
# the package only
if [ -x "$deps" ] && [ -f "$top_srcdir/debian/control" ]; then
        test_expect "tools/install-deps's build share is debian/control's Build-Depends" sh -c '
                "$0" --list build | grep -vx build-essential | sort > "$TMP/deps.build" &&
                sed -n "/^Build-Depends:/,/^[^ ]/{s/^Build-Depends://; /^[^ ]/d; p}" "$1" | tr , "\n" |
                        sed "s/(.*)//; s/[[:space:]]//g; /^$/d; /^debhelper/d" | sort > "$TMP/control.build" &&
                diff -u "$TMP/control.build" "$TMP/deps.build"' "$deps" "$top_srcdir/debian/control"
else
        test_skip "tools/install-deps's build share is debian/control's Build-Depends" \
                "no debian/ in this tree (a release tarball)"
fi
