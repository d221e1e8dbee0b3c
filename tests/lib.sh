# SPDX-License-Identifier: LGPL-2.1-or-later
# lib.sh - shared by the tests/tNNNN-*.sh scripts: TAP output, a temporary directory per script,
# and helpers to run the built bootrace. Sourced; the plan is printed when the script exits.
#   test_expect NAME CMD...     ok if CMD succeeds
#   test_expect_fail NAME CMD...  ok if CMD fails
#   test_cmp EXPECTED ACTUAL    diff -u, for use inside test_expect
#   test_skip NAME REASON       ok N # SKIP REASON
#   skip_all REASON             1..0 # SKIP REASON, exit 77
#   as_nobody_prepare, as_nobody  run bootrace as another user (uid 65534), with copies it can reach
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BOOTRACE:=$top_builddir/bootrace}"
export BOOTRACE_RULES_DIR="${BOOTRACE_RULES_DIR:-$top_srcdir/rules}"
export LC_ALL=C NO_COLOR=1
SHARED=${SHARED:-$top_srcdir/../shared}
[ -d "$SHARED" ] || SHARED=$(cd "$top_srcdir/.." && pwd)/shared
LAB=$SHARED/lab
FIXTURES=$top_srcdir/fixtures

_test_n=0
_test_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bootrace-test.XXXXXX")
export TMP
_test_exit() {
        local rc=$?
        _test_valgrind_logs
        rm -rf "$TMP"
        if [ "${_test_skip_all:-0}" = 0 ]; then
                echo "1..$_test_n"
                [ $_test_failed = 0 ] || exit 1
                exit 0
        fi
        exit "${_test_exit_rc:-0}"  # skipped (0) or bailed out (1)
}
trap _test_exit EXIT

# Under make check WRAPPER="valgrind ..." every way a test runs bootrace is wrapped: "$BOOTRACE" itself (also
# inside sh -c) becomes a script that execs $WRAPPER on the real binary, $BOOTRACE_BIN, which is for what must not
# be wrapped (strace checks, the directory of the binary). The test helpers built from our code (rules-query,
# fake-systemd) are wrapped the same way with wrap_program.
#   wrap_program PATH [NAME]  prints a command to run PATH with: PATH itself without WRAPPER, else a script
#                       $TMP/.wrap/NAME (default: PATH's base name) that execs $WRAPPER on it (valgrind logs to a
#                       file per process, checked at the script's end like bootrace's)
wrap_program() {
        local w
        [ -n "${WRAPPER:-}" ] || { printf '%s\n' "$1"; return; }
        [ -d "$TMP/.wrap" ] || { mkdir "$TMP/.wrap"; chmod 1777 "$TMP/.wrap"; }
        w=$TMP/.wrap/${2:-${1##*/}}
        case $WRAPPER in
        valgrind*)
                # valgrind writes to a log per process, not to the program's stderr, which golden tests compare (it
                # also has notices like "--PID-- WARNING: unhandled amd64-linux syscall: 437", openat2 before
                # valgrind 3.20); the script's end reports every error in them (_test_valgrind_logs). exec keeps
                # signals (a fake stopped with SIGTERM) and stdin going to the program. Forked children stay
                # silent: sd-bus's helper for --machine enters the container's root, where it cannot create a log
                # file here (valgrind then fails it).
                printf '#!/bin/sh\nexec %s --child-silent-after-fork=yes --log-file="%s/valgrind.%%p.log" \\\n' \
                        "$WRAPPER" "$TMP/.wrap"
                printf '        "%s" "$@"\n' "$1" ;;
        *)
                printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$WRAPPER" "$1" ;;
        esac > "$w"
        chmod 755 "$w"
        printf '%s\n' "$w"
}
BOOTRACE_BIN=${BOOTRACE_BIN:-$BOOTRACE}
# the logs of a bootrace run as another user (as_nobody) go to $TMP/.wrap too: it is world-writable (sticky)
BOOTRACE=$(wrap_program "$BOOTRACE_BIN")
# At the script's end: one more test, failed, when valgrind reported anything ("==PID==" lines) in any run.
_test_valgrind_logs() {
        local logs
        [ -d "$TMP/.wrap" ] || return 0
        logs=$(grep -l '^==[0-9]*==' "$TMP"/.wrap/valgrind.*.log 2> /dev/null) || return 0
        _test_n=$((_test_n + 1))
        _test_failed=$((_test_failed + 1))
        echo "not ok $_test_n - valgrind reported errors in $(echo "$logs" | wc -l) run(s) of bootrace or a helper"
        # shellcheck disable=SC2086 # one file name per line, no blanks in $TMP
        grep -h -v '^--[0-9]*-- ' $logs | head -80 | sed 's/^/# /'
}
export BOOTRACE BOOTRACE_BIN
bootrace() { "$BOOTRACE" "$@"; }

