#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --machine and --host against a real PID 1: the lab's bookworm (252) and forky (262) trees, one after the other,
# booted with systemd-nspawn. -M NAME goes through libsystemd's sd_bus_open_system_machine(): it reads the
# container's leader from machined's record /run/systemd/machines/NAME (LEADER=, CLASS=container), enters the
# leader's namespaces and connects to the bus socket inside. The host may have no systemd-machined (and nspawn runs with --register=no), so the test writes
# that record itself, in a private mount namespace with a fresh /run (the host's /run is not touched); everything
# after it is real. -H [USER@]HOST[:PORT]/MACHINE goes through sd_bus_open_system_remote(): ssh -p PORT HOST
# systemd-stdio-bridge --machine=MACHINE, here to an sshd of our own on 127.0.0.1 started in that namespace (key
# only; ssh found first in PATH is a wrapper adding -F with our keys and known hosts: sd-bus runs "ssh" by
# PATH). Each transport must give what the container's bus socket gives; unknown machines and unreachable hosts
# are errors (exit 2).
. "$(dirname "$0")/lib.sh"

lab_require bookworm forky
command -v nsenter > /dev/null || skip_all "nsenter not installed"
command -v unshare > /dev/null || skip_all "unshare not installed"
[ "$(id -u)" = 0 ] || skip_all "needs root (a private mount namespace)"

. "$(dirname "$0")/lab-container-lib.sh"
NS_PID= SSHD_PID=
cleanup() {
        [ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2> /dev/null && wait "$SSHD_PID" 2> /dev/null
        [ -n "$NS_PID" ] && kill "$NS_PID" 2> /dev/null && wait "$NS_PID" 2> /dev/null
        SSHD_PID= NS_PID=
        lab_container_poweroff
}
trap 'cleanup; _test_exit' EXIT
lab_judged bookworm forky

# What is needed for --host; in CI (which installs openssh) a missing piece is a failure, not a skip.
SSH_MISSING=
for c in ssh ssh-keygen sshd systemd-stdio-bridge; do
        command -v "$c" > /dev/null || [ -x "/usr/sbin/$c" ] || SSH_MISSING="$SSH_MISSING $c"
done
SSHD=$(command -v sshd || echo /usr/sbin/sshd)

for SUITE in $LAB_JUDGED; do
        V=$(lab_tree_systemd "$SUITE")
        export V
        if ! lab_container_boot "$SUITE"; then
                test_expect "$SUITE: the container comes up" bash -c 'tail -3 "$1"; false' bash "$TMP/boot-$SUITE.log"
                cleanup
                continue
        fi
        NAME=bootrace-t5201-$$
        W=$TMP/w-$SUITE
        mkdir -p "$W"
        export NAME W SOCKET=$DBUS_SYSTEM_BUS_ADDRESS

        # the private mount namespace: a fresh /run with machined's record of our container, kept by a sleeping shell
        unshare -m --propagation private sh -c '
                mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/sshd /run/systemd/machines &&
                printf "LEADER=%s\nCLASS=container\n" "$1" > "/run/systemd/machines/$2" && exec sleep 3600' \
                sh "$L" "$NAME" &
        NS_PID=$!
        for _ in $(seq 100); do
                nsenter -t "$NS_PID" -m test -f "/run/systemd/machines/$NAME" 2> /dev/null && break
                sleep 0.1
        done
        export NS_PID
        # bootrace in the namespace, with the host's (absent) system bus: only -M/-H can reach the container there
        in_ns() { nsenter -t "$NS_PID" -m -- env -u DBUS_SYSTEM_BUS_ADDRESS "$@"; }
        export -f in_ns

        unit=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain "racy-*" | awk 'NR == 1 { print $1 }')
        export unit

        # same_as_socket TAG SOCKET-READ OTHER-READ: OTHER-READ (through -M or -H) must give what SOCKET-READ (through
        # the container's bus socket) gives. The two are made one after the other, and a live system may change in
        # between (lab_container_boot waits for it to settle, but PID 1 may still load or drop a unit), so the socket
        # is read before and after: the other read passes when it equals either, fails when it differs from two socket
        # reads that agree, and is tried again (three times at most) when the system changed between them.
        same_as_socket() {
                local t=$W/$1 i
                for i in 1 2 3; do
                        eval "$2" > "$t-before.txt" && eval "$3" > "$t-other.txt" && eval "$2" > "$t-after.txt" ||
                                return 1
                        [ -s "$t-before.txt" ] || { echo "# the socket read gave nothing"; return 1; }
                        cmp -s "$t-before.txt" "$t-other.txt" || cmp -s "$t-after.txt" "$t-other.txt" && return 0
                        cmp -s "$t-before.txt" "$t-after.txt" && { diff -u "$t-before.txt" "$t-other.txt"; return 1; }
                        echo "# the system changed between two socket reads (try $i):"
                        diff -u "$t-before.txt" "$t-after.txt" | head -20
                done
                return 1
        }
        export -f same_as_socket

        test_expect "$SUITE: the record is in the namespace only, not on the host" bash -c '
                in_ns test -f "/run/systemd/machines/$NAME" && [ ! -e "/run/systemd/machines/$NAME" ]'
        test_expect "$SUITE: without -M the namespace reaches no system bus (exit 2)" bash -c '
                in_ns $BOOTRACE graph --live > /dev/null 2>&1; [ $? = 2 ]'
        test_expect "$SUITE: -M: graph --live gives what the container's bus socket gives" bash -c '
                same_as_socket graph-m "\$BOOTRACE graph --live" "in_ns \$BOOTRACE graph --live -M \"\$NAME\""'
        test_expect "$SUITE: -M: show --live of a lab unit likewise" bash -c '
                same_as_socket show-m "\$BOOTRACE show --live \"\$unit\"" \
                        "in_ns \$BOOTRACE show --live --machine=\"\$NAME\" \"\$unit\""'
        test_expect "$SUITE: -M: drift against systemd $V finds no difference" bash -c '
                in_ns $BOOTRACE drift -M "$NAME" --root="$R" > "$W/drift-m.txt" 2> "$W/drift-m.err"
                rc=$?; cat "$W/drift-m.txt" "$W/drift-m.err"
                [ $rc = 0 ] && [ ! -s "$W/drift-m.txt" ] && grep -q "systemd $V ($V[.-]" "$W/drift-m.err"'
        test_expect "$SUITE: -M of a machine without a record is an error naming it (exit 2)" bash -c '
                rc=0; in_ns $BOOTRACE drift -M "nosuch-$NAME" --root="$R" 2> "$W/nosuch.err" || rc=$?
                cat "$W/nosuch.err"; [ $rc = 2 ] && grep -q "machine nosuch-$NAME" "$W/nosuch.err"'

        if [ -n "$SSH_MISSING" ]; then
                for t in "-H: graph --live over ssh" "-H: drift over ssh" "-H: an unreachable host"; do
                        if [ "${CI:-}" = true ]; then
                                test_expect "$SUITE: $t (needs$SSH_MISSING)" false
                        else
                                test_skip "$SUITE: $t" "not installed:$SSH_MISSING (openssh-server, openssh-client, systemd)"
                        fi
                done
                cleanup
                continue
        fi

        # our sshd on a free port of 127.0.0.1, key only; the ssh wrapper
        S=$TMP/ssh-$SUITE
        mkdir -p "$S/bin"
        ssh-keygen -q -t ed25519 -N "" -f "$S/key" && ssh-keygen -q -t ed25519 -N "" -f "$S/hostkey" &&
                cp "$S/key.pub" "$S/authorized_keys"
        PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        cat > "$S/sshd_config" << EOF2
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/hostkey
AuthorizedKeysFile $S/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $S/sshd.pid
EOF2
        echo "[127.0.0.1]:$PORT $(cat "$S/hostkey.pub")" > "$S/known_hosts"
        cat > "$S/ssh_config" << EOF2
