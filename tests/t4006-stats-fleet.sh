#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats --by=machine over a fleet: journals of lab boots rewritten as if five hosts had sent them to
# systemd-journal-remote (one file per host, and one host as a copied /var/log/journal/MACHINE directory).
# Oracles: each machine's counts equal a run over that host's file alone, the overall counts are their sums, and
# the ground truth of the lab ($SHARED/data/racy-*.tsv) says which hosts fail.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require
command -v perl > /dev/null || skip_all "perl not installed (the export rewriter)"
command -v jq > /dev/null || { [ "${CI:-}" = true ] && { echo "Bail out! jq missing in CI"; exit 1; }; skip_all "jq not installed"; }

REWRITE=$(dirname "$0")/export-rewrite.pl
F=$TMP/fleet
UNIT=racy-varlib-jitter.service
id_of() { printf '%s' "$1" | md5sum | cut -c1-32; }
declare -A TSV_OF=([web-1]=rw [web-2]=rw [web-3]=rw [web-4]=ro [web-5]=vm)
HOSTS=(web-1 web-2 web-3 web-4 web-5)

# host NAME SET [BOOT_ID,...] [OUT]: SET's export as sent by host NAME (only the given boots), imported as
# journal-remote writes it: $F/remote-NAME.journal, or OUT
host() {
        local out=${4:-$F/remote-$1.journal}
        mkdir -p "$(dirname "$out")"
        set -o pipefail
        xzcat "$SHARED/data/bookworm-$2.export.xz" | perl "$REWRITE" "$(id_of "$1")" "$1" "${3:-}" |
                "$JOURNAL_REMOTE" -o "$out" - > "$TMP/.import.log" 2>&1 || { cat "$TMP/.import.log"; return 1; }
        [ -s "$out" ]
}

