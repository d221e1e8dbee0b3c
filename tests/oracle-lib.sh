# SPDX-License-Identifier: LGPL-2.1-or-later
# oracle-lib.sh - real systemd as the reference for tests of family 6. Sourced after lib.sh.
#
# oracle_overlay SUITE FIXROOT WORKDIR
#     prepares WORKDIR/up from FIXROOT (on merged-/usr trees, lib/ goes to usr/lib/ so the tree's /lib symlink
#     keeps working). oracle_in_ns then runs a command with the lab tree SUITE overlaid by it at WORKDIR/m,
#     in a private mount namespace: the lab tree itself is never written.
# oracle_verify WORKDIR UNIT -> stdout: systemd-analyze verify's dump, stderr: its log; exit status: verify's
# oracle_dump_facts < dump  -> one fact per line: "KEY VALUE", for the first unit in the dump
LAB_SRV=${LAB_SRV:-/srv/lab}
export LAB_SRV

oracle_overlay() {
        local suite=$1 fix=$2 w=$3 tree=$LAB_SRV/$1
        mkdir -p "$w/up" "$w/work" "$w/m"
        cp -a "$fix"/. "$w/up/"
        if [ -L "$tree/lib" ] && [ -d "$w/up/lib" ] && [ ! -L "$w/up/lib" ]; then
                mkdir -p "$w/up/usr/lib"
                cp -a "$w/up/lib/." "$w/up/usr/lib/"
                rm -rf "$w/up/lib"
        fi
        echo "$tree" > "$w/tree"
}

# oracle_in_ns WORKDIR CMD...: CMD runs with the overlay mounted at WORKDIR/m (plus proc and sys in it)
oracle_in_ns() {
        local w=$1; shift
        unshare -m --propagation private bash -c '
                set -e; w=$1; tree=$(cat "$w/tree"); shift
                mount -t overlay overlay -o "lowerdir=$tree,upperdir=$w/up,workdir=$w/work" "$w/m"
                mount -t proc proc "$w/m/proc"
                mount --rbind /sys "$w/m/sys"
                "$@"' oracle "$w" "$@"
}

# run inside oracle_in_ns: verify one unit in the chroot
oracle_chroot_verify() {
        local m=$1; shift
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C TERM=dumb SYSTEMD_COLORS=0 SYSTEMD_PAGER=cat \
                SYSTEMD_LOG_LEVEL=debug chroot "$m" systemd-analyze verify --man=no "$@"
}
export -f oracle_chroot_verify

# The systemd version of a lab tree (from libsystemd-shared-NNN.so).
oracle_version() {
        local f
        f=$(find "$LAB_SRV/$1/usr/lib" -maxdepth 3 -name 'libsystemd-shared-*.so' | head -1)
        f=${f##*/libsystemd-shared-}
        echo "${f%%[!0-9]*}"
}

# Facts from a verify dump (stdin), for the first unit in it.
oracle_dump_facts() {
        awk '
                /^\t-> Unit / { name = $3; sub(":$", "", name); inunit = (seen == 0); seen = 1; next }
                !inunit { next }
                /^\t\t-> / { inunit = (inunit ? 2 : 0); next }       # nested blocks (ExecStart, ...)
                inunit != 1 { next }
                { line = $0; sub(/^\t\t/, "", line); k = line; sub(/: .*/, "", k); v = line; sub(/^[^:]*: ?/, "", v) }
                k == "Alias" { print "alias " v; next }
                k == "Unit Load State" { print "load " v; next }
                k == "Fragment Path" { print "fragment " v; next }
                k == "DropIn Path" { print "dropin " (++nd) " " v; next }
                k == "Description" { print "Description " v; next }
                k == "User" { print "User " v; next }
                k == "Environment" { print "env " v; next }
                k ~ /^(After|Before|Wants|Requires|Requisite|BindsTo|PartOf|Conflicts|Upholds)$/ && v ~ /origin-file/ {
                        n = v; sub(/ \(.*/, "", n); print "dep " k " " n; next }
                END { if (seen) print "id " name }
        '
}
