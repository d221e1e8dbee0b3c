#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `bootrace fix --write`: the file is replaced atomically (a new inode renamed into place: a hard link to the old
# one keeps the old content), keeps its mode, comments and layout, leaves no temporary file, never follows a
# symlink, never touches anything but the file given or its drop-in (the whole tree is checksummed before and
# after), and leaves the original untouched when the write fails (a read-only directory).
. "$(dirname "$0")/lib.sh"

unit() {
        mkdir -p "$(dirname "$1")"
        cat > "$1" <<'UNIT'
# vendor comment: keep me
[Unit]
Description=an early unit  
# the ordering below is deliberate
DefaultDependencies=no
Wants=a.service \
      b.service

[Service]
ExecStart=/bin/true
    PrivateTmp=yes

[Install]
WantedBy=multi-user.target
UNIT
}

# snapshot DIR: every entry with its type, mode and checksum, except the paths given
snapshot() {
        local dir=$1; shift
        (cd "$dir" && find . -mindepth 1 | LC_ALL=C sort | while read -r p; do
                for x in "$@"; do [ "$p" = "./$x" ] && continue 2; done
                if [ -L "$p" ]; then echo "$p link $(readlink "$p")"
                elif [ -d "$p" ]; then echo "$p dir $(stat -c %a "$p")"
                else echo "$p file $(stat -c %a "$p") $(sha256sum < "$p")"; fi
        done)
}

setup_tree() {
        rm -rf "$TMP/w" && mkdir -p "$TMP/w/pkg/units" "$TMP/w/sibling" "$TMP/w/elsewhere"
        unit "$TMP/w/pkg/units/early.service"
        printf '[Unit]\nDescription=clean\n[Service]\nExecStart=/bin/true\n' > "$TMP/w/pkg/units/other.service"
        echo notes > "$TMP/w/pkg/units/README"
        echo data > "$TMP/w/sibling/file"
        echo top > "$TMP/w/parent-file"
        chmod 0640 "$TMP/w/pkg/units/early.service"
}

test_expect "--write: exit 1, '# wrote', one line added and every other byte kept" sh -c '
        '"$(declare -f unit setup_tree)"'
        TMP=$0; setup_tree
        cp "$TMP/w/pkg/units/early.service" "$TMP/orig"
        cd "$TMP/w/pkg" && rc=0 && "$1" fix --systemd=229 --write units/early.service > "$TMP/out" 2>&1 || rc=$?
        [ $rc = 1 ] && grep -qx "# wrote units/early.service" "$TMP/out" || { cat "$TMP/out"; exit 1; }
        diff "$TMP/orig" units/early.service > "$TMP/d" && exit 1
        [ "$(grep -c "^>" "$TMP/d")" = 1 ] && [ "$(grep -c "^<" "$TMP/d")" = 0 ] &&
                grep -qx "> After=systemd-remount-fs.service" "$TMP/d" || { cat "$TMP/d"; exit 1; }' \
        "$TMP" "$BOOTRACE"

test_expect "--write keeps the file mode (0640)" test "$(stat -c %a "$TMP/w/pkg/units/early.service")" = 640

test_expect "--write replaces the file by a rename: a hard link to the old one keeps the old content" sh -c '
        '"$(declare -f unit setup_tree)"'
        TMP=$0; setup_tree
        ln "$TMP/w/pkg/units/early.service" "$TMP/w/hardlink"
        cd "$TMP/w/pkg" && "$1" fix -q --systemd=229 --write units/early.service; [ $? = 1 ] || exit 1
        ! grep -q "^After=systemd-remount-fs.service" "$TMP/w/hardlink" &&
                grep -q "^After=systemd-remount-fs.service" units/early.service &&
                [ "$(stat -c %i "$TMP/w/hardlink")" != "$(stat -c %i units/early.service)" ]' "$TMP" "$BOOTRACE"

test_expect "--write touches nothing but the file given, leaves no temporary file" sh -c '
        '"$(declare -f unit setup_tree snapshot)"'
        TMP=$0; setup_tree
        snapshot "$TMP/w" pkg/units/early.service > "$TMP/before"
        cd "$TMP/w/pkg" && "$1" fix -q --systemd=229 --write units/early.service; [ $? = 1 ] || exit 1
        snapshot "$TMP/w" pkg/units/early.service > "$TMP/after"
        diff "$TMP/before" "$TMP/after" && ! find "$TMP/w" -name ".#*" | grep .' "$TMP" "$BOOTRACE"

test_expect "a second --write changes nothing and exits 0" sh -c '
        cd "$0/w/pkg" && sum=$(sha256sum < units/early.service) && rc=0 &&
        "$1" fix -q --systemd=229 --write units/early.service > "$0/out2" || rc=$?
        [ $rc = 0 ] && [ ! -s "$0/out2" ] && [ "$(sha256sum < units/early.service)" = "$sum" ]' "$TMP" "$BOOTRACE"

