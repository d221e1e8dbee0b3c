#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# lint of a Debian package: a small .deb built here with dpkg-deb (units, a drop-in, a shipped .wants/ link,
# tmpfiles.d), read in memory; findings as PACKAGE:PATH:LINE; the same findings from the unpacked tree; every
# compression dpkg-deb writes; JSON's packages and tmpfiles; SARIF's URIs; damaged and hostile packages.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays)
. "$(dirname "$0")/lib.sh"

if ! command -v dpkg-deb > /dev/null; then
        [ "${CI:-}" = true ] && { echo "Bail out! dpkg-deb missing in CI"; exit 1; }
        skip_all "dpkg-deb not installed"
fi

P=$TMP/pkg
DEB=foo_1.0-1_all.deb

make_tree() {
        mkdir -p "$P/DEBIAN" "$P/lib/systemd/system/multi-user.target.wants" "$P/etc/systemd/system/baz.service.d" \
                "$P/usr/lib/tmpfiles.d" "$P/usr/bin" &&
        printf 'Package: foo\nVersion: 1.0-1\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: x\n x\n' \
                > "$P/DEBIAN/control" &&
        # PrivateTmp= and DefaultDependencies=no: races with the remount on xenial (229), safe from 233
        printf '[Unit]\nDescription=Foo\nDefaultDependencies=no\nBefore=sysinit.target\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/foo\nPrivateTmp=yes\n\n[Install]\nWantedBy=multi-user.target\n' \
                > "$P/lib/systemd/system/foo.service" &&
        # a path that tmpfiles.d creates, written before the remount on every version
        printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/foo\nReadWritePaths=/var/lib/foo-data\n\n[Install]\nWantedBy=multi-user.target\n' \
                > "$P/lib/systemd/system/bar.service" &&
        # the same race as foo, repaired by the package's own drop-in
        printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/foo\nPrivateTmp=yes\n\n[Install]\nWantedBy=multi-user.target\n' \
                > "$P/lib/systemd/system/baz.service" &&
        printf '[Unit]\nAfter=systemd-remount-fs.service\n' > "$P/etc/systemd/system/baz.service.d/order.conf" &&
        # no [Install]: only the shipped .wants/ link puts it into the boot, where it closes an ordering cycle
        printf '[Unit]\nDefaultDependencies=no\nBefore=systemd-remount-fs.service\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/foo\nPrivateTmp=yes\n' \
                > "$P/lib/systemd/system/qux.service" &&
        ln -s ../qux.service "$P/lib/systemd/system/multi-user.target.wants/qux.service" &&
        echo 'd /var/lib/foo-data 0755 root root -' > "$P/usr/lib/tmpfiles.d/foo.conf" &&
        printf '#!/bin/sh\n' > "$P/usr/bin/foo" && chmod 755 "$P/usr/bin/foo"
}

build() { # build COMPRESSION NAME
        ( cd "$TMP" && dpkg-deb --root-owner-group -Z"$1" --build pkg "$2" ) > "$TMP/.build" 2>&1 ||
                { cat "$TMP/.build"; return 1; }
}

lint_in_tmp() { ( cd "$TMP" && "$BOOTRACE" lint "$@" ); }

xenial_findings() {
        local rc=0
        lint_in_tmp --target=ubuntu-xenial --no-color $DEB > "$TMP/x.txt" 2> "$TMP/x.err" || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; cat "$TMP/x.err"; return 1; }
        grep -q "^$DEB: package foo 1.0-1 (all): " "$TMP/x.err" &&
                grep -q "^$DEB:lib/systemd/system/foo.service:9: error: \[private-tmp-before-remount\]" "$TMP/x.txt" &&
                grep -q "^$DEB:lib/systemd/system/qux.service:8: error: \[private-tmp-before-remount\]" "$TMP/x.txt" &&
                ! grep -q "baz.service.*private-tmp-before-remount" "$TMP/x.txt" &&
                grep -q "PrivateTmp=yes at $DEB:lib/systemd/system/foo.service:9" "$TMP/x.txt"
}

bookworm_findings() {
        local rc=0
        lint_in_tmp --target=debian-bookworm --no-color $DEB > "$TMP/b.txt" 2> "$TMP/b.err" || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; cat "$TMP/b.err"; return 1; }
        # 252 orders PrivateTmp= units after systemd-tmpfiles-setup.service itself: foo is safe there
        ! grep -q "foo.service.*private-tmp-before-remount" "$TMP/b.txt" &&
                grep -q "^$DEB:lib/systemd/system/bar.service:7: error: \[writable-path-before-remount\]" "$TMP/b.txt" &&
                grep -q "created at boot by systemd-tmpfiles-setup.service ($DEB:usr/lib/tmpfiles.d/foo.conf:1: d /var/lib/foo-data)" "$TMP/b.txt" &&
                grep -q "^$DEB:lib/systemd/system/qux.service:[0-9]*: error: \[sandbox-ordered-too-early\]" "$TMP/b.txt"
}

