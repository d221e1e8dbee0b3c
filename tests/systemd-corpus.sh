#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# systemd-corpus.sh [SUITE...]: systemd's own unit files (units/, test/, test/fuzz/fuzz-unit-file) of the systemd
# each lab suite ships, from Debian's systemd source package of that release, unpacked under
# ${LAB_CORPUS:-$LAB_SRV/corpus}/SUITE/ (default suites: bullseye bookworm trixie forky). The t6021 family compares bootrace
# with systemd-analyze verify of the lab tree over these files.
#
# The package is found through a scratch apt configuration ($LAB_SRV/corpus/apt/) whose deb-src lines use the
# host's own Debian mirror, read from its apt configuration at run time, and the version the lab tree has
# installed (var/lib/dpkg/status), so corpus and tree agree. Nothing of the host's apt state is changed. A suite
# whose corpus is there (SUITE/VERSION names the package version) is not fetched again. Needs root only where
# LAB_SRV is not writable; uses apt-get and tar.
set -euo pipefail
SRV=${LAB_SRV:-/srv/lab}
top=${LAB_CORPUS:-$SRV/corpus}
[ $# -gt 0 ] || set -- bullseye bookworm trixie forky
log() { printf '[corpus %s] %s\n' "$(date +%T)" "$*" >&2; }

mirror() {
        local m=""
        [ -r /etc/apt/sources.list.d/debian.sources ] &&
                m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
        [ -n "$m" ] || m=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2> /dev/null)
        echo "${m%/}"
}

tree_version() {
        awk '/^Package: systemd$/ { p = 1; next } /^Package:/ { p = 0 } p && /^Version:/ { print $2; exit }' \
                "$SRV/$1/var/lib/dpkg/status" 2> /dev/null
}

apt_dir=$top/apt
apt_ready=0
apt_setup() {
        local m s
        [ $apt_ready = 1 ] && return 0
        m=$(mirror)
        [ -n "$m" ] || { log "no Debian mirror in the host's apt configuration"; exit 1; }
        mkdir -p "$apt_dir"/{etc/sources.list.d,lists/partial,cache/archives/partial,dl}
        for s in "$@"; do echo "deb-src $m $s main"; done > "$apt_dir/etc/sources.list"
        cat > "$apt_dir/apt.conf" <<EOF
Dir::Etc::SourceList "$apt_dir/etc/sources.list";
Dir::Etc::SourceParts "$apt_dir/etc/sources.list.d";
Dir::State "$apt_dir";
Dir::State::Lists "$apt_dir/lists";
Dir::Cache "$apt_dir/cache";
Dir::State::status "/var/lib/dpkg/status";
Acquire::Languages "none";
APT::Get::Only-Source "true";
EOF
        log "apt-get update (deb-src of $*)"
        APT_CONFIG=$apt_dir/apt.conf apt-get update -q > "$apt_dir/update.log" 2>&1 ||
                { cat "$apt_dir/update.log" >&2; exit 1; }
        apt_ready=1
}

want=()
for s in "$@"; do
        v=$(tree_version "$s")
        [ -n "$v" ] || { log "$s: no lab tree with systemd under $SRV/$s (lab-build.sh $s)"; exit 1; }
        [ "$(cat "$top/$s/VERSION" 2> /dev/null)" = "$v" ] && continue
        want+=("$s")
done
[ ${#want[@]} -gt 0 ] || exit 0
apt_setup "${want[@]}"

for s in "${want[@]}"; do
        v=$(tree_version "$s")
        dl=$apt_dir/dl/$s
        rm -rf "$dl" && mkdir -p "$dl"
        log "$s: apt-get source --download-only systemd=$v"
        ( cd "$dl" && APT_CONFIG=$apt_dir/apt.conf apt-get source -q --download-only "systemd=$v" ) \
                > "$dl.log" 2>&1 || { cat "$dl.log" >&2; exit 1; }
        orig=$(find "$dl" -maxdepth 1 -name 'systemd_*.orig.tar.*' | head -1)
        [ -n "$orig" ] || { log "$s: no orig tarball in $dl"; exit 1; }
        rm -rf "$top/$s.new" && mkdir -p "$top/$s.new"
        # upstream's tree: units/ and test/ only (the top directory's name varies: systemd-247.3/, systemd-252/)
        tar -x -C "$top/$s.new" --strip-components=1 -f "$orig" --wildcards '*/units/*' '*/test/*'
        [ -d "$top/$s.new/units" ] && [ -d "$top/$s.new/test/fuzz/fuzz-unit-file" ] ||
                { log "$s: $orig has no units/ or test/fuzz/fuzz-unit-file/"; exit 1; }
        echo "$v" > "$top/$s.new/VERSION"
        rm -rf "$top/$s" && mv "$top/$s.new" "$top/$s"
        rm -rf "$dl" "$dl.log"
        log "$s: $(find "$top/$s" -type f | wc -l) files of systemd $v in $top/$s"
done
rm -rf "$apt_dir" # the indexes are big (80 MB for four suites) and only needed when a tree changes
