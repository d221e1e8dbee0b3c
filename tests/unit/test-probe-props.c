/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's properties: a unit's sandbox settings as the loader reads them (drop-ins and resets included),
 * translated the way systemd-run sends them; -p assignments; the probe's own frame. */

#include <sys/stat.h>

#include "features.h"
#include "live/probe-props.h"
#include "load/loader.h"
#include "load/unit-settings.h"
#include "rules/rules.h"
#include "tap.h"

static char dir[256];

static void write_file(const char *rel, const char *text) {
        char p[512];
        FILE *f;

        snprintf(p, sizeof p, "%s/%s", dir, rel);
        f = fopen(p, "we");
        if (!f)
                abort();
        fputs(text, f);
        fclose(f);
}

static const char *fmt(const TransientProps *p, const char *name) {
        static char buf[1024];
        const TransientProp *x = transient_props_get(p, name);
        _cleanup_(freep) char *s = x ? transient_prop_format(x) : NULL;

        snprintf(buf, sizeof buf, "%s", s ? s : "(none)");
        return buf;
}

static void test_like(void) {
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(loader_freep) Loader *loader = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(freep) SettingStatus *st = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(transient_props_done) TransientProps props = {};
        _cleanup_(strv_freep) char **not_applied = NULL;
        char d[300];
        char *extra[] = { dir, NULL };

        write_file("sandboxed.service",
                   "[Unit]\n"
                   "Description=x\n"
                   "DefaultDependencies=no\n"
                   "RequiresMountsFor=/srv/data\n"
                   "[Service]\n"
                   "Type=notify\n"
                   "ExecStart=/usr/bin/daemon --foreground\n"
                   "PrivateTmp=yes\n"
                   "ProtectSystem=strict\n"
                   "ProtectHome=true\n"
                   "ReadWritePaths=/var/lib/a -/var/lib/b\n"
                   "ReadWritePaths=\n"
                   "ReadWritePaths=/var/lib/c\n"
                   "ReadOnlyDirectories=/etc/ro\n"
                   "BindPaths=/srv/src:/srv/dst:norbind -/opt/x\n"
                   "TemporaryFileSystem=/var/cache:ro\n"
                   "UMask=0027\n"
                   "StateDirectory=foo bar\n"
                   "CapabilityBoundingSet=CAP_NET_ADMIN\n"
                   "Restart=always\n");
        snprintf(d, sizeof d, "%s/sandboxed.service.d", dir);
        mkdir(d, 0755);
        write_file("sandboxed.service.d/override.conf",
                   "[Service]\nPrivateDevices=yes\nProtectSystem=full\n");

        if (root_open("/", &root) < 0 || rules_load(NULL, &rules, &diags) < 0 ||
            loader_new(&(LoaderOptions){ .root = root, .extra_dirs = extra, .features = test_features(252) }, &loader,
                       &diags) < 0 ||
            loader_load(loader, "sandboxed.service", &u, &diags) < 0 ||
            unit_settings_classify(u, rules, 252, &st, &diags) < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                tap_ok(0, "load the unit");
                return;
        }
        tap_ok(probe_props_from_unit(u, st, rules, 252, &props, &not_applied, &diags) == 0, "translated");
        TAP_STREQ(fmt(&props, "DefaultDependencies"), "DefaultDependencies=no",
                  "[Unit] DefaultDependencies=");
        TAP_STREQ(fmt(&props, "RequiresMountsFor"), "RequiresMountsFor=/srv/data",
                  "[Unit] RequiresMountsFor=");
        TAP_STREQ(fmt(&props, "PrivateTmp"), "PrivateTmp=yes", "PrivateTmp=");
        TAP_STREQ(fmt(&props, "ProtectSystem"), "ProtectSystem=full", "the drop-in's ProtectSystem= wins");
        TAP_STREQ(fmt(&props, "ProtectHome"), "ProtectHome=yes", "ProtectHome=true is sent as yes");
        TAP_STREQ(fmt(&props, "PrivateDevices"), "PrivateDevices=yes", "a setting from the drop-in");
        TAP_STREQ(fmt(&props, "ReadWritePaths"), "ReadWritePaths=/var/lib/c",
                  "an empty assignment resets the list");
        TAP_STREQ(fmt(&props, "ReadOnlyPaths"), "ReadOnlyPaths=/etc/ro",
                  "an old name maps to the new property");
        TAP_STREQ(fmt(&props, "BindPaths"), "BindPaths=/srv/src:/srv/dst -/opt/x:/opt/x", "BindPaths=");
        const TransientProp *b = transient_props_get(&props, "BindPaths");
        tap_ok(b && b->flags[0] == 0 && b->flags[1] == 16384 && !b->ignore[0] && b->ignore[1],
               "BindPaths= flags: norbind, rbind; '-' ignores a missing source");
        TAP_STREQ(fmt(&props, "TemporaryFileSystem"), "TemporaryFileSystem=/var/cache:ro",
                  "TemporaryFileSystem=");
        TAP_STREQ(fmt(&props, "UMask"), "UMask=23", "UMask= as a number (0027 = 23)");
        TAP_STREQ(fmt(&props, "StateDirectory"), "StateDirectory=foo bar", "StateDirectory= words");
        const TransientProp *pt = transient_props_get(&props, "PrivateTmp");
        tap_ok(pt && pt->origin && strstr(pt->origin, "sandboxed.service:8"), "origins are file:line (%s)",
               pt ? strna(pt->origin) : "-");
        tap_ok(strv_length(not_applied) == 1 && strstr(not_applied[0], "CapabilityBoundingSet="),
               "what is not applied is listed; ExecStart=, Type=, Restart= are not about the sandbox (%s)",
               not_applied && not_applied[0] ? not_applied[0] : "-");
        tap_ok(!transient_props_get(&props, "Type") && !transient_props_get(&props, "ExecStart"),
               "the unit's Type= and ExecStart= are not taken");
}

