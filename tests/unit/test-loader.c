/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The loader on small trees built here: search-path precedence, aliases, instances, masks, drop-in order per
 * version, .wants links. (The golden cases in fixtures/show and the oracle test cover the same against real
 * systemd; these pin the API.) */

#include <errno.h>
#include <sys/stat.h>

#include "features.h"
#include "load/loader.h"
#include "tap.h"
#include "tree.h"

static char tmpl[] = "/tmp/test-loader.XXXXXX";

static void put(const char *rel, const char *content) {
        tree_put(tmpl, rel, content);
}

static void ln(const char *target, const char *rel) {
        tree_ln(tmpl, target, rel);
}

static Root *r;

/* name loaded at version v; a loader that cannot be made or a unit that cannot be loaded bails out (a missing unit
 * is loaded, as not-found) */
static Unit *load(unsigned v, const char *name) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        Unit *u = NULL;
        int k;

        k = loader_new(&(LoaderOptions) { .root = r, .features = test_features(v) }, &l, &d);
        if (k < 0)
                tap_bail("loader_new(systemd %u): %s", v, strerror(-k));
        k = loader_load(l, name, &u, &d);
        if (k < 0)
                tap_bail("loader_load(%s) at %u: %s", name, v, strerror(-k));
        return u;
}

static const char *dropin_name(const Unit *u, size_t k) {
        size_t seen = 0;
        for (size_t i = 0; i < u->n_sources; i++)
                if (u->sources[i].dropin && seen++ == k)
                        return path_basename(u->sources[i].path);
        return NULL;
}

static size_t n_dropins(const Unit *u) {
        size_t n = 0;
        for (size_t i = 0; i < u->n_sources; i++)
                n += u->sources[i].dropin;
        return n;
}

static void remove_tmpl(void) {
        char cmd[600];

        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
        if (system(cmd) != 0)
                tap_diag("cleanup failed");
}

static void setup(void) {
        int k;

        if (!mkdtemp(tmpl))
                tap_bail("mkdtemp: %s", strerror(errno));
        (void) atexit(remove_tmpl); /* a bail-out too */
        put("lib/systemd/system/a.service", "[Service]\nExecStart=/bin/a\n");
        put("etc/systemd/system/a.service", "[Service]\nExecStart=/bin/etc-a\n");
        put("lib/systemd/system/t@.service", "[Unit]\nDescription=%i\n[Service]\nExecStart=/bin/t\n");
        ln("t@.service", "lib/systemd/system/alias-t@.service");
        ln("/dev/null", "etc/systemd/system/m.service");
        put("lib/systemd/system/m.service", "[Service]\nExecStart=/bin/m\n");
        put("lib/systemd/system/x-y-z.service", "[Service]\nExecStart=/bin/z\n");
        put("lib/systemd/system/x-.service.d/10-prefix.conf", "[Unit]\nAfter=p.service\n");
        put("lib/systemd/system/service.d/05-type.conf", "[Unit]\nAfter=q.service\n");
        put("lib/systemd/system/x-y-z.service.d/20-own.conf", "[Unit]\nAfter=r.service\n");
        ln("/lib/systemd/system/a.service", "etc/systemd/system/multi-user.target.wants/a.service");
        ln("/dev/null", "etc/systemd/system/multi-user.target.wants/gone.service");
        put("lib/systemd/system/multi-user.target", "[Unit]\nDescription=mu\n");
        /* masks found by the open that reads a file: an empty file, the tree's own /dev/null (a regular file here,
         * with something in it), drop-ins of both kinds beside one that counts */
        put("etc/systemd/system/empty.service", "");
        put("dev/null", "[Service]\nExecStart=/bin/not-a-mask-by-content\n");
        ln("/dev/null", "etc/systemd/system/devnull.service");
        put("lib/systemd/system/d.service", "[Service]\nExecStart=/bin/d\n");
        put("etc/systemd/system/d.service.d/10-empty.conf", "");
        ln("/dev/null", "etc/systemd/system/d.service.d/20-null.conf");
        put("etc/systemd/system/d.service.d/30-set.conf", "[Unit]\nAfter=z.service\n");

        k = root_open(tmpl, &r);
        TAP_INTEQ(k, 0, "root_open");
        if (k < 0)
                tap_bail("root_open(%s): %s", tmpl, strerror(-k));
}

