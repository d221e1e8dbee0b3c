/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules engine and the model: units written into a temporary tree, loaded with the real rules for several
 * systemd versions; each implicit/default rule that changed between versions is checked on both sides of the
 * change, with its origin. Also broken dependency rules, which must fail with file:line. A set-up step that
 * fails (a unit not written, a model not built) bails out: an absent edge then proves nothing. */
#include <sys/stat.h>

#include "model/model.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-model.XXXXXX";
static Rules *rules;
static Root *root;
/* a running system's mount table for edge(): mount points and PID 1's order of reading them */
static const MountTable *table;
static char **mounted;

/* Runs cmd (a string of strjoin(), freed here) with system(); a command that fails bails out. */
static void run_or_bail(const char *what, char *cmd) {
        if (!cmd)
                tap_bail("%s: out of memory", what);
        if (system(cmd) != 0)
                tap_bail("%s: '%s' failed", what, cmd);
        free(cmd);
}

static void write_file(const char *path, const char *text) {
        FILE *f = fopen(path, "we");

        if (!f)
                tap_bail("cannot create %s: %m", path);
        if (fputs(text, f) < 0 || fclose(f) != 0)
                tap_bail("cannot write %s: %m", path);
}

static void write_unit(const char *name, const char *text) {
        _cleanup_(freep) char *p = strjoin(tmpdir, "/etc/systemd/system/", name);

        if (!p)
                tap_bail("out of memory");
        write_file(p, text);
}

/* With no_tmp_mount, edge() judges for the release of v whose packaging keeps tmp.mount out of the unit path
 * (its <target> in rules/base-NNN.xml), so that a tmpfs on /tmp is known from the mount table alone. */
static bool no_tmp_mount;
static const char *release_of(unsigned v) {
        return v == 249 ? "ubuntu-jammy" : v == 252 ? "debian-bookworm" : NULL;
}

/* Builds the model of unit at version v; returns the edge's origin or NULL when the edge is absent (other
 * included: a unit the model never heard of has no edge). A model that cannot be built bails out. */
static const Origin *edge(unsigned v, const char *unit, DepType t, const char *other) {
        static Model *m;
        uint32_t a, b;
        EdgeSet e;
        int r;

        m = model_free(m);
        if (!unit)
                return NULL;
        r = model_new(&(ModelOptions) { .root = root, .systemd = v, .offline = false, .mounted = mounted,
                                        .mount_table = table, .target = no_tmp_mount ? release_of(v) : NULL },
                      rules, &m, NULL);
        if (r < 0)
                tap_bail("model_new(systemd %u): %s", v, strerror(-r));
        r = model_add(m, unit, NULL);
        if (r < 0)
                tap_bail("model_add(%s) at %u: %s", unit, v, strerror(-r));
        if (table && (r = model_add(m, "local-fs.target", NULL)) < 0)
                tap_bail("model_add(local-fs.target) at %u: %s", v, strerror(-r));
        r = model_finish(m);
        if (r < 0)
                tap_bail("model_finish() at %u for %s: %s", v, unit, strerror(-r));
        if (graph_find_node(model_graph(m), unit, &a) < 0)
                tap_bail("%s is not in the graph of systemd %u it was added to", unit, v);
        if (graph_find_node(model_graph(m), other, &b) < 0)
                return NULL;
        e = graph_out(model_graph(m), a);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(model_graph(m), edge_set_get(&e, i));
                if (ed->type == t && ed->to == b)
                        return graph_origin(model_graph(m), ed->origin);
        }
        return NULL;
}

static bool has_rule(unsigned v, const char *unit, DepType t, const char *other, const char *rule) {
        const Origin *o = edge(v, unit, t, other);
        return o && streq_ptr(o->rule, rule);
}

/* tap_ok() of an edge that must be there, or must not */
#define EDGE(v, unit, t, other, name) tap_ok(edge(v, unit, t, other) != NULL, "%s", name)
#define NO_EDGE(v, unit, t, other, name) tap_ok(!edge(v, unit, t, other), "%s", name)

