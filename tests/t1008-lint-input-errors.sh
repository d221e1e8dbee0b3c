#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What lint could not judge is in every machine-readable format, not only on stderr (issue 20, item 3): JSON
# input_errors (and summary.input_errors), SARIF invocations[].toolExecutionNotifications with
# executionSuccessful false, JUnit errors and an <error> case; a damaged .deb with --format=sarif is a valid
# SARIF log that says so.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/u"
# no ExecStart=: systemd refuses it (bad-setting)
printf '[Unit]\nDescription=x\n\n[Service]\nType=oneshot\n' > "$TMP/u/noexec.service"
printf '[Unit]\nDescription=y\n\n[Service]\nExecStart=/bin/true\n' > "$TMP/u/fine.service"
# an ar archive that starts like a .deb and then breaks off
printf '!<arch>\ndebian-binary   0           0     0     100644  4         `\n2.0\n' > "$TMP/damaged_1_all.deb"
printf 'control.tar.xz  0           0     0     100644  9999      `\n\375' >> "$TMP/damaged_1_all.deb"

# lint_rc WANT FORMAT PATH...: stdout in $TMP/out
lint_rc() {
        local want=$1 fmt=$2 rc=0; shift 2
        "$BOOTRACE" lint -q --target=debian-bookworm --format="$fmt" "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ $rc = "$want" ] || { echo "exit status $rc, expected $want"; cat "$TMP/out" "$TMP/err"; return 1; }
}
q() { jq -e "$1" "$TMP/out" > /dev/null || { echo "false: $1"; cat "$TMP/out"; return 1; }; }

json_unit() {
        lint_rc 2 json "$TMP/u" && q '.summary.input_errors >= 1' &&
                q '[.input_errors[].message | select(test("noexec.service: bad-setting"))] | length == 1' &&
                q '.summary.units == 1'
}
sarif_unit() {
        lint_rc 2 sarif "$TMP/u" && q '.runs[0].invocations[0].executionSuccessful == false' &&
                q '[.runs[0].invocations[0].toolExecutionNotifications[] | select(.level == "error") |
                    .message.text | select(test("noexec.service"))] | length >= 1'
}
junit_unit() {
        lint_rc 2 junit "$TMP/u" && grep -q '<testsuite name="bootrace lint" tests="[0-9]*" failures="0" skipped="0" errors="[1-9]' "$TMP/out" &&
                grep -q '<error type="input" message="noexec.service: bad-setting' "$TMP/out"
}
sarif_deb() {
        lint_rc 2 sarif "$TMP/damaged_1_all.deb" && q '.version == "2.1.0" and (.runs | length) == 1' &&
                q '.runs[0].invocations[0].executionSuccessful == false' &&
                q '.runs[0].invocations[0].toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation.uri | endswith("damaged_1_all.deb")' &&
                q '.runs[0].results == []'
}
json_deb() { lint_rc 2 json "$TMP/damaged_1_all.deb" && q '.input_errors | length >= 1'; }
junit_deb() { lint_rc 2 junit "$TMP/damaged_1_all.deb" && grep -q 'errors="[1-9]' "$TMP/out"; }
clean() {
        lint_rc 0 sarif "$TMP/u/fine.service" && q '.runs[0].invocations[0].executionSuccessful == true' &&
                q '.runs[0].invocations[0] | has("toolExecutionNotifications") | not' &&
                lint_rc 0 json "$TMP/u/fine.service" && q '.input_errors == [] and .summary.input_errors == 0' &&
                lint_rc 0 junit "$TMP/u/fine.service" && grep -q 'errors="0"' "$TMP/out"
}

test_expect "json: a unit that cannot be loaded is in input_errors" json_unit
test_expect "sarif: ... a toolExecutionNotification, executionSuccessful false" sarif_unit
test_expect "junit: ... errors=N and an <error> case" junit_unit
test_expect "sarif: a damaged .deb is a valid log naming the package" sarif_deb
test_expect "json: a damaged .deb is in input_errors" json_deb
test_expect "junit: a damaged .deb is an error" junit_deb
test_expect "nothing wrong: executionSuccessful true, no input errors, errors=0" clean
