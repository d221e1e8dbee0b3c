#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# graph of a unit nobody can load is an error, not an empty graph with exit 0 (issue 20, item 4).
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/root/etc/systemd/system"
printf '[Unit]\nDescription=here\n\n[Service]\nExecStart=/bin/true\n' > "$TMP/root/etc/systemd/system/here.service"
ROOT=$TMP/root

# graph_rc WANT ARGS...: graph must exit WANT; stdout in $TMP/out, stderr in $TMP/err
graph_rc() {
        local want=$1 rc=0; shift
        "$BOOTRACE" graph "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ $rc = "$want" ] || { echo "exit status $rc, expected $want"; cat "$TMP/out" "$TMP/err"; return 1; }
}
err_has() { grep -q -- "$1" "$TMP/err" || { echo "stderr lacks: $1"; cat "$TMP/err"; return 1; }; }
out_has() { grep -q -- "$1" "$TMP/out" || { echo "stdout lacks: $1"; cat "$TMP/out"; return 1; }; }

base_model() { graph_rc 2 --target=debian-bookworm nosuch.service && err_has "nosuch.service: not-found"; }
in_root() {
        graph_rc 2 --root="$ROOT" --systemd=252 nosuch.service &&
                err_has "nosuch.service: not-found (no unit file for it in the root)"
}
json() { graph_rc 2 --format=json --target=debian-bookworm nosuch.service && err_has "nosuch.service: not-found"; }
mixed() {
        graph_rc 2 --root="$ROOT" --systemd=252 here.service nosuch.service && out_has "^here.service	" &&
                err_has "nosuch.service: not-found" && ! grep -q "here.service" "$TMP/err"
}
good() { graph_rc 0 --root="$ROOT" --systemd=252 here.service && out_has "^here.service	"; }
good_base() { graph_rc 0 --target=debian-bookworm sysinit.target && out_has "^sysinit.target	"; }

test_expect "graph nosuch.service (the base model): exit 2 naming it" base_model
test_expect "graph --root=DIR nosuch.service: exit 2 naming it" in_root
test_expect "graph --format=json nosuch.service: exit 2" json
test_expect "graph of a unit that loads beside one that does not: exit 2, the good one printed" mixed
test_expect "graph of a unit that loads: exit 0" good
test_expect "graph sysinit.target of the base model: exit 0" good_base
