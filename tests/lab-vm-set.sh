#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# lab-vm-set.sh [-n BOOTS] [-s FIRST] [-o DIR] SUITE
# Makes one VM journal set of fixtures/journals/ (README there): BOOTS (default 30) qemu boots (each bounded by LAB_VM_TIMEOUT, default 1800 s) of a copy of the
# lab's VM image ($LAB_SRV/SUITE-vm.ext4, built by ../shared/lab/lab-build.sh -k SUITE; only read here) with the
# unit set fixtures/journals/units/ installed, / mounted read-only by the kernel. Run once by hand, as root; CI
# never boots VMs (the results are committed). Everything it writes goes to DIR/SUITE-vm/ (default
# $LAB_SRV/bootrace-journals): image.ext4, journal/, logs/BOOT.console, and the results
#   SUITE-vm.export.xz   the journal, helpers filtered out (tests/export-filter.pl)
#   SUITE-vm.truth.tsv   per boot and unit: the outcome bt-report logged on the console (ground truth)
#   SUITE-vm.boots.tsv   every boot started, in order, with its kind and whether it is in the journal
# Why not ../shared/lab/lab-vm.sh: it boots the lab's own image in place with its racy-* units and lab-report,
# finds a boot's id only through the journal (a lost boot has none), and takes one kernel command line for all
# boots. Here every boot gets its own command line, the truth comes from the console, and boots are also lost
# on purpose:
#   every 7th boot from the 5th  systemd.wants=bt-flushcycle.service: a cycle with the journal flush; when PID 1
#                                deletes the flush job the boot is lost (it stays in /run)
#   boot 9                       systemd.mask=systemd-journal-flush.service: lost, with its truth on the console
#   boot 3                       cut short: qemu is killed once PID 1 prints "Welcome to" (no truth)
#   boots 4, 14, 24, …           systemd.status_unit_format=description;  7, 17, 27, …: =name; others: default
# (every kind of boot comes early, so that a run stopped after boot 9 already has each)
# The qemu command line is lab-vm.sh's (TCG, 1 GiB, root=/dev/vda ro console=ttyS0) with four changes that only
# make a boot cheaper on a loaded 2-core host (on one, lab-vm.sh's boot spent 3 minutes in the initramfs alone):
# one vCPU, not two (LAB_VM_SMP; under TCG on an overcommitted host a vCPU waits for the other one's descheduled
# thread), -nodefaults (no floppy, CD-ROM or VGA to probe; the serial console is given explicitly), qemu runs under
# nice -n 19 (LAB_VM_NICE), and the initramfs is a small one made in the tree (chroot) with the root's two modules,
# virtio_blk and ext4 (DIR/SUITE-vm/initrd, made once): initramfs-tools' MODULES=list where the tree has it
# (trixie), else dracut's systemd initrd with only those drivers (forky), instead of Debian's MODULES=most or
# no-hostonly one. Also no_timer_check panic=-1: on a loaded host TCG is slow enough for the kernel's IO-APIC
# timer check to fail and panic; with panic=-1 qemu (-no-reboot) exits, and a boot in which PID 1 never started
# (or the initrd timed out waiting for /dev/vda) is tried again (up to three times; such a try is no boot of the
# set). -s FIRST resumes an interrupted run at
# boot FIRST: the image, journal and the table of the boots before it are kept; -s K -n K-1 writes the results
# of boots 1..K-1 alone. The export keeps only the boots of the table, so a try that was killed half-way cannot
# add a boot without truth.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
units=$here/../fixtures/journals/units
SRV=${LAB_SRV:-/srv/lab}
n=30 out= first=1
while getopts n:o:s: o; do case $o in n) n=$OPTARG ;; o) out=$OPTARG ;; s) first=$OPTARG ;; *) exit 2 ;; esac; done
shift $((OPTIND - 1))
suite=${1:?usage: $0 [-n BOOTS] [-s FIRST] [-o DIR] SUITE}
vm=$SRV/$suite-vm
for f in "$vm.ext4" "$vm.vmlinuz" "$vm/etc/debootstrap-done"; do
        [ -f "$f" ] || { echo "$f missing: run ../shared/lab/lab-build.sh -k $suite first" >&2; exit 1; }
done
command -v qemu-system-x86_64 > /dev/null ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q qemu-system-x86 > /dev/null ||
        { echo "qemu-system-x86_64 missing and apt-get install qemu-system-x86 failed" >&2; exit 1; }
set_=$suite-vm
out=${out:-$SRV/bootrace-journals}/$set_
mkdir -p "$out/logs"
log() { printf '[lab-vm-set %s] %s\n' "$(date +%T)" "$*" >&2; }