Host *
  IdentityFile $S/key
  IdentitiesOnly yes
  UserKnownHostsFile $S/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  LogLevel ERROR
EOF2
        printf '#!/bin/sh\nexec %s -F %s "$@"\n' "$(command -v ssh)" "$S/ssh_config" > "$S/bin/ssh"
        chmod +x "$S/bin/ssh"
        nsenter -t "$NS_PID" -m -- "$SSHD" -D -e -f "$S/sshd_config" 2> "$TMP/sshd.log" &
        SSHD_PID=$!
        for _ in $(seq 100); do
                (exec 3<> "/dev/tcp/127.0.0.1/$PORT") 2> /dev/null && break
                sleep 0.1
        done
        export PORT S HOSTSPEC="root@127.0.0.1:$PORT/$NAME"

        test_expect "$SUITE: -H: graph --live over ssh (systemd-stdio-bridge --machine) gives what the socket gives" bash -c '
                same_as_socket graph-h "\$BOOTRACE graph --live" \
                        "PATH=\$S/bin:\$PATH in_ns \$BOOTRACE graph --live -H \"\$HOSTSPEC\"" ||
                        { cat "$TMP/sshd.log"; exit 1; }'
        test_expect "$SUITE: -H: drift over ssh finds no difference" bash -c '
                PATH=$S/bin:$PATH in_ns $BOOTRACE drift --host="$HOSTSPEC" --root="$R" > "$W/drift-h.txt" 2> "$W/drift-h.err"
                rc=$?; cat "$W/drift-h.txt" "$W/drift-h.err"
                [ $rc = 0 ] && [ ! -s "$W/drift-h.txt" ] && grep -q "systemd $V ($V[.-]" "$W/drift-h.err" &&
                        grep -q "Accepted publickey for root" "$TMP/sshd.log"'
        test_expect "$SUITE: -H: an unreachable host is an error (exit 2)" bash -c '
                kill "$(cat "$S/sshd.pid")"
                for _ in $(seq 50); do (exec 3<> "/dev/tcp/127.0.0.1/$PORT") 2> /dev/null || break; sleep 0.1; done
                PATH=$S/bin:$PATH in_ns $BOOTRACE drift -H "$HOSTSPEC" --root="$R" 2>&1; [ $? = 2 ]'
        cleanup
done
