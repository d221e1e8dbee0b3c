#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Profiles (rules/profile-TARGET.xml): a --target is judged with what a default installation of the release adds
# to the boot transaction. fcoe-utils (After=lldpad.service, Before=network.target) and lldpad
# (After=network.target) close a cycle only when something pulls network.target in: on debian-bookworm that is
# ifupdown's networking.service, installed by default. The cycle is reported with the default profile, says so
# in every output format, and is gone with --profile=minimal; --root is judged as it is. Then the real packages
# (apt-get download, cached under LAB_SRV), and cloud-init's units with ubuntu-noble's cloud profile: clean by
# themselves, in a cycle with firewalld (firewalld#414's shape).
# rhel-10: an early unit that waits for network-online.target cycles through NetworkManager-wait-online; forky
# and sid: the fcoe-utils cycle with their own ifupdown.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"
export LAB_SRV=${LAB_SRV:-/srv/lab}

U=$FIXTURES/lint/profile-fcoe-bookworm/units
NOTE="with ifupdown's networking.service, as installed by default on debian-bookworm"

lint() { "$BOOTRACE" lint --no-color "$@"; }

default_profile() {
        local rc=0
        lint --target=debian-bookworm "$U" > "$TMP/d.txt" 2> "$TMP/d.err" || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; cat "$TMP/d.txt" "$TMP/d.err"; return 1; }
        grep -q "fcoe-utils.service: error: \[ordering-cycle\] .*($NOTE)\$" "$TMP/d.txt" &&
                grep -q "lldpad.service: error: \[ordering-cycle\] .*($NOTE)\$" "$TMP/d.txt" &&
                grep -q "network.target is in the boot transaction through networking.service (ifupdown 0.8.41)" \
                        "$TMP/d.txt" &&
                grep -q "multi-user.target Wants=networking.service (link profile-debian-bookworm.xml:" \
                        "$TMP/d.txt" &&
                grep -q "^debian-bookworm: profile server (default): ifupdown 0.8.41" "$TMP/d.err"
}

minimal_profile() {
        lint --target=debian-bookworm --profile=minimal "$U" > "$TMP/m.txt" 2> "$TMP/m.err" &&
                ! grep -q "ordering-cycle" "$TMP/m.txt" && ! grep -q "profile server" "$TMP/m.err"
}

named_default() {
        # --profile=server is the default, named
        lint -q --target=debian-bookworm "$U" > "$TMP/d1.txt"
        lint -q --target=debian-bookworm --profile=server "$U" > "$TMP/s.txt"
        [ $? = 1 ] && test_cmp "$TMP/d1.txt" "$TMP/s.txt"
}

formats() {
        lint -q --target=debian-bookworm --format=json "$U" > "$TMP/j.json"
        [ $? = 1 ] || return 1
        jq -e --arg n "$NOTE" '
                .profile == {"name": "server", "target": "debian-bookworm", "default": true,
                             "file": "profile-debian-bookworm.xml",
                             "packages": [{"name": "ifupdown", "version": "0.8.41"},
                                          {"name": "dbus", "version": "1.14.10-1~deb12u1"},
                                          {"name": "dbus-system-bus-common", "version": "1.14.10-1~deb12u1"}]} and
                ([.findings[] | select(.check == "ordering-cycle") | .profile] == [$n, $n]) and
                ([.findings[] | select(.check == "ordering-cycle") | .message | endswith("(" + $n + ")")] | all)' \
                "$TMP/j.json" > /dev/null || { jq . "$TMP/j.json"; return 1; }
        lint -q --target=debian-bookworm --format=sarif "$U" > "$TMP/s.sarif"
        grep -q "$NOTE" "$TMP/s.sarif" || return 1
        lint -q --target=debian-bookworm --format=junit "$U" > "$TMP/j.xml"
        grep -q "$NOTE" "$TMP/j.xml" || return 1
        lint -q --target=debian-bookworm --profile=minimal --format=json "$U" | jq -e '.profile == null' > /dev/null
}

root_as_is() {
        # a root is judged with its own units: no profile, and asking for one is a usage error
        mkdir -p "$TMP/root/etc/systemd/system" "$TMP/root/usr/lib/systemd/system"
        lint -q --root="$TMP/root" --systemd=252 --format=json "$U" | jq -e '.profile == null' > /dev/null &&
                expect_exit 2 lint --root="$TMP/root" --profile=server "$U" 2> "$TMP/r.err" &&
                grep -q -- "--profile=server: a --root is judged as it is" "$TMP/r.err"
}

