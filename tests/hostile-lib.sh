# SPDX-License-Identifier: LGPL-2.1-or-later
# hostile-lib.sh - sourced after lib.sh by the tests/t19NN-hostile-*.sh scripts: hostile trees must never make
# bootrace read outside --root, write under it, hang or crash.
#   tree_state DIR               a manifest of everything under DIR (type, mode, size, mtime, link target, sha256
#                                of regular files under 64 MiB) -> stdout; nothing is opened but regular files
#   expect_unchanged DIR BEFORE  DIR's manifest still equals the file BEFORE
#   confined_require             skip the script (with the reason) unless strace can trace here
#   confined ROOT CMD...         runs CMD (give it $BOOTRACE_BIN, not wrapped) under strace, then checks that every path
#                                it opened or read a link of is under ROOT, the rules, a directory it created
#                                itself, its own /proc/PID, a shared library or the kernel's boot id (a list of
#                                offenders on failure); CMD's exit status is ignored
#   no_crash CMD...              CMD (bootrace: under $WRAPPER) exits 0, 1 or 2 within 120 s, with no sanitizer or
#                                valgrind report on stderr; its output is left in $TMP/.nc-out and $TMP/.nc-err,
#                                its exit status in $NC_RC

tree_state() {
        (cd "$1" && find . -printf '%y %m %s %T@ %p -> %l\n' | LC_ALL=C sort &&
                find . -type f -size -65536k -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
}

expect_unchanged() {
        tree_state "$1" > "$TMP/.state-after" && diff -u "$2" "$TMP/.state-after"
}


confined_require() {
        command -v strace > /dev/null || {
                [ "${CI:-}" = true ] && { echo "Bail out! strace missing in CI"; _test_skip_all=1 _test_exit_rc=1; exit 1; }
                skip_all "strace is not installed (Debian package strace)"
        }
        strace -f -qq -o /dev/null true 2> "$TMP/.strace-err" || {
                [ "${CI:-}" = true ] && { echo "Bail out! strace cannot trace in CI: $(cat "$TMP/.strace-err")"
                                         _test_skip_all=1 _test_exit_rc=1; exit 1; }
                skip_all "strace cannot trace here (ptrace not allowed?): $(head -1 "$TMP/.strace-err")"
        }
}

# confined ROOT CMD...: strace -y prints each fd with its path, so a relative openat() is checked as dirfd path +
# name, and a successful one also by the path of the fd it returned.
confined() {
        local root=$1; shift
        root=$(cd "$root" && pwd -P)
        strace -f -y -qq -s 65535 -e trace=open,openat,openat2,readlink,readlinkat,mkdir,mkdirat -o "$TMP/.strace" \
                "$@" > "$TMP/.confined-out" 2>&1 || true
        ROOT=$root RULES=$(cd "$BOOTRACE_RULES_DIR" && pwd -P) perl -ne '
                BEGIN { $bad = 0; @own = (); %pids = () }
                sub norm { my @o; for (split m{/}, $_[0]) { next if $_ eq "" || $_ eq "."; if ($_ eq "..") { pop @o } else { push @o, $_ } } "/" . join("/", @o) }
                sub inside { my ($p, $d) = @_; $p eq $d || index($p, "$d/") == 0 }
                sub allowed {
                        my ($p, $opath) = @_;
                        return 1 if inside($p, $ENV{ROOT}) || inside($p, $ENV{RULES});
                        for my $d (@own) {  # its own scratch directories, and walking down to them
                                return 1 if inside($p, $d) || ($opath && inside($d, $p));
                        }
                        # the process looking at itself (re-opening an fd; the sanitizers read maps, environ, ...)
                        return 1 if $p =~ m{^/proc/(self|thread-self)(/|$)};
                        return 1 if $p =~ m{^/proc/(\d+)(/|$)} && $pids{$1};
                        return 1 if $p eq "/proc/sys/kernel/random/boot_id";  # sd-journal: is this boot live?
                        return 1 if $p =~ m{\.so(\.\d+)*$} || $p eq "/etc/ld.so.cache";
                        return 1 if $p eq "/" && $opath;  # the host root kept for unit files given as paths
                        return 0;
                }
                $pids{$1} = 1 if /^(\d+)\s/;
                next unless /^\d+\s+(open|openat|openat2|readlink|readlinkat|mkdir|mkdirat)\((.*)\)\s+=\s+(-?\d+)(<(.*?)>)?/;
                my ($call, $args, $ret, $fdpath) = ($1, $2, $3, $5);
                if ($call =~ /^mkdir/) {
                        if ($ret == 0 && $args =~ /^(?:(?:AT_FDCWD|\d+)<(.*?)>, )?"((?:[^"\\]|\\.)*)"/) {
                                my ($at, $p) = ($1, $2);
                                push @own, norm($p =~ m{^/} ? $p : (defined $at ? "$at/$p" : "./$p"));
                        }
                        next;
                }
                my ($dir, $arg);
                if ($call =~ /at2?$/) {
                        $args =~ /^(?:AT_FDCWD|\d+)<(.*?)>, "((?:[^"\\]|\\.)*)"/ or next;
                        ($dir, $arg) = ($1, $2);
                } else {
                        $args =~ /^"((?:[^"\\]|\\.)*)"/ or next;
                        ($dir, $arg) = (".", $1);
                }
                # RESOLVE_IN_ROOT (openat2) takes even an absolute path below the directory fd
                my $want = norm($arg =~ m{^/} && $args !~ /RESOLVE_IN_ROOT/ ? $arg : "$dir/$arg");
                my $opath = $args =~ /O_PATH/;
                my @bad;
                push @bad, $want unless allowed($want, $opath);
                push @bad, "$fdpath (opened as $want)" if $ret >= 0 && defined $fdpath && !allowed(norm($fdpath), $opath);
                for (@bad) { print "outside the root: $call $_\n" if $bad++ < 30 }
                END { print "... ", $bad - 30, " more\n" if $bad > 30; exit($bad ? 1 : 0) }
        ' "$TMP/.strace"
}

no_crash() {
        NC_RC=0
        [ "$1" = bootrace ] && { shift; set -- "$BOOTRACE" "$@"; }
        timeout 120 "$@" > "$TMP/.nc-out" 2> "$TMP/.nc-err" || NC_RC=$?
        if [ "$NC_RC" -gt 2 ]; then
                echo "exit status $NC_RC (124: timeout, >128: signal): $*"
                tail -20 "$TMP/.nc-err"
                return 1
        fi
        if grep -E -q 'AddressSanitizer|LeakSanitizer|runtime error:|Invalid read|Invalid write|definitely lost' \
                "$TMP/.nc-err"; then
                tail -40 "$TMP/.nc-err"
                return 1
        fi
}

# nc_expect CHECKS...: what the last no_crash run printed: -o PATTERN on stdout, -e PATTERN on stderr, -n PATTERN
# on neither
nc_expect() {
        while [ $# -ge 2 ]; do
                case $1 in
                -o) grep -q -- "$2" "$TMP/.nc-out" || { echo "no /$2/ on stdout:"; cat "$TMP/.nc-out" "$TMP/.nc-err"; return 1; } ;;
                -e) grep -q -- "$2" "$TMP/.nc-err" || { echo "no /$2/ on stderr:"; cat "$TMP/.nc-err"; return 1; } ;;
                -n) ! grep -h -- "$2" "$TMP/.nc-out" "$TMP/.nc-err" || { echo "unexpected /$2/"; return 1; } ;;
                esac
                shift 2
        done
}
