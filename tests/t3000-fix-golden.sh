#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden cases for `bootrace fix`, one directory per race class: fixtures/fix/CASE/ holds
#   units/           unit files given as PATH (as a package ships them)
#   root/, symlinks  an optional --root tree (symlinks: "PATH TARGET" lines)
#   args             the arguments after "fix" (options, then PATH|UNIT), run in a copy of the case
#   expected.diff    stdout: the '#' report lines and the unified diff (patch -p0 input)
#   expected-exit    the exit status, default 1
# and for every case with a repair, the proof: the printed diff applies with patch -p0 and git apply -p0, after it
# `bootrace lint` is clean for every target (a new ordering cycle would go through the repaired unit and be
# flagged there), `fix` then finds nothing (idempotence), and --write gives exactly the patched tree, leaves no
# temporary file behind and, for a drop-in, `bootrace show` merges it.
# BOOTRACE_UPDATE_GOLDEN=DIR writes fresh outputs into DIR/CASE/ for review (never into the source tree).
. "$(dirname "$0")/lib.sh"

command -v patch > /dev/null || skip_all "patch is not installed"

# copy_case CASEDIR DEST: the case's units and root, as the tests run them
copy_case() {
        mkdir -p "$2"
        [ -d "$1/units" ] && cp -R "$1/units" "$2/units"
        if [ -d "$1/root" ] || [ -f "$1/root-from" ]; then fixture_root "$1" "$2/root"; fi
        chmod -R u+w "$2"
}

