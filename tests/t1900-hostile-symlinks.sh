#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile symlinks under --root: absolute and relative links out of the root (unit files, drop-in directories,
# .wants directories and entries, whole unit directories), and loops of every kind. Each escape has a twin inside
# the root at the path the link names: bootrace must show the twin (the link resolved inside the root, like a
# chroot) and never the host's file; loops end with a diagnostic, never a hang. Nothing under the root is written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostile-lib.sh"

host=$TMP/host
root=$TMP/root
sys=$root/etc/systemd/system
vendor=$root/usr/lib/systemd/system
mkdir -p "$host/evil.d" "$host/wants" "$host/units" "$sys" "$vendor"

# the host side: what must never show up
printf '[Unit]\nDescription=HOST-SECRET\n[Service]\nExecStart=/bin/true\n' > "$host/secret.service"
printf '[Unit]\nDescription=HOST-SECRET-DROPIN\n' > "$host/evil.d/evil.conf"
ln -s ../secret.service "$host/wants/evil.service"
cp "$host/secret.service" "$host/units/hostonly.service"

# the twins inside the root, at the paths the escaping links name
mkdir -p "$root$host/evil.d" "$root$host/wants"
printf '[Unit]\nDescription=INSIDE-TWIN\n[Service]\nExecStart=/bin/true\n' > "$root$host/secret.service"
printf '[Unit]\nDescription=TWIN-DROPIN\n' > "$root$host/evil.d/twin.conf"
ln -s ../secret.service "$root$host/wants/twin.service"
printf '[Unit]\nDescription=ROOT-ETC-SYSTEMD\n' > "$root/etc/systemd/inside.conf"

svc() { printf '[Service]\nExecStart=/bin/true\n' > "$1"; }
up=../../../../../../../../../../../..  # more ".." than the root is deep

ln -s "$host/secret.service" "$sys/abs.service"
ln -s "$up$host/secret.service" "$sys/rel.service"
svc "$sys/foo.service"; ln -s "$host/evil.d" "$sys/foo.service.d"
svc "$sys/bar.service"; ln -s "$up$host/evil.d" "$sys/bar.service.d"
svc "$sys/baz.service"; ln -s /etc/systemd "$sys/baz.service.d"
printf '[Unit]\nDescription=multi\n' > "$vendor/multi-user.target"
ln -s "$host/wants" "$sys/multi-user.target.wants"
printf '[Unit]\nDescription=default\n' > "$vendor/default.target"
mkdir "$sys/default.target.wants"
ln -s "$host/secret.service" "$sys/default.target.wants/x.service"
ln -s "$up/etc/shadow" "$sys/default.target.wants/y.service"

# loops: a unit directory that is a link to itself, drop-in directories linking to each other, a path component
# that loops, a 45-link chain of directories (over the 40 hops allowed) and a 10-link one, 41 chained aliases
# (over the 32 followed), a .wants entry linking to itself, an .include of itself (systemd <= 245)
loops=$TMP/loops
lv=$loops/usr/lib/systemd/system
mkdir -p "$loops/etc/systemd" "$lv"
ln -s system "$loops/etc/systemd/system"
svc "$lv/a.service"; svc "$lv/b.service"; svc "$lv/c.service"; svc "$lv/d.service"
ln -s b.service.d "$lv/a.service.d"
ln -s a.service.d "$lv/b.service.d"
mkdir "$lv/a.service.wants"
ln -s w.service "$lv/a.service.wants/w.service"
ln -s loopdir "$lv/loopdir"
ln -s loopdir/x.service "$lv/x.service"
mkdir "$lv/chain0.d"
printf '[Unit]\nDescription=END-OF-CHAIN\n' > "$lv/chain0.d/c.conf"
for i in $(seq 1 45); do ln -s "chain$((i - 1)).d" "$lv/chain$i.d"; done
ln -s chain45.d "$lv/c.service.d"
ln -s chain10.d "$lv/d.service.d"
for i in $(seq 0 40); do ln -s "l$((i + 1)).service" "$lv/l$i.service"; done
svc "$lv/l41.service"
printf '.include /usr/lib/systemd/system/inc.service\n[Service]\nExecStart=/bin/true\n' > "$lv/inc.service"

# symlinked unit directories: /etc/systemd/system -> / (absolute), /usr/lib/systemd/system -> ../../.. (relative,
# too many ..), and one that names a host directory (only its twin inside the root counts)
dirs=$TMP/dirlinks
mkdir -p "$dirs/etc/systemd" "$dirs/usr/lib/systemd" "$dirs/run/systemd"
ln -s / "$dirs/etc/systemd/system"
ln -s "$up" "$dirs/usr/lib/systemd/system"
ln -s "$host/units" "$dirs/run/systemd/system"
printf '[Unit]\nDescription=TOP-OF-ROOT\n[Service]\nExecStart=/bin/true\n' > "$dirs/top.service"