static void teardown(void) {
        r = root_free(r);
}

static void test_precedence_and_aliases(void) {
        Unit *u;

        u = load(252, "a.service");
        TAP_INTEQ(u->load_state, LOAD_LOADED, "a.service is loaded");
        tap_ok(endswith(u->fragment_path, "/etc/systemd/system/a.service") != NULL, "/etc shadows /lib (%s)",
               u->fragment_path);
        unit_free(u);

        u = load(252, "alias-t@x.service");
        TAP_STREQ(u->id, "t@x.service", "an instance of an aliased template goes by the template's name");
        tap_ok(strv_contains(u->names, "alias-t@x.service"), "with the alias as a name");
        TAP_STREQ(unit_requested(u), "alias-t@x.service", "the requested name is kept");
        unit_free(u);
}

static void test_masks(void) {
        Unit *u;

        u = load(252, "m.service");
        TAP_INTEQ(u->load_state, LOAD_MASKED, "symlink to /dev/null in /etc masks /lib's unit");
        unit_free(u);

        u = load(252, "empty.service");
        TAP_INTEQ(u->load_state, LOAD_MASKED, "an empty unit file is a mask");
        TAP_INTEQ(u->n_sources, 0, "a mask's file is not parsed: no sources");
        TAP_INTEQ(u->n_settings, 0, "a mask's file is not parsed: no settings");
        unit_free(u);

        u = load(252, "devnull.service");
        TAP_INTEQ(u->load_state, LOAD_MASKED, "a symlink to the tree's own /dev/null masks, whatever that file holds");
        unit_free(u);

        u = load(252, "d.service");
        /* after the type-level 05-type.conf of this tree */
        TAP_INTEQ(u->load_state, LOAD_LOADED, "d.service is loaded");
        TAP_INTEQ(n_dropins(u), 4, "d.service has four drop-ins");
        if (n_dropins(u) == 4 && u->n_sources == 5) {
                TAP_STREQ(dropin_name(u, 1), "10-empty.conf", "the empty drop-in is the second");
                tap_ok(u->sources[2].masked, "an empty drop-in is a masked drop-in");
                TAP_STREQ(dropin_name(u, 2), "20-null.conf", "the one linked to /dev/null is the third");
                tap_ok(u->sources[3].masked, "a drop-in linked to /dev/null is a masked drop-in");
                TAP_STREQ(dropin_name(u, 3), "30-set.conf", "the last drop-in is 30-set.conf");
                tap_ok(!u->sources[4].masked, "the next drop-in is read");
        } else
                tap_ok(false, "d.service: %zu sources, %zu drop-ins: the drop-ins cannot be checked", u->n_sources,
                       n_dropins(u));
        TAP_INTEQ(u->n_settings, 3, "the settings come from the fragment and the drop-ins read");
        if (u->n_settings == 3) {
                TAP_STREQ(u->settings[2].key, "After", "the drop-in's setting is After=");
                TAP_STREQ(u->settings[2].value, "z.service", "its value is z.service");
                TAP_INTEQ(u->settings[2].source, 4, "it comes from 30-set.conf");
        }
        unit_free(u);
}

static void test_missing(void) {
        Unit *u;

        u = load(252, "nothere.service");
        TAP_INTEQ(u->load_state, LOAD_NOT_FOUND, "a missing service is not-found");
        unit_free(u);

        u = load(252, "nothere.mount");
        TAP_INTEQ(u->load_state, LOAD_LOADED, "a mount unit needs no file (mountinfo may have it)");
        unit_free(u);
}

