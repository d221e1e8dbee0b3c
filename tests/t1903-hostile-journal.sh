#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile journals for `bootrace stats`: files truncated anywhere and damaged headers (partial results, a warning
# naming the file, exit status 2), blocks of garbage anywhere in a file (never a crash or a hang; damage wherever
# it touches an object, a notice in free space), FIFOs, devices,
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

# More header fields whose damage changes what a reader sees or how it finds it (journalctl --verify fails on each).
# Not checkable, and so not here: the machine ID (40; no object repeats it, sd-journal uses it only to tell local
# journals), the tail boot ID (56; the last entry's only when the file says so in a compatible flag, v254+), the
# sequence number ID (72; a random ID no object repeats: only cursors change) and the hash chain depths (240, 248;
# the writer's statistics).
header_case file-id 24 '\377\377\377\377\377\377\377\377'
header_case data-hash-table-size 112 '\000\000\000\000\000\000\000\001'
header_case object-count 144 '\001\000\000\000\000\000\000\000'
header_case head-seqnum 168 '\377\377\377\377\377\377\377\000'
header_case tail-realtime 192 '\001\000\000\000\000\000\000\000'
header_case tail-monotonic 200 '\001\000\000\000\000\000\000\000'
header_case data-count 208 '\377\377\377\377\000\000\000\000'
header_case entry-array-count 232 '\000\000\000\000\000\000\000\000'
# the last entry array and its fill (for appending), in headers from systemd 252 on
if [ "$(le64 "$good" 88)" -ge 264 ]; then
        header_case tail-entry-array 260 '\377\377\377\377'
else
        test_skip "damaged header (tail-entry-array) next to a good file: partial, named, exit 2" \
                "systemd-journal-remote writes headers older than 252"
fi

# 64 bytes of garbage at 24 places from the end of the hash tables to 64 bytes past the start of the last object.
# Never a crash, a hang or a sanitizer report. Every block that touches an object (data, field, entry, entry
# array, also the unused slots of a preallocated entry array, which must be zero) is damage: exit 2 and the file
# named. A block wholly after the end of the last object lands in free space: nothing any reader sees changes (the
# export of the file stays the same, and journalctl --verify passes), so it cannot change a result; bootrace says
# in a notice that the file was altered there and exits as for the intact file. Which case an offset is depends on
# the layout systemd-journal-remote wrote, so the sweep computes it from the header.
exec 3>&1
garbage_sweep() { # FILE
        local f=$1 name=garbage.journal k off ht tail end rc0 damaged=0 free=0 exp
        ht=$(( $(le64 "$f" 104) + $(le64 "$f" 112) ))
        tail=$(le64 "$f" 136)
        end=$(( tail + $(le64 "$f" $((tail + 8))) ))
        rc0=0; "$BOOTRACE" stats --file "$f" > /dev/null 2>&1 || rc0=$?
        exp=
        if command -v journalctl > /dev/null; then
                exp=$TMP/intact.export
                journalctl --file "$f" -o export > "$exp" 2> /dev/null || exp=
        fi
        for k in $(seq 0 23); do
                off=$(( ht + (tail + 64 - ht) * k / 23 ))
                cp "$f" "$TMP/$name"
                head -c 64 /dev/zero | tr '\0' '\377' |
                        dd of="$TMP/$name" bs=1 seek="$off" conv=notrunc 2> /dev/null
                no_crash bootrace stats --file "$TMP/$name" || { echo "at offset $off"; return 1; }
                if [ "$off" -lt "$end" ]; then
                        [ "$NC_RC" = 2 ] && grep -q "$name: error: " "$TMP/.nc-err" ||
                                { echo "offset $off (in an object, last ends at $end): exit $NC_RC, expected 2:"
                                  cat "$TMP/.nc-err"; return 1; }
                        damaged=$((damaged + 1))
                else
                        [ "$NC_RC" = "$rc0" ] && grep -q "$name: notice: altered: bytes at offset $off in free space" \
                                "$TMP/.nc-err" && ! grep -q "$name: error" "$TMP/.nc-err" ||
                                { echo "offset $off (free space after $end): exit $NC_RC (intact: $rc0), expected" \
                                       "a notice only:"; cat "$TMP/.nc-err"; return 1; }
                        if [ -n "$exp" ]; then
                                journalctl --file "$TMP/$name" -o export 2> /dev/null | cmp -s - "$exp" ||
                                        { echo "offset $off: bytes in free space changed what journalctl reads"
                                          return 1; }
                        fi
                        free=$((free + 1))
                fi
        done
        echo "# ${f##*/}: garbage is damage (exit 2, file named) at $damaged of 24 offsets; $free in free space" \
             "after the last object (a notice, nothing read changes)" >&3
        [ $((damaged + free)) = 24 ] && [ "$damaged" -ge 22 ]
}
test_expect "64 bytes of garbage at 24 offsets: every one in an object is damage, named, exit 2" garbage_sweep "$good"
real=
[ -r "$SHARED/data/bookworm-cycle.export.xz" ] &&
        xzcat "$SHARED/data/bookworm-cycle.export.xz" | "$JOURNAL_REMOTE" -o "$TMP/real.journal" - > /dev/null 2>&1 &&
        real=$TMP/real.journal
if [ -n "$real" ]; then
        test_expect "the same on a real journal (bookworm-cycle): no damage found in the intact file" sh -c '
                "$1" stats --file "$2" > /dev/null 2> "$3"; ! grep -q "real.journal: \(error\|notice\)" "$3"' - \
                "$BOOTRACE" "$real" "$TMP/real.err"
        test_expect "the same on a real journal (bookworm-cycle): garbage at 24 offsets" garbage_sweep "$real"
else
        test_skip "the same on a real journal (bookworm-cycle): no damage found in the intact file" \
                "no shared/data/bookworm-cycle.export.xz"
        test_skip "the same on a real journal (bookworm-cycle): garbage at 24 offsets" \
                "no shared/data/bookworm-cycle.export.xz"
fi

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
