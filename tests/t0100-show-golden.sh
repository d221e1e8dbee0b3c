#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden cases for `bootrace show`, one directory per syntax or loading rule: fixtures/show/CASE/ holds
#   root/            the tree given as --root (copied to a temporary directory; symlinks are listed in the file
#                    symlinks, and root-from names another case whose tree is shared)
#   args             the rest of the command line
#   expected         stdout;  expected-stderr: stderr;  expected-exit: exit status (default 0)
# BOOTRACE_UPDATE_GOLDEN=DIR writes fresh outputs into DIR/CASE/ for review (never into the source tree).
. "$(dirname "$0")/lib.sh"

run_case() {
        local dir=$1 out=$TMP/$2 rc=0 want
        mkdir -p "$out"
        want=$(cat "$dir/expected-exit" 2> /dev/null || echo 0)
        fixture_root "$dir" "$out/root"
        # shellcheck disable=SC2046 # args is a word list on purpose
        (cd "$out" && "$BOOTRACE" show --root=root $(cat "$dir/args")) > "$out/stdout" 2> "$out/stderr" ||
                rc=$?
        if [ -n "${BOOTRACE_UPDATE_GOLDEN:-}" ]; then
                mkdir -p "$BOOTRACE_UPDATE_GOLDEN/$2"
                cp "$out/stdout" "$BOOTRACE_UPDATE_GOLDEN/$2/expected"
                cp "$out/stderr" "$BOOTRACE_UPDATE_GOLDEN/$2/expected-stderr"
                echo $rc > "$BOOTRACE_UPDATE_GOLDEN/$2/expected-exit"
        fi
        [ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$out/stderr"; return 1; }
        test_cmp "$dir/expected" "$out/stdout" || return 1
        if [ -f "$dir/expected-stderr" ]; then test_cmp "$dir/expected-stderr" "$out/stderr" || return 1; fi
}

for dir in "$FIXTURES"/show/*/; do
        dir=${dir%/}
        case=$(basename "$dir")
        test_expect "show $case" run_case "$dir" "$case"
done