test_expect "--drop-in --write creates UNIT.d/bootrace-fix.conf (0755/0644) and nothing else" sh -c '
        '"$(declare -f unit setup_tree snapshot)"'
        TMP=$0; setup_tree
        snapshot "$TMP/w" > "$TMP/before"
        cd "$TMP/w/pkg" && "$1" fix -q --systemd=229 --drop-in --write units/early.service; [ $? = 1 ] || exit 1
        snapshot "$TMP/w" pkg/units/early.service.d pkg/units/early.service.d/bootrace-fix.conf > "$TMP/after"
        diff "$TMP/before" "$TMP/after" || exit 1
        [ "$(stat -c %a units/early.service.d)" = 755 ] &&
                [ "$(stat -c %a units/early.service.d/bootrace-fix.conf)" = 644 ] &&
                [ "$(ls -A units/early.service.d)" = bootrace-fix.conf ] &&
                grep -qx "After=systemd-remount-fs.service" units/early.service.d/bootrace-fix.conf &&
                ! find "$TMP/w" -name ".#*" | grep .' "$TMP" "$BOOTRACE"

test_expect "the drop-in repairs the unit: lint is clean with it" sh -c '
        cd "$0/w/pkg" && "$1" lint -q --systemd=229 units/early.service' "$TMP" "$BOOTRACE"

test_expect "a symlink given as the file is not written through (exit 2, its target untouched)" sh -c '
        '"$(declare -f unit setup_tree snapshot)"'
        TMP=$0; setup_tree
        unit "$TMP/w/elsewhere/linked.service"
        ln -s ../../elsewhere/linked.service "$TMP/w/pkg/units/linked.service"
        snapshot "$TMP/w" > "$TMP/before"
        cd "$TMP/w/pkg" && rc=0 && "$1" fix --systemd=229 --write units/linked.service > "$TMP/out" 2>&1 || rc=$?
        [ $rc = 2 ] || { echo "exit $rc"; cat "$TMP/out"; exit 1; }
        snapshot "$TMP/w" > "$TMP/after"
        diff "$TMP/before" "$TMP/after"' "$TMP" "$BOOTRACE"

# a read-only directory: as root, permissions do not stop a write, a read-only bind mount does
ro_write() {
        local rc=0
        if [ "$(id -u)" != 0 ]; then
                chmod a-w "$TMP/w/pkg/units"
                (cd "$TMP/w/pkg" && "$BOOTRACE" fix --systemd=229 --write units/early.service) > "$TMP/ro.out" 2>&1 ||
                        rc=$?
                chmod u+w "$TMP/w/pkg/units"
        else
                unshare -m sh -c 'mount --bind -o ro "$1" "$1" && cd "$2" &&
                        exec "$3" fix --systemd=229 --write units/early.service' sh "$TMP/w/pkg/units" \
                        "$TMP/w/pkg" "$BOOTRACE" > "$TMP/ro.out" 2>&1 || rc=$?
        fi
        echo $rc
}
setup_tree
snapshot "$TMP/w" > "$TMP/ro.before"
if [ "$(id -u)" = 0 ] && ! unshare -m true 2> /dev/null; then
        test_skip "a failed write leaves the original untouched" "running as root without unshare -m"
else
        ro_rc=$(ro_write)
        snapshot "$TMP/w" > "$TMP/ro.after"
        test_expect "a failed write (read-only directory): exit 2, the original and the tree untouched" sh -c '
                [ "$1" = 2 ] || { echo "exit $1"; cat "$0/ro.out"; exit 1; }
                grep -q "cannot write" "$0/ro.out" || { cat "$0/ro.out"; exit 1; }
                diff "$0/ro.before" "$0/ro.after"' "$TMP" "$ro_rc"
fi

# a unit named under --root is written inside the root, wherever the tree is
test_expect "--root and a UNIT: the fragment inside the root is edited, nothing else in the root" sh -c '
        '"$(declare -f unit snapshot)"'
        TMP=$0; rm -rf "$TMP/r" && mkdir -p "$TMP/r/root/etc/systemd/system/multi-user.target.wants"
        unit "$TMP/r/root/usr/lib/systemd/system/early.service"
        ln -s /usr/lib/systemd/system/early.service "$TMP/r/root/etc/systemd/system/multi-user.target.wants/"
        snapshot "$TMP/r" root/usr/lib/systemd/system/early.service > "$TMP/before"
        cd "$TMP/r" && rc=0 && "$1" fix --root=root --systemd=229 --write early.service > "$TMP/out" 2>&1 || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; cat "$TMP/out"; exit 1; }
        grep -q "^After=systemd-remount-fs.service" root/usr/lib/systemd/system/early.service || exit 1
        snapshot "$TMP/r" root/usr/lib/systemd/system/early.service > "$TMP/after"
        diff "$TMP/before" "$TMP/after"' "$TMP" "$BOOTRACE"

test_expect "--root, a UNIT and --drop-in: /etc/systemd/system/UNIT.d/ of the root, the vendor file untouched" sh -c '
        '"$(declare -f unit snapshot)"'
        TMP=$0; rm -rf "$TMP/r" && mkdir -p "$TMP/r/root/etc/systemd/system/multi-user.target.wants"
        unit "$TMP/r/root/usr/lib/systemd/system/early.service"
        ln -s /usr/lib/systemd/system/early.service "$TMP/r/root/etc/systemd/system/multi-user.target.wants/"
        snapshot "$TMP/r" > "$TMP/before"
        cd "$TMP/r" && "$1" fix -q --root=root --systemd=229 --drop-in --write early.service; [ $? = 1 ] || exit 1
        d=root/etc/systemd/system/early.service.d
        grep -qx "After=systemd-remount-fs.service" $d/bootrace-fix.conf || exit 1
        snapshot "$TMP/r" ${d#./} $d/bootrace-fix.conf > "$TMP/after"
        diff "$TMP/before" "$TMP/after" && "$1" lint -q --root=root --systemd=229' "$TMP" "$BOOTRACE"
