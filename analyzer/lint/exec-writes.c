/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fnmatch.h>

#include "basic/unit-name.h"
#include "load/unit-values.h"
#include "lint/check-common.h"
#include "lint/exec-writes.h"

void exec_write_list_done(ExecWriteList *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->items[i].path);
                free(l->items[i].under);
        }
        l->items = mfree(l->items);
        l->n = 0;
}

/* The last effective assignment of key in the unit's own section. */
static const Setting *find_setting(const ModelUnit *u, const char *key) {
        for (size_t i = u->unit->n_settings; i > 0; i--) {
                const Setting *s = &u->unit->settings[i - 1];
                if ((!u->st || u->st[i - 1] == SETTING_EFFECTIVE) && streq(s->key, key) &&
                    !streq(s->section, "Unit") && !streq(s->section, "Install"))
                        return s;
        }
        return NULL;
}

/* One word of a setting: {src} and {dest} of SRC[:DEST[:OPTIONS]] (BindPaths=, BindReadOnlyPaths=; DEST is SRC
 * when absent), {word} and {dest} of any other PATH[:OPTIONS]; prefixes "-" and "+" go. */
typedef struct WordPaths {
        char *src, *dest;
} WordPaths;

static void word_paths_done(WordPaths *p) {
        free(p->src);
        free(p->dest);
}

/* The text tpl expands to, written to out (when not NULL); returns its length. */
static size_t expand_to(const char *tpl, const char *unit, const WordPaths *wp, char *out) {
        size_t n = 0;

        for (const char *p = tpl; *p; p++) {
                const char *with = NULL;
                if (startswith(p, "%n")) {
                        with = unit;
                        p++;
                } else if (wp && (startswith(p, "{word}") || startswith(p, "{dest}"))) {
                        with = wp->dest;
                        p += 5;
                } else if (wp && startswith(p, "{src}")) {
                        with = wp->src;
                        p += 4;
                }
                if (with) {
                        size_t k = strlen(with);
                        if (out)
                                memcpy(out + n, with, k);
                        n += k;
                } else {
                        if (out)
                                out[n] = *p;
                        n++;
                }
        }
        return n;
}

/* Replaces every %n by the unit's name and tpl's {word}/{dest}/{src} by the word's paths (wp may be NULL). Measured,
 * then written: this runs for every path setting of every unit, and a memory stream costs a page to open. */
static char *expand(const char *tpl, const char *unit, const WordPaths *wp) {
        _cleanup_(freep) char *buf = NULL;
        size_t n = expand_to(tpl, unit, wp, NULL);

        buf = malloc(n + 1);
        if (!buf)
                return NULL;
        (void) expand_to(tpl, unit, wp, buf);
        buf[n] = 0;
        return path_simplify_dup(buf);
}

static bool uses_words(const char *tpl) {
        return strstr(tpl, "{word}") || strstr(tpl, "{dest}") || strstr(tpl, "{src}");
}

static int word_paths(const char *key, const char *word, WordPaths *ret) {
        const char *w = word;
        size_t n;

        while (*w == '-' || *w == '+')
                w++;
        n = strcspn(w, ":");
        ret->src = strndup_safe(w, n);
        if (startswith(key, "Bind") && w[n] == ':' && w[n + 1] != ':' && w[n + 1])
                ret->dest = strndup_safe(w + n + 1, strcspn(w + n + 1, ":"));
        else
                ret->dest = ret->src ? strdup(ret->src) : NULL;
        return ret->src && ret->dest ? 0 : -ENOMEM;
}

/* The directory a write with in-root="yes" is made below: RootDirectory='s value, "" for the host's /, or NULL
 * when it is inside a RootImage= (mounted below /run, nothing a boot ordering decides). */
static const char *write_root(const ModelUnit *u) {
        const Setting *img = find_setting(u, "RootImage"), *dir = find_setting(u, "RootDirectory");

        if (img && !isempty(img->value))
                return NULL;
        if (dir && path_is_absolute(dir->value) && !strchr(dir->value, '%'))
                return dir->value;
        return "";
}

static char *expand_in(const char *root, const char *tpl, const char *unit, const WordPaths *wp) {
        _cleanup_(freep) char *p = expand(tpl, unit, wp), *j = NULL;

        if (!p || isempty(root) || !path_is_absolute(p))
                return TAKE_PTR(p);
        return asprintf_safe(&j, "%s/%s", root, p) < 0 ? NULL : path_simplify_dup(j);
}

static int add(ExecWriteList *l, const ExecWrite *w, const ModelUnit *u, const Setting *s, const WordPaths *wp) {
        const char *root = w->in_root ? write_root(u) : "";
        _cleanup_(freep) char *path = NULL, *under = NULL;
        ExecWriteAt *n;

        if (!root)
                return 0;
        path = expand_in(root, w->path, u->unit->id, wp);
        under = expand_in(root, w->under, u->unit->id, wp);
        if (!path || !under)
                return -ENOMEM;
        if (!path_is_absolute(path) || !path_is_absolute(under))
                return 0;
        n = realloc(l->items, sizeof(ExecWriteAt) * (l->n + 1));
        if (!n)
                return -ENOMEM;
        l->items = n;
        n[l->n++] = (ExecWriteAt) { .write = w, .path = TAKE_PTR(path), .under = TAKE_PTR(under), .setting = s };
        return 0;
}

