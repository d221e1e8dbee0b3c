#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What reading every loaded unit from a running systemd costs (tests/bench/live-bench.c): pipelined GetAll per
# unit (bootrace's way), GetAll waited for one by one, and one Get per property. Against the system bus named by
# DBUS_SYSTEM_BUS_ADDRESS, else the host's, else the lab's bookworm container (booted for it, then powered off).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
: "${SHARED:=$top_srcdir/../shared}"
bench=$top_builddir/tests/bench/live-bench
[ -x "$bench" ] || { echo "skipped: $bench not built (make check builds it)"; exit 0; }
if [ -n "${DBUS_SYSTEM_BUS_ADDRESS:-}" ] || [ -S /run/dbus/system_bus_socket ]; then
        exec "$bench" 5
fi
LAB=$SHARED/lab
if ! out=$(LAB_SRV=${LAB_SRV:-/srv/lab} "$LAB/lab-check.sh" bookworm 2>&1); then
        echo "skipped: no system bus here, and the lab cannot boot: ${out#SKIP: }"
        exit 0
fi
TMP=$(mktemp -d)
. "$top_srcdir/tests/lab-container-lib.sh"
trap 'lab_container_poweroff; rm -rf "$TMP"' EXIT
lab_container_boot bookworm || { echo "skipped: the lab container did not come up"; exit 0; }
echo "bookworm container (systemd 252), from the host through its system bus:"
"$bench" 5
