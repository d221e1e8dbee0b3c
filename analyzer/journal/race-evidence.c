/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <inttypes.h>

#include "journal/race-evidence.h"

void race_evidence_done(RaceEvidence *e) {
        for (size_t i = 0; i < e->n_marks; i++)
                free(e->marks[i].unit);
        free(e->marks);
        free(e->summary);
        *e = (RaceEvidence) {};
}

int race_paths_in_text(const char *text, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        const char *p = text;

        while ((p = strchr(p, '/'))) {
                /* a path starts after a space, a quote or the start of the text */
                if (p != text && !strchr(" '\"`(=:\xe2\x80\x98\x98\x9c", p[-1]) && (unsigned char) p[-1] < 0x80) {
                        p++;
                        continue;
                }
                size_t n = strcspn(p, " '\"`):,;\xe2");
                while (n > 1 && p[n - 1] == '.')
                        n--;
                if (n > 1) {
                        char *x = strndup_safe(p, n);
                        if (!x)
                                return -ENOMEM;
                        if (strv_contains(l, x))
                                free(x);
                        else if (strv_push(&l, x) < 0)
                                return -ENOMEM;
                }
                p += MAX(n, (size_t) 1);
        }
        *ret = TAKE_PTR(l);
        return 0;
}

static int add_mark(RaceEvidence *e, const char *unit, const char *what, uint64_t usec) {
        RaceMark *m = realloc(e->marks, (e->n_marks + 1) * sizeof(RaceMark));

        if (!m)
                return -ENOMEM;
        e->marks = m;
        m = &e->marks[e->n_marks];
        *m = (RaceMark) { .unit = strdup(unit), .what = what, .usec = usec };
        if (!m->unit)
                return -ENOMEM;
        if (usec && e->start_usec) {
                m->has_delta = true;
                m->delta_usec = (int64_t) usec - (int64_t) e->start_usec;
        }
        e->n_marks++;
        return 0;
}

static int add_anchor(RaceEvidence *e, const BootAnalysis *a, const char *unit, size_t b) {
        int i = boot_analysis_find_unit(a, unit);
        const UnitBoot *ub = i >= 0 ? &a->units[i].boots[b] : NULL;
        bool target = endswith(unit, ".target"), mount = endswith(unit, ".mount");

        if (!ub)
                return add_mark(e, unit, "no record", 0);
        if (ub->active_usec)
                return add_mark(e, unit, target ? "reached" : mount ? "mounted" : "finished", ub->active_usec);
        if (ub->deleted)
                return add_mark(e, unit, "job deleted", 0);
        if (ub->start_usec)
                return add_mark(e, unit, "started only", ub->start_usec);
        return add_mark(e, unit, "no record", 0);
}

/* Mount units active in this boot whose path holds one of the paths the unit's failure lines name. */
static int add_mounts(RaceEvidence *e, const BootAnalysis *a, const UnitBoot *ub, size_t b) {
        _cleanup_(strv_freep) char **paths = NULL, **added = NULL;
        int r;

        STRV_FOREACH(line, ub->lines) {
                _cleanup_(strv_freep) char **p = NULL;
                if ((r = race_paths_in_text(*line, &p)) < 0)
                        return r;
                STRV_FOREACH(x, p)
                        if ((r = strv_extend_unique(&paths, *x)) < 0)
                                return r;
        }
        STRV_FOREACH(path, paths) {
                const char *best = NULL;
                size_t best_len = 0;
                for (size_t u = 0; u < a->n_units; u++) {
                        const char *name = a->units[u].name;
                        _cleanup_(freep) char *mp = NULL;
                        size_t l;
                        if (!endswith(name, ".mount") || a->units[u].boots[b].active_usec == 0)
                                continue;
                        mp = mount_unit_to_path(name);
                        if (!mp || streq(mp, "/"))
                                continue;
                        l = strlen(mp);
                        if (strncmp(*path, mp, l) == 0 && ((*path)[l] == 0 || (*path)[l] == '/') && l > best_len) {
                                best = name;
                                best_len = l;
                        }
                }
                if (best && !strv_contains(added, best)) {
                        if ((r = strv_extend(&added, best)) < 0 || (r = add_anchor(e, a, best, b)) < 0)
                                return r;
                }
        }
        return 0;
}

static void fmt_delta(char buf[static 48], int64_t d) {
        int64_t a = d < 0 ? -d : d;
        snprintf(buf, 48, "%" PRId64 ".%03" PRId64 " s", a / 1000000, (a % 1000000) / 1000);
}

static int join(char **s, const char *sep, const char *part) {
        char *n = *s ? strjoin(*s, sep, part) : strdup(part);
        if (!n)
                return -ENOMEM;
        free(*s);
        *s = n;
        return 0;
}

/* "started 0.961 s before systemd-remount-fs.service finished, …; no record of local-fs.target" */
static int summarize(RaceEvidence *e, const UnitBoot *ub) {
        _cleanup_(freep) char *timed = NULL, *other = NULL;
        char d[48];
        int r;

        if (!e->start_kind)
                return (e->summary = strdup(ub->deleted ? "its start job was deleted to break an ordering cycle" :
                                                          "no start time recorded")) ? 0 : -ENOMEM;
        for (size_t i = 0; i < e->n_marks; i++) {
                const RaceMark *m = &e->marks[i];
                _cleanup_(freep) char *part = NULL;
                if (m->has_delta && m->what[0] != 's') {
                        fmt_delta(d, m->delta_usec);
                        r = asprintf_safe(&part, "%s %s %s %s", d, m->delta_usec >= 0 ? "before" : "after", m->unit,
                                          m->what);
                } else if (streq(m->what, "no record"))
                        r = asprintf_safe(&part, "no record of %s", m->unit);
                else
                        r = asprintf_safe(&part, "%s: %s", m->unit, m->what);
                if (r < 0 || (r = join(m->has_delta && m->what[0] != 's' ? &timed : &other, ", ", part)) < 0)
                        return -ENOMEM;
        }
        r = asprintf_safe(&e->summary, "%s %s%s%s", e->start_kind, timed ?: "(no anchor timed in this boot)",
                          other ? "; " : "", strempty(other));
        return r < 0 ? -ENOMEM : 0;
}

int race_evidence_build(const BootAnalysis *a, size_t u, size_t b, const char * const *anchors,
                        RaceEvidence *ret) {
        RaceEvidence e = {};
        const UnitBoot *ub = &a->units[u].boots[b];
        int r = 0;

        if (ub->start_usec) {
                e.start_usec = ub->start_usec;
                e.start_kind = "started";
        } else if (ub->first_usec) {
                e.start_usec = ub->first_usec;
                e.start_kind = "first record";
        }
        e.end_usec = ub->end_usec;
        for (const char * const *x = anchors; x && *x && r >= 0; x++)
                if (!streq(*x, a->units[u].name))
                        r = add_anchor(&e, a, *x, b);
        if (r >= 0)
                r = add_mounts(&e, a, ub, b);
        if (r >= 0)
                r = summarize(&e, ub);
        if (r < 0) {
                race_evidence_done(&e);
                return r;
        }
        *ret = e;
        return 0;
}