static void test_assign(void) {
        _cleanup_(transient_props_done) TransientProps props = {};
        const char *err;
        char *argv[] = { (char *) "/bin/sh", (char *) "-c", (char *) "exit 3", NULL };

        tap_ok(probe_props_assign(&props, "PrivateTmp=on", &err) == 0, "-p PrivateTmp=on");
        TAP_STREQ(fmt(&props, "PrivateTmp"), "PrivateTmp=yes", "booleans as systemd parses them");
        tap_ok(probe_props_assign(&props, "PrivateTmp=disconnected", &err) == 0 &&
                       transient_props_get(&props, "PrivateTmpEx"),
               "PrivateTmp=disconnected is PrivateTmpEx (257)");
        tap_ok(probe_props_assign(&props, "ReadWritePaths=\"/a b\" /c", &err) == 0, "-p with quotes");
        TAP_STREQ(fmt(&props, "ReadWritePaths"), "ReadWritePaths=/a b /c", "quoted words");
        tap_ok(probe_props_assign(&props, "PrivateTmp=maybe", &err) == -EINVAL && err,
               "a bad boolean refused");
        tap_ok(probe_props_assign(&props, "ExecStart=/bin/x", &err) == -EINVAL && err,
               "not a sandbox setting");
        tap_ok(probe_props_assign(&props, "novalue", &err) == -EINVAL, "no '='");
        tap_ok(probe_props_assign(&props, "UMask=999", &err) == -EINVAL, "a bad mode");
        tap_ok(probe_props_assign(&props, "BindPaths=relative", &err) == -EINVAL, "relative bind source");
        tap_ok(probe_key_supported("ProtectSystem") && !probe_key_supported("ExecStart"), "supported keys");

        tap_ok(probe_props_frame(&props, "d", argv) == 0, "frame");
        TAP_STREQ(fmt(&props, "Type"), "Type=oneshot", "the probe is a oneshot: its job ends when it exits");
        TAP_STREQ(fmt(&props, "AddRef"), "AddRef=yes", "pinned while the result is read");
        TAP_STREQ(fmt(&props, "ExecStart"), "ExecStart=/bin/sh -c exit 3", "the command");
        char *rel[] = { (char *) "sh", NULL };
        tap_ok(probe_props_frame(&props, "d", rel) == -EINVAL, "a relative command is refused");
}

int main(void) {
        char cmd[300];

        snprintf(dir, sizeof dir, "%s/bootrace-probe-props.XXXXXX", getenv("TMPDIR") ?: "/tmp");
        if (!mkdtemp(dir))
                return 1;
        test_like();
        test_assign();
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
                tap_diag("could not remove %s", dir);
        return tap_done();
}
