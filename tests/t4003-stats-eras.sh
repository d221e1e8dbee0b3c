#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats on synthetic journals of older and newer systemd eras (fixtures/stats/era-*/journal.export, written from
# knowledge/journal.md): plain-text PID 1 records without a unit prefix (<=v219), "U: " texts and text results
# (v220-v239), ordering cycles in every form, the v258 one-line cycle record with DELETED_UNIT=, condition skips,
# incomplete boots. Each case has the expected outcomes, cycles and boot states next to it.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

outcomes_equal() { # CASE-DIR JOURNAL
        local units
        units=$(cut -f2 "$1/expected-outcomes" | sort -u | sed 's/^/--unit=/')
        # shellcheck disable=SC2086
        bootrace stats --file "$2" $units --outcomes > "$TMP/o"
        [ $? -le 1 ] || return 1
        awk -F'\t' '!/^#/ { print $2 "\t" $4 "\t" $5 "\t" $6 }' "$TMP/o" | sort > "$TMP/got"
        sort "$1/expected-outcomes" > "$TMP/want"
        test_cmp "$TMP/want" "$TMP/got"
}

cycles_equal() { # CASE-DIR JOURNAL
        bootrace stats --file "$2" > "$TMP/t"
        [ $? -le 1 ] || return 1
        sed -n 's/^  boot \([0-9]*\) [0-9a-f]*: cycle starting with \([^ ;]*\).*; deleted: \(.*\)$/\1\t\2\t\3/p' "$TMP/t" |
                sort > "$TMP/got"
        sort "$1/expected-cycles" > "$TMP/want"
        test_cmp "$TMP/want" "$TMP/got"
}

boots_equal() { # CASE-DIR JOURNAL
        bootrace stats --file "$2" > "$TMP/t"
        sed -n 's/^  boot \([0-9]*\) [0-9a-f]*: \(no .*\)$/\1\t\2/p' "$TMP/t" | sort > "$TMP/got"
        awk -F'\t' '$2 != "complete"' "$1/expected-boots" | sort > "$TMP/want"
        test_cmp "$TMP/want" "$TMP/got"
}

signatures_equal() { # CASE-DIR JOURNAL
        bootrace stats --file "$2" > "$TMP/t"
        sed -n '/^Failure signatures/,/^$/s/^  \(.*[^ ]\)  *\([0-9]*\) unit-boots\{0,1\}:.*/\1\t\2/p' "$TMP/t" | sort > "$TMP/got"
        sort "$1/expected-signatures" > "$TMP/want"
        test_cmp "$TMP/want" "$TMP/got"
}

rates_equal() { # CASE-DIR JOURNAL: "OPTION<tab>UNIT<tab>FAILURES/BOOTS" ("-": no option)
        local opt unit want got
        while IFS=$'\t' read -r opt unit want; do
                [ "$opt" = - ] && opt=
                bootrace stats --file "$2" --unit="$unit" ${opt:+"$opt"} > "$TMP/r"
                got=$(awk -v u="$unit" '$1 == u { print $2; exit }' "$TMP/r")
                [ "$got" = "$want" ] || { echo "$unit ${opt:-(default)}: $got, want $want"; return 1; }
        done < "$1/expected-rates"
}

for dir in "$FIXTURES"/stats/era-*/; do
        case=$(basename "$dir")
        J=$TMP/$case.journal
        test_expect "$case: import" import_export "$case" "$dir/journal.export"
        test_expect "$case: per-boot outcomes" outcomes_equal "$dir" "$J"
        test_expect "$case: ordering cycles and deleted jobs" cycles_equal "$dir" "$J"
        test_expect "$case: incomplete boots" boots_equal "$dir" "$J"
        [ -f "$dir/expected-signatures" ] &&
                test_expect "$case: failure signatures" signatures_equal "$dir" "$J"
        [ -f "$dir/expected-rates" ] &&
                test_expect "$case: failures/boots under --not-run and --cycle-is-failure" rates_equal "$dir" "$J"
done
