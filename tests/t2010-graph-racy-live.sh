#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# racy-ptmp.service (DefaultDependencies=no, PrivateTmp=yes) as the live PID 1 of booted Debian containers saw it
# ($SHARED/data/implicit-deps.txt: systemd-analyze dump of 247, 252 and 257), against bootrace with no tree at all:
# only the unit file and the base model of that version. A live PID 1 differs from the offline oracle: its default
# output is the journal (After=systemd-journald.socket) and nspawn mounts a tmpfs on /tmp (--mounted=/tmp), which
# on 247 gives After=tmp.mount from the mount table (no unit file: no Requires=).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/graph-oracle-lib.sh"
data=$SHARED/data
[ -f "$data/implicit-deps.txt" ] || skip_all "no $data/implicit-deps.txt"

live_case() {
        local suite=$1 ver=$2
        # the dump's section for this suite, in the layout of a verify dump
        awk -v s="$suite" '/^== / { on = ($2 == s ":") ; if (on) print "\t-> Unit racy-ptmp.service:"; next }
                on { print "\t" $0 }' "$data/implicit-deps.txt" | graph_oracle_dump2tsv > "$TMP/sd.tsv"
        [ -s "$TMP/sd.tsv" ] || { echo "no $suite section"; return 1; }
        # the live system is that Debian release: its packaging (no tmp.mount up to bookworm), not upstream's
        bootrace graph --target="debian-$suite" --systemd="$ver" --mounted=/tmp "$data/units/racy-ptmp.service" > "$TMP/br.out" ||
                return 1
        graph_oracle_br2tsv < "$TMP/br.out" > "$TMP/br.tsv"
        graph_oracle_compare "$TMP/sd.tsv" "$TMP/br.tsv" > "$TMP/cmp" || return 1
        cat "$TMP/cmp"
        grep -q '^agree' "$TMP/cmp" && ! grep -q '^only-' "$TMP/cmp"
}

for s in bullseye:247 bookworm:252 trixie:257; do
        test_expect "racy-ptmp.service on ${s%:*} (${s#*:}): bootrace without a tree equals the live PID 1" \
                live_case "${s%:*}" "${s#*:}"
done

# the same unit on xenial (229): only RequiresMountsFor=/tmp /var/tmp, nothing orders it after the remount; on
# bionic (237) After=systemd-tmpfiles-setup.service closes the race (knowledge/implicit-deps.md §3, §8)
ordered_after_tmpfiles() {
        bootrace graph --target="$1" "$data/units/racy-ptmp.service" > "$TMP/out" || return 1
        grep -q "	After	systemd-tmpfiles-setup.service	" "$TMP/out"
}
test_expect_fail "xenial (229): racy-ptmp is not ordered after systemd-tmpfiles-setup" ordered_after_tmpfiles xenial
test_expect "bionic (237): racy-ptmp is ordered after systemd-tmpfiles-setup" ordered_after_tmpfiles bionic
