/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fnmatch.h>

#include "load/prefetch.h"
#include "load/version.h"
#include "load/specifier.h"
#include "load/unit-file.h"
#include "load/unit-values.h"
#include "load/unit-verify.h"
#include "load/unit-words.h"
#include "model/model-internal.h"
#include "model/model.h"

/* Forgets the names the caller said it would add, when the worker goes: prefetch_free() frees their entries. */
static void drop_ahead(Model *m) {
        for (size_t i = 0; i < m->n_ahead; i++)
                free(m->ahead[i].name);
        m->n_ahead = 0;
}

/* The worker's handle for name if the caller named it ahead (taken out of the ring), else NULL. */
static PrefetchEntry *take_ahead(Model *m, const char *name) {
        for (size_t i = 0; i < m->n_ahead; i++)
                if (streq(m->ahead[i].name, name)) {
                        PrefetchEntry *h = m->ahead[i].hint;
                        free(m->ahead[i].name);
                        memmove(m->ahead + i, m->ahead + i + 1, sizeof(m->ahead[0]) * (m->n_ahead - i - 1));
                        m->n_ahead--;
                        return h;
                }
        return NULL;
}

/* The worker's handle for name, which the model is about to load: the one it got when the caller named it ahead,
 * else a new one (the worker loads it next). NULL without a worker. */
static PrefetchEntry *worker_handle(Model *m, const char *name) {
        PrefetchEntry *h;

        if (!m->prefetch)
                return NULL;
        h = take_ahead(m, name);
        return h ?: prefetch_hint(m->prefetch, name);
}

static void model_unit_free(ModelUnit *u) {
        if (!u)
                return;
        unit_free(u->unit);
        free(u->st);
        for (size_t i = 0; i < u->n_mounts_for; i++)
                free(u->mounts_for[i].path);
        free(u->mounts_for);
        free(u->profile_package);
        free(u->set_keys);
        free(u->set_values);
        free(u);
}

Model *model_free(Model *m) {
        if (!m)
                return NULL;
        for (size_t i = 0; i < m->n_units; i++)
                model_unit_free(m->units[i]);
        free(m->units);
        free(m->by_node);
        hashmap_done(&m->by_name);
        for (size_t i = m->head_queue; i < m->n_queue; i++)
                free(m->queue[i]);
        free(m->queue);
        free(m->queue_hints);
        drop_ahead(m);
        free(m->node_known);
        free(m->rule_origin);
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++)
                free(m->type_rules[t]);
        free(m->deferred);
        prefetch_free(m->prefetch); /* before the loader it reads */
        loader_free(m->loader);
        graph_free(m->graph);
        return mfree(m);
}

/* What keeps a released model reachable: written, never read (volatile, so the store stays). */
static Model *volatile released;

void model_release(Model *m) {
        if (m && m->n_units >= MODEL_RELEASE_MIN) {
                /* the worker is stopped all the same: nothing runs on after the caller is done */
                drop_ahead(m);
                m->prefetch = prefetch_free(m->prefetch);
                released = m;
                return;
        }
        model_free(m);
}

