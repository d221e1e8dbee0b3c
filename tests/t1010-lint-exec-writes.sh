#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The exec-time write model (rules/exec-writes.xml, rules/target-tmpfiles.xml) through lint: the LP#1750780
# unit on xenial has two races, the EROFS one and the Debian D /tmp wipe, and each repair closes what it should;
# PrivateDevices=yes writes /tmp up to 254 and /run from 255; mount points below a mount the unit is not ordered
# after, below RootDirectory=, none with RootImage=; bind sources on such a mount; PrivateTmp=disconnected on 257. And no new false positives: upstream's early units as of each era
# (fixtures/exec-writes/early/vNNN: their ordering and sandbox settings at that tag) stay clean on every
# modelled version of the era, with upstream's tmpfiles.d and with Debian's.
. "$(dirname "$0")/lib.sh"

ovt=$FIXTURES/examples/open-vm-tools.service
race_checks='private-tmp-before-remount|writable-path-before-remount|path-on-separate-mount|exec-write-before-writable|exec-write-removed-by-tmpfiles|sandbox-ordered-too-early|ordering-cycle'

# The write model's newest facts (258: no private /var/tmp for DefaultDependencies=no; 260: PrivateTmp=yes becomes
# disconnected) are judged up to the newest modelled version.
NEWEST=$(lab_model_newest)
[ -n "$NEWEST" ] || { echo "Bail out! bootrace --version names no modelled range"; exit 1; }

# expect_checks WANT ARGS...: lint ARGS runs (exit 0 or 1) and its findings have exactly the check ids WANT
expect_checks() {
        local want=$1 rc=0 got; shift
        "$BOOTRACE" lint -q --format=json "$@" > "$TMP/out.json" || rc=$?
        [ $rc -le 1 ] || { echo "lint exited $rc"; return 1; }
        got=$(jq -r '.findings[].check' < "$TMP/out.json" | sort -u | tr '\n' ' ')
        [ "$got" = "$want" ] || { echo "got: '$got', want: '$want'"; return 1; }
}
variant() { # variant NAME SED: a copy of the LP#1750780 unit
        mkdir -p "$TMP/$1" && sed "$2" "$ovt" > "$TMP/$1/open-vm-tools.service"
}
variant remount 's/^DefaultDependencies=no$/&\nAfter=systemd-remount-fs.service/'
variant tmpfiles 's/^DefaultDependencies=no$/&\nAfter=systemd-tmpfiles-setup.service/'
variant localfs 's/^DefaultDependencies=no$/&\nAfter=local-fs.target/'
variant noptmp '/^PrivateTmp=/d'

t() { # t DESCRIPTION EXPECTED ARGS...
        local d=$1; shift
        test_expect "$d" expect_checks "$@"
}
W='exec-write-removed-by-tmpfiles private-tmp-before-remount '
t "xenial: the LP#1750780 unit has the EROFS race and the D /tmp wipe" "$W" --target=ubuntu-xenial "$ovt"
W='exec-write-removed-by-tmpfiles '
t "xenial: After=systemd-remount-fs.service closes the EROFS race, not the wipe" "$W" --target=ubuntu-xenial "$TMP/remount/open-vm-tools.service"
t "xenial: After=local-fs.target closes the EROFS race, not the wipe" "$W" --target=ubuntu-xenial "$TMP/localfs/open-vm-tools.service"
W=''
t "xenial: After=systemd-tmpfiles-setup.service closes both" "$W" --target=ubuntu-xenial "$TMP/tmpfiles/open-vm-tools.service"
t "xenial: without PrivateTmp= nothing is written before exec" "$W" --target=ubuntu-xenial "$TMP/noptmp/open-vm-tools.service"
W='exec-write-removed-by-tmpfiles private-tmp-before-remount '
t "stretch (232, Debian): both" "$W" --target=debian-stretch "$ovt"
W='private-tmp-before-remount '
t "rhel-7 (219, upstream tmp.conf: q, no R!): only the EROFS race" "$W" --target=rhel-7 "$ovt"
t "systemd 229 without a target (upstream tmp.conf): only the EROFS race" "$W" --systemd=229 "$ovt"
W=''
t "bionic (237): the implicit After=systemd-tmpfiles-setup.service closes both" "$W" --target=ubuntu-bionic "$ovt"
# the consequence is the version's own failure (exec-writes.xml <fails>), not a summary of all of them
consequence() { # consequence V NEEDLE: private-tmp-before-remount of the LP#1750780 unit names NEEDLE for systemd V
        "$BOOTRACE" lint -q --format=json --systemd="$1" "$ovt" > "$TMP/c.json"
        jq -r '.findings[] | select(.check == "private-tmp-before-remount") | .evidence[]' < "$TMP/c.json" |
                grep "^consequence" > "$TMP/c.txt" || { echo "no consequence line"; return 1; }
        grep -qF "for systemd $1, $2" "$TMP/c.txt" || { cat "$TMP/c.txt"; return 1; }
}
test_expect "219: the consequence is exec_spawn()'s failure" consequence 219 '"U failed to run '"'start'"' task'
test_expect "229: the consequence names ERRNO=30 and result 'resources'" consequence 229 '"U: Failed to run '"'start'"' task: Read-only file system" (ERRNO=30)'

