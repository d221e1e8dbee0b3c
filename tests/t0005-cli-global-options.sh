#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Global options before the verb take their value in both forms, --opt=V and --opt V (as after the verb): a value
# is never taken for the verb (issue 20, item 5).
. "$(dirname "$0")/lib.sh"

units=$FIXTURES/lint/lp1750780-ubuntu-xenial/units
bootrace lint --target=ubuntu-xenial "$units" > "$TMP/after" 2>&1

for form in "--target ubuntu-xenial" "--target=ubuntu-xenial" "--targ ubuntu-xenial"; do
        # shellcheck disable=SC2086 # the form is two words or one on purpose
        test_expect "bootrace $form lint: the same report as lint --target=ubuntu-xenial" sh -c '
                rc=0; "$BOOTRACE" $0 lint "$1" > "$TMP/before" 2>&1 || rc=$?
                [ $rc = 1 ] || { echo "exit status $rc, expected 1"; cat "$TMP/before"; exit 1; }
                diff -u "$TMP/after" "$TMP/before"' "$form" "$units"
done
test_expect "bootrace --systemd 237 --format json lint: both values taken" sh -c '
        "$BOOTRACE" --systemd 237 --format json lint "$0" > "$TMP/out" &&
        jq -e ".systemd == 237 and (.findings | length) == 0" "$TMP/out"' "$units"
test_expect "bootrace --fail-on error --root DIR lint: both values taken" sh -c '
        mkdir -p "$TMP/root/etc/systemd/system" &&
        printf "[Service]\nExecStart=/bin/true\n" > "$TMP/root/etc/systemd/system/x.service" &&
        "$BOOTRACE" --fail-on error --root "$TMP/root" --systemd 252 --format=json \
                lint > "$TMP/out" && jq -e ".systemd == 252" "$TMP/out"'
test_expect "bootrace --quiet --target ubuntu-bionic lint: a flag takes no value" sh -c '
        "$BOOTRACE" --quiet --target ubuntu-bionic lint "$0"' "$units"
test_expect "a value-taking option last before nothing is still a missing verb (exit 2)" sh -c '
        rc=0; "$BOOTRACE" --target ubuntu-xenial 2> "$TMP/err" || rc=$?
        [ $rc = 2 ] && grep -q "no verb given" "$TMP/err"'