int model_new(const ModelOptions *opts, const Rules *rules, Model **ret, DiagList *diags) {
        _cleanup_(model_freep) Model *m = NULL;
        int r;

        if (opts->systemd > UINT16_MAX)
                return -EINVAL; /* not a systemd version (an Origin keeps it in 16 bits) */
        m = calloc(1, sizeof(Model));
        if (!m)
                return -ENOMEM;
        m->opts = *opts;
        m->rules = rules;
        r = rules_feature_set(rules, opts->systemd, &m->features);
        if (r < 0)
                return r;
        m->diags = diags;
        hashmap_init(&m->by_name);
        m->rule_origin = calloc(rules_dep_count(rules) + 1, sizeof(uint32_t));
        if (!m->rule_origin)
                return -ENOMEM;
        /* which rules a unit of each type may get, worked out once instead of for every unit */
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++) {
                m->type_rules[t] = calloc(rules_dep_count(rules) + 1, sizeof(uint32_t));
                if (!m->type_rules[t])
                        return -ENOMEM;
                for (size_t i = 0; i < rules_dep_count(rules); i++)
                        if (dep_rule_applies(rules_dep_get(rules, i), t, opts->systemd))
                                m->type_rules[t][m->n_type_rules[t]++] = (uint32_t) i;
        }
        r = graph_new(&m->graph);
        if (r < 0)
                return r;
        r = loader_new(&(LoaderOptions) {
                               .root = opts->root,
                               .extra_dirs = opts->extra_dirs,
                               .package_root = opts->package_root,
                               .package_dirs = opts->package_dirs,
                               .generator_dir = opts->generator_dir,
                               .features = &m->features,
                               .no_search_path = !opts->root,
                       },
                       &m->loader, diags);
        if (r < 0)
                return r;
        if (!opts->no_base) {
                r = rules_base_model_load(rules, opts->systemd, &m->base, diags);
                if (r < 0)
                        return r;
        }
        if (m->base)
                m->base_target = base_model_target(m->base, opts->target);
        /* a root with systemd installed has the units its release installs: one it lacks is not there (Debian
         * keeps tmp.mount out of the unit path before trixie, a container tree has no udev) */
        unsigned root_version;
        m->root_has_systemd = opts->root && systemd_version_of_root(opts->root, &root_version) >= 0;
        *ret = TAKE_PTR(m);
        return 0;
}

Graph *model_graph(const Model *m) {
        return m->graph;
}

unsigned model_version(const Model *m) {
        return m->opts.systemd;
}

const FeatureSet *model_features(const Model *m) {
        return &m->features;
}

const char *model_base_file(const Model *m) {
        return m->base ? base_model_file(m->base) : NULL;
}

ModelUnit *model_get(const Model *m, const char *name) {
        return hashmap_get(&m->by_name, name);
}

ModelUnit *model_unit_of_node(const Model *m, uint32_t node) {
        return node < m->n_by_node ? m->by_node[node] : NULL;
}

size_t model_unit_count(const Model *m) {
        return m->n_units;
}

ModelUnit *model_unit(const Model *m, size_t i) {
        return i < m->n_units ? m->units[i] : NULL;
}

int model_enqueue(Model *m, const char *name) {
        if (hashmap_get(&m->by_name, name))
                return 0;
        if (GREEDY_REALLOC(m->queue, m->allocated_queue, m->n_queue + 1) < 0 ||
            GREEDY_REALLOC(m->queue_hints, m->allocated_queue_hints, m->n_queue + 1) < 0)
                return -ENOMEM;
        m->queue[m->n_queue] = strdup(name);
        if (!m->queue[m->n_queue])
                return -ENOMEM;
        m->queue_hints[m->n_queue++] = worker_handle(m, name);
        return 0;
}

/* ---- loading */

#define IN_SET_LOAD(s) ((s) == LOAD_NOT_FOUND || (s) == LOAD_LOADED)

/* A unit of the base model as a Unit, with the root's drop-ins and links (from loaded, the root's not-found
 * unit) applied on top. */
