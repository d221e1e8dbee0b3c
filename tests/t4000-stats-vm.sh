#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats on the VM journal ($SHARED/data/bookworm-vm): early failures there exist only as kernel-transport text
# without MESSAGE_ID or UNIT=. Every unit's outcome in every boot must equal the ground truth (the TSV's "truth"
# rows, read here at test time), and so must the per-unit counts (the TSV's summary lines).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

SET=bookworm-vm
TSV=$SHARED/data/racy-$SET.tsv
J=$TMP/$SET.journal
mapfile -t UNITS < <(truth_units "$TSV")

read_outcomes() {
        outcomes_of "$J" "$TSV" > "$TMP/out" && grep -qv '^#' "$TMP/out"
}

equal_truth() {
        # expected: failed/RESULT for a failed truth row, succeeded for inactive/success
        awk -F'\t' '!/^#/ && $3 == "truth" { print $1 "\t" $2 "\t" ($4 == "failed" ? "failed\t" $5 : "succeeded\t-") }' \
                "$TSV" | sort > "$TMP/expected"
        [ -s "$TMP/expected" ] || { echo "no truth rows in $TSV"; return 1; }
        awk -F'\t' '!/^#/ { print $3 "\t" $4 "\t" $5 "\t" $6 }' "$TMP/out" | sort > "$TMP/got"
        test_cmp "$TMP/expected" "$TMP/got"
}

equal_counts() {
        # "# UNIT failed in F of N boots (...)" against the counts of the outcome table
        sed -n 's/^# \([^ ]*\) failed in \([0-9]*\) of \([0-9]*\) boots.*/\1 \2 \3/p' "$TSV" | sort > "$TMP/want"
        [ -s "$TMP/want" ] || return 1
        awk -F'\t' '!/^#/ { n[$4]++; if ($5 == "failed") f[$4]++ } END { for (u in n) print u, f[u] + 0, n[u] }' \
                "$TMP/out" | sort > "$TMP/got-counts"
        test_cmp "$TMP/want" "$TMP/got-counts"
}

boots_as_journalctl() {
        local want
        want=$(journalctl --file "$J" --list-boots --no-pager | grep -c '^ *-\?[0-9]')
        bootrace stats --file "$J" "${UNITS[@]}" --race-boots > "$TMP/text"
        grep -q ": $want boots in the journal" "$TMP/text"
}

race_evidence() {
        local fails n
        fails=$(awk -F'\t' '!/^#/ && $5 == "failed"' "$TMP/out" | wc -l)
        n=$(sed -n '/^Race evidence/,/^$/p' "$TMP/text" | grep -c 'before systemd-remount-fs.service finished')
        echo "failing unit-boots $fails, race evidence lines timed against the remount $n"
        [ "$fails" -gt 0 ] && [ "$n" = "$fails" ]
}

race_summary() {
        # each unit's summary against the remount: as many boots, as many "before", and the median of the
        # per-boot leads (printed to the millisecond: a tolerance of 1.5 ms for the mean of two)
        sed -n '/^Race evidence/,/^$/p' "$TMP/text" | awk '
                /^  [^ ]+ boot [0-9]+ / && match($0, /[0-9.]+ s (before|after) systemd-remount-fs.service finished/) {
                        split(substr($0, RSTART, RLENGTH), w, " "); u = $1
                        v[u, ++n[u]] = (w[3] == "before" ? 1 : -1) * w[1]; b[u] += (w[3] == "before")
                }
                /^  [^ ]+: [0-9]+ failing boot/ { cur = substr($1, 1, length($1) - 1) }
                /^    systemd-remount-fs.service finished: / {
                        seen++
                        if (!match($0, /before it in [0-9]+ of [0-9]+ boots; median [0-9.]+ s (before|after)/)) { bad = 1; next }
                        split(substr($0, RSTART, RLENGTH), w, " ")
                        med = (w[11] == "before" ? 1 : -1) * w[9]
                        k = n[cur]; for (i = 1; i <= k; i++) x[i] = v[cur, i]
                        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                        want = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
                        d = med - want; if (d < 0) d = -d
                        printf "%s: %s of %s before (want %d of %d), median %.3f (want %.4f)\n", cur, w[4], w[6], b[cur], k, med, want
                        if (w[4] != b[cur] || w[6] != k || d > 0.0015) bad = 1
                }
                END { exit bad || !seen }'
}

same_as_file() {
        cut -f2- "$TMP/out" > "$TMP/by-file"
        bootrace stats "$@" "${UNITS[@]}" --outcomes | cut -f2- > "$TMP/other"
        test_cmp "$TMP/by-file" "$TMP/other"
}

last_five() {
        local unit=$1
        bootrace stats --file "$J" --unit="$unit" --boots=5 --outcomes | grep -v '^#' | cut -f3 > "$TMP/five"
        awk -F'\t' -v u="$unit" '$4 == u' "$TMP/out" | tail -n 5 | cut -f3 > "$TMP/last"
        [ "$(wc -l < "$TMP/five")" = 5 ] && test_cmp "$TMP/last" "$TMP/five"
}

test_expect "import the $SET export" import_export $SET
test_expect "bootrace reads the journal" read_outcomes
test_expect "every unit in every boot equals the ground truth" equal_truth
test_expect "per-unit failure counts equal the TSV's summary" equal_counts
test_expect "boots in the journal: as many as journalctl lists" boots_as_journalctl
test_expect "systemd and kernel versions are read from the journal" \
        sh -c "grep -q 'systemd [0-9][0-9]*\\.' '$TMP/text' && grep -q 'kernel [0-9]' '$TMP/text'"
test_expect "race evidence for each failing unit-boot, timed against the remount" race_evidence
test_expect "race evidence per unit: boots before the remount and the median lead, as the boots show" race_summary

failing=$(awk -F'\t' '!/^#/ && $5 == "failed" { print $4; exit }' "$TMP/out")
clean=$(awk -F'\t' '!/^#/ { n[$4]++; if ($5 == "failed") f[$4]++ } END { for (u in n) if (!f[u]) { print u; exit } }' \
        "$TMP/out")
test_expect "exit status 1 for a unit that failed (no criterion given)" \
        expect_exit 1 bootrace stats --file "$J" --unit="${failing:-none}"
test_expect "exit status 0 for a unit that never failed" expect_exit 0 bootrace stats --file "$J" --unit="${clean:-none}"
mkdir -p "$TMP/dir" "$TMP/root/var/log/journal/m"
cp "$J" "$TMP/dir/" 2>/dev/null
cp "$J" "$TMP/root/var/log/journal/m/system.journal" 2>/dev/null
test_expect "-D reads the same boots as --file" same_as_file -D "$TMP/dir"
test_expect "--root reads DIR/var/log/journal" same_as_file --root "$TMP/root"
test_expect "--boots=5 reads the last five boots" last_five "${failing:-none}"
