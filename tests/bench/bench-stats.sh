#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace stats over a journal of 100+ boots (every export in $SHARED/data imported into one directory, one
# file each, distinct boot IDs) against `journalctl -D DIR MESSAGE_ID=… -o cat` over the same files: the
# structured "Failed with result" records, which is what one greps by hand. Prints both times (best of N runs)
# and their ratio; and, since stats checks every file for damage before reading it, the ratio to
# `journalctl --verify` plus a full `journalctl -o cat` scan.
set -u
: "${SHARED:?}" "${BOOTRACE:?}"
RUNS=${BENCH_RUNS:-5}
JR=
for p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
        [ -x "$p" ] && { JR=$p; break; }
done
[ -n "$JR" ] || { echo "skipped: systemd-journal-remote is not installed"; exit 0; }
[ -d "$SHARED/data" ] || { echo "skipped: no $SHARED/data"; exit 0; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bootrace-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/journal"
for x in "$SHARED"/data/*.export.xz; do
        n=$(basename "$x" .export.xz)
        xzcat "$x" | "$JR" -o "$TMP/journal/$n.journal" - > /dev/null 2>&1 || { echo "import of $n failed"; exit 1; }
done
boots=$(journalctl -D "$TMP/journal" --list-boots --no-pager | grep -c '^ *-\?[0-9]')
entries=$(journalctl -D "$TMP/journal" --no-pager -o cat | wc -l)
echo "journal: $(ls "$TMP/journal" | wc -l) files, $boots boots, $entries entries"

# best wall-clock time of RUNS runs of a command, in seconds
best() {
        local b='' t0 t1 t
        for _ in $(seq "$RUNS"); do
                t0=$(date +%s.%N)
                "$@" > /dev/null 2>&1
                t1=$(date +%s.%N)
                t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
                if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
        done
        echo "$b"
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
units=$(for x in "$SHARED"/data/racy-*.tsv; do grep -v '^#' "$x" | cut -f2; done | sort -u | sed 's/^/--unit=/')
# shellcheck disable=SC2086
t_units=$(best "$BOOTRACE" stats -D "$TMP/journal" $units)
t_all=$(best "$BOOTRACE" stats -D "$TMP/journal")
t_jctl=$(best journalctl -D "$TMP/journal" --no-pager MESSAGE_ID=d9b373ed55a64feb8242e02dbe79a49c -o cat)
t_jctl_all=$(best journalctl -D "$TMP/journal" --no-pager -o cat)
# stats checks every file for damage first, as journalctl --verify does (without its FSS part)
t_verify=$(best journalctl -D "$TMP/journal" --verify --no-pager)
# the entries stats reads, as journalctl reads them: bootrace prints its matches in journalctl's syntax
# shellcheck disable=SC2086
matches=$(BOOTRACE_JOURNAL_MATCHES=1 "$BOOTRACE" stats -D "$TMP/journal" $units 2>&1 > /dev/null |
          sed -n 's/^journal matches: //p')
[ -n "$matches" ] || { echo "bootrace stats printed no matches (BOOTRACE_JOURNAL_MATCHES=1)"; exit 1; }
# shellcheck disable=SC2086
matched=$(journalctl -D "$TMP/journal" --no-pager -o cat $matches | wc -l)
# shellcheck disable=SC2086
t_jctl_matched=$(best journalctl -D "$TMP/journal" --no-pager -o cat $matches)
t_json=$(best journalctl -D "$TMP/journal" --no-pager -o json)
printf 'bootrace stats --unit (%d units):  %6.3f s\n' "$(echo "$units" | wc -w)" "$t_units"
printf 'bootrace stats (every unit):       %6.3f s\n' "$t_all"
printf 'journalctl MESSAGE_ID=d9b373ed…:    %6.3f s\n' "$t_jctl"
printf 'journalctl -o cat (every entry):   %6.3f s\n' "$t_jctl_all"
printf 'journalctl --verify:               %6.3f s\n' "$t_verify"
printf 'journalctl -o cat, stats --unit'"'"'s matches (%d entries): %6.3f s\n' "$matched" "$t_jctl_matched"
printf 'journalctl -o json (every entry):  %6.3f s\n' "$t_json"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo "load average before the runs: $load"
echo "ratio stats --unit / journalctl -o cat of the same matches (target <= 1.5): $(ratio "$t_units" "$t_jctl_matched")"
echo "ratio stats --unit / journalctl -o json of every entry (target <= 0.2): $(ratio "$t_units" "$t_json")"
echo "ratio stats --unit / journalctl MESSAGE_ID: $(ratio "$t_units" "$t_jctl")"
echo "ratio stats (every unit) / journalctl MESSAGE_ID: $(ratio "$t_all" "$t_jctl")"
echo "ratio stats (every unit) / (journalctl --verify + journalctl -o cat): $(ratio "$t_all" \
        "$(awk -v a="$t_verify" -v b="$t_jctl_all" 'BEGIN { print a + b }')")"
