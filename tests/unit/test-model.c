/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules engine and the model: units written into a temporary tree, loaded with the real rules for several
 * systemd versions; each implicit/default rule that changed between versions is checked on both sides of the
 * change, with its origin. Also broken dependency rules, which must fail with file:line. */
#include <sys/stat.h>

#include "model/model.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-model.XXXXXX";
static Rules *rules;
/* a running system's mount table for edge(): mount points and PID 1's order of reading them */
static const MountTable *table;
static char **mounted;

static void write_unit(const char *name, const char *text) {
        _cleanup_(freep) char *p = strjoin(tmpdir, "/etc/systemd/system/", name);
        FILE *f = p ? fopen(p, "we") : NULL;
        if (f) {
                fputs(text, f);
                fclose(f);
        }
}

/* Builds the model of unit at version v; returns the edge's origin or NULL when the edge is absent. */
static const Origin *edge(unsigned v, const char *unit, DepType t, const char *other) {
        static Model *m;
        static Root *root;
        uint32_t a, b;
        EdgeSet e;

        m = model_free(m);
        if (!root && root_open(tmpdir, &root) < 0)
                return NULL;
        if (!unit)
                return root = root_free(root), NULL;
        if (model_new(&(ModelOptions) { .root = root, .systemd = v, .offline = false, .mounted = mounted,
                                         .mount_table = table },
                      rules, &m, NULL) < 0 ||
            model_add(m, unit, NULL) < 0 || (table && model_add(m, "local-fs.target", NULL) < 0) ||
            model_finish(m) < 0)
                return NULL;
        if (graph_find_node(model_graph(m), unit, &a) < 0 || graph_find_node(model_graph(m), other, &b) < 0)
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

int main(void) {
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *d = NULL;
        const Origin *o;

        if (!mkdtemp(tmpdir) || !(d = strjoin(tmpdir, "/etc/systemd/system")))
                return 1;
        {
                _cleanup_(freep) char *cmd = strjoin("mkdir -p '", d, "'");
                if (!cmd || system(cmd) != 0)
                        return 1;
        }
        if (rules_load(NULL, &rules, &diags) < 0) {
                diag_list_print(&diags, stdout, DIAG_ERROR);
                return 1;
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
        write_unit("flush.service", "[Unit]\nDefaultDependencies=no\nRequiresMountsFor=/var/log/journal\n"
                                    "[Service]\nExecStart=/bin/true\n");
        {
                _cleanup_(freep) char *cmd = strjoin("mkdir -p '", d, "/local-fs.target.wants' && ",
                                                     "ln -s ../flush.service '", d,
                                                     "/local-fs.target.wants/flush.service'");
                if (!cmd || system(cmd) != 0)
                        return 1;
        }

        /* PrivateTmp= by version (knowledge/implicit-deps.md §3) */
        tap_ok(!edge(232, "ptmp.service", DEP_AFTER, "systemd-tmpfiles-setup.service"), "232: no tmpfiles order");
        o = edge(233, "ptmp.service", DEP_AFTER, "systemd-tmpfiles-setup.service");
        tap_ok(o && streq_ptr(o->rule, "private-tmp-tmpfiles") && o->sd == SD_ORIGIN_FILE && o->version == 233,
               "233: After=systemd-tmpfiles-setup.service, rule private-tmp-tmpfiles labelled origin-file");
        tap_ok(!edge(248, "ptmp.service", DEP_WANTS, "tmp.mount"), "248: no Wants=tmp.mount");
        tap_ok(has_rule(249, "ptmp.service", DEP_WANTS, "tmp.mount", "private-tmp-tmp-mount"), "249: Wants=tmp.mount");
        tap_ok(!edge(256, "ptmp.service", DEP_WANTS, "tmp.mount"), "256: no tmp.mount by name");
        tap_ok(edge(229, "ptmp.service", DEP_AFTER, "-.mount") != NULL, "229: After=-.mount from /tmp");
        tap_ok(edge(252, "ptmp.service", DEP_AFTER, "systemd-journald.socket") != NULL,
               "a booting PID 1 orders the service after journald's socket (default output)");
        tap_ok(!edge(252, "ptmp.service", DEP_AFTER, "sysinit.target"), "DefaultDependencies=no: no sysinit");

        /* DynamicUser= normalisation */
        tap_ok(has_rule(252, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service", "private-tmp-tmpfiles"),
               "252: DynamicUser=yes implies PrivateTmp=yes");
        tap_ok(!edge(257, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service"),
               "257: DynamicUser=yes implies PrivateTmp=disconnected");
        tap_ok(!edge(231, "dyn.service", DEP_AFTER, "systemd-tmpfiles-setup.service"), "231: no DynamicUser=");

        /* default dependencies */
        o = edge(228, "state.service", DEP_REQUIRES, "sysinit.target");
        tap_ok(o && o->sd == SD_ORIGIN_DEFAULT && streq_ptr(o->class, "default"), "228: Requires=sysinit.target");
        tap_ok(edge(227, "state.service", DEP_REQUIRES, "basic.target") &&
               !edge(227, "state.service", DEP_REQUIRES, "sysinit.target"), "227: Requires=basic.target");
        tap_ok(has_rule(246, "state.service", DEP_AFTER, "systemd-remount-fs.service", "exec-directories-remount-fs"),
               "246: StateDirectory= orders after systemd-remount-fs");
        tap_ok(!edge(245, "state.service", DEP_AFTER, "systemd-remount-fs.service"), "245: not yet");
        tap_ok(has_rule(252, "t.target", DEP_AFTER, "state.service", "target-default-after-pulled-upholds"),
               "a target is ordered after what it wants");
        tap_ok(has_rule(252, "inst@a.service", DEP_REQUIRES, "system-inst.slice", "slice-instance"),
               "an instance goes in its template's slice");
        tap_ok(has_rule(252, "state.service", DEP_REQUIRES, "system.slice", "slice-system"), "system.slice");

        /* timers */
        tap_ok(has_rule(252, "cal.timer", DEP_TRIGGERS, "cal.service", "timer-triggers-same-name"), "timer triggers");
        tap_ok(edge(252, "cal.timer", DEP_AFTER, "time-set.target") != NULL, "252: OnCalendar= after time-set");
        tap_ok(!edge(247, "cal.timer", DEP_AFTER, "time-set.target"), "247: no time-set.target");

        /* mounts: nofail and the device */
        tap_ok(edge(252, "srv-data.mount", DEP_AFTER, "local-fs-pre.target") != NULL, "mount after local-fs-pre");
        tap_ok(!edge(252, "srv-data.mount", DEP_BEFORE, "local-fs.target"), "nofail: not before local-fs.target");
        tap_ok(edge(240, "srv-data.mount", DEP_BEFORE, "local-fs.target") != NULL, "240 regressed on nofail");
        tap_ok(edge(252, "srv-data.mount", DEP_REQUIRES, "dev-sdb1.device") != NULL, "mount requires its device");
        tap_ok(edge(252, "srv-data.mount", DEP_AFTER, "blockdev@dev-sdb1.target") != NULL, "245+: blockdev target");

        /* perpetual units */
        tap_ok(has_rule(252, "init.scope", DEP_REQUIRES, "-.slice", "slice-init-scope") &&
               has_rule(257, "init.scope", DEP_AFTER, "-.slice", "slice-init-scope"),
               "init.scope: Requires+After=-.slice (its slice)");
        tap_ok(!edge(252, "init.scope", DEP_REQUIRES, "system.slice"), "init.scope is not in system.slice");
        tap_ok(!edge(225, "init.scope", DEP_REQUIRES, "-.slice"), "225: no init.scope yet");
        tap_ok(!edge(252, "-.mount", DEP_AFTER, "systemd-journald.socket") &&
               !edge(257, "-.mount", DEP_AFTER, "systemd-journald.socket"),
               "-.mount: no After=systemd-journald.socket (PID 1 sets its output to null)");
        tap_ok(edge(252, "srv-data.mount", DEP_AFTER, "systemd-journald.socket") != NULL,
               "another mount keeps it (default output journal)");
        tap_ok(!edge(252, "tmp.mount", DEP_AFTER, "swap.target"),
               "no mount table: tmp.mount's type is unknown");

        /* the mount table of a running system: file system types, and the mounts PID 1 loads as references
         * before the table names them (from 250) */
        {
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

                tap_ok(mount_table_parse_mountinfo(mi, &t) == 0 && t.n_entries == 5 &&
                       mount_table_parse_mountinfo(mi2, &t2) == 0, "mount tables parsed");
                table = &t;
                mounted = mp;
                o = edge(252, "tmp.mount", DEP_AFTER, "swap.target");
                tap_ok(o && streq_ptr(o->rule, "mount-default-tmpfs-swap"),
                       "a tmpfs known from the mount table is ordered after swap.target");
                tap_ok(!edge(252, "srv-x.mount", DEP_AFTER, "swap.target"), "an ext4 one is not");
                tap_ok(edge(252, "tmp.mount", DEP_REQUIRES, "system.slice") != NULL &&
                       edge(252, "tmp.mount", DEP_AFTER, "systemd-journald.socket") != NULL,
                       "tmp.mount (the first line with default dependencies) is loaded in full");
                tap_ok(edge(252, "srv-x.mount", DEP_REQUIRES, "system.slice") != NULL &&
                       edge(252, "srv-x.mount", DEP_AFTER, "-.mount") != NULL,
                       "a mount nothing referenced is loaded in full");
                tap_ok(!edge(252, "var-log-journal.mount", DEP_REQUIRES, "system.slice") &&
                       !edge(252, "var-log-journal.mount", DEP_AFTER, "system.slice") &&
                       !edge(252, "var-log-journal.mount", DEP_AFTER, "systemd-journald.socket") &&
                       !edge(252, "var-log-journal.mount", DEP_AFTER, "-.mount"),
                       "252: a mount referenced before its line: no slice, no exec dependencies, its path "
                       "unexpanded");
                tap_ok(edge(252, "var-log-journal.mount", DEP_BEFORE, "local-fs.target") != NULL &&
                       edge(252, "flush.service", DEP_AFTER, "var-log-journal.mount") != NULL,
                       "252: it keeps the mount table's dependencies and orders what needs it");
                tap_ok(edge(249, "var-log-journal.mount", DEP_REQUIRES, "system.slice") != NULL &&
                       edge(249, "var-log-journal.mount", DEP_AFTER, "-.mount") != NULL,
                       "249: the table is read before anything is loaded: in full");
                table = &t2;
                tap_ok(edge(252, "var-log-journal.mount", DEP_REQUIRES, "system.slice") != NULL,
                       "252: the same mount on the line that loads the targets is loaded in full");
                table = NULL;
                mounted = NULL;
                mount_table_done(&t);
                mount_table_done(&t2);
        }
        (void) edge(0, NULL, 0, NULL);

        /* a broken rule names its file and line */
        {
                _cleanup_(freep) char *rd = strjoin(tmpdir, "/rules"), *cmd = NULL, *f = NULL;
                _cleanup_(diag_list_done) DiagList dl = {};
                Rules *r2 = NULL;
                FILE *x;
                bool found = false;

                cmd = strjoin("mkdir -p '", rd, "/schema' && cp '", rules_default_dir(), "'/*.xml '", rd,
                              "'/ && cp '", rules_default_dir(), "'/schema/*.rng '", rd, "/schema/'");
                f = strjoin(rd, "/dependencies.xml");
                tap_ok(cmd && system(cmd) == 0, "copied the rules");
                x = f ? fopen(f, "we") : NULL;
                if (x) {
                        fputs("<?xml version=\"1.0\"?>\n<dependencies>\n"
                              "  <rule id=\"x\" class=\"exec\" origin=\"file\" unit-types=\"service\">\n"
                              "    <add deps=\"After Sideways\" unit=\"a.service\"/>\n  </rule>\n</dependencies>\n",
                              x);
                        fclose(x);
                }
                tap_ok(rules_load(rd, &r2, &dl) == -EBADMSG, "broken dependency rules refused");
                for (size_t i = 0; i < dl.n; i++)
                        found = found || (dl.items[i].line == 4 && strstr(dl.items[i].file, "dependencies.xml") &&
                                          strstr(dl.items[i].message, "Sideways"));
                tap_ok(found, "the error names dependencies.xml:4 and the bad type");
                rules_free(r2);
        }
        {
                _cleanup_(freep) char *cmd = strjoin("rm -rf '", tmpdir, "'");
                if (cmd)
                        (void) system(cmd);
        }
        rules_free(rules);
        return tap_done();
}
