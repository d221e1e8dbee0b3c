#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench-graph.sh: loading every unit of a tree and building its dependency graph. For each lab tree: bootrace graph
# --offline against `systemd-analyze verify --man=no` on the same unit files (ratio); then generated
# trees of 1000, 10000 and BENCH_GRAPH_UNITS units (default 100000; sizes: BENCH_GRAPH_SIZES; tests/bench/gen-tree.sh):
# graph and lint over every unit, with the growth per size step. Prints wall time and peak memory.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BOOTRACE:=$(pwd)/bootrace}"
: "${SHARED:=$top_srcdir/../shared}"
export BOOTRACE_RULES_DIR=${BOOTRACE_RULES_DIR:-$top_srcdir/rules}
LAB_SRV=${LAB_SRV:-/srv/lab}
units=${BENCH_GRAPH_UNITS:-100000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# measure OUT CMD...: runs CMD, prints "seconds peak-kB" (GNU time if present, else bash's time and no memory)
measure() {
        local out=$1; shift
        if [ -x /usr/bin/time ]; then
                /usr/bin/time -f '%e %M' -o "$tmp/t" "$@" > "$out" 2> /dev/null
                tail -n 1 "$tmp/t"
        else
                local s e
                s=$(date +%s.%N); "$@" > "$out" 2> /dev/null; e=$(date +%s.%N)
                echo "$(echo "$e - $s" | bc) ?"
        fi
}

# measure_cpu OUT CMD...: prints "seconds cpu-seconds peak-kB" (user + system time: steadier than the wall clock
# on a shared machine; "?" without GNU time)
measure_cpu() {
        local out=$1 e u s m; shift
        if [ -x /usr/bin/time ]; then
                /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" > "$out" 2> /dev/null
                read -r e u s m < <(tail -n 1 "$tmp/t")
                echo "$e $(printf "%.2f" "$(echo "$u + $s" | bc)") $m"
        else
                read -r e m < <(measure "$out" "$@")
                echo "$e ? ?"
        fi
}

for suite in bullseye bookworm trixie forky; do
        tree=$LAB_SRV/$suite
        [ -d "$tree/etc" ] || { echo "$suite: no lab tree, skipped"; continue; }
        ver=$(find "$tree/usr/lib" -maxdepth 3 -name 'libsystemd-shared-*.so' | head -1 | sed 's/.*shared-\([0-9]*\).*/\1/')
        read -r bt bm < <(measure "$tmp/br" "$BOOTRACE" graph --offline --systemd="$ver" --root="$tree")
        if [ "$(id -u)" = 0 ]; then
                read -r st _ < <(measure "$tmp/sd" "$SHARED/lab/lab-oracle.sh" -q -a "$suite")
                printf '%-9s systemd %s: bootrace %ss (%s kB, %d edges), systemd-analyze verify %ss: ratio %.2f\n' \
                        "$suite" "$ver" "$bt" "$bm" "$(wc -l < "$tmp/br")" "$st" \
                        "$(echo "$bt / $st" | bc -l)"
        else
                echo "$suite: bootrace ${bt}s (${bm} kB); systemd-analyze verify needs root, not measured"
        fi
done

# generated trees of growing size: graph and lint over every unit; CPU time per tenfold size (linear: about 10x)
prev_gc='' prev_lc='' prev_n=''
for size in ${BENCH_GRAPH_SIZES:-1000 10000 $units}; do
        rm -rf "$tmp/gen"
        bash "$top_srcdir/tests/bench/gen-tree.sh" "$size" "$tmp/gen"
        sync # the generator's writes are not written back while bootrace runs
        n=$(find "$tmp/gen" -name '*.service' -o -name '*.socket' -o -name '*.timer' -o -name '*.target' -o -name '*.mount' | wc -l)
        read -r gt gc gm < <(measure_cpu "$tmp/gen.out" "$BOOTRACE" graph --systemd=257 --root="$tmp/gen")
        read -r lt lc lm < <(measure_cpu "$tmp/lint.out" "$BOOTRACE" lint --quiet --systemd=257 --root="$tmp/gen")
        printf 'generated tree, %d unit files: graph %ss (CPU %ss), peak %s kB, %d edges;' \
                "$n" "$gt" "$gc" "$gm" "$(wc -l < "$tmp/gen.out")"
        printf ' lint %ss (CPU %ss), peak %s kB' "$lt" "$lc" "$lm"
        if [ -n "$prev_n" ] && [ "$gc" != "?" ]; then
                printf '; %.1fx the units: graph %.1fx, lint %.1fx the CPU time' "$(echo "$n / $prev_n" | bc -l)" \
                        "$(echo "$gc / ($prev_gc + 0.005)" | bc -l)" "$(echo "$lc / ($prev_lc + 0.005)" | bc -l)"
        fi
        echo
        prev_n=$n prev_gc=$gc prev_lc=$lc
done
echo "(target at 100k units: graph < 2 s and < 300 MB)"
