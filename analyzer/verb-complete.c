/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace __complete WHAT: the hidden helper of the shell completion (shell-completion/bash/bootrace). It
 * prints one candidate per line, taken from where the program itself takes them, so the completion never goes
 * stale: verbs from the verb table, options from the getopt table the verb parses with, targets, profiles and
 * check ids from the rules, unit names from the search path under --root. Not in --help; its output is for
 * scripts. */

#include "load/search-path.h"
#include "load/version.h"
#include "rules/rules.h"
#include "verbs.h"

static const char complete_help[] =
        "Usage: bootrace __complete WHAT [ARG] [--root=DIR] [--systemd=N|--target=NAME]\n\n"
        "The shell completion's helper; prints one candidate per line. WHAT is one of:\n"
        "  verbs              the verbs\n"
        "  options [VERB]     the long and short options of VERB (the global ones without VERB);\n"
        "                     \"=\" marks an option that takes an argument\n"
        "  arguments VERB     what VERB's arguments are, from the placeholders of its synopsis:\n"
        "                     unit, check or path\n"
        "  targets            the target names (rules/targets.xml)\n"
        "  versions           the systemd versions of the targets\n"
        "  checks             the check ids (rules/checks.xml)\n"
        "  profiles           the profiles of --target (rules/profile-TARGET.xml; without --target, those of\n"
        "                     every target), minimal first\n"
        "  formats            the output formats\n"
        "  severities         the levels of --fail-on\n"
        "  units              the unit names in the unit search path under --root\n";

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < verb_table_size; i++)
                if (streq(verb_table[i].name, name))
                        return &verb_table[i];
        return NULL;
}

static int complete_options(const char *name) {
        Context sub;
        int r;

        context_init(&sub);
        sub.list_options = true;
        if (name) {
                const Verb *v = verb_find(name);
                char *args[] = { (char *) name, (char *) "--help", NULL };

                if (!v)
                        return -ENOENT;
                /* cli_parse() prints the list instead of parsing. "--help" keeps a verb that does not use
                 * cli_parse() from running for real (t0200 checks that every verb answers with a list). */
                r = v->run(2, args, &sub) == EXIT_CLEAN ? 0 : -EINVAL;
        } else {
                char *args[] = { (char *) "bootrace", NULL };
                int optind_;

                r = cli_parse(1, args, &sub, NULL, NULL, NULL, NULL, "", &optind_);
                if (r >= 0)
                        printf("--version\n");
        }
        context_done(&sub);
        return r < 0 ? r : 0;
}

/* Whether a synopsis word is an argument placeholder, and of what: "UNIT", "UNIT..." -> unit; "CHECK" ->
 * check; any other upper-case word (PATH, FILE, DIR, PACKAGE.deb) but OPTIONS -> path. */
static const char *placeholder_kind(const char *w, size_t n) {
        if (n == 0 || !(w[0] >= 'A' && w[0] <= 'Z') || (n >= 6 && strncmp(w, "OPTION", 6) == 0))
                return NULL;
        if (n >= 4 && strncmp(w, "UNIT", 4) == 0)
                return "unit";
        if (n >= 5 && strncmp(w, "CHECK", 5) == 0)
                return "check";
        return "path";
}

static int complete_arguments(const char *name) {
        const Verb *v = verb_find(name);
        _cleanup_(strv_freep) char **kinds = NULL;
        const char *p;

        if (!v)
                return -ENOENT;
        p = v->synopsis ? v->synopsis : "";
        if (startswith(p, v->name))
                p += strlen(v->name);
        while (*p) {
                size_t n;

                if (*p == '[' && p[1] == '-') {
                        /* an option group, "[--unit=UNIT...]" or "[-D DIR|--file=FILE...]": skip it */
                        unsigned depth = 0;
                        do {
                                if (*p == '[')
                                        depth++;
                                else if (*p == ']')
                                        depth--;
                                p++;
                        } while (*p && depth > 0);
                        continue;
                }
                n = strcspn(p, " \t[]|");
                if (n == 0) {
                        p++;
                        continue;
                }
                if (p[0] != '-') {
                        const char *k = placeholder_kind(p, n);
                        if (k && strv_extend_unique(&kinds, k) < 0)
                                return -ENOMEM;
                }
                p += n;
        }
        STRV_FOREACH(k, kinds)
                printf("%s\n", *k);
        return 0;
}

typedef enum RulesRequest {
        REQUEST_TARGETS,
        REQUEST_VERSIONS,
        REQUEST_CHECKS,
        REQUEST_PROFILES,
} RulesRequest;

/* Target names, their systemd versions (sorted, once each) or check ids, from the rules as the program loads
 * them: what is offered is exactly what it accepts. */
