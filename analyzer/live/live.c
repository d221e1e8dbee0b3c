/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "live/bus-util.h"
#include "live/live.h"

static const char * const live_dep_table[_LIVE_DEP_MAX] = {
        [LIVE_DEP_REQUIRES] = "Requires",
        [LIVE_DEP_REQUISITE] = "Requisite",
        [LIVE_DEP_WANTS] = "Wants",
        [LIVE_DEP_BINDS_TO] = "BindsTo",
        [LIVE_DEP_PART_OF] = "PartOf",
        [LIVE_DEP_UPHOLDS] = "Upholds",
        [LIVE_DEP_CONFLICTS] = "Conflicts",
        [LIVE_DEP_BEFORE] = "Before",
        [LIVE_DEP_AFTER] = "After",
        [LIVE_DEP_ON_SUCCESS] = "OnSuccess",
        [LIVE_DEP_ON_FAILURE] = "OnFailure",
        [LIVE_DEP_TRIGGERS] = "Triggers",
        [LIVE_DEP_PROPAGATES_RELOAD_TO] = "PropagatesReloadTo",
        [LIVE_DEP_RELOAD_PROPAGATED_FROM] = "ReloadPropagatedFrom",
        [LIVE_DEP_PROPAGATES_STOP_TO] = "PropagatesStopTo",
        [LIVE_DEP_STOP_PROPAGATED_FROM] = "StopPropagatedFrom",
        [LIVE_DEP_JOINS_NAMESPACE_OF] = "JoinsNamespaceOf",
        [LIVE_DEP_REQUIRED_BY] = "RequiredBy",
        [LIVE_DEP_REQUISITE_OF] = "RequisiteOf",
        [LIVE_DEP_WANTED_BY] = "WantedBy",
        [LIVE_DEP_BOUND_BY] = "BoundBy",
        [LIVE_DEP_CONSISTS_OF] = "ConsistsOf",
        [LIVE_DEP_UPHELD_BY] = "UpheldBy",
        [LIVE_DEP_CONFLICTED_BY] = "ConflictedBy",
        [LIVE_DEP_ON_SUCCESS_OF] = "OnSuccessOf",
        [LIVE_DEP_ON_FAILURE_OF] = "OnFailureOf",
        [LIVE_DEP_TRIGGERED_BY] = "TriggeredBy",
        [LIVE_DEP_REQUIRES_MOUNTS_FOR] = "RequiresMountsFor",
        [LIVE_DEP_WANTS_MOUNTS_FOR] = "WantsMountsFor",
};

const char *live_dep_to_string(LiveDep d) {
        return d >= 0 && d < _LIVE_DEP_MAX ? live_dep_table[d] : NULL;
}

LiveDep live_dep_from_string(const char *s) {
        return (LiveDep) string_table_lookup(live_dep_table, _LIVE_DEP_MAX, s);
}

bool live_dep_is_graph_edge(LiveDep d) {
        return d >= 0 && d <= LIVE_DEP_JOINS_NAMESPACE_OF && d != LIVE_DEP_BEFORE &&
               d != LIVE_DEP_RELOAD_PROPAGATED_FROM && d != LIVE_DEP_STOP_PROPAGATED_FROM;
}

bool live_dep_is_path_list(LiveDep d) {
        return d == LIVE_DEP_REQUIRES_MOUNTS_FOR || d == LIVE_DEP_WANTS_MOUNTS_FOR;
}

LiveUnit *live_unit_free(LiveUnit *u) {
        if (!u)
                return NULL;
        free(u->id);
        free(u->object_path);
        free(u->description);
        strv_free(u->names);
        free(u->load_state);
        free(u->active_state);
        free(u->sub_state);
        free(u->load_error);
        free(u->load_error_msg);
        free(u->fragment_path);
        free(u->source_path);
        strv_free(u->drop_in_paths);
        free(u->following);
        for (size_t i = 0; i < _LIVE_DEP_MAX; i++)
                strv_free(u->deps[i]);
        free(u->invocation_id);
        return mfree(u);
}

static void live_unit_freep(LiveUnit **u) {
        live_unit_free(*u);
}

LiveSystem *live_system_free(LiveSystem *s) {
        if (!s)
                return NULL;
        for (size_t i = 0; i < s->n_units; i++)
                live_unit_free(s->units[i]);
        free(s->units);
        hashmap_done(&s->by_name);
        strv_free(s->requested);
        free(s->manager.version);
        free(s->manager.virtualization);
        free(s->manager.system_state);
        return mfree(s);
}

