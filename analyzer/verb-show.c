/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace show: a unit as systemd would load it — every assignment with its file:line and what became of it,
 * the files read in order, names and aliases, masking, and .wants/.requires/.upholds links. */

#include <sys/stat.h>

#include "basic/json.h"
#include "load/loader.h"
#include "load/unit-settings.h"
#include "load/unit-values.h"
#include "load/unit-verify.h"
#include "load/unit-words.h"
#include "load/version.h"
#include "model/model.h"
#include "report/graph-report.h"
#include "report/json-header.h"
#include "report/report.h"
#include "rules/rules.h"
#include "verb-live.h"
#include "verbs.h"

static const char show_help[] =
        "Usage: bootrace show [--root=DIR] [--systemd=N|--target=NAME] [--format=text|json] UNIT|PATH...\n\n"
        "Print units as systemd would load them: every setting with its value and file:line, what became of\n"
        "it (effective, overridden, reset, ignored), the files and drop-ins read in order, aliases, masking\n"
        "and .wants/.requires/.upholds links. A PATH (anything with a '/', or an existing file) is a unit\n"
        "file whose directory is searched first, as systemd-analyze verify does. Other units come from\n"
        "--root (--root=/ for this machine), or without it from the embedded model of the version judged\n"
        "for, as lint and graph read them; the first line says which. A template file is loaded as an\n"
        "instance as that version's verify does (NAME@i, from 257 NAME@test_instance), or --instance=NAME.\n\n"
        "Exit status: 0 all units loaded cleanly; 2 a unit could not be loaded, or systemd would warn\n"
        "about (and ignore) part of it; the diagnostics name file and line.\n";

static const char show_live_help[] =
        "       bootrace show --live [-H [USER@]HOST | -M NAME] [--format=text|json] UNIT...\n\n"
        "With --live, print what the running systemd holds for each unit instead: names, load and active\n"
        "state, fragment, drop-ins and every dependency list by type (implicit and default ones included).\n"
        "  --live                 ask PID 1 over the system bus\n"
        "  -H, --host=[USER@]HOST the system bus of HOST, over ssh\n"
        "  -M, --machine=NAME     the system bus of a local container\n";

static const struct option show_options[] = {
        LIVE_OPTIONS,
        {},
};

static int show_option(int c, const char *arg, void *userdata) {
        int r = live_args_handle(userdata, c, arg);
        return r > 0 ? -EINVAL : r;
}

/* Expanded values and words of each effective setting, computed once for every format so the diagnostics agree. */
typedef struct Values {
        char **expanded; /* [n_settings], NULL where equal to the raw value */
        char ***words;   /* [n_settings], NULL where the key has no words */
        size_t n;
} Values;

static void values_done(Values *v) {
        for (size_t i = 0; i < v->n; i++) {
                free(v->expanded[i]);
                strv_free(v->words[i]);
        }
        free(v->expanded);
        free(v->words);
        *v = (Values) {};
}

static int values_compute(const Unit *u, const SettingStatus *st, const Rules *rules, const FeatureSet *fs, Values *v,
                          DiagList *diags) {
        v->n = u->n_settings;
        v->expanded = calloc(v->n + 1, sizeof(char *));
        v->words = calloc(v->n + 1, sizeof(char **));
        if (!v->expanded || !v->words)
                return -ENOMEM;
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                const KeyInfo *k;
                int r;

                if (st[i] != SETTING_EFFECTIVE)
                        continue;
                k = rules_key_lookup(rules, u->type, s->section, s->key, fs->version);
                if (!k)
                        continue;
                if (k->type == VALUE_UNIT_LIST || k->type == VALUE_PATH_LIST ||
                    ((k->kind == KEY_LIST || k->kind == KEY_LISTEN) && k->type == VALUE_STRING)) {
                        r = setting_words(u, s, k, fs, &v->words[i], diags);
                        if (r == -ENOMEM)
                                return r;
                } else if (k->type != VALUE_EXEC) {
                        char *e = NULL;
                        r = setting_expand(u, s, fs, &e, diags);
                        if (r == -ENOMEM)
                                return r;
                        if (e && !streq(e, s->value))
                                v->expanded[i] = e;
                        else
                                free(e);
                }
        }
        return 0;
}

