#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# gen-tree.sh N DIR [SEED]: writes a unit tree of about N units under DIR (DIR/usr/lib/systemd/system and
# DIR/etc/systemd/system) for benchmarks: services (most), sockets and timers for some of them, targets that
# group them, mount units, templates with instances enabled through .wants links, drop-ins for one unit in ten,
# and 3-8 dependencies per unit (After=, Wants=, Requires=, Before=, PartOf=) on other units, as a large image
# would have. Deterministic for a given SEED.
set -eu
n=${1:?usage: gen-tree.sh N DIR [SEED]} dir=${2:?usage: gen-tree.sh N DIR [SEED]} seed=${3:-1}
vendor=$dir/usr/lib/systemd/system etc=$dir/etc/systemd/system
mkdir -p "$vendor" "$etc/multi-user.target.wants"
# drop-in directories first (one mkdir for all), then every file from one awk, then the symlinks
awk -v n="$n" 'function name(i, t) { t = i % 20; return t == 0 ? "grp" i ".target" : t == 1 ? "srv-m" i ".mount" : "svc" i ".service" }
        BEGIN { for (i = 3; i < n; i += 10) print name(i) ".d" }' | (cd "$etc" && xargs -r mkdir -p)
awk -v n="$n" -v vendor="$vendor" -v etc="$etc" -v seed="$seed" '
function pick(k) { return int(rand() * k) }
function name(i,   t) {
        t = i % 20
        if (t == 0) return "grp" i ".target"
        if (t == 1) return "srv-m" i ".mount"
        return "svc" i ".service"
}
BEGIN {
        srand(seed)
        ntargets = 0
        for (i = 0; i < n; i++) {
                u = name(i); f = vendor "/" u
                printf "[Unit]\nDescription=generated unit %d\n", i > f
                nd = 3 + pick(6)
                for (k = 0; k < nd; k++) {
                        j = pick(n); if (j == i) continue
                        d = pick(10)
                        key = d < 4 ? "After" : d < 6 ? "Wants" : d < 7 ? "Requires" : d < 9 ? "Before" : "PartOf"
                        printf "%s=%s\n", key, name(j) > f
                }
                if (i % 7 == 0) printf "DefaultDependencies=no\n" > f
                if (i % 20 == 1) {
                        printf "[Mount]\nWhat=/dev/vd%d\nWhere=/srv/m%d\nType=ext4\n", i, i > f
                } else if (i % 20 != 0) {
                        printf "[Service]\nExecStart=/usr/bin/true %d\n", i > f
                        if (i % 5 == 0) printf "PrivateTmp=yes\n" > f
                        if (i % 11 == 0) printf "StateDirectory=s%d\n", i > f
                        if (i % 13 == 0) printf "WorkingDirectory=-/srv/m%d\n", i - 12 > f
                        printf "[Install]\nWantedBy=multi-user.target\n" > f
                        if (i % 9 == 0) {
                                s = vendor "/svc" i ".socket"
                                printf "[Socket]\nListenStream=/run/svc%d.sock\n", i > s
                                close(s)
                        }
                        if (i % 17 == 0) {
                                s = vendor "/svc" i ".timer"
                                printf "[Timer]\nOnCalendar=daily\nPersistent=yes\n", i > s
                                close(s)
                        }
                }
                close(f)
                if (i % 10 == 3) {
                        f = etc "/" u ".d/50-bench.conf"
                        printf "[Unit]\nAfter=%s\n", name(pick(n)) > f
                        close(f)
                }
        }
        # templates, each with instances enabled in multi-user.target (the links are made below)
        for (t = 0; t < n / 100; t++) {
                f = vendor "/tpl" t "@.service"
                printf "[Unit]\nAfter=network.target\n[Service]\nExecStart=/usr/bin/true %%i\n", t > f
                close(f)
                for (k = 0; k < 5; k++)
                        print "/usr/lib/systemd/system/tpl" t "@.service", "tpl" t "@i" k ".service"
        }
}' | (cd "$etc/multi-user.target.wants" && xargs -r -n 2 ln -sf)