static void remove_tmpdir(void) {
        _cleanup_(freep) char *cmd = strjoin("rm -rf '", tmpdir, "'");

        if (cmd)
                (void) system(cmd);
}

static void setup(void) {
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *d = NULL;
        int r;

        if (!mkdtemp(tmpdir))
                tap_bail("mkdtemp: %m");
        (void) atexit(remove_tmpdir); /* a bail-out too */
        d = strjoin(tmpdir, "/etc/systemd/system");
        if (!d)
                tap_bail("out of memory");
        run_or_bail("the unit directory", strjoin("mkdir -p '", d, "'"));
        if (rules_load(NULL, &rules, &diags) < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                tap_bail("cannot load the rules");
        }
        write_unit("ptmp.service", "[Unit]\nDefaultDependencies=no\n[Service]\nExecStart=/bin/true\nPrivateTmp=yes\n");
        write_unit("dyn.service", "[Service]\nExecStart=/bin/true\nDynamicUser=yes\n");
        write_unit("state.service", "[Service]\nExecStart=/bin/true\nStateDirectory=foo bar:baz\n");
        write_unit("wd.service", "[Service]\nExecStart=/bin/true\nWorkingDirectory=-/srv/x\n");
        write_unit("inst@.service", "[Service]\nExecStart=/bin/true\n");
        write_unit("t.target", "[Unit]\nWants=state.service inst@a.service\n");
        write_unit("cal.timer", "[Timer]\nOnCalendar=daily\nPersistent=yes\n");
        write_unit("cal.service", "[Service]\nExecStart=/bin/true\n");
        write_unit("srv-data.mount", "[Mount]\nWhat=/dev/sdb1\nWhere=/srv/data\nOptions=nofail\n");
        write_unit("dev-sdc2.swap", "[Swap]\nWhat=/dev/sdc2\nOptions=x-initrd.mount\n");
        write_unit("swapfile.swap", "[Swap]\nWhat=/swapfile\n");
        write_unit("bound.mount", "[Mount]\nWhat=/dev/sdd1\nWhere=/bound\nOptions=x-systemd.device-bound\n");
        write_unit("stop.service", "[Unit]\nPropagatesStopTo=cal.service\nStopPropagatedFrom=state.service\n"
                                   "[Service]\nExecStart=/bin/true\n");
        /* an exec directory word: SOURCE[:SYMLINK] with escapes from 250 (exec-directory-symlinks) */
        write_unit("rd.service", "[Service]\nExecStart=/bin/true\nRuntimeDirectory=a\\:b:c x\\x41y\n");
        write_unit("flush.service", "[Unit]\nDefaultDependencies=no\nRequiresMountsFor=/var/log/journal\n"
                                    "[Service]\nExecStart=/bin/true\n");
        run_or_bail("the local-fs.target.wants link",
                    strjoin("mkdir -p '", d, "/local-fs.target.wants' && ", "ln -s ../flush.service '", d,
                            "/local-fs.target.wants/flush.service'"));
        /* links of a base unit under each of its names (base-NNN.xml: runlevel3.target is multi-user.target) */
        write_unit("mu-wanted.service", "[Service]\nExecStart=/bin/true\n");
        write_unit("rl3-wanted.service", "[Service]\nExecStart=/bin/true\n");
        run_or_bail("the multi-user.target.wants and runlevel3.target.wants links",
                    strjoin("mkdir -p '", d, "/multi-user.target.wants' '", d, "/runlevel3.target.wants' && ",
                            "ln -s ../mu-wanted.service '", d, "/multi-user.target.wants/' && ",
                            "ln -s ../rl3-wanted.service '", d, "/runlevel3.target.wants/'"));
        r = root_open(tmpdir, &root);
        if (r < 0)
                tap_bail("root_open(%s): %s", tmpdir, strerror(-r));
}