# check_show ROOT SHOW-ARGS... -- CHECKS...: runs show (a crash or a hang fails; exit status 2 is fine), then
# -o PATTERN stdout has it, -e PATTERN stderr has it, -n PATTERN neither has it; never anything from the host
check_show() {
        local r=$1 args=(); shift
        while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
        shift
        no_crash bootrace show --root="$r" "${args[@]}" || return 1
        nc_expect "$@" -n HOST-SECRET
}

# the host's /etc/systemd/*.conf never show up as drop-ins
no_host_etc_systemd() {
        local f
        bootrace show --root="$root" baz.service > "$TMP/out" 2>&1 || return 1
        grep -q ROOT-ETC-SYSTEMD "$TMP/out" || return 1
        for f in /etc/systemd/*.conf; do
                [ -e "$f" ] || continue
                if grep -q "Drop-in: .*/${f##*/}\$" "$TMP/out"; then echo "the host's $f is shown"; return 1; fi
        done
}

for d in "$root" "$host" "$loops" "$dirs"; do tree_state "$d" > "$d.before"; done

test_expect "absolute symlink to a host unit: the twin inside the root is the fragment" \
        check_show "$root" abs.service -- -o "INSIDE-TWIN" -o "Fragment: .*/abs.service (linked)"
test_expect "relative ../ symlink out of the root: resolved inside it" \
        check_show "$root" rel.service -- -o "INSIDE-TWIN"
test_expect "drop-in directory -> absolute host directory: the twin's drop-in" \
        check_show "$root" foo.service -- -o "TWIN-DROPIN" -o "Drop-in: $root$host/evil.d/twin.conf"
test_expect "drop-in directory -> relative ../ host directory: the twin's drop-in" \
        check_show "$root" bar.service -- -o "TWIN-DROPIN" -o "Drop-in: $root$host/evil.d/twin.conf"
test_expect "drop-in directory -> /etc/systemd: the root's /etc/systemd" \
        check_show "$root" baz.service -- -o "ROOT-ETC-SYSTEMD" -o "Drop-in: $root/etc/systemd/inside.conf"
test_expect "drop-in directory -> /etc/systemd: none of the host's /etc/systemd/*.conf" no_host_etc_systemd
test_expect ".wants directory -> host directory: the twin's entries only" \
        check_show "$root" multi-user.target -- -o "Wants: twin.service" -n evil.service
test_expect ".wants entries linking out of the root: the names are the dependencies, nothing read" \
        check_show "$root" default.target -- -o "Wants: x.service" -o "Wants: y.service"

test_expect "unit directory linking to itself: warned, the other directories still searched" \
        check_show "$loops" a.service -- -e "$loops/etc/systemd/system: warning: symlink loop" \
                -o "LoadState: loaded"
test_expect "drop-in directories linking to each other: a loop warning" \
        check_show "$loops" a.service b.service -- -e "a.service.d: warning: symlink loop" \
                -e "b.service.d: warning: symlink loop"
test_expect ".wants entry linking to itself: still the dependency" \
        check_show "$loops" a.service -- -o "Wants: w.service"
test_expect "a looping path component: the unit is ignored with a warning" \
        check_show "$loops" x.service -- -e "x.service: warning: .*symbolic links" -o "LoadState: not-found"
test_expect "a 45-link directory chain: a loop warning, not followed" \
        check_show "$loops" c.service -- -e "c.service.d: warning: symlink loop" -n END-OF-CHAIN
test_expect "a 10-link directory chain: followed" check_show "$loops" d.service -- -o END-OF-CHAIN
test_expect "41 chained aliases: an error, not an endless walk" \
        check_show "$loops" l0.service -- -e "l0.service: error: alias" -o "LoadState: error"
test_expect ".include of itself (systemd 229): an error naming the line" \
        check_show "$loops" --systemd=229 inc.service -- -e "inc.service:1: error: .include nested"

test_expect "/etc/systemd/system -> /: the root's top directory is searched, inside the root" \
        check_show "$dirs" top.service -- -o TOP-OF-ROOT -o "Fragment: $dirs/etc/systemd/system/top.service"
test_expect "/run/systemd/system -> a host directory: its units are not found" \
        check_show "$dirs" hostonly.service -- -o "LoadState: not-found"
test_expect "/usr/lib/systemd/system -> ../../..(too many): stays at the root" \
        check_show "$dirs" --systemd=257 top.service -- -o TOP-OF-ROOT

for d in "$root" "$host" "$loops" "$dirs"; do
        test_expect "nothing under ${d##*/}/ was written" expect_unchanged "$d" "$d.before"
done
