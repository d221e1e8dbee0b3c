#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats output formats and verdicts on a real journal: the JSON contract (fields and their arithmetic), the
# markdown SRU block, JUnit XML (one testcase per unit per boot), before/after comparison and --below, and the
# exit status that goes with each verdict.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

SET=bookworm-ro
TSV=$SHARED/data/racy-$SET.tsv
J=$TMP/$SET.journal
mapfile -t UNITS < <(truth_units "$TSV")
HAVE_JQ=$(command -v jq || true)

json_contract() {
        bootrace stats --file "$J" "${UNITS[@]}" --format=json > "$TMP/j.json"
        [ $? -le 1 ] || return 1
        jq -e --arg v "$("$BOOTRACE" --version | sed -n '1s/^bootrace //p')" '
                def abs: if . < 0 then -. else . end;
                .sample.boots_in_journal as $n |
                .tool == "bootrace" and .version == $v and $n > 0 and (.sample.boots | length) == $n and
                (.sample.units | length) > 0 and
                all(.sample.units[];
                    has("unit") and has("boots") and has("succeeded") and has("failed") and has("skipped") and
                    has("not_run") and has("results") and has("rate") and has("ci95") and
                    .succeeded + .failed + .skipped + .not_run == .boots and
                    .boots + .unknown == $n and
                    .failures == .failed + .not_run and
                    ([.results[]] | add // 0) == .boots - .succeeded and
                    (if .boots > 0 then ((.rate - .failures / .boots) | abs) < 1e-5 and
                                        .ci95[0] <= .rate and .rate <= .ci95[1]
                     else .rate == null end) and
                    (.per_boot | length) == $n and
                    ([.per_boot[] | select(.outcome == "failed")] | length) == .failed and
                    all(.per_boot[] | select(.outcome == "failed"); .race.summary != null))' "$TMP/j.json"
}

json_baseline() {
        local rc=0
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --below=10% --format=json \
                > "$TMP/b.json" || rc=$?
        jq -e --argjson rc "$rc" '
                has("baseline") and (.comparisons | length) > 0 and
                all(.comparisons[];
                    .p_value >= 0 and .p_value <= 1 and .p_value_holm <= 1 and .p_value_holm >= .p_value - 1e-12 and
                    (.boots_needed == null or .boots_needed >= 0) and
                    (.verdict == "improved" or .verdict == "not-improved" or .verdict == "worse" or
                     .verdict == "no-data") and
                    .under_powered == (.boots_needed != 0)) and
                all(.sample.units[] | select(.boots > 0);
                    .shown_below == (.upper95_one_sided < 0.10) and (.boots_needed == 0) == .shown_below) and
                (if .verdict.result == "pass" then 0 else 1 end) == $rc' "$TMP/b.json"
}

markdown_block() {
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --format=markdown \
                --title="LP: #0 (test)" --label="pkg 1.1" --baseline-label="pkg 1.0" > "$TMP/m.md"
        [ $? -le 1 ] || return 1
        grep -q '^### bootrace verification — LP: #0 (test)' "$TMP/m.md" &&
                grep -q 'before pkg 1.0' "$TMP/m.md" && grep -q 'after  pkg 1.1' "$TMP/m.md" &&
                grep -q '^| unit | before | after | before 95% CI (CP) | after 95% CI (CP) | Fisher p |' "$TMP/m.md" &&
                grep -q '^Verdict: ' "$TMP/m.md" && grep -q '^Criterion per boot: ' "$TMP/m.md" &&
                grep -q '^Ordering cycles seen (after): ' "$TMP/m.md"
}

# The after cell of each unit row in a markdown table: "F/K failed" exactly as the outcome table counts the
# failures seen (failed, not run) and the known boots; the worst case only labelled, next to it.
markdown_counts_are_failures() {
        local rc=0
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --format=markdown \
                --boots-started=33 --baseline-boots-started=33 --label=x --baseline-label=y > "$TMP/w.md" || rc=$?
        [ $rc -le 1 ] || return 1
        outcomes_of "$TMP/bookworm-rw.journal" "$TSV" > "$TMP/wo" || return 1
        awk -F'\t' '
                FNR == NR { if ($0 !~ /^#/) { k[$4] += ($5 != "unknown"); f[$4] += ($5 == "failed" || $5 == "not-run"); n[$4]++ } ; next }
                /^[|] [a-z].*[.]service [|]/ {
                        split($0, c, " [|] "); u = substr(c[1], 3); cell = c[3]; rows++
                        want = k[u] ? f[u] "/" k[u] " failed" : "no known outcome"
                        if (index(cell, want) != 1) { print u ": after cell \"" cell "\", want \"" want "\""; bad = 1 }
                        if (k[u] < n[u] && cell !~ /\(worst case [0-9]+\/33\)/) { print u ": worst case not labelled: " cell; bad = 1 }
                        if (f[u] == 0 && $0 ~ /worse/) { print u ": worse without a failure: " $0; bad = 1 }
                }
                END { exit bad || rows == 0 }' "$TMP/wo" "$TMP/w.md"
}

# Without --unit, a unit with no known outcome in one sample is listed as not judged and does not decide.
markdown_not_judged() {
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" --format=markdown --label=x \
                --baseline-label=y > "$TMP/nj.md"
        [ $? -le 1 ] || return 1
        awk '/^[|] [a-z].* [|]/ && ($0 ~ /[|] no (evidence|known outcome)/) { rows++; if ($0 !~ /not judged/) { print; bad = 1 } }
             /^Verdict:/ && /NO DATA/ { print; bad = 1 }
             END { exit bad || rows == 0 }' "$TMP/nj.md"
}

# --boots-started adds a worst case; it never turns a sample without failures into a failed verdict.
worst_case_no_failure() {
        local plain=0 started=0
        bootrace stats --file "$TMP/bookworm-rw.journal" > /dev/null || plain=$?
        bootrace stats --file "$TMP/bookworm-rw.journal" --boots-started=33 --format=markdown > "$TMP/ws.md" || started=$?
        echo "exit $plain without --boots-started, $started with"
        [ "$plain" -le 1 ] && [ "$plain" = "$started" ]
}

# A report never shows a placeholder; a missing label is a warning on stderr.
markdown_no_placeholders() {
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --format=markdown \
                > "$TMP/p.md" 2> "$TMP/p.err"
        [ $? -le 1 ] || return 1
        ! grep -nE '<[a-z][^>]*>|\? started|not given' "$TMP/p.md" &&
                grep -q -- '--label not given' "$TMP/p.err" && grep -q -- '--baseline-label not given' "$TMP/p.err"
}

# Progress with the totals goes to stderr only on a terminal or with --progress (then a line each, and the last
# line always: no timing in the test); the report itself is the same.
progress_totals() {
        local boots
        boots=$(journalctl --file "$J" --list-boots --no-pager | grep -c '^ *-\?[0-9]')
        bootrace stats --file "$J" --unit=racy-varlib.service > "$TMP/np.out" 2> "$TMP/np.err"
        bootrace stats --file "$J" --unit=racy-varlib.service --progress > "$TMP/p.out" 2> "$TMP/p.err"
        cat "$TMP/p.err"
        ! grep -q 'bootrace: read' "$TMP/np.err" && test_cmp "$TMP/np.out" "$TMP/p.out" &&
                tail -n 1 "$TMP/p.err" | grep -qx "bootrace: read sample: [0-9][0-9]* records of $boots boots"
}

junit_xml() {
        local units boots fails
        bootrace stats --file "$J" "${UNITS[@]}" --format=junit > "$TMP/j.xml"
        [ $? -le 1 ] || return 1
        bootrace stats --file "$J" "${UNITS[@]}" --outcomes > "$TMP/o"
        units=${#UNITS[@]}
        boots=$(grep -v '^#' "$TMP/o" | cut -f3 | sort -u | wc -l)
        fails=$(awk -F'\t' '!/^#/ && ($5 == "failed" || $5 == "not-run")' "$TMP/o" | wc -l)
        if command -v xmllint > /dev/null; then
                xmllint --noout "$TMP/j.xml" || return 1
        fi
        [ "$(grep -c '<testcase ' "$TMP/j.xml")" = $((units * boots)) ] &&
                [ "$(grep -c '<failure ' "$TMP/j.xml")" = "$fails" ] &&
                grep -q "<testsuites name=\"bootrace stats\" tests=\"$((units * boots))\" failures=\"$fails\"" "$TMP/j.xml"
}

below_verdict() {
        # racy units that never failed: shown below 50% iff the one-sided bound 1 - 0.05^(1/n) < 0.5, i.e. n >= 5
        bootrace stats --file "$J" "${UNITS[@]}" --outcomes > "$TMP/o2"
        local unit n want
        unit=$(awk -F'\t' '!/^#/ { k[$4] += ($5 != "unknown"); f[$4] += ($5 == "failed") } END { for (u in k) if (!f[u] && k[u]) { print u; exit } }' "$TMP/o2")
        [ -n "$unit" ] || { echo "no clean unit"; return 1; }
        n=$(awk -F'\t' -v u="$unit" '!/^#/ && $4 == u && $5 != "unknown"' "$TMP/o2" | wc -l)
        want=$([ "$n" -ge 5 ] && echo 0 || echo 1)
        expect_exit "$want" bootrace stats --file "$J" --unit="$unit" --below=50% &&
                expect_exit 1 bootrace stats --file "$J" --unit="$unit" --below=0.001
}

# BOOTRACE_JOURNAL_MATCHES=1: the matches stats reads with, in journalctl's syntax (make bench reads the same
# entries with journalctl): every --unit= is in them, and journalctl selects some entries but not all with them
printed_matches() {
        local m n all
        m=$(BOOTRACE_JOURNAL_MATCHES=1 "$BOOTRACE" stats --file "$J" "${UNITS[@]}" 2>&1 > /dev/null |
            sed -n 's/^journal matches: //p')
        [ -n "$m" ] || { echo "no 'journal matches:' line on stderr"; return 1; }
        for u in "${UNITS[@]}"; do
                case " $m " in *" _SYSTEMD_UNIT=${u#--unit=} "*) ;; *) echo "no _SYSTEMD_UNIT=${u#--unit=} in: $m"; return 1 ;; esac
        done
        # shellcheck disable=SC2086 # one match per word
        n=$(journalctl --file "$J" --no-pager -o cat $m | wc -l) || return 1
        all=$(journalctl --file "$J" --no-pager -o cat | wc -l)
        [ "$n" -gt 0 ] && [ "$n" -lt "$all" ] || { echo "journalctl selects $n of $all entries with: $m"; return 1; }
        # without the variable nothing is printed
        ! "$BOOTRACE" stats --file "$J" "${UNITS[@]}" 2>&1 > /dev/null | grep -q '^journal matches:'
}

test_expect "import $SET" import_export $SET
test_expect "import bookworm-rw (the after-sample)" import_export bookworm-rw
if [ -n "$HAVE_JQ" ] || [ "${CI:-}" = true ]; then
        test_expect "JSON: contract fields and their arithmetic" json_contract
        test_expect "JSON with a baseline: comparisons, --below, exit status = verdict" json_baseline
else
        test_skip "JSON: contract fields and their arithmetic" "jq not installed"
        test_skip "JSON with a baseline: comparisons, --below, exit status = verdict" "jq not installed"
fi
test_expect "markdown: SRU verification block" markdown_block
test_expect "markdown: counts shown as failed are failures, the worst case labelled" markdown_counts_are_failures
test_expect "markdown: units without a known outcome in one sample are not judged" markdown_not_judged
test_expect "--boots-started never fails a sample that has no failure" worst_case_no_failure
test_expect "markdown: no placeholders; missing labels are warnings" markdown_no_placeholders
test_expect "BOOTRACE_JOURNAL_MATCHES=1 prints the matches journalctl reads the same entries with" printed_matches
test_expect "--progress: the totals on stderr, only when asked (not a terminal)" progress_totals
test_expect "JUnit: one testcase per unit and boot, failures counted" junit_xml
test_expect "the same journals before and after: not improved, exit 1" \
        expect_exit 1 bootrace stats --baseline-file "$J" --file "$J" "${UNITS[@]}"
test_expect "--below: exit status follows the bound" below_verdict
test_expect "--below=0 is a usage error" \
        expect_error 2 "^bootrace: stats: --below=0: expected a rate .*strictly between 0 and 1" \
        bootrace stats --file "$J" --below=0
test_expect "--below=abc is a usage error" \
        expect_error 2 "^bootrace: stats: --below=abc: expected a rate" bootrace stats --file "$J" --below=abc
test_expect "--format=sarif is not a stats format" \
        expect_error 2 "^bootrace: stats: --format=sarif is not supported" bootrace stats --file "$J" --format=sarif
test_expect "-D twice is a usage error" \
        expect_error 2 "^bootrace: stats: -D given twice" bootrace stats -D "$TMP" -D "$TMP"
test_expect "-D and --file together are a usage error" \
        expect_error 2 "^bootrace: stats: name the journals one way" bootrace stats -D "$TMP" --file "$J"
test_expect "a positional argument is a usage error" \
        expect_error 2 "^bootrace: stats: unexpected argument 'foo.service' \\(units are given with --unit=\\)" \
        bootrace stats --file "$J" foo.service
test_expect "--since in the future selects no boot: no evidence, exit 1" \
        expect_exit 1 bootrace stats --file "$J" --unit=racy-varlib.service --since=2999-01-01
test_expect "--since=@0 selects every boot" sh -c "
        '$BOOTRACE' stats --file '$J' --unit=racy-varlib.service --since=@0 | grep -q ' boots in the journal, '"
