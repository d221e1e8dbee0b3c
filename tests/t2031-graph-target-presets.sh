#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The enablement of the releases that apply presets (fedora-40, rhel-9) and of Arch, which applies none
# (<target> of rules/base-255.xml, base-252.xml, base-262.xml, written by rules/base-src/gen-preset.py): with
# --target and no root, a unit the release's presets enable is pulled into the boot transaction (what
# graphical.target reaches along Wants=/Requires=/...) and one they disable is not, while --systemd=N alone is
# systemd's own install; and gen-preset.py applies preset files as systemctl preset-all does.
. "$(dirname "$0")/lib.sh"

PULLS=Wants,Requires,Requisite,BindsTo,Upholds

# the units the boot transaction of default.target (graphical.target in the base models) holds
pulled() { # ARGS... -> unit names on stdout
        bootrace graph "$@" --format=dot --from=graphical.target --type=$PULLS |
                sed -n 's/^\t"\([^"]*\)" -> "\([^"]*\)".*/\1\n\2/p' | sort -u
}

# in TARGET VERSION UNIT...: each UNIT is in --target's transaction and not in --systemd=VERSION's
# out TARGET VERSION UNIT...: no UNIT is in --target's transaction
in_boot() {
        local t=$1 v=$2 u; shift 2
        pulled --target="$t" > "$TMP/t.units" && pulled --systemd="$v" > "$TMP/s.units" || return 1
        [ "$(wc -l < "$TMP/t.units")" -gt 20 ] ||
                { echo "--target=$t: a transaction of $(wc -l < "$TMP/t.units") units"; return 1; }
        for u; do
                grep -qxF "$u" "$TMP/t.units" || { echo "--target=$t: $u is not pulled in"; return 1; }
                ! grep -qxF "$u" "$TMP/s.units" || { echo "--systemd=$v pulls $u in too"; return 1; }
        done
}
out_boot() {
        local t=$1 u; shift 2
        pulled --target="$t" > "$TMP/t.units" || return 1
        for u; do
                ! grep -qxF "$u" "$TMP/t.units" || { echo "--target=$t: $u is pulled in"; return 1; }
        done
}

# Fedora 40: fedora-release's 90-default.preset enables resolved and oomd and disables networkd, timesyncd and
# systemd-boot-update before systemd's 90-systemd.preset would enable them; homed and userdbd are 90-systemd's
test_expect "fedora-40: resolved, oomd, homed, userdbd.socket, pstore are in the boot" \
        in_boot fedora-40 255 systemd-resolved.service systemd-oomd.service systemd-homed.service \
        systemd-userdbd.socket systemd-pstore.service getty@tty1.service
test_expect "fedora-40: networkd, wait-online, timesyncd, boot-update are not" \
        out_boot fedora-40 255 systemd-networkd.service systemd-networkd-wait-online.service \
        systemd-timesyncd.service systemd-boot-update.service
# RHEL 9: the release's 90-default.preset disables timesyncd and resolved; 90-systemd.preset enables the rest
test_expect "rhel-9: getty@tty1, remote-fs.target, pstore, userdbd.socket are in the boot" \
        in_boot rhel-9 252 getty@tty1.service remote-fs.target systemd-pstore.service systemd-userdbd.socket
test_expect "rhel-9: resolved and timesyncd are not" \
        out_boot rhel-9 252 systemd-resolved.service systemd-timesyncd.service
test_expect "centos-stream-9 is rhel-9 (an alias): resolved not in the boot, pstore in it" sh -c '
        "$BOOTRACE" graph --target=centos-stream-9 --format=dot --from=graphical.target --type=$1 > "$2/c.dot" &&
        grep -q "\"systemd-pstore.service\"" "$2/c.dot" && ! grep -q "\"systemd-resolved.service\"" "$2/c.dot"' \
        x "$PULLS" "$TMP"
# Arch applies no preset: only its post_install's three units, not what upstream's 90-systemd.preset enables
newest=$(bootrace --version | sed -n 's/.*[0-9]\{3\}-\([0-9]\{3\}\).*/\1/p' | head -n 1)
test_expect "arch: getty@tty1, remote-fs.target, userdbd.socket are in the boot (systemd $newest)" \
        in_boot arch "$newest" getty@tty1.service remote-fs.target systemd-userdbd.socket
