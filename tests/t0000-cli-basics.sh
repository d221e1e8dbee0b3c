#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command line: --help, --version, unknown verbs and options, exit status 2 for usage errors.
. "$(dirname "$0")/lib.sh"

# the verbs as the table in the source names them: a verb added there and left out of --help fails here
verbs=$(sed -n 's/^ *{ "\([a-z][a-z-]*\)", verb_[a-z_]*,.*/\1/p' "$top_srcdir/analyzer/verb-table.c")
test_expect "the verb table is read from the source" test -n "$verbs"
"$BOOTRACE" --help > "$TMP/help" 2> "$TMP/help.err"
echo $? > "$TMP/help.rc"
test_expect "--help exits 0 and prints nothing on stderr" sh -c '[ "$(cat "$1.rc")" = 0 ] && ! [ -s "$1.err" ]' - \
        "$TMP/help"
for v in $verbs; do
        test_expect "--help lists $v" grep -q "^  $v " "$TMP/help"
        test_expect "$v --help exits 0 with its usage" sh -c '"$BOOTRACE" "$1" --help | grep -q "^Usage: bootrace $1 "' \
                - "$v"
done
test_expect "--help lists nothing that is not a verb" sh -c '
        listed=$(sed -n "/^Verbs:/,/^\$/s/^  \([a-z][a-z-]*\) .*/\1/p" "$1")
        [ -n "$listed" ] || { echo "no verb list found in --help"; exit 1; }
        for v in $listed; do echo " $2 " | grep -q " $v " || { echo "not a verb: $v"; exit 1; }; done' - \
        "$TMP/help" "$(echo $verbs) help"
test_expect "--version prints the version" sh -c '"$BOOTRACE" --version | grep -q "^bootrace [0-9]"'
test_expect "-V is --version" bash -c 'cmp <("$BOOTRACE" -V) <("$BOOTRACE" --version)'
# rules that cannot be read: --version says so, names the file and line on stderr, and exits 2
version_bad_rules() {
        mkdir -p "$TMP/badrules" && cp -r "$top_srcdir"/rules/* "$TMP/badrules/" || return 1
        echo '<broken' > "$TMP/badrules/targets.xml"
        BOOTRACE_RULES_DIR=$TMP/badrules expect_error 2 "targets.xml:[0-9]+: error:" "$BOOTRACE" --version || return 1
        grep -q "^models no systemd version: the rules in $TMP/badrules cannot be read" "$TMP/expect-error.out"
}
test_expect "--version with rules that cannot be read: the file and line on stderr, exit 2" version_bad_rules
test_expect "help is --help" bash -c 'cmp <("$BOOTRACE" help) "$1"' - "$TMP/help"
test_expect "help VERB is VERB --help" bash -c 'cmp <("$BOOTRACE" help stats) <("$BOOTRACE" stats --help)'
# usage_error TEXT CMD...: CMD exits 2, says TEXT on stderr and prints nothing on stdout
usage_error() {
        local text=$1 rc=0; shift
        "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ "$rc" = 2 ] || { echo "exit status $rc, expected 2: $*"; return 1; }
        grep -q -F -- "$text" "$TMP/err" || { echo "stderr does not say '$text':"; cat "$TMP/err"; return 1; }
        ! [ -s "$TMP/out" ] || { echo "stdout is not empty:"; cat "$TMP/out"; return 1; }
}
test_expect "no verb is a usage error" usage_error "no verb given" bootrace
test_expect "unknown verb is a usage error naming it" usage_error "'frobnicate'" bootrace frobnicate
test_expect "help with an unknown verb is a usage error naming the closest" usage_error "did you mean 'lint'" bootrace help lnit
test_expect "unknown option is a usage error naming it" usage_error "--frob" bootrace show --frob
test_expect "bad --systemd value is a usage error naming it" usage_error "--systemd=abc" \
        bootrace show --systemd=abc x.service
test_expect "bad --format value is a usage error naming it" usage_error "--format=yaml" \
        bootrace show --format=yaml x.service
test_expect "verb --help exits 0" bootrace show --help
# a global option after the verb counts as before it, also for drift (whose root was read before its options once)
test_expect "drift --root=MISSING after the verb: the root is named, before any bus" usage_error \
        "drift: --root=$TMP/no-such-root" bootrace drift --root="$TMP/no-such-root"
test_expect "... and before the verb" usage_error "drift: --root=$TMP/no-such-root" \
        bootrace --root "$TMP/no-such-root" drift
if [ -f "$(dirname "$BOOTRACE_BIN")/rules/targets.xml" ]; then
        test_expect "an uninstalled bootrace finds the rules beside it" \
                env -u BOOTRACE_RULES_DIR "$BOOTRACE" explain private-tmp-before-remount
else
        test_skip "an uninstalled bootrace finds the rules beside it" "built outside the source tree"
fi
