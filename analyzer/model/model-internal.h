/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The model's own parts, shared by its files: model.c (lifecycle and loading), model-rules.c (the dependency
 * rules of rules/dependencies.xml applied to a unit) and model-mounts.c (PID 1 reading the mount table, and the
 * mounts-for paths expanded into mount units). Nothing outside model/ includes this. */

#include "load/prefetch.h"
#include "model/model.h"

typedef struct Deferred {
        struct ModelUnit *mu;
        size_t rule;
        const DepAction *action;
} Deferred;

struct Model {
        ModelOptions opts;
        const Rules *rules;
        FeatureSet features;   /* the version facts of opts.systemd, evaluated once */
        const BaseModel *base;
        const BaseTarget *base_target; /* the release's changes to it (opts.target), or NULL */
        bool root_has_systemd; /* opts.root has systemd installed: its units, not the base model's, are there */
        Loader *loader;
        Prefetch *prefetch;    /* units being loaded ahead on a second thread (model_prefetch()), or NULL */
        Graph *graph;
        DiagList *diags;
        Hashmap by_name;       /* every name of every unit -> ModelUnit */
        ModelUnit **units;
        size_t n_units, allocated_units;
        ModelUnit **by_node;   /* node -> unit (NULL: referenced only) */
        size_t n_by_node, allocated_by_node;
        char **queue;          /* names to load */
        PrefetchEntry **queue_hints; /* the worker's handle for each (NULL: none) */
        size_t n_queue, head_queue, allocated_queue, allocated_queue_hints;
        /* names the caller will add next (model_hint()), hinted to the worker already: a ring, oldest first */
        struct {
                char *name;
                PrefetchEntry *hint;
        } ahead[MODEL_HINT_AHEAD];
        size_t n_ahead;
        uint8_t *node_known;   /* per node: its name was loaded or queued already (no lookup by name needed) */
        size_t n_node_known;
        uint32_t *rule_origin; /* per dependency rule: its graph origin + 1 (0: none yet) */
        uint32_t *type_rules[_UNIT_TYPE_MAX]; /* per unit type: the dependency rules for it in this version */
        size_t n_type_rules[_UNIT_TYPE_MAX];
        Deferred *deferred;    /* actions that need every unit loaded */
        size_t n_deferred, allocated_deferred;
        bool finished;
};

/* model.c */
int model_enqueue(Model *m, const char *name);
bool model_mounted(const Model *m, const ModelUnit *mu);

/* model-rules.c: values a rule can ask for, conditions, templates, edges, actions */
uint64_t model_setting_key_bit(const char *key);
const char *model_setting_value(const Model *m, const ModelUnit *mu, const char *section, const char *key,
                                char **ret_free);
int model_var_value(const Model *m, const ModelUnit *mu, const char *name, char **ret);
int model_rule_origin(Model *m, size_t i, uint32_t *ret);
int model_add_file_edges(Model *m, ModelUnit *mu);
int model_set_value(ModelUnit *mu, const char *key, const char *value);
int model_apply_rules(Model *m, ModelUnit *mu, Deferred **deferred, size_t *n_def, size_t *alloc_def);

/* model-mounts.c */
int model_find_reference_stubs(Model *m);
bool model_edge_of_stub(const GraphEdge *e, void *userdata);
int model_expand_mounts_for(Model *m, ModelUnit *mu);
int model_refused_mount_dependencies(Model *m);