/* The assignment that asks for key when a normalisation of dependencies.xml sets it (DynamicUser=yes gives
 * PrivateTmp=yes): the first setting condition of a <set> rule for key that holds for u. NULL when none. */
static const Setting *implied_by(const LintContext *c, const ModelUnit *u, const char *key) {
        for (size_t i = 0; i < rules_dep_count(c->rules); i++) {
                const DepRule *d = rules_dep_get(c->rules, i);
                const DepCond *first = NULL;
                bool sets = false, holds = true;

                if (!dep_rule_applies(d, u->unit->type, c->version))
                        continue;
                for (size_t k = 0; k < d->n_actions; k++)
                        sets = sets ||
                               (d->actions[k].kind == DEP_ACTION_SET && streq(d->actions[k].setting, key));
                if (!sets)
                        continue;
                for (size_t k = 0; holds && k < d->n_conds; k++) {
                        const DepCond *x = &d->conds[k];
                        if (!dep_cond_applies(x, c->version))
                                continue;
                        holds = model_unit_cond_holds(c->model, u, x) > 0;
                        if (!first && x->kind == DEP_COND_SETTING && !x->negate && !x->section)
                                first = x;
                }
                if (holds && first)
                        return find_setting(u, first->name);
        }
        return NULL;
}

int lint_exec_writes(const LintContext *c, const ModelUnit *u, ExecWriteList *ret) {
        for (size_t i = 0; i < rules_exec_write_count(c->rules); i++) {
                const ExecWrite *w = rules_exec_write_get(c->rules, i);
                const Setting *s;
                bool holds = true;
                int r;

                if (!exec_write_applies(w, c->version))
                        continue;
                for (size_t k = 0; holds && k < w->n_conds; k++) {
                        if (!dep_cond_applies(&w->conds[k], c->version))
                                continue;
                        r = model_unit_cond_holds(c->model, u, &w->conds[k]);
                        if (r < 0)
                                return r;
                        holds = r > 0;
                }
                if (!holds)
                        continue;
                s = find_setting(u, w->setting) ?: implied_by(c, u, w->setting);
                if (!uses_words(w->path) && !uses_words(w->under)) {
                        r = add(ret, w, u, s, NULL);
                        if (r < 0)
                                return r;
                        continue;
                }
                /* once per word of every effective assignment */
                for (size_t k = 0; k < u->unit->n_settings; k++) {
                        const Setting *x = &u->unit->settings[k];
                        _cleanup_(strv_freep) char **words = NULL;
                        const KeyInfo *ki;

                        if ((u->st && u->st[k] != SETTING_EFFECTIVE) || !streq(x->key, w->setting) ||
                            streq(x->section, "Unit") || streq(x->section, "Install"))
                                continue;
                        ki = rules_key_lookup(c->rules, u->unit->type, x->section, x->key, c->version);
                        if (!ki || setting_words(u->unit, x, ki, model_features(c->model), &words, NULL) < 0)
                                continue;
                        STRV_FOREACH(word, words) {
                                _cleanup_(word_paths_done) WordPaths p = {};
                                if (word_paths(x->key, *word, &p) < 0)
                                        return -ENOMEM;
                                if (isempty(p.src) || isempty(p.dest) || strchr(p.src, '%') || strchr(p.dest, '%'))
                                        continue;
                                r = add(ret, w, u, x, &p);
                                if (r < 0)
                                        return r;
                        }
                }
        }
        return 0;
}

static bool cond_settled(const DepCond *c, unsigned version) {
        if (!dep_cond_applies(c, version))
                return true;
        if (c->kind == DEP_COND_MOUNTS_FOR || c->kind == DEP_COND_LOADED || c->kind == DEP_COND_AFTER)
                return false;
        for (size_t i = 0; c->kind == DEP_COND_ANY && i < c->n_any; i++)
                if (!cond_settled(&c->any[i], version))
                        return false;
        return true;
}

bool lint_exec_writes_settled(const Rules *rules, unsigned version) {
        for (size_t i = 0; i < rules_exec_write_count(rules); i++) {
                const ExecWrite *w = rules_exec_write_get(rules, i);
                for (size_t k = 0; exec_write_applies(w, version) && k < w->n_conds; k++)
                        if (!cond_settled(&w->conds[k], version))
                                return false;
        }
        /* implied_by() asks the conditions of the normalisations */
        for (size_t i = 0; i < rules_dep_count(rules); i++) {
                const DepRule *d = rules_dep_get(rules, i);
                for (size_t k = 0; k < d->n_conds; k++)
                        if (!cond_settled(&d->conds[k], version))
                                return false;
        }
        return true;
}

void lint_unit_writes_done(LintUnitWrites *w) {
        exec_write_list_done(&w->list);
        w->unit = NULL;
}

