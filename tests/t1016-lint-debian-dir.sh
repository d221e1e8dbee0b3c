#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# lint of a source package's debian/ directory and its files, read as debhelper installs them (issue 20, item 12:
# debian/PKG.NAME.service is NAME.service, debian/service the main package's), and of a unit on standard input.
. "$(dirname "$0")/lib.sh"

S=$TMP/src
mkdir -p "$S/debian"
printf 'Source: ovt\n\nPackage: open-vm-tools\nArchitecture: any\n\nPackage: open-vm-tools-desktop\nArchitecture: any\n' \
        > "$S/debian/control"
cp "$FIXTURES/examples/open-vm-tools.service" "$S/debian/open-vm-tools.vmtoolsd.service"
cp "$FIXTURES/examples/open-vm-tools.service" "$S/debian/service"
touch "$S/debian/changelog" "$S/debian/rules"
run() { ( cd "$S" && "$BOOTRACE" lint --systemd=229 --no-color "$@" ) > "$TMP/out" 2> "$TMP/err"; echo $? > "$TMP/rc"; }
has() { grep -qF -- "$2" "$TMP/$1" || { echo "$1 lacks: $2"; cat "$TMP/out" "$TMP/err"; return 1; }; }

run debian
test_expect "debian/: exit 1 (the races)" sh -c '[ "$(cat "$TMP/rc")" = 1 ]'
test_expect "debian/PKG.NAME.service: judged as NAME.service" has out "debian/open-vm-tools.vmtoolsd.service:14: error: [private-tmp-before-remount] PrivateTmp=true needs /var/tmp writable, but for systemd 229 nothing orders vmtoolsd.service"
test_expect "debian/service: the main package's" has out "debian/service:14: error: [private-tmp-before-remount] PrivateTmp=true needs /var/tmp writable, but for systemd 229 nothing orders open-vm-tools.service"
test_expect "the renaming is said" has err "read as vmtoolsd.service (what dh_installsystemd --name=vmtoolsd installs)"
run debian/open-vm-tools.vmtoolsd.service
test_expect "one renamed file: judged as NAME.service" has out "nothing orders vmtoolsd.service"
( cd "$S" && "$BOOTRACE" lint --systemd=229 --format=json debian ) > "$TMP/json" 2> /dev/null
test_expect "JSON: the package is kind debian" sh -c 'jq -e ".packages[0].kind == \"debian\" and .packages[0].package == \"open-vm-tools\"" "$0" > /dev/null' "$TMP/json"

# standard input
( cd "$S" && cat debian/service | "$BOOTRACE" lint --systemd=229 --no-color --stdin-name=vm.service - ) > "$TMP/out" 2> "$TMP/err"
test_expect "- : a unit from a pipe, named by --stdin-name, shown as <stdin>" has out "<stdin>:14: error: [private-tmp-before-remount] PrivateTmp=true needs /var/tmp writable, but for systemd 229 nothing orders vm.service"
rc=0; "$BOOTRACE" lint --systemd=229 - < /dev/null > "$TMP/out" 2> "$TMP/err" || rc=$?
test_expect "- : empty input is exit 2 with a message" sh -c '[ "$0" = 2 ] && grep -q "<stdin>: error: empty" "$1"' "$rc" "$TMP/err"
rc=0; "$BOOTRACE" lint --stdin-name=nounit - < /dev/null > "$TMP/out" 2> "$TMP/err" || rc=$?
test_expect "--stdin-name not a unit name: exit 2 with a message" sh -c '[ "$0" = 2 ] && grep -q "stdin-name=nounit: not a unit file name" "$1"' "$rc" "$TMP/err"
