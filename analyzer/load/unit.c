/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/unit.h"

static const char * const load_state_table[_LOAD_STATE_MAX] = {
        [LOAD_LOADED] = "loaded",       [LOAD_NOT_FOUND] = "not-found", [LOAD_BAD_SETTING] = "bad-setting",
        [LOAD_ERROR] = "error",         [LOAD_MASKED] = "masked",
};

const char *load_state_to_string(LoadState s) {
        return s >= 0 && s < _LOAD_STATE_MAX ? load_state_table[s] : NULL;
}

static const char * const link_kind_table[_LINK_KIND_MAX] = {
        [LINK_WANTS] = "Wants",
        [LINK_REQUIRES] = "Requires",
        [LINK_UPHOLDS] = "Upholds",
};
static const char * const link_suffix_table[_LINK_KIND_MAX] = {
        [LINK_WANTS] = ".wants",
        [LINK_REQUIRES] = ".requires",
        [LINK_UPHOLDS] = ".upholds",
};

const char *link_kind_to_string(LinkKind k) {
        return k >= 0 && k < _LINK_KIND_MAX ? link_kind_table[k] : NULL;
}

const char *link_kind_dir_suffix(LinkKind k) {
        return k >= 0 && k < _LINK_KIND_MAX ? link_suffix_table[k] : NULL;
}

void unit_set_id(Unit *u, char *id) {
        if (u->id && streq(u->id, id)) {
                free(id);
                return;
        }
        if (!u->requested)
                u->requested = u->id;
        else
                free(u->id);
        u->id = id;
}

Unit *unit_free(Unit *u) {
        if (!u)
                return NULL;
        free(u->id);
        free(u->requested);
        free(u->fragment_path);
        free(u->fragment_link);
        strv_free(u->names);
        for (size_t i = 0; i < u->n_sources; i++) {
                if (!u->sources[i].shared)
                        free(u->sources[i].path);
                free(u->sources[i].pool); /* the settings' strings */
                source_ignores_free(u->sources[i].ignores, u->sources[i].n_ignores);
        }
        free(u->sources);
        free(u->settings);
        for (size_t i = 0; i < u->n_links; i++) {
                free(u->links[i].name);
                free(u->links[i].path);
                free(u->links[i].target);
        }
        free(u->links);
        free(u);
        return NULL;
}

size_t unit_find_settings(const Unit *u, const char *section, const char *key, const Setting **ret, size_t max) {
        size_t n = 0;
        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                if (streq(s->key, key) && streq(s->section, section)) {
                        if (n < max)
                                ret[n] = s;
                        n++;
                }
        }
        return n;
}

const Setting *unit_last_setting(const Unit *u, const char *section, const char *key) {
        for (size_t i = u->n_settings; i > 0; i--) {
                const Setting *s = &u->settings[i - 1];
                if (streq(s->key, key) && streq(s->section, section))
                        return s;
        }
        return NULL;
}
