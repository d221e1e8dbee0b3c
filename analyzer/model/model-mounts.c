/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mount table as PID 1 reads it (feature mountinfo-reference-stubs), and RequiresMountsFor=/WantsMountsFor=
 * paths expanded into the mount units of the path and its parents (implicit-deps.md §5). */
#include "model/model-internal.h"

/* ---- PID 1 reading the mount table (feature mountinfo-reference-stubs) */

enum {
        SIM_EXISTS = 1 << 0, /* PID 1 has the unit, as a stub at least */
        SIM_LOADED = 1 << 1, /* and has loaded it */
        SIM_SEEN = 1 << 2,   /* the mount table has named it */
        SIM_STUB = 1 << 3,   /* loaded as a reference before that: not-found */
};

typedef struct LoadSim {
        Model *m;
        uint8_t *state;  /* per graph node */
        uint32_t *work;  /* nodes to load in this dispatch */
        size_t n_work, allocated_work;
        uint32_t *queue; /* mount units of the table, loaded at the next dispatch */
        size_t n_queue, allocated_queue;
} LoadSim;

static int sim_push(LoadSim *s, uint32_t node) {
        if (s->state[node] & SIM_EXISTS)
                return 0;
        s->state[node] |= SIM_EXISTS;
        if (GREEDY_REALLOC(s->work, s->allocated_work, s->n_work + 1) < 0)
                return -ENOMEM;
        s->work[s->n_work++] = node;
        return 0;
}

static int sim_push_name(LoadSim *s, const char *name) {
        ModelUnit *mu = model_get(s->m, name);
        return mu ? sim_push(s, mu->node) : 0;
}

static bool sim_stub_candidate(const Model *m, const ModelUnit *mu) {
        return mu->unit->type == UNIT_MOUNT && !mu->unit->fragment_path &&
               !rules_unit_is_perpetual(m->rules, mu->unit->id, m->opts.systemd, NULL);
}

/* manager_dispatch_load_queue(): loads the queued table mounts and what was pushed, then everything they
 * reference, transitively. A mount without a unit file that the table has not named yet is not-found, and a
 * not-found unit references nothing. */
