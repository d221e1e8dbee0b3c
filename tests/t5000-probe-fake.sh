#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The bootrace binary against the fake manager (tests/unit/fake-systemd) on a private dbus-daemon: probe's exit
# statuses (0 done, 1 failed, 2 unknown), what --like and -p send to StartTransientUnit, the cleanup after a
# timeout or an interruption, a name in use; show --live, graph --live and chain on the fake's small system.
. "$(dirname "$0")/lib.sh"

command -v dbus-daemon > /dev/null || skip_all "dbus-daemon not installed"
command -v busctl > /dev/null || skip_all "busctl not installed (package systemd)"
command -v python3 > /dev/null || skip_all "python3 not installed (the JSON checks use it)"
FAKE_BIN=$top_builddir/tests/unit/fake-systemd
[ -x "$FAKE_BIN" ] || skip_all "$FAKE_BIN not built (make check builds it)"
FAKE=$(wrap_program "$FAKE_BIN") # under WRAPPER like bootrace: it is our code too

DAEMON_PID= FAKE_PID=
stop_fake() {
        [ -z "$FAKE_PID" ] || { kill "$FAKE_PID" 2> /dev/null; wait "$FAKE_PID" 2> /dev/null; }
        FAKE_PID=
}
stop_bus() {
        stop_fake
        [ -z "$DAEMON_PID" ] || kill "$DAEMON_PID" 2> /dev/null
        DAEMON_PID=
}
trap 'stop_bus; _test_exit' EXIT

start_bus() {
        mkdir -p "$TMP/bus"
        cat > "$TMP/bus/bus.conf" <<EOF
<busconfig><type>session</type><listen>unix:tmpdir=$TMP/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
EOF
        dbus-daemon --config-file="$TMP/bus/bus.conf" --fork --nopidfile --print-address=3 --print-pid=4 \
                3> "$TMP/bus/addr" 4> "$TMP/bus/pid" 2> /dev/null || return 1
        DAEMON_PID=$(cat "$TMP/bus/pid")
        DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$TMP/bus/addr")
        export DBUS_SYSTEM_BUS_ADDRESS
}

# start_fake SCENARIO: a fresh fake with an empty call log
start_fake() {
        stop_fake
        : > "$TMP/calls.log"
        "$FAKE" "$1" --log="$TMP/calls.log" > "$TMP/fake.out" &
        FAKE_PID=$!
        # bounded, but generous: a loaded machine (parallel tests, sanitizers) can take seconds to start it
        local unique=
        for _ in $(seq 600); do
                unique=$(sed -n 's/^READY //p' "$TMP/fake.out" 2> /dev/null)
                [ -n "$unique" ] && break
                kill -0 "$FAKE_PID" 2> /dev/null || break
                sleep 0.05
        done
        # READY comes after RequestName; the bus may still be handing the name over from the fake before:
        # wait until it names this fake as the owner, so no test starts against a bus without one
        for _ in $(seq 600); do
                [ -n "$unique" ] || break
                busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
                        org.freedesktop.DBus GetNameOwner s org.freedesktop.systemd1 2> /dev/null |
                        grep -qxF "s \"$unique\"" && return 0
                kill -0 "$FAKE_PID" 2> /dev/null || break
                sleep 0.05
        done
        echo "fake-systemd $1 did not come up"
        return 1
}

start_bus || skip_all "cannot start a private dbus-daemon"

# --- probe: verdicts and exit statuses
start_fake S1
test_expect "probe: done -> exit 0" sh -c '
        $BOOTRACE probe --unit=probe-test.service --journal-lines=0 > "$1/out" || exit 1
        grep -q "^verdict: done" "$1/out" && grep -q "^service result: success" "$1/out"' sh "$TMP"
test_expect "probe: the transient unit is a oneshot, pinned, running /bin/true" sh -c '
        grep -q "PROP Type=oneshot" "$1" && grep -q "PROP AddRef=yes" "$1" &&
        grep -q "PROP ExecStart=/bin/true" "$1" && grep -q "CALL StartTransientUnit probe-test.service fail" "$1"' \
        sh "$TMP/calls.log"

start_fake S15:exit-code:1:226
test_expect "probe: failed -> exit 1, with the cause" sh -c '
        rc=0; $BOOTRACE probe --journal-lines=0 > "$1/out" || rc=$?
        [ $rc = 1 ] && grep -q "^verdict: failed" "$1/out" && grep -q "226/NAMESPACE" "$1/out"' sh "$TMP"