test_expect() {
        local name=$1; shift
        _test_n=$((_test_n + 1))
        if ( "$@" ) > "$TMP/.out" 2>&1; then
                echo "ok $_test_n - $name"
        else
                echo "not ok $_test_n - $name"
                sed 's/^/# /' "$TMP/.out" | head -60
                _test_failed=$((_test_failed + 1))
        fi
}

test_expect_fail() {
        local name=$1; shift
        _test_n=$((_test_n + 1))
        if ( "$@" ) > "$TMP/.out" 2>&1; then
                echo "not ok $_test_n - $name (succeeded, expected failure)"
                sed 's/^/# /' "$TMP/.out" | head -60
                _test_failed=$((_test_failed + 1))
        else
                echo "ok $_test_n - $name"
        fi
}

test_cmp() { diff -u "$1" "$2"; }

# jq 1.6 takes no input at all as true under -e: here an empty input file is false (exit 4, as jq 1.7 does), so
# a command that printed nothing fails the check instead of passing it
jq() {
        local a e=false n=false last=
        for a in "$@"; do
                case $a in -e | --exit-status) e=true ;; -n | --null-input) n=true ;; esac
                last=$a
        done
        if $e && ! $n && [ -f "$last" ] && [ ! -s "$last" ]; then
                echo "jq: $last is empty" >&2
                return 4
        fi
        command jq "$@"
}