LiveUnit *live_system_find(const LiveSystem *s, const char *name) {
        return hashmap_get(&s->by_name, name);
}

static uint64_t options_deadline(const LiveOptions *o) {
        return o && o->deadline ? o->deadline : deadline_after(30 * USEC_PER_SEC);
}

/* ---- parsing GetAll replies */

static int read_string_variant(sd_bus_message *m, char **ret) {
        const char *s;
        char *c;
        int r = sd_bus_message_read(m, "v", "s", &s);
        if (r < 0)
                return r;
        c = strdup(s);
        if (!c)
                return -ENOMEM;
        free(*ret);
        *ret = c;
        return 0;
}

static int read_bool_variant(sd_bus_message *m, bool *ret) {
        int b, r = sd_bus_message_read(m, "v", "b", &b);
        if (r < 0)
                return r;
        *ret = b;
        return 0;
}

static int read_u64_variant(sd_bus_message *m, uint64_t *ret) {
        return sd_bus_message_read(m, "v", "t", ret);
}

static int read_invocation_id(sd_bus_message *m, char **ret) {
        const void *p;
        size_t n;
        char *h;
        int r;

        r = sd_bus_message_enter_container(m, 'v', "ay");
        if (r < 0)
                return r;
        r = sd_bus_message_read_array(m, 'y', &p, &n);
        if (r < 0)
                return r;
        r = sd_bus_message_exit_container(m);
        if (r < 0)
                return r;
        if (n != 16) /* empty: no invocation yet */
                return 0;
        h = malloc(33);
        if (!h)
                return -ENOMEM;
        for (size_t i = 0; i < 16; i++)
                snprintf(h + 2 * i, 3, "%02x", ((const uint8_t *) p)[i]);
        free(*ret);
        *ret = h;
        return 0;
}

int live_unit_from_getall(sd_bus_message *reply, const char *object_path, LiveUnit **ret) {
        _cleanup_(live_unit_freep) LiveUnit *u = calloc(1, sizeof(LiveUnit));
        int r;

        if (!u)
                return -ENOMEM;
        if (object_path && !(u->object_path = strdup(object_path)))
                return -ENOMEM;
        r = sd_bus_message_enter_container(reply, 'a', "{sv}");
        if (r < 0)
                return r;
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                const char *name, *contents;
                char type;
                LiveDep d;

                r = sd_bus_message_read(reply, "s", &name);
                if (r < 0)
                        return r;
                r = sd_bus_message_peek_type(reply, &type, &contents);
                if (r < 0)
                        return r;
                if (type != 'v')
                        return -EBADMSG;

                if (streq(contents, "as") && (d = live_dep_from_string(name)) >= 0) {
                        strv_free(u->deps[d]);
                        u->deps[d] = NULL;
                        r = bus_read_strv_variant(reply, &u->deps[d]);
                        u->has_deps |= UINT64_C(1) << d;
                } else if (streq(contents, "as") && streq(name, "Names")) {
                        strv_free(u->names);
                        u->names = NULL;
                        r = bus_read_strv_variant(reply, &u->names);
                } else if (streq(contents, "as") && streq(name, "DropInPaths")) {
                        strv_free(u->drop_in_paths);
                        u->drop_in_paths = NULL;
                        r = bus_read_strv_variant(reply, &u->drop_in_paths);
                } else if (streq(contents, "s") && streq(name, "Id"))
                        r = read_string_variant(reply, &u->id);
                else if (streq(contents, "s") && streq(name, "Description"))
                        r = read_string_variant(reply, &u->description);
                else if (streq(contents, "s") && streq(name, "LoadState"))
                        r = read_string_variant(reply, &u->load_state);
                else if (streq(contents, "s") && streq(name, "ActiveState"))
                        r = read_string_variant(reply, &u->active_state);
                else if (streq(contents, "s") && streq(name, "SubState"))
                        r = read_string_variant(reply, &u->sub_state);
                else if (streq(contents, "s") && streq(name, "FragmentPath"))
                        r = read_string_variant(reply, &u->fragment_path);
                else if (streq(contents, "s") && streq(name, "SourcePath"))
                        r = read_string_variant(reply, &u->source_path);
                else if (streq(contents, "s") && streq(name, "Following"))
                        r = read_string_variant(reply, &u->following);
                else if (streq(contents, "b") && streq(name, "Transient"))
                        r = read_bool_variant(reply, &u->transient);
                else if (streq(contents, "b") && streq(name, "DefaultDependencies"))
                        r = read_bool_variant(reply, &u->default_dependencies);
                else if (streq(contents, "t") && streq(name, "InactiveExitTimestampMonotonic"))
                        r = read_u64_variant(reply, &u->times.inactive_exit);
                else if (streq(contents, "t") && streq(name, "ActiveEnterTimestampMonotonic"))
                        r = read_u64_variant(reply, &u->times.active_enter);
                else if (streq(contents, "t") && streq(name, "ActiveExitTimestampMonotonic"))
                        r = read_u64_variant(reply, &u->times.active_exit);
                else if (streq(contents, "t") && streq(name, "InactiveEnterTimestampMonotonic"))
                        r = read_u64_variant(reply, &u->times.inactive_enter);
                else if (streq(contents, "(uo)") && streq(name, "Job")) {
                        const char *jp;
                        r = sd_bus_message_read(reply, "v", "(uo)", &u->job_id, &jp);
                } else if (streq(contents, "ay") && streq(name, "InvocationID"))
                        r = read_invocation_id(reply, &u->invocation_id);
                else if (streq(contents, "(ss)") && streq(name, "LoadError")) {
                        const char *en, *em;
                        r = sd_bus_message_read(reply, "v", "(ss)", &en, &em);
                        if (r >= 0 && !isempty(en)) {
                                free(u->load_error);
                                free(u->load_error_msg);
                                u->load_error = strdup(en);
                                u->load_error_msg = strdup(em);
                                if (!u->load_error || !u->load_error_msg)
                                        return -ENOMEM;
                        }
                } else
                        r = sd_bus_message_skip(reply, "v");
                if (r < 0)
                        return r;
                r = sd_bus_message_exit_container(reply);
                if (r < 0)
                        return r;
        }
        if (r < 0)
                return r;
        r = sd_bus_message_exit_container(reply);
        if (r < 0)
                return r;
        if (!u->id)
                return -EBADMSG;
        if (!u->names && strv_extend(&u->names, u->id) < 0)
                return -ENOMEM;
        *ret = TAKE_PTR(u);
        return 0;
}