typedef struct ShowArg {
        char *name;
        char *dir; /* for PATH arguments: the absolute directory */
} ShowArg;

/* A setting from a file systemd refused is only there for the warnings about the lines before the refusing one:
 * systemd did not keep it, so show does not print it. */
static bool setting_shown(const Unit *u, size_t i) {
        return !u->sources[u->settings[i].source].refused;
}

/* The sections that have a shown setting, in the order systemd documents them: [Unit], the type's own, [Install],
 * then the rest as met. */
static int section_order(const Unit *u, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        const char *own = rules_type_section(u->type);
        const char *first[] = { "Unit", own, "Install" };

        /* pass k < 3 takes first[k] only (none when the type has no section of its own), the last pass the rest */
        for (size_t k = 0; k <= ELEMENTSOF(first); k++)
                for (size_t i = 0; i < u->n_settings; i++) {
                        const char *sec = u->settings[i].section;
                        if (k < ELEMENTSOF(first) && (!first[k] || !streq(sec, first[k])))
                                continue;
                        if (!setting_shown(u, i))
                                continue;
                        if (strv_extend_unique(&l, sec) < 0)
                                return -ENOMEM;
                }
        if (!l && !(l = calloc(1, sizeof(char *))))
                return -ENOMEM;
        *ret = TAKE_PTR(l);
        return 0;
}

/* The unit's dependencies in the model (written, linked, implicit, default), with their origins. */
static void print_text_deps(const Model *m, const Unit *u) {
        const ModelUnit *mu = m ? model_get(m, u->id) : NULL;
        Graph *g;
        EdgeSet e;

        if (!mu || !mu->loaded)
                return;
        g = model_graph(m);
        printf("\nDependencies:\n");
        e = graph_out(g, mu->node);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                _cleanup_(freep) char *t = origin_to_text(graph_origin(g, ed->origin));
                _cleanup_(freep) char *te = t ? escape_control(t) : NULL;
                int w = printf("%s=%s", dep_type_to_string(ed->type), graph_node_name(g, ed->to));
                printf("%*s  # %s\n", w < 40 ? 40 - w : 0, "", strna(te));
        }
        for (size_t i = 0; i < mu->n_mounts_for; i++) {
                _cleanup_(freep) char *t = origin_to_text(graph_origin(g, mu->mounts_for[i].origin));
                _cleanup_(freep) char *te = t ? escape_control(t) : NULL;
                int w = printf("%s=%s", mu->mounts_for[i].wants ? "WantsMountsFor" : "RequiresMountsFor",
                               mu->mounts_for[i].path);
                printf("%*s  # %s\n", w < 40 ? 40 - w : 0, "", strna(te));
        }
}

static void print_json_deps(JsonWriter *w, const Model *m, const Unit *u) {
        const ModelUnit *mu = m ? model_get(m, u->id) : NULL;
        Graph *g = m ? model_graph(m) : NULL;
        EdgeSet e = {};

        json_key(w, "dependencies");
        json_begin_array(w);
        if (mu && mu->loaded)
                e = graph_out(g, mu->node);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                json_begin_object(w);
                json_kv_string(w, "type", dep_type_to_string(ed->type));
                json_kv_string(w, "unit", graph_node_name(g, ed->to));
                json_key(w, "origin");
                origin_to_json(w, graph_origin(g, ed->origin));
                json_end_object(w);
        }
        for (size_t i = 0; mu && mu->loaded && i < mu->n_mounts_for; i++) {
                json_begin_object(w);
                json_kv_string(w, "type", mu->mounts_for[i].wants ? "WantsMountsFor" : "RequiresMountsFor");
                json_kv_string(w, "path", mu->mounts_for[i].path);
                json_key(w, "origin");
                origin_to_json(w, graph_origin(g, mu->mounts_for[i].origin));
                json_end_object(w);
        }
        json_end_array(w);
}