static int base_unit_new(Model *m, const BaseUnit *bu, Unit *loaded, Unit **ret) {
        _cleanup_(unit_freep) Unit *u = NULL;
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        const BaseLink *links;
        size_t n_links;
        int r;

        r = unit_file_parse(bu->file, bu->text, bu->size, &(ParseOptions) { .features = &m->features }, &f,
                            NULL);
        if (r < 0)
                return r;
        u = calloc(1, sizeof(Unit));
        if (!u)
                return -ENOMEM;
        u->id = strdup(loaded->id);
        u->requested = loaded->requested ? strdup(loaded->requested) : NULL;
        u->fragment_path = strdup(path_basename(bu->file));
        u->names = strv_copy(loaded->names);
        u->sources = calloc(loaded->n_sources + 1, sizeof(Source));
        if (!u->id || (loaded->requested && !u->requested) || !u->fragment_path || !u->names || !u->sources)
                return -ENOMEM;
        u->type = loaded->type;
        u->load_state = LOAD_LOADED;
        u->sources[0] = (Source) { .path = strdup(path_basename(bu->file)), .pool = TAKE_PTR(f->pool) };
        u->n_sources = 1;
        if (!u->sources[0].path)
                return -ENOMEM;
        for (size_t i = 0; i < f->n_assignments; i++) {
                Assignment *a = &f->assignments[i];
                if (!a->section)
                        continue;
                if (GREEDY_REALLOC(u->settings, u->allocated_settings, u->n_settings + 1) < 0)
                        return -ENOMEM;
                u->settings[u->n_settings++] = (Setting) {
                        .section = a->section, .key = a->key, .value = a->value,
                        .source = 0, .line = bu->line + a->line - 1,
                };
        }
        /* the root's drop-ins still apply */
        for (size_t i = 0; i < loaded->n_sources; i++) {
                Source *s = &u->sources[u->n_sources++];
                *s = loaded->sources[i];
                if (s->shared) {
                        /* loaded's fragment_path goes with loaded */
                        s->path = strdup(s->path);
                        s->shared = false;
                        if (!s->path)
                                return -ENOMEM;
                }
                loaded->sources[i].path = loaded->sources[i].pool = NULL;
                loaded->sources[i].shared = false;
        }
        for (size_t i = 0; i < loaded->n_settings; i++) {
                if (GREEDY_REALLOC(u->settings, u->allocated_settings, u->n_settings + 1) < 0)
                        return -ENOMEM;
                u->settings[u->n_settings] = loaded->settings[i];
                u->settings[u->n_settings++].source += 1;
                loaded->settings[i] = (Setting) {};
        }
        u->links = TAKE_PTR(loaded->links);
        u->n_links = loaded->n_links;
        loaded->n_links = 0;
        /* systemd's static links, then what the release adds (a root has its own enablement), less the static
         * links it removes and those to units it leaves out; then the profile's */
        const BaseTarget *enabling = m->opts.root ? NULL : m->base_target;
        for (int from = 0; from < 3; from++) {
                const char *file = from == 2 ? (m->opts.profile ? profile_file(m->opts.profile) : NULL)
                                             : (m->base ? base_model_file(m->base) : NULL);
                n_links = from == 2 ? profile_links(m->opts.profile, bu->name, &links)
                          : from == 1 ? base_target_links(enabling, bu->name, &links)
                                      : base_model_links(m->base, bu->name, &links);
                if (n_links == 0)
                        continue;
                DirLink *nl = realloc(u->links, sizeof(DirLink) * (u->n_links + n_links));
                if (!nl)
                        return -ENOMEM;
                u->links = nl;
                for (size_t i = 0; i < n_links; i++) {
                        _cleanup_(freep) char *path = NULL;
                        if (from == 0 && (base_target_unlinks(enabling, &links[i], bu->name) ||
                                          base_target_omits(m->base_target, links[i].name)))
                                continue;
                        if (asprintf_safe(&path, "%s:%u", path_basename(file), links[i].line) < 0)
                                return -ENOMEM;
                        u->links[u->n_links++] = (DirLink) {
                                .kind = links[i].type == DEP_REQUIRES ? LINK_REQUIRES
                                        : links[i].type == DEP_UPHOLDS ? LINK_UPHOLDS
                                                                       : LINK_WANTS,
                                .name = strdup(links[i].name),
                                .path = TAKE_PTR(path),
                        };
                        if (!u->links[u->n_links - 1].name)
                                return -ENOMEM;
                }
        }
        *ret = TAKE_PTR(u);
        return 0;
}

bool model_mounted(const Model *m, const ModelUnit *mu) {
        _cleanup_(freep) char *where = NULL;

        if (!m->opts.mounted)
                return false;
        if (model_var_value(m, mu, "where", &where) < 0 || !where)
                return false;
        return strv_contains(m->opts.mounted, where);
}

