#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Nothing outside --root is ever read, nothing under it is written: one root full of traps (absolute and relative
# links out of it for unit files, drop-in and .wants directories and entries, unit directories and journals;
# loops; FIFOs and devices; a 1 GiB sparse file), every verb that reads a root run over it under strace. Every
# path opened or whose link is read must be under the root, the rules, /proc/self/fd (re-opening an fd), a
# shared library or the kernel's boot id; the whole tree is checksummed before and after.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostile-lib.sh"
confined_require

host=$TMP/host
root=$TMP/root
sys=$root/etc/systemd/system
vendor=$root/usr/lib/systemd/system
up=../../../../../../../../../../../..
mkdir -p "$host/units" "$host/dropins" "$host/wants" "$host/journal/m" "$sys" "$vendor" "$root/var/log" \
        "$root/run/log/journal/m" "$root/run/systemd"

printf '[Unit]\nDescription=HOST\n[Service]\nExecStart=/bin/true\n' > "$host/units/host.service"
printf '[Unit]\nAfter=host.service\n' > "$host/dropins/host.conf"
ln -s ../units/host.service "$host/wants/host.service"
printf 'not a journal\n' > "$host/journal/m/host.journal"

svc() { printf '[Unit]\nDescription=%s\nAfter=%s\n[Service]\nExecStart=/bin/true\n' "$2" "$3" > "$1"; }
svc "$vendor/a.service" a b.service
svc "$vendor/b.service" b a.service
printf '[Unit]\nDescription=multi\n' > "$vendor/multi-user.target"
ln -s "$host/units/host.service" "$sys/abs.service"
ln -s "$up$host/units/host.service" "$sys/rel.service"
ln -s "$host/dropins" "$sys/a.service.d"
ln -s "$up$host/dropins" "$vendor/b.service.d"
ln -s "$host/wants" "$sys/multi-user.target.wants"
mkdir "$vendor/multi-user.target.wants"
ln -s "$host/units/host.service" "$vendor/multi-user.target.wants/a.service"
ln -s "$host/units" "$root/run/systemd/system"
ln -s loop.service "$sys/loop.service"
ln -s loopdir "$sys/loopdir"
ln -s loopdir/x.service "$sys/x.service"
ln -s c.service.d "$sys/c.service.d"
svc "$sys/c.service" c a.service
mkfifo "$sys/fifo.service" "$sys/fifo.conf.tmp"
mkdir "$sys/c.service.wants" "$vendor/a.service.d"
mv "$sys/fifo.conf.tmp" "$vendor/a.service.d/fifo.conf"
mknod "$vendor/a.service.d/zero.conf" c 1 5 2> /dev/null || true
truncate -s 1G "$vendor/a.service.d/sparse.conf"
printf '.include %s/units/host.service\n[Service]\nExecStart=/bin/true\n' "$host" > "$sys/inc.service"
ln -s "$host/journal" "$root/var/log/journal"
ln -s "$host/journal/m/host.journal" "$root/run/log/journal/m/link.journal"
mkfifo "$root/run/log/journal/m/fifo.journal"

tree_state "$root" > "$TMP/root.before"
tree_state "$host" > "$TMP/host.before"

units="a.service b.service c.service abs.service rel.service loop.service x.service fifo.service host.service
       multi-user.target"
# shellcheck disable=SC2086 # a list of unit names
test_expect "show (text) reads nothing outside the root" confined "$root" "$BOOTRACE_BIN" show --root="$root" $units
# shellcheck disable=SC2086
test_expect "show (json) reads nothing outside the root" \
        confined "$root" "$BOOTRACE_BIN" show --root="$root" --format=json $units
test_expect "show --systemd=229 (.include) reads nothing outside the root" \
        confined "$root" "$BOOTRACE_BIN" show --root="$root" --systemd=229 inc.service
test_expect "graph of every unit reads nothing outside the root" \
        confined "$root" "$BOOTRACE_BIN" graph --root="$root" --all
test_expect "stats --root reads nothing outside the root" confined "$root" "$BOOTRACE_BIN" stats --root="$root"
if bootrace lint --help > /dev/null 2>&1; then
        test_expect "lint --root reads nothing outside the root" confined "$root" "$BOOTRACE_BIN" lint --root="$root"
else
        test_skip "lint --root reads nothing outside the root" "no lint verb in this build"
fi

# and the checker itself can fail: a command that does read outside must be caught
test_expect_fail "the strace check catches a read outside the root" confined "$root" cat "$host/units/host.service"

test_expect "nothing under the root was written" expect_unchanged "$root" "$TMP/root.before"
test_expect "nothing of the host's side was written" expect_unchanged "$host" "$TMP/host.before"