bad_profiles() {
        expect_exit 2 lint --target=debian-bookworm --profile=nosuch "$U" 2> "$TMP/b.err" &&
                grep -q "debian-bookworm has no profile nosuch; its profiles: minimal server desktop" "$TMP/b.err" &&
                expect_exit 2 lint --systemd=252 --profile=server "$U" 2> "$TMP/b2.err" &&
                grep -q -- "--profile=server needs --target" "$TMP/b2.err" &&
                # no profile for the target: systemd's units only, with --profile=minimal accepted
                lint -q --target=ubuntu-xenial --profile=minimal "$U" > /dev/null
}

desktop_extends() {
        # the desktop profile holds the server's units too, and NetworkManager's
        lint -q --target=debian-bookworm --profile=desktop --format=json "$U" > "$TMP/k.json"
        jq -e '.profile.packages == [{"name": "ifupdown", "version": "0.8.41"},
                                     {"name": "dbus", "version": "1.14.10-1~deb12u1"},
                                     {"name": "dbus-system-bus-common", "version": "1.14.10-1~deb12u1"},
                                     {"name": "network-manager", "version": "1.42.4-1+deb12u1"}] and
               ([.findings[] | select(.check == "ordering-cycle")] | length == 2)' "$TMP/k.json" > /dev/null
}

real_packages() {
        local debs
        debs=$("$top_srcdir/rules/profile-src/deb-fetch.sh" bookworm fcoe-utils lldpad 2> "$TMP/f.err") ||
                { cat "$TMP/f.err"; return 1; }
        # shellcheck disable=SC2086 # one path a line, no blanks
        (cd "$TMP" && lint -q --target=debian-bookworm $debs) > "$TMP/p.txt"
        [ $? = 1 ] && grep -q "fcoe-utils_.*\.deb:lib/systemd/system/fcoe-utils.service: error: \[ordering-cycle\].*($NOTE)" \
                "$TMP/p.txt" || { cat "$TMP/p.txt"; return 1; }
        # shellcheck disable=SC2086
        (cd "$TMP" && lint -q --target=debian-bookworm --profile=minimal $debs) > "$TMP/pm.txt" ||
                { cat "$TMP/pm.txt"; return 1; }
}

cloud_clean() {
        # cloud-init's own units (and netplan's networkd) make no cycle with a harmless unit
        printf '[Service]\nExecStart=/bin/true\n\n[Install]\nWantedBy=multi-user.target\n' > "$TMP/plain.service"
        lint -q --target=ubuntu-noble --profile=cloud --format=json "$TMP/plain.service" > "$TMP/c.json" &&
                jq -e '.findings == [] and .profile.name == "cloud" and
                       ([.profile.packages[].name] == ["netplan.io", "dbus", "cloud-init"])' "$TMP/c.json" > /dev/null
}

cloud_firewalld() {
        local f=$FIXTURES/lint/profile-firewalld-noble-cloud/units
        lint --target=ubuntu-noble --profile=cloud "$f" > "$TMP/fw.txt" 2> /dev/null
        [ $? = 1 ] || return 1
        grep -q "firewalld.service: error: \[ordering-cycle\] .*(with dbus's dbus.service and dbus.socket and cloud-init's cloud-init.service and cloud-config.service, as profile cloud of ubuntu-noble installs them)" "$TMP/fw.txt" ||
                { cat "$TMP/fw.txt"; return 1; }
        # networkd is systemd's own unit (base-255, upstream units/), enabled by netplan; dbus is the profile's
        grep -q "^      systemd-networkd.service After=network-pre.target (base-255.xml:" "$TMP/fw.txt" &&
                grep -q "^      cloud-init.service After=systemd-networkd-wait-online.service (profile-ubuntu-noble.xml:" "$TMP/fw.txt" &&
                grep -q "^      firewalld.service After=dbus.service (" "$TMP/fw.txt" || { cat "$TMP/fw.txt"; return 1; }
        lint -q --target=ubuntu-noble "$f" > /dev/null # the server profile has no cloud-init: no cycle
}