# writable-path-before-remount judges the model's ReadWritePaths=/*Directory= writes: the old name too, and the
# version's failure of the setting
mkdir -p "$TMP/w"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nReadWriteDirectories=/var/spool/w\n' > "$TMP/w/rwd.service"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nLogsDirectory=w\n' > "$TMP/w/logs.service"
W='writable-path-before-remount '
t "229: ReadWriteDirectories= (ReadWritePaths='s old name) needs / writable" "$W" --systemd=229 "$TMP/w/rwd.service"
t "245: LogsDirectory= needs / writable" "$W" --systemd=245 "$TMP/w/logs.service"
test_expect "... and the consequence is 240/LOGS_DIRECTORY" sh -c '
        "$BOOTRACE" lint -q --systemd=245 "$0" > "$1"; grep -q "consequence: .*for systemd 245, .*240/LOGS_DIRECTORY" "$1"' \
        "$TMP/w/logs.service" "$TMP/w/logs.txt"
W=''
t "246: LogsDirectory= orders the unit after the remount itself (f3b7a79b97)" "$W" --systemd=246 "$TMP/w/logs.service"

# PrivateDevices=yes: /tmp/namespace-dev-XXXXXX up to 254, /run/systemd/namespace-XXXXXX from 255
pdev=$FIXTURES/exec-writes/units/racy-pdev.service
pdevr=$FIXTURES/exec-writes/units/racy-pdev-remount.service
# the release of each version whose packaging keeps tmp.mount out of the unit path (rules/base-NNN.xml <target>)
pdev_target() {
        case $1 in
        229) echo ubuntu-xenial ;; 237) echo ubuntu-bionic ;; 245) echo ubuntu-focal ;;
        247) echo debian-bullseye ;; 252) echo debian-bookworm ;;
        esac
}
for v in 219 229 237 245 247 252 254; do
        W='exec-write-before-writable '
        t "systemd $v: an early PrivateDevices=yes unit writes /tmp before the remount" "$W" --systemd=$v "$pdev"
        # systemd's own install has tmp.mount: /tmp is a mount of its own, which the remount does not make
        t "systemd $v, upstream's install (/tmp on tmp.mount): After=systemd-remount-fs.service is not enough" \
                "$W" --systemd=$v "$pdevr"
        tg=$(pdev_target $v)
        [ -z "$tg" ] || { W=''; t "$tg (systemd $v, no tmp.mount): After=systemd-remount-fs.service closes it" \
                "$W" --target="$tg" "$pdevr"; }
done
for v in 255 257 $NEWEST; do
        W=''
        t "systemd $v: PrivateDevices=yes writes only /run" "$W" --systemd=$v "$pdev"
