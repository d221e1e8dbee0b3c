/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Findings through a profile's units say so: an ordering cycle that has a unit of the profile in it, or whose
 * jobs a profile unit pulled into the transaction, and any other finding whose evidence shows a profile unit's
 * edge, names those units, their packages and the release. */

#include "lint/lint-profile.h"

/* Adds the profile unit of node (if it is one and not there yet) to *units. */
static int note_unit(const Model *m, uint32_t node, char ***units) {
        ModelUnit *mu = model_unit_of_node(m, node);

        if (!mu || !mu->profile_package || strv_contains(*units, mu->unit->id))
                return 0;
        return strv_extend(units, mu->unit->id);
}

/* The profile units of cycle c: its own, and the first profile unit on the chain of jobs that pulled each of its
 * jobs in. For the latter, *why gets "JOB is in the boot transaction through UNIT (PACKAGE):" and the edges of
 * that chain, up to the one that pulled UNIT in, once per job. */
static int cycle_profile_units(const LintContext *c, const Cycle *cy, char ***units, char ***why) {
        const Graph *g = model_graph(c->model);
        const Transaction *t = c->transaction;
        size_t n_jobs = transaction_job_count(t);
        _cleanup_(freep) uint32_t *chain = calloc(n_jobs + 1, sizeof(uint32_t));
        int r;

        if (!chain)
                return -ENOMEM;
        for (size_t i = 0; i < cy->n; i++) {
                ModelUnit *mu = model_unit_of_node(c->model, cy->nodes[i]);
                _cleanup_(freep) char *head = NULL;
                uint32_t node = cy->nodes[i], e;
                size_t n = 0;

                if (mu && mu->profile_package) {
                        if ((r = note_unit(c->model, cy->nodes[i], units)) < 0)
                                return r;
                        continue;
                }
                /* the chain of first pulls from the job towards the anchor, to the first profile unit on it */
                for (mu = NULL; n < n_jobs && (e = transaction_pulled_by(t, node)) != UINT32_MAX; ) {
                        chain[n++] = e;
                        node = graph_edge(g, e)->from;
                        mu = model_unit_of_node(c->model, node);
                        if (mu && mu->profile_package)
                                break;
                        mu = NULL;
                }
                if (!mu)
                        continue;
                if ((r = note_unit(c->model, node, units)) < 0)
                        return r;
                /* and the edge that pulled the profile unit itself in */
                if (n < n_jobs && (e = transaction_pulled_by(t, node)) != UINT32_MAX)
                        chain[n++] = e;
                if (asprintf_safe(&head, "%s is in the boot transaction through %s (%s):",
                                  graph_node_name(g, cy->nodes[i]), mu->unit->id, mu->profile_package) < 0)
                        return -ENOMEM;
                if (strv_contains(*why, head))
                        continue;
                if (strv_push(why, TAKE_PTR(head)) < 0)
                        return -ENOMEM;
                for (size_t k = 0; k < n; k++) {
                        char *d = lint_describe_edge(c, chain[k]), *line = NULL;
                        if (!d || asprintf_safe(&line, "  %s", d) < 0) {
                                free(d);
                                return -ENOMEM;
                        }
                        free(d);
                        if (strv_push(why, line) < 0)
                                return -ENOMEM;
                }
        }
        return 0;
}

/* Other checks: the profile units whose edges the evidence shows (an edge of a profile unit names the profile's
 * file: "  cloud-init.service Before=sysinit.target (profile-ubuntu-noble.xml:173, ...)"). */
static int evidence_profile_units(const Model *m, const Profile *p, const Finding *f, char ***units) {
        const char *file = path_basename(profile_file(p));
        int r;

        STRV_FOREACH(e, f->evidence) {
                const char *s = *e + strspn(*e, " "), *end = s + strcspn(s, " ");
                _cleanup_(freep) char *name = NULL;
                const ModelUnit *mu;

                if (!strstr(*e, file))
                        continue;
                name = strndup_safe(s, end - s);
                if (!name)
                        return -ENOMEM;
                mu = model_get(m, name);
                if (mu && mu->profile_package && (r = note_unit(m, mu->node, units)) < 0)
                        return r;
        }
        return 0;
}

