#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# deb-fetch.sh SUITE PACKAGE...   (prints the path of each package's .deb, one a line, in the order given)
# Downloads binary packages of a Debian suite (bullseye, bookworm, trixie, forky, sid) with apt-get download
# through a scratch apt configuration of its own: the host's apt sources and state are neither read nor changed,
# so it works on any Debian or Ubuntu host. The mirror is the host's Debian mirror (read at run time from its apt
# sources, as the lab scripts do), else deb.debian.org. Packages are cached in
#   $DEB_CACHE (default $LAB_SRV/deb-cache, LAB_SRV default /srv/lab) / SUITE /
# and reused: a package already there (any version) is not downloaded again; the package index is refreshed
# when it is older than a day, or with -u. PACKAGE may be NAME or NAME=VERSION.
#  -u  refresh the package index first
#  -n  no download at all: print what the cache has, fail for what it lacks (for tests that must not fetch)
#  -c  also fetch the suite's Contents index (as apt-file does) and print its path; no PACKAGE needed
# Exit status: 0, 1 when a package could not be had (named on stderr), 2 usage.
set -euo pipefail
update=0 offline=0 contents=0
while getopts unc o; do case $o in u) update=1 ;; n) offline=1 ;; c) contents=1 ;; *) exit 2 ;; esac; done
shift $((OPTIND - 1))
suite=${1:?usage: deb-fetch.sh [-u] [-n] [-c] SUITE PACKAGE...}; shift
case $suite in *[!a-z-]*|"") echo "deb-fetch.sh: bad suite name: $suite" >&2; exit 2 ;; esac
cache=${DEB_CACHE:-${LAB_SRV:-/srv/lab}/deb-cache}/$suite
apt=$cache/.apt
mkdir -p "$cache" "$apt/lists/partial" "$apt/archives/partial" "$apt/etc/preferences.d" "$apt/etc/apt.conf.d"

mirror() {
        local m=""
        [ -r /etc/apt/sources.list.d/debian.sources ] &&
                m=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
        [ -n "$m" ] || m=$(awk '$1=="deb" && $2 !~ /security/ && $2 ~ /debian/ {print $2; exit}' \
                /etc/apt/sources.list 2>/dev/null || true)
        [ -n "$m" ] || m=http://deb.debian.org/debian
        echo "${m%/}"
}

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "deb-fetch.sh: $keyring missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
touch "$apt/status"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
      -o "Dir::Etc::Preferences=$apt/etc/preferences" -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
      -o "Dir::Etc::Parts=$apt/etc/apt.conf.d" -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
      -o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives" -o "APT::Architecture=amd64"
      -o "APT::Architectures::=amd64" -o "APT::Sandbox::User=root" -o "Acquire::Languages=none"
      -o "Debug::NoLocking=1")

have() { # the cached .deb of $1 (NAME or NAME=VERSION), if any
        local n=${1%%=*} v= f
        [ "$n" = "$1" ] || v=${1#*=}
        for f in "$cache/${n}_"*.deb; do
                [ -e "$f" ] || continue
                [ -z "$v" ] || [ "$(dpkg-deb -f "$f" Version)" = "$v" ] || continue
                echo "$f"; return 0
        done
        return 1
}

if [ $contents = 1 ]; then
        printf '%s\n' 'Acquire::IndexTargets::deb::Contents-deb { MetaKey "$(COMPONENT)/Contents-$(ARCHITECTURE)";' \
                'ShortDescription "Contents-$(ARCHITECTURE)"; Description "$(RELEASE)/$(COMPONENT) $(ARCHITECTURE) Contents";' \
                'flatMetaKey "Contents-$(ARCHITECTURE)"; flatDescription "$(RELEASE) Contents"; KeepCompressed "true"; };' \
                > "$apt/contents.conf"
        opts+=(-c "$apt/contents.conf")
        [ -n "$(find "$apt/lists" -maxdepth 1 -name '*Contents*' 2>/dev/null)" ] || update=1
fi
missing=()
for p in "$@"; do have "$p" > /dev/null || missing+=("$p"); done
if { [ ${#missing[@]} -gt 0 ] || [ $update = 1 ]; } && [ $offline = 0 ]; then
        printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$(mirror)" "$suite" > "$apt/sources.list"
        if [ $update = 1 ] || [ -z "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
                apt-get -q "${opts[@]}" update > "$apt/update.log" 2>&1 ||
                        { sed 's|[a-z]*://[^/ ]*|<mirror>|g' "$apt/update.log" | tail -3 >&2; exit 1; }
        fi
        # one unknown name fails the whole batch: then one at a time, so the others still arrive
        [ ${#missing[@]} = 0 ] ||
        ( cd "$cache" && apt-get -q "${opts[@]}" download "${missing[@]}" ) > "$apt/download.log" 2>&1 ||
                for p in "${missing[@]}"; do
                        ( cd "$cache" && apt-get -q "${opts[@]}" download "$p" ) >> "$apt/download.log" 2>&1 || true
                done
fi
rc=0
if [ $contents = 1 ]; then
        c=$(find "$apt/lists" -maxdepth 1 -name '*Contents-amd64*' | head -1)
        [ -n "$c" ] && echo "$c" || { echo "deb-fetch.sh: $suite: no Contents index" >&2; rc=1; }
fi
for p in "$@"; do
        have "$p" || { echo "deb-fetch.sh: $suite: no package $p" >&2; rc=1; }
done
exit $rc
