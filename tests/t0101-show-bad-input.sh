#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile and broken input for `bootrace show`: each gives a clear message naming the file (and line) and exit
# status 2, never a crash, and nothing outside --root is ever read.
. "$(dirname "$0")/lib.sh"

root=$TMP/root
sys=$root/etc/systemd/system
mkdir -p "$sys" "$root/lib/systemd/system"


# a file outside the root that an absolute symlink names: its content must never show up
secret=$TMP/host-secret.service
printf '[Unit]\nDescription=HOST-SECRET-CONTENT\n' > "$secret"
ln -s "$secret" "$sys/abs-escape.service"
ln -s "../../../../../../../../..$secret" "$sys/rel-escape.service"
test_expect "absolute symlink out of the root is resolved inside it" \
        expect_error 2 "abs-escape.service: .*does not exist under the root" bootrace show --root="$root" abs-escape.service
test_expect "relative ../ symlink out of the root is resolved inside it" \
        expect_error 2 "rel-escape.service: .*does not exist under the root" bootrace show --root="$root" rel-escape.service
test_expect "escaping symlinks never read the host's file" sh -c "
        ! \"\$BOOTRACE\" show --root='$root' --format=json abs-escape.service rel-escape.service 2>&1 |
                grep -q HOST-SECRET-CONTENT"

head -c 10485760 /dev/zero | tr '\0' 'x' | { printf '[Unit]\nDescription='; cat; printf '\n'; } > "$sys/long.service"
test_expect "a 10 MB line fails the file, naming the line" \
        expect_error 2 "long.service:2: .*(long|1 MiB|too)" bootrace show --root="$root" --systemd=252 long.service

printf '[Unit]\nDescription=a\x00b\n' > "$sys/nul.service"
test_expect "a NUL byte ends the line (v235+): the rest is the next line, warned about" \
        expect_error 2 "nul.service:3: .*missing '='" bootrace show --root="$root" nul.service
nul_v234() {
        bootrace show --root="$root" --systemd=234 nul.service > "$TMP/nul.out" 2> "$TMP/nul.err"
        grep -q "^Description=a  *#" "$TMP/nul.out" && ! grep -E "nul.service:3|missing" "$TMP/nul.err"
}
test_expect "a NUL byte drops the rest of its line (v234)" nul_v234

printf '[Unit]\nDescription=\xff\xfe\n' > "$sys/utf8.service"
test_expect "invalid UTF-8 fails the file on 252, naming the line" \
        expect_error 2 "utf8.service:2: .*UTF-8" bootrace show --root="$root" --systemd=252 utf8.service

head -c 4096 /dev/urandom > "$sys/junk.service"
test_expect "binary junk gives an error, not a crash" \
        expect_error 2 "junk.service" bootrace show --root="$root" --systemd=252 junk.service

printf 'Description=x\n' > "$sys/nosection.service"
test_expect "a key outside any section names file and line" \
        expect_error 2 "nosection.service:1: " bootrace show --root="$root" nosection.service

printf '[Unit\nDescription=x\n' > "$sys/bracket.service"
test_expect "a section header without ] names file and line" \
        expect_error 2 "bracket.service:1: " bootrace show --root="$root" bracket.service

ln -s loopb.service "$sys/loopa.service"
ln -s loopa.service "$sys/loopb.service"
test_expect "an alias loop is an error" expect_error 2 "loopa.service" bootrace show --root="$root" loopa.service

ln -s selfloop.service.d "$sys/selfloop.service.d"
printf '[Service]\nExecStart=/bin/true\n' > "$sys/selfloop.service"
test_expect "a looping drop-in directory is reported" \
        expect_error 2 "selfloop.service.d.*loop" bootrace show --root="$root" selfloop.service

mkfifo "$sys/fifo.service"
test_expect "a FIFO as unit file is refused without blocking" \
        timeout 10 bash -c "rc=0; \"\$BOOTRACE\" show --root='$root' fifo.service 2> '$TMP/fifo.err' || rc=\$?;
                [ \$rc = 2 ] && grep -q 'fifo.service: warning: not a regular file' '$TMP/fifo.err'"

# root reads any file: it is denied as uid 65534, with copies of bootrace and the rules that user can reach
printf '[Unit]\nDescription=unreadable\n' > "$sys/unreadable.service"
if [ "$(id -u)" != 0 ]; then
        chmod 000 "$sys/unreadable.service"
        test_expect "an unreadable file is an error naming it" \
                expect_error 2 "unreadable.service.*(Permission denied|cannot read)" \
                bootrace show --root="$root" unreadable.service
elif as_nobody_prepare "$root"; then
        chmod 000 "$sys/unreadable.service"
        test_expect "an unreadable file is an error naming it" \
                expect_error 2 "unreadable.service.*(Permission denied|cannot read)" \
                as_nobody "$NOBODY_BOOTRACE" show --root="$root" unreadable.service
else
        test_skip "an unreadable file is an error naming it" "root cannot be denied reading: $AS_NOBODY_SKIP"
fi

test_expect "a missing root is an error" expect_error 2 "no-such-root" bootrace show --root="$TMP/no-such-root" a.service
test_expect "an invalid unit name is an error" expect_error 2 "not a valid unit name" bootrace show --root="$root" 'a b'
test_expect "a missing unit is an error" expect_error 2 "nothere.service" bootrace show --root="$root" nothere.service
test_expect "a missing PATH is an error" expect_error 2 "nothere/x.service" bootrace show "$TMP/nothere/x.service"