static void teardown(void) {
        (void) edge(0, NULL, 0, NULL);
        root = root_free(root);
        rules_free(rules);
}

/* PrivateTmp= by version (knowledge/implicit-deps.md §3) */
static void test_private_tmp(void) {
        const Origin *o;

        NO_EDGE(232, "ptmp.service", DEP_AFTER, "systemd-tmpfiles-setup.service", "232: no tmpfiles order");
        o = edge(233, "ptmp.service", DEP_AFTER, "systemd-tmpfiles-setup.service");
        tap_ok(o != NULL, "233: After=systemd-tmpfiles-setup.service");
        TAP_STREQ(o ? o->rule : NULL, "private-tmp-tmpfiles", "233: by rule private-tmp-tmpfiles");
        TAP_INTEQ(o ? (long long) o->sd : -1, SD_ORIGIN_FILE, "233: labelled origin-file");
        TAP_INTEQ(o ? (long long) o->version : -1, 233, "233: the rule's version is 233");
        NO_EDGE(248, "ptmp.service", DEP_WANTS, "tmp.mount", "248: no Wants=tmp.mount");
        tap_ok(has_rule(249, "ptmp.service", DEP_WANTS, "tmp.mount", "private-tmp-tmp-mount"), "249: Wants=tmp.mount");
        /* systemd's own install has tmp.mount (rules/base-NNN.xml): from 256 it is wanted through the path only */
        tap_ok(!has_rule(256, "ptmp.service", DEP_WANTS, "tmp.mount", "private-tmp-tmp-mount"),
               "256: no tmp.mount by name");
        tap_ok(has_rule(256, "ptmp.service", DEP_WANTS, "tmp.mount", "private-tmp-wants-mounts-for"),
               "256: Wants=tmp.mount through WantsMountsFor=/tmp");
        EDGE(229, "ptmp.service", DEP_AFTER, "-.mount", "229: After=-.mount from /tmp");
        EDGE(252, "ptmp.service", DEP_AFTER, "systemd-journald.socket",
             "a booting PID 1 orders the service after journald's socket (default output)");
        NO_EDGE(252, "ptmp.service", DEP_AFTER, "sysinit.target", "DefaultDependencies=no: no sysinit");
}

