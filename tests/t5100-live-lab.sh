#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace against a real PID 1: the lab's bookworm (systemd 252) and forky (262) trees, one after the other,
# booted with systemd-nspawn, reached from the host through the container's system bus socket (the host-built binary runs on the host: see the lab
# README's glibc caveat). show --live and graph --live against systemctl show, the critical chain against
# systemd-analyze critical-chain (both run inside the container), and probe: a PrivateTmp= probe that succeeds,
# probes that fail, a timeout, a stale failed unit, a busy name and a clashing one; nothing may be left behind.
# Each container is powered off at its end, whatever happened.
. "$(dirname "$0")/lib.sh"

lab_require bookworm forky
command -v nsenter > /dev/null || skip_all "nsenter not installed"
command -v python3 > /dev/null || skip_all "python3 not installed"

. "$(dirname "$0")/lab-container-lib.sh"
trap 'lab_container_poweroff; _test_exit' EXIT
lab_judged bookworm forky

for SUITE in $LAB_JUDGED; do
        if ! lab_container_boot "$SUITE"; then
                echo "Bail out! the $SUITE container did not come up: $(tail -3 "$TMP/boot-$SUITE.log")"
                _test_skip_all=1 _test_exit_rc=1
                exit 1
        fi
        V=$(lab_tree_systemd "$SUITE")
        export JDIR=$TMP/journal-$SUITE V

        # --- show --live and graph --live against systemctl show, type by type
        units="racy-ptmp.service systemd-tmpfiles-setup.service local-fs.target multi-user.target dbus.socket -.mount"
        test_expect "$SUITE: show --live: every dependency list equals systemctl show's (6 units, 12 types)" sh -c '
                for u in $1; do
                        $BOOTRACE show --live --format=json -- "$u" > "$2/show.json" || { echo "show $u"; exit 1; }
                        for t in Requires Requisite Wants BindsTo PartOf Conflicts Before After WantedBy RequiredBy \
                                 ConsistsOf RequiresMountsFor; do
                                nsenter -t "$L" -a systemctl show -p "$t" --value -- "$u" > "$2/want" || exit 1
                                python3 -c "
