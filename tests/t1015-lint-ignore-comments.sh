#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# "# bootrace: ignore CHECK -- reason" comments in a unit's files (issue 20, item 7): honoured wherever the file
# is read from (a directory, an unpacked package tree and a .deb alike: the loader reads them with the file), and
# a comment that suppresses nothing is a bad-suppression finding at its file:line, with the check id meant.
. "$(dirname "$0")/lib.sh"

# the xenial race of open-vm-tools (PrivateTmp= before the remount), with a comment of the test's own on line 1
unit() { # unit DIR COMMENT
        mkdir -p "$1" && { printf '%s\n' "$2"; cat "$FIXTURES/examples/open-vm-tools.service"; } > "$1/open-vm-tools.service"
}
mkdir "$TMP/out"
lint() { # lint OUT ARGS...: stdout, stderr and the exit status in $TMP/out/OUT{,.err,.rc}
        local out=$TMP/out/$1 rc=0; shift
        "$BOOTRACE" lint --systemd=229 --no-color "$@" > "$out" 2> "$out.err" || rc=$?
        echo $rc > "$out.rc"
}
has() { grep -qF -- "$2" "$TMP/out/$1" || { echo "$1 lacks: $2"; cat "$TMP/out/$1"; return 1; }; }
hasnt() { ! grep -qF -- "$2" "$TMP/out/$1" || { echo "$1 has: $2"; cat "$TMP/out/$1"; return 1; }; }
rc_is() {
        [ "$(cat "$TMP/out/$1.rc")" = "$2" ] ||
                { echo "$1: exit $(cat "$TMP/out/$1.rc"), expected $2"; cat "$TMP/out/$1.err"; return 1; }
}

unit "$TMP/plain" ''
lint plain "$TMP/plain"
test_expect "without a comment: the race is an error (exit 1)" rc_is plain 1
test_expect "without a comment: private-tmp-before-remount" has plain "[private-tmp-before-remount]"

unit "$TMP/all" '# bootrace: ignore all -- reviewed'
lint all "$TMP/all"
test_expect "ignore all: exit 0" rc_is all 0
test_expect "ignore all: the finding counted as suppressed" has all "(1 suppressed)"

unit "$TMP/named" '; bootrace: ignore invalid-value, private-tmp-before-remount -- reviewed'
lint named "$TMP/named"
test_expect "';' comment naming the check among others: suppressed" has named "(1 suppressed)"
test_expect "';' comment naming the check among others: exit 0" rc_is named 0

unit "$TMP/typo" '# bootrace: ignore private-tmp-befor-remount -- reviewed'
lint typo "$TMP/typo"
test_expect "a mistyped id: the race is still an error" rc_is typo 1
test_expect "a mistyped id: the race is reported" has typo "open-vm-tools.service:15: error: [private-tmp-before-remount]"
test_expect "a mistyped id: bad-suppression at the comment's line" \
        has typo "$TMP/typo/open-vm-tools.service:1: warning: [bad-suppression] unknown check \"private-tmp-befor-remount\""
test_expect "a mistyped id: the id meant" has typo '(did you mean "private-tmp-before-remount"?)'
lint typo.json --format=json "$TMP/typo"
test_expect "a mistyped id: a JSON finding with its line" sh -c '
        jq -e "[.findings[] | select(.check == \"bad-suppression\" and .line == 1)] | length == 1" "$0" > /dev/null' \
        "$TMP/out/typo.json"

unit "$TMP/far" '# bootrace: ignore frobnicate-the-unit'
lint far "$TMP/far"
test_expect "an id close to none: no suggestion" hasnt far "did you mean"
test_expect "an id close to none: still bad-suppression" has far "[bad-suppression] unknown check \"frobnicate-the-unit\""

unit "$TMP/none" '# bootrace: ignore -- no ids'
lint none "$TMP/none"
test_expect "a comment naming no check: bad-suppression" has none "1: warning: [bad-suppression] \"bootrace: ignore\" names no check"
test_expect "a comment naming no check: nothing suppressed" has none "(0 suppressed)"

unit "$TMP/other" '# bootrace: ignored all'
lint other "$TMP/other"
test_expect "'ignored' is another word: nothing suppressed" has other "(0 suppressed)"
test_expect "'ignored' is another word: no bad-suppression" hasnt other "bad-suppression"

# a drop-in's comment counts for the unit
unit "$TMP/dropin" ''
mkdir -p "$TMP/dropin/open-vm-tools.service.d"
printf '# bootrace: ignore private-tmp-before-remount -- the drop-in says so\n[Unit]\nDescription=x\n' \
        > "$TMP/dropin/open-vm-tools.service.d/review.conf"
lint dropin "$TMP/dropin"
test_expect "a drop-in's comment: suppressed" has dropin "(1 suppressed)"

# packages: the comment is read from the package itself (it once was looked for on the disk, at "x.deb:path")
if command -v dpkg-deb > /dev/null; then
        P=$TMP/pkg
        mkdir -p "$P/DEBIAN" && unit "$P/lib/systemd/system" '# bootrace: ignore all -- reviewed' &&
                printf 'Package: ovt\nVersion: 1\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: x\n x\n' \
                        > "$P/DEBIAN/control"
        ( cd "$TMP" && dpkg-deb --root-owner-group --build pkg ovt.deb ) > /dev/null 2>&1
        lint deb "$TMP/ovt.deb"
        test_expect "in a .deb: suppressed" has deb "(1 suppressed)"
        test_expect "in a .deb: exit 0" rc_is deb 0
        lint tree "$P"
        test_expect "in the unpacked tree: suppressed" has tree "(1 suppressed)"
        sed -i '1s/.*/# bootrace: ignore privat-tmp-before-remount/' "$P/lib/systemd/system/open-vm-tools.service"
        ( cd "$TMP" && dpkg-deb --root-owner-group --build pkg ovt2.deb ) > /dev/null 2>&1
        lint deb2 "$TMP/ovt2.deb"
        test_expect "in a .deb, a mistyped id: bad-suppression at PACKAGE:PATH:LINE" \
                has deb2 "$TMP/ovt2.deb:lib/systemd/system/open-vm-tools.service:1: warning: [bad-suppression]"
else
        [ "${CI:-}" = true ] && { echo "Bail out! dpkg-deb missing in CI"; exit 1; }
        test_skip "comments in a .deb" "dpkg-deb not installed"
fi