without_wants_link() {
        # the same package without the shipped link: qux is not in the boot transaction, no cycle
        rm -rf "$TMP/nolink" && cp -a "$P" "$TMP/nolink" && rm "$TMP/nolink/lib/systemd/system/multi-user.target.wants/qux.service" &&
                ( cd "$TMP" && dpkg-deb --root-owner-group --build nolink nolink.deb ) > /dev/null 2>&1 &&
                { lint_in_tmp --target=debian-bookworm nolink.deb > "$TMP/n.txt" 2>&1; [ $? = 1 ]; } &&
                ! grep -q "qux.service.*\[\(ordering-cycle\|sandbox-ordered-too-early\)\]" "$TMP/n.txt" && grep -q "bar.service:7" "$TMP/n.txt"
}

same_as_tree() {
        # the unpacked tree gives the same findings, at the tree's real paths
        lint_in_tmp --target=ubuntu-xenial --no-color -q pkg > "$TMP/t.txt" 2>/dev/null
        [ $? = 1 ] || return 1
        sed "s|^pkg/|$DEB:|; s|at pkg/|at $DEB:|g; s|(pkg/|($DEB:|g" "$TMP/t.txt" > "$TMP/t2.txt"
        lint_in_tmp --target=ubuntu-xenial --no-color -q $DEB 2>/dev/null > "$TMP/x2.txt"
        test_cmp "$TMP/x2.txt" "$TMP/t2.txt" && grep -q "^pkg/lib/systemd/system/foo.service:9: error" "$TMP/t.txt"
}

compressions() {
        local z
        lint_in_tmp --target=ubuntu-xenial --no-color -q $DEB > "$TMP/ref.txt" 2>/dev/null
        for z in gzip zstd none; do
                build $z "foo-$z.deb" || return 1
                lint_in_tmp --target=ubuntu-xenial --no-color -q "foo-$z.deb" 2>/dev/null |
                        sed "s|foo-$z.deb:|$DEB:|g" > "$TMP/z.txt"
                test_cmp "$TMP/ref.txt" "$TMP/z.txt" || { echo "data.tar with $z differs"; return 1; }
        done
}

json_packages() {
        lint_in_tmp --target=debian-bookworm --format=json $DEB 2>/dev/null > "$TMP/j.json"
        jq -e --arg d $DEB '
                .packages == [{"file": $d, "kind": "deb", "package": "foo", "version": "1.0-1",
                               "architecture": "all", "entries": 7}] and
                ([.tmpfiles[] | select(.file == ($d + ":usr/lib/tmpfiles.d/foo.conf"))] ==
                 [{"file": ($d + ":usr/lib/tmpfiles.d/foo.conf"), "line": 1, "type": "d", "path": "/var/lib/foo-data",
                   "mode": "0755", "user": "root", "group": "root", "age": null, "argument": null,
                   "creates": true}]) and
                ([.findings[].file] | all(startswith($d + ":lib/systemd/system/")))' "$TMP/j.json"
}

