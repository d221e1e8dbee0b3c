/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace: option parsing, the verb table and the mapping to exit codes. Nothing else lives here. */

#include "config.h"
#include "basic/suggest.h"
#include "verbs.h"

static void help(void) {
        printf("Usage: bootrace [GLOBAL OPTIONS] VERB [OPTIONS] [ARGS...]\n\n"
               "Find systemd boot-ordering races before they ship, and measure them after.\n\nVerbs:\n");
        for (size_t i = 0; i < verb_table_size; i++)
                printf("  %-8s %s\n", verb_table[i].name, verb_table[i].summary);
        printf("\nGlobal options (before or after the verb; a value after '=' or as the next argument):\n"
               "  --root=DIR          read units (and journals) from this root directory\n"
               "  --target=NAME       judge for this release, e.g. ubuntu-xenial, debian-bookworm\n"
               "  --systemd=N         judge for this systemd version (overrides --target)\n"
               "  --format=FORMAT     text, json, sarif, junit, markdown or dot (per verb)\n"
               "  --fail-on=LEVEL     exit 1 for findings at or above error, warning or info\n"
               "  --no-color          no colour (also: NO_COLOR set, or stdout not a terminal)\n"
               "  --nearest-model     judge a version outside the modelled range with the nearest model\n"
               "  --instance=NAME     the instance show and graph load a template file as (default: verify's)\n"
               "  -q, --quiet         print less\n"
               "  -h, --help          this help; 'bootrace help VERB' or 'bootrace VERB --help' for a verb's\n"
               "                      options\n"
               "  -V, --version       print the version and the modelled range of systemd versions\n\n"
               "Exit status: 0 nothing at or above --fail-on, 1 findings or a failed verdict, 2 usage,\n"
               "input or environment error. See bootrace(1).\n");
}

/* The verb called name, or NULL after saying that there is none (and which one was probably meant). */
static const Verb *find_verb(const char *name) {
        _cleanup_(freep) const char **names = NULL;
        const char *close = NULL;

        for (size_t k = 0; k < verb_table_size; k++)
                if (streq(verb_table[k].name, name))
                        return &verb_table[k];
        names = calloc(verb_table_size + 2, sizeof(char *));
        for (size_t k = 0; names && k < verb_table_size; k++)
                names[k] = verb_table[k].name;
        if (names) {
                names[verb_table_size] = "help";
                close = suggest_closest(name, names, verb_table_size + 1);
        }
        if (close)
                log_error("unknown verb '%s'; did you mean '%s'? try 'bootrace --help'", name, close);
        else
                log_error("unknown verb '%s'; try 'bootrace --help'", name);
        return NULL;
}

int main(int argc, char *argv[]) {
        static const Verb complete = { "__complete", verb_complete, NULL, NULL };
        _cleanup_(freep) char **args = NULL;
        Context ctx;
        const Verb *verb = NULL;
        int i, n = 0, r;

        /* Global options may come before the verb: move them behind it so the verb parses them. */
        for (i = 1; i < argc && argv[i][0] == '-'; i++) {
                if (streq(argv[i], "--help") || streq(argv[i], "-h")) {
                        help();
                        return EXIT_CLEAN;
                }
                if (streq(argv[i], "--version") || streq(argv[i], "-V")) {
                        return cli_print_version() ? EXIT_CLEAN : EXIT_ERROR;
                }
                if (streq(argv[i], "--"))
                        break;
                /* "--target NAME lint": NAME is the option's value, not the verb */
                if (cli_global_option_takes_value(argv[i]) && i + 1 < argc)
                        i++;
        }
        if (i >= argc || argv[i][0] == '-') {
                log_error("no verb given; try 'bootrace --help'");
                return EXIT_ERROR;
        }
        if (streq(argv[i], "help")) {
                /* "bootrace help" is --help; "bootrace help VERB" is "bootrace VERB --help" */
                if (i + 1 >= argc) {
                        help();
                        return EXIT_CLEAN;
                }
                verb = find_verb(argv[i + 1]);
                if (!verb)
                        return EXIT_ERROR;
                context_init(&ctx);
                r = verb->run(2, (char *[]) { argv[i + 1], (char *) "--help", NULL }, &ctx);
                context_done(&ctx);
                cli_release_rules();
                return r < 0 ? EXIT_ERROR : r;
        }
        verb = streq(argv[i], complete.name) ? &complete : find_verb(argv[i]);
        if (!verb)
                return EXIT_ERROR;

        args = calloc(argc + 1, sizeof(char *));
        if (!args)
                return log_oom(), EXIT_ERROR;
        args[n++] = argv[i];
        for (int k = 1; k < i; k++)
                args[n++] = argv[k];
        for (int k = i + 1; k < argc; k++)
                args[n++] = argv[k];

        context_init(&ctx);
        r = verb->run(n, args, &ctx);
        context_done(&ctx);
        cli_release_rules();
        if (r < 0)
                return EXIT_ERROR;
        return r;
}