static void test_dropin_versions(void) {
        Unit *u;

        u = load(252, "x-y-z.service");
        TAP_INTEQ(n_dropins(u), 3, "252: type, prefix and own drop-ins");
        TAP_STREQ(dropin_name(u, 0), "05-type.conf", "252: the type-level drop-in first (by file name)");
        TAP_STREQ(dropin_name(u, 1), "10-prefix.conf", "252: then the prefix drop-in");
        TAP_STREQ(dropin_name(u, 2), "20-own.conf", "252: then its own");
        unit_free(u);

        u = load(243, "x-y-z.service");
        TAP_INTEQ(n_dropins(u), 2, "243: no type-level drop-ins yet");
        TAP_STREQ(dropin_name(u, 0), "10-prefix.conf", "243: the prefix drop-in first");
        unit_free(u);

        u = load(238, "x-y-z.service");
        TAP_INTEQ(n_dropins(u), 1, "238: no prefix drop-ins yet");
        TAP_STREQ(dropin_name(u, 0), "20-own.conf", "238: its own drop-in only");
        unit_free(u);
}

static void test_wants(void) {
        Unit *u;

        u = load(252, "multi-user.target");
        TAP_INTEQ(u->n_links, 2, "two .wants entries");
        if (u->n_links == 2) {
                TAP_STREQ(u->links[0].name, "a.service", ".wants/a.service is a link");
                TAP_INTEQ(u->links[0].kind, LINK_WANTS, ".wants/a.service is a Wants= dependency");
                tap_ok(!u->links[0].masked, ".wants/a.service is not disabled");
                TAP_STREQ(u->links[1].name, "gone.service", ".wants/gone.service is a link");
                tap_ok(u->links[1].masked, "a .wants entry linked to /dev/null is disabled");
        }
        unit_free(u);
}

/* loader_identify(): the same unit as loader_load() (id, names, fragment, state), its files unread */
static void test_identify(void) {
        static const char * const names[] = { "a.service", "alias-t@x.service", "m.service",
                                               "nothere.service", "nothere.mount", "x-y-z.service",
                                               "multi-user.target", "t@.service", "empty.service",
                                               "devnull.service", "d.service", NULL };
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        unsigned same = 0, unread = 0, n = 0;
        int k;

        k = loader_new(&(LoaderOptions) { .root = r, .features = test_features(252) }, &l, &d);
        if (k < 0)
                tap_bail("loader_new(systemd 252): %s", strerror(-k));
        for (const char * const *nm = names; *nm; nm++, n++) {
                Unit *full = NULL, *id = NULL;
                bool names_same;

                k = loader_load(l, *nm, &full, &d);
                if (k < 0)
                        tap_bail("loader_load(%s): %s", *nm, strerror(-k));
                k = loader_identify(l, *nm, &id, &d);
                if (k < 0)
                        tap_bail("loader_identify(%s): %s", *nm, strerror(-k));
                names_same = strv_length(full->names) == strv_length(id->names);
                for (size_t i = 0; names_same && full->names[i]; i++)
                        names_same = streq(full->names[i], id->names[i]);
                if (streq(full->id, id->id) && names_same && streq_ptr(full->fragment_path, id->fragment_path) &&
                    (full->load_state == id->load_state ||
                     (full->load_state == LOAD_ERROR && id->load_state == LOAD_LOADED)))
                        same++;
                else
                        tap_diag("%s: %s/%s vs %s/%s", *nm, full->id, load_state_to_string(full->load_state),
                                 id->id, load_state_to_string(id->load_state));
                unread += id->n_settings == 0 && id->n_sources == 0 && id->n_links == 0;
                unit_free(full);
                unit_free(id);
        }
        TAP_INTEQ(same, n, "identify: every name gives the unit loading gives");
        TAP_INTEQ(unread, n, "identify: no file is read (no settings, sources, links)");
}

int main(void) {
        setup();
        test_precedence_and_aliases();
        test_masks();
        test_missing();
        test_dropin_versions();
        test_wants();
        test_identify();
        teardown();
        return tap_done();
}
