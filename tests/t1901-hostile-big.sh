#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Big hostile input for `bootrace show`: 100,000 unit files in one directory (it completes and finds the right
# ones; how fast is `make bench`'s business) and 1 GiB sparse unit files and drop-ins (refused by their size,
# never read whole). Nothing under the root is written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostile-lib.sh"

# 100,000 files cost a disk file system half a minute to create and remove, tmpfs a few seconds: /dev/shm when it
# has room (each small file takes a 4 KiB page)
root=$TMP/root
if [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 1048576 ] &&
   shm=$(mktemp -d /dev/shm/bootrace-test.XXXXXX); then
        trap '_rc=$?; rm -rf "$shm"; (exit $_rc); _test_exit' EXIT
        root=$shm/root
fi
sys=$root/etc/systemd/system
mkdir -p "$sys"

# 100,000 units in one directory, each ordered after the one before, and an alias of one of them
(
        cd "$sys" || exit 1
        for ((i = 0; i < 100000; i++)); do
                printf -v n 'u%05d' "$i"
                printf '[Unit]\nDescription=unit number %d\nAfter=u%05d.service\n[Service]\nExecStart=/bin/true\n' \
                        "$i" $((i ? i - 1 : 0)) > "$n.service"
        done
        ln -s u77777.service alias.service
) || skip_all "cannot create 100,000 files in $TMP"

# 1 GiB sparse files, in a root of their own (listing 100,000 names for each check would only be slow)
sparse=$TMP/sparse
ssys=$sparse/etc/systemd/system
mkdir -p "$ssys/withbig.service.d"
truncate -s 1G "$ssys/sparse.service" "$TMP/sparse-arg.service" ||
        skip_all "cannot create a 1 GiB sparse file in $TMP"
printf '[Service]\nExecStart=/bin/true\n' > "$ssys/withbig.service"
truncate -s 1G "$ssys/withbig.service.d/big.conf"
printf '[Unit]\nDescription=SMALL-DROPIN\n' > "$ssys/withbig.service.d/small.conf"

tree_state "$root" > "$TMP/root.before"
tree_state "$sparse" > "$TMP/sparse.before"

# units_right: the three units of the 100,000 asked for, each with its own file, description and dependency
units_right() {
        bootrace show --root="$root" u00000.service u50000.service u99999.service alias.service \
                > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; return 1; }
        # the settings as written (not the dependencies show adds after them)
        awk '/^# / { deps = 0 } /^Dependencies:/ { deps = 1 } !deps' "$TMP/out" |
                grep -E '^(# |Fragment:|Description=|After=|Names:)' | sed -E 's/ +#.*//' > "$TMP/got"
        cat > "$TMP/want" <<EOF
# u00000.service
Fragment: $sys/u00000.service
Description=unit number 0
After=u00000.service
# u50000.service
Fragment: $sys/u50000.service
Description=unit number 50000
After=u49999.service
# u99999.service
Fragment: $sys/u99999.service
Description=unit number 99999
After=u99998.service
# u77777.service (requested as alias.service)
Names: u77777.service alias.service
Fragment: $sys/u77777.service
Description=unit number 77777
After=u77776.service
EOF
        test_cmp "$TMP/want" "$TMP/got"
}

test_expect "100,000 units in one directory: the right ones are found and read" units_right
test_expect "100,000 units in one directory: a missing one is not found" \
        expect_exit 2 bootrace show --root="$root" u100000.service

# refused: exit 2, the file named, "too large"
refused() { # FILE-PATTERN SHOW-ARGS...
        local pat=$1 rc=0; shift
        bootrace show "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ "$rc" = 2 ] || { echo "exit status $rc"; cat "$TMP/err"; return 1; }
        grep -q -- "$pat.*too large" "$TMP/err" || { cat "$TMP/err"; return 1; }
}
test_expect "a 1 GiB sparse unit file is refused, named" refused "sparse.service" --root="$sparse" sparse.service
test_expect "a 1 GiB sparse unit file given as a PATH is refused" refused "sparse-arg.service" "$TMP/sparse-arg.service"
test_expect "a 1 GiB sparse drop-in is refused, the other drop-in still read" sh -c '
        "$BOOTRACE" show --root="$1" withbig.service > "$2/out" 2> "$2/err"
        grep -q "big.conf.*too large" "$2/err" && grep -q SMALL-DROPIN "$2/out"' - "$sparse" "$TMP"

# never read whole: strace counts the bytes read() returns (the rules are ~100 KB)
bytes_read() {
        strace -f -qq -e trace=read,pread64,readv,preadv -o "$TMP/.reads" "$BOOTRACE_BIN" "$@" > /dev/null 2>&1
        perl -ne '$n += $1 if /\)\s+=\s+(\d+)/; END { print $n + 0, "\n" }' "$TMP/.reads"
}
read_little() {
        local n
        n=$(bytes_read --root="$sparse" show sparse.service withbig.service) || return 1
        [ "$n" -gt 0 ] && [ "$n" -lt 16777216 ] || { echo "read $n bytes"; return 1; }
}
if command -v strace > /dev/null && strace -qq -o /dev/null true 2> /dev/null; then
        test_expect "1 GiB files: less than 16 MiB read in all" read_little
else
        test_skip "1 GiB files: less than 16 MiB read in all" "strace missing or not allowed to trace here"
fi

test_expect "nothing under the 100,000-unit root was written" expect_unchanged "$root" "$TMP/root.before"
test_expect "nothing under the sparse files' root was written" expect_unchanged "$sparse" "$TMP/sparse.before"
