#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# PrivateTmp= and its implicit dependencies against real systemd 247, 252, 257 and 262 (the lab trees): yes and
# disconnected, with and without default dependencies, with the unit's own /tmp or /var requirement
# (RequiresMountsFor=, After=tmp.mount, After=/Wants=var.mount), a root of its own, DynamicUser=. Each unit is
# verified after basic.target, which references tmp.mount (so PID 1 has that unit, as in a boot), and its
# dependencies must equal those `bootrace graph --offline` gives. 262 has v260's disconnected /tmp for
# PrivateTmp=yes without default dependencies and v258's /var requirement of disconnected units.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
. "$(dirname "$0")/graph-oracle-lib.sh"
lab_require bullseye bookworm trixie forky

U=$TMP/units
mkdir -p "$U"
unit() {
        local name=$1; shift
        { echo "[Unit]"; for l in "$@"; do case $l in Service:*) ;; *) echo "$l" ;; esac; done
          echo "[Service]"; echo "Type=oneshot"; echo "ExecStart=/bin/true"
          for l in "$@"; do case $l in Service:*) echo "${l#Service:}" ;; esac; done; } > "$U/$name"
}
unit ptmp-dd-no.service DefaultDependencies=no Service:PrivateTmp=yes
unit ptmp-dd-yes.service Service:PrivateTmp=yes
unit ptmp-rmf-tmp.service DefaultDependencies=no "RequiresMountsFor=/var/tmp /tmp" Service:PrivateTmp=yes
unit ptmp-wmf-tmp.service DefaultDependencies=no "WantsMountsFor=/srv /tmp/" Service:PrivateTmp=yes
unit ptmp-after-tmp.service DefaultDependencies=no "After=network.target tmp.mount" Service:PrivateTmp=yes
unit ptmp-rootdir.service DefaultDependencies=no Service:PrivateTmp=yes Service:RootDirectory=/srv
unit pdisc-dd-yes.service Service:PrivateTmp=disconnected
unit pdisc-dd-no.service DefaultDependencies=no Service:PrivateTmp=disconnected
unit pdisc-rmf-var.service DefaultDependencies=no "RequiresMountsFor=/srv /var" Service:PrivateTmp=disconnected
unit pdisc-after-wants-var.service DefaultDependencies=no "After=var.mount" "Wants=var.mount" \
        Service:PrivateTmp=disconnected
unit pdisc-after-var.service DefaultDependencies=no "After=var.mount" Service:PrivateTmp=disconnected
unit pdisc-rootdir.service Service:PrivateTmp=disconnected Service:RootDirectory=/srv
unit dynuser-dd-no.service DefaultDependencies=no Service:DynamicUser=yes
unit dynuser-dd-yes.service Service:DynamicUser=yes
names=$(cd "$U" && ls)

check_suite() {
        local suite=$1 ver w=$TMP/$1
        mkdir -p "$w"
        ver=$(oracle_version "$suite")
        # shellcheck disable=SC2046,SC2086
        "$LAB/lab-oracle.sh" -q "$suite" basic.target $(printf "$U/%s " $names) > "$w/dump" 2> /dev/null || true
        grep -q '^	-> Unit ptmp-dd-no.service' "$w/dump" || { echo "verify dumped nothing"; return 1; }
        graph_oracle_dump2tsv < "$w/dump" | grep -E '^(ptmp|pdisc|dynuser)-' > "$w/sd.tsv"
        # shellcheck disable=SC2046,SC2086
        bootrace graph --offline --systemd="$ver" --root="$LAB_SRV/$suite" basic.target $(printf "$U/%s " $names) \
                > "$w/br.out" 2> "$w/br.err" || { cat "$w/br.err"; return 1; }
        graph_oracle_br2tsv < "$w/br.out" | grep -E '^(ptmp|pdisc|dynuser)-' > "$w/br.tsv"
        graph_oracle_compare "$w/sd.tsv" "$w/br.tsv" > "$w/cmp" || return 1
        grep -q '^agree' "$w/cmp" || { echo "nothing compared"; return 1; }
        echo "# $suite (systemd $ver): $(awk -F'\t' '$1 == "agree" { a += $3; t += $4 } END { print a " / " t }' \
                "$w/cmp") edges of $(echo "$names" | wc -w) units agree"
        if grep -q '^only-' "$w/cmp"; then
                grep '^only-' "$w/cmp" | sed 's/^/#   /'
                return 1
        fi
}

for suite in bullseye bookworm trixie forky; do
        test_expect "$suite ($(oracle_version "$suite")): PrivateTmp= variants depend on what systemd says" \
                check_suite "$suite"
        sed -n '/^# /p' "$TMP/.out" 2> /dev/null || true
done
