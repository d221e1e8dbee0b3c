/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Loading ahead on a second thread gives exactly what loader_load() gives, whoever of the two loads a unit:
 * every unit of a small tree (aliases, a template instance, a mask, drop-ins, .wants links, a broken file, a
 * missing unit) is described field by field and with its diagnostics, once loaded directly and then through
 * the worker in several interleavings, the model asking in the order it hinted and in the reverse order. */

#include <sys/stat.h>
#include <time.h>

#include "features.h"
#include "load/prefetch.h"
#include "tap.h"
#include "tree.h"

static char tmpl[] = "/tmp/test-prefetch.XXXXXX";

static void put(const char *rel, const char *content) {
        tree_put(tmpl, rel, content);
}

static void ln(const char *target, const char *rel) {
        tree_ln(tmpl, target, rel);
}

/* Everything loader_load() gave, as text. */
static char *describe(int r, const Unit *u, const DiagList *d) {
        char *s = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&s, &n);

        if (!f)
                return NULL;
        fprintf(f, "r=%d\n", r);
        if (u) {
                fprintf(f, "id=%s requested=%s state=%s error=%d fragment=%s link=%s\n", u->id, unit_requested(u),
                        load_state_to_string(u->load_state), u->load_error, strna(u->fragment_path),
                        strna(u->fragment_link));
                STRV_FOREACH(x, u->names)
                        fprintf(f, "name %s\n", *x);
                for (size_t i = 0; i < u->n_sources; i++)
                        fprintf(f, "source %s dropin=%d masked=%d\n", u->sources[i].path, u->sources[i].dropin,
                                u->sources[i].masked);
                for (size_t i = 0; i < u->n_settings; i++)
                        fprintf(f, "[%s] %s=%s (%u:%u)\n", u->settings[i].section, u->settings[i].key,
                                u->settings[i].value, u->settings[i].source, u->settings[i].line);
                for (size_t i = 0; i < u->n_links; i++)
                        fprintf(f, "link %d %s %s masked=%d\n", u->links[i].kind, u->links[i].name,
                                u->links[i].path, u->links[i].masked);
        }
        for (size_t i = 0; i < d->n; i++)
                fprintf(f, "diag %d %s:%u %s\n", d->items[i].level, strna(d->items[i].file), d->items[i].line,
                        d->items[i].message);
        fclose(f);
        return s;
}

static const char *names[] = {
        "a.service", "b.service", "alias.service", "inst@x.service", "masked.service", "broken.service",
        "missing.service", "c.target", "b.service", "d.socket", "a.service", NULL,
};

static void wait_finished(Prefetch *p, size_t n) {
        for (unsigned i = 0; i < 30000 && prefetch_finished(p) < n; i++)
                (void) nanosleep(&(struct timespec) { .tv_nsec = 1000 * 1000 }, NULL);
}

/* The small tree, and its loader into *ret. */
static void make_tree(Root **ret_root, Loader **ret) {
        DiagList ld = {};

        if (!mkdtemp(tmpl))
                tap_bail("mkdtemp: %m");
        put("usr/lib/systemd/system/a.service", "[Unit]\nAfter=b.service\nWants=c.target\n[Service]\nExecStart=/x\n");
        put("usr/lib/systemd/system/b.service", "[Unit]\nDescription=b\n[Service]\nExecStart=/x\nBogus line\n");
        put("usr/lib/systemd/system/inst@.service", "[Unit]\nBefore=a.service\n[Service]\nExecStart=/x %i\n");
        put("usr/lib/systemd/system/broken.service", "[Unit\nAfter=a.service\n");
        put("usr/lib/systemd/system/c.target", "[Unit]\nDescription=c\n");
        put("usr/lib/systemd/system/d.socket", "[Socket]\nListenStream=/run/d\n");
        put("etc/systemd/system/a.service.d/10-x.conf", "[Unit]\nRequires=b.service\n");
        put("etc/systemd/system/masked.service", "");
        ln("a.service", "usr/lib/systemd/system/alias.service");
        ln("/usr/lib/systemd/system/b.service", "etc/systemd/system/c.target.wants/b.service");
        if (root_open(tmpl, ret_root) < 0)
                tap_bail("cannot open the tree %s", tmpl);
        if (loader_new(&(LoaderOptions) { .root = *ret_root, .features = test_features(252) }, ret, &ld) < 0)
                tap_bail("cannot make the tree's loader");
        diag_list_done(&ld);
}

/* Round 0: the worker has finished everything before the model asks; 1: the model asks at once, racing it; 2:
 * every other name is skipped; 3: the model asks in reverse order, after the worker is done; 4: in reverse order
 * at once, racing it (the worker loads in hint order, the model takes what it has). */
