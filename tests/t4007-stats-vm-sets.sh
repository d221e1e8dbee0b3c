#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats on the VM journal sets of fixtures/journals/ (README there; made once by tests/lab-vm-set.sh): trixie (257)
# and forky (262) booted with / read-only and a unit set that has every outcome. Each set's truth was logged from
# inside the VM (bt-report: PID 1's own unit properties), its boots table counts every boot started, lost ones
# too. Per unit and boot, bootrace's outcome and result must equal the truth; the boots it finds must be the boots
# table's "in the journal" ones, the others missing; the race evidence must time each racing unit's failures
# before the one job its failure waited for.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"

missing=
[ -n "$JOURNAL_REMOTE" ] || missing="systemd-journal-remote (Debian package systemd-journal-remote)"
command -v xzcat > /dev/null || missing="${missing:+$missing, }xzcat (package xz-utils)"
if [ -n "$missing" ]; then
        [ "${CI:-}" = true ] && { echo "Bail out! missing in CI: $missing"; _test_skip_all=1 _test_exit_rc=1; exit 1; }
        skip_all "missing $missing"
fi

SETS=(trixie-vm forky-vm)
D=$FIXTURES/journals

set_files() { # SET: the three files are there and the truth has rows
        local f
        for f in export.xz truth.tsv boots.tsv; do [ -s "$D/$1.$f" ] || { echo "$D/$1.$f missing"; return 1; }; done
        grep -q '^[0-9a-f]\{32\}	yes	' "$D/$1.truth.tsv"
}

import() { # SET
        xzcat "$D/$1.export.xz" > "$TMP/$1.export" && import_export "$1" "$TMP/$1.export"
}

outcomes() { # SET: bootrace's table for every unit of the truth
        # shellcheck disable=SC2046 # one --unit= per word
        bootrace stats --file "$TMP/$1.journal" $(awk -F'\t' '$2 == "yes" { print "--unit=" $3 }' "$D/$1.truth.tsv" |
                sort -u) --outcomes > "$TMP/$1.out"
        [ $? -le 1 ] && grep -qv '^#' "$TMP/$1.out"
}

equal_truth() { # SET: boot, unit, outcome, result of every truth row of a boot in the journal
        # a unit of the set that was not in a boot at all (bt-flushcycle outside the flushcycle boots: nothing
        # pulls it in, so bt-report has no row for it) has no evidence in that boot: "unknown"
        awk -F'\t' '$2 == "yes" { print $1 "\t" $3 "\t" $4 "\t" $5; b[$1]; u[$3]; had[$1 "\t" $3] }
                END { for (x in b) for (y in u) if (!((x "\t" y) in had)) print x "\t" y "\tunknown\t-" }' \
                "$D/$1.truth.tsv" | sort > "$TMP/want"
        [ -s "$TMP/want" ] || return 1
        awk -F'\t' '!/^#/ { print $3 "\t" $4 "\t" $5 "\t" $6 }' "$TMP/$1.out" | sort > "$TMP/got"
        test_cmp "$TMP/want" "$TMP/got"
}

exit_status_equal() { # SET: a failed unit's exit status or signal is its main process's (truth: exec_main)
        # exec_main is ExecMainCode/ExecMainStatus: code 1 = exited (status: the exit status), 2 = killed, 3 = dumped
        awk -F'\t' '$2 == "yes" && $4 == "failed" && $8 ~ /^[123]\/[1-9]/ { sub(/^.\//, "", $8); print $1, $3, $8 }' \
                "$D/$1.truth.tsv" | sort > "$TMP/want"
        [ -s "$TMP/want" ] || { echo "no failed unit with a main process exit in the truth"; return 1; }
        awk -F'\t' '!/^#/ && $5 == "failed" && $7 != "-" { sub(/\/.*/, "", $7); print $3, $4, $7 }' "$TMP/$1.out" |
                sort > "$TMP/got"
        test_cmp "$TMP/want" "$TMP/got"
}