test_expect "arch: networkd, resolved, timesyncd, homed, pstore are not (presets not applied)" \
        out_boot arch "$newest" systemd-networkd.service systemd-resolved.service systemd-timesyncd.service \
        systemd-homed.service systemd-pstore.service
test_expect "the boot of fedora-40 has more jobs than systemd 255's own install" sh -c '
        t=$("$BOOTRACE" graph --target=fedora-40 --cycles --format=json | jq .jobs)
        s=$("$BOOTRACE" graph --systemd=255 --cycles --format=json | jq .jobs)
        echo "# fedora-40: $t jobs, systemd 255: $s"; [ "$t" -gt "$s" ]'

# gen-preset.py, on a copy of a base model, with preset files made here
GEN=$top_srcdir/rules/base-src/gen-preset.py
gen_setup() {
        cat "$BOOTRACE_RULES_DIR/base-255.xml" > "$TMP/base.xml"
        mkdir -p "$TMP/p"
        printf '%s\n' 'disable systemd-timesyncd.service' 'enable getty@.service tty2 tty3' > "$TMP/p/10-a.preset"
        printf '%s\n' '# comment' 'enable systemd-timesyncd.service' 'enable systemd-networkd.service' \
                'ignore systemd-resolved.service' > "$TMP/p/50-b.preset"
        printf '%s\n' 'disable *' > "$TMP/p/99-c.preset"
        python3 "$GEN" "$TMP/base.xml" --target=fedora-40 --source=test "$TMP"/p/*.preset &&
                sed -n '/^<target name="fedora-40"/,/^<\/target>/p' "$TMP/base.xml" > "$TMP/el"
}
has() { grep -qF "$1" "$TMP/el" || { echo "no $1 in:"; cat "$TMP/el"; return 1; }; }
hasnt() { ! grep -qF "$1" "$TMP/el" || { echo "$1 in:"; cat "$TMP/el"; return 1; }; }
gen_order() { hasnt 'name="systemd-timesyncd.service"'; }
gen_instances() {
        has '<link type="Wants" unit="getty.target" name="getty@tty2.service"/>' &&
                has 'name="getty@tty3.service"' && hasnt 'name="getty@tty1.service"'
}
gen_also() {
        has '<link type="Wants" unit="multi-user.target" name="systemd-networkd.service"/>' &&
                has '<link type="Wants" unit="sockets.target" name="systemd-networkd.socket"/>' &&
                has 'name="systemd-networkd-wait-online.service"' &&
                has '<alias name="dbus-org.freedesktop.network1.service" unit="systemd-networkd.service"/>'
}
gen_rerun() {
        hasnt systemd-resolved && hasnt systemd-homed &&
                python3 "$GEN" "$TMP/base.xml" --target=fedora-40 --source=test "$TMP"/p/*.preset &&
                [ "$(grep -c '^<target name="fedora-40"' "$TMP/base.xml")" = 1 ]
}
gen_loads() {
        mkdir -p "$TMP/rules" && cp -R "$BOOTRACE_RULES_DIR"/. "$TMP/rules/" && chmod -R u+w "$TMP/rules" &&
                cp "$TMP/base.xml" "$TMP/rules/base-255.xml" &&
                BOOTRACE_RULES_DIR=$TMP/rules bootrace graph -q --target=fedora-40 getty.target > "$TMP/g.out" &&
                grep -q "^getty.target	Wants	getty@tty2.service	" "$TMP/g.out" &&
                ! grep -q "^getty.target	Wants	getty@tty1.service	" "$TMP/g.out"
}
gen_script() {
        printf '%s\n' 'post_install() {' '  systemctl enable \' '    getty@tty1.service \' '    remote-fs.target' \
                '  systemctl --no-reload enable systemd-userdbd.socket' '}' > "$TMP/install"
        cat "$BOOTRACE_RULES_DIR/base-262.xml" > "$TMP/b262.xml"
        python3 "$GEN" "$TMP/b262.xml" --target=arch --source=test --enable-script "$TMP/install" &&
                sed -n '/^<target name="arch"/,/^<\/target>/p' "$TMP/b262.xml" > "$TMP/el" &&
                [ "$(grep -c '^<link ' "$TMP/el")" = 3 ] && has 'name="getty@tty1.service"' &&
                has 'unit="sockets.target" name="systemd-userdbd.socket"' && has 'name="remote-fs.target"'
}
# systemctl --root=DIR preset-all over the model's units written out as a tree: the links and aliases it makes in
# DIR/etc are the element's (the model's own aliases, which it makes again, aside)
gen_systemctl() {
        printf '%s\n' 'enable systemd-homed.service' 'enable reboot.target' 'enable remote-*.target' \
                'enable systemd-oomd.service' > "$TMP/p/20-d.preset"
        cat "$BOOTRACE_RULES_DIR/base-255.xml" > "$TMP/sc.xml"
        python3 "$GEN" "$TMP/sc.xml" --target=fedora-40 --source=test "$TMP"/p/*.preset &&
        python3 - "$TMP/sc.xml" "$TMP/scroot" "$TMP/p" <<'PY'
import html, os, re, shutil, subprocess, sys
x = open(sys.argv[1], encoding="utf-8").read()
root, presets = sys.argv[2], sys.argv[3]
el = re.search(r'<target name="fedora-40".*?</target>', x, re.S).group(0)
model = re.sub(r'<target name=.*?</target>\n', "", x, flags=re.S)
ud = root + "/usr/lib/systemd/system"
for d in (ud, root + "/etc/systemd/system", root + "/usr/lib/systemd/system-preset"):
    os.makedirs(d)
for n, t in re.findall(r'<unit name="([^"]*)"[^>]*>\n?(.*?)</unit>', model, re.S):
    open(os.path.join(ud, html.unescape(n)), "w", encoding="utf-8").write(html.unescape(t))
for t, u, n in re.findall(r'<link type="(\w+)" unit="([^"]*)" name="([^"]*)"/>', model):
    d = os.path.join(ud, html.unescape(u) + "." + t.lower())
    os.makedirs(d, exist_ok=True)
    os.symlink("../" + re.sub(r"@[^.]+\.", "@.", html.unescape(n)), os.path.join(d, html.unescape(n)))
aliases = set()
for n, u in re.findall(r'<alias name="([^"]*)" unit="([^"]*)"/>', model):
    aliases.add("alias %s %s" % (n, u))
    if not os.path.lexists(os.path.join(ud, n)):
        os.symlink(u, os.path.join(ud, n))
for f in os.listdir(presets):
    shutil.copy(os.path.join(presets, f), root + "/usr/lib/systemd/system-preset/")
subprocess.run(["systemctl", "--root=" + root, "preset-all"], check=True, stdout=subprocess.DEVNULL)
got, es = set(), root + "/etc/systemd/system"
for d in os.listdir(es):
    m = re.match(r"^(.+)\.(wants|requires|upholds)$", d)
    if m:
        got |= {"link %s %s %s" % (m.group(2).capitalize(), m.group(1), e) for e in os.listdir(os.path.join(es, d))}
    elif os.path.islink(os.path.join(es, d)):
        got.add("alias %s %s" % (d, os.path.basename(os.readlink(os.path.join(es, d)))))
want = {"link %s %s %s" % l for l in re.findall(r'<link type="(\w+)" unit="([^"]*)" name="([^"]*)"/>', el)}
want |= {"alias %s %s" % l for l in re.findall(r'<alias name="([^"]*)" unit="([^"]*)"/>', el)}
got -= aliases
print("# %d links and aliases" % len(want))
for l in sorted(got ^ want):
    print("only " + ("systemctl" if l in got else "gen-preset.py") + ": " + l)
sys.exit(got != want or not want)
PY
}
if command -v python3 > /dev/null; then
        test_expect "gen-preset.py runs on a copy of base-255.xml with three preset files" gen_setup
        test_expect "... the first file by name decides (timesyncd stays disabled)" gen_order
        test_expect "... an enable with instances links those, not DefaultInstance=" gen_instances
        test_expect "... Also= units are enabled with the unit, and its Alias= names" gen_also
        test_expect "... ignore and disable link nothing; a rerun replaces the element" gen_rerun
        test_expect "... the rules load with it and --target=fedora-40 uses it" gen_loads
        test_expect "... --enable-script: the units of its systemctl enable lines, continuations joined" gen_script
        if command -v systemctl > /dev/null; then
                test_expect "... what systemctl --root preset-all makes of the same files" \
                        gen_systemctl
        else
                test_skip "... what systemctl --root preset-all makes of the same files" "no systemctl"
        fi
else
        test_skip "gen-preset.py" "no python3"
fi
