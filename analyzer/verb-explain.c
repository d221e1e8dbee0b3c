/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace explain: what a check looks for, why it matters, and where to read more. */

#include "basic/json.h"
#include "rules/rules.h"
#include "verbs.h"

static const char explain_help[] =
        "Usage: bootrace explain [--format=text|json] [CHECK...]\n\n"
        "Without arguments, list every check with its default severity and title. With check ids, print each\n"
        "one's explanation and references (also in bootrace-checks(7)).\n";

static void print_check_json(JsonWriter *w, const CheckInfo *c) {
        json_begin_object(w);
        json_kv_string(w, "id", c->id);
        json_kv_string(w, "severity", severity_to_string(c->severity));
        json_kv_string(w, "title", c->title);
        json_kv_string(w, "explanation", c->explanation);
        json_key(w, "references");
        json_begin_array(w);
        for (size_t k = 0; c->references && c->references[k]; k++) {
                json_begin_object(w);
                json_kv_string(w, "text", c->references[k]);
                json_kv_string(w, "url", c->reference_urls ? c->reference_urls[k] : NULL);
                json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
}

int verb_explain(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        JsonWriter w;
        int r, first;

        r = cli_parse(argc, argv, ctx, NULL, NULL, NULL, NULL, explain_help, &first);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (cli_check_format(ctx, "explain", formats) < 0)
                return EXIT_ERROR;
        r = cli_load_rules(&rules, &diags);
        if (r < 0)
                return EXIT_ERROR;
        for (int i = first; i < argc; i++)
                if (!rules_check_lookup(rules, argv[i])) {
                        const char *close = rules_suggest_check(rules, argv[i]);
                        if (close)
                                log_error("unknown check \"%s\"; did you mean \"%s\"? 'bootrace explain' lists them",
                                          argv[i], close);
                        else
                                log_error("unknown check \"%s\"; 'bootrace explain' lists them", argv[i]);
                        return EXIT_ERROR;
                }

        if (ctx->format == FORMAT_JSON) {
                json_init(&w, stdout, false);
                json_begin_array(&w);
                if (first >= argc)
                        for (size_t i = 0; i < rules_check_count(rules); i++)
                                print_check_json(&w, rules_check_get(rules, i));
                for (int i = first; i < argc; i++)
                        print_check_json(&w, rules_check_lookup(rules, argv[i]));
                json_end_array(&w);
                json_finish(&w);
                return EXIT_CLEAN;
        }

        if (first >= argc) {
                for (size_t i = 0; i < rules_check_count(rules); i++) {
                        const CheckInfo *c = rules_check_get(rules, i);
                        printf("%-30s %-8s %s\n", c->id, severity_to_string(c->severity), c->title);
                }
                return EXIT_CLEAN;
        }
        for (int i = first; i < argc; i++) {
                const CheckInfo *c = rules_check_lookup(rules, argv[i]);
                if (i > first)
                        putchar('\n');
                printf("%s (%s): %s\n\n%s\n", c->id, severity_to_string(c->severity), c->title, c->explanation);
                if (c->references) {
                        printf("\nReferences:\n");
                        for (size_t k = 0; c->references[k]; k++)
                                printf("  %s%s%s\n", c->references[k], isempty(c->reference_urls[k]) ? "" : "\n    ",
                                       strempty(c->reference_urls[k]));
                }
        }
        return EXIT_CLEAN;
}