test_expect "probe: a failed unit is reset after reading" grep -q "CALL ResetFailedUnit bootrace-probe-" "$TMP/calls.log"

start_fake S6
test_expect "probe: no JobRemoved -> exit 2 at the deadline, unknown, stopped and reset" sh -c '
        rc=0; $BOOTRACE probe --timeout=0.5 --journal-lines=0 > "$1/out" || rc=$?
        [ $rc = 2 ] && grep -q "^verdict: unknown" "$1/out" && grep -q "^outcome: timeout" "$1/out" &&
        grep -q "^cleanup: done" "$1/out" && grep -q "CALL StopUnit bootrace-probe-.* replace" "$1/calls.log" &&
        grep -q "CALL ResetFailedUnit" "$1/calls.log"' sh "$TMP"

start_fake S6
test_expect "probe: SIGINT ends the wait -> exit 2, interrupted, the unit stopped" sh -c '
        $BOOTRACE probe --timeout=30 --journal-lines=0 > "$1/out" & pid=$!
        for _ in $(seq 600); do grep -q StartTransientUnit "$1/calls.log" && break; sleep 0.05; done
        kill -INT $pid; rc=0; wait $pid || rc=$?
        [ $rc = 2 ] && grep -q "^outcome: interrupted" "$1/out" && grep -q "CALL StopUnit" "$1/calls.log"' sh "$TMP"

start_fake S10:active
test_expect "probe: a unit of that name is active -> exit 2, left alone" sh -c '
        rc=0; $BOOTRACE probe --unit=probe-test.service --journal-lines=0 > "$1/out" || rc=$?
        [ $rc = 2 ] && grep -q "^outcome: already-running" "$1/out" &&
        ! grep -q -e StopUnit -e ResetFailedUnit "$1/calls.log"' sh "$TMP"

# --- --like and -p: what reaches StartTransientUnit
mkdir -p "$TMP/units/like.service.d"
cat > "$TMP/units/like.service" <<'EOF'
[Unit]
Description=A sandboxed service
DefaultDependencies=no
[Service]
ExecStart=/usr/sbin/food
PrivateTmp=yes
ProtectSystem=strict
ReadWritePaths=/var/lib/food -/var/cache/food
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
EOF
printf '[Service]\nProtectHome=read-only\n' > "$TMP/units/like.service.d/10-home.conf"
start_fake S1
test_expect "probe --like=FILE: the unit's sandbox settings are sent" sh -c '
        $BOOTRACE probe --like="$1/units/like.service" -p ProtectSystem=full --journal-lines=0 \
                -- /bin/sh -c "exit 0" > "$1/out" || exit 1
        log=$1/calls.log
        grep -qx "PROP DefaultDependencies=no" "$log" && grep -qx "PROP PrivateTmp=yes" "$log" &&
        grep -qx "PROP ReadWritePaths=/var/lib/food -/var/cache/food" "$log" &&
        grep -qx "PROP ProtectHome=read-only" "$log" && grep -qx "PROP ProtectSystem=full" "$log" &&
        grep -qx "PROP ExecStart=/bin/sh -c exit 0" "$log" && ! grep -q "PROP ExecStart=/usr/sbin/food" "$log"' \
        sh "$TMP"
test_expect "probe --like: origins and what is not applied are reported" sh -c '
        grep -q "PrivateTmp=yes.*# .*like.service:6" "$1" && grep -q "ProtectHome=read-only.*10-home.conf:2" "$1" &&
        grep -q "ProtectSystem=full.*# -p" "$1" && grep -q "not applied: CapabilityBoundingSet=" "$1"' sh "$TMP/out"