static int register_unit(Model *m, ModelUnit *mu) {
        int r;

        if (GREEDY_REALLOC(m->units, m->allocated_units, m->n_units + 1) < 0)
                return -ENOMEM;
        m->units[m->n_units++] = mu;
        r = graph_node(m->graph, mu->unit->id, &mu->node);
        if (r < 0)
                return r;
        if (GREEDY_REALLOC(m->by_node, m->allocated_by_node, graph_node_count(m->graph)) < 0)
                return -ENOMEM;
        /* nodes made for names that were referenced but not (yet) loaded have no unit */
        for (; m->n_by_node < graph_node_count(m->graph); m->n_by_node++)
                m->by_node[m->n_by_node] = NULL;
        m->by_node[mu->node] = mu;
        r = hashmap_put(&m->by_name, mu->unit->id, mu);
        if (r < 0 && r != -EEXIST)
                return r;
        STRV_FOREACH(n, mu->unit->names) {
                if (streq(*n, mu->unit->id))
                        continue; /* put just above (the loader lists the id first) */
                r = hashmap_put(&m->by_name, *n, mu);
                if (r < 0 && r != -EEXIST)
                        return r;
        }
        return 0;
}

/* The unit's file is the base model's or the profile's: our data, whose warnings are no news to the user. */
static bool fragment_is_base(const Model *m, const Unit *u) {
        return u->fragment_path && m->base && streq(u->fragment_path, path_basename(base_model_file(m->base)));
}

static bool fragment_is_profile(const Model *m, const Unit *u) {
        return u->fragment_path && m->opts.profile &&
               streq(u->fragment_path, path_basename(profile_file(m->opts.profile)));
}

/* What the model works out of a unit's settings alone, before it is in the model: their status, and what
 * unit_verify() says. The worker makes it for the units it loads (model_prefetch()). */
typedef struct Classified {
        SettingStatus *st;
        int verify; /* unit_verify()'s result */
        DiagList diags; /* of both, in that order */
} Classified;

static void classified_free(void *p) {
        Classified *c = p;
        if (!c)
                return;
        free(c->st);
        diag_list_done(&c->diags);
        free(c);
}

static void classified_freep(Classified **c) {
        classified_free(*c);
}

static int classify(const Model *m, const Unit *u, SettingStatus **ret_st, DiagList *diags) {
        _cleanup_(freep) SettingStatus *st = NULL;
        int r;

        r = unit_settings_classify(u, m->rules, m->opts.systemd, &st, diags);
        if (r < 0)
                return r;
        r = unit_verify(u, st, &m->features, diags);
        if (r < 0)
                return r;
        *ret_st = TAKE_PTR(st);
        return r;
}

/* On the worker's thread: a unit with a file of the tree (the others may still be replaced by the base model's,
 * or are ours). Reads only what does not change once the model is made. */
static void *prepare_unit(const Unit *u, void *userdata) {
        const Model *m = userdata;
        Classified *c;

        if (!u->fragment_path || fragment_is_base(m, u) || fragment_is_profile(m, u))
                return NULL;
        c = calloc(1, sizeof(Classified));
        if (!c)
                return NULL;
        c->verify = classify(m, u, &c->st, &c->diags);
        if (c->verify < 0) {
                classified_free(c);
                return NULL; /* the model tries again, and says why */
        }
        return c;
}

/* Loads name, which the model does not have under that name, and adds it (or its unit's new names). hint is the
 * worker's handle for it, or NULL. */
