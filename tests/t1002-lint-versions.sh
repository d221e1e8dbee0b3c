#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Version truth (knowledge/implicit-deps.md §3, §8): the LP#1750780 reproducer - DefaultDependencies=no,
# PrivateTmp=yes, WantedBy=multi-user.target - races with the remount of / up to systemd 232 and is safe from 233,
# where PrivateTmp= units are ordered after systemd-tmpfiles-setup.service. Judged with the embedded base model
# of each modelled version, no root.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/pkg"
cat > "$TMP/pkg/repro.service" <<'UNIT'
[Unit]
Description=LP#1750780 reproducer
DefaultDependencies=no

[Service]
Type=oneshot
ExecStart=/bin/true
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
UNIT

for v in 219 229 232 233 237 241 245 247 249 252 255 257; do
        if [ "$v" -lt 233 ]; then
                test_expect "systemd $v: the reproducer is flagged" sh -c '
                        rc=0; "$BOOTRACE" lint -q --systemd="$0" --format=json "$1" > "$2" || rc=$?
                        [ $rc = 1 ] && grep -q "\"check\":\"private-tmp-before-remount\"" "$2"' \
                        "$v" "$TMP/pkg/repro.service" "$TMP/out-$v.json"
        else
                test_expect "systemd $v: the reproducer is clean" sh -c '
                        "$BOOTRACE" lint -q --systemd="$0" --format=json "$1" > "$2" &&
                        ! grep -q "private-tmp-before-remount" "$2"' \
                        "$v" "$TMP/pkg/repro.service" "$TMP/out-$v.json"
        fi
done
# the precise fix closes the race on the old versions too
sed 's/^DefaultDependencies=no$/DefaultDependencies=no\nAfter=systemd-remount-fs.service/' "$TMP/pkg/repro.service" \
        > "$TMP/fixed.service"
mkdir -p "$TMP/fixed" && mv "$TMP/fixed.service" "$TMP/fixed/repro.service"
for v in 219 229 232; do
        test_expect "systemd $v: After=systemd-remount-fs.service fixes it" \
                bootrace lint -q --systemd="$v" "$TMP/fixed/repro.service"
done