/* ---- the system */

static int live_system_add(LiveSystem *s, LiveUnit *u) {
        LiveUnit **a = realloc(s->units, (s->n_units + 1) * sizeof(LiveUnit *));
        int r;

        if (!a) {
                live_unit_free(u);
                return -ENOMEM;
        }
        s->units = a;
        s->units[s->n_units++] = u;
        r = hashmap_put(&s->by_name, u->id, u);
        if (r < 0 && r != -EEXIST)
                return r;
        STRV_FOREACH(n, u->names) {
                r = hashmap_put(&s->by_name, *n, u);
                if (r < 0 && r != -EEXIST)
                        return r;
        }
        return 0;
}

static unsigned parse_major(const char *v) {
        unsigned n = 0;
        for (const char *p = v; p && *p >= '0' && *p <= '9' && n < 100000; p++)
                n = n * 10 + (unsigned) (*p - '0');
        return n;
}

int live_load_manager(sd_bus *bus, const LiveOptions *o, LiveSystem **ret, sd_bus_error *error) {
        _cleanup_(live_system_freep) LiveSystem *s = calloc(1, sizeof(LiveSystem));
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL, *reply = NULL;
        uint64_t deadline = options_deadline(o), t0 = now_usec();
        LiveManager *mg;
        int r;

        if (!s)
                return -ENOMEM;
        hashmap_init(&s->by_name);
        mg = &s->manager;
        r = bus_new_manager_call(bus, SD_PATH, "org.freedesktop.DBus.Properties", "GetAll", &m);
        if (r < 0)
                return r;
        r = sd_bus_message_append(m, "s", SD_IFACE_MANAGER);
        if (r < 0)
                return r;
        s->stats.calls++;
        s->stats.batches++;
        r = sd_bus_call(bus, m, MAX(deadline_remaining(deadline), (uint64_t) 1), error, &reply);
        if (r < 0)
                return r;
        r = sd_bus_message_enter_container(reply, 'a', "{sv}");
        if (r < 0)
                return r;
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                const char *name, *contents;
                char type;

                r = sd_bus_message_read(reply, "s", &name);
                if (r < 0)
                        return r;
                r = sd_bus_message_peek_type(reply, &type, &contents);
                if (r < 0)
                        return r;
                if (streq(contents, "s") && streq(name, "Version"))
                        r = read_string_variant(reply, &mg->version);
                else if (streq(contents, "s") && streq(name, "Virtualization"))
                        r = read_string_variant(reply, &mg->virtualization);
                else if (streq(contents, "s") && streq(name, "SystemState"))
                        r = read_string_variant(reply, &mg->system_state);
                else if (streq(contents, "t") && streq(name, "UserspaceTimestampMonotonic"))
                        r = read_u64_variant(reply, &mg->userspace_usec);
                else if (streq(contents, "t") && streq(name, "FinishTimestampMonotonic"))
                        r = read_u64_variant(reply, &mg->finish_usec);
                else if (streq(contents, "t") && streq(name, "SecurityStartTimestampMonotonic"))
                        r = read_u64_variant(reply, &mg->security_start_usec);
                else if (streq(contents, "t") && streq(name, "SoftRebootStartTimestampMonotonic"))
                        r = read_u64_variant(reply, &mg->softreboot_start_usec);
                else
                        r = sd_bus_message_skip(reply, "v");
                if (r < 0)
                        return r;
                r = sd_bus_message_exit_container(reply);
                if (r < 0)
                        return r;
        }
        if (r < 0)
                return r;
        mg->version_major = parse_major(mg->version);
        s->stats.elapsed_usec += now_usec() - t0;
        *ret = TAKE_PTR(s);
        return 0;
}

