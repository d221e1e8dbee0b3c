#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile journals for `bootrace stats`: files truncated anywhere and damaged headers (partial results, a warning
# naming the file, exit status 2), blocks of garbage anywhere in a file (never a crash or a hang), FIFOs, devices,
# 1 GiB sparse files, loops and directories named *.journal, and --root trees whose journal directories or files
# link out of the root (the host's journals are never read; their twins inside the root are). Nothing under the
# root is written. t4004 has the common cases; this is the adversarial sweep.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
. "$(dirname "$0")/hostile-lib.sh"

if [ -z "$JOURNAL_REMOTE" ]; then
        [ "${CI:-}" = true ] && { echo "Bail out! systemd-journal-remote missing in CI"; _test_skip_all=1 _test_exit_rc=1
                                 exit 1; }
        skip_all "systemd-journal-remote is not installed (Debian package systemd-journal-remote)"
fi

test_expect "journals from the v229 and v219 fixtures" sh -c '
        "$1" -o "$3/good.journal" "$2/stats/era-v229/journal.export" > /dev/null 2>&1 &&
        "$1" -o "$3/other.journal" "$2/stats/era-v219/journal.export" > /dev/null 2>&1' - \
        "$JOURNAL_REMOTE" "$FIXTURES" "$TMP"
good=$TMP/good.journal
[ -s "$good" ] || { echo "Bail out! cannot import the fixture journals"; _test_skip_all=1 _test_exit_rc=1; exit 1; }
size=$(stat -c %s "$good")
le64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
boots_of() { bootrace stats --file "$1" 2> /dev/null | sed -n 's/.*: \([0-9]*\) boots in the journal.*/\1/p'; }
good_boots=$(boots_of "$good")
other_boots=$(boots_of "$TMP/other.journal")
test_expect "the two fixtures have different boot counts" test "${good_boots:-x}" != "${other_boots:-x}"

# partial BAD-NAME BOOTS STATS-ARGS...: exit 2, a warning naming BAD-NAME, and the results of the rest: BOOTS boots
partial() {
        local bad=$1 boots=$2; shift 2
        no_crash bootrace stats "$@" || return 1
        [ "$NC_RC" = 2 ] || { echo "exit status $NC_RC, expected 2"; cat "$TMP/.nc-err"; return 1; }
        grep -q -- "$bad" "$TMP/.nc-err" || { echo "$bad not named:"; cat "$TMP/.nc-err"; return 1; }
        grep -q ": $boots boots in the journal" "$TMP/.nc-out" || { echo "not $boots boots:"; cat "$TMP/.nc-out"; return 1; }
}

for cut in 0 1 8 100 239 240 4096 $((size / 4)) $((size / 2)) $((size * 3 / 4)) $((size - 8)) $((size - 1)); do
        d=$TMP/cut-$cut
        mkdir "$d"
        cp "$good" "$d/good.journal"
        head -c "$cut" "$good" > "$d/cut.journal"
        test_expect "truncated to $cut of $size bytes next to a good file: partial, named, exit 2" \
                partial cut.journal "$good_boots" -D "$d"
done

# header damage: the signature, the header size, the entry count, the tail object offset, the arena size
header_case() { # NAME OFFSET BYTES(printf format)
        local d=$TMP/header-$1
        mkdir "$d"
        cp "$good" "$d/good.journal"
        cp "$good" "$d/bad.journal"
        # shellcheck disable=SC2059 # the bytes are a printf format
        printf "$3" | dd of="$d/bad.journal" bs=1 seek="$2" conv=notrunc 2> /dev/null
        test_expect "damaged header ($1) next to a good file: partial, named, exit 2" \
                partial bad.journal "$good_boots" -D "$d"
}
header_case signature 0 'XXXXXXXX'
header_case header-size 88 '\377\377\377\377\377\377\377\377'
header_case entry-count 152 '\377\377\377\377\377\377\377\177'
header_case tail-offset 136 '\000\000\000\000\000\001\000\000'
header_case arena-size 96 '\000\000\000\000\000\000\000\000'