static int load_absent(Model *m, const char *name, PrefetchEntry *hint, ModelUnit **ret) {
        _cleanup_(diag_list_done) DiagList scratch = {};
        _cleanup_(unit_freep) Unit *u = NULL;
        ModelUnit *mu, *existing;
        const char *dd;
        _cleanup_(freep) char *f = NULL;
        int r, lr = 0;

        /* the load's diagnostics, kept back until it is known whether the unit is loaded again under more names */
        _cleanup_(diag_list_done) DiagList loading = {};
        _cleanup_(classified_freep) Classified *classified = NULL;
        r = m->prefetch ? prefetch_take(m->prefetch, hint, &u, &loading, (void **) &classified, &lr) : 0;
        if (r < 0)
                return r;
        r = r > 0 ? lr : loader_load(m->loader, name, &u, &loading);
        if (r < 0)
                return r;
        /* no file in the tree (slices, mounts and devices count as loaded without one): the base model's, else
         * the profile's */
        if ((m->base || m->opts.profile) && !u->fragment_path && IN_SET_LOAD(u->load_state)) {
                const BaseModel *base = m->root_has_systemd ? NULL : m->base;
                const BaseTarget *release = base ? m->base_target : NULL;
                const char *alias = base_model_alias(base, name) ?: base_target_alias(release, name);
                const BaseUnit *bu = base_model_unit(base, alias ?: name);
                _cleanup_(freep) char *template = NULL;

                if (!bu && unit_name_is_valid(name, UNIT_NAME_INSTANCE) && unit_name_template(name, &template) >= 0)
                        bu = base_model_unit(base, template);
                /* a unit the release's build keeps out of the unit path is not there */
                if (bu && base_target_omits(m->base_target, bu->name))
                        bu = NULL;
                if (!bu && m->opts.profile) {
                        alias = profile_alias(m->opts.profile, name);
                        bu = profile_unit(m->opts.profile, alias ?: name);
                        if (!bu && template)
                                bu = profile_unit(m->opts.profile, template);
                }
                /* systemd reads the drop-ins and links of every name of a unit: the base model's names of it that
                 * the tree does not know as aliases count too (a package's multi-user.target.wants/ link when
                 * the unit is first loaded as runlevel3.target) */
                if (bu && !template) {
                        _cleanup_(strv_freep) char **names = NULL;
                        bool all = true;
                        r = base_model_names(base, release, bu->name, &names);
                        if (r < 0)
                                return r;
                        STRV_FOREACH(n, names)
                                all = all && strv_contains(u->names, *n);
                        if (!all) {
                                u = unit_free(u);
                                diag_list_done(&loading);
                                r = loader_load_also(m->loader, name, names, &u, &loading);
                                if (r < 0)
                                        return r;
                        }
                }
                if (bu) {
                        Unit *b = NULL;
                        if (alias) {
                                char *a = strdup(alias);
                                if (!a)
                                        return -ENOMEM;
                                unit_set_id(u, a);
                                if (strv_extend_unique(&u->names, alias) < 0)
                                        return -ENOMEM;
                        }
                        r = base_unit_new(m, bu, u, &b);
                        if (r < 0)
                                return r;
                        unit_free(u);
                        u = b;
                        classified_free(classified); /* (none is made for a unit without a file) */
                        classified = NULL;
                }
        }
        r = diag_list_move(m->diags, &loading);
        if (r < 0)
                return r;
        /* loaded through an alias of a unit we have already (under the name asked for, it was not there) */
        existing = streq(u->id, name) ? NULL : hashmap_get(&m->by_name, u->id);
        if (existing) {
                STRV_FOREACH(n, u->names)
                        if (!hashmap_get(&m->by_name, *n)) {
                                char *c = strdup(*n);
                                if (!c || strv_push(&existing->unit->names, c) < 0 ||
                                    hashmap_put(&m->by_name, c, existing) < 0)
                                        return -ENOMEM;
                        }
                *ret = existing;
                return 0;
        }

        mu = calloc(1, sizeof(ModelUnit));
        if (!mu)
                return -ENOMEM;
        mu->unit = TAKE_PTR(u);
        mu->base = fragment_is_base(m, mu->unit);
        if (fragment_is_profile(m, mu->unit)) {
                _cleanup_(freep) char *template = NULL;
                const BaseUnit *pu = profile_unit(m->opts.profile, mu->unit->id);
                if (!pu && unit_name_template(mu->unit->id, &template) >= 0)
                        pu = profile_unit(m->opts.profile, template);
                if (pu && asprintf_safe(&mu->profile_package, "%s %s", pu->package, pu->version) < 0)
                        mu->profile_package = NULL;
                if (pu && !mu->profile_package) {
                        model_unit_free(mu);
                        return -ENOMEM;
                }
        }
        r = register_unit(m, mu);
        if (r < 0) {
                if (m->n_units == 0 || m->units[m->n_units - 1] != mu)
                        model_unit_free(mu);
                return r;
        }
        /* the base model and the profiles are our data: what systemd would warn about in them is no news to the
         * user */
        bool ours = mu->base || mu->profile_package;
        if (classified && !ours) {
                /* the worker did it: the same statuses and diagnostics, in the same order */
                mu->st = TAKE_PTR(classified->st);
                r = diag_list_move(m->diags, &classified->diags);
                if (r < 0)
                        return r;
                r = classified->verify;
        } else
                r = classify(m, mu->unit, &mu->st, ours ? &scratch : m->diags);
        if (r < 0)
                return r;
        for (size_t i = 0; i < mu->unit->n_settings; i++)
                if (mu->st[i] == SETTING_EFFECTIVE)
                        mu->st_keys |= model_setting_key_bit(mu->unit->settings[i].key);
        if (r > 0)
                mu->unit->load_state = (LoadState) r;
        /* units of these types exist without a file only when the manager made them or the kernel has them */
        if (mu->unit->load_state == LOAD_LOADED && !mu->unit->fragment_path &&
            (mu->unit->type == UNIT_MOUNT || mu->unit->type == UNIT_SWAP || mu->unit->type == UNIT_SCOPE) &&
            !rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, NULL) && !model_mounted(m, mu))
                mu->unit->load_state = LOAD_NOT_FOUND;
        {
                bool no_dd = false;
                if (rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, &no_dd) && no_dd &&
                    model_set_value(mu, "DefaultDependencies", "no") < 0)
                        return -ENOMEM;
        }
        /* a template is no unit: systemd never loads one */
        mu->loaded = mu->unit->load_state == LOAD_LOADED && !unit_name_is_valid(mu->unit->id, UNIT_NAME_TEMPLATE);
        dd = model_setting_value(m, mu, "Unit", "DefaultDependencies", &f);
        mu->default_deps = !dd || parse_boolean(dd) != 0;
        if (mu->loaded) {
                r = model_add_file_edges(m, mu);
                if (r >= 0)
                        r = model_apply_rules(m, mu, &m->deferred, &m->n_deferred, &m->allocated_deferred);
                if (r < 0)
                        return r;
        }
        *ret = mu;
        return 0;
}