every_outcome() { # SET: the set has what it was made for
        local o
        for o in "succeeded	-" "failed	exit-code" "failed	signal" "failed	core-dump" "failed	timeout" \
                "failed	watchdog" "failed	resources" "failed	start-limit-hit" "failed	assert" \
                "skipped	condition" "skipped	exec-condition" "not-run	dependency" "not-run	deleted-by-cycle"; do
                awk -F'\t' '$2 == "yes" { print $4 "\t" $5 }' "$D/$1.truth.tsv" | grep -qxF "$o" ||
                        { echo "no unit-boot with outcome '$o' in the truth"; return 1; }
        done
        awk -F'\t' '/^[0-9]/ && $5 == "no"' "$D/$1.boots.tsv" | grep -q . || { echo "no lost boot"; return 1; }
}

boots_equal() { # SET: bootrace's boots = the boots table's in-journal ones, in order; the others are missing
        local started injournal
        started=$(grep -c '^[0-9]' "$D/$1.boots.tsv")
        injournal=$(awk -F'\t' '/^[0-9]/ && $5 == "yes"' "$D/$1.boots.tsv" | wc -l)
        awk -F'\t' '/^[0-9]/ && $5 == "yes" { print $2 }' "$D/$1.boots.tsv" > "$TMP/want"
        awk -F'\t' '!/^#/ && !s[$3]++ { print $3 }' "$TMP/$1.out" > "$TMP/got"
        test_cmp "$TMP/want" "$TMP/got" || return 1
        bootrace stats --file "$TMP/$1.journal" --unit=bt-ok.service --boots-started="$started" > "$TMP/text"
        grep -E ": $injournal boots? in the journal of $started started \($((started - injournal)) missing\)," \
                "$TMP/text" && grep -F ' missing), 0 incomplete;' "$TMP/text"
}

version_read() { # SET: the systemd version of the truth's header is the one bootrace reads
        local v
        v=$(sed -n '1s/^# [^:]*: systemd \([^ ,]*\),.*/\1/p' "$D/$1.truth.tsv")
        [ -n "$v" ] && grep -F "systemd $v;" "$TMP/text"
}

race_anchor() { # SET UNIT ANCHOR: UNIT failed in some boots, each time started before ANCHOR finished
        local f
        f=$(awk -F'\t' -v u="$2" '$2 == "yes" && $3 == u && $4 == "failed"' "$D/$1.truth.tsv" | wc -l)
        echo "$2: $f failing boots in the truth"
        [ "$f" -gt 0 ] || return 1
        bootrace stats --file "$TMP/$1.journal" --unit="$2" > "$TMP/race"
        sed -n '/^Race evidence/,/^$/p' "$TMP/race" |
                grep -F "    $3 finished: started before it in $f of $f boots"
}

for set in "${SETS[@]}"; do
        test_expect "$set: the export, its truth and its boots table" set_files "$set"
        test_expect "$set: import the export" import "$set"
        test_expect "$set: bootrace reads the journal" outcomes "$set"
        test_expect "$set: the set has every outcome and a lost boot" every_outcome "$set"
        test_expect "$set: every unit in every boot equals the truth (outcome and result)" equal_truth "$set"
        test_expect "$set: a failed unit's exit status is its main process's" exit_status_equal "$set"
        test_expect "$set: the boots are the boots table's; the lost ones are missing" boots_equal "$set"
        test_expect "$set: systemd's version is read from the journal" version_read "$set"
        test_expect "$set: bt-early-erofs failed before the remount of /" \
                race_anchor "$set" bt-early-erofs.service systemd-remount-fs.service
        test_expect "$set: bt-race failed before the remount of /" \
                race_anchor "$set" bt-race.service systemd-remount-fs.service
        test_expect "$set: bt-race-tmpfiles failed before tmpfiles made its directory" \
                race_anchor "$set" bt-race-tmpfiles.service systemd-tmpfiles-setup.service
done
