/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/hashmap.h"
#include "features.h"
#include "load/search-path.h"
#include "tap.h"

static void test_hashmap(void) {
        Hashmap h;
        char keys[5000][32];
        bool ok = true;

        hashmap_init(&h);
        for (int i = 0; i < 5000; i++) {
                snprintf(keys[i], sizeof keys[i], "unit-%d.service", i);
                if (hashmap_put(&h, keys[i], keys[i]) != 0)
                        ok = false;
        }
        tap_ok(ok && hashmap_size(&h) == 5000, "5000 inserts");
        TAP_INTEQ(hashmap_put(&h, "unit-7.service", NULL), -EEXIST, "duplicate key refused");
        ok = true;
        for (int i = 0; i < 5000; i++)
                if (hashmap_get(&h, keys[i]) != keys[i])
                        ok = false;
        tap_ok(ok, "every key found");
        tap_ok(!hashmap_get(&h, "nope.service"), "missing key not found");
        TAP_STREQ(h.entries[0].key, "unit-0.service", "insertion order kept");
        hashmap_done(&h);
}

/* hashmap_prefetch() is a hint: keys given by length, found or not, an empty map, more keys than it takes; the
 * look-ups after it find what they found before. string_hash_n() is string_hash() of a prefix. */
static void test_prefetch(void) {
        Hashmap h, empty;
        char keys[100][32];
        HashmapKey k[HASHMAP_PREFETCH_MAX + 8];
        bool ok = true;

        tap_ok(string_hash_n("a.service b.service", 9) == string_hash("a.service"),
               "string_hash_n() of a word is string_hash() of it alone");
        tap_ok(string_hash_n("", 0) == string_hash(""), "string_hash_n() of nothing");
        hashmap_init(&h);
        hashmap_init(&empty);
        for (int i = 0; i < 100; i++) {
                snprintf(keys[i], sizeof keys[i], "unit-%d.service", i);
                if (hashmap_put(&h, keys[i], keys[i]) != 0)
                        ok = false;
        }
        tap_ok(ok, "100 inserts");
        for (size_t i = 0; i < ELEMENTSOF(k); i++)
                k[i] = i % 2 ? (HashmapKey) { keys[i], strlen(keys[i]) } : (HashmapKey) { "nope.service x", 12 };
        hashmap_prefetch(&h, k, ELEMENTSOF(k));
        hashmap_prefetch(&empty, k, ELEMENTSOF(k));
        hashmap_prefetch(&h, k, 0);
        ok = true;
        for (int i = 0; i < 100; i++)
                if (hashmap_get(&h, keys[i]) != keys[i])
                        ok = false;
        tap_ok(ok, "after prefetches every key is found");
        tap_ok(!hashmap_get(&h, "nope.service"), "and a missing one is not");
        tap_ok(!hashmap_get(&empty, "unit-1.service"), "the empty map stays empty");
        hashmap_done(&h);
        hashmap_done(&empty);
}

static void test_search_path(void) {
        _cleanup_(strv_freep) char **v229 = NULL, **v239 = NULL, **v252 = NULL, **env = NULL;

        unsetenv("SYSTEMD_UNIT_PATH");
        tap_ok(search_path_for(test_features(229), &v229) == 0, "search path 229");
        tap_ok(search_path_for(test_features(239), &v239) == 0, "search path 239");
        tap_ok(search_path_for(test_features(252), &v252) == 0, "search path 252");
        tap_ok(!strv_contains(v229, "/run/systemd/transient"), "229 has no transient dir");
        tap_ok(strv_contains(v239, "/run/systemd/transient"), "239 has the transient dir");
        tap_ok(!strv_contains(v239, "/etc/systemd/system.attached"), "239 has no attached dir");
        tap_ok(strv_contains(v252, "/etc/systemd/system.attached"), "252 has the attached dir");
        TAP_STREQ(v252[0], "/etc/systemd/system.control", "252 starts with the control dir");
        TAP_STREQ(v229[0], "/run/systemd/generator.early", "229 starts with generator.early");
        TAP_STREQ(v252[strv_length(v252) - 1], "/run/systemd/generator.late", "generator.late is last");
        setenv("SYSTEMD_UNIT_PATH", "/a:/b:", 1);
        tap_ok(search_path_for(test_features(252), &env) == 0 && streq(env[0], "/a") && streq(env[1], "/b") &&
                       strv_length(env) == strv_length(v252) + 2,
               "SYSTEMD_UNIT_PATH with trailing ':' prepends to the defaults");
        unsetenv("SYSTEMD_UNIT_PATH");
}

int main(void) {
        test_hashmap();
        test_prefetch();
        test_search_path();
        return tap_done();
}
