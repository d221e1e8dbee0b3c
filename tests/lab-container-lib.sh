# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced after lib.sh by tests that boot a lab tree with lab-boot.sh and keep it running ("-- lab.stay"):
# lab_container_boot SUITE starts it and sets L (its PID 1 as the host sees it), R (/proc/L/root) and
# DBUS_SYSTEM_BUS_ADDRESS (the container's system bus socket); lab_container_poweroff stops it, whatever
# happened. The caller installs the trap: trap 'lab_container_poweroff; _test_exit' EXIT.

export LAB_SRV=${LAB_SRV:-/srv/lab} LAB_DATA=$TMP/labdata LAB_LOGS=$TMP/lablogs
if [ -d /sys/fs/cgroup/unified ] && [ -d /sys/fs/cgroup/systemd ]; then CG=/sys/fs/cgroup/unified; else CG=/sys/fs/cgroup; fi
L= R= BOOT_PID= BOOT_SUITE=

# Our container, not another test's boot of the same tree: lab_nspawn puts it in the cgroup lab-SUITE-PID, PID
# being lab-boot.sh's. Its PID 1 is the process there whose PID in its own namespace is 1.
_lab_container_leader() {
        local f p
        for f in "$CG/lab-$BOOT_SUITE-$BOOT_PID/payload/init.scope/cgroup.procs" \
                 "$CG/lab-$BOOT_SUITE-$BOOT_PID/payload/cgroup.procs"; do
                [ -r "$f" ] || continue
                for p in $(cat "$f"); do
                        awk '/^NSpid:/ { exit ($NF == 1) ? 0 : 1 }' "/proc/$p/status" 2> /dev/null &&
                                { echo "$p"; return 0; }
                done
        done
        return 1
}

# lab_container_boot SUITE: boots it (journal in $TMP/journal-SUITE, console in $TMP/boot-SUITE.log) and waits
# until its system bus is up and the boot has finished. Returns 1 when it does not come up.
lab_container_boot() {
        BOOT_SUITE=$1
        # -t bounds the container's whole life: the tests run in it, and under valgrind on a loaded machine that
        # took more than 300 s; the EXIT trap of every test powers it off, so the bound only matters on a crash
        "$LAB/lab-boot.sh" -t 1800 -j "$TMP/journal-$1" "$1" 1 -- lab.stay > "$TMP/boot-$1.log" 2>&1 &
        BOOT_PID=$!
        # boots of one tree are serialized (flock): another test may hold the tree for a while
        for _ in $(seq 2000); do
                L=$(_lab_container_leader) && [ -S "/proc/$L/root/run/dbus/system_bus_socket" ] && break
                L=
                kill -0 "$BOOT_PID" 2> /dev/null || break
                sleep 0.2
        done
        [ -n "$L" ] || return 1
        R=/proc/$L/root
        _lab_container_settle
        export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$R/run/dbus/system_bus_socket L R
}

# The loaded units of the container, one name a line.
_lab_container_units() {
        nsenter -t "$L" -a systemctl list-units --all --no-legend --plain --full 2> /dev/null | awk '{ print $1 }'
}

# Waits until the boot has finished, no job is queued and the set of loaded units has stayed the same for a
# second. The last matters to tests that compare two reads of the live graph: PID 1 learns of a mount from
# /proc/self/mountinfo, and it rate-limits those events (5 a second in 252), so under load a mount made during the
# boot, such as a service's /run/credentials, can become a unit after the boot has finished. A container that
# does not settle within 60 s is reported on stderr; the tests then go on and fail or pass on what they see.
_lab_container_settle() {
        local before now state i
        state=$(timeout 60 nsenter -t "$L" -a systemctl is-system-running --wait 2>&1)
        before=$(_lab_container_units)
        for i in $(seq 60); do
                sleep 1
                now=$(_lab_container_units)
                [ "$now" = "$before" ] &&
                        [ -z "$(nsenter -t "$L" -a systemctl list-jobs --no-legend 2> /dev/null)" ] && return 0
                before=$now
        done
        echo "# lab container $BOOT_SUITE did not settle in 60 s (state: ${state:-unknown})" >&2
}

lab_container_poweroff() {
        local p
        [ -n "$BOOT_PID" ] || return 0
        [ -n "$L" ] && kill -s RTMIN+4 "$L" 2> /dev/null
        for _ in $(seq 300); do kill -0 "$BOOT_PID" 2> /dev/null || break; sleep 0.1; done
        if kill -0 "$BOOT_PID" 2> /dev/null; then
                # no clean poweroff: SIGTERM makes our nspawn halt the container
                for p in $(cat "$CG/lab-$BOOT_SUITE-$BOOT_PID"/cgroup.procs \
                               "$CG/lab-$BOOT_SUITE-$BOOT_PID"/supervisor/cgroup.procs 2> /dev/null); do
                        [ "$(cat "/proc/$p/comm" 2> /dev/null)" = systemd-nspawn ] && kill "$p"
                done
                wait "$BOOT_PID" 2> /dev/null
        fi
        wait "$BOOT_PID" 2> /dev/null
        L= R= BOOT_PID=
        unset DBUS_SYSTEM_BUS_ADDRESS
}
