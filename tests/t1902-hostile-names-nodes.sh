#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile names and file types for `bootrace show`: escaped unit names (\x2d, systemd-escape's output), names
# with control characters (diagnostics must stay one line each), FIFOs, character and block devices and sockets
# where unit files, drop-ins, .wants entries and unit directories are expected (never opened for reading, never
# a hang). Nothing under the root is written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostile-lib.sh"

root=$TMP/root
sys=$root/etc/systemd/system
vendor=$root/usr/lib/systemd/system
mkdir -p "$sys" "$vendor" "$root/dev"
svc() { printf '[Service]\nExecStart=/bin/true\n' > "$1"; }

# escaped names
printf '[Unit]\nDescription=I=%%I i=%%i\n[Service]\nExecStart=/bin/echo %%I\n' > "$sys/getty@.service"
printf '[Unit]\nDescription=LITERAL-BACKSLASH\n[Service]\nExecStart=/bin/true\n' > "$sys/foo\\x2dbar.service"
mount_unit='mnt-my\x20disk\x2d1.mount'
printf '[Mount]\nWhat=/dev/sda1\nWhere=/mnt/my disk-1\n' > "$sys/$mount_unit"

# names with control characters: a newline and an escape sequence
svc "$sys/ctl.service"
mkdir "$sys/ctl.service.wants" "$sys/ctl.service.d"
ln -s /x "$sys/ctl.service.wants/$(printf 'evil\nLoadState: forged\033[31m.service')"
printf '[Unit]\nDescription=CTL-DROPIN\nNoSuchKey=1\n' > "$sys/ctl.service.d/$(printf 'x\033]0;title\007.conf')"
printf '[Unit]\nAfter=ctl2.service\n' > "$sys/ctl.service.d/$(printf 'y\nLoadState: forged-too.conf')"
ln -s /x "$sys/$(printf 'a\nb.service')"

# FIFOs
mkfifo "$sys/fifo.service" "$sys/fifo-dropin.service.d.tmp"
svc "$sys/fifo-dropin.service"
mkdir "$sys/fifo-dropin.service.d"
mv "$sys/fifo-dropin.service.d.tmp" "$sys/fifo-dropin.service.d/f.conf"
printf '[Unit]\nDescription=NEXT-TO-FIFO\n' > "$sys/fifo-dropin.service.d/g.conf"
svc "$sys/fifo-wants.service"
mkdir "$sys/fifo-wants.service.wants"
mkfifo "$sys/fifo-wants.service.wants/dep.service"
svc "$sys/fifo-dir.service"
mkfifo "$sys/fifo-dir.service.d" "$root/run-fifo"
mkdir -p "$root/run/systemd"
mv "$root/run-fifo" "$root/run/systemd/system"  # a unit directory that is a FIFO
printf '.include /etc/systemd/system/fifo.service\n[Service]\nExecStart=/bin/true\n' > "$sys/inc-fifo.service"

# devices, where root may create them
devices=yes
if mknod "$sys/null.service" c 1 3 2> /dev/null && mknod "$sys/zero.service" c 1 5 &&
   mknod "$root/dev/zero" c 1 5 && mknod "$sys/block.service" b 7 0; then
        svc "$sys/dev-dropin.service"
        mkdir "$sys/dev-dropin.service.d"
        mknod "$sys/dev-dropin.service.d/zero.conf" c 1 5
        mknod "$sys/dev-dropin.service.d/random.conf" c 1 8
        mknod "$sys/dev-dropin.service.d/block.conf" b 7 0
        printf '[Unit]\nDescription=NEXT-TO-DEVICES\n' > "$sys/dev-dropin.service.d/z-real.conf"
        printf '.include /dev/zero\n[Service]\nExecStart=/bin/true\n' > "$sys/inc-zero.service"
        ln -s /dev/zero "$sys/link-zero.service"
else
        devices="mknod is not allowed here (no CAP_MKNOD)"
fi

# a socket, where python3 can make one
sockets=yes
if ! command -v python3 > /dev/null ||
   ! python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$sys/sock.service" 2> /dev/null
then
        sockets="no python3 to create a socket"
fi

tree_state "$root" > "$TMP/root.before"

# check_show SHOW-ARGS... -- CHECKS...: show under --root (a crash or hang fails; exit status 2 is fine), then
# -o PATTERN on stdout, -e PATTERN on stderr, -n PATTERN on neither
check_show() {
        local args=()
        while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
        shift
        no_crash bootrace show --root="$root" "${args[@]}" || return 1
        nc_expect "$@"
}

test_expect "an instance with \\x2d: found through its template, %I unescaped" \
        check_show 'getty@tty\x2d1.service' -- -o "LoadState: loaded" -o 'expands to "I=tty-1 i=tty\\x2d1"'
test_expect "a file name with a literal \\x2d" check_show 'foo\x2dbar.service' -- -o LITERAL-BACKSLASH
if command -v systemd-escape > /dev/null; then
        test_expect "systemd-escape --path output names the mount unit" sh -c '
                n=$(systemd-escape --path --suffix=mount "/mnt/my disk-1") && [ "$n" = "$1" ]' - "$mount_unit"
        test_expect "systemd-escape --template output loads the template" \
                check_show "$(systemd-escape --template=getty@.service 'a/b-c')" -- -o 'expands to "I=a/b-c'