static void print_text(const Unit *u, const SettingStatus *st, const Values *v, bool first) {
        _cleanup_(strv_freep) char **sections = NULL, **src = calloc(u->n_sources + 1, sizeof(char *));
        /* file names come from the tree: a newline or an escape sequence in one must not forge output lines */
        _cleanup_(freep) char *frag = u->fragment_path ? escape_control(u->fragment_path) : NULL;

        if (!src)
                return;
        for (size_t i = 0; i < u->n_sources; i++)
                if (!(src[i] = escape_control(u->sources[i].path)))
                        return; /* OOM: src holds what was made so far */

        if (!first)
                putchar('\n');
        if (streq(u->id, unit_requested(u)))
                printf("# %s\n", u->id);
        else
                printf("# %s (requested as %s)\n", u->id, unit_requested(u));
        printf("LoadState: %s\n", load_state_to_string(u->load_state));
        if (strv_length(u->names) > 1) {
                printf("Names:");
                STRV_FOREACH(n, u->names)
                        printf(" %s", *n);
                putchar('\n');
        }
        if (u->fragment_path)
                printf("Fragment: %s%s\n", strna(frag),
                       u->load_state == LOAD_MASKED ? " (mask)" : u->linked ? " (linked)" : "");
        for (size_t i = 0; i < u->n_sources; i++)
                if (u->sources[i].included)
                        printf("Included: %s\n", strna(src[i]));
        for (size_t i = 0; i < u->n_sources; i++)
                if (u->sources[i].dropin)
                        printf("Drop-in: %s%s\n", strna(src[i]),
                               u->sources[i].masked ? " (masked: /dev/null or empty)" : "");
        for (size_t i = 0; i < u->n_links; i++) {
                _cleanup_(freep) char *lp = escape_control(u->links[i].path);
                printf("%s: %s (%s%s)\n", link_kind_to_string(u->links[i].kind), u->links[i].name, strna(lp),
                       u->links[i].masked ? ", masked by /dev/null" : "");
        }

        /* a refused file's settings are left out (setting_shown()), the good drop-ins' of an error unit are not */
        if (section_order(u, &sections) < 0)
                return;
        STRV_FOREACH(sec, sections) {
                printf("\n[%s]\n", *sec);
                for (size_t i = 0; i < u->n_settings; i++) {
                        const Setting *s = &u->settings[i];
                        if (!streq(s->section, *sec) || !setting_shown(u, i))
                                continue;
                        int w = printf("%s%s=%s", st[i] == SETTING_EFFECTIVE ? "" : "# ", s->key, s->value);
                        printf("%*s  # %s:%u", w < 40 ? 40 - w : 0, "", strna(src[s->source]), s->line);
                        if (v->expanded[i])
                                printf(" (expands to \"%s\")", v->expanded[i]);
                        else if (v->words[i]) {
                                /* say what the list becomes when that differs from what is written */
                                _cleanup_(strv_freep) char **plain = NULL;
                                bool same = words_split_plain(s->value, &plain) >= 0 &&
                                            strv_length(plain) == strv_length(v->words[i]);
                                for (size_t k = 0; same && plain[k]; k++)
                                        same = streq(plain[k], v->words[i][k]);
                                if (!same) {
                                        printf(" (");
                                        STRV_FOREACH(x, v->words[i])
                                                printf("%s\"%s\"", x == v->words[i] ? "" : " ", *x);
                                        printf(")");
                                }
                        }
                        if (st[i] != SETTING_EFFECTIVE)
                                printf(" (%s)", setting_status_to_string(st[i]));
                        putchar('\n');
                }
        }
}

