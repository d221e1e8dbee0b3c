/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/unit-name.h"
#include "lint/lint-paths.h"
#include "lint/lint.h"
#include "load/unit-values.h"
#include "load/unit-verify.h"

void lint_paths_done(LintPaths *p) {
        for (size_t i = 0; i < p->n; i++)
                free(p->items[i].path);
        p->items = mfree(p->items);
        p->n = p->allocated = 0;
}

static int add(LintPaths *p, const char *path, LintPathSource src, const Setting *s) {
        _cleanup_(freep) char *n = path_simplify_dup(path);

        if (!n)
                return -ENOMEM;
        if (!path_is_absolute(n))
                return 0;
        for (size_t i = 0; i < p->n; i++)
                if (streq(p->items[i].path, n))
                        return 0;
        if (GREEDY_REALLOC(p->items, p->allocated, p->n + 1) < 0)
                return -ENOMEM;
        p->items[p->n++] = (LintPath) { .path = TAKE_PTR(n), .source = src, .setting = s };
        return 0;
}

static const Setting *last_effective(const ModelUnit *u, const char *key) {
        for (size_t i = u->unit->n_settings; i > 0; i--)
                if ((!u->st || u->st[i - 1] == SETTING_EFFECTIVE) && streq(u->unit->settings[i - 1].key, key) &&
                    !streq(u->unit->settings[i - 1].section, "Unit") &&
                    !streq(u->unit->settings[i - 1].section, "Install"))
                        return &u->unit->settings[i - 1];
        return NULL;
}

static int add_words(const ModelUnit *u, const Rules *rules, const FeatureSet *fs, const char *key, const char *prefix,
                     LintPathSource src, LintPaths *p) {
        for (size_t i = 0; i < u->unit->n_settings; i++) {
                const Setting *s = &u->unit->settings[i];
                _cleanup_(strv_freep) char **words = NULL;
                const KeyInfo *k;

                if ((u->st && u->st[i] != SETTING_EFFECTIVE) || !streq(s->key, key))
                        continue;
                k = rules_key_lookup(rules, u->unit->type, s->section, s->key, fs->version);
                if (!k || setting_words(u->unit, s, k, fs, &words, NULL) < 0)
                        continue;
                STRV_FOREACH(w, words) {
                        const char *x = *w;
                        _cleanup_(freep) char *full = NULL;

                        while (*x == '-' || *x == '+')
                                x++;
                        /* State/Cache/LogsDirectory=name[:mode] is relative to its base directory */
                        if (prefix) {
                                _cleanup_(freep) char *name = strndup_safe(x, strcspn(x, ":"));
                                if (!name)
                                        return -ENOMEM;
                                full = path_join(prefix, name);
                        } else
                                full = strdup(x);
                        if (!full)
                                return -ENOMEM;
                        if (add(p, full, src, s) < 0)
                                return -ENOMEM;
                }
        }
        return 0;
}

int lint_unit_paths(const ModelUnit *u, const Rules *rules, const FeatureSet *fs, LintPaths *ret) {
        const Setting *pt = last_effective(u, "PrivateTmp"), *du = last_effective(u, "DynamicUser"),
                      *wd = last_effective(u, "WorkingDirectory");
        bool private_tmp = false;
        int r;

        /* PrivateTmp=yes bind-mounts directories below /tmp and /var/tmp; "disconnected" (257) uses a tmpfs */
        if (pt && lint_bool(pt->value) > 0)
                private_tmp = true;
        else if (!pt && du && lint_bool(du->value) > 0 && feature_enabled(fs, FEATURE_DYNAMIC_USER_PRIVATE_TMP))
                private_tmp = true, pt = du;
        if (private_tmp) {
                if (add(ret, "/tmp", LINT_PATH_PRIVATE_TMP, pt) < 0 || add(ret, "/var/tmp", LINT_PATH_PRIVATE_TMP, pt) < 0)
                        return -ENOMEM;
        }
        if (feature_enabled(fs, FEATURE_EXEC_DIRECTORIES)) {
                static const struct {
                        const char *key, *base;
                } dirs[] = {
                        { "StateDirectory", "/var/lib" },
                        { "CacheDirectory", "/var/cache" },
                        { "LogsDirectory", "/var/log" },
                        { "ConfigurationDirectory", "/etc" },
                };
                for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                        r = add_words(u, rules, fs, dirs[i].key, dirs[i].base, LINT_PATH_DIRECTORY, ret);
                        if (r < 0)
                                return r;
                }
        }
        r = add_words(u, rules, fs, "ReadWritePaths", NULL, LINT_PATH_READ_WRITE, ret);
        if (r >= 0)
                r = add_words(u, rules, fs, "ReadWriteDirectories", NULL, LINT_PATH_READ_WRITE, ret);
        if (r < 0)
                return r;
        /* "-" says a missing directory is fine: then it need not be mounted in time either */
        if (wd && !isempty(wd->value) && wd->value[0] == '/' && !strchr(wd->value, '%') &&
            add(ret, wd->value, LINT_PATH_WORKING_DIR, wd) < 0)
                return -ENOMEM;
        return 0;
}
