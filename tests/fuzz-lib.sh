# SPDX-License-Identifier: LGPL-2.1-or-later
# fuzz-lib.sh - sourced after lib.sh by the tests/t9NNN-fuzz-*.sh scripts.
#   fuzz_replay TARGET CORPUS...   runs every input of the corpus directories through tests/fuzz/TARGET (built
#                                  with a replay main in a normal build, under $WRAPPER) and passes its TAP lines
#                                  through; a crash, a sanitizer report or an empty corpus fails the script.

fuzz_replay() {
        local target=$1 out rc=0 n; shift
        out=$(${WRAPPER:-} "$top_builddir/tests/fuzz/$target" "$@" 2>&1) || rc=$?
        printf '%s\n' "$out" | grep -v '^1\.\.' | sed -E '/^(not )?ok /!s/^/# /'
        n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ') || true
        _test_n=$n
        printf '%s\n' "$out" | grep -q '^not ok ' && _test_failed=1
        if [ "$rc" != 0 ] || [ "$n" = 0 ]; then
                _test_failed=1
                _test_n=$((_test_n + 1))
                echo "not ok $_test_n - $target exited with $rc on $*"
        fi
}
