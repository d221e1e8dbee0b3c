/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mountinfo reader: fields around the optional ones, octal escapes, over-mounts; the mount points PID 1
 * ignores or gives no default dependencies, from the real rules (the <mount-point>s of dependencies.xml). */
#include "model/mount-table.h"
#include "tap.h"

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

static void test_parse(const MountTable *t) {
        const MountEntry *e;

        TAP_STREQ(t->entries[1].where, "/tmp", "optional fields before the separator are skipped: where");
        TAP_STREQ(t->entries[1].fstype, "tmpfs", "optional fields before the separator are skipped: type");
        TAP_STREQ(t->entries[1].what, "tmpfs", "optional fields before the separator are skipped: what");
        e = mount_table_find(t, "/srv/my disk");
        tap_ok(e != NULL, "octal escapes undone in the mount point");
        TAP_STREQ(e ? e->what : NULL, "/dev/disk\\x", "octal escapes undone in the source");
        TAP_STREQ(e ? e->fstype : NULL, "ext4", "and the type read after them");
        e = mount_table_find(t, "/proc/sys/net");
        tap_ok(e == &t->entries[4], "over-mounts: the last entry describes the unit");
        TAP_STREQ(e ? e->fstype : NULL, "proc", "over-mounts: its type");
        tap_ok(!mount_table_find(t, "/nowhere"), "absent");
}

static void test_ignored(const MountTable *t, const Rules *r) {
        static const struct {
                size_t entry;
                bool ignored;
        } cases[] = {
                { 0, false }, { 1, false }, { 3, false }, { 8, false }, /* /, /tmp, /proc/sys/net, /run/hostess */
                { 5, true },  { 6, true },  { 7, true },                /* /run/host, the cgroup file system, autofs */
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                const MountEntry *e = &t->entries[cases[i].entry];
                tap_ok(mount_entry_ignored(e, r, 252) == cases[i].ignored, "%s (%s) %s", e->where, e->fstype,
                       cases[i].ignored ? "gets no unit" : "gets a unit");
        }
}

static void test_mount_points(const Rules *r) {
        static const struct {
                const char *class, *where, *fstype;
                bool match;
        } cases[] = {
                /* no default dependencies: /, /usr, anything below /proc and /run/initramfs */
                { "extrinsic", "/", "ext4", true },
                { "extrinsic", "/usr", "ext4", true },
                { "extrinsic", "/proc/sys/fs/binfmt_misc", "binfmt_misc", true },
                { "extrinsic", "/run/initramfs", "tmpfs", true },
                /* but /tmp, /usr/local and look-alike names do */
                { "extrinsic", "/tmp", "tmpfs", false },
                { "extrinsic", "/usr/local", "ext4", false },
                { "extrinsic", "/processes", "ext4", false },
                { "ignored", "/run/hostess", "tmpfs", false },
                { "api", "/sys/fs/cgroupish", "tmpfs", false },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                tap_ok(rules_mount_point(r, cases[i].class, cases[i].where, cases[i].fstype, 252) == cases[i].match,
                       "%s (%s) is %s%s", cases[i].where, cases[i].fstype, cases[i].match ? "" : "not ",
                       cases[i].class);
}

int main(void) {
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(rules_freep) Rules *r = NULL;
        MountTable t = {};

        if (rules_load(NULL, &r, &diags) < 0) {
                diag_list_print(&diags, stdout, DIAG_ERROR);
                tap_bail("cannot load the rules");
        }
        TAP_INTEQ(mount_table_parse_mountinfo(text, &t), 0, "parsed");
        TAP_INTEQ(t.n_entries, 9, "nine entries, the garbage line skipped");
        if (t.n_entries != 9)
                tap_bail("the table the checks below read is not there");
        test_parse(&t);
        test_ignored(&t, r);
        test_mount_points(r);
        mount_table_done(&t);
        TAP_INTEQ(t.n_entries, 0, "done empties the table");
        tap_ok(!t.entries, "done frees the entries");
        TAP_INTEQ(mount_table_parse_mountinfo("", &t), 0, "an empty text is parsed");
        TAP_INTEQ(t.n_entries, 0, "to an empty table");
        return tap_done();
}