static void print_json_unit(JsonWriter *w, const Unit *u, const SettingStatus *st, const Values *v,
                            const Model *m) {
        json_begin_object(w);
        json_kv_string(w, "id", u->id);
        json_kv_string(w, "requested", unit_requested(u));
        json_kv_string(w, "type", unit_type_to_string(u->type));
        json_kv_string(w, "load_state", load_state_to_string(u->load_state));
        json_kv_strv(w, "names", u->names);
        json_kv_string(w, "fragment", u->fragment_path);
        json_kv_string(w, "fragment_link", u->fragment_link);
        json_kv_bool(w, "linked", u->linked);
        json_kv_bool(w, "generated", u->generated);
        json_key(w, "sources");
        json_begin_array(w);
        for (size_t i = 0; i < u->n_sources; i++) {
                json_begin_object(w);
                json_kv_string(w, "path", u->sources[i].path);
                json_kv_bool(w, "dropin", u->sources[i].dropin);
                json_kv_bool(w, "masked", u->sources[i].masked);
                json_kv_bool(w, "included", u->sources[i].included);
                json_end_object(w);
        }
        json_end_array(w);
        json_key(w, "settings");
        json_begin_array(w);
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                if (!setting_shown(u, i))
                        continue;
                json_begin_object(w);
                json_kv_string(w, "section", s->section);
                json_kv_string(w, "key", s->key);
                json_kv_string(w, "value", s->value);
                json_kv_string(w, "file", u->sources[s->source].path);
                json_kv_uint(w, "line", s->line);
                json_kv_string(w, "status", setting_status_to_string(st[i]));
                if (v->expanded[i])
                        json_kv_string(w, "expanded", v->expanded[i]);
                if (v->words[i]) {
                        json_kv_strv(w, "words", v->words[i]);
                }
                json_end_object(w);
        }
        json_end_array(w);
        json_key(w, "links");
        json_begin_array(w);
        for (size_t i = 0; i < u->n_links; i++) {
                json_begin_object(w);
                json_kv_string(w, "kind", link_kind_to_string(u->links[i].kind));
                json_kv_string(w, "name", u->links[i].name);
                json_kv_string(w, "path", u->links[i].path);
                json_kv_string(w, "target", u->links[i].target);
                json_kv_bool(w, "masked", u->links[i].masked);
                json_end_object(w);
        }
        json_end_array(w);
        print_json_deps(w, m, u);
        json_end_object(w);
}

static void print_json_diags(JsonWriter *w, const DiagList *d) {
        json_key(w, "diagnostics");
        json_begin_array(w);
        for (size_t i = 0; i < d->n; i++) {
                json_begin_object(w);
                json_kv_string(w, "level", diag_level_to_string(d->items[i].level));
                json_kv_string(w, "file", d->items[i].file);
                if (d->items[i].line > 0)
                        json_kv_uint(w, "line", d->items[i].line);
                else {
                        json_key(w, "line");
                        json_null(w);
                }
                json_kv_string(w, "message", d->items[i].message);
                json_end_object(w);
        }
        json_end_array(w);
}

/* The UNIT and PATH arguments, as given. */
typedef struct ShowArgs {
        ShowArg *items;
        size_t n;
} ShowArgs;

static void show_args_done(ShowArgs *a) {
        for (size_t i = 0; i < a->n; i++) {
                free(a->items[i].name);
                free(a->items[i].dir);
        }
        a->items = mfree(a->items);
        a->n = 0;
}

/* A PATH argument: its directory (made absolute) is searched first; its file name is the unit name. */
static int parse_path_arg(const char *arg, const char *instance, ShowArg *ret) {
        struct stat st;
        int r;

        if (stat(arg, &st) < 0) {
                log_error_errno(errno, "%s", arg);
                return -errno;
        }
        if (S_ISDIR(st.st_mode)) {
                log_error("%s: is a directory; give a unit file or a unit name", arg);
                return -EISDIR;
        }
        r = unit_name_split_file_path(arg, &ret->dir, &ret->name);
        if (r == -EINVAL)
                log_error("%s: \"%s\" is not a valid unit file name (NAME.service, NAME.socket, ...)", arg,
                          path_basename(arg));
        if (r < 0)
                return r;
        /* a template file is shown as an instance, as systemd-analyze verify loads it */
        return unit_name_file_instance(&ret->name, instance);
}

