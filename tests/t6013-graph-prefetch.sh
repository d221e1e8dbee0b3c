#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# graph and lint load units ahead on a second thread for large trees (prefetch.h). What they print must not depend
# on that: the same output, byte for byte, and the same diagnostics with the worker forced on and forced off
# (BOOTRACE_PREFETCH), on a generated tree with drop-ins, templates and links, and on the lab trees.
. "$(dirname "$0")/lib.sh"

# same_both VERB ARGS...: bootrace VERB ARGS with and without the worker: stdout, stderr and exit status equal
same_both() {
        local rc0=0 rc1=0
        BOOTRACE_PREFETCH=0 bootrace "$@" > "$TMP/0.out" 2> "$TMP/0.err" || rc0=$?
        BOOTRACE_PREFETCH=1 bootrace "$@" > "$TMP/1.out" 2> "$TMP/1.err" || rc1=$?
        [ "$rc0" = "$rc1" ] || { echo "exit $rc0 without the worker, $rc1 with it"; return 1; }
        [ -s "$TMP/0.out" ] || { echo "no output"; cat "$TMP/0.err"; return 1; }
        diff -u "$TMP/0.out" "$TMP/1.out" >/dev/null || { echo "stdout differs"; diff -u "$TMP/0.out" "$TMP/1.out" | head -20; return 1; }
        diff -u "$TMP/0.err" "$TMP/1.err"
}

bash "$top_srcdir/tests/bench/gen-tree.sh" 3000 "$TMP/gen"
# some things for diagnostics: a file that fails to parse, an unknown section, a mask, an alias
printf '[Unit\nAfter=svc2.service\n' > "$TMP/gen/usr/lib/systemd/system/svc5.service"
printf '[Unit]\nAfter=svc3.service\n[Bogus]\nx=y\n' > "$TMP/gen/usr/lib/systemd/system/svc6.service"
ln -s /dev/null "$TMP/gen/etc/systemd/system/svc7.service"
ln -s svc8.service "$TMP/gen/usr/lib/systemd/system/alias8.service"

test_expect "generated tree: text output and diagnostics alike" same_both graph --systemd=257 --root="$TMP/gen"
test_expect "generated tree, 247: alike" same_both graph --systemd=247 --root="$TMP/gen"
test_expect "generated tree: JSON alike" same_both graph --systemd=252 --root="$TMP/gen" --format=json --all
test_expect "generated tree: cycles alike" same_both graph --systemd=257 --root="$TMP/gen" --cycles
test_expect "generated tree: lint alike" same_both lint --systemd=229 --root="$TMP/gen"
test_expect "generated tree: lint JSON alike" same_both lint --systemd=257 --root="$TMP/gen" --format=json

# shellcheck disable=SC2086
if LAB_SRV=${LAB_SRV:-/srv/lab} "$LAB/lab-check.sh" $LAB_SUITES > "$TMP/lab" 2>&1 || [ "${CI:-}" = true ]; then
        # shellcheck disable=SC2086
        lab_judged $LAB_SUITES
        for suite in $LAB_JUDGED; do
                ver=$(lab_tree_systemd "$suite")
                test_expect "$suite: output alike" same_both graph --systemd="$ver" --root="${LAB_SRV:-/srv/lab}/$suite" --all
                test_expect "$suite: cycles alike" same_both graph --systemd="$ver" --root="${LAB_SRV:-/srv/lab}/$suite" --cycles
                test_expect "$suite: lint alike" same_both lint --systemd="$ver" --root="${LAB_SRV:-/srv/lab}/$suite"
        done
else
        test_skip "lab trees: output alike" "$(cat "$TMP/lab")"
fi
