#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# lint with several --target judges each and reports per target in every format; the exit status is the worst
# (issue 20, item 1: "--target ubuntu-xenial --target ubuntu-bionic" judged only bionic and exited 0).
. "$(dirname "$0")/lib.sh"

units=$FIXTURES/lint/lp1750780-ubuntu-xenial/units # races on xenial (229), safe on bionic (237)

# lint_rc WANT FORMAT TARGET...: stdout in $TMP/out
lint_rc() {
        local want=$1 fmt=$2 rc=0 args=() t; shift 2
        for t; do args+=(--target="$t"); done
        "$BOOTRACE" lint -q --format="$fmt" "${args[@]}" "$units" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ $rc = "$want" ] || { echo "exit status $rc, expected $want"; cat "$TMP/out" "$TMP/err"; return 1; }
}
q() { jq -e "$1" "$TMP/out" > /dev/null || { echo "false: $1"; cat "$TMP/out"; return 1; }; }

text_both() {
        lint_rc 1 text ubuntu-xenial ubuntu-bionic &&
                grep -qx "== ubuntu-xenial (systemd 229) ==" "$TMP/out" &&
                grep -qx "== ubuntu-bionic (systemd 237) ==" "$TMP/out" &&
                sed -n '/^== ubuntu-xenial/,/^== ubuntu-bionic/p' "$TMP/out" |
                grep -q "error: \[private-tmp-before-remount\]" &&
                ! sed -n '/^== ubuntu-bionic/,$p' "$TMP/out" | grep -q "error: \["
}
text_order() { lint_rc 1 text ubuntu-bionic ubuntu-xenial && grep -qx "== ubuntu-xenial (systemd 229) ==" "$TMP/out"; }
json_both() {
        lint_rc 1 json ubuntu-bionic ubuntu-xenial && q '.targets | length == 2' &&
                q '[.targets[].target] == ["ubuntu-bionic", "ubuntu-xenial"]' &&
                q '.targets[] | select(.target == "ubuntu-xenial") | .systemd == 229 and .summary.errors == 1' &&
                q '.targets[] | select(.target == "ubuntu-bionic") | .systemd == 237 and .summary.errors == 0' &&
                q '.targets[1].findings[0].check == "private-tmp-before-remount"'
}
sarif_both() {
        lint_rc 1 sarif ubuntu-xenial ubuntu-bionic && q '.version == "2.1.0" and (.runs | length) == 2' &&
                q '[.runs[].properties.target] == ["ubuntu-xenial", "ubuntu-bionic"]' &&
                q '[.runs[] | .results | length] == [1, 0]'
}
junit_both() {
        lint_rc 1 junit ubuntu-xenial ubuntu-bionic &&
                [ "$(grep -c "<testsuite " "$TMP/out")" = 2 ] &&
                grep -q '<testsuite name="bootrace lint ubuntu-xenial (systemd 229)" tests="1" failures="1"' "$TMP/out" &&
                grep -q '<testsuite name="bootrace lint ubuntu-bionic (systemd 237)" tests="1" failures="0"' "$TMP/out"
}
one_target() { lint_rc 0 json ubuntu-bionic && q '.target == "ubuntu-bionic" and .findings == [] and (has("targets") | not)'; }
both_clean() { lint_rc 0 text ubuntu-bionic debian-bookworm; }
bad_target() { lint_rc 2 text ubuntu-xenial no-such-release && grep -q "unknown --target=no-such-release" "$TMP/err"; }

test_expect "text: a block per target, xenial's race in xenial's block, exit 1" text_both
test_expect "text: the other order, the same judgement" text_order
test_expect "json: targets[], one object per target with its summary" json_both
test_expect "sarif: one run per target" sarif_both
test_expect "junit: one testsuite per target" junit_both
test_expect "one target: the one-target report, unchanged" one_target
test_expect "two targets, both clean: exit 0" both_clean
test_expect "an unknown target among them: exit 2" bad_target