done
test_expect "the finding names 226/NAMESPACE and the mkdtemp in /tmp for 252" sh -c '
        "$BOOTRACE" lint -q --target=debian-bookworm "$0" > "$1"; grep -q "226/NAMESPACE" "$1" &&
        grep -q "/tmp/namespace-dev-XXXXXX" "$1"' "$pdev" "$TMP/pdev.txt"

# mount points: below a mount the unit is not ordered after; missing in the root given
mkdir -p "$TMP/root/etc" "$TMP/root/srv/data" "$TMP/u"
echo '/dev/vdb /srv ext4 defaults 0 2' > "$TMP/root/etc/fstab"
cat > "$TMP/u/binder.service" <<'UNIT'
[Unit]
DefaultDependencies=no
After=systemd-remount-fs.service

[Service]
ExecStart=/bin/true
BindPaths=/run/binder:/srv/data/in
UNIT
W='exec-write-before-writable '
t "BindPaths= destination below srv.mount, not ordered after it" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/binder.service"
test_expect "... the finding names srv.mount and RequiresMountsFor=" sh -c '
        "$BOOTRACE" lint -q --root="$0" --systemd=252 "$1" > "$2"; grep -q "srv.mount" "$2" &&
        grep -q "RequiresMountsFor=/srv/data/in" "$2"' \
        "$TMP/root" "$TMP/u/binder.service" "$TMP/binder.txt"
W=''
t "BindPaths= before 235 made no mount point" "$W" --root="$TMP/root" --systemd=234 "$TMP/u/binder.service"
# with RootDirectory= the mount point is below that directory (on /, after the remount), with RootImage= inside
# the image: neither waits for srv.mount
sed 's|^ExecStart=.*|&\nRootDirectory=/opt/jail|' "$TMP/u/binder.service" > "$TMP/u/jailed.service"
sed 's|^ExecStart=.*|&\nRootImage=/opt/jail.raw|' "$TMP/u/binder.service" > "$TMP/u/imaged.service"
t "BindPaths= with RootDirectory=: the mount point is below the root directory" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/jailed.service"
t "BindPaths= with RootImage=: the mount point is inside the image" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/imaged.service"
sed '/^After=/d' "$TMP/u/jailed.service" > "$TMP/u/jailed-early.service"
W='exec-write-before-writable '
t "... but before the remount the mount point below RootDirectory= is on a read-only /" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/jailed-early.service"
test_expect "... the finding names the path below the root directory" sh -c '
        "$BOOTRACE" lint -q --root="$0" --systemd=252 "$1" > "$2"; grep -q "/opt/jail/srv/data/in" "$2"' \
        "$TMP/root" "$TMP/u/jailed-early.service" "$TMP/jailed.txt"
# bind sources: needed (not written) before exec, with no implicit mount dependency in any version
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nBindReadOnlyPaths=/srv/data:/etc/data\n' \
        > "$TMP/u/reader.service"
mkdir -p "$TMP/root/etc/data"
W='exec-write-before-writable '
t "BindReadOnlyPaths= source on srv.mount, not ordered after it" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/reader.service"
test_expect "... the finding says the child needs the source and names RequiresMountsFor=/srv/data" sh -c '
        "$BOOTRACE" lint -q --root="$0" --systemd=252 "$1" > "$2"; grep -q "needs /srv/data" "$2" &&
        grep -q "RequiresMountsFor=/srv/data\$" "$2"' "$TMP/root" "$TMP/u/reader.service" "$TMP/reader.txt"
sed 's|^DefaultDependencies=no$|&\nRequiresMountsFor=/srv/data|' "$TMP/u/reader.service" > "$TMP/u/reader-ok.service"
W=''
t "... RequiresMountsFor=/srv/data closes it" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/reader-ok.service"
t "... before 233 there was no BindReadOnlyPaths= (the key is unknown, nothing is bound)" 'unknown-key ' --root="$TMP/root" --systemd=232 "$TMP/u/reader.service"
sed 's|^BindReadOnlyPaths=.*|BindReadOnlyPaths=/usr/share/data:/etc/data|' "$TMP/u/reader.service" > "$TMP/u/reader-root.service"
t "a bind source on the root file system is there from the first instant" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/reader-root.service"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nTemporaryFileSystem=/opt/scratch\n' \
        > "$TMP/u/scratch.service"
