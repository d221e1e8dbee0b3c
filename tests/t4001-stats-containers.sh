#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats on the container journals ($SHARED/data): PID 1 logs nothing there before journald runs, so the journal
# lacks many outcomes. Every failure the journal records must be found (structured records, and the units' own
# "Read-only file system" output, found here independently with journalctl), no unit is counted as succeeded
# without a record of it, and what has no evidence is unknown, never clean. Boots the harness started but the
# journal lost (cycle-*.tsv) are reported as missing. Ground truth is read from the TSVs at test time.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

# keys "BOOT<tab>UNIT" of the unit-boots whose failure the journal records, by the lab's own accounting
recorded_failures() {
        awk -F'\t' '!/^#/ && ($3 == "unitres" || $3 == "jobfail" || $3 == "kmsg") { print $1 "\t" $2 }' "$1" | sort -u
}

# keys of unit-boots whose own output says "Read-only file system", read with journalctl (not bootrace)
erofs_lines() {
        journalctl --file "$1" --no-pager -o export _TRANSPORT=stdout _TRANSPORT=syslog |
                awk 'BEGIN { RS = ""; FS = "\n" }
                     /\nMESSAGE=[^\n]*Read-only file system/ {
                        b = u = ""
                        for (i = 1; i <= NF; i++) {
                                if ($i ~ /^_BOOT_ID=/) b = substr($i, 10)
                                if ($i ~ /^_SYSTEMD_UNIT=/) u = substr($i, 15)
                        }
                        if (b != "" && u != "") print b "\t" u
                     }' | sort -u
}

ours() { # OUTCOMES-FILE OUTCOME: keys with that outcome
        awk -F'\t' -v o="$2" '!/^#/ && $5 == o { print $3 "\t" $4 }' "$1" | sort -u
}

truth_failed() {
        awk -F'\t' '!/^#/ && $3 == "truth" && $4 == "failed" { print $1 "\t" $2 }' "$1" | sort -u
}

all_found() { # TSV OUTCOMES JOURNAL
        local units
        units=$(grep -v '^#' "$1" | cut -f2 | sort -u)
        { recorded_failures "$1"; erofs_lines "$3" | grep -F -f <(echo "$units"); } | sort -u > "$TMP/recorded"
        ours "$2" failed > "$TMP/ours-failed"
        comm -23 "$TMP/recorded" "$TMP/ours-failed" > "$TMP/missed"
        echo "recorded failures: $(wc -l < "$TMP/recorded"), missed: $(wc -l < "$TMP/missed")"
        [ -s "$TMP/recorded" ] || [ "$(truth_failed "$1" | wc -l)" = 0 ] || return 1
        [ ! -s "$TMP/missed" ] || { cat "$TMP/missed"; return 1; }
}

no_contradiction() { # TSV OUTCOMES
        truth_failed "$1" > "$TMP/truth-failed"
        ours "$2" failed > "$TMP/f"
        ours "$2" succeeded > "$TMP/s"
        ours "$2" not-run > "$TMP/n"
        echo "failed but clean in truth:"; comm -23 "$TMP/f" "$TMP/truth-failed" | tee "$TMP/bad1"
        echo "succeeded or not run but failed in truth:"; cat "$TMP/s" "$TMP/n" | sort | comm -12 - "$TMP/truth-failed" | tee "$TMP/bad2"
        [ ! -s "$TMP/bad1" ] && [ ! -s "$TMP/bad2" ]
}

success_has_evidence() { # OUTCOMES: "succeeded" only with a manager record; no record at all means unknown
        awk -F'\t' '!/^#/ && (($5 == "succeeded" && $8 !~ /structured|text|kernel/) || ($8 == "-" && $5 != "unknown"))' \
                "$1" > "$TMP/bad"
        [ ! -s "$TMP/bad" ] || { cat "$TMP/bad"; return 1; }
}

without_inference() { # TSV JOURNAL: with --output-signature= failures are exactly the structured failure records
        bootrace stats --file "$2" $(truth_units "$1") --output-signature= --outcomes > "$TMP/strict"
        ours "$TMP/strict" failed > "$TMP/strict-failed"
        awk -F'\t' '!/^#/ && ($3 == "unitres" || $3 == "jobfail") { print $1 "\t" $2 }' "$1" | sort -u > "$TMP/structured"
        test_cmp "$TMP/structured" "$TMP/strict-failed"
}

missing_boots() { # SET JOURNAL CYCLE-TSV
        local started lost in_journal
        started=$(awk -F'\t' 'NR > 1 { print $1 }' "$3" | sort -u | wc -l)
        lost=$(awk -F'\t' 'NR > 1 && $2 == "no" { print $1 }' "$3" | sort -u | wc -l)
        in_journal=$(awk -F'\t' 'NR > 1 && $2 == "yes" { print $1 }' "$3" | sort -u | wc -l)
        echo "started $started, lost $lost, in the journal $in_journal"
        bootrace stats --file "$2" --unit=racy-ptmp-early.service --boots-started="$started" > "$TMP/missing" || true
        grep -q ": $in_journal boots in the journal of $started started ($lost missing)" "$TMP/missing" &&
                grep -q "worst case (unknown and missing boots failed)" "$TMP/missing" &&
                grep -q "^Missing boots (sample): $lost started but not in the journal" "$TMP/missing"
}

read_set() { # JOURNAL TSV OUT
        outcomes_of "$1" "$2" > "$3" && grep -qv '^#' "$3"
}

for SET in bookworm-ro bookworm-rw bullseye-ro bookworm-cycle bullseye-cycle; do
        TSV=$SHARED/data/racy-$SET.tsv
        J=$TMP/$SET.journal
        if [ ! -f "$SHARED/data/$SET.export.xz" ] || [ ! -f "$TSV" ]; then
                test_skip "$SET" "data set not in $SHARED/data"
                continue
        fi
        test_expect "$SET: import" import_export "$SET"
        test_expect "$SET: bootrace reads it" read_set "$J" "$TSV" "$TMP/$SET.out"
        test_expect "$SET: every failure the journal records is found" all_found "$TSV" "$TMP/$SET.out" "$J"
        test_expect "$SET: no outcome contradicts the ground truth" no_contradiction "$TSV" "$TMP/$SET.out"
        test_expect "$SET: no success without evidence; no evidence is unknown" success_has_evidence "$TMP/$SET.out"
        test_expect "$SET: without inference, failures are the structured records" without_inference "$TSV" "$J"
        case $SET in
        *-cycle)
                test_expect "$SET: boots the journal lost are reported missing" \
                        missing_boots "$SET" "$J" "$SHARED/data/cycle-${SET%-cycle}.tsv" ;;
        esac
done
