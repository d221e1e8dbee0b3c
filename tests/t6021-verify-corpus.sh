#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace against systemd-analyze verify over systemd's own unit files: for each lab tree (bullseye 247,
# bookworm 252, trixie 257, forky 262), the units/ and test/ trees and the fuzz-unit-file corpus of the systemd
# source package of that release (tests/systemd-corpus.sh caches them under $LAB_SRV/corpus; .ci/run makes the
# cache) are loaded by the tree's real verify and by bootrace show/graph at the same version. Verdicts (load
# states), the lines warned about and the dependency edges must be equal, except for the differences
# tests/verify-corpus-exceptions.txt lists with their reason. Prints the agreement per version.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
. "$(dirname "$0")/graph-oracle-lib.sh"
. "$(dirname "$0")/verify-corpus-lib.sh"
# all four lab suites; T6021_SUITES="trixie forky" runs some of them
suites=${T6021_SUITES:-bullseye bookworm trixie forky}
# shellcheck disable=SC2086
lab_require $suites
EXC=$top_srcdir/tests/verify-corpus-exceptions.txt

for suite in $suites; do
        if [ ! -f "$(corpus_dir "$suite")/VERSION" ]; then
                if [ "${CI:-}" = true ]; then
                        test_expect "$suite: systemd's unit corpus" sh -c 'echo "no corpus in $1 (tests/systemd-corpus.sh)"; false' _ "$(corpus_dir "$suite")"
                else
                        test_skip "$suite: verify and bootrace agree on systemd's unit corpus" \
                                "no corpus in $(corpus_dir "$suite") (run tests/systemd-corpus.sh $suite)"
                fi
                continue
        fi
        w=$TMP/$suite
        corpus_stage "$suite" "$w"
        corpus_verify "$suite" "$w"
        corpus_bootrace "$suite" "$w"
        corpus_compare "$suite" "$w" "$EXC"
        corpus_summary "$suite" "$w"
        # T6021_KEEP=DIR keeps the staged files, both sides' results and the differences for a look
        [ -z "${T6021_KEEP:-}" ] || { mkdir -p "$T6021_KEEP" && rm -rf "${T6021_KEEP:?}/$suite" && cp -r "$w" "$T6021_KEEP/"; }
        test_expect "$suite: verify and bootrace agree on systemd's unit corpus (but the listed exceptions)" sh -c '
                [ -s "$1/sd.verdicts" ] || { echo "verify gave no verdicts"; exit 1; }
                [ -s "$1/br.verdicts" ] || { echo "bootrace gave no verdicts"; exit 1; }
                [ ! -s "$1/diff" ] || { echo "$(wc -l < "$1/diff") differences:"; head -200 "$1/diff"; exit 1; }' _ "$w"
        test_expect "$suite: every exception listed for $(oracle_version "$suite") still excuses a difference" sh -c '
                [ ! -s "$1/stale" ] || { echo "stale entries of verify-corpus-exceptions.txt:"; cat "$1/stale"; exit 1; }' _ "$w"
done