W='exec-write-before-writable '
t "TemporaryFileSystem= mount point missing in the root: needs / writable" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/scratch.service"
mkdir -p "$TMP/root/opt/scratch"
W=''
t "... and nothing to make when the root has it" "$W" --root="$TMP/root" --systemd=252 "$TMP/u/scratch.service"
t "... nor without a root, where bootrace cannot tell" "$W" --systemd=252 "$TMP/u/scratch.service"

# PrivateTmp=disconnected, DefaultDependencies=no, /var on a mount of its own: 257 creates /var/tmp below it
mkdir -p "$TMP/vroot/etc" "$TMP/d"
echo '/dev/vdc /var ext4 defaults 0 2' > "$TMP/vroot/etc/fstab"
printf '[Unit]\nDefaultDependencies=no\nAfter=systemd-remount-fs.service\n\n[Service]\nExecStart=/bin/true\nPrivateTmp=disconnected\n' \
        > "$TMP/d/disc.service"
W='exec-write-before-writable '
t "257: PrivateTmp=disconnected creates /var/tmp below var.mount" "$W" --root="$TMP/vroot" --systemd=257 "$TMP/d/disc.service"
W=''
t "258: no private /var/tmp for DefaultDependencies=no (6156bec7a4)" "$W" --root="$TMP/vroot" --systemd=258 "$TMP/d/disc.service"

# path-on-separate-mount judges the model's writes (check= in exec-writes.xml), each with what makes it ready:
# its mount. A socket without Exec*= runs no process, so nothing of it is written; DynamicUser= names itself
# where it implies PrivateTmp= (a normalisation of dependencies.xml)
mkdir -p "$TMP/sroot/etc" "$TMP/s"
echo '/dev/vdb /srv ext4 defaults 0 2' > "$TMP/sroot/etc/fstab"
for ty in service socket; do
        { printf '[Unit]\nDefaultDependencies=no\nAfter=systemd-remount-fs.service\n\n'
          if [ $ty = service ]; then printf '[Service]\nExecStart=/bin/true\n'; else printf '[Socket]\nListenStream=/run/s.sock\n'; fi
          printf 'ReadWritePaths=/srv/data\n'; } > "$TMP/s/rw.$ty"
done
W='path-on-separate-mount '
t "ReadWritePaths= on srv.mount, the unit not ordered after it" "$W" --root="$TMP/sroot" --systemd=252 "$TMP/s/rw.service"
W=''
t "... a socket without Exec*= writes nothing" "$W" --root="$TMP/sroot" --systemd=252 "$TMP/s/rw.socket"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nDynamicUser=yes\n' > "$TMP/s/dyn.service"
test_expect "232: DynamicUser=yes implies PrivateTmp=; the finding names DynamicUser= and its line" sh -c '
        "$BOOTRACE" lint -q --systemd=232 "$0" > "$1"; grep -q "^.*dyn.service:6: error: \[private-tmp-before-remount\] DynamicUser=yes" "$1"' \
        "$TMP/s/dyn.service" "$TMP/s/dyn.txt"

# 235-237 chmod() and chown an existing *Directory= too (its own write, op=chmod), 238 leaves it alone except
# DynamicUser='s private one (chmod()ed up to 241): with a root that shows the directory, the consequence is that
# write's failure, or none before exec
mkdir -p "$TMP/xroot/var/lib/st" "$TMP/droot/var/lib/private/st" "$TMP/x"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nExecStart=/bin/true\nStateDirectory=st\n' > "$TMP/x/st.service"
sed 's/^StateDirectory=st$/&\nDynamicUser=yes/' "$TMP/x/st.service" > "$TMP/x/dyn-st.service"
conseq() { # conseq NEEDLE ARGS...: the writable-path-before-remount finding's consequence line has NEEDLE
        local n=$1; shift
        "$BOOTRACE" lint -q --format=json "$@" > "$TMP/x/c.json" || [ $? -eq 1 ] || return 1
        jq -r '.findings[] | select(.check == "writable-path-before-remount") | .evidence[]' < "$TMP/x/c.json" |
                grep "^consequence" > "$TMP/x/c.txt" || { echo "no consequence"; return 1; }
        grep -qF -- "$n" "$TMP/x/c.txt" || { cat "$TMP/x/c.txt"; return 1; }
}
test_expect "237, /var/lib/st there: the chmod() of it fails (execute.c@v237)" conseq \
        'also when the directory exists [src/core/execute.c@v237' --root="$TMP/xroot" --systemd=237 "$TMP/x/st.service"