static void messages_free(sd_bus_message **l, size_t n) {
        for (size_t i = 0; l && i < n; i++)
                sd_bus_message_unref(l[i]);
        free(l);
}

/* GetAll(Unit) on every path, pipelined; adds the units to s. NoSuchUnit/UnknownObject: the unit went away.
 */
static int load_paths(sd_bus *bus, uint64_t deadline, unsigned window, LiveSystem *s, char **paths, size_t n,
                      DiagList *diags, sd_bus_error *error) {
        sd_bus_message **calls = calloc(n + 1, sizeof(sd_bus_message *));
        sd_bus_message **replies = calloc(n + 1, sizeof(sd_bus_message *));
        int r = 0;

        if (!calls || !replies) {
                r = -ENOMEM;
                goto finish;
        }
        for (size_t i = 0; i < n; i++) {
                r = bus_new_manager_call(bus, paths[i], "org.freedesktop.DBus.Properties", "GetAll",
                                         &calls[i]);
                if (r >= 0)
                        r = sd_bus_message_append(calls[i], "s", SD_IFACE_UNIT);
                if (r < 0)
                        goto finish;
        }
        s->stats.calls += n;
        s->stats.batches += (n + (window ?: 64) - 1) / (window ?: 64);
        r = bus_call_batch(bus, calls, n, window, deadline, replies);
        if (r < 0)
                goto finish;
        for (size_t i = 0; i < n; i++) {
                const sd_bus_error *e = sd_bus_message_get_error(replies[i]);
                LiveUnit *u = NULL;

                if (e) {
                        if (sd_bus_error_has_name(e, SD_DEST ".NoSuchUnit") ||
                            sd_bus_error_has_name(e, "org.freedesktop.DBus.Error.UnknownObject")) {
                                (void) diag_add(diags, DIAG_NOTICE, NULL, 0, "%s: gone while reading (%s)",
                                                paths[i], e->name);
                                continue;
                        }
                        r = sd_bus_error_copy(error, e);
                        goto finish;
                }
                r = live_unit_from_getall(replies[i], paths[i], &u);
                if (r < 0)
                        goto finish;
                if (live_system_find(s, u->id)) { /* read twice (asked for by two names) */
                        live_unit_free(u);
                        continue;
                }
                r = live_system_add(s, u);
                if (r < 0)
                        goto finish;
        }
        r = 0;
finish:
        messages_free(calls, n);
        messages_free(replies, n);
        return r;
}

