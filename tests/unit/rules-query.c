/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules-query: a helper for the lab tests (t6002, t6003), not a test itself. Reads the rules from
 * $BOOTRACE_RULES_DIR.
 *   rules-query known VERSION   stdin: "TYPE SECTION KEY [WHERE]" lines; prints "unknown ..." for each key the rules
 *                               do not know for that unit type and version; exit 1 if there was one
 *   rules-query dump VERSION    "Section.Key" for every key known (and not ignored) at VERSION, one per type section,
 *                               sorted: comparable with systemd's dump-configuration-items
 *   rules-query range LO HI     "Section Key since until" for keys whose since or until+1 lies in LO..HI
 *   rules-query words VERSION SET   stdin: one word per line; prints those of value-words.xml's SET known at VERSION
 *                               (t6023: the exit status names against systemd-analyze exit-status) */
#include "rules/rules.h"

static const char * const type_names[_UNIT_TYPE_MAX] = {
        "service", "socket", "target", "device", "mount", "automount", "swap", "timer", "path", "slice", "scope",
};

static int type_from_name(const char *s) {
        for (int i = 0; i < _UNIT_TYPE_MAX; i++)
                if (streq(type_names[i], s))
                        return i;
        return -EINVAL;
}

static const char *section_of(const KeyInfo *k, int t) {
        static const char * const sections[_UNIT_TYPE_MAX] = {
                "Service", "Socket", NULL, NULL, "Mount", "Automount", "Swap", "Timer", "Path", "Slice", "Scope",
        };
        if (streq(k->section, "Unit") || streq(k->section, "Install"))
                return k->section;
        return sections[t];
}

static int cmd_known(const Rules *rules, unsigned v) {
        char line[4096];
        int unknown = 0;

        while (fgets(line, sizeof line, stdin)) {
                char type[64], section[256], key[1024], where[2048] = "";
                int t;

                if (sscanf(line, "%63s %255s %1023s %2047[^\n]", type, section, key, where) < 3)
                        continue;
                t = type_from_name(type);
                if (t < 0) {
                        fprintf(stderr, "bad unit type %s\n", type);
                        return 2;
                }
                if (!rules_key_lookup(rules, (UnitType) t, section, key, v)) {
                        printf("unknown %s [%s] %s= %s\n", type, section, key, where);
                        unknown = 1;
                }
        }
        return unknown;
}

static int cmd_dump(const Rules *rules, unsigned v) {
        _cleanup_(strv_freep) char **out = NULL;

        for (size_t i = 0; i < rules_key_count(rules); i++) {
                const KeyInfo *k = rules_key_get(rules, i);

                if (v < k->since || (k->until && v > k->until) || (k->ignored_since && v >= k->ignored_since))
                        continue;
                for (int t = 0; t < _UNIT_TYPE_MAX; t++) {
                        _cleanup_(freep) char *s = NULL;
                        const char *sec = section_of(k, t);

                        if (!(k->unit_types & (1U << t)) || !sec)
                                continue;
                        s = strjoin(sec, ".", k->name);
                        if (!s || strv_extend_unique(&out, s) < 0)
                                return 2;
                }
        }
        strv_sort(out);
        STRV_FOREACH(s, out)
                printf("%s\n", *s);
        return 0;
}

static int cmd_range(const Rules *rules, unsigned lo, unsigned hi) {
        for (size_t i = 0; i < rules_key_count(rules); i++) {
                const KeyInfo *k = rules_key_get(rules, i);
                bool in = (k->since >= lo && k->since <= hi) || (k->until && k->until + 1 >= lo && k->until + 1 <= hi);

                if (!in)
                        continue;
                for (int t = 0; t < _UNIT_TYPE_MAX; t++) {
                        const char *sec = section_of(k, t);
                        if (!(k->unit_types & (1U << t)) || !sec)
                                continue;
                        printf("%s %s %s %u %u\n", type_names[t], sec, k->name, k->since, k->until);
                        if (streq(sec, "Unit") || streq(sec, "Install"))
                                break; /* once is enough */
                }
        }
        return 0;
}

static int cmd_words(const Rules *rules, unsigned v, const char *set) {
        char line[256];

        while (fgets(line, sizeof line, stdin)) {
                line[strcspn(line, "\n")] = 0;
                int r = rules_value_word_known(rules, set, line, v);
                if (r < 0) {
                        fprintf(stderr, "no word set %s: %s\n", set, strerror(-r));
                        return 2;
                }
                if (r > 0)
                        printf("%s\n", line);
        }
        return 0;
}

int main(int argc, char **argv) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        DiagList diags = {};
        unsigned a = 0, b = 0;
        int r;

        bool words = argc > 1 && streq(argv[1], "words");

        if (argc < 3 || safe_atou(argv[2], &a) < 0 || (argc > 3 && !words && safe_atou(argv[3], &b) < 0) ||
            (words && argc != 4)) {
                fprintf(stderr, "usage: rules-query known|dump VERSION | range LO HI | words VERSION SET\n");
                return 2;
        }
        r = rules_load(NULL, &rules, &diags);
        diag_list_print(&diags, stderr, DIAG_WARNING);
        diag_list_done(&diags);
        if (r < 0) {
                fprintf(stderr, "cannot load rules from %s: %s\n", rules_default_dir(), strerror(-r));
                return 2;
        }
        if (streq(argv[1], "known"))
                return cmd_known(rules, a);
        if (streq(argv[1], "dump"))
                return cmd_dump(rules, a);
        if (words)
                return cmd_words(rules, a, argv[3]);
        if (streq(argv[1], "range") && argc > 3)
                return cmd_range(rules, a, b);
        fprintf(stderr, "unknown command %s\n", argv[1]);
        return 2;
}