test_expect "237 without a root: mkdir's failure" conseq 'status 238/STATE_DIRECTORY [src/core/execute.c@v247' \
        --systemd=237 "$TMP/x/st.service"
test_expect "238, /var/lib/st there: nothing written before exec (30c81ce2ce)" conseq \
        'for systemd 238, /var/lib/st is there already, so nothing is written to it before exec' \
        --root="$TMP/xroot" --systemd=238 "$TMP/x/st.service"
# DynamicUser='s private directory is chmod()ed every time up to 241 (a write of the model); its implied
# PrivateTmp= orders such a unit after systemd-tmpfiles-setup.service anyway, so the table shows it
# tools/exec-writes-table is python3 (a Debian build without it skips these; CI has it)
if command -v python3 > /dev/null || [ "${CI:-}" = true ]; then
        test_expect "the table has one row per write of exec-writes.xml" sh -c '
                [ "$(grep -c "<write " "$1/exec-writes.xml")" = "$(python3 "$0" "$1" | grep -cE "^\| [a-z0-9-]+ \| [^|]+ \| (pid1|child) \|")" ]' \
                "$top_srcdir/tools/exec-writes-table" "$BOOTRACE_RULES_DIR"
        test_expect "241: the table has DynamicUser's chmod of private/NAME, not StateDirectory='s" sh -c '
                table=$(python3 "$0" --systemd=241 "$1") &&
                echo "$table" | grep -q "^| dynamic-user-private-state-chmod | 235-241 |" &&
                ! echo "$table" | grep -q "^| state-directory-chmod "' "$top_srcdir/tools/exec-writes-table" "$BOOTRACE_RULES_DIR"
        test_expect "237: StateDirectory='s chmod of an existing directory, with its source at v237" sh -c '
                python3 "$0" --systemd=237 "$1" | grep "^| state-directory-chmod | 235-237 |" | grep -q "execute.c@v235..v237"' \
                "$top_srcdir/tools/exec-writes-table" "$BOOTRACE_RULES_DIR"
else
        for t in "the table has one row per write of exec-writes.xml" \
                "241: the table has DynamicUser's chmod of private/NAME, not StateDirectory='s" \
                "237: StateDirectory='s chmod of an existing directory, with its source at v237"; do
                test_skip "$t" "python3 not installed (tools/exec-writes-table)"
        done
fi

# no false positives: upstream's early units of each era, on every version of the era
early=$FIXTURES/exec-writes/early
eras="v219:219:228 v229:229:231 v232:232:236 v237:237:244 v245:245:248 v249:249:254 v255:255:$NEWEST"
for e in $eras; do
        IFS=: read -r era from to <<< "$e"
        for v in $(seq "$from" "$to"); do
                for tg in "" --target=debian-bookworm; do
                        test_expect "$era early units, systemd $v${tg:+, tmpfiles.d of debian-bookworm}: no race" sh -c '
                                rc=0
                                "$BOOTRACE" lint -q --format=json --systemd="$0" $1 "$2"/*.service \
                                        > "$3" 2> "$3.err" || rc=$?
                                [ $rc -le 1 ] || { echo "lint exited $rc"; cat "$3.err"; exit 1; }
                                ! jq -r ".findings[].check" < "$3" | grep -Ex "$4"' \
                                "$v" "$tg" "$early/$era" "$TMP/early.json" "$race_checks"
                done
        done
done
