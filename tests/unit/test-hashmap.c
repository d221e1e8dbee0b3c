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
        test_search_path();
        return tap_done();
}