start_fake S1
test_expect "probe --format=json: the verdict and the properties" sh -c '
        $BOOTRACE probe --format=json -p PrivateTmp=yes --journal-lines=0 > "$1" || exit 1
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"verdict\"] == \"done\" and d[\"outcome\"] == \"done\" and d[\"job_result\"] == \"done\"
assert d[\"exit_code\"] == \"exited\" and d[\"exit_status\"] == 0 and d[\"attempts\"] == 1
assert {\"name\": \"PrivateTmp\", \"value\": \"yes\", \"origin\": \"-p\"} in d[\"properties\"]
assert d[\"cleanup\"] == \"none\" and len(d[\"invocation_id\"]) == 32
" "$1"' sh "$TMP/out.json"

test_expect "probe: a setting it cannot apply is a usage error (exit 2)" \
        expect_exit 2 bootrace probe -p ExecStart=/bin/x
test_expect "probe: a bad --timeout is a usage error" \
        expect_error 2 "^bootrace: probe: --timeout=soon: expected seconds" bootrace probe --timeout=soon
test_expect "probe: an unknown command is an error" expect_exit 2 bootrace probe -- no-such-command-here

stop_fake
test_expect "probe: nobody owns org.freedesktop.systemd1 -> exit 2, not reachable" sh -c '
        rc=0; $BOOTRACE probe --journal-lines=0 > "$1/out" 2> "$1/err" || rc=$?
        [ $rc = 2 ] && grep -q "not reachable" "$1/out" "$1/err"' sh "$TMP"

# --- show --live, graph --live, chain on the fake's booted system
start_fake live
test_expect "show --live: names, fragment, drop-ins, dependencies by type" sh -c '
        $BOOTRACE show --live early-alias.service > "$1" || exit 1
        grep -qx "Names: early.service early-alias.service" "$1" &&
        grep -qx "Fragment: /lib/systemd/system/early.service" "$1" &&
        grep -qx "DropIn: /etc/systemd/system/early.service.d/override.conf" "$1" &&
        grep -qx "Requires: local-fs.target" "$1" && grep -qx "After: local-fs.target" "$1"' sh "$TMP/show.txt"
test_expect "show --live --format=json" sh -c '
        $BOOTRACE show --live --format=json late.service > "$1" || exit 1
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
u = d[\"units\"][0]
assert d[\"source\"] == \"live\" and d[\"systemd\"] == \"252.99-fake\"
assert u[\"id\"] == \"late.service\" and u[\"load_state\"] == \"loaded\" and u[\"active_state\"] == \"active\"
assert u[\"dependencies\"][\"After\"] == [\"early.service\", \"other.service\", \"never.service\"]
assert u[\"timestamps\"][\"active_enter_usec\"] == 5401500
" "$1"' sh "$TMP/show.json"
test_expect "show --live: a unit without a file -> exit 2" expect_exit 2 bootrace show --live nothere.service

cat > "$TMP/chain.expected" <<'EOF'
The time when unit became active or started is printed after the "@" character.
The time the unit took to start is printed after the "+" character.

multi-user.target @500ms
└─late.service @400ms +1ms
  └─early.service @100ms +250ms
    └─local-fs.target @100ms
EOF
test_expect "chain (live by default): as systemd-analyze critical-chain" sh -c '
        LC_ALL=C.UTF-8 $BOOTRACE chain multi-user.target > "$2" && diff -u "$1" "$2"' \
        sh "$TMP/chain.expected" "$TMP/chain.out"
test_expect "chain: default.target, resolved by PID 1" sh -c '
        LC_ALL=C.UTF-8 $BOOTRACE chain --live > "$2" && diff -u "$1" "$2"' \
        sh "$TMP/chain.expected" "$TMP/chain.out"
test_expect "chain: ASCII tree in the C locale, as systemd-analyze" sh -c '
        sed -e "s/└─/\`-/" -e "s/├─/|-/" -e "s/│ /| /" "$1" > "$1.ascii"
        LC_ALL=C $BOOTRACE chain multi-user.target > "$2" && diff -u "$1.ascii" "$2"' \
        sh "$TMP/chain.expected" "$TMP/chain.out"
test_expect "chain --format=json" sh -c '
        $BOOTRACE chain --format=json multi-user.target > "$1" || exit 1
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"unit\"] == \"multi-user.target\" and d[\"source\"] == \"live\"
assert [c[\"unit\"] for c in d[\"chain\"]] == [\"multi-user.target\", \"late.service\", \"early.service\", \"local-fs.target\"]
assert [c[\"level\"] for c in d[\"chain\"]] == [0, 1, 2, 3]
assert d[\"chain\"][2][\"activating_usec\"] == 100000 and d[\"chain\"][2][\"duration_usec\"] == 250000
" "$1"' sh "$TMP/chain.json"
test_expect "chain: --live and a journal option together are refused" \
        expect_exit 2 bootrace chain --live -D "$TMP"
test_expect "graph --live: the typed edges of a unit" sh -c '
        $BOOTRACE graph --live late.service > "$1" || exit 1
        grep -qx "late.service	Wants	early.service	-	live" "$1" &&
        grep -qx "late.service	After	never.service	-	live" "$1" && [ "$(wc -l < "$1")" = 4 ]' sh "$TMP/graph.txt"
