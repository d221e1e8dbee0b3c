#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The exec-time write model against real boots, made once with the lab and committed with their truth
# (fixtures/exec-writes/, see its README; nothing is booted here). For every boot set SUITE.truth.tsv:
# - PrivateDevices=yes in an early unit (racy-pdev) failed in every boot exactly where bootrace lint, for the
#   tree's systemd (fixtures/exec-writes/sets), reports exec-write-before-writable for it, and bootrace's repair
#   (racy-pdev-remount, its After=systemd-remount-fs.service) never failed;
# - with D /tmp and an x exclusion in the boot's tmpfiles.d, a file written after the remount but before
#   systemd-tmpfiles-setup.service was removed in every boot; the x-excluded one exactly on the versions
#   before the model's tmpfiles-honours-exclusions feature; one written after tmpfiles-setup (the repair) never.
# A set whose systemd is newer than the newest modelled version is skipped, saying so.
. "$(dirname "$0")/lib.sh"

dir=$FIXTURES/exec-writes
since=$(sed -n 's/.*<feature name="tmpfiles-honours-exclusions" since="\([0-9]*\)".*/\1/p' \
        "$BOOTRACE_RULES_DIR/features.xml")
[ -n "$since" ] || { echo "Bail out! no tmpfiles-honours-exclusions feature"; exit 1; }
newest=$(lab_model_newest)
[ -n "$newest" ] || { echo "Bail out! bootrace --version names no modelled range"; exit 1; }

# failed UNIT FILE: "F/N" of the truth summary
failed() {
        sed -n "s|^# $1\\.service failed in \\([0-9]*\\) of \\([0-9]*\\) boots.*|\\1/\\2|p" "$2"
}
all() { local fn; fn=$(failed "$1" "$2"); [ -n "$fn" ] && [ "${fn%/*}" = "${fn#*/}" ] && [ "${fn#*/}" -gt 0 ]; }
none() { local fn; fn=$(failed "$1" "$2"); [ -n "$fn" ] && [ "${fn%/*}" = 0 ] && [ "${fn#*/}" -gt 0 ]; }

for truth in "$dir"/*.truth.tsv; do
        set=$(basename "$truth" .truth.tsv)
        v=$(awk -v s="$set" '$1 == s { print $2 }' "$dir/sets")
        [ -n "$v" ] || { echo "Bail out! $set is not in $dir/sets"; exit 1; }
        if [ "$v" -gt "$newest" ]; then
                test_skip "$set: every test of the set" "beyond the model: systemd $v, newer than $newest"
                continue
        fi
        rc=0
        "$BOOTRACE" lint -q --systemd="$v" --format=json "$dir/units/racy-pdev.service" > "$TMP/pdev.json" || rc=$?
        [ $rc -le 1 ] || { echo "Bail out! lint --systemd=$v exited $rc"; exit 1; }
        if jq -e '.findings | map(.check) | index("exec-write-before-writable") != null' < "$TMP/pdev.json" > /dev/null
        then
                test_expect "$set (systemd $v): racy-pdev flagged, and it failed in every boot" all racy-pdev "$truth"
        else
                test_expect "$set (systemd $v): racy-pdev not flagged, and it never failed" none racy-pdev "$truth"
        fi
        test_expect "$set: bootrace's repair is clean in lint" \
                bootrace lint -q --systemd="$v" "$dir/units/racy-pdev-remount.service"
        test_expect "$set: bootrace's repair never failed" none racy-pdev-remount "$truth"
        test_expect "$set: written after the remount, removed by D /tmp in every boot" \
                all racy-tmpwipe-remount-check "$truth"
        if [ "$v" -lt "$since" ]; then
                test_expect "$set: systemd $v < $since: rm_rf() ignored the x exclusion in every boot" \
                        all racy-tmpwipe-x-check "$truth"
        else
                test_expect "$set: systemd $v >= $since: the x exclusion kept the file in every boot" \
                        none racy-tmpwipe-x-check "$truth"
        fi
        test_expect "$set: after systemd-tmpfiles-setup.service it stayed in every boot" \
                none racy-tmpwipe-tmpfiles-check "$truth"
        test_expect "$set: the export is a journal (its boots are there)" sh -c '
                xzcat "$0" | grep -a -c "^_BOOT_ID=" | grep -qv "^0$"' "$dir/$set.export.xz"
done