static int sim_dispatch(LoadSim *s) {
        Model *m = s->m;
        bool load_mounts_for = feature_enabled(&m->features, FEATURE_MOUNTS_FOR_LOAD);
        int r;

        for (size_t i = 0; i < s->n_queue; i++) {
                if (GREEDY_REALLOC(s->work, s->allocated_work, s->n_work + 1) < 0)
                        return -ENOMEM;
                s->work[s->n_work++] = s->queue[i];
        }
        s->n_queue = 0;
        while (s->n_work > 0) {
                uint32_t node = s->work[--s->n_work];
                ModelUnit *mu = model_unit_of_node(m, node);
                EdgeSet e;

                if (s->state[node] & SIM_LOADED)
                        continue;
                s->state[node] |= SIM_LOADED;
                if (!mu || !mu->loaded)
                        continue;
                if (sim_stub_candidate(m, mu) && !(s->state[node] & SIM_SEEN)) {
                        s->state[node] |= SIM_STUB;
                        continue;
                }
                e = graph_out(m->graph, node);
                for (size_t i = 0; i < e.n; i++) {
                        r = sim_push(s, graph_edge(m->graph, edge_set_get(&e, i))->to);
                        if (r < 0)
                                return r;
                }
                /* RequiresMountsFor= loads the mount unit of the path and of every parent */
                for (size_t i = 0; i < mu->n_mounts_for && load_mounts_for; i++) {
                        _cleanup_(strv_freep) char **names = NULL;
                        if (unit_name_mounts_of_path(mu->mounts_for[i].path, &names) < 0)
                                return -ENOMEM;
                        STRV_FOREACH(name, names) {
                                r = sim_push_name(s, *name);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}

/* PID 1 at start-up (manager_enumerate()): the perpetual units are queued, then the mount table is read line
 * by line. A line that names a new mount unit with default dependencies adds them by name at once (from
 * 250), and loading those targets loads everything they reference while the rest of the table is still unread: a
 * mount without a unit file referenced then is loaded not-found, and when its line comes PID 1 only adds the
 * table's dependencies (mount_setup_existing_unit()). Marks such units reference_stub. Not modelled: device
 * units (none in containers; on a host a device line may make PID 1 load a little earlier), mounts made after
 * start-up that something referenced before (stubs too, but the table does not say when a mount came), and a
 * later change of a parent mount (a remount of / gives a stub its After=-.mount after all). */
int model_find_reference_stubs(Model *m) {
        const MountTable *t = m->opts.mount_table;
        _cleanup_(freep) uint8_t *state = NULL;
        LoadSim s = { .m = m };
        int r = 0;

        if (!t || !feature_enabled(&m->features, FEATURE_MOUNTINFO_REFERENCE_STUBS))
                return 0;
        state = calloc(graph_node_count(m->graph) + 1, 1);
        if (!state)
                return -ENOMEM;
        s.state = state;
        for (size_t i = 0; i < m->n_units; i++)
                if (rules_unit_is_perpetual(m->rules, m->units[i]->unit->id, m->opts.systemd, NULL)) {
                        state[m->units[i]->node] |= SIM_EXISTS;
                        if (GREEDY_REALLOC(s.queue, s.allocated_queue, s.n_queue + 1) < 0)
                                goto oom;
                        s.queue[s.n_queue++] = m->units[i]->node;
                }
        for (size_t i = 0; i < t->n_entries; i++) {
                const MountEntry *e = &t->entries[i];
                _cleanup_(freep) char *name = NULL;
                static const char * const targets[] = {
                        "local-fs-pre.target", "local-fs.target", "umount.target",
                };
                ModelUnit *mu;
                uint32_t node;
                bool is_new;

                if (mount_entry_ignored(e, m->rules, m->opts.systemd) ||
                    unit_name_from_path(e->where, ".mount", &name) < 0)
                        continue;
                mu = model_get(m, name);
                if (!mu)
                        continue;
                node = mu->node;
                is_new = !(state[node] & SIM_EXISTS);
                if ((state[node] & SIM_STUB) && !(state[node] & SIM_SEEN))
                        mu->reference_stub = true;
                state[node] |= SIM_EXISTS | SIM_SEEN;
                /* no default dependencies by the mount point (fstab_is_extrinsic(); x-initrd.mount is not in
                 * the table): the extrinsic <mount-point>s of rules/dependencies.xml */
                if (!rules_mount_point(m->rules, "extrinsic", e->where, e->fstype, m->opts.systemd)) {
                        for (size_t k = 0; k < ELEMENTSOF(targets); k++) {
                                r = sim_push_name(&s, targets[k]);
                                if (r < 0)
                                        goto finish;
                        }
                        if (streq(e->fstype, "tmpfs")) {
                                r = sim_push_name(&s, "swap.target");
                                if (r < 0)
                                        goto finish;
                        }
                }
                if (s.n_work > 0) {
                        r = sim_dispatch(&s);
                        if (r < 0)
                                goto finish;
                }
                if (is_new) {
                        if (GREEDY_REALLOC(s.queue, s.allocated_queue, s.n_queue + 1) < 0)
                                goto oom;
                        s.queue[s.n_queue++] = node;
                }
        }
        r = 0;
        goto finish;
oom:
        r = -ENOMEM;
finish:
        free(s.work);
        free(s.queue);
        return r;
}

/* What a reference stub does not get: the edges of exec and slice rules. */
bool model_edge_of_stub(const GraphEdge *e, void *userdata) {
        Model *m = userdata;
        ModelUnit *mu = model_unit_of_node(m, e->from);
        const Origin *o;

        if (!mu || !mu->reference_stub)
                return false;
        o = graph_origin(m->graph, e->origin);
        return o && o->kind == ORIGIN_RULE && o->class &&
               (streq(o->class, "exec") || streq(o->class, "slice"));
}

/* The origin of the edges a mounts-for entry of mu makes: its path, and the strings of the origin the entry came
 * with (the graph's or the unit's). */
static int mounts_for_origin(Model *m, const ModelUnit *mu, const MountsFor *e, uint32_t *ret) {
        const Origin *eo = graph_origin(m->graph, e->origin);

        return graph_add_origin_borrowed(m->graph,
                                         &(Origin) {
                                                 .kind = ORIGIN_MOUNTS_FOR,
                                                 .sd = SD_ORIGIN_PATH,
                                                 .file = eo ? eo->file : NULL,
                                                 .line = eo ? eo->line : 0,
                                                 .rule = eo ? eo->rule : NULL,
                                                 .class = "path",
                                                 .detail = e->path,
                                                 .version = m->opts.systemd,
                                                 .base = mu->base,
                                         },
                                         ret);
}

int model_expand_mounts_for(Model *m, ModelUnit *mu) {
        int r;

        for (size_t i = 0; i < mu->n_mounts_for; i++) {
                const MountsFor *e = &mu->mounts_for[i];
                _cleanup_(strv_freep) char **names = NULL;
                uint32_t origin;

                if (unit_name_mounts_of_path(e->path, &names) < 0)
                        return -ENOMEM;
                r = mounts_for_origin(m, mu, e, &origin);
                if (r < 0)
                        return r;
                STRV_FOREACH(name, names) {
                        ModelUnit *mount = hashmap_get(&m->by_name, *name);

                        if (mount && mount->loaded && mount != mu) {
                                r = graph_add_edge(m->graph, mu->node, DEP_AFTER, mount->node, origin);
                                if (r >= 0 && mount->unit->fragment_path)
                                        r = graph_add_edge(m->graph, mu->node, e->wants ? DEP_WANTS : DEP_REQUIRES,
                                                           mount->node, origin);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}

/* A mount unit file refused by mount_verify() (Where= not its name, What= missing) was refused only after
 * mount_add_extras(): mount_add_mount_dependencies() had already given every unit loaded before it whose
 * RequiresMountsFor=/WantsMountsFor= path lies at or below its Where= an After= and a Requires=/Wants= on it
 * (origin path; src/core/mount.c@v247..v262 mount_load(), manager_get_units_requiring_mounts_for()). A unit loaded
 * after it gets none: unit_add_mount_dependencies() finds mount units by name and only loaded ones. "Before" is
 * the order the model loaded them in, which is PID 1's for the units named in one run. A refusal by a fatal setting
 * comes before the extras and leaves nothing. */
static bool refused_by_verify(const ModelUnit *mu) {
        if (mu->unit->type != UNIT_MOUNT || !mu->unit->fragment_path || !mu->st ||
            (mu->unit->load_state != LOAD_BAD_SETTING && mu->unit->load_state != LOAD_ERROR))
                return false;
        for (size_t i = 0; i < mu->unit->n_settings; i++)
                if (mu->st[i] == SETTING_FATAL)
                        return false;
        return true;
}

int model_refused_mount_dependencies(Model *m) {
        for (size_t j = 0; j < m->n_units; j++) {
                ModelUnit *mount = m->units[j];
                _cleanup_(freep) char *where_free = NULL, *where = NULL;
                const char *w;

                if (!refused_by_verify(mount))
                        continue;
                w = model_setting_value(m, mount, "Mount", "Where", &where_free);
                if (isempty(w) || strchr(w, '%') || !path_is_absolute(w))
                        continue;
                where = path_simplify_dup(w);
                if (!where)
                        return -ENOMEM;
                for (size_t i = 0; i < j; i++) {
                        ModelUnit *mu = m->units[i];

                        if (!mu->loaded || mu->reference_stub)
                                continue;
                        for (size_t k = 0; k < mu->n_mounts_for; k++) {
                                const MountsFor *e = &mu->mounts_for[k];
                                uint32_t origin;
                                int r;

                                if (!path_startswith_dir(e->path, where))
                                        continue;
                                r = mounts_for_origin(m, mu, e, &origin);
                                if (r >= 0)
                                        r = graph_add_edge(m->graph, mu->node, DEP_AFTER, mount->node, origin);
                                if (r >= 0)
                                        r = graph_add_edge(m->graph, mu->node, e->wants ? DEP_WANTS : DEP_REQUIRES,
                                                           mount->node, origin);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}