# lint_clean DIR ARGS...: lint is clean for every --target of ARGS (or its --systemd), in DIR
lint_clean() {
        local dir=$1 targets=() rest=() a rc; shift
        for a in "$@"; do
                case $a in
                --target=*) targets+=("$a") ;;
                --drop-in | --write) ;;
                -*) rest+=("$a") ;;
                */*) rest+=("$a") ;;
                *) ;; # a UNIT under --root: lint checks every unit of the root then
                esac
        done
        [ ${#targets[@]} -gt 0 ] || targets=("")
        for a in "${targets[@]}"; do
                rc=0
                (cd "$dir" && "$BOOTRACE" lint -q "${rest[@]}" ${a:+"$a"}) > "$dir/lint.out" 2>&1 || rc=$?
                [ $rc = 0 ] || { echo "lint ${a:-} after the repair: exit $rc"; cat "$dir/lint.out"; return 1; }
        done
}

run_golden() {
        local dir=$1 out=$TMP/$2/golden rc=0 want
        want=$(cat "$dir/expected-exit" 2> /dev/null || echo 1)
        copy_case "$dir" "$out"
        # shellcheck disable=SC2046 # args is a word list on purpose
        (cd "$out" && "$BOOTRACE" fix $(cat "$dir/args")) > "$out.stdout" 2> "$out.stderr" || rc=$?
        if [ -n "${BOOTRACE_UPDATE_GOLDEN:-}" ]; then
                mkdir -p "$BOOTRACE_UPDATE_GOLDEN/$2"
                cp "$out.stdout" "$BOOTRACE_UPDATE_GOLDEN/$2/expected.diff"
        fi
        [ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$out.stdout" "$out.stderr"; return 1; }
        test_cmp "$dir/expected.diff" "$out.stdout"
}

run_patch() {
        local dir=$1 out=$TMP/$2/patched rc=0
        copy_case "$dir" "$out"
        (cd "$out" && patch -p0 --batch --quiet) < "$dir/expected.diff" || { echo "patch -p0 failed"; return 1; }
        # shellcheck disable=SC2046
        lint_clean "$out" $(cat "$dir/args") || return 1
        # shellcheck disable=SC2046
        (cd "$out" && "$BOOTRACE" fix -q $(cat "$dir/args")) > "$out.again" 2> "$out.again.err" || rc=$?
        [ $rc = 0 ] || { echo "fix after the repair: exit $rc, expected 0"; cat "$out.again" "$out.again.err"; return 1; }
        [ ! -s "$out.again" ] || { echo "fix after the repair printed:"; cat "$out.again"; return 1; }
}

run_git_apply() {
        local dir=$1 out=$TMP/$2/git-applied
        copy_case "$dir" "$out"
        # outside any git repository git apply works like patch (a repository above TMP must not be found)
        (cd "$out" && GIT_CEILING_DIRECTORIES=$TMP git apply -p0) < "$dir/expected.diff" ||
                { echo "git apply -p0 failed"; return 1; }
        diff -r --no-dereference "$TMP/$2/patched" "$out" -x lint.out
}

run_write() {
        local dir=$1 out=$TMP/$2/written rc=0
        copy_case "$dir" "$out"
        # shellcheck disable=SC2046
        (cd "$out" && "$BOOTRACE" fix --write $(cat "$dir/args")) > "$out.stdout" 2>&1 || rc=$?
        [ $rc = 1 ] || { echo "fix --write: exit $rc, expected 1"; cat "$out.stdout"; return 1; }
        grep -q '^# wrote ' "$out.stdout" || { echo "no '# wrote' line"; cat "$out.stdout"; return 1; }
        ! find "$out" -name '.#*' | grep . || { echo "temporary files left behind"; return 1; }
        diff -r --no-dereference "$TMP/$2/patched" "$out" -x lint.out || { echo "--write differs from the patched copy"; return 1; }
        rc=0
        # shellcheck disable=SC2046
        (cd "$out" && "$BOOTRACE" fix -q $(cat "$dir/args")) > "$out.again" 2> "$out.again.err" || rc=$?
        [ $rc = 0 ] && [ ! -s "$out.again" ] ||
                { echo "a second fix: exit $rc"; cat "$out.again" "$out.again.err"; return 1; }
}

# the drop-in is merged: show lists it after the fragment, and what it adds is a dependency from it
run_show_dropin() {
        local dir=$1 out=$TMP/$2/written dropin unit rootopt=() a added
        dropin=$(sed -n 's/^+++ //p' "$dir/expected.diff")
        for a in $(cat "$dir/args"); do
                case $a in
                --root=*) rootopt=("$a") ;;
                --target=*) rootopt+=("$a") ;;
                -*) ;;
                *) unit=$a ;;
                esac
        done
        (cd "$out" && "$BOOTRACE" show "${rootopt[@]}" "$unit") > "$out.show" 2>&1 || { cat "$out.show"; return 1; }
        grep -q "^Drop-in: .*$dropin\$" "$out.show" || { echo "show does not list $dropin"; cat "$out.show"; return 1; }
        # the fragment comes first, the drop-in after it
        [ "$(grep -n '^Fragment: ' "$out.show" | cut -d: -f1)" -lt "$(grep -n '^Drop-in: ' "$out.show" | cut -d: -f1 | tail -1)" ] ||
                { echo "drop-in listed before the fragment"; return 1; }
        added=$(sed -n 's/^+\(After\|RequiresMountsFor\|PrivateTmp\)=/\1=/p' "$dir/expected.diff" | head -1)
        [ -n "$added" ] || return 0
        grep -q "^${added%%=*}=${added#*=} .*bootrace-fix.conf:" "$out.show" ||
                { echo "$added is not effective from the drop-in"; cat "$out.show"; return 1; }
}

for dir in "$FIXTURES"/fix/*/; do
        dir=${dir%/}
        name=$(basename "$dir")
        test_expect "fix $name: golden output" run_golden "$dir" "$name"
        if ! grep -q '^+++ ' "$dir/expected.diff"; then
                continue
        fi
        test_expect "fix $name: patch -p0 applies it, lint is clean after it, a second fix finds nothing" \
                run_patch "$dir" "$name"
        if command -v git > /dev/null; then
                test_expect "fix $name: git apply -p0 gives the same tree" run_git_apply "$dir" "$name"
        else
                test_skip "fix $name: git apply -p0 gives the same tree" "git is not installed"
        fi
        test_expect "fix $name: --write gives the same tree, atomically, and a second run changes nothing" \
                run_write "$dir" "$name"
        if grep -q -- '--drop-in' "$dir/args"; then
                test_expect "fix $name: show merges the drop-in" run_show_dropin "$dir" "$name"
        fi
done