/* Loads the queued name, unless the model has it by now. */
static int load_one(Model *m, const char *name, PrefetchEntry *hint, ModelUnit **ret) {
        ModelUnit *existing = hashmap_get(&m->by_name, name);

        if (existing) {
                if (m->prefetch)
                        prefetch_skip(m->prefetch, hint);
                *ret = existing;
                return 0;
        }
        return load_absent(m, name, hint, ret);
}

/* The caller will model_add() name soon: the worker starts on it (the last MODEL_HINT_AHEAD names are kept). */
static void model_hint(Model *m, const char *name) {
        char *n;

        if (!m->prefetch || hashmap_get(&m->by_name, name) || !unit_name_is_valid(name, UNIT_NAME_ANY))
                return;
        for (size_t i = 0; i < m->n_ahead; i++)
                if (streq(m->ahead[i].name, name))
                        return;
        n = strdup(name);
        if (!n)
                return; /* loaded when added, all the same */
        if (m->n_ahead == MODEL_HINT_AHEAD) {
                /* the oldest was never added: the caller went another way */
                prefetch_skip(m->prefetch, m->ahead[0].hint);
                free(m->ahead[0].name);
                memmove(m->ahead, m->ahead + 1, sizeof(m->ahead[0]) * (MODEL_HINT_AHEAD - 1));
                m->n_ahead--;
        }
        m->ahead[m->n_ahead].name = n;
        m->ahead[m->n_ahead++].hint = prefetch_hint(m->prefetch, name);
}