static void test_round(Loader *l, char **want, size_t n, unsigned round) {
        _cleanup_(prefetch_freep) Prefetch *p = NULL;
        PrefetchEntry *h[ELEMENTSOF(names)] = {};
        size_t same = 0, taken = 0;

        if (prefetch_start(l, NULL, &p) < 0) {
                tap_ok(false, "round %u: prefetch_start", round);
                return;
        }
        for (size_t i = 0; i < n; i++)
                h[i] = prefetch_hint(p, names[i]);
        if (round == 0 || round == 3)
                wait_finished(p, n);
        for (size_t k = 0; k < n; k++) {
                size_t i = round >= 3 ? n - 1 - k : k;
                _cleanup_(unit_freep) Unit *u = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                _cleanup_(freep) char *got = NULL;
                int r = 0, x;

                if (round == 2 && i % 2 == 1) {
                        prefetch_skip(p, h[i]);
                        same++;
                        continue;
                }
                x = prefetch_take(p, h[i], &u, &d, NULL, &r);
                if (x == 0)
                        r = loader_load(l, names[i], &u, &d);
                taken += x > 0;
                got = describe(r, u, &d);
                if (streq_ptr(got, want[i]))
                        same++;
                else
                        tap_diag("round %u, %s:\n%s\nwanted:\n%s", round, names[i], strna(got), strna(want[i]));
        }
        tap_ok(same == n, "round %u: every unit as loader_load() gives it (%zu of %zu, %zu from the worker)", round,
               same, n, taken);
        if (round == 0 || round == 3)
                tap_ok(taken == n, "round %u: all taken from the worker (%zu)", round, taken);
}

/* A NULL handle (hinting out of memory) is the model's own: take says so, skip does nothing. */
static void test_null_handle(Loader *l) {
        _cleanup_(prefetch_freep) Prefetch *p = NULL;
        Unit *u = NULL;
        int r = 0;

        TAP_INTEQ(prefetch_start(l, NULL, &p), 0, "a NULL handle: a prefetcher");
        if (!p)
                return;
        TAP_INTEQ(prefetch_take(p, NULL, &u, NULL, NULL, &r), 0, "a NULL handle: the model loads the unit itself");
        tap_ok(!u, "a NULL handle: no unit from the worker");
        prefetch_skip(p, NULL);
}

/* The model's prepare step: "prepared NAME" for each unit loaded, counted. */
static unsigned n_prepared, n_prepared_freed;

static void *prepare(const Unit *u, void *userdata) {
        char *s = NULL;
        __atomic_add_fetch(&n_prepared, 1, __ATOMIC_RELAXED);
        return asprintf_safe(&s, "%s %s", (const char *) userdata, u->id) < 0 ? NULL : s;
}

static void free_prepared(void *p) {
        __atomic_add_fetch(&n_prepared_freed, 1, __ATOMIC_RELAXED);
        free(p);
}

/* What prepare returns comes with the unit the worker loaded: to the caller who asks for it, freed for one who
 * does not, for a skipped handle and with the prefetcher (ASan and valgrind check for leaks); the units are those
 * loader_load() gives, prepared or not. A prepare step without its free is refused. */
static void test_prepare(Loader *l, char **want, size_t n) {
        _cleanup_(prefetch_freep) Prefetch *p = NULL;
        PrefetchEntry *h[ELEMENTSOF(names)] = {};
        static char what[] = "prepared";
        size_t same = 0, with = 0, worker = 0, handed = 0;
        const PrefetchPrepare prep = { .prepare = prepare, .free_prepared = free_prepared, .userdata = what };

        TAP_INTEQ(prefetch_start(l, &(PrefetchPrepare) { .prepare = prepare }, &p), -EINVAL,
                  "prepare: without free_prepared, refused");
        TAP_INTEQ(prefetch_start(l, &prep, &p), 0, "prepare: a prefetcher with a prepare step");
        if (!p)
                return;
        for (size_t i = 0; i < n; i++)
                h[i] = prefetch_hint(p, names[i]);
        wait_finished(p, n);
        for (size_t i = 0; i < n; i++) {
                _cleanup_(unit_freep) Unit *u = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                _cleanup_(freep) char *got = NULL, *prepared = NULL, *expect = NULL;
                int r = 0, x;

                if (i == n - 1) {
                        prefetch_skip(p, h[i]); /* its prepared value goes with it */
                        same++;
                        continue;
                }
                /* every third asks for no prepared value: it is freed */
                x = prefetch_take(p, h[i], &u, &d, i % 3 == 2 ? NULL : (void **) &prepared, &r);
                worker += x > 0;
                handed += !!prepared;
                if (x == 0)
                        r = loader_load(l, names[i], &u, &d);
                got = describe(r, u, &d);
                if (streq_ptr(got, want[i]))
                        same++;
                else
                        tap_diag("prepare, %s:\n%s\nwanted:\n%s", names[i], strna(got), strna(want[i]));
                if (i % 3 == 2 || x == 0 || r < 0 || !u) {
                        if (prepared)
                                tap_diag("prepare, %s: a prepared value nobody asked for: %s", names[i], prepared);
                        with += !prepared;
                        continue;
                }
                if (asprintf_safe(&expect, "prepared %s", u->id) < 0)
                        tap_bail("out of memory");
                if (streq_ptr(prepared, expect))
                        with++;
                else
                        tap_diag("prepare, %s: prepared %s, wanted %s", names[i], strna(prepared), expect);
        }
        tap_ok(same == n, "prepare: every unit as loader_load() gives it (%zu of %zu)", same, n);
        tap_ok(worker == n - 1, "prepare: all taken from the worker (%zu)", worker);
        tap_ok(with == n - 1, "prepare: each taken unit with its own prepared value, or none when not asked (%zu)",
               with);
        p = prefetch_free(p);
        tap_ok(n_prepared > 0 && n_prepared == handed + n_prepared_freed,
               "prepare: what was not handed out is freed (%u prepared, %zu handed out, %u freed by the prefetcher)",
               n_prepared, handed, n_prepared_freed);
}

