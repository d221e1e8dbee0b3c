#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What reading every loaded unit from a running systemd costs (tests/bench/live-bench.c): pipelined GetAll per
# unit (bootrace's way), GetAll waited for one by one, and one Get per property. Against the system bus named by
# DBUS_SYSTEM_BUS_ADDRESS, else the host's, else the lab's bookworm container (booted for it, then powered off).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
: "${SHARED:=$top_srcdir/../shared}"
bench=$top_builddir/tests/bench/live-bench
[ -x "$bench" ] || { echo "skipped: $bench not built (make check builds it)"; exit 0; }
if [ -n "${DBUS_SYSTEM_BUS_ADDRESS:-}" ] || [ -S /run/dbus/system_bus_socket ]; then
        exec "$bench" 5
fi
LAB=$SHARED/lab
if ! out=$(LAB_SRV=${LAB_SRV:-/srv/lab} "$LAB/lab-check.sh" bookworm 2>&1); then
        echo "skipped: no system bus here, and the lab cannot boot: ${out#SKIP: }"
        exit 0
fi
tmp=$(mktemp -d)
if [ -d /sys/fs/cgroup/unified ] && [ -d /sys/fs/cgroup/systemd ]; then CG=/sys/fs/cgroup/unified; else CG=/sys/fs/cgroup; fi
L= boot=
# our container (cgroup lab-bookworm-PID of our lab-boot.sh), never another boot of the same tree
our_leader() {
        local f p
        for f in "$CG/lab-bookworm-$boot/payload/init.scope/cgroup.procs" "$CG/lab-bookworm-$boot/payload/cgroup.procs"; do
                [ -r "$f" ] || continue
                for p in $(cat "$f"); do
                        awk '/^NSpid:/ { exit ($NF == 1) ? 0 : 1 }' "/proc/$p/status" 2> /dev/null && { echo "$p"; return 0; }
                done
        done
        return 1
}
cleanup() {
        [ -z "$L" ] || kill -s RTMIN+4 "$L" 2> /dev/null
        [ -z "$boot" ] || wait "$boot" 2> /dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
LAB_SRV=${LAB_SRV:-/srv/lab} LAB_DATA=$tmp/data LAB_LOGS=$tmp/logs \
        "$LAB/lab-boot.sh" -t 120 -j "$tmp/journal" bookworm 1 -- lab.stay > "$tmp/boot.log" 2>&1 &
boot=$!
for _ in $(seq 2000); do
        L=$(our_leader) && [ -S "/proc/$L/root/run/dbus/system_bus_socket" ] && break
        L=
        kill -0 "$boot" 2> /dev/null || break
        sleep 0.2
done
[ -n "$L" ] || { echo "skipped: the lab container did not come up"; exit 0; }
timeout 60 nsenter -t "$L" -a systemctl is-system-running --wait > /dev/null 2>&1
echo "bookworm container (systemd 252), from the host through its system bus:"
DBUS_SYSTEM_BUS_ADDRESS=unix:path=/proc/$L/root/run/dbus/system_bus_socket "$bench" 5