static int complete_rules(RulesRequest what, const char *target) {
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **names = NULL;
        _cleanup_(freep) unsigned *v = NULL;
        size_t n = 0;
        int r;

        r = rules_load(NULL, &rules, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_ERROR);
                return r;
        }
        if (what == REQUEST_CHECKS) {
                for (size_t i = 0; i < rules_check_count(rules); i++)
                        printf("%s\n", rules_check_get(rules, i)->id);
                return 0;
        }
        names = rules_target_names(rules);
        if (!names)
                return -ENOMEM;
        if (what == REQUEST_TARGETS) {
                STRV_FOREACH(t, names)
                        printf("%s\n", *t);
                return 0;
        }
        if (what == REQUEST_PROFILES) {
                _cleanup_(strv_freep) char **all = NULL;
                const char *canonical = NULL;

                if (target && rules_target_version(rules, target, NULL, &canonical) < 0)
                        return 0; /* an unknown --target has no profiles to offer */
                STRV_FOREACH(t, names) {
                        _cleanup_(strv_freep) char **p = NULL;
                        if (canonical && !streq(*t, canonical))
                                continue;
                        p = rules_profile_names(rules, *t);
                        if (!p)
                                return -ENOMEM;
                        STRV_FOREACH(x, p)
                                if (!strv_contains(all, *x) && strv_extend(&all, *x) < 0)
                                        return -ENOMEM;
                }
                STRV_FOREACH(x, all)
                        printf("%s\n", *x);
                return 0;
        }
        v = calloc(strv_length(names) + 1, sizeof(unsigned));
        if (!v)
                return -ENOMEM;
        STRV_FOREACH(t, names) {
                unsigned x;
                size_t i;

                if (rules_target_version(rules, *t, &x, NULL) < 0)
                        continue;
                for (i = 0; i < n && v[i] < x; i++)
                        ;
                if (i < n && v[i] == x)
                        continue;
                memmove(v + i + 1, v + i, (n - i) * sizeof(unsigned));
                v[i] = x;
                n++;
        }
        for (size_t i = 0; i < n; i++)
                printf("%u\n", v[i]);
        return 0;
}

static int complete_units(const Context *ctx) {
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(strv_freep) char **dirs = NULL, **units = NULL;
        Context c = *ctx;
        VersionChoice vc;
        FeatureSet fs;
        int r;

        r = root_open(ctx->root ? ctx->root : "/", &root);
        if (r < 0)
                return r;
        /* completion offers what it can: a version outside the modelled range is read as the nearest one */
        c.nearest_model = true;
        r = context_resolve_version(&c, root, &vc);
        if (r < 0)
                return r;
        r = cli_feature_set(&rules, vc.version, &fs);
        if (r < 0)
                return r;
        r = search_path_for(&fs, &dirs);
        if (r < 0)
                return r;
        STRV_FOREACH(d, dirs) {
                _cleanup_(strv_freep) char **names = NULL;

                if (root_list_dir(root, *d, &names) < 0)
                        continue; /* missing or unreadable: systemd skips it too */
                STRV_FOREACH(n, names)
                        if (unit_name_is_valid(*n, UNIT_NAME_ANY) && strv_extend(&units, *n) < 0)
                                return -ENOMEM;
        }
        strv_sort(units);
        STRV_FOREACH(u, units)
                if (u == units || !streq(*u, u[-1]))
                        printf("%s\n", *u);
        return 0;
}

int verb_complete(int argc, char *argv[], Context *ctx) {
        const char *what, *arg;
        int r, first;

        r = cli_parse(argc, argv, ctx, NULL, NULL, NULL, NULL, complete_help, &first);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (first >= argc || argc - first > 2) {
                log_error("__complete: expected WHAT [ARG] (see 'bootrace __complete --help')");
                return EXIT_ERROR;
        }
        what = argv[first];
        arg = first + 1 < argc ? argv[first + 1] : NULL;

        if (streq(what, "verbs")) {
                for (size_t i = 0; i < verb_table_size; i++)
                        printf("%s\n", verb_table[i].name);
                r = 0;
        } else if (streq(what, "options"))
                r = complete_options(arg);
        else if (streq(what, "arguments") && arg)
                r = complete_arguments(arg);
        else if (streq(what, "targets"))
                r = complete_rules(REQUEST_TARGETS, NULL);
        else if (streq(what, "versions"))
                r = complete_rules(REQUEST_VERSIONS, NULL);
        else if (streq(what, "checks"))
                r = complete_rules(REQUEST_CHECKS, NULL);
        else if (streq(what, "profiles"))
                r = complete_rules(REQUEST_PROFILES, ctx->target);
        else if (streq(what, "formats")) {
                for (OutputFormat f = 0; f < _FORMAT_MAX; f++)
                        printf("%s\n", output_format_to_string(f));
                r = 0;
        } else if (streq(what, "severities")) {
                for (Severity s = 0; s < _SEVERITY_MAX; s++)
                        printf("%s\n", severity_to_string(s));
                r = 0;
        } else if (streq(what, "units"))
                r = complete_units(ctx);
        else {
                log_error("__complete: unknown request '%s'%s", what,
                          streq(what, "arguments") ? " (needs a verb)" : "");
                return EXIT_ERROR;
        }
        if (r < 0)
                return EXIT_ERROR; /* quietly: the completion discards stderr (a prompt is no place for it) */
        return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_ERROR;
}
