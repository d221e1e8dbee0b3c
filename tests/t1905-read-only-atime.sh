#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Reading a tree leaves even its access times alone: graph, lint and show over a root whose files were last
# read long ago (relatime would update the access time of each file read, an inode written per unit) open them
# with O_NOATIME. The access times are taken with find -printf, which reads no file.
. "$(dirname "$0")/lib.sh"

root=$TMP/root
sys=$root/etc/systemd/system
vendor=$root/usr/lib/systemd/system
mkdir -p "$sys/a.service.d" "$sys/multi-user.target.wants" "$vendor"
printf '[Unit]\nAfter=b.service\nRequiresMountsFor=/srv/data\n[Service]\nExecStart=/bin/a\nPrivateTmp=yes\n' \
        > "$vendor/a.service"
printf '[Unit]\nDescription=b\n[Service]\nExecStart=/bin/b\n' > "$vendor/b.service"
printf '[Unit]\nWants=b.service\n' > "$sys/a.service.d/10-wants.conf"
printf '[Mount]\nWhat=/dev/vdb\nWhere=/srv/data\n' > "$vendor/srv-data.mount"
printf '[Unit]\nDescription=multi-user\n' > "$vendor/multi-user.target"
ln -s ../../../../usr/lib/systemd/system/a.service "$sys/multi-user.target.wants/a.service"
# last read in 2001, changed since: the next read would set the access time
find "$root" -type f -exec touch -a -d @978307200 {} +
find "$root" -type f -printf '%A@ %p\n' | LC_ALL=C sort > "$TMP/atime.before"
test_expect "the files were last read in 2001" grep -q '^978307200' "$TMP/atime.before"

test_expect "graph reads the tree" sh -c '"$BOOTRACE" graph --systemd=257 --root="$1" > "$2"' _ "$root" "$TMP/graph"
test_expect "graph saw the drop-in" grep -q 'a.service	Wants	b.service' "$TMP/graph"
"$BOOTRACE" lint --systemd=257 --root="$root" > /dev/null 2>&1
"$BOOTRACE" show --systemd=257 --root="$root" a.service > "$TMP/show" 2>&1
test_expect "show read the unit" grep -q 'ExecStart=/bin/a' "$TMP/show"

find "$root" -type f -printf '%A@ %p\n' | LC_ALL=C sort > "$TMP/atime.after"
test_expect "no access time changed" test_cmp "$TMP/atime.before" "$TMP/atime.after"
