#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace's model of systemd-fstab-generator against the real generator of each lab tree (247, 252, 257, 262),
# run in the tree (chroot, overlay, private mount namespace) on the same /etc/fstab: the same units and links, and
# in each unit the same settings (Documentation= and comments aside).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
# shellcheck disable=SC2086
lab_judged $LAB_SUITES
gen=$top_builddir/tests/unit/generate-fstab

# a listing of a generator directory: files and links (link targets by name), and each unit's settings
listing() {
        (cd "$1" && find . -mindepth 1 | sort | while read -r f; do
                if [ -L "$f" ]; then echo "link $f -> $(basename "$(readlink "$f")")"
                elif [ -d "$f" ]; then echo "dir $f"
                else echo "file $f"; grep -v -e '^#' -e '^$' -e '^Documentation=' "$f" | sort | sed "s|^|  $f: |"; fi
        done)
}

# both generators on the same view of the tree: the real one in a chroot, ours from the host with --root
run_both() {
        local suite=$1 fstab=$2 w=$3 v=$4
        mkdir -p "$w/fix/etc" "$w/real" "$w/ours"
        cp "$fstab" "$w/fix/etc/fstab"
        oracle_overlay "$suite" "$w/fix" "$w"
        oracle_in_ns "$w" sh -c 'm=$0 w=$1 gen=$2 v=$3
                mkdir -p "$m/tmp/gen/normal" "$m/tmp/gen/early" "$m/tmp/gen/late" &&
                env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin SYSTEMD_LOG_LEVEL=warning chroot "$m" \
                        /lib/systemd/system-generators/systemd-fstab-generator /tmp/gen/normal /tmp/gen/early \
                        /tmp/gen/late &&
                cp -a "$m/tmp/gen/normal/." "$w/real/" &&
                rm -rf "$m/tmp/gen" &&
                ${WRAPPER:-} "$gen" "$m" "$v" "$w/ours"' "$w/m" "$w" "$gen" "$v"
}

cat > "$TMP/fstab" <<'FSTAB'
# a root, a checked data disk, a nofail one, a noauto one, a network share, a swap partition, a bind mount
/dev/root   /            ext4   rw                 0 1
/dev/vdb1   /srv         ext4   defaults           0 2
/dev/vdb2   /data        xfs    nofail             0 0
/dev/vdb3   /backup      ext4   noauto,ro          0 2
server:/e   /mnt/share   nfs    _netdev,soft       0 0
/dev/vdb4   none         swap   sw                 0 0
/srv/www    /var/www     none   bind               0 0
FSTAB

for suite in $LAB_JUDGED; do
        v=$(oracle_version "$suite")
        w=$TMP/$suite
        test_expect "$suite ($v): both generators run on the same fstab" run_both "$suite" "$TMP/fstab" "$w" "$v"
        test_expect "$suite ($v): bootrace's generator writes the same units, links and settings" sh -c '
                diff -u "$1" "$2"' x <(listing "$w/real") <(listing "$w/ours")
done