make_fleet() {
        local -a b
        mapfile -t b < <(xzcat "$SHARED/data/bookworm-rw.export.xz" | grep -a '^_BOOT_ID=' | cut -d= -f2 | awk '!s[$0]++')
        [ ${#b[@]} = 33 ] || { echo "${#b[@]} boots in bookworm-rw"; return 1; }
        join() { local IFS=,; echo "$*"; }
        host web-1 rw "$(join "${b[@]:0:11}")" && host web-2 rw "$(join "${b[@]:11:11}")" &&
                host web-3 rw "$(join "${b[@]:22:11}")" &&
                host web-4 ro "" "$F/$(id_of web-4)/system.journal" && host web-5 vm
}

file_of() { [ "$1" = web-4 ] && echo "$F/$(id_of web-4)/system.journal" || echo "$F/remote-$1.journal"; }

rewrite_lossless() {
        # the VM's export has binary fields (messages with newlines): every entry and field survives
        import_export bookworm-vm &&
                [ "$(journalctl --file "$TMP/bookworm-vm.journal" -o export | grep -a -v '^_MACHINE_ID=\|^_HOSTNAME=\|^__CURSOR=' | md5sum)" = \
                  "$(journalctl --file "$(file_of web-5)" -o export | grep -a -v '^_MACHINE_ID=\|^_HOSTNAME=\|^__CURSOR=' | md5sum)" ] &&
                [ "$(journalctl --file "$(file_of web-5)" -o export | grep -a -c "^_HOSTNAME=web-5$")" -gt 20000 ]
}

fleet_json() {
        bootrace stats -D "$F" --by=machine --unit=$UNIT --unit=racy-varlib-after.service --format=json > "$TMP/f.json"
        [ $? -le 1 ]
}

machines_grouped() {
        local h
        jq -e '.sample.by == "machine" and (.sample.machines | length) == 5 and .sample.boots_in_journal == 99 and
               ([.sample.machines[].boots[]] | sort) == [range(1; 100)] and
               ([.sample.machines[].boots_in_journal] | add) == 99' "$TMP/f.json" || return 1
        for h in "${HOSTS[@]}"; do
                jq -e --arg h "$h" --arg id "$(id_of "$h")" --argjson n "$([ "${TSV_OF[$h]}" = rw ] && echo 11 || echo 33)" '
                        [.sample.machines[] | select(.hostname == $h)] | length == 1 and .[0].machine_id == $id and
                        .[0].boots_in_journal == $n and (.[0].boots | length) == $n and .[0].hostnames == [$h]' \
                        "$TMP/f.json" || { echo "machine $h"; return 1; }
        done
}

machines_match_single_runs() {
        local h
        for h in "${HOSTS[@]}"; do
                bootrace stats --file "$(file_of "$h")" --unit=$UNIT --unit=racy-varlib-after.service --format=json \
                        > "$TMP/one.json"
                [ $? -le 1 ] || return 1
                jq -e -n --arg h "$h" --slurpfile f "$TMP/f.json" --slurpfile one "$TMP/one.json" '
                        def counts: {unit, boots, succeeded, failed, skipped, not_run, unknown, failures};
                        ([$f[0].sample.machines[] | select(.hostname == $h) | .units[] | counts]) ==
                        ([$one[0].sample.units[] | counts])' || { echo "machine $h differs from its own run"; return 1; }
        done
}

overall_is_the_sum() {
        jq -e '. as $r | all(.sample.units[]; . as $u |
                   ([$r.sample.machines[].units[] | select(.unit == $u.unit) | .failures] | add) == $u.failures and
                   ([$r.sample.machines[].units[] | select(.unit == $u.unit) | .boots] | add) == $u.boots and
                   ([$r.sample.machines[].units[] | select(.unit == $u.unit) | .unknown] | add) == $u.unknown and
                   $u.machines == 5)' "$TMP/f.json"
}

# truth_failures HOST: failed boots of $UNIT among the host's boots, from lab-report's ground truth
truth_failures() {
        local tsv=$SHARED/data/racy-bookworm-${TSV_OF[$1]}.tsv
        jq -r --arg h "$1" '. as $r | .sample.machines[] | select(.hostname == $h) | .boots[] | . as $i |
                             $r.sample.boots[$i - 1].id' "$TMP/f.json" | sort > "$TMP/boots-$1"
        awk -F'\t' -v u=$UNIT '$2 == u && $3 == "truth" && $4 == "failed" { print $1 }' "$tsv" | sort |
                comm -12 - "$TMP/boots-$1" | wc -l
}

regression_shows() {
        local h t failing=0 n higher
        for h in "${HOSTS[@]}"; do
                t=$(truth_failures "$h")
                n=$(jq --arg h "$h" --arg u $UNIT '.sample.machines[] | select(.hostname == $h) | .units[] |
                                                   select(.unit == $u) | .failures' "$TMP/f.json")
                [ "$t" -gt 0 ] && failing=$((failing + 1))
                # a host that never failed in truth has no failure in the report, and the other way round
                { [ "$t" = 0 ] && [ "$n" = 0 ]; } || { [ "$t" -gt 0 ] && [ "$n" -gt 0 ]; } ||
                        { echo "$h: truth $t, report $n"; return 1; }
        done
        # the hosts whose truth rate is 100 % stand out as higher than the rest; no host without failures does
        higher=$(jq -r --arg u $UNIT '[.sample.machines[] | select(any(.units[]; .unit == $u and .deviates == "higher"))
                                       | .hostname] | join(",")' "$TMP/f.json")
        [ "$higher" = web-5 ] || { echo "higher: $higher"; return 1; }
        jq -e --arg u $UNIT --argjson k $failing '.sample.units[] | select(.unit == $u) |
                .machines_failing == $k and .machines_deviating >= 1' "$TMP/f.json" &&
                jq -e '.verdict.text | test("on 2 of 5 machines; differs on: web-5 33/33 \\(higher")' "$TMP/f.json"
}

text_report() {
        bootrace stats -D "$F" --by=machine --unit=$UNIT > "$TMP/f.txt"
        [ $? = 1 ] || return 1
        grep -q '^Machines (sample; grouped by _MACHINE_ID, named by _HOSTNAME): 5$' "$TMP/f.txt" &&
                [ "$(grep -c "^$(id_of web-1) *web-1 *11 *0$" "$TMP/f.txt")" = 1 ] &&
                grep -q "^$UNIT: failed on 2 of 5 machines" "$TMP/f.txt" &&
                grep -q '^  web-5 .* 33/33 .*higher (p = ' "$TMP/f.txt" &&
                grep -q '^Verdict: FAIL: .* on 2 of 5 machines; differs on: web-5' "$TMP/f.txt"
}

markdown_report() {
        bootrace stats -D "$F" --by=machine --unit=$UNIT --format=markdown > "$TMP/f.md"
        [ $? = 1 ] || return 1
        grep -q '^| unit | host | machine | failed | rate | 95% CI (CP) | vs rest |$' "$TMP/f.md" &&
                [ "$(grep -c "^| $UNIT | web-[1-5] | " "$TMP/f.md")" = 5 ] &&
                grep -q "^| $UNIT | web-5 | .* | 33/33 failed | .*\*\*higher\*\*" "$TMP/f.md"
}

by_boot_default() {
        bootrace stats -D "$F" --unit=$UNIT --format=json > "$TMP/b.json"
        [ $? -le 1 ] || return 1
        jq -e --arg id "$(id_of web-3)" '.sample.by == "boot" and .sample.machines == null and
               (.sample.units[0] | has("machines") | not) and
               ([.sample.boots[] | select(.hostname == "web-3" and .machine_id == $id)] | length) == 11' "$TMP/b.json"
}

test_expect "five hosts' journals as systemd-journal-remote writes them" make_fleet
test_expect "the rewritten export keeps every entry and binary field" rewrite_lossless
test_expect "stats --by=machine over the directory" fleet_json
test_expect "grouped by _MACHINE_ID, named by _HOSTNAME, every boot once (machine-ID subdirectory read)" \
        machines_grouped
test_expect "each machine's counts equal a run over its own journal" machines_match_single_runs
test_expect "the overall counts are the machines' sums" overall_is_the_sum
test_expect "the regression on a subset shows: the failing hosts of the ground truth, the outlier named" \
        regression_shows
test_expect "text: machines and per-machine table, verdict names the machines" text_report
test_expect "markdown: per-machine table" markdown_report
test_expect "without --by: boots carry machine and host, no machine grouping" by_boot_default
test_expect "--by=host is a usage error" expect_exit 2 bootrace stats -D "$F" --by=host