int live_load_all(sd_bus *bus, const LiveOptions *o, LiveSystem *s, DiagList *diags, sd_bus_error *error) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL, *reply = NULL;
        _cleanup_(strv_freep) char **paths = NULL;
        uint64_t deadline = options_deadline(o), t0 = now_usec();
        const char *id, *path;
        size_t n = 0;
        int r;

        r = bus_new_manager_call(bus, SD_PATH, SD_IFACE_MANAGER, "ListUnits", &m);
        if (r < 0)
                return r;
        s->stats.calls++;
        s->stats.batches++;
        r = sd_bus_call(bus, m, MAX(deadline_remaining(deadline), (uint64_t) 1), error, &reply);
        if (r < 0)
                return r;
        r = sd_bus_message_enter_container(reply, 'a', "(ssssssouso)");
        if (r < 0)
                return r;
        while ((r = sd_bus_message_read(reply, "(ssssssouso)", &id, NULL, NULL, NULL, NULL, NULL, &path,
                                        NULL, NULL, NULL)) > 0) {
                if (live_system_find(s, id))
                        continue;
                r = strv_extend(&paths, path);
                if (r < 0)
                        return r;
                n++;
        }
        if (r < 0)
                return r;
        r = load_paths(bus, deadline, o ? o->window : 0, s, paths, n, diags, error);
        s->stats.elapsed_usec += now_usec() - t0;
        return r;
}

int live_load_units(sd_bus *bus, const LiveOptions *o, LiveSystem *s, char * const *names, DiagList *diags,
                    sd_bus_error *error) {
        size_t n = strv_length(names), k = 0;
        uint64_t deadline = options_deadline(o), t0 = now_usec();
        unsigned window = o ? o->window : 0;
        sd_bus_message **calls = calloc(n + 1, sizeof(sd_bus_message *));
        sd_bus_message **replies = calloc(n + 1, sizeof(sd_bus_message *));
        _cleanup_(strv_freep) char **paths = NULL;
        int r = 0;

        if (!calls || !replies) {
                r = -ENOMEM;
                goto finish;
        }
        for (size_t i = 0; i < n; i++) {
                r = bus_new_manager_call(bus, SD_PATH, SD_IFACE_MANAGER, "LoadUnit", &calls[i]);
                if (r >= 0)
                        r = sd_bus_message_append(calls[i], "s", names[i]);
                if (r < 0)
                        goto finish;
        }
        s->stats.calls += n;
        s->stats.batches += (n + (window ?: 64) - 1) / (window ?: 64);
        r = bus_call_batch(bus, calls, n, window, deadline, replies);
        if (r < 0)
                goto finish;
        for (size_t i = 0; i < n; i++) {
                const sd_bus_error *e = sd_bus_message_get_error(replies[i]);
                const char *path;

                if (e) {
                        (void) diag_add(diags, DIAG_ERROR, NULL, 0, "%s: LoadUnit failed: %s: %s", names[i],
                                        e->name, strempty(e->message));
                        r = sd_bus_error_copy(error, e);
                        goto finish;
                }
                r = sd_bus_message_read(replies[i], "o", &path);
                if (r < 0)
                        goto finish;
                r = strv_extend(&paths, path);
                if (r < 0)
                        goto finish;
                k++;
        }
        r = load_paths(bus, deadline, window, s, paths, k, diags, error);
        /* a name PID 1 resolved to another unit (an alias not yet among Names): find the unit by its path */
        for (size_t i = 0; r >= 0 && i < k; i++) {
                if (live_system_find(s, names[i]))
                        continue;
                for (size_t j = 0; j < s->n_units; j++)
                        if (streq_ptr(s->units[j]->object_path, paths[i])) {
                                r = strv_extend(&s->requested, names[i]);
                                if (r >= 0)
                                        r = hashmap_put(&s->by_name,
                                                        s->requested[strv_length(s->requested) - 1],
                                                        s->units[j]);
                                break;
                        }
        }
finish:
        s->stats.elapsed_usec += now_usec() - t0;
        messages_free(calls, n);
        messages_free(replies, n);
        return r;
}

int live_graph_edges(const LiveSystem *s, LiveEdge **ret, size_t *ret_n) {
        _cleanup_(freep) LiveEdge *e = NULL;
        size_t n = 0, allocated = 0;

        for (size_t i = 0; i < s->n_units; i++) {
                const LiveUnit *u = s->units[i];
                for (LiveDep d = 0; d < _LIVE_DEP_MAX; d++) {
                        if (!live_dep_is_graph_edge(d))
                                continue;
                        STRV_FOREACH(to, u->deps[d]) {
                                if (GREEDY_REALLOC(e, allocated, n + 1) < 0)
                                        return -ENOMEM;
                                e[n++] = (LiveEdge) { .from = u->id, .to = *to, .type = d };
                        }
                }
        }
        *ret = TAKE_PTR(e);
        *ret_n = n;
        return 0;
}