/* loader_identify_ids() on one thread and on two (BOOTRACE_PREFETCH) gives, per name, the id loader_identify()
 * gives when the unit has a file and is not masked, else NULL. */
static void test_identify_ids(Loader *l, size_t n) {
        char *want[ELEMENTSOF(names)] = {};

        for (size_t i = 0; i < n; i++) {
                _cleanup_(unit_freep) Unit *u = NULL;
                if (loader_identify(l, names[i], &u, NULL) >= 0 && u->load_state != LOAD_MASKED && u->fragment_path)
                        want[i] = u->id;
                else
                        want[i] = NULL;
                if (want[i] && !(want[i] = strdup(want[i])))
                        tap_bail("out of memory");
        }
        tap_ok(want[2] && streq(want[2], "a.service"), "identify: an alias is known by its unit's id");
        tap_ok(!want[4] && !want[6], "identify: a mask and a missing unit have none");
        for (unsigned two = 0; two < 2; two++) {
                char **ids = NULL;
                size_t same = 0;

                setenv("BOOTRACE_PREFETCH", two ? "1" : "0", 1);
                tap_ok(loader_identify_ids(l, (char * const *) names, n, &ids) == 0, "identify on %u thread%s",
                       two + 1, two ? "s" : "");
                for (size_t i = 0; ids && i < n; i++) {
                        if (streq_ptr(ids[i], want[i]))
                                same++;
                        else
                                tap_diag("identify, %s: %s, wanted %s", names[i], strna(ids[i]), strna(want[i]));
                        free(ids[i]);
                }
                free(ids);
                tap_ok(same == n, "identify on %u thread%s: every name as loader_identify() tells it (%zu of %zu)",
                       two + 1, two ? "s" : "", same, n);
        }
        unsetenv("BOOTRACE_PREFETCH");
        for (size_t i = 0; i < n; i++)
                free(want[i]);
}

/* Hints never asked for are freed with the prefetcher (valgrind checks). */
static void test_left_work(Loader *l, size_t n) {
        _cleanup_(prefetch_freep) Prefetch *p = NULL;

        TAP_INTEQ(prefetch_start(l, NULL, &p), 0, "a prefetcher left with work");
        for (size_t i = 0; p && i < n; i++)
                prefetch_hint(p, names[i]);
}

int main(void) {
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(loader_freep) Loader *l = NULL;
        char *want[ELEMENTSOF(names)] = {};
        size_t n = ELEMENTSOF(names) - 1;
        char cmd[600];

        make_tree(&root, &l);
        for (size_t i = 0; i < n; i++) {
                _cleanup_(unit_freep) Unit *u = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                int r = loader_load(l, names[i], &u, &d);
                want[i] = describe(r, u, &d);
                if (!want[i])
                        tap_bail("cannot describe %s", names[i]);
        }
        TAP_CONTAINS(want[5], "diag ", "the tree has a unit with diagnostics (broken.service)");
        TAP_CONTAINS(want[1], "diag ", "and another (b.service)");
        for (unsigned round = 0; round < 5; round++)
                test_round(l, want, n, round);
        test_null_handle(l);
        test_left_work(l, n);
        test_prepare(l, want, n);
        test_identify_ids(l, n);
        for (size_t i = 0; i < n; i++)
                free(want[i]);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
        (void) system(cmd);
        return tap_done();
}
