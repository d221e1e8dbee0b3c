#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats input errors: a missing directory, a file that is not a journal, a directory without journals (exit 2,
# naming the thing), and damaged journals: a truncated file next to a good one and a file with corrupt entries
# give the partial results, a warning naming the file, and exit status 2.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

SET=bookworm-ro
J=$TMP/$SET.journal

le64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

names_and_fails() { # WHAT-TO-FIND-IN-STDERR CMD...
        local want=$1 rc=0
        shift
        "$@" > "$TMP/stdout" 2> "$TMP/stderr" || rc=$?
        cat "$TMP/stderr"
        [ "$rc" = 2 ] && grep -qF -- "$want" "$TMP/stderr"
}

partial() { # BAD-FILE CMD...: results on stdout, a warning naming BAD-FILE, exit 2
        local bad=$1 rc=0
        shift
        "$@" > "$TMP/stdout" 2> "$TMP/stderr" || rc=$?
        cat "$TMP/stderr"
        [ "$rc" = 2 ] && grep -qF "$bad" "$TMP/stderr" && grep -q 'partial' "$TMP/stderr" &&
                grep -q ' boots in the journal' "$TMP/stdout"
}

corrupt_middle() { # FILE: overwrite 64 KiB between the data hash table and the last object
        local f=$1 ht tail
        ht=$(( $(le64 "$f" 104) + $(le64 "$f" 112) ))
        tail=$(le64 "$f" 136)
        head -c 65536 /dev/zero | tr '\0' '\377' | dd of="$f" bs=1 seek=$(( ht + (tail - ht) / 2 )) conv=notrunc 2> /dev/null
}

test_expect "import $SET" import_export $SET
test_expect "a missing directory: exit 2, named" names_and_fails "$TMP/nonexistent" bootrace stats -D "$TMP/nonexistent"
test_expect "a missing file: exit 2, named" names_and_fails "$TMP/nope.journal" bootrace stats --file "$TMP/nope.journal"
printf 'MESSAGE=hello\n\n' > "$TMP/export.txt"
test_expect "an export instead of a journal file: exit 2, named" \
        names_and_fails "$TMP/export.txt: error: not a journal file" bootrace stats --file "$TMP/export.txt"
mkdir "$TMP/empty"
test_expect "a directory without journal files: exit 2" names_and_fails "no readable journal entries" \
        bootrace stats -D "$TMP/empty"

mkdir "$TMP/two"
cp "$J" "$TMP/two/good.journal" 2>/dev/null
cp "$J" "$TMP/two/cut.journal" 2>/dev/null
truncate -s $(( $(stat -c %s "$J" 2>/dev/null || echo 0) / 2 )) "$TMP/two/cut.journal" 2>/dev/null
test_expect "a truncated file next to a good one: partial results, warning, exit 2" \
        partial cut.journal bootrace stats -D "$TMP/two" --unit=racy-varlib.service
test_expect "the good file's boots are all there" sh -c "
        want=\$(journalctl --file '$J' --list-boots --no-pager | grep -c '^ *-\\?[0-9]')
        grep -q \": \$want boots in the journal\" '$TMP/stdout'"

cp "$J" "$TMP/corrupt.journal" 2>/dev/null && corrupt_middle "$TMP/corrupt.journal"
test_expect "corrupt entries: partial results, warning, exit 2" \
        partial corrupt.journal bootrace stats --file "$TMP/corrupt.journal" --unit=racy-varlib.service
test_expect "the corruption is counted in entries" grep -q 'entries cannot be read (corrupt)' "$TMP/stderr"
test_expect "JSON says how many read errors" sh -c "
        '$BOOTRACE' stats --file '$TMP/corrupt.journal' --unit=racy-varlib.service --format=json 2>/dev/null |
        grep -q '\"read_errors\": [1-9]'"
test_expect "chain: a missing boot is an error naming it" names_and_fails "no boot '99'" \
        bootrace chain --file "$J" --boot=99 racy-varlib.service