img=$out/image.ext4 mnt=$(mktemp -d)
trap 'mountpoint -q "$mnt" && umount "$mnt"; rmdir "$mnt" 2>/dev/null || true' EXIT
if [ ! -s "$out/initrd" ]; then # a small initramfs: the root's two modules, nothing else to probe
        kver=$(cd "$vm/lib/modules" && ls | tail -1)
        log "making a small initramfs for $kver"
        if [ -x "$vm/usr/sbin/mkinitramfs" ]; then # initramfs-tools (bookworm, trixie)
                conf=$vm/tmp/bt-initramfs
                rm -rf "$conf" && mkdir -p "$conf/conf.d"
                printf 'MODULES=list\nBUSYBOX=auto\nCOMPRESS=zstd\nRUNSIZE=10%%\nFSTYPE=ext4\n' > "$conf/initramfs.conf"
                printf 'virtio_blk\next4\n' > "$conf/modules"
                chroot "$vm" mkinitramfs -d /tmp/bt-initramfs -o /tmp/bt-initrd "$kver" 2> "$out/logs/mkinitramfs.log"
                rm -rf "$conf"
        else # dracut (forky): its systemd initrd, as Debian's default one, with the root's two modules only
                chroot "$vm" dracut --no-hostonly --force --no-early-microcode -m "systemd-initrd rootfs-block" \
                        --drivers "virtio_blk ext4" /tmp/bt-initrd "$kver" > "$out/logs/mkinitramfs.log" 2>&1
        fi
        mv "$vm/tmp/bt-initrd" "$out/initrd"
fi
if [ "$first" -gt 1 ]; then
        [ -f "$img" ] && [ -f "$out/boots.tmp" ] || { echo "nothing to resume in $out" >&2; exit 1; }
        log "resuming at boot $first"
        awk -F'\t' -v f="$first" '$1 < f' "$out/boots.tmp" > "$out/boots.keep" && mv "$out/boots.keep" "$out/boots.tmp"
        mount -o loop "$img" "$mnt"
        sysver=$(chroot "$mnt" dpkg-query -W -f='${Version}' systemd)
        umount "$mnt"
else
        log "copying $vm.ext4 -> $img and installing fixtures/journals/units"
        cp --sparse=always "$vm.ext4" "$img"
        mount -o loop "$img" "$mnt"
        old=$(cd "$mnt/etc/systemd/system" && ls lab-*.service racy-*.service bt-*.service 2>/dev/null || true)
        [ -z "$old" ] || systemctl --root="$mnt" disable $old > /dev/null 2>&1
        (cd "$mnt/etc/systemd/system" && rm -f $old)
        cp "$units"/bt-*.service "$mnt/etc/systemd/system/"
        install -m 755 "$units/bt-report" "$units/bt-write" "$mnt/usr/local/sbin/"
        install -D -m 644 "$units/bt.conf" "$mnt/etc/tmpfiles.d/bt.conf"
        systemctl --root="$mnt" enable $(cd "$units" && grep -l '^\[Install\]' bt-*.service) > /dev/null 2>&1
        rm -rf "$mnt/var/log/journal" && mkdir -p "$mnt/var/log/journal"
        rm -f "$mnt"/run/bt-* 2>/dev/null || true
        sysver=$(chroot "$mnt" dpkg-query -W -f='${Version}' systemd)
        umount "$mnt"
        : > "$out/boots.tmp"
fi

copy_journal() { # read-write: a boot killed by the timeout leaves an ext4 journal to replay
        mount -o loop "$img" "$mnt"
        rm -rf "$out/journal"
        cp -a "$mnt/var/log/journal" "$out/journal"
        umount "$mnt"
}
# the BT-* lines of a console log: the status spinner may share their line, before them
bt_lines() { tr -d '\r' < "$1" | grep -ao 'BT-\(BOOT\|RESULT\|DONE\) .*' || true; }
list_boots() { journalctl "$@" --list-boots --no-pager 2>/dev/null | awk '$2 ~ /^[0-9a-f-]+$/ && length($2) >= 32 { print $2 }' | tr -d - || true; }
boots_in_journal() { list_boots -D "$out/journal"; }

