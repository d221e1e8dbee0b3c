#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# "Did you mean" for a mistyped verb, option, check id, suppression check id and unit name in stats -u (the
# journal's units; issue 20, item 7); nothing is suggested when nothing is close.
. "$(dirname "$0")/lib.sh"

units=$FIXTURES/lint/lp1750780-ubuntu-xenial/units

# err_rc WANT TEXT CMD...: CMD exits WANT and its stderr has TEXT
err_rc() {
        local want=$1 text=$2 rc=0; shift 2
        "$@" > /dev/null 2> "$TMP/err" || rc=$?
        [ $rc = "$want" ] || { echo "exit status $rc, expected $want"; cat "$TMP/err"; return 1; }
        grep -qF -- "$text" "$TMP/err" || { echo "stderr lacks: $text"; cat "$TMP/err"; return 1; }
}

test_expect "verb lnit: did you mean 'lint'" err_rc 2 "did you mean 'lint'?" bootrace lnit x.service
test_expect "verb frobnicate: no suggestion" sh -c '"$BOOTRACE" frobnicate 2> "$TMP/err"; ! grep -q "did you mean" "$TMP/err"'
test_expect "option --targt=X: did you mean --target" err_rc 2 "did you mean --target?" \
        bootrace lint --targt=ubuntu-xenial "$units"
test_expect "option --suppresions FILE: did you mean --suppressions" err_rc 2 "did you mean --suppressions?" \
        bootrace lint --suppresions "$TMP/x" "$units"
test_expect "explain private-tmp-befor-remount: did you mean the check" \
        err_rc 2 'did you mean "private-tmp-before-remount"?' bootrace explain private-tmp-befor-remount
printf 'open-vm-tools.service: privat-tmp-before-remount  # typo\n' > "$TMP/supp"
test_expect "a suppression file's mistyped check: a warning with the check meant" \
        err_rc 1 '1: unknown check "privat-tmp-before-remount" (did you mean "private-tmp-before-remount"?)' \
        bootrace lint --target=ubuntu-xenial --suppressions="$TMP/supp" "$units"
printf 'open-vm-tools.service: private-tmp-before-remount  # known, accepted\n' > "$TMP/supp2"
test_expect "a known suppression: no warning about it" sh -c '
        rc=0; "$BOOTRACE" lint --target=ubuntu-xenial --suppressions="$0" "$1" > /dev/null 2> "$TMP/err" || rc=$?
        [ $rc -le 1 ] && ! grep -q "unknown check" "$TMP/err"' "$TMP/supp2" "$units"

# stats -u: a unit the journal has no record of, next to one it has (bookworm-ro: racy-ptmp.service)
. "$(dirname "$0")/stats-lib.sh"
if [ -n "$JOURNAL_REMOTE" ] && [ -f "$SHARED/data/bookworm-ro.export.xz" ] && command -v xzcat > /dev/null; then
        test_expect "stats: the journal of bookworm-ro imported" import_export bookworm-ro
        test_expect "stats -u racy-ptmpp: did you mean racy-ptmp.service" sh -c '
                "$0" stats --file "$1" -u racy-ptmpp > /dev/null 2> "$TMP/err"; [ $? -le 1 ] || exit 1
                grep -qF "no record of racy-ptmpp.service in the journal; did you mean racy-ptmp.service?" "$TMP/err" ||
                        { cat "$TMP/err"; exit 1; }' "$BOOTRACE" "$TMP/bookworm-ro.journal"
        test_expect "stats -u racy-ptmp.service (in the journal): no suggestion" sh -c '
                "$0" stats --file "$1" -u racy-ptmp.service > /dev/null 2> "$TMP/err"; [ $? -le 1 ] || exit 1
                ! grep -q "did you mean" "$TMP/err"' "$BOOTRACE" "$TMP/bookworm-ro.journal"
        test_expect "stats -u zzqx-nothing-alike: no suggestion" sh -c '
                "$0" stats --file "$1" -u zzqx-nothing-alike > /dev/null 2> "$TMP/err"; [ $? -le 1 ] || exit 1
                ! grep -q "did you mean" "$TMP/err"' "$BOOTRACE" "$TMP/bookworm-ro.journal"
elif [ "${CI:-}" = true ]; then
        echo "Bail out! systemd-journal-remote, xzcat or \$SHARED/data missing in CI"; exit 1
else
        test_skip "stats -u: did you mean" "no systemd-journal-remote, xzcat or \$SHARED/data/bookworm-ro.export.xz"
fi
