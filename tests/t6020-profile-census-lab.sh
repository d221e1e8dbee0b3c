#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The census in small (tests/census-profiles.py; the full one, 150 packages, is run by hand, see its header):
# real bookworm packages, linted with debian-bookworm's default profile, against systemd-analyze verify
# --root=R default.target inside the bookworm lab tree, R holding the packages with ifupdown, their units enabled
# as their postinsts enable them. Every cycle of one side must be one of the other's: fcoe-utils with lldpad
# (its Recommends) cycles on both, the others on neither.
. "$(dirname "$0")/lib.sh"
lab_require bookworm
export LAB_SRV=${LAB_SRV:-/srv/lab}
for t in python3 dpkg-deb apt-get unshare; do
        if ! command -v $t > /dev/null; then
                [ "${CI:-}" = true ] && { echo "Bail out! $t missing in CI"; exit 1; }
                skip_all "$t not installed"
        fi
done
if [ "${CI:-}" != true ] &&
   ! "$top_srcdir/rules/profile-src/deb-fetch.sh" bookworm ifupdown fcoe-utils lldpad firewalld open-iscsi \
        > /dev/null 2>&1; then
        skip_all "apt-get download from the Debian archive failed"
fi

census() {
        python3 "$top_srcdir/tests/census-profiles.py" --bootrace "$BOOTRACE" --out "$TMP/census.tsv" \
                --only fcoe-utils lldpad firewalld open-iscsi > "$TMP/census.out" 2>&1 ||
                { cat "$TMP/census.out"; return 1; }
        cat "$TMP/census.out"
        # fcoe-utils: one cycle, the same on both sides; the others: none
        awk -F'\t' '$1 == "fcoe-utils" && $3 == "fcoe-utils.service,lldpad.service,network.target" &&
                    $3 == $4 && $5 == "agree" { ok = 1 } END { exit !ok }' "$TMP/census.tsv" &&
                [ "$(grep -c $'\tagree$' "$TMP/census.tsv")" = 4 ]
}

test_expect "bootrace's cycles are systemd's, with the default profile (4 real packages)" census