void model_hint_names(Model *m, char * const *names, size_t n, size_t i, size_t *next) {
        for (; *next < n && *next < i + MODEL_HINT_AHEAD; (*next)++)
                model_hint(m, names[*next]);
}

int model_add(Model *m, const char *name, ModelUnit **ret) {
        ModelUnit *mu;
        int r;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        mu = hashmap_get(&m->by_name, name);
        if (mu) {
                /* had already: if the caller named it ahead, the worker need not load it */
                if (m->prefetch)
                        prefetch_skip(m->prefetch, take_ahead(m, name));
        } else {
                r = load_absent(m, name, worker_handle(m, name), &mu);
                if (r < 0)
                        return r;
        }
        mu->target = true;
        while (m->head_queue < m->n_queue) {
                PrefetchEntry *queued = m->queue_hints[m->head_queue];
                _cleanup_(freep) char *n = m->queue[m->head_queue++];
                ModelUnit *x;
                r = load_one(m, n, queued, &x);
                if (r == -EINVAL)
                        continue;
                if (r < 0)
                        return r;
        }
        m->n_queue = m->head_queue = 0;
        if (ret)
                *ret = mu;
        return 0;
}

/* ---- after everything is loaded */

/* Edges point at the node of the name they were written with; aliases are moved to the unit's main name. */
static int resolve_aliases(Model *m) {
        size_t n = graph_node_count(m->graph);
        _cleanup_(freep) uint32_t *map = malloc(sizeof(uint32_t) * (n + 1));
        bool any = false;

        if (!map)
                return -ENOMEM;
        for (uint32_t i = 0; i < n; i++)
                map[i] = i;
        /* the names that are not their unit's id, from the few aliases, rather than a look-up of every node's */
        HASHMAP_FOREACH_ENTRY(e, &m->by_name) {
                const ModelUnit *mu = e->value;
                uint32_t node;

                if (streq(e->key, mu->unit->id) || graph_find_node(m->graph, e->key, &node) < 0)
                        continue;
                map[node] = mu->node;
                any = any || node != mu->node;
        }
        if (!any)
                return 0;
        for (size_t i = 0; i < graph_edge_count(m->graph); i++) {
                GraphEdge *e = (GraphEdge *) graph_edge(m->graph, i);
                e->from = map[e->from];
                e->to = map[e->to];
        }
        return 0;
}

typedef struct NewEdge {
        uint32_t from, to, origin;
} NewEdge;

/* Collects the After= edges of one deferred <after-pulled>; they are added only after every deferred action has
 * looked at the graph, so that none of them sees another's edges (and the index stays valid meanwhile). */
static int run_after_pulled(Model *m, const Deferred *d, NewEdge **add, size_t *n_add, size_t *alloc_add) {
        EdgeSet e;
        uint32_t origin;
        int r;

        r = model_rule_origin(m, d->rule, &origin);
        if (r < 0)
                return r;
        e = graph_out(m->graph, d->mu->node);
        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(m->graph, edge_set_get(&e, i));
                ModelUnit *other;

                if (!(d->action->deps & DEP_MASK(ed->type)) || ed->to == d->mu->node)
                        continue;
                /* target_add_default_dependencies() runs in the type's load(), before unit_load() adds the
                 * RequiresMountsFor= dependencies (unit_add_mount_dependencies(), src/core/unit.c@v247..v262), and a
                 * mount unit loaded later adds its own to units loaded already: it never sees those */
                const Origin *o = graph_origin(m->graph, ed->origin);
                if (o && o->kind == ORIGIN_MOUNTS_FOR)
                        continue;
                other = model_unit_of_node(m, ed->to);
                if (!other || !other->loaded || !other->default_deps || !d->mu->default_deps)
                        continue;
                /* no loops: not when the target is already ordered before it */
                if (graph_has_edge(m->graph, d->mu->node, DEP_BEFORE, ed->to) ||
                    graph_has_edge(m->graph, ed->to, DEP_AFTER, d->mu->node))
                        continue;
                if (GREEDY_REALLOC(*add, *alloc_add, *n_add + 1) < 0)
                        return -ENOMEM;
                (*add)[(*n_add)++] = (NewEdge) { d->mu->node, ed->to, origin };
        }
        return 0;
}