int lint_unit_writes(const LintContext *c, const ModelUnit *u, ExecWriteList *scratch, const ExecWriteList **ret) {
        ExecWriteList *l = c->writes ? &c->writes->list : scratch;
        int r;

        if (c->writes && c->writes->unit == u) {
                *ret = l;
                return 0;
        }
        exec_write_list_done(l);
        if (c->writes)
                c->writes->unit = NULL;
        r = lint_exec_writes(c, u, l);
        if (r < 0) {
                exec_write_list_done(l);
                return r;
        }
        if (c->writes)
                c->writes->unit = u;
        *ret = l;
        return 0;
}

void exec_write_ready_done(ExecWriteReady *r) {
        r->mount = mfree(r->mount);
}

int lint_exec_write_ready(const LintContext *c, const ExecWriteAt *w, ExecWriteReady *ret) {
        const bool honour_x = feature_enabled(model_features(c->model), FEATURE_TMPFILES_HONOURS_EXCLUSIONS);

        *ret = (ExecWriteReady) {};
        if (w->write->lasting)
                ret->removed_by =
                        lint_tmpfiles_removes(c->boot_tmpfiles, w->path, honour_x, &ret->ignored_exclusion);
        /* /run is a tmpfs mounted before PID 1 starts anything */
        if (path_startswith_dir(w->under, "/run"))
                return 0;
        ret->mount = lint_mount_for_path(c, w->under);
        if (!ret->mount)
                return -ENOMEM;
        ret->remount = streq(ret->mount, "-.mount") &&
                       (w->write->op != EXEC_WRITE_NONE ||
                        exec_write_judged_by(w->write, "writable-path-before-remount"));
        return 0;
}

int lint_exec_write_needs(const LintContext *c, const ExecWriteAt *w, char ***ret) {
        _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
        _cleanup_(strv_freep) char **l = NULL;
        int r;

        *ret = NULL;
        r = lint_exec_write_ready(c, w, &rd);
        if (r < 0)
                return r;
        if ((rd.mount && !streq(rd.mount, "-.mount") && strv_extend(&l, rd.mount) < 0) ||
            (rd.remount && strv_extend(&l, "systemd-remount-fs.service") < 0) ||
            (rd.removed_by && strv_extend(&l, "systemd-tmpfiles-setup.service") < 0))
                return -ENOMEM;
        *ret = TAKE_PTR(l);
        return 0;
}

char *lint_exec_write_why(const ModelUnit *u, const ExecWriteAt *w) {
        char *s = NULL;

        if (!w->setting)
                return asprintf_safe(&s, "%s= (implied)", w->write->setting) < 0 ? NULL : s;
        return asprintf_safe(&s, "%s=%s at %s:%u", w->setting->key, w->setting->value,
                             strna(u->unit->sources[w->setting->source].path), w->setting->line) < 0
                       ? NULL
                       : s;
}

/* Does glob match path or a directory above it (below /)? */
static bool glob_covers(const char *glob, const char *path, bool parents) {
        _cleanup_(freep) char *p = strdup(path);

        if (!p)
                return false;
        for (;;) {
                char *slash;
                if (fnmatch(glob, p, FNM_PATHNAME) == 0)
                        return true;
                if (!parents)
                        return false;
                slash = strrchr(p, '/');
                if (!slash || slash == p)
                        return false;
                *slash = 0;
        }
}

const TmpfilesEntry *lint_tmpfiles_removes(const TmpfilesList *l, const char *path, bool honour_x,
                                           const TmpfilesEntry **ret_ignored) {
        const TmpfilesEntry *remover = NULL, *exclusion = NULL;

        if (ret_ignored)
                *ret_ignored = NULL;
        for (size_t i = 0; l && i < l->n && !remover; i++) {
                const TmpfilesEntry *e = &l->items[i];
                _cleanup_(freep) char *p = path_simplify_dup(e->path);

                if (!p)
                        continue;
                if (e->type[0] == 'D' && path_startswith_dir(path, p) && !streq(path, p))
                        remover = e;
                else if (e->type[0] == 'R' && glob_covers(p, path, true))
                        remover = e;
        }
        if (!remover)
                return NULL;
        for (size_t i = 0; l && i < l->n && !exclusion; i++) {
                const TmpfilesEntry *e = &l->items[i];
                /* x: the path and what is below it; X: the path itself */
                if ((e->type[0] == 'x' && glob_covers(e->path, path, true)) ||
                    (e->type[0] == 'X' && glob_covers(e->path, path, false)))
                        exclusion = e;
        }
        if (exclusion && honour_x)
                return NULL;
        if (ret_ignored)
                *ret_ignored = exclusion;
        return remover;
}

int lint_exec_writes_judge(const LintContext *c, ModelUnit *u, const char *id, ExecWriteJudge judge,
                           FindingList *out) {
        _cleanup_(exec_write_list_done) ExecWriteList scratch = {};
        const ExecWriteList *l;
        int r;

        r = lint_unit_writes(c, u, &scratch, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l->n; i++) {
                if (!exec_write_judged_by(l->items[i].write, id))
                        continue;
                r = judge(c, u, &l->items[i], out);
                if (r < 0)
                        return r;
        }
        return 0;
}
