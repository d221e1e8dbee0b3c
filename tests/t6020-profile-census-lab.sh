#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The census in small (tests/census-profiles.py; the full one, 150 packages, is run by hand, see its header):
# real bookworm packages, linted with debian-bookworm's default profile, against systemd-analyze verify
# --root=R default.target inside the bookworm lab tree, R holding the packages with ifupdown, their units enabled
# as their postinsts enable them. Every cycle of one side must be one of the other's: fcoe-utils with lldpad
# (its Recommends) cycles on both, the others on neither; kdump-tools (After=networking.service,
# Before=basic.target) installed with firewalld (Before=network-pre.target) cycles on both.
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

together() {
        python3 "$top_srcdir/tests/census-profiles.py" --bootrace "$BOOTRACE" --out "$TMP/together.tsv" \
                --only kdump-tools firewalld --together > "$TMP/together.out" 2>&1 ||
                { cat "$TMP/together.out"; return 1; }
        awk -F'\t' '$1 == "kdump-tools firewalld" && $3 ~ /kdump-tools.service/ && $3 ~ /networking.service/ &&
                    $3 ~ /firewalld.service/ && $5 == "agree" { ok = 1 } END { exit !ok }' "$TMP/together.tsv" ||
                { cat "$TMP/together.out"; return 1; }
}

test_expect "bootrace's cycles are systemd's, with the default profile (4 real packages)" census
test_expect "kdump-tools and firewalld together, with ifupdown: the same cycle on both sides" together
