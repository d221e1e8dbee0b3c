/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The properties of a transient unit (transient.h): kept per name, appended to StartTransientUnit as (sv),
 * formatted back as "Name=value" for reports. */

#include <inttypes.h>

#include "live/transient.h"

static void prop_done(TransientProp *p) {
        free(p->name);
        free(p->s);
        strv_free(p->strv);
        strv_free(p->strv2);
        free(p->flags);
        free(p->ignore);
        free(p->origin);
        *p = (TransientProp) {};
}

void transient_props_done(TransientProps *p) {
        for (size_t i = 0; i < p->n; i++)
                prop_done(&p->props[i]);
        free(p->props);
        *p = (TransientProps) {};
}

TransientProp *transient_props_add(TransientProps *p, const char *name, TransientPropKind kind,
                                   const char *origin) {
        TransientProp *x = NULL;

        for (size_t i = 0; i < p->n; i++)
                if (streq(p->props[i].name, name)) {
                        x = &p->props[i];
                        prop_done(x);
                        break;
                }
        if (!x) {
                if (GREEDY_REALLOC(p->props, p->allocated, p->n + 1) < 0)
                        return NULL;
                x = &p->props[p->n++];
        }
        *x = (TransientProp) { .name = strdup(name), .kind = kind };
        if (origin)
                x->origin = strdup(origin);
        if (!x->name || (origin && !x->origin)) {
                prop_done(x);
                p->n--;
                return NULL;
        }
        return x;
}

const TransientProp *transient_props_get(const TransientProps *p, const char *name) {
        for (size_t i = 0; i < p->n; i++)
                if (streq(p->props[i].name, name))
                        return &p->props[i];
        return NULL;
}

static int append_one(const TransientProp *p, sd_bus_message *m) {
        size_t n;
        int r;

        r = sd_bus_message_open_container(m, 'r', "sv");
        if (r < 0)
                return r;
        r = sd_bus_message_append(m, "s", p->name);
        if (r < 0)
                return r;
        switch (p->kind) {
        case TPROP_BOOL:
                r = sd_bus_message_append(m, "v", "b", (int) p->b);
                break;
        case TPROP_STRING:
                r = sd_bus_message_append(m, "v", "s", strempty(p->s));
                break;
        case TPROP_U32:
                r = sd_bus_message_append(m, "v", "u", p->u);
                break;
        case TPROP_STRV:
                r = sd_bus_message_open_container(m, 'v', "as");
                if (r >= 0)
                        r = sd_bus_message_append_strv(m, p->strv);
                if (r >= 0)
                        r = sd_bus_message_close_container(m);
                break;
        case TPROP_EXEC:
                r = sd_bus_message_open_container(m, 'v', "a(sasb)");
                if (r >= 0)
                        r = sd_bus_message_open_container(m, 'a', "(sasb)");
                if (r >= 0)
                        r = sd_bus_message_open_container(m, 'r', "sasb");
                if (r >= 0)
                        r = sd_bus_message_append(m, "s", p->s);
                if (r >= 0)
                        r = sd_bus_message_append_strv(m, p->strv);
                if (r >= 0)
                        r = sd_bus_message_append(m, "b", (int) p->exec_ignore_failure);
                for (int k = 0; k < 3 && r >= 0; k++)
                        r = sd_bus_message_close_container(m);
                break;
        case TPROP_BINDS:
                n = strv_length(p->strv);
                r = sd_bus_message_open_container(m, 'v', "a(ssbt)");
                if (r >= 0)
                        r = sd_bus_message_open_container(m, 'a', "(ssbt)");
                for (size_t i = 0; i < n && r >= 0; i++)
                        r = sd_bus_message_append(m, "(ssbt)", p->strv[i], p->strv2[i], (int) p->ignore[i],
                                                  p->flags[i]);
                for (int k = 0; k < 2 && r >= 0; k++)
                        r = sd_bus_message_close_container(m);
                break;
        case TPROP_TMPFS:
                n = strv_length(p->strv);
                r = sd_bus_message_open_container(m, 'v', "a(ss)");
                if (r >= 0)
                        r = sd_bus_message_open_container(m, 'a', "(ss)");
                for (size_t i = 0; i < n && r >= 0; i++)
                        r = sd_bus_message_append(m, "(ss)", p->strv[i], p->strv2[i]);
                for (int k = 0; k < 2 && r >= 0; k++)
                        r = sd_bus_message_close_container(m);
                break;
        default:
                r = -EINVAL;
        }
        if (r < 0)
                return r;
        return sd_bus_message_close_container(m);
}

int transient_props_append(const TransientProps *p, sd_bus_message *m) {
        for (size_t i = 0; p && i < p->n; i++) {
                int r = append_one(&p->props[i], m);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int strv_join_to(char **out, size_t *len, size_t *cap, const char *s) {
        size_t l = strlen(s);
        if (*len + l + 2 > *cap) {
                size_t c = MAX(*cap * 2, *len + l + 64);
                char *x = realloc(*out, c);
                if (!x)
                        return -ENOMEM;
                *out = x;
                *cap = c;
        }
        memcpy(*out + *len, s, l + 1);
        *len += l;
        return 0;
}

char *transient_prop_format(const TransientProp *p) {
        _cleanup_(freep) char *out = NULL;
        size_t len = 0, cap = 0;
        char buf[32];
        int r;

        r = strv_join_to(&out, &len, &cap, p->name);
        if (r >= 0)
                r = strv_join_to(&out, &len, &cap, "=");
        switch (p->kind) {
        case TPROP_BOOL:
                if (r >= 0)
                        r = strv_join_to(&out, &len, &cap, p->b ? "yes" : "no");
                break;
        case TPROP_STRING:
                if (r >= 0)
                        r = strv_join_to(&out, &len, &cap, strempty(p->s));
                break;
        case TPROP_U32:
                snprintf(buf, sizeof buf, "%" PRIu32, p->u);
                if (r >= 0)
                        r = strv_join_to(&out, &len, &cap, buf);
                break;
        case TPROP_EXEC:
                if (r >= 0 && p->exec_ignore_failure)
                        r = strv_join_to(&out, &len, &cap, "-");
                if (r >= 0)
                        r = strv_join_to(&out, &len, &cap, p->s);
                for (size_t i = 1; r >= 0 && p->strv && p->strv[0] && p->strv[i]; i++) {
                        r = strv_join_to(&out, &len, &cap, " ");
                        if (r >= 0)
                                r = strv_join_to(&out, &len, &cap, p->strv[i]);
                }
                break;
        case TPROP_STRV:
        case TPROP_BINDS:
        case TPROP_TMPFS:
                for (size_t i = 0; r >= 0 && p->strv && p->strv[i]; i++) {
                        if (i > 0)
                                r = strv_join_to(&out, &len, &cap, " ");
                        if (r >= 0 && p->kind == TPROP_BINDS && p->ignore[i])
                                r = strv_join_to(&out, &len, &cap, "-");
                        if (r >= 0)
                                r = strv_join_to(&out, &len, &cap, p->strv[i]);
                        if (r >= 0 && p->kind != TPROP_STRV && !isempty(p->strv2[i])) {
                                r = strv_join_to(&out, &len, &cap, ":");
                                if (r >= 0)
                                        r = strv_join_to(&out, &len, &cap, p->strv2[i]);
                        }
                }
                break;
        default:
                break;
        }
        return r < 0 ? NULL : TAKE_PTR(out);
}
