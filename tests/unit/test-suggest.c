/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "Did you mean": the edit distance and the closest candidate, only when it is close and unique. */
#include "basic/suggest.h"
#include "tap.h"

static const char * const verbs[] = { "lint", "fix", "show", "graph", "stats", "chain", "probe", "drift", "explain" };

static void test_distance(void) {
        TAP_INTEQ((int) suggest_distance("lint", "lint"), 0, "the same word: 0");
        TAP_INTEQ((int) suggest_distance("lnit", "lint"), 1, "two neighbours swapped: 1");
        TAP_INTEQ((int) suggest_distance("targt", "target"), 1, "a letter missing: 1");
        TAP_INTEQ((int) suggest_distance("", "fix"), 3, "from nothing: the length");
        TAP_INTEQ((int) suggest_distance("kitten", "sitting"), 3, "kitten/sitting: 3");
}

static void test_closest(void) {
        TAP_STREQ(suggest_closest("lnit", verbs, ELEMENTSOF(verbs)), "lint", "lnit: lint");
        TAP_STREQ(suggest_closest("grpah", verbs, ELEMENTSOF(verbs)), "graph", "grpah: graph");
        TAP_STREQ(suggest_closest("explian", verbs, ELEMENTSOF(verbs)), "explain", "explian: explain");
        tap_ok(!suggest_closest("frobnicate", verbs, ELEMENTSOF(verbs)), "nothing close: no suggestion");
        tap_ok(!suggest_closest("lint", verbs, ELEMENTSOF(verbs)), "the word itself is not suggested");
        {
                static const char * const two[] = { "abcd", "abce" };
                tap_ok(!suggest_closest("abcx", two, ELEMENTSOF(two)), "two as close: no suggestion");
        }
        {
                static const char * const some[] = { NULL, "target", NULL };
                TAP_STREQ(suggest_closest("targt", some, ELEMENTSOF(some)), "target", "NULL entries skipped");
        }
}

int main(void) {
        test_distance();
        test_closest();
        return tap_done();
}
