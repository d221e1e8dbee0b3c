/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "report/report.h"

#define ANSI_RED "\033[1;31m"
#define ANSI_YELLOW "\033[1;33m"
#define ANSI_BLUE "\033[1;34m"
#define ANSI_GREY "\033[0;90m"
#define ANSI_RESET "\033[0m"

static const char *severity_color(Severity s) {
        return s == SEVERITY_ERROR ? ANSI_RED : s == SEVERITY_WARNING ? ANSI_YELLOW : ANSI_BLUE;
}

int report_text(const FindingList *l, const ReportMeta *m, FILE *f) {
        size_t n_sev[_SEVERITY_MAX] = {}, n_suppressed = 0;

        if (m->nearest_note) /* also with -q: the findings were judged with another version than asked for */
                fprintf(f, "note: %s\n", m->nearest_note);
        for (size_t i = 0; i < l->n; i++) {
                const Finding *x = &l->items[i];

                if (x->suppressed) {
                        n_suppressed++;
                        continue;
                }
                /* file names (also in messages and evidence) come from the tree: a newline or an escape
                 * sequence in one must not forge report lines or drive the terminal */
                _cleanup_(freep) char *file = x->file ? escape_control(x->file) : NULL,
                                      *msg = x->message ? escape_control(x->message) : NULL;

                n_sev[x->severity]++;
                if (x->file && x->line > 0)
                        fprintf(f, "%s:%u: ", strna(file), x->line);
                else if (x->file)
                        fprintf(f, "%s: ", strna(file));
                else if (x->unit)
                        fprintf(f, "%s: ", x->unit);
                fprintf(f, "%s%s%s: [%s] %s\n", m->color ? severity_color(x->severity) : "",
                        severity_to_string(x->severity), m->color ? ANSI_RESET : "", x->check, strna(msg));
                STRV_FOREACH(e, x->evidence) {
                        _cleanup_(freep) char *ev = escape_control(*e);
                        fprintf(f, "    %s%s%s\n", m->color ? ANSI_GREY : "", strna(ev),
                                m->color ? ANSI_RESET : "");
                }
                if (x->fix) {
                        fprintf(f, "    fix:\n");
                        for (const char *p = x->fix; *p;) {
                                size_t n = strcspn(p, "\n");
                                fprintf(f, "      %.*s\n", (int) n, p);
                                p += n + (p[n] == '\n');
                        }
                }
        }
        if (!m->quiet)
                fprintf(f, "%zu error%s, %zu warning%s, %zu info (%zu suppressed), systemd %u%s%s\n",
                        n_sev[SEVERITY_ERROR], n_sev[SEVERITY_ERROR] == 1 ? "" : "s", n_sev[SEVERITY_WARNING],
                        n_sev[SEVERITY_WARNING] == 1 ? "" : "s", n_sev[SEVERITY_INFO], n_suppressed, m->systemd,
                        m->target ? " for " : "", strempty(m->target));
        return ferror(f) ? -EIO : 0;
}