else
        test_skip "systemd-escape --path output names the mount unit" "systemd-escape is not installed"
        test_skip "systemd-escape --template output loads the template" "systemd-escape is not installed"
fi
test_expect "an escaped mount unit name loads" check_show "$mount_unit" -- -o "Where=/mnt/my disk-1"

# one line per diagnostic and per file shown: the control characters come out escaped
one_line_diags() {
        check_show ctl.service -- -o CTL-DROPIN || return 1
        ! grep -q '^LoadState: forged' "$TMP/.nc-err" "$TMP/.nc-out" || { echo "a forged line"; return 1; }
        ! grep -q "$(printf '\033')" "$TMP/.nc-err" "$TMP/.nc-out" || { echo "a raw escape character"; return 1; }
        grep -q '^Drop-in: .*/y\\nLoadState: forged-too.conf$' "$TMP/.nc-out" ||
                { echo "drop-in name not escaped:"; cat -A "$TMP/.nc-out"; return 1; }
        grep -q 'evil\\nLoadState: forged\\x1b\[31m.service: warning: ' "$TMP/.nc-err" &&
                grep -q 'x\\x1b\]0;title\\x07.conf:3: warning: ' "$TMP/.nc-err" ||
                { echo "diagnostics not escaped:"; cat -A "$TMP/.nc-err"; return 1; }
}
test_expect "control characters in names: diagnostics and shown files stay one line each, escaped" one_line_diags
lint_escapes() {
        no_crash bootrace lint --root="$root" --systemd=252 || return 1
        ! grep -q "$(printf '\033')" "$TMP/.nc-out" "$TMP/.nc-err" || { echo "a raw escape character"; return 1; }
        grep -q 'x\\x1b\]0;title\\x07.conf:3: .*NoSuchKey' "$TMP/.nc-out" ||
                { echo "finding's file not escaped:"; cat -A "$TMP/.nc-out"; return 1; }
}
if bootrace lint --help > /dev/null 2>&1; then
        test_expect "control characters in names: lint's report escapes them" lint_escapes
else
        test_skip "control characters in names: lint's report escapes them" "no lint verb in this build"
fi

test_expect "a FIFO as unit file: ignored with a warning, no hang" \
        check_show fifo.service -- -e "fifo.service: warning: not a regular file" -o "LoadState: not-found"
test_expect "a FIFO as drop-in: an error naming it, the next drop-in still read" \
        check_show fifo-dropin.service -- -e "f.conf: error: cannot read: not a regular file" -o NEXT-TO-FIFO
test_expect "a FIFO in .wants: the name is the dependency, not read" \
        check_show fifo-wants.service -- -o "Wants: dep.service"
test_expect "a FIFO as drop-in directory: not a directory, ignored" \
        check_show fifo-dir.service -- -o "LoadState: loaded"
test_expect "a FIFO as unit directory: ignored" check_show --systemd=252 fifo-wants.service -- -o "LoadState: loaded"
test_expect "a FIFO as .include target (systemd 229): an error, no hang" \
        check_show --systemd=229 inc-fifo.service -- -e "fifo.service: error: cannot read: not a regular file"

if [ "$devices" = yes ]; then
        # systemd's name map takes regular files and symlinks only: a device node is no mask (a link to one is)
        test_expect "a /dev/null device node as unit file: ignored like systemd does" \
                check_show null.service -- -e "null.service: warning: not a regular file" -o "LoadState: not-found"
        test_expect "a /dev/zero device as unit file: ignored, never read" \
                check_show zero.service -- -e "zero.service: warning: not a regular file" -o "LoadState: not-found"
        test_expect "a block device as unit file: ignored" \
                check_show block.service -- -e "block.service: warning: not a regular file"
        test_expect "devices as drop-ins: errors naming each, the real drop-in still read" \
                check_show dev-dropin.service -- -e "zero.conf: error: cannot read: not a regular file" \
                        -e "random.conf: error: cannot read: not a regular file" \
                        -e "block.conf: error: cannot read: not a regular file" -o NEXT-TO-DEVICES
        test_expect ".include /dev/zero (systemd 229): an error, never read" \
                check_show --systemd=229 inc-zero.service -- -e "dev/zero: error: cannot read: not a regular file"
        test_expect "a unit linked to /dev/zero: the root's /dev/zero, not read" \
                check_show link-zero.service -- -e "link-zero.service: error: cannot read: not a regular file"
else
        for t in "a /dev/null device node as unit file" "a /dev/zero device as unit file" "a block device as unit file" \
                 "devices as drop-ins" ".include /dev/zero" "a unit linked to /dev/zero"; do
                test_skip "$t" "$devices"
        done
fi
if [ "$sockets" = yes ]; then
        test_expect "a socket as unit file: ignored with a warning" \
                check_show sock.service -- -e "sock.service: warning: not a regular file"
else
        test_skip "a socket as unit file: ignored with a warning" "$sockets"
fi

test_expect "nothing under the root was written" expect_unchanged "$root" "$TMP/root.before"