/* The package of a profile unit ("ifupdown" of "ifupdown 0.8.41"), a new string. */
static char *package_of(const Model *m, const char *unit) {
        const ModelUnit *mu = model_get(m, unit);
        return strndup_safe(mu->profile_package, strcspn(mu->profile_package, " "));
}

/* "ifupdown's networking.service", per package in the order of first appearance: "cloud-init's cloud-init.service
 * and systemd's systemd-networkd-wait-online.service and systemd-networkd.service". */
static char *units_phrase(const Model *m, char **units) {
        _cleanup_(strv_freep) char **pkgs = NULL;
        _cleanup_(freep) char *s = NULL;

        STRV_FOREACH(u, units) {
                char *p = package_of(m, *u);
                if (!p || (!strv_contains(pkgs, p) ? strv_push(&pkgs, p) : (free(p), 0)) < 0)
                        return NULL;
        }
        STRV_FOREACH(p, pkgs) {
                _cleanup_(strv_freep) char **mine = NULL;
                STRV_FOREACH(u, units) {
                        _cleanup_(freep) char *q = package_of(m, *u);
                        if (!q || (streq(q, *p) && strv_extend(&mine, *u) < 0))
                                return NULL;
                }
                char *t = NULL;
                if (asprintf_safe(&t, "%s%s%s's", strempty(s), s ? " and " : "", *p) < 0)
                        return NULL;
                free(s);
                s = t;
                for (size_t i = 0, n = strv_length(mine); i < n; i++) {
                        if (asprintf_safe(&t, "%s%s%s", s, i == 0 ? " " : i + 1 == n ? " and " : ", ", mine[i]) < 0)
                                return NULL;
                        free(s);
                        s = t;
                }
        }
        return TAKE_PTR(s);
}

int lint_profile_annotate(const LintContext *c, const Profile *p, FindingList *l, size_t from) {
        int r;

        if (!p || !c->transaction)
                return 0;
        for (size_t i = from; i < l->n; i++) {
                Finding *f = &l->items[i];
                ModelUnit *u = f->unit ? model_get(c->model, f->unit) : NULL;
                _cleanup_(strv_freep) char **units = NULL, **why = NULL;
                _cleanup_(freep) char *phrase = NULL, *note = NULL;

                if (!u)
                        continue;
                if (streq(f->check, "ordering-cycle")) {
                        for (size_t k = 0; k < c->n_cycles; k++)
                                if (cycle_has(&c->cycles[k], u->node) &&
                                    (r = cycle_profile_units(c, &c->cycles[k], &units, &why)) < 0)
                                        return r;
                } else if ((r = evidence_profile_units(c->model, p, f, &units)) < 0)
                        return r;
                if (!units)
                        continue;
                phrase = units_phrase(c->model, units);
                if (!phrase)
                        return -ENOMEM;
                if (profile_is_default(p))
                        r = asprintf_safe(&note, "with %s, as installed by default on %s", phrase, profile_target(p));
                else
                        r = asprintf_safe(&note, "with %s, as profile %s of %s installs %s", phrase, profile_name(p),
                                          profile_target(p), strv_length(units) == 1 ? "it" : "them");
                if (r < 0)
                        return -ENOMEM;
                char *m = NULL;
                if (asprintf_safe(&m, "%s (%s)", f->message, note) < 0)
                        return -ENOMEM;
                free(f->message);
                f->message = m;
                STRV_FOREACH(w, why)
                        if (finding_add_evidence(f, "%s", *w) < 0)
                                return -ENOMEM;
                if (finding_add_evidence(f, "--profile=minimal judges with systemd's units alone (profile %s of %s: "
                                            "%s)", profile_name(p), profile_target(p),
                                         path_basename(profile_file(p))) < 0)
                        return -ENOMEM;
                f->profile = TAKE_PTR(note);
        }
        return 0;
}