/* DynamicUser= normalisation */
static void test_dynamic_user(void) {
        tap_ok(has_rule(252, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service", "private-tmp-tmpfiles"),
               "252: DynamicUser=yes implies PrivateTmp=yes");
        NO_EDGE(257, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service",
                "257: DynamicUser=yes implies PrivateTmp=disconnected");
        NO_EDGE(231, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service", "231: no DynamicUser=");
}

static void test_default_dependencies(void) {
        const Origin *o;

        o = edge(228, "state.service", DEP_REQUIRES, "sysinit.target");
        tap_ok(o != NULL, "228: Requires=sysinit.target");
        TAP_INTEQ(o ? (long long) o->sd : -1, SD_ORIGIN_DEFAULT, "228: labelled origin-default");
        TAP_STREQ(o ? o->class : NULL, "default", "228: of class default");
        EDGE(227, "state.service", DEP_REQUIRES, "basic.target", "227: Requires=basic.target");
        NO_EDGE(227, "state.service", DEP_REQUIRES, "sysinit.target", "227: no Requires=sysinit.target");
        tap_ok(has_rule(246, "state.service", DEP_AFTER, "systemd-remount-fs.service", "exec-directories-remount-fs"),
               "246: StateDirectory= orders after systemd-remount-fs");
        NO_EDGE(245, "state.service", DEP_AFTER, "systemd-remount-fs.service", "245: not yet");
        tap_ok(has_rule(252, "t.target", DEP_AFTER, "state.service", "target-default-after-pulled-upholds"),
               "a target is ordered after what it wants");
        tap_ok(has_rule(252, "inst@a.service", DEP_REQUIRES, "system-inst.slice", "slice-instance"),
               "an instance goes in its template's slice");
        tap_ok(has_rule(252, "state.service", DEP_REQUIRES, "system.slice", "slice-system"), "system.slice");
}

static void test_timers(void) {
        tap_ok(has_rule(252, "cal.timer", DEP_TRIGGERS, "cal.service", "timer-triggers-same-name"), "timer triggers");
        EDGE(252, "cal.timer", DEP_AFTER, "time-set.target", "252: OnCalendar= after time-set");
        NO_EDGE(247, "cal.timer", DEP_AFTER, "time-set.target", "247: no time-set.target");
}

/* mounts: nofail and the device */
static void test_mounts(void) {
        EDGE(252, "srv-data.mount", DEP_AFTER, "local-fs-pre.target", "mount after local-fs-pre");
        NO_EDGE(252, "srv-data.mount", DEP_BEFORE, "local-fs.target", "nofail: not before local-fs.target");
        EDGE(240, "srv-data.mount", DEP_BEFORE, "local-fs.target", "240 regressed on nofail");
        EDGE(252, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device", "mount requires its device");
        EDGE(252, "srv-data.mount", DEP_AFTER, "blockdev@dev-sdb1.target", "245+: blockdev target");
        /* mount_propagate_stop(): a mount from a file is stopped with its device from 249 */
        tap_ok(has_rule(249, "srv-data.mount", DEP_STOP_PROPAGATED_FROM, "dev-sdb1.device", "mount-device-stop"),
               "249: StopPropagatedFrom= its device");
        NO_EDGE(248, "srv-data.mount", DEP_STOP_PROPAGATED_FROM, "dev-sdb1.device", "248: no stop propagation");
        NO_EDGE(252, "bound.mount", DEP_STOP_PROPAGATED_FROM, "dev-sdd1.device", "bound to its device: none");
        /* from 252 the device dependencies are labelled origin-mount-file (87c734eedd) */
        tap_ok(edge(252, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device") &&
               edge(252, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device")->sd == SD_ORIGIN_MOUNT_FILE,
               "252: Requires= device is origin-mount-file");
        tap_ok(edge(251, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device") &&
               edge(251, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device")->sd == SD_ORIGIN_FILE,
               "251: origin-file");
        /* PropagatesStopTo=, StopPropagatedFrom= from a file (249) */
        EDGE(252, "stop.service", DEP_PROPAGATES_STOP_TO, "cal.service", "PropagatesStopTo= from the file");
        EDGE(252, "stop.service", DEP_STOP_PROPAGATED_FROM, "state.service", "StopPropagatedFrom= from the file");
        NO_EDGE(248, "stop.service", DEP_PROPAGATES_STOP_TO, "cal.service", "248 does not know PropagatesStopTo=");
}

/* The edges from first to second (of type t) when the model loads first, then second, at version v. */
static bool edge_in_order(unsigned v, const char *first, const char *second, const char *from, DepType t,
                          const char *to) {
        _cleanup_(model_freep) Model *m = NULL;
        uint32_t a, b;
        EdgeSet e;
        int r;

        r = model_new(&(ModelOptions) { .root = root, .systemd = v }, rules, &m, NULL);
        if (r < 0)
                tap_bail("model_new(systemd %u): %s", v, strerror(-r));
        if ((r = model_add(m, first, NULL)) < 0 || (r = model_add(m, second, NULL)) < 0 ||
            (r = model_finish(m)) < 0)
                tap_bail("model of %s, %s at %u: %s", first, second, v, strerror(-r));
        if (graph_find_node(model_graph(m), from, &a) < 0 || graph_find_node(model_graph(m), to, &b) < 0)
                tap_bail("%s or %s is not in the graph", from, to);
        e = graph_out(model_graph(m), a);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(model_graph(m), edge_set_get(&e, i));
                if (ed->type == t && ed->to == b)
                        return true;
        }
        return false;
}

/* A mount unit refused by mount_verify() (its name is not its Where=) leaves After=/Requires= on the units loaded
 * before it whose mounts-for paths it covers (mount_add_mount_dependencies() ran first), none on those loaded
 * after it; a refusal by a fatal setting leaves none. */
static void test_refused_mount(void) {
        write_unit("needs-data.service", "[Unit]\nRequiresMountsFor=/srv/refused/x\n[Service]\nExecStart=/bin/true\n");
        write_unit("wants-data.service", "[Unit]\nWantsMountsFor=/srv/refused\n[Service]\nExecStart=/bin/true\n");
        write_unit("misnamed-data.mount", "[Mount]\nWhat=/dev/sdz1\nWhere=/srv/refused\n");
        write_unit("fatal-data.mount", "[Mount]\nWhat=/dev/sdz1\nWhere=/srv/refused\nDynamicUser=maybe\n");

        tap_ok(edge_in_order(252, "needs-data.service", "misnamed-data.mount", "needs-data.service", DEP_AFTER,
                             "misnamed-data.mount"), "loaded before the misnamed mount: After= on it");
        tap_ok(edge_in_order(252, "needs-data.service", "misnamed-data.mount", "needs-data.service", DEP_REQUIRES,
                             "misnamed-data.mount"), "loaded before the misnamed mount: Requires= on it");
        tap_ok(!edge_in_order(252, "misnamed-data.mount", "needs-data.service", "needs-data.service", DEP_AFTER,
                              "misnamed-data.mount"), "loaded after it: no After=");
        tap_ok(edge_in_order(257, "wants-data.service", "misnamed-data.mount", "wants-data.service", DEP_WANTS,
                             "misnamed-data.mount"), "WantsMountsFor=: Wants= on it");
        tap_ok(!edge_in_order(257, "wants-data.service", "misnamed-data.mount", "wants-data.service", DEP_REQUIRES,
                              "misnamed-data.mount"), "WantsMountsFor=: no Requires=");
        tap_ok(!edge_in_order(252, "needs-data.service", "fatal-data.mount", "needs-data.service", DEP_AFTER,
                              "fatal-data.mount"), "a mount refused by a fatal setting: no After=");
}

/* swaps (swap_add_extras(), swap_add_device_dependencies()): the device bound to up to 244, required from 245;
 * What= always a mounts-for path; system.slice whatever the options */
/* Whether unit of the model of v requires the mounts for path (its mounts_for list). */
static bool mounts_for(unsigned v, const char *unit, const char *path) {
        _cleanup_(model_freep) Model *m = NULL;
        const ModelUnit *mu;
        int r;

        r = model_new(&(ModelOptions) { .root = root, .systemd = v }, rules, &m, NULL);
        if (r < 0)
                tap_bail("model_new(systemd %u): %s", v, strerror(-r));
        if ((r = model_add(m, unit, NULL)) < 0 || (r = model_finish(m)) < 0)
                tap_bail("the model of %s at %u: %s", unit, v, strerror(-r));
        mu = model_get(m, unit);
        if (!mu)
                tap_bail("%s is not in the model of systemd %u", unit, v);
        for (size_t i = 0; i < mu->n_mounts_for; i++)
                if (streq(mu->mounts_for[i].path, path))
                        return true;
        return false;
}

/* RuntimeDirectory=a\:b:c x\x41y: from 250 the directories /run/a:b (the ':' escaped, the one after it the
 * symlink's) and /run/xAy (a C escape); before, the words as written after unquoting, /run/a:b:c and /run/xx41y */
static void test_exec_directory_words(void) {
        tap_ok(mounts_for(252, "rd.service", "/run/a:b"), "252: RuntimeDirectory=a\\:b:c needs /run/a:b");
        tap_ok(!mounts_for(252, "rd.service", "/run/a:b:c"), "252: not /run/a:b:c (c is the symlink)");
        tap_ok(mounts_for(252, "rd.service", "/run/xAy"), "252: x\\x41y is /run/xAy");
        tap_ok(mounts_for(249, "rd.service", "/run/a:b:c"), "249: the whole word, /run/a:b:c");
        tap_ok(mounts_for(249, "rd.service", "/run/xx41y"), "249: no C escapes, /run/xx41y");
}

static void test_swaps(void) {
        tap_ok(has_rule(244, "dev-sdc2.swap", DEP_BINDS_TO, "dev-sdc2.device", "swap-device"), "244: BindsTo= device");
        NO_EDGE(244, "dev-sdc2.swap", DEP_REQUIRES, "dev-sdc2.device", "244: no Requires= device");
        tap_ok(has_rule(245, "dev-sdc2.swap", DEP_REQUIRES, "dev-sdc2.device", "swap-device-requires"),
               "245: Requires= device");
        NO_EDGE(252, "dev-sdc2.swap", DEP_BINDS_TO, "dev-sdc2.device", "252: no BindsTo= device");
        EDGE(252, "dev-sdc2.swap", DEP_AFTER, "blockdev@dev-sdc2.target", "245+: blockdev target");
        NO_EDGE(244, "dev-sdc2.swap", DEP_AFTER, "blockdev@dev-sdc2.target", "244: no blockdev target");
        EDGE(252, "dev-sdc2.swap", DEP_AFTER, "-.mount", "a device's What= is a mounts-for path too");
        tap_ok(has_rule(252, "dev-sdc2.swap", DEP_REQUIRES, "system.slice", "slice-system"),
               "x-initrd.mount swap: still system.slice");
        tap_ok(has_rule(252, "swapfile.swap", DEP_AFTER, "systemd-remount-fs.service", "swap-file-remount"),
               "swap file: after systemd-remount-fs.service");
        NO_EDGE(252, "dev-sdc2.swap", DEP_AFTER, "systemd-remount-fs.service", "device swap: no remount-fs");
}

static void test_perpetual_units(void) {
        tap_ok(has_rule(252, "init.scope", DEP_REQUIRES, "-.slice", "slice-init-scope"),
               "init.scope: Requires=-.slice (its slice)");
        tap_ok(has_rule(257, "init.scope", DEP_AFTER, "-.slice", "slice-init-scope"),
               "init.scope: After=-.slice (its slice)");
        NO_EDGE(252, "init.scope", DEP_REQUIRES, "system.slice", "init.scope is not in system.slice");
        NO_EDGE(225, "init.scope", DEP_REQUIRES, "-.slice", "225: no init.scope yet");
        NO_EDGE(252, "-.mount", DEP_AFTER, "systemd-journald.socket",
                "252: -.mount: no After=systemd-journald.socket (PID 1 sets its output to null)");
        NO_EDGE(257, "-.mount", DEP_AFTER, "systemd-journald.socket",
                "257: -.mount: no After=systemd-journald.socket");
        EDGE(252, "srv-data.mount", DEP_AFTER, "systemd-journald.socket",
             "another mount keeps it (default output journal)");
        no_tmp_mount = true;
        NO_EDGE(252, "tmp.mount", DEP_AFTER, "swap.target", "no mount table: tmp.mount's type is unknown");
        no_tmp_mount = false;
}

/* the mount table of a running system: file system types, and the mounts PID 1 loads as references before the
 * table names them (from 250) */
static void test_mount_table(void) {
        static const char *mi =
                "21 1 8:1 / / rw,relatime - ext4 /dev/vda rw\n"
                "22 21 0:30 / /tmp rw shared:2 - tmpfs tmpfs rw\n"
                "23 21 0:31 / /sys ro - tmpfs tmpfs ro\n"
                "24 21 8:1 /journal /var/log/journal rw - ext4 /dev/vda rw\n"
                "25 21 8:2 / /srv/x rw - ext4 /dev/vdb rw\n";
        /* the journal's mount first: it is the one that loads the targets */
        static const char *mi2 =
                "21 1 8:1 / / rw,relatime - ext4 /dev/vda rw\n"
                "24 21 8:1 /journal /var/log/journal rw - ext4 /dev/vda rw\n"
                "22 21 0:30 / /tmp rw shared:2 - tmpfs tmpfs rw\n";
        MountTable t = {}, t2 = {};
        char *mp[] = {
                (char *) "/", (char *) "/tmp", (char *) "/var/log/journal", (char *) "/srv/x", NULL,
        };
        const Origin *o;
        int r;

        r = mount_table_parse_mountinfo(mi, &t);
        if (r < 0)
                tap_bail("mount_table_parse_mountinfo(mi): %s", strerror(-r));
        TAP_INTEQ(t.n_entries, 5, "the mount table has its five lines");
        r = mount_table_parse_mountinfo(mi2, &t2);
        if (r < 0)
                tap_bail("mount_table_parse_mountinfo(mi2): %s", strerror(-r));
        table = &t;
        mounted = mp;
        no_tmp_mount = true;
        o = edge(252, "tmp.mount", DEP_AFTER, "swap.target");
        tap_ok(o != NULL, "a tmpfs known from the mount table is ordered after swap.target");
        TAP_STREQ(o ? o->rule : NULL, "mount-default-tmpfs-swap-mount-file", "by rule mount-default-tmpfs-swap(-mount-file from 252)");
        NO_EDGE(252, "srv-x.mount", DEP_AFTER, "swap.target", "an ext4 one is not");
        EDGE(252, "tmp.mount", DEP_REQUIRES, "system.slice",
             "tmp.mount (the first line with default dependencies) is loaded in full: Requires=system.slice");
        EDGE(252, "tmp.mount", DEP_AFTER, "systemd-journald.socket",
             "tmp.mount is loaded in full: After=systemd-journald.socket");
        EDGE(252, "srv-x.mount", DEP_REQUIRES, "system.slice",
             "a mount nothing referenced is loaded in full: Requires=system.slice");
        EDGE(252, "srv-x.mount", DEP_AFTER, "-.mount", "a mount nothing referenced is loaded in full: After=-.mount");
        NO_EDGE(252, "var-log-journal.mount", DEP_REQUIRES, "system.slice",
                "252: a mount referenced before its line: no Requires=system.slice");
        NO_EDGE(252, "var-log-journal.mount", DEP_AFTER, "system.slice",
                "252: a mount referenced before its line: no After=system.slice");
        NO_EDGE(252, "var-log-journal.mount", DEP_AFTER, "systemd-journald.socket",
                "252: a mount referenced before its line: no exec dependencies");
        NO_EDGE(252, "var-log-journal.mount", DEP_AFTER, "-.mount",
                "252: a mount referenced before its line: its path unexpanded");
        EDGE(252, "var-log-journal.mount", DEP_BEFORE, "local-fs.target",
             "252: it keeps the mount table's dependencies");
        EDGE(252, "flush.service", DEP_AFTER, "var-log-journal.mount", "252: and orders what needs it");
        EDGE(249, "var-log-journal.mount", DEP_REQUIRES, "system.slice",
             "249: the table is read before anything is loaded: Requires=system.slice");
        EDGE(249, "var-log-journal.mount", DEP_AFTER, "-.mount",
             "249: the table is read before anything is loaded: After=-.mount");
        table = &t2;
        EDGE(252, "var-log-journal.mount", DEP_REQUIRES, "system.slice",
             "252: the same mount on the line that loads the targets is loaded in full");
        table = NULL;
        mounted = NULL;
        no_tmp_mount = false;
        mount_table_done(&t);
        mount_table_done(&t2);
}

/* a broken rule names its file and line */
static void test_broken_rule(void) {
        _cleanup_(freep) char *rd = strjoin(tmpdir, "/rules"), *f = NULL;
        _cleanup_(diag_list_done) DiagList dl = {};
        Rules *r2 = NULL;
        bool found = false;

        if (!rd || !(f = strjoin(rd, "/dependencies.xml")))
                tap_bail("out of memory");
        run_or_bail("copying the rules",
                    strjoin("mkdir -p '", rd, "/schema' && cp '", rules_default_dir(), "'/*.xml '", rd,
                            "'/ && cp '", rules_default_dir(), "'/schema/*.rng '", rd, "/schema/'"));
        write_file(f, "<?xml version=\"1.0\"?>\n<dependencies>\n"
                      "  <rule id=\"x\" class=\"exec\" origin=\"file\" unit-types=\"service\">\n"
                      "    <add deps=\"After Sideways\" unit=\"a.service\"/>\n  </rule>\n</dependencies>\n");
        TAP_INTEQ(rules_load(rd, &r2, &dl), -EBADMSG, "broken dependency rules refused");
        for (size_t i = 0; i < dl.n; i++)
                found = found || (dl.items[i].line == 4 && strstr(dl.items[i].file, "dependencies.xml") &&
                                  strstr(dl.items[i].message, "Sideways"));
        tap_ok(found, "the error names dependencies.xml:4 and the bad type");
        rules_free(r2);
}

/* Does the unit first loaded as first, then asked for as then, want wanted? */
static bool alias_wants(unsigned v, const char *first, const char *then, const char *wanted) {
        _cleanup_(model_freep) Model *m = NULL;
        const ModelUnit *u;
        uint32_t b;
        EdgeSet e;
        int r;

        r = model_new(&(ModelOptions) { .root = root, .systemd = v }, rules, &m, NULL);
        if (r < 0)
                tap_bail("model_new(systemd %u): %s", v, strerror(-r));
        if ((r = model_add(m, first, NULL)) < 0 || (r = model_add(m, then, NULL)) < 0 || (r = model_finish(m)) < 0)
                tap_bail("the model of %s and %s at %u: %s", first, then, v, strerror(-r));
        u = model_get(m, then);
        if (!u || !u->loaded)
                tap_bail("%s is not loaded at %u", then, v);
        if (graph_find_node(model_graph(m), wanted, &b) < 0)
                return false;
        e = graph_out(model_graph(m), u->node);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(model_graph(m), edge_set_get(&e, i));
                if (ed->type == DEP_WANTS && ed->to == b)
                        return true;
        }
        return false;
}

/* A base unit without a file in the tree has the names the base model gives it (its aliases): systemd reads the
 * .wants/ links of every name of a unit, whichever name loads it first (unit_load_dropin()) */
static void test_base_aliases(void) {
        tap_ok(alias_wants(252, "runlevel3.target", "multi-user.target", "mu-wanted.service"),
               "loaded as runlevel3.target first: multi-user.target.wants/ still counts");
        tap_ok(alias_wants(252, "runlevel3.target", "multi-user.target", "rl3-wanted.service"),
               "loaded as runlevel3.target first: runlevel3.target.wants/ counts");
        tap_ok(alias_wants(252, "multi-user.target", "runlevel3.target", "rl3-wanted.service"),
               "loaded as multi-user.target first: runlevel3.target.wants/ counts");
        tap_ok(alias_wants(252, "multi-user.target", "runlevel3.target", "mu-wanted.service"),
               "loaded as multi-user.target first: multi-user.target.wants/ counts");
}

int main(void) {
        setup();
        test_private_tmp();
        test_dynamic_user();
        test_default_dependencies();
        test_timers();
        test_mounts();
        test_refused_mount();
        test_swaps();
        test_exec_directory_words();
        test_perpetual_units();
        test_mount_table();
        test_broken_rule();
        test_base_aliases();
        teardown();
        return tap_done();
}
