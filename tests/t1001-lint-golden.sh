#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden cases for `bootrace lint`, one directory per check and version case: fixtures/lint/CASE/ holds
#   units/           the unit directory given as PATH (as a package would ship it)
#   root/ or root-from   an optional --root tree (symlinks listed in "symlinks"), used when args say --root=root
#   args             the options;  expected: stdout (text);  expected-exit (default 0)
# BOOTRACE_UPDATE_GOLDEN=DIR writes fresh outputs into DIR/CASE/ for review (never into the source tree).
. "$(dirname "$0")/lib.sh"

run_case() {
        local dir=$1 out=$TMP/$2 rc=0 want
        mkdir -p "$out"
        want=$(cat "$dir/expected-exit" 2> /dev/null || echo 0)
        cp -R "$dir/units" "$out/units"
        if [ -d "$dir/root" ] || [ -f "$dir/root-from" ]; then fixture_root "$dir" "$out/root"; fi
        # shellcheck disable=SC2046 # args is a word list on purpose
        (cd "$out" && ${WRAPPER:-} "$BOOTRACE" lint $(cat "$dir/args") units) > "$out/stdout" 2> "$out/stderr" ||
                rc=$?
        if [ -n "${BOOTRACE_UPDATE_GOLDEN:-}" ]; then
                mkdir -p "$BOOTRACE_UPDATE_GOLDEN/$2"
                cp "$out/stdout" "$BOOTRACE_UPDATE_GOLDEN/$2/expected"
                echo $rc > "$BOOTRACE_UPDATE_GOLDEN/$2/expected-exit"
        fi
        [ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$out/stdout" "$out/stderr"; return 1; }
        test_cmp "$dir/expected" "$out/stdout"
}

for dir in "$FIXTURES"/lint/*/; do
        dir=${dir%/}
        test_expect "lint $(basename "$dir")" run_case "$dir" "$(basename "$dir")"
done
