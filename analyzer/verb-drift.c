/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootrace drift: the dependencies the running systemd holds for its loaded units against those bootrace's
 * model predicts for that systemd version from the same unit files; each difference with the model's origin. */

#include "basic/json.h"
#include "live/bus-util.h"
#include "live/drift.h"
#include "report/graph-report.h"
#include "report/json-header.h"
#include "report/report.h"
#include "verb-live.h"
#include "verbs.h"

static const char drift_help[] =
        "Usage: bootrace drift [--root=DIR] [-H [USER@]HOST | -M NAME] [--format=text|json] [UNIT...]\n\n"
        "Compare the dependencies the running systemd holds for every loaded unit (or the units named) with\n"
        "those bootrace's model predicts for that systemd version from the unit files under --root (default\n"
        "\"/\"; for a container, its root such as /proc/PID/root). Each difference is printed as\n"
        "\"UNIT TYPE OTHER: only live\" or \"... only model (origin: ...)\". Exit status 1 when there are any.\n\n"
        "  -H, --host=[USER@]HOST the system bus of HOST, over ssh\n"
        "  -M, --machine=NAME     the system bus of a local container\n"
        "  --live                 accepted for symmetry with graph and show (drift is always live)\n";

static int drift_option(int c, const char *arg, void *userdata) {
        int r = live_args_handle(userdata, c, arg);
        return r == 1 ? -EINVAL : r;
}

/* ID= of the root's os-release ("debian"), or NULL. */
static char *root_distro(const Root *root) {
        static const char * const files[] = { "/etc/os-release", "/usr/lib/os-release" };

        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                _cleanup_(closep) int fd = -EBADF;
                _cleanup_(freep) char *text = NULL;
                size_t size;

                if (root_open_file(root, files[i], &fd, NULL) < 0 || read_full_fd(fd, 65536, &text, &size) < 0)
                        continue;
                for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
                        size_t n;
                        if (!startswith(l, "ID="))
                                continue;
                        l += 3;
                        if (*l == '"' || *l == '\'')
                                l++;
                        n = strcspn(l, "\"'\n");
                        return n > 0 ? strndup_safe(l, n) : NULL;
                }
        }
        return NULL;
}

/* PID 1's mount table, from the root's /proc/1/mountinfo (the root is the running system's, such as
 * /proc/LEADER/root of a container, whose /proc is the container's). Returns 0, or -errno when there is
 * none. */
static int root_mount_table(const Root *root, MountTable *ret) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *text = NULL;
        size_t size;
        int r;

        r = root_open_file(root, "/proc/1/mountinfo", &fd, NULL);
        if (r < 0)
                return r;
        r = read_full_fd(fd, 64 * 1024 * 1024, &text, &size);
        if (r < 0)
                return r;
        return mount_table_parse_mountinfo(text, ret);
}

