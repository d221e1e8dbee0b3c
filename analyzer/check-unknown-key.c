/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unknown-key: assignments systemd ignores because it does not know the key there (or not in this version), and
 * sections it skips. A typo can hide the very setting the other checks judge. */

#include "check-common.h"

int check_unknown_key(const LintContext *c, ModelUnit *u, FindingList *out) {
        for (size_t i = 0; i < u->unit->n_settings; i++) {
                const Setting *s = &u->unit->settings[i];
                const char *file = u->unit->sources[s->source].path;
                const KeyInfo *any;
                Finding *f = NULL;

                if (!u->st)
                        break;
                switch (u->st[i]) {
                case SETTING_UNKNOWN_KEY:
                        any = rules_key_lookup_any(c->rules, s->key);
                        if (any)
                                f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                                 "%s= does not belong in [%s] of a %s unit (it goes in [%s]); systemd "
                                                 "ignores it",
                                                 s->key, s->section, unit_type_to_string(u->unit->type), any->section);
                        else
                                f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                                 "unknown key %s= in [%s]; systemd ignores it", s->key, s->section);
                        break;
                case SETTING_UNSUPPORTED:
                        any = rules_key_lookup_any(c->rules, s->key);
                        f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                         "%s= is not known to systemd %u (%s %u); it is ignored there", s->key,
                                         c->version, any && any->since > c->version ? "it appeared in" : "removed after",
                                         any ? (any->since > c->version ? any->since : any->until) : 0);
                        break;
                case SETTING_UNKNOWN_SECTION:
                        f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                         "section [%s] is unknown for a %s unit; systemd ignores %s=", s->section,
                                         unit_type_to_string(u->unit->type), s->key);
                        break;
                default:
                        continue;
                }
                if (!f)
                        return -ENOMEM;
        }
        /* sections the parser skipped never became settings: their warnings name the file and line */
        for (size_t i = 0; c->diags && i < c->diags->n; i++) {
                const Diag *d = &c->diags->items[i];
                bool ours = false;

                if (!d->file || !strstr(d->message, "unknown section"))
                        continue;
                for (size_t k = 0; k < u->unit->n_sources; k++)
                        if (streq(u->unit->sources[k].path, d->file))
                                ours = true;
                if (ours && !lint_finding(c, out, "unknown-key", u, d->file, d->line, "%s", d->message))
                        return -ENOMEM;
        }
        return 0;
}