import json, shlex, sys
d = json.load(open(sys.argv[1]))
got = set(d[\"units\"][0][\"dependencies\"].get(sys.argv[3], []))
want = set(shlex.split(open(sys.argv[2]).read()))
assert got == want, (sys.argv[4], sys.argv[3], sorted(got ^ want))
" "$2/show.json" "$2/want" "$t" "$u" || exit 1
                        done
                done' sh "$units" "$TMP"
        test_expect "$SUITE: show --live: load state, fragment, names" sh -c '
                $BOOTRACE show --live racy-ptmp.service default.target > "$1" || exit 1
                grep -qx "Fragment: /etc/systemd/system/racy-ptmp.service" "$1" && grep -qx "LoadState: loaded" "$1" &&
                grep -q "^Names: graphical.target.* default.target" "$1" && grep -qx "DefaultDependencies: no" "$1"' \
                sh "$TMP/show.txt"
        # a fact of 252 (PrivateTmp= gave Wants/After=tmp.mount by name in 249..255), not of the versions after it
        [ "$V" != 252 ] || test_expect "$SUITE: show --live: the implicit PrivateTmp= edges of 252 are there" sh -c '
                grep -q "^After:.* systemd-tmpfiles-setup.service" "$1" && grep -q "^After:.* tmp.mount" "$1" &&
                grep -qx "RequiresMountsFor: /var/tmp" "$1"' sh "$TMP/show.txt"
        test_expect "$SUITE: show --live: a unit PID 1 cannot find -> exit 2" expect_exit 2 bootrace show --live no-such-unit.service
        test_expect "$SUITE: graph --live: the After= edges of a unit equal systemctl show's" sh -c '
                $BOOTRACE graph --live racy-ptmp.service > "$1" || exit 1
                want=$(nsenter -t "$L" -a systemctl show -p After --value racy-ptmp.service |
                       python3 -c "import shlex, sys; print(chr(10).join(shlex.split(sys.stdin.read())))" | sort)
                got=$(awk -F"\t" "\$2 == \"After\" { print \$3 }" "$1" | sort)
                [ "$want" = "$got" ] || { echo "systemctl [$want] bootrace [$got]"; exit 1; }' sh "$TMP/graph.txt"
        test_expect "$SUITE: graph --live: every loaded unit, JSON" sh -c '
                BOOTRACE_BUS_STATS=1 $BOOTRACE graph --live --format=json > "$1" 2> "$1.err" || exit 1
                n=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain | wc -l)
                python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"systemd\"] == int(sys.argv[3]) and d[\"systemd_from\"] == \"live\", d[\"systemd\"]
assert abs(len(d[\"units\"]) - int(sys.argv[2])) <= 3, (len(d[\"units\"]), sys.argv[2])
assert len(d[\"edges\"]) > 500 and all(e[\"origin\"][\"kind\"] == \"live\" for e in d[\"edges\"])
" "$1" "$n" "$V" && cat "$1.err"' sh "$TMP/graph.json"

        # --- the critical chain against systemd-analyze inside the container
        test_expect "$SUITE: chain: the same as systemd-analyze critical-chain (default.target and 4 units, fuzz 0 and 50ms)" sh -c '
                for args in "" racy-ptmp.service systemd-logind.service sysinit.target dbus.service "--fuzz=50ms"; do
                        $BOOTRACE chain $args > "$1/mine" || { echo "chain $args failed"; exit 1; }
                        nsenter -t "$L" -a systemd-analyze critical-chain --no-pager $args > "$1/theirs" || exit 1
                        diff -u "$1/theirs" "$1/mine" || { echo "differs: chain $args"; exit 1; }
                done' sh "$TMP"
        test_expect "$SUITE: chain --format=json: the units of the text chain, in order" sh -c '
                $BOOTRACE chain --format=json multi-user.target > "$1/chain.json" &&
                $BOOTRACE chain multi-user.target > "$1/chain.txt" || exit 1
                python3 -c "
import json, re, sys
d = json.load(open(sys.argv[1]))
tree = re.compile(r\"^(?:│ |\\| |  )*(?:└─|├─|\`-|\\|-)\")
text = [tree.sub(\"\", l).split(\" \")[0] for l in open(sys.argv[2]).read().splitlines()[3:]]
assert [c[\"unit\"] for c in d[\"chain\"]] == [t for t in text if t != \"...\"], text
" "$1/chain.json" "$1/chain.txt"' sh "$TMP"

        # --- probe against the real PID 1
        test_expect "$SUITE: probe --like=racy-ptmp.service (PrivateTmp=yes): done, with its own journal lines" sh -c '
                $BOOTRACE probe --root="$R" -D "$JDIR" --like=racy-ptmp.service \
                        -- /bin/sh -c "echo probe-marker-one; test -w /tmp" > "$1/out" || { cat "$1/out"; exit 1; }
                grep -q "^  PrivateTmp=yes .*racy-ptmp.service:" "$1/out" && grep -q "^verdict: done" "$1/out" &&
                grep -q "^exit: exited, status 0" "$1/out" && grep -q "sh\[[0-9]*\]: probe-marker-one" "$1/out" &&
                grep -q "systemd\[1\]: .*Deactivated successfully" "$1/out"' sh "$TMP"
        test_expect "$SUITE: probe: a sandbox that cannot be set up fails with 226/NAMESPACE (exit 1)" sh -c '
                rc=0; $BOOTRACE probe -D "$JDIR" -p PrivateTmp=yes -p ReadWritePaths=/no/such/dir \
                        > "$1/out" || rc=$?
                [ $rc = 1 ] && grep -q "^verdict: failed" "$1/out" && grep -q "status 226/NAMESPACE" "$1/out" &&
                grep -q "Failed at step NAMESPACE" "$1/out"' sh "$TMP"
        test_expect "$SUITE: probe: a command that fails (exit 1), its output in the journal lines" sh -c '
                rc=0; $BOOTRACE probe -D "$JDIR" --format=json -p PrivateTmp=yes \
                        -- /bin/sh -c "echo probe-marker-two; exit 3" > "$1/out.json" || rc=$?
                [ $rc = 1 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"verdict\"] == \"failed\" and d[\"service_result\"] == \"exit-code\" and d[\"exit_status\"] == 3, d
assert d[\"journal_complete\"] and any(l[\"message\"] == \"probe-marker-two\" for l in d[\"journal\"]), d[\"journal\"]
" "$1/out.json"' sh "$TMP"
        test_expect "$SUITE: probe: a timeout is unknown (exit 2), and the unit is stopped and reset" sh -c '
                rc=0; $BOOTRACE probe --timeout=1 -p PrivateTmp=yes -- /bin/sleep 60 > "$1/out" || rc=$?
                [ $rc = 2 ] && grep -q "^outcome: timeout" "$1/out" && grep -q "^cleanup: done" "$1/out" &&
                [ -z "$(nsenter -t "$L" -a systemctl list-units --all --no-legend "bootrace-probe-*")" ]' sh "$TMP"
        test_expect "$SUITE: probe: a stale failed transient unit of that name is reset and the start retried" sh -c '
                nsenter -t "$L" -a systemd-run --quiet --unit=bootrace-stale -p Type=oneshot /bin/false 2> /dev/null
                [ "$(nsenter -t "$L" -a systemctl is-failed bootrace-stale.service)" = failed ] || exit 1
                $BOOTRACE probe --format=json --journal-lines=0 --unit=bootrace-stale.service > "$1/out" &&
                python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"verdict\"] == \"done\" and d[\"attempts\"] == 2, d
" "$1/out"' sh "$TMP"
        test_expect "$SUITE: probe: a running unit of that name is left alone (exit 2)" sh -c '
                # 10 s: the second probe must find the first one running even when each starts slowly (valgrind, load)
                $BOOTRACE probe --journal-lines=0 --unit=bootrace-busy.service -- /bin/sleep 10 \
                        > "$1/first" & pid=$!
                for _ in $(seq 100); do   # a oneshot is "activating" while it runs
                        [ "$(nsenter -t "$L" -a systemctl show -p ActiveState --value bootrace-busy.service)" = activating ] &&
                                break
                        sleep 0.1
                done
                rc=0; $BOOTRACE probe --journal-lines=0 --unit=bootrace-busy.service > "$1/second" || rc=$?
                wait $pid || exit 1
                [ $rc = 2 ] && grep -q "^outcome: already-running" "$1/second" && grep -q "^verdict: done" "$1/first"' \
                sh "$TMP"
        test_expect "$SUITE: probe: the name of a unit file is left alone (exit 2)" sh -c '
                before=$(nsenter -t "$L" -a systemctl show -p ActiveState -p InvocationID racy-ptmp.service)
                rc=0; $BOOTRACE probe --journal-lines=0 --unit=racy-ptmp.service > "$1/out" || rc=$?
                after=$(nsenter -t "$L" -a systemctl show -p ActiveState -p InvocationID racy-ptmp.service)
                [ $rc = 2 ] && grep -q "^outcome: name-clash" "$1/out" && [ "$before" = "$after" ]' sh "$TMP"
        test_expect "$SUITE: probe: nothing is left behind" sh -c '
                [ -z "$(nsenter -t "$L" -a systemctl list-units --all --no-legend "bootrace-*")" ]'
        lab_container_poweroff
done