/* The arguments into *ret, the PATHs' directories into extra. Returns 0, or a negative errno after printing an
 * error. */
static int collect_args(char **argv, int n, const char *instance, ShowArgs *ret, char ***extra) {
        ret->items = calloc(n + 1, sizeof(ShowArg));
        if (!ret->items)
                return log_oom();
        for (int i = 0; i < n; i++) {
                ShowArg *a = &ret->items[ret->n++];
                struct stat fst;
                int r;

                /* as lint reads them: a path, or a file of that name here, is a file */
                if (strchr(argv[i], '/') || (stat(argv[i], &fst) >= 0 && !S_ISDIR(fst.st_mode))) {
                        r = parse_path_arg(argv[i], instance, a);
                        if (r == -ENOMEM)
                                return log_oom();
                        if (r < 0)
                                return r;
                        if (strv_extend_unique(extra, a->dir) < 0)
                                return log_oom();
                } else if (!unit_name_is_valid(argv[i], UNIT_NAME_ANY)) {
                        log_error("\"%s\" is not a valid unit name (NAME.service, NAME@INSTANCE.service, ...)",
                                  argv[i]);
                        return -EINVAL;
                } else if (!(a->name = strdup(argv[i])))
                        return log_oom();
        }
        return 0;
}

/* The dependencies with their origins come from the model of this version; its diagnostics would repeat the
 * loader's, so they are not collected. NULL when it cannot be built: the units then show no dependencies. */
static Model *show_model(const Inputs *in, char **extra, const ShowArgs *args) {
        _cleanup_(model_freep) Model *model = NULL;
        int q = 0;

        if (model_new(&(ModelOptions) { .root = in->root, .extra_dirs = extra, .systemd = in->vc.version },
                      in->rules, &model, NULL) < 0)
                return NULL;
        /* a unit the model cannot load simply shows no dependencies */
        for (size_t i = 0; q != -ENOMEM && i < args->n; i++)
                q = model_add(model, args->items[i].name, NULL);
        if (q == -ENOMEM || model_finish(model) < 0)
                return NULL;
        return TAKE_PTR(model);
}

/* What comes before the units: the JSON report's members up to "units" (left open), or the text's comment lines.
 * Without --root, the embedded model the units not given come from is named. */
static void print_header(const Context *ctx, const Inputs *in, JsonWriter *w) {
        const BaseModel *bm = in->root ? NULL : rules_base_model(in->rules, in->vc.version);
        const char *embedded = bm ? path_basename(base_model_file(bm)) : NULL;

        if (ctx->format == FORMAT_JSON) {
                json_init(w, stdout, false);
                report_json_begin(w, NULL);
                json_kv_uint(w, "systemd", in->vc.version);
                json_kv_string(w, "systemd_from", version_source_to_string(in->vc.source));
                report_json_nearest_model(w, &in->vc);
                json_kv_string(w, "root", ctx->root);
                json_kv_string(w, "units_from", in->root ? "root" : "embedded-model");
                json_kv_string(w, "embedded_model", embedded);
                json_key(w, "units");
                json_begin_array(w);
                return;
        }
        if (in->nearest)
                printf("# note: %s\n", in->nearest);
        if (!in->root)
                printf("# units: the files given, then the embedded model of systemd %u (%s); --root=/ reads "
                       "this machine's\n",
                       in->vc.version, embedded ?: "none");
}

/* Prints the unit name as systemd would load it: from the files, or (not among the files given, without --root)
 * the embedded model's, as lint and graph see it. Returns 0, 1 when it cannot be loaded at all (said), or a
 * negative errno. */
