/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mountinfo reader: fields around the optional ones, octal escapes, over-mounts; the mount points PID 1
 * ignores or gives no default dependencies, from the real rules (the <mount-point>s of dependencies.xml). */
#include "model/mount-table.h"
#include "tap.h"

int main(void) {
        static const char *text =
                "21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
                "22 21 0:30 / /tmp rw,nosuid shared:2 master:1 - tmpfs tmpfs rw,size=100k\n"
                "23 21 0:31 / /srv/my\\040disk rw - ext4 /dev/disk\\134x rw\n"
                "garbage line\n"
                "24 21 0:32 / /proc/sys/net rw - sysfs sysfs rw\n"
                "25 21 0:33 / /proc/sys/net ro - proc proc ro\n"
                "26 21 0:34 / /run/host/incoming ro - tmpfs tmpfs ro\n"
                "27 21 0:35 / /sys/fs/cgroup rw - cgroup2 cgroup rw\n"
                "28 21 0:36 / /media/auto rw - autofs systemd-1 rw\n"
                "29 21 0:37 / /run/hostess rw - tmpfs tmpfs rw";
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(rules_freep) Rules *r = NULL;
        MountTable t = {};
        const MountEntry *e;

        if (rules_load(NULL, &r, &diags) < 0) {
                diag_list_print(&diags, stdout, DIAG_ERROR);
                return 1;
        }

        tap_ok(mount_table_parse_mountinfo(text, &t) == 0, "parsed");
        tap_ok(t.n_entries == 9, "nine entries, the garbage line skipped (got %zu)", t.n_entries);
        tap_ok(t.n_entries > 1 && streq(t.entries[1].where, "/tmp") && streq(t.entries[1].fstype, "tmpfs") &&
               streq(t.entries[1].what, "tmpfs"), "optional fields before the separator are skipped");
        e = mount_table_find(&t, "/srv/my disk");
        tap_ok(e && streq(e->what, "/dev/disk\\x") && streq(e->fstype, "ext4"), "octal escapes undone");
        e = mount_table_find(&t, "/proc/sys/net");
        tap_ok(e && e == &t.entries[4] && streq(e->fstype, "proc"),
               "over-mounts: the last entry describes the unit");
        tap_ok(!mount_table_find(&t, "/nowhere"), "absent");
        tap_ok(t.n_entries == 9 && !mount_entry_ignored(&t.entries[0], r, 252) &&
               !mount_entry_ignored(&t.entries[1], r, 252) && !mount_entry_ignored(&t.entries[3], r, 252) &&
               !mount_entry_ignored(&t.entries[8], r, 252),
               "/, /tmp, /proc/sys/net and /run/hostess get units");
        tap_ok(t.n_entries == 9 && mount_entry_ignored(&t.entries[5], r, 252) &&
               mount_entry_ignored(&t.entries[6], r, 252) && mount_entry_ignored(&t.entries[7], r, 252),
               "the container manager's /run/host, the API cgroup file system and autofs get none");
        tap_ok(rules_mount_point(r, "extrinsic", "/", "ext4", 252) &&
               rules_mount_point(r, "extrinsic", "/usr", "ext4", 252) &&
               rules_mount_point(r, "extrinsic", "/proc/sys/fs/binfmt_misc", "binfmt_misc", 252) &&
               rules_mount_point(r, "extrinsic", "/run/initramfs", "tmpfs", 252),
               "/, /usr, anything below /proc and /run/initramfs get no default dependencies");
        tap_ok(!rules_mount_point(r, "extrinsic", "/tmp", "tmpfs", 252) &&
               !rules_mount_point(r, "extrinsic", "/usr/local", "ext4", 252) &&
               !rules_mount_point(r, "extrinsic", "/processes", "ext4", 252) &&
               !rules_mount_point(r, "ignored", "/run/hostess", "tmpfs", 252) &&
               !rules_mount_point(r, "api", "/sys/fs/cgroupish", "tmpfs", 252),
               "/tmp, /usr/local and look-alike names (/processes, /run/hostess, /sys/fs/cgroupish) do");
        mount_table_done(&t);
        tap_ok(t.n_entries == 0 && !t.entries, "done frees");
        tap_ok(mount_table_parse_mountinfo("", &t) == 0 && t.n_entries == 0, "an empty table");
        return tap_done();
}