# 64 bytes of garbage at 24 places from the end of the hash tables to the last object: whatever sd-journal makes
# of it, never a crash, a hang or a sanitizer report; when bootrace notices, it says which file
ht=$(( $(le64 "$good" 104) + $(le64 "$good" 112) ))
tail=$(le64 "$good" 136)
garbage_sweep() {
        local k off noticed=0
        for k in $(seq 0 23); do
                off=$(( ht + (tail + 64 - ht) * k / 23 ))
                cp "$good" "$TMP/garbage.journal"
                head -c 64 /dev/zero | tr '\0' '\377' |
                        dd of="$TMP/garbage.journal" bs=1 seek="$off" conv=notrunc 2> /dev/null
                no_crash bootrace stats --file "$TMP/garbage.journal" || { echo "at offset $off"; return 1; }
                if [ "$NC_RC" = 2 ]; then
                        grep -q garbage.journal "$TMP/.nc-err" || { echo "exit 2 at $off, file not named"; return 1; }
                        noticed=$((noticed + 1))
                fi
        done
        echo "# garbage noticed (exit 2, file named) at $noticed of 24 offsets" >&3
}
exec 3>&1
test_expect "64 bytes of garbage at 24 offsets: no crash, no hang; noticed ones are named" garbage_sweep

# special files where journal files are expected
special=$TMP/special
mkdir "$special"
cp "$good" "$special/good.journal"
mkfifo "$special/fifo.journal"
truncate -s 1G "$special/sparse.journal"
ln -s loop.journal "$special/loop.journal"
mkdir "$special/dir.journal"
test_expect "a FIFO named *.journal: refused without blocking, named" \
        partial "fifo.journal: .*not a regular file" "$good_boots" -D "$special"
test_expect "a 1 GiB sparse *.journal: not a journal, named" partial "sparse.journal" "$good_boots" -D "$special"
test_expect "a symlink loop named *.journal: named" partial "loop.journal" "$good_boots" -D "$special"
test_expect "a directory named *.journal: named" partial "dir.journal" "$good_boots" -D "$special"
test_expect "--file FIFO: refused without blocking" sh -c '
        rc=0; timeout 60 "$BOOTRACE" stats --file "$1" > /dev/null 2> "$2" || rc=$?
        [ "$rc" = 2 ] && grep -q "not a regular file" "$2"' - "$special/fifo.journal" "$TMP/fifo.err"
if [ -c /dev/zero ]; then
        test_expect "--file /dev/zero: refused, not read forever" sh -c '
                rc=0; timeout 60 "$BOOTRACE" stats --file /dev/zero > /dev/null 2> "$1" || rc=$?
                [ "$rc" = 2 ] && grep -q "/dev/zero" "$1"' - "$TMP/zero.err"
else
        test_skip "--file /dev/zero: refused, not read forever" "no /dev/zero"
fi

# --root: journal directories and files linking out of the root; the twins inside the root are read
host=$TMP/host
mkdir -p "$host/m"
cp "$TMP/other.journal" "$host/m/host.journal"
r1=$TMP/root-dirlink
mkdir -p "$r1/var/log" "$r1/run/log"
ln -s "$host" "$r1/var/log/journal"
ln -s "../../../../../../../../../..$host" "$r1/run/log/journal"
r2=$TMP/root-filelink
mkdir -p "$r2/var/log/journal/m" "$r2$host/m"
ln -s "$host/m/host.journal" "$r2/var/log/journal/m/x.journal"
cp "$good" "$r2$host/m/host.journal"  # the twin
r3=$TMP/root-dangling
mkdir -p "$r3/var/log/journal/m"
cp "$good" "$r3/var/log/journal/m/in.journal"
ln -s "$host/m/host.journal" "$r3/var/log/journal/m/x.journal"
for d in "$host" "$r1" "$r2" "$r3"; do tree_state "$d" > "$d.before"; done

test_expect "--root whose journal directories link to the host's: nothing of the host is read" sh -c '
        rc=0; "$BOOTRACE" stats --root="$1" > "$2/out" 2> "$2/err" || rc=$?
        [ "$rc" = 2 ] && grep -q "no readable journal entries" "$2/err" && ! grep -q "boots in the journal" "$2/out"
        ' - "$r1" "$TMP"
test_expect "--root with a journal file linking out: its twin inside the root is read" \
        sh -c '"$BOOTRACE" stats --root="$1" 2> /dev/null | grep -q ": $2 boots in the journal"' - "$r2" "$good_boots"
test_expect "--root with a journal file linking to nothing inside: named, the rest read, exit 2" \
        partial "x.journal: error: cannot be resolved inside the root" "$good_boots" --root="$r3"
if command -v strace > /dev/null && strace -qq -o /dev/null true 2> /dev/null; then
        test_expect "--root: strace sees nothing opened outside the root" confined "$r3" "$BOOTRACE_BIN" stats --root="$r3"
else
        test_skip "--root: strace sees nothing opened outside the root" "strace missing or not allowed to trace here"
fi
for d in "$host" "$r1" "$r2" "$r3"; do
        test_expect "nothing under ${d##*/}/ was written" expect_unchanged "$d" "$d.before"
done
