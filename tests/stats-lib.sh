# SPDX-License-Identifier: LGPL-2.1-or-later
# stats-lib.sh - sourced by the tests/t4*-stats-*.sh scripts after lib.sh: importing journal exports with
# systemd-journal-remote, and reading the lab's ground truth ($SHARED/data/README.md).
#   stats_require              skip the script unless systemd-journal-remote, xzcat and $SHARED/data exist
#                              (in CI, CI=true, their absence is an error)
#   import_export NAME [FILE]  $SHARED/data/NAME.export.xz, or the export text FILE, -> $TMP/NAME.journal
#   truth_units TSV            the units of a racy-*.tsv as --unit= options
#   outcomes_of JOURNAL TSV    bootrace's per-boot outcome table for the TSV's units -> stdout

JOURNAL_REMOTE=
for _p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
        [ -x "$_p" ] && { JOURNAL_REMOTE=$_p; break; }
done

stats_require() {
        local missing=
        [ -n "$JOURNAL_REMOTE" ] || missing="systemd-journal-remote (Debian package systemd-journal-remote)"
        command -v xzcat > /dev/null || missing="${missing:+$missing, }xzcat (package xz-utils)"
        command -v journalctl > /dev/null || missing="${missing:+$missing, }journalctl"
        [ -d "$SHARED/data" ] || missing="${missing:+$missing, }the data sets in $SHARED/data"
        [ -z "$missing" ] && return 0
        if [ "${CI:-}" = true ]; then
                echo "Bail out! missing in CI: $missing"
                _test_skip_all=1 _test_exit_rc=1
                exit 1
        fi
        skip_all "missing $missing"
}

import_export() {
        local out="$TMP/$1.journal"
        rm -f "$out"
        if [ -n "${2:-}" ]; then
                "$JOURNAL_REMOTE" -o "$out" "$2" > "$TMP/.import.log" 2>&1
        else
                xzcat "$SHARED/data/$1.export.xz" | "$JOURNAL_REMOTE" -o "$out" - > "$TMP/.import.log" 2>&1
        fi || { cat "$TMP/.import.log"; return 1; }
        [ -s "$out" ]
}

truth_units() {
        grep -v '^#' "$1" | cut -f2 | sort -u | sed 's/^/--unit=/'
}

outcomes_of() {
        # shellcheck disable=SC2046 # one --unit= per word
        bootrace stats --file "$1" $(truth_units "$2") --outcomes "${@:3}"
        [ $? -le 1 ]
}
