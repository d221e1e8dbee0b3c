/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The loader on small trees built here: search-path precedence, aliases, instances, masks, drop-in order per
 * version, .wants links. (The golden cases in fixtures/show and the oracle test cover the same against real
 * systemd; these pin the API.) */

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

static Unit *load(const Root *r, unsigned v, const char *name) {
        _cleanup_(loader_freep) Loader *l = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        Unit *u = NULL;

        if (loader_new(&(LoaderOptions) { .root = r, .features = test_features(v) }, &l, &d) < 0)
                return NULL;
        if (loader_load(l, name, &u, &d) < 0)
                return NULL;
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

int main(void) {
        _cleanup_(root_freep) Root *r = NULL;
        Unit *u;

        if (!mkdtemp(tmpl))
                return 1;
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

        tap_ok(root_open(tmpl, &r) == 0, "root_open");

        u = load(r, 252, "a.service");
        tap_ok(u && u->load_state == LOAD_LOADED && endswith(u->fragment_path, "/etc/systemd/system/a.service"),
               "/etc shadows /lib");
        unit_free(u);

        u = load(r, 252, "alias-t@x.service");
        tap_ok(u && streq(u->id, "t@x.service") && strv_contains(u->names, "alias-t@x.service"),
               "an instance of an aliased template goes by the template's name, with the alias as a name");
        tap_ok(u && streq(unit_requested(u), "alias-t@x.service"), "the requested name is kept");
        unit_free(u);

        u = load(r, 252, "m.service");
        TAP_INTEQ(u ? (int) u->load_state : -1, LOAD_MASKED, "symlink to /dev/null in /etc masks /lib's unit");
        unit_free(u);

        u = load(r, 252, "empty.service");
        TAP_INTEQ(u ? (int) u->load_state : -1, LOAD_MASKED, "an empty unit file is a mask");
        tap_ok(u && u->n_sources == 0 && u->n_settings == 0, "a mask's file is not parsed");
        unit_free(u);

        u = load(r, 252, "devnull.service");
        TAP_INTEQ(u ? (int) u->load_state : -1, LOAD_MASKED,
                  "a symlink to the tree's own /dev/null masks, whatever that file holds");
        unit_free(u);

        u = load(r, 252, "d.service");
        /* after the type-level 05-type.conf of this tree */
        tap_ok(u && u->load_state == LOAD_LOADED && n_dropins(u) == 4 &&
                       streq_ptr(dropin_name(u, 1), "10-empty.conf") && u->sources[2].masked &&
                       streq_ptr(dropin_name(u, 2), "20-null.conf") && u->sources[3].masked &&
                       streq_ptr(dropin_name(u, 3), "30-set.conf") && !u->sources[4].masked,
               "an empty drop-in and one linked to /dev/null are masked drop-ins, the next is read");
        tap_ok(u && u->n_settings == 3 && streq(u->settings[2].key, "After") &&
                       streq(u->settings[2].value, "z.service") && u->settings[2].source == 4,
               "the settings come from the fragment and the drop-ins read");
        unit_free(u);

        u = load(r, 252, "nothere.service");
        TAP_INTEQ(u ? (int) u->load_state : -1, LOAD_NOT_FOUND, "a missing service is not-found");
        unit_free(u);

        u = load(r, 252, "nothere.mount");
        TAP_INTEQ(u ? (int) u->load_state : -1, LOAD_LOADED, "a mount unit needs no file (mountinfo may have it)");
        unit_free(u);

        u = load(r, 252, "x-y-z.service");
        tap_ok(u && n_dropins(u) == 3 && streq_ptr(dropin_name(u, 0), "05-type.conf") &&
                       streq_ptr(dropin_name(u, 1), "10-prefix.conf") && streq_ptr(dropin_name(u, 2), "20-own.conf"),
               "252: type, prefix and own drop-ins, sorted by file name");
        unit_free(u);

        u = load(r, 243, "x-y-z.service");
        tap_ok(u && n_dropins(u) == 2 && streq_ptr(dropin_name(u, 0), "10-prefix.conf"),
               "243: no type-level drop-ins yet");
        unit_free(u);

        u = load(r, 238, "x-y-z.service");
        tap_ok(u && n_dropins(u) == 1 && streq_ptr(dropin_name(u, 0), "20-own.conf"),
               "238: no prefix drop-ins yet");
        unit_free(u);

        u = load(r, 252, "multi-user.target");
        tap_ok(u && u->n_links == 2, "two .wants entries");
        tap_ok(u && u->n_links == 2 && streq(u->links[0].name, "a.service") && !u->links[0].masked &&
                       u->links[0].kind == LINK_WANTS,
               ".wants/a.service is a Wants= dependency");
        tap_ok(u && u->n_links == 2 && streq(u->links[1].name, "gone.service") && u->links[1].masked,
               "a .wants entry linked to /dev/null is disabled");
        unit_free(u);

        /* loader_identify(): the same unit as loader_load() (id, names, fragment, state), its files unread */
        {
                static const char * const names[] = { "a.service", "alias-t@x.service", "m.service",
                                                       "nothere.service", "nothere.mount", "x-y-z.service",
                                                       "multi-user.target", "t@.service", "empty.service",
                                                       "devnull.service", "d.service", NULL };
                _cleanup_(loader_freep) Loader *l = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                unsigned same = 0, unread = 0, n = 0;

                if (loader_new(&(LoaderOptions) { .root = r, .features = test_features(252) }, &l, &d) >= 0)
                        for (const char * const *nm = names; *nm; nm++, n++) {
                                Unit *full = NULL, *id = NULL;
                                bool names_same;
                                if (loader_load(l, *nm, &full, &d) < 0 || loader_identify(l, *nm, &id, &d) < 0) {
                                        unit_free(full);
                                        unit_free(id);
                                        continue;
                                }
                                names_same = strv_length(full->names) == strv_length(id->names);
                                for (size_t k = 0; names_same && full->names[k]; k++)
                                        names_same = streq(full->names[k], id->names[k]);
                                if (streq(full->id, id->id) && names_same &&
                                    streq_ptr(full->fragment_path, id->fragment_path) &&
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
                tap_ok(n > 0 && same == n, "identify: %u of %u names give the unit loading gives", same, n);
                tap_ok(n > 0 && unread == n, "identify: no file is read (%u of %u without settings, sources, links)",
                       unread, n);
        }

        {
                char cmd[600];
                snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
                if (system(cmd) != 0)
                        tap_diag("cleanup failed");
        }
        return tap_done();
}
