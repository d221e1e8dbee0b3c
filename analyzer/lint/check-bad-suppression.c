/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bad-suppression: a "# bootrace: ignore" comment in the unit's files that can never suppress anything: it names a
 * check that does not exist (a typo: the finding it meant to silence stays, and so does the comment), or none. */

#include "lint/check-common.h"

int check_bad_suppression(const LintContext *c, ModelUnit *u, FindingList *out) {
        for (size_t k = 0; k < u->unit->n_sources; k++) {
                const Source *src = &u->unit->sources[k];
                bool seen = false;

                /* a file read twice for the unit (an alias's drop-in directory is the unit's too) is said once */
                for (size_t j = 0; j < k; j++)
                        seen = seen || streq(u->unit->sources[j].path, src->path);
                if (seen || src->masked)
                        continue;
                for (size_t i = 0; i < src->n_ignores; i++) {
                        const SourceIgnore *ig = &src->ignores[i];

                        if (!ig->checks[0] &&
                            !lint_finding(c, out, "bad-suppression", u, src->path, ig->line,
                                          "\"bootrace: ignore\" names no check, so it suppresses nothing; name the "
                                          "checks (or \"all\"), then \"-- reason\""))
                                return -ENOMEM;
                        STRV_FOREACH(id, ig->checks) {
                                const char *close;

                                if (streq(*id, "all") || rules_check_lookup(c->rules, *id))
                                        continue;
                                close = rules_suggest_check(c->rules, *id);
                                if (!lint_finding(c, out, "bad-suppression", u, src->path, ig->line,
                                                  "unknown check \"%s\" in an ignore comment: it suppresses "
                                                  "nothing%s%s%s; 'bootrace explain' lists the checks", *id,
                                                  close ? " (did you mean \"" : "", strempty(close),
                                                  close ? "\"?)" : ""))
                                        return -ENOMEM;
                        }
                }
        }
        return 0;
}
