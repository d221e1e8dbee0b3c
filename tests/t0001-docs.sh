#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Documentation stays complete: every verb that `bootrace --help` lists has its section in bootrace(1), and the
# README starts with exactly two fenced commands (install+build+example, and the test suite).
. "$(dirname "$0")/lib.sh"

man1=$top_srcdir/man/bootrace.1.scd
for verb in $("$BOOTRACE" --help | awk '/^Verbs:/{v=1; next} v && /^  [a-z]/{print $1} v && /^$/{exit}'); do
        test_expect "bootrace(1) documents the $verb verb" grep -q "^## bootrace $verb\b" "$man1"
done
test_expect "bootrace(1) documents every global option" sh -c '
        for o in root target systemd format fail-on no-color quiet help version; do
                grep -q -- "\*--$o\*" "$0" || { echo "missing --$o"; exit 1; }
        done' "$man1"
test_expect "bootrace(1) documents every BOOTRACE_ variable the code reads" sh -c '
        for v in $(grep -oh "getenv(\"BOOTRACE_[A-Z_]*\")" "$0"/analyzer/*.c "$0"/analyzer/*/*.c | sed "s/getenv(\"//; s/\")//" | sort -u); do
                grep -q "^\*$v\*" "$0/man/bootrace.1.scd" || { echo "missing $v"; exit 1; }
        done' "$top_srcdir"
test_expect "README starts with exactly two fenced commands" sh -c '
        awk "/^\`\`\`/{n++} END{exit !(n >= 4)}" "$0" &&
        [ "$(awk "/^\`\`\`/{b++; next} b==1||b==3{print}" "$0" | wc -l)" = 2 ] &&
        ! awk "/^## /{exit} /^\`\`\`/{n++} END{exit !(n > 4)}" "$0"' "$top_srcdir/README.md"