rhel10_wait_online() {
        # an early unit (DefaultDependencies=no, Before=sysinit.target) that waits for network-online.target:
        # on rhel-10 NetworkManager-wait-online.service is there, after NetworkManager.service, which is after
        # basic.target, so the wait closes a cycle; systemd's units alone have nothing behind network-online.target
        mkdir -p "$TMP/rh"
        printf '%s\n' '[Unit]' 'DefaultDependencies=no' 'Wants=network-online.target' \
                'After=network-online.target' 'Before=sysinit.target' '' '[Service]' 'Type=oneshot' \
                'ExecStart=/usr/bin/true' '' '[Install]' 'WantedBy=sysinit.target' > "$TMP/rh/early-net.service"
        local rc=0
        lint --target=rhel-10 "$TMP/rh" > "$TMP/rh.txt" 2> "$TMP/rh.err" || rc=$?
        [ $rc = 1 ] && grep -q "early-net.service: error: \[ordering-cycle\] .*NetworkManager-wait-online.service.*rhel-10" \
                "$TMP/rh.txt" && grep -q "^rhel-10: profile server (default): NetworkManager 1.52.0, firewalld 2.3.1" \
                "$TMP/rh.err" || { echo "exit $rc"; cat "$TMP/rh.txt" "$TMP/rh.err"; return 1; }
        lint -q --target=rhel-10 --profile=minimal "$TMP/rh" > "$TMP/rhm.txt" || { cat "$TMP/rhm.txt"; return 1; }
        ! grep -q "ordering-cycle" "$TMP/rhm.txt"
}

forky_default() {
        # debian-forky's and debian-sid's profiles (262's base model): the same fcoe-utils cycle through ifupdown
        local t
        for t in debian-forky debian-sid; do
                lint --target=$t "$U" > "$TMP/$t.txt" 2> /dev/null
                [ $? = 1 ] && grep -q "fcoe-utils.service: error: \[ordering-cycle\] .*(with ifupdown's networking.service, as installed by default on $t)" \
                        "$TMP/$t.txt" || { cat "$TMP/$t.txt"; return 1; }
                lint -q --target=$t --profile=minimal "$U" > /dev/null || return 1
        done
}

test_expect "debian-bookworm's default profile: fcoe-utils and lldpad cycle through network.target" default_profile
test_expect "--profile=minimal: systemd's units only, no cycle" minimal_profile
test_expect "--profile=server is the default" named_default
test_expect "rhel-10's default profile: an early unit waiting for network-online.target cycles through NetworkManager-wait-online" rhel10_wait_online
test_expect "debian-forky and debian-sid: fcoe-utils cycles with the default profile, not with minimal" forky_default
if command -v jq > /dev/null || [ "${CI:-}" = true ]; then
        test_expect "JSON, SARIF and JUnit say the cycle is through the profile" formats
        test_expect "--root is judged as it is, without a profile" root_as_is
        test_expect "the desktop profile extends the server's" desktop_extends
        test_expect "ubuntu-noble's cloud profile: cloud-init's units lint clean" cloud_clean
else
        for t in "output formats" "--root as it is" "desktop profile" "cloud profile clean"; do
                test_skip "$t" "jq not installed"
        done
fi
test_expect "unknown profiles and --profile without --target are usage errors" bad_profiles
test_expect "ubuntu-noble's cloud profile: firewalld closes a cycle with cloud-init (firewalld#414)" cloud_firewalld
if ! command -v dpkg-deb > /dev/null || ! command -v apt-get > /dev/null; then
        [ "${CI:-}" = true ] && { echo "Bail out! dpkg-deb or apt-get missing in CI"; exit 1; }
        test_skip "real fcoe-utils and lldpad of bookworm" "dpkg-deb or apt-get not installed"
elif [ "$(id -u)" != 0 ] && [ ! -w "$LAB_SRV" ] && [ -z "${DEB_CACHE:-}" ]; then
        [ "${CI:-}" = true ] && { echo "Bail out! cannot write the package cache under $LAB_SRV in CI"; exit 1; }
        test_skip "real fcoe-utils and lldpad of bookworm" "cannot write the package cache under $LAB_SRV"
elif [ "${CI:-}" != true ] && ! "$top_srcdir/rules/profile-src/deb-fetch.sh" bookworm fcoe-utils lldpad \
        > /dev/null 2>&1; then
        test_skip "real fcoe-utils and lldpad of bookworm" "apt-get download from the Debian archive failed"
else
        test_expect "real fcoe-utils and lldpad of bookworm (apt-get download)" real_packages
fi