# as_nobody_prepare [DIR...]: for a test that runs bootrace as another user (uid and gid 65534, through setpriv):
# copies the binary and the rules into $TMP/nobody, as the checkout may lie under a directory that user cannot
# enter (/root, a mode-0700 mktemp -d). $TMP is made traversable (0711), the copies and each DIR (trees under
# $TMP) readable; all go with $TMP at the script's end. Fails with the reason in $AS_NOBODY_SKIP where it cannot
# be done (not root, no setpriv, a TMPDIR out of that user's reach).
#   as_nobody CMD...    runs CMD as that user with no groups and BOOTRACE_RULES_DIR the copy of the rules;
#                       $NOBODY_BOOTRACE is the copy of bootrace (under $WRAPPER, as $BOOTRACE is)
as_nobody_prepare() {
        local d=$TMP/nobody
        AS_NOBODY_SKIP=
        if [ "$(id -u)" != 0 ]; then
                AS_NOBODY_SKIP="not root: cannot run as another user"
        elif ! command -v setpriv > /dev/null; then
                AS_NOBODY_SKIP="setpriv is not installed (Debian package util-linux)"
        fi
        [ -z "$AS_NOBODY_SKIP" ] || return 1
        chmod 711 "$TMP"
        mkdir -p "$d"
        cp "$BOOTRACE_BIN" "$d/bootrace"
        cp -R "$BOOTRACE_RULES_DIR" "$d/rules"
        chmod -R a+rX "$d" "$@"
        NOBODY_BOOTRACE=$(wrap_program "$d/bootrace" nobody-bootrace)
        NOBODY_RULES=$d/rules
        # asked of a shell: setpriv keeps root's capabilities up to its execve, which so finds even a command that
        # uid 65534 could not reach
        as_nobody sh -c 'for p; do [ -r "$p" ] || exit 1; done' - "$d/bootrace" "$d/rules/checks.xml" "$@" ||
                { AS_NOBODY_SKIP="uid 65534 cannot read what is copied to $d (TMPDIR out of its reach?)"; return 1; }
}
as_nobody() { BOOTRACE_RULES_DIR=$NOBODY_RULES setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

test_skip() {
        _test_n=$((_test_n + 1))
        echo "ok $_test_n - $1 # SKIP $2"
}

# test_dot_renders NAME FILE: dot(1) renders the DOT file FILE as SVG. Without graphviz a skip, but not in CI
# (tools/install-deps installs it there).
test_dot_renders() {
        if command -v dot > /dev/null; then
                test_expect "$1" sh -c 'dot -Tsvg "$1" > "$1.svg" && grep -q "<svg" "$1.svg"' x "$2"
        elif [ "${CI:-}" = true ]; then
                test_expect "$1: graphviz is installed in CI (tools/install-deps)" false
        else
                test_skip "$1" "graphviz not installed"
        fi
}

skip_all() {
        _test_skip_all=1
        echo "1..0 # SKIP $*"
        exit 77
}

# expect_exit N CMD...: CMD must exit with status N
expect_exit() {
        local want=$1 rc=0; shift
        "$@" || rc=$?
        [ "$rc" = "$want" ] || { echo "exit status $rc, expected $want: $*"; return 1; }
}

# expect_error STATUS PATTERN CMD...: exit status, and stderr matching PATTERN (an extended regexp)
expect_error() {
        local want=$1 pat=$2 rc=0; shift 2
        "$@" > "$TMP/expect-error.out" 2> "$TMP/expect-error.err" || rc=$?
        [ "$rc" = "$want" ] || { echo "exit $rc, expected $want: $*"; cat "$TMP/expect-error.err"; return 1; }
        grep -E -q -- "$pat" "$TMP/expect-error.err" ||
                { echo "stderr does not match /$pat/:"; cat "$TMP/expect-error.err"; return 1; }
}

# lab_ready [-r] SUITE...: 0 if the lab is usable; else LAB_REASON says why and it returns 1 (for a script whose
# other tests run without the lab: it skips the lab ones itself). In CI (CI=true) a missing lab is an error.
lab_ready() {
        local out rc=0
        out=$(LAB_SRV=${LAB_SRV:-/srv/lab} "$LAB/lab-check.sh" "$@" 2>&1) || rc=$?
        [ $rc = 0 ] && return 0
        if [ "${CI:-}" = true ]; then
                echo "Bail out! lab unusable in CI: $out"
                _test_skip_all=1 _test_exit_rc=1
                exit 1
        fi
        LAB_REASON=${out#SKIP: }
        return 1
}

# lab_require [-r] SUITE...: skip the whole script (with lab-check.sh's reason) unless the lab is usable.
# In CI (CI=true) a missing lab is an error, not a skip.
lab_require() {
        lab_ready "$@" || skip_all "$LAB_REASON"
}

# The lab trees the lab tests run on, oldest first (shared/lab builds them). forky is Debian testing: a moving
# suite, whose systemd changes with no change here. While a moving suite's systemd is newer than the newest version
# bootrace models, its tests skip with that reason (lab_judged below) instead of failing: CI must not turn red
# without a code change. Any other suite beyond the model fails.
LAB_SUITES="bullseye bookworm trixie forky"
LAB_MOVING_SUITES="forky"
LAB_SKIP_BEYOND="beyond the model:" # the start of such a skip's reason; .ci/run looks for it in the test logs

# lab_tree_systemd SUITE: the major version of the tree's systemd (its libsystemd-shared-NNN.so), or nothing
lab_tree_systemd() {
        local f
        f=$(find "${LAB_SRV:-/srv/lab}/$1/usr/lib" -maxdepth 3 -name 'libsystemd-shared-*.so' 2> /dev/null | head -1)
        f=${f##*/libsystemd-shared-}
        echo "${f%%[!0-9]*}"
}

# lab_model_newest: the newest systemd version bootrace models (its newest base model), from bootrace itself
lab_model_newest() {
        "$BOOTRACE" --version | sed -n 's/^models systemd [0-9]*-\([0-9]*\).*/\1/p'
}

# lab_judged SUITE...: sets LAB_JUDGED to the suites whose trees bootrace can judge. A moving suite whose
# systemd is newer than the newest modelled version gets one skipped test with the reason instead; a suite that
# is not moving fails there (a test that says why). Call it in the script's own shell, not in $(...).
lab_judged() {
        local newest s v
        LAB_JUDGED=
        newest=$(lab_model_newest)
        if [ -z "$newest" ]; then
                test_expect "the newest modelled version is known (bootrace --version)" false
                return 1
        fi
        for s in "$@"; do
                v=$(lab_tree_systemd "$s")
                if [ -n "$v" ] && [ "$v" -gt "$newest" ]; then
                        if [[ " $LAB_MOVING_SUITES " == *" $s "* ]]; then
                                test_skip "$s: every test of this script" "$LAB_SKIP_BEYOND $s has systemd $v, newer \
than the newest modelled version $newest (model $v to run them)"
                        else
                                test_expect "$s: systemd $v is modelled (newest: $newest)" false
                        fi
                        continue
                fi
                LAB_JUDGED="${LAB_JUDGED:+$LAB_JUDGED }$s"
        done
}

# fixture_root CASEDIR DEST: copies a golden case's tree (its root/, or that of the case named in root-from) to
# DEST and creates the symlinks listed in its symlinks file ("PATH TARGET" per line: release tarballs cannot
# carry symlinks, automake's tar dereferences them).
fixture_root() {
        local dir=$1 dest=$2 src=$1 link target
        [ -f "$dir/root-from" ] && src=$(dirname "$dir")/$(cat "$dir/root-from")
        mkdir -p "$dest"
        [ -d "$src/root" ] && cp -R "$src/root/." "$dest/"
        chmod -R u+w "$dest"
        if [ -f "$src/symlinks" ]; then
                while read -r link target; do
                        mkdir -p "$dest/$(dirname "$link")"
                        ln -s "$target" "$dest/$link"
                done < "$src/symlinks"
        fi
}
