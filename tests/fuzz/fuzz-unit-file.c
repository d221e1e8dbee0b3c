/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes the line parser at several systemd versions, and runs every value it yields through the word splitters,
 * the Exec*= parser, specifier expansion and the unit-name functions. */

#include "basic/unit-name.h"
#include "fuzz-util.h"
#include "fuzz.h"
#include "load/specifier.h"
#include "load/unit-file.h"
#include "load/unit-words.h"

static void fuzz_value(const char *key, const char *value, unsigned v) {
        static const char * const units[] = { "foo-bar@baz\\x2dq.service", "-.mount", "a-b-c.socket" };
        _cleanup_(strv_freep) char **plain = NULL, **quoted = NULL, **unescaped = NULL;
        ExecCommand *cmds = NULL;
        size_t n = 0;
        const char *error = NULL;

        (void) words_split_plain(value, &plain);
        (void) words_split_quoted(value, false, &quoted);
        (void) words_split_quoted(value, true, &unescaped);
        if (exec_command_parse(value, fuzz_features(v), &cmds, &n, &error) >= 0)
                exec_command_list_free(cmds, n);

        for (size_t i = 0; i < ELEMENTSOF(units); i++) {
                SpecifierContext c = { .unit_name = units[i], .features = fuzz_features(v), .hostname = i == 0 ? "h.example" : NULL };
                const char *unknown = NULL;
                char *s = NULL;

                if (specifier_expand(value, &c, SPECIFIER_USE_VALUE, &s, &unknown) >= 0)
                        free(s);
                s = NULL;
                if (specifier_expand(value, &c, SPECIFIER_USE_UNIT_NAME, &s, &unknown) >= 0)
                        free(s);
        }

        STRV_FOREACH(w, plain) {
                char *s = NULL;
                (void) unit_name_is_valid(*w, UNIT_NAME_ANY);
                (void) unit_name_to_type(*w);
                if (unit_name_escape(*w, &s) >= 0) {
                        char *back = NULL;
                        if (unit_name_unescape(s, &back) >= 0)
                                free(back);
                        free(s);
                }
                s = NULL;
                if (unit_name_path_escape(*w, &s) >= 0) {
                        char *back = NULL;
                        if (unit_name_path_unescape(s, &back) >= 0)
                                free(back);
                        free(s);
                }
                s = NULL;
                if (unit_name_path_unescape(*w, &s) >= 0)
                        free(s);
                if (unit_name_is_valid(*w, UNIT_NAME_ANY)) {
                        char **l = NULL;
                        if (unit_name_dropin_names(*w, feature_enabled(fuzz_features(v), FEATURE_DROPIN_PREFIX_DIRS), &l) >= 0)
                                strv_free(l);
                        l = NULL;
                        if (unit_name_dash_prefixes(*w, &l) >= 0)
                                strv_free(l);
                        s = NULL;
                        if (unit_name_replace_instance(*w, "x", &s) >= 0)
                                free(s);
                }
        }
        (void) key;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const unsigned versions[] = { 229, 239, 240, 242, 257 };
        static const char * const sections[] = { "Unit", "Service", "Install", "-Socket", NULL };

        if (size > 256 * 1024)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(versions); i++) {
                _cleanup_(unit_file_freep) UnitFile *f = NULL;
                ParseOptions o = { .features = fuzz_features(versions[i]), .sections = i == 2 ? sections : NULL };
                DiagList d = {};

                if (unit_file_parse("fuzz.service", (const char *) data, size, &o, &f, &d) >= 0)
                        for (size_t k = 0; k < f->n_assignments; k++)
                                fuzz_value(f->assignments[k].key, f->assignments[k].value, versions[i]);
                diag_list_done(&d);
        }
        return 0;
}