/* The mount points of the running system: every active .mount unit's path. */
static int live_mount_points(const LiveSystem *s, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t i = 0; i < s->n_units; i++) {
                const LiveUnit *u = s->units[i];
                _cleanup_(freep) char *prefix = NULL, *path = NULL;
                if (!endswith(u->id, ".mount") || !streq_ptr(u->active_state, "active"))
                        continue;
                if (unit_name_strip_suffix(u->id, &prefix) < 0 || unit_name_path_unescape(prefix, &path) < 0)
                        continue;
                if (strv_extend_unique(&l, path) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

static void print_text(const Drift *d, const Model *m) {
        Graph *g = model_graph(m);

        for (size_t i = 0; i < d->n_items; i++) {
                const DriftItem *it = &d->items[i];
                printf("%s %s %s: %s", it->unit, live_dep_to_string(it->type), it->other,
                       it->side == DRIFT_ONLY_LIVE ? "only live" : "only model (origin: ");
                for (size_t k = 0; k < it->n_origins; k++) {
                        _cleanup_(freep) char *t = origin_to_text(graph_origin(g, it->origins[k]));
                        printf("%s%s", k > 0 ? "; " : "", strna(t));
                }
                printf("%s\n", it->side == DRIFT_ONLY_MODEL ? ")" : "");
        }
}

static void print_json(const Drift *d, const LiveSystem *s, const Model *m, const char *root,
                       const VersionChoice *vc) {
        Graph *g = model_graph(m);
        JsonWriter w;

        json_init(&w, stdout, false);
        report_json_begin(&w, NULL);
        json_kv_uint(&w, "systemd", model_version(m));
        json_kv_string(&w, "systemd_version", s->manager.version);
        report_json_nearest_model(&w, vc);
        json_kv_string(&w, "root", root);
        json_kv_string(&w, "base_model", model_base_file(m));
        json_kv_uint(&w, "units_compared", d->n_units);
        json_kv_uint(&w, "dependencies_compared", d->n_facts);
        json_key(&w, "differences");
        json_begin_array(&w);
        for (size_t i = 0; i < d->n_items; i++) {
                const DriftItem *it = &d->items[i];
                json_begin_object(&w);
                json_kv_string(&w, "unit", it->unit);
                json_kv_string(&w, "type", live_dep_to_string(it->type));
                json_kv_string(&w, "other", it->other);
                json_kv_string(&w, "side", drift_side_to_string(it->side));
                json_key(&w, "origins");
                json_begin_array(&w);
                for (size_t k = 0; k < it->n_origins; k++)
                        origin_to_json(&w, graph_origin(g, it->origins[k]));
                json_end_array(&w);
                json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
}

/* The UNIT arguments. Returns 0, or a negative errno after printing an error. */
static int collect_units(char **args, int n, char ***ret) {
        for (int i = 0; i < n; i++) {
                if (!unit_name_is_valid(args[i], UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                        log_error("drift: \"%s\" is not a unit name; PID 1 is asked, not files", args[i]);
                        return -EINVAL;
                }
                if (strv_extend(ret, args[i]) < 0)
                        return log_oom();
        }
        return 0;
}

/* What PID 1 of --host, --machine or this system holds: every loaded unit, and the units named. Returns 0, or a
 * negative errno after printing an error. */
static int load_live(const LiveArgs *a, char **units, sd_bus **ret_bus, LiveSystem **ret, DiagList *diags) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        BusTarget t = { .host = a->host, .machine = a->machine };
        char tbuf[256], ebuf[512];
        int r;

        r = live_connect(a->host, a->machine, NULL, "drift", ret_bus, ret);
        if (r < 0)
                return r;
        r = live_load_all(*ret_bus, NULL, *ret, diags, &error);
        if (r >= 0 && units)
                r = live_load_units(*ret_bus, NULL, *ret, units, diags, &error);
        if (r < 0) {
                log_error("drift: %s: %s", bus_target_describe(&t, tbuf), bus_error_describe(&error, r, ebuf));
                return r;
        }
        if ((*ret)->manager.version_major == 0) {
                log_error("drift: the manager's version \"%s\" has no major number", strna((*ret)->manager.version));
                return -EINVAL;
        }
        return 0;
}

/* What the model of the running system is given, kept as long as the model (it points into them). */
typedef struct ModelFacts {
        char *distro;
        char **mounted;
        MountTable table;
} ModelFacts;

static void model_facts_done(ModelFacts *f) {
        f->distro = mfree(f->distro);
        f->mounted = strv_free(f->mounted);
        mount_table_done(&f->table);
}

/* The model of the root for the version judged, with every unit PID 1 has loaded (so that the inverse lists of
 * the units compared are complete). Returns 0, or a negative errno after printing an error. */
static int drift_model(const char *rootdir, const Root *root, const Rules *rules, const LiveSystem *s,
                       unsigned version, ModelFacts *f, Model **ret, DiagList *diags) {
        int r;

        f->distro = root_distro(root);
        if (live_mount_points(s, &f->mounted) < 0)
                return log_oom();
        r = root_mount_table(root, &f->table);
        if (r == -ENOMEM)
                return log_oom();
        if (r < 0)
                (void) diag_add(diags, DIAG_NOTICE, NULL, 0,
                                "%s/proc/1/mountinfo: %s; file system types of mounts without a file "
                                "and the order PID 1 read the mount table in are unknown",
                                rootdir, strerror(-r));
        r = model_new(&(ModelOptions) {
                              .root = root,
                              .systemd = version,
                              .distro = f->distro,
                              /* the root is the whole system: a unit it lacks is not-found for PID 1 too */
                              .no_base = true,
                              .mounted = f->mounted,
                              .mount_table = r >= 0 ? &f->table : NULL,
                      },
                      rules, ret, diags);
        if (r < 0) {
                diag_list_print(diags, stderr, DIAG_WARNING);
                return log_error_errno(r, "drift: cannot set up the model");
        }
        for (size_t i = 0; i < s->n_units; i++) {
                r = model_add(*ret, s->units[i]->id, NULL);
                if (r == -ENOMEM)
                        return log_oom();
                if (r < 0)
                        (void) diag_add(diags, DIAG_NOTICE, NULL, 0, "%s: the model cannot load it: %s",
                                        s->units[i]->id, strerror(-r));
        }
        r = model_finish(*ret);
        if (r < 0)
                return log_error_errno(r, "drift: cannot build the graph");
        return 0;
}

int verb_drift(int argc, char *argv[], Context *ctx) {
        static const OutputFormat formats[] = { FORMAT_TEXT, FORMAT_JSON, _FORMAT_INVALID };
        static const struct option options[] = {
                LIVE_OPTIONS,
                {},
        };
        _cleanup_(live_args_done) LiveArgs a = {};
        _cleanup_(strv_freep) char **units = NULL;
        _cleanup_(root_freep) Root *root = NULL;
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(live_system_freep) LiveSystem *s = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(rules_freep) Rules *rules = NULL;
        _cleanup_(freep) char *nearest = NULL;
        _cleanup_(model_facts_done) ModelFacts facts = {};
        _cleanup_(model_freep) Model *model = NULL;
        _cleanup_(drift_done) Drift d = {};
        const char *rootdir;
        VersionChoice vc = {};
        int r, optind_;

        r = cli_parse(argc, argv, ctx, options, LIVE_SHORT_OPTIONS, drift_option, &a, drift_help, &optind_);
        if (r != 0)
                return r > 0 ? EXIT_CLEAN : EXIT_ERROR;
        if (cli_check_format(ctx, "drift", formats) < 0 || collect_units(argv + optind_, argc - optind_, &units) < 0)
                return EXIT_ERROR;
        if (a.host && a.machine) {
                log_error("drift: give --host or --machine, not both");
                return EXIT_ERROR;
        }
        rootdir = ctx->root ?: "/"; /* after cli_parse(): --root may follow the verb */
        r = root_open(rootdir, &root);
        if (r < 0)
                return log_error_errno(r, "drift: --root=%s", rootdir), EXIT_ERROR;
        if (load_live(&a, units, &bus, &s, &diags) < 0 ||
            context_check_version(ctx, s->manager.version_major, VERSION_FROM_LIVE, "the running systemd", &vc) < 0)
                return EXIT_ERROR;
        nearest = version_choice_note(&vc);
        if (version_choice_nearest(&vc) && !nearest)
                return log_oom(), EXIT_ERROR;
        if (cli_load_rules(&rules, &diags) < 0 ||
            drift_model(rootdir, root, rules, s, vc.version, &facts, &model, &diags) < 0)
                return EXIT_ERROR;
        if (drift_compare(s, model, units, &d) < 0)
                return log_oom(), EXIT_ERROR;

        if (ctx->format == FORMAT_JSON)
                print_json(&d, s, model, rootdir, &vc);
        else {
                if (nearest)
                        printf("# note: %s\n", nearest);
                print_text(&d, model);
        }
        if (!ctx->quiet) {
                diag_list_print(&diags, stderr, DIAG_WARNING);
                fprintf(stderr, "bootrace: drift: systemd %u (%s), %zu units, %zu dependencies compared, "
                        "%zu differ\n", s->manager.version_major, strna(s->manager.version), d.n_units,
                        d.n_facts, d.n_items);
        }
        if (fflush(stdout) != 0)
                return EXIT_ERROR;
        return d.n_items > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}