for i in $(seq "$first" "$n"); do
        kind=normal extra=
        [ $(( (i - 5) % 7 )) = 0 ] && [ "$i" -ge 5 ] && { kind=flushcycle; extra="systemd.wants=bt-flushcycle.service"; }
        [ "$i" = 9 ] && { kind=nopersist; extra="systemd.mask=systemd-journal-flush.service"; }
        [ "$i" = 3 ] && kind=cut
        fmt=default
        case $(( i % 10 )) in 4) fmt=description ;; 7) fmt=name ;; esac
        [ $fmt = default ] || extra="$extra systemd.status_unit_format=$fmt"
        con=$out/logs/boot-$(printf %02d "$i").console
        for try in 1 2 3; do
                t0=$(date +%s.%N) rc=0
                timeout "${LAB_VM_TIMEOUT:-1800}" nice -n "${LAB_VM_NICE:-19}" qemu-system-x86_64 \
                        -accel "${LAB_VM_ACCEL:-tcg}" -cpu max -m 1024 -smp "${LAB_VM_SMP:-1}" \
                        -nodefaults -display none -serial stdio -no-reboot -nic none \
                        -kernel "$vm.vmlinuz" -initrd "$out/initrd" \
                        -append "root=/dev/vda ro console=ttyS0 no_timer_check panic=-1 $extra" \
                        -drive file="$img",format=raw,if=virtio > "$con" 2>&1 < /dev/null &
                q=$!
                if [ $kind = cut ]; then
                        until grep -aq 'Welcome to' "$con" 2>/dev/null || ! kill -0 $q 2>/dev/null; do sleep 0.1; done
                        pkill -KILL -P $q 2>/dev/null || true # qemu itself: timeout cannot pass SIGKILL on
                fi
                # a systemd initrd (forky's) gives up on the root device after 90 s (DefaultDeviceTimeoutSec=; a
                # starved guest may load virtio_blk later) and waits in emergency mode: such a try is no boot either
                while kill -0 $q 2>/dev/null; do
                        grep -aq 'Timed out waiting for device dev-vda' "$con" 2>/dev/null &&
                                { pkill -KILL -P $q 2>/dev/null || true; break; }
                        sleep 2
                done
                wait $q || rc=$?
                grep -aq 'Welcome to' "$con" && ! grep -aq 'Timed out waiting for device dev-vda' "$con" && break
                log "boot $i: PID 1 of the root never started (try $try, qemu rc $rc); trying again"
                mv "$con" "$con.try$try"
        done
        wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        boot=$(bt_lines "$con" | sed -n 's/^BT-BOOT \([0-9a-f]\{32\}\) .*/\1/p' | tail -1)
        copy_journal
        injournal=no
        [ -n "$boot" ] && boots_in_journal | grep -qx "$boot" && injournal=yes
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "${boot:-lost-$i}" "$kind" "$fmt" "$injournal" "$rc" "$wall" |
                tee -a "$out/boots.tmp" >&2
done

# truth: the BT-RESULT lines of every console, in boot order
{
        printf '# %s: systemd %s, %s boots started; ground truth from bt-report on the console\n' "$set_" "$sysver" "$n"
        printf 'boot\tin_journal\tunit\toutcome\tresult\tactive_state\tunit_result\texec_main\tn_restarts\n'
        while IFS=$'\t' read -r i boot kind fmt injournal rc wall; do
                bt_lines "$out/logs/boot-$(printf %02d "$i").console" | { grep '^BT-RESULT ' || true; } |
                awk -v b="$boot" -v j="$injournal" '{
                        delete p
                        for (k = 5; k <= NF; k++) { split($k, kv, "="); p[kv[1]] = substr($k, length(kv[1]) + 2) }
                        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\t%s\n", b, j, $2, $3, $4, p["ActiveState"], p["Result"],
                                p["ExecMainCode"], p["ExecMainStatus"], p["NRestarts"] }'
        done < "$out/boots.tmp"
} > "$out/$set_.truth.tsv"
{
        printf '# %s: every boot started, in order. kind: normal, flushcycle (bt-flushcycle.service pulled in), nopersist\n' "$set_"
        printf '# (journal flush masked), cut (qemu killed at "Welcome to"). boot: _BOOT_ID, or lost-SEQ when unknown.\n'
        printf 'seq\tboot\tkind\tstatus_unit_format\tin_journal\tqemu_rc\twall_s\n'
        cat "$out/boots.tmp"
} > "$out/$set_.boots.tsv"

# only the boots of the table: a try killed half-way may have reached /var/log/journal
# shellcheck disable=SC2046 # one match per boot
journalctl -D "$out/journal" -o export --no-pager $(awk -F'\t' '$5 == "yes" { print "_BOOT_ID=" $2 }' "$out/boots.tmp") |
        perl "$here/export-filter.pl" 'bt-report|bt-poweroff|BT-(RESULT|BOOT|DONE)' | xz -9 > "$out/$set_.export.xz"
# the export must re-import with the boots the truth says are in the journal
jr=/lib/systemd/systemd-journal-remote; [ -x "$jr" ] || jr=/usr/lib/systemd/systemd-journal-remote
rm -f "$out/check.journal"
xzcat "$out/$set_.export.xz" | "$jr" -o "$out/check.journal" - 2> /dev/null
got=$(list_boots --file "$out/check.journal" | wc -l)
want=$(awk -F'\t' '$5 == "yes"' "$out/boots.tmp" | wc -l)
rm -f "$out/check.journal" # boots.tmp stays: -s N+1 -n M adds boots N+1..M to the set
log "$set_: $n boots started, $want in the journal, $got in the re-imported export; $(stat -c %s "$out/$set_.export.xz") bytes"
[ "$got" = "$want" ]