static int show_one(const Context *ctx, const Inputs *in, Loader *loader, Model *model, const char *name,
                    bool first, JsonWriter *w, DiagList *diags, bool *bad) {
        _cleanup_(unit_freep) Unit *owned = NULL;
        _cleanup_(freep) SettingStatus *st = NULL;
        _cleanup_(values_done) Values vals = {};
        size_t before = diags->n;
        Unit *u;
        int r;

        r = loader_load(loader, name, &owned, diags);
        if (r < 0) {
                log_error_errno(r, "%s: cannot load", name);
                return 1;
        }
        u = owned;
        if (!in->root && u->load_state == LOAD_NOT_FOUND && !u->fragment_path && model) {
                ModelUnit *mu = model_get(model, name);
                if (mu && mu->base && mu->unit)
                        u = mu->unit;
        }
        if (u->load_state == LOAD_NOT_FOUND && !u->fragment_path)
                (void) diag_add(diags, DIAG_ERROR, NULL, 0, "%s: no unit file found %s%s", u->id,
                                in->root ? "in the search path under " : "among the files given or in the embedded model",
                                in->root ? ctx->root : "");
        r = unit_settings_classify(u, in->rules, in->vc.version, &st, diags);
        if (r >= 0)
                r = values_compute(u, st, in->rules, &in->features, &vals, diags);
        if (r >= 0) {
                r = unit_verify(u, st, &in->features, diags);
                if (r > 0)
                        u->load_state = (LoadState) r;
        }
        if (r < 0)
                return r == -ENOMEM ? log_oom() : r;
        if (u->load_state == LOAD_NOT_FOUND || u->load_state == LOAD_ERROR || u->load_state == LOAD_BAD_SETTING)
                *bad = true;
        for (size_t k = before; k < diags->n; k++)
                if (diags->items[k].level <= DIAG_WARNING)
                        *bad = true;
        if (ctx->format == FORMAT_JSON)
                print_json_unit(w, u, st, &vals, model);
        else {
                print_text(u, st, &vals, first);
                print_text_deps(model, u);
        }
        return 0;
}

int verb_show(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(inputs_done) Inputs in = {};
        _cleanup_(show_args_done) ShowArgs args = {};
        _cleanup_(strv_freep) char **extra = NULL;
        _cleanup_(loader_freep) Loader *loader = NULL;
        _cleanup_(model_freep) Model *model = NULL;
        _cleanup_(live_args_done) LiveArgs live = {};
        _cleanup_(freep) char *help = strjoin(show_help, "\n", show_live_help);
        JsonWriter w;
        bool bad = false;
        int r, optind_;

        if (!help)
                return log_oom(), EXIT_ERROR;
        r = cli_parse(argc, argv, ctx, show_options, LIVE_SHORT_OPTIONS, show_option, &live, help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (live_args_wanted(&live))
                return verb_show_live(&live, argv + optind_, argc - optind_, ctx);
        if (cli_check_format(ctx, "show", formats) < 0)
                return EXIT_ERROR;
        if (optind_ >= argc) {
                log_error("show: no unit given; see 'bootrace show --help'");
                return EXIT_ERROR;
        }
        if (cli_open_inputs(ctx, INPUTS_FEATURES, &in, &diags) < 0 ||
            collect_args(argv + optind_, argc - optind_, context_template_instance(ctx, &in.features), &args,
                         &extra) < 0)
                return EXIT_ERROR;
        r = loader_new(&(LoaderOptions) { .root = in.root, .extra_dirs = extra, .features = &in.features,
                                          .no_search_path = !in.root },
                       &loader, &diags);
        if (r < 0) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                return log_error_errno(r, "cannot read the unit search path"), EXIT_ERROR;
        }
        model = show_model(&in, extra, &args);
        print_header(ctx, &in, &w);
        for (size_t i = 0; i < args.n; i++) {
                r = show_one(ctx, &in, loader, model, args.items[i].name, i == 0, &w, &diags, &bad);
                if (r < 0)
                        return EXIT_ERROR;
                bad = bad || r > 0;
        }
        if (ctx->format == FORMAT_JSON) {
                json_end_array(&w);
                print_json_diags(&w, &diags);
                json_end_object(&w);
                json_finish(&w);
        }
        if (!ctx->quiet || bad)
                diag_list_print(&diags, stderr, ctx->quiet ? DIAG_WARNING : DIAG_NOTICE);
        fflush(stdout);
        return bad ? EXIT_ERROR : EXIT_CLEAN;
}