int model_prefetch(Model *m, size_t n_names) {
        if (m->prefetch || !prefetch_wanted(n_names))
                return 0;
        return prefetch_start(m->loader,
                              &(PrefetchPrepare) { .prepare = prepare_unit,
                                                   .free_prepared = classified_free,
                                                   .userdata = m },
                              &m->prefetch);
}

int model_finish(Model *m) {
        int r;

        if (m->finished)
                return 0;
        /* every unit asked for is loaded: the worker is not needed any more */
        drop_ahead(m);
        m->prefetch = prefetch_free(m->prefetch);
        r = resolve_aliases(m);
        if (r < 0)
                return r;
        if (m->opts.mount_table) {
                bool any = false;
                r = graph_finish(m->graph);
                if (r >= 0)
                        r = model_find_reference_stubs(m);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < m->n_units; i++)
                        any = any || m->units[i]->reference_stub;
                if (any)
                        (void) graph_remove_edges(m->graph, model_edge_of_stub, m);
        }
        for (size_t i = 0; i < m->n_units; i++)
                /* a reference stub's own paths stay unexpanded: PID 1 never loads it again */
                if (m->units[i]->loaded && !m->units[i]->reference_stub) {
                        r = model_expand_mounts_for(m, m->units[i]);
                        if (r < 0)
                                return r;
                }
        r = model_refused_mount_dependencies(m);
        if (r < 0)
                return r;
        r = graph_finish(m->graph);
        if (r < 0)
                return r;
        {
                _cleanup_(freep) NewEdge *add = NULL;
                size_t n_add = 0, alloc_add = 0;
                for (size_t i = 0; i < m->n_deferred; i++) {
                        r = run_after_pulled(m, &m->deferred[i], &add, &n_add, &alloc_add);
                        if (r < 0)
                                return r;
                }
                for (size_t i = 0; i < n_add; i++) {
                        r = graph_add_edge(m->graph, add[i].from, DEP_AFTER, add[i].to, add[i].origin);
                        if (r < 0)
                                return r;
                }
        }
        r = graph_finish(m->graph);
        if (r < 0)
                return r;
        m->finished = true;
        return 0;
}

static int cmp_name(const void *a, const void *b) {
        return strcmp(*(const char * const *) a, *(const char * const *) b);
}

int model_list_names(const Model *m, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        int r;

        r = loader_list_names(m->loader, &l);
        if (r < 0)
                return r;
        {
                /* the base units the tree lacks (l is sorted: a binary search each) */
                size_t n = strv_length(l), nb = base_model_unit_count(m->base), k = n;
                char **nl = realloc(l, sizeof(char *) * (n + nb + 1));
                if (!nl)
                        return -ENOMEM;
                l = nl;
                for (size_t i = 0; m->base && i < nb; i++) {
                        const char *b = base_model_unit_get(m->base, i)->name;
                        if (n > 0 && bsearch(&b, l, n, sizeof(char *), cmp_name))
                                continue;
                        if (!(l[k++] = strdup(b))) {
                                l[k - 1] = NULL;
                                return -ENOMEM;
                        }
                }
                l[k] = NULL;
        }
        strv_sort(l);
        *ret = TAKE_PTR(l);
        return 0;
}