sarif_uri() {
        # members are URI references against the package's base (PACKAGE1 = "$DEB/" in the checkout); every URI
        # is an RFC 3986 reference whose first segment has no ':'; evidence that names a line of the package is
        # a related location there; fixes change artifacts of the package; messages have markdown
        lint_in_tmp --target=ubuntu-xenial --format=sarif $DEB 2>/dev/null > "$TMP/s.json"
        jq -e --arg d $DEB '
                def uriref: test("^[A-Za-z0-9._~:/?#\\[\\]@!$&'\''()*+,;=%-]*$") and
                            (test("%(?![0-9A-F]{2})") | not) and (test("^[^/:]*:") | not);
                .runs[0] as $r | ($r.results | map(select(.ruleId == "private-tmp-before-remount" and
                        .locations[0].physicalLocation.artifactLocation.uri == "lib/systemd/system/foo.service"))[0]) as $foo |
                $r.originalUriBaseIds.PACKAGE1.uri == ($d + "/") and $r.originalUriBaseIds.PACKAGE1.uriBaseId == "%SRCROOT%" and
                $foo.locations[0].physicalLocation.artifactLocation.uriBaseId == "PACKAGE1" and
                ([$foo.relatedLocations[].physicalLocation | select(. != null) |
                  select(.artifactLocation == {"uri": "lib/systemd/system/foo.service", "uriBaseId": "PACKAGE1"} and
                         .region.startLine == 9)] | length) == 1 and
                $foo.fixes[0].artifactChanges[0].artifactLocation ==
                        {"uri": "lib/systemd/system/foo.service.d/bootrace-fix.conf", "uriBaseId": "PACKAGE1"} and
                all($r.results[]; (.message.markdown | length) > 0 and
                                  (.relatedLocations // [] | length) >= (.properties.evidence | length)) and
                all(.. | objects | select(has("uri")) | .uri; uriref)' "$TMP/s.json"
}

damaged() {
        head -c $(($(stat -c %s "$TMP/$DEB") - 60)) "$TMP/$DEB" > "$TMP/cut.deb"
        expect_exit 2 lint_in_tmp --target=ubuntu-xenial cut.deb 2> "$TMP/c.err" &&
                grep -q "cut.deb" "$TMP/c.err"
}

hostile_members() {
        # a data.tar made by hand: "..", an absolute name, a link out of the package; nothing leaves the package
        local h=$TMP/hostile
        rm -rf "$h" && mkdir -p "$h/d/lib/systemd/system" "$h/c" &&
                printf '[Service]\nExecStart=/bin/true\n' > "$h/d/lib/systemd/system/ok.service" &&
                ln -s /etc/shadow "$h/d/lib/systemd/system/shadow.service" &&
                printf 'Package: hostile\nVersion: 1\nArchitecture: all\n' > "$h/c/control" &&
                printf '[Service]\nExecStart=/bin/evil\n' > "$h/evil.service" &&
                tar -C "$h/d" -cf "$h/data.tar" ./lib &&
                tar -C "$h" -rPf "$h/data.tar" --transform='s|^|../../etc/systemd/system/|' evil.service &&
                tar -C "$h" -rPf "$h/data.tar" --transform='s|^|/etc/systemd/system/|' evil.service &&
                tar -C "$h/c" -czf "$h/control.tar.gz" ./control && gzip -f "$h/data.tar" &&
                echo 2.0 > "$h/debian-binary" &&
                ( cd "$h" && ar qc hostile.deb debian-binary control.tar.gz data.tar.gz ) || return 1
        lint_in_tmp --target=debian-bookworm --no-color hostile/hostile.deb > "$h/out" 2> "$h/err"
        [ $? -le 1 ] || { cat "$h/err"; return 1; }
        grep -q 'member "../../etc/systemd/system/evil.service": absolute name or ".."' "$h/err" &&
                grep -q 'member "/etc/systemd/system/evil.service": absolute name or ".."' "$h/err" &&
                ! grep -q evil "$h/out" && ! grep -q 'shadow.service:' "$h/out"
}

not_a_package() {
        # said as a package that is damaged, not as a unit file with a bad name
        echo "not a package" > "$TMP/x.deb"
        expect_exit 2 lint_in_tmp x.deb 2> "$TMP/x.err" || return 1
        grep -q 'x.deb: error: not a Debian package (an ar archive)' "$TMP/x.err" || { cat "$TMP/x.err"; return 1; }
        ! grep -q 'not a valid unit file name' "$TMP/x.err"
}

damaged_sarif() {
        # the failure is in the report itself: SARIF's invocation names it
        expect_exit 2 lint_in_tmp --target=ubuntu-xenial --format=sarif cut.deb > "$TMP/cut.sarif" 2> /dev/null &&
                jq -e '.runs[0].invocations[0] | .executionSuccessful == false and
                        any(.toolExecutionNotifications[]; .level == "error" and
                            (.message.text | test("Truncated|damaged")))' "$TMP/cut.sarif" > /dev/null
}

test_expect "a package tree with units, a drop-in, a .wants/ link and tmpfiles.d" make_tree
test_expect "dpkg-deb builds $DEB" build xz $DEB
test_expect "xenial: findings as PACKAGE:PATH:LINE, the package's drop-in repairs baz" xenial_findings
test_expect "bookworm: tmpfiles.d evidence, the shipped .wants/ link puts qux into a cycle" bookworm_findings
test_expect "without the .wants/ link qux is in no cycle" without_wants_link
test_expect "the unpacked tree gives the same findings" same_as_tree
test_expect "data.tar with gzip, zstd and no compression" compressions
if command -v jq > /dev/null || [ "${CI:-}" = true ]; then
        test_expect "JSON: packages and tmpfiles" json_packages
else
        test_skip "JSON: packages and tmpfiles" "jq not installed"
fi
test_expect "SARIF: members as URIs against the package's base, related locations, fixes, markdown" sarif_uri
test_expect "a package cut short is an input error" damaged
if command -v jq > /dev/null || [ "${CI:-}" = true ]; then
        test_expect "SARIF of a package cut short names the failure" damaged_sarif
else
        test_skip "SARIF of a package cut short names the failure" "jq not installed"
fi
if command -v ar > /dev/null; then
        test_expect "hostile members are refused, nothing outside the package is read" hostile_members
else
        test_skip "hostile members are refused, nothing outside the package is read" "ar (binutils) not installed"
fi
test_expect "a file named .deb that is no package is an input error" not_a_package
