/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SARIF 2.1.0 (OASIS): one run, the checks as rules of the driver, one result per finding. */

#include <ctype.h>
#include <limits.h>

#include "basic/json.h"
#include "fix/fix-search.h"
#include "report/report.h"

/* Relative URIs are resolved against the checkout (the convention of code scanning); the members of a .deb
 * against a base of their own, "PACKAGE<n>", which originalUriBaseIds defines as "FILE.deb/" relative to it. */
#define SRCROOT "%SRCROOT%"

static const char *sarif_level(Severity s) {
        return s == SEVERITY_ERROR ? "error" : s == SEVERITY_WARNING ? "warning" : "note";
}

static void message(JsonWriter *w, const char *key, const char *text) {
        json_key(w, key);
        json_begin_object(w);
        json_kv_string(w, "text", text);
        json_end_object(w);
}

/* Relative paths are URI references as they are; absolute ones become file:// URIs. Characters that URIs do
 * not allow are percent-encoded. */
static char *path_to_uri(const char *p) {
        static const char hex[] = "0123456789ABCDEF";
        size_t n = strlen(p);
        char *r = malloc(n * 3 + 8), *o = r;

        if (!r)
                return NULL;
        if (p[0] == '/') {
                memcpy(o, "file://", 7);
                o += 7;
        } else if (memchr(p, ':', strcspn(p, "/"))) {
                /* "foo_1.0_all.deb:lib/..." would read as a URI scheme: a dot-segment first (RFC 3986 4.2) */
                memcpy(o, "./", 2);
                o += 2;
        }
        for (; *p; p++) {
                unsigned char c = (unsigned char) *p;
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    strchr("/-._~:@!$&'()*+,;=", c))
                        *o++ = (char) c;
                else {
                        *o++ = '%';
                        *o++ = hex[c >> 4];
                        *o++ = hex[c & 15];
                }
        }
        *o = 0;
        return r;
}

/* A package's file as the findings name it: lint makes their paths relative to the working directory. */
static char *package_display(const Package *p) {
        _cleanup_(freep) char *cwd = getcwd(NULL, 0);

        return cwd && !streq(cwd, "/") ? path_text_relative(p->file, cwd) : strdup(p->file);
}

/* The package (an archive, not a tree) whose member the display path p is, or -1; *ret_skip: the length of
 * its "FILE:" prefix. */
static ssize_t package_of(const PackageSet *ps, const char *p, size_t *ret_skip) {
        for (size_t i = 0; ps && i < ps->n_packages; i++) {
                const Package *k = &ps->packages[i];
                _cleanup_(freep) char *d = NULL;
                size_t n;

                if (k->tree || k->data || !k->file)
                        continue;
                if (!(d = package_display(k)))
                        return -1;
                n = strlen(d);
                if ((strncmp(p, d, n) == 0 && p[n] == ':' && p[n + 1]) ||
                    (n = strlen(k->file), strncmp(p, k->file, n) == 0 && p[n] == ':' && p[n + 1])) {
                        *ret_skip = n + 1;
                        return (ssize_t) i;
                }
        }
        return -1;
}

/* "uri" and "uriBaseId" of an artifactLocation for the display path p. */
static void artifact_location(JsonWriter *w, const ReportMeta *m, const char *p) {
        size_t skip = 0;
        ssize_t k = package_of(m ? m->packages : NULL, p, &skip);
        _cleanup_(freep) char *uri = NULL;

        json_key(w, "artifactLocation");
        json_begin_object(w);
        if (k >= 0) {
                char base[32];
                /* the member path: a relative reference, a leading "./" where its first segment has a ':' */
                uri = path_to_uri(p + skip);
                snprintf(base, sizeof base, "PACKAGE%zu", (size_t) k + 1);
                json_kv_string(w, "uri", uri);
                json_kv_string(w, "uriBaseId", base);
        } else {
                uri = path_to_uri(p);
                json_kv_string(w, "uri", uri);
                if (p[0] != '/')
                        json_kv_string(w, "uriBaseId", SRCROOT);
        }
        json_end_object(w);
}

/* A physicalLocation for file:line (line 0: no region), into the location object w is writing. */
static void physical_location(JsonWriter *w, const ReportMeta *m, const char *file, unsigned line) {
        json_key(w, "physicalLocation");
        json_begin_object(w);
        artifact_location(w, m, file);
        if (line > 0) {
                json_key(w, "region");
                json_begin_object(w);
                json_kv_uint(w, "startLine", line);
                json_end_object(w);
        }
        json_end_object(w);
}

/* A physicalLocation's array "locations" for file:line (line 0: no region). */
static void locations(JsonWriter *w, const ReportMeta *m, const char *file, unsigned line) {
        json_key(w, "locations");
        json_begin_array(w);
        json_begin_object(w);
        physical_location(w, m, file, line);
        json_end_object(w);
        json_end_array(w);
}

/* originalUriBaseIds: each .deb read, as the base of its members' URIs. */
static void uri_base_ids(JsonWriter *w, const ReportMeta *m) {
        const PackageSet *ps = m->packages;
        bool any = false;

        for (size_t i = 0; ps && i < ps->n_packages; i++) {
                const Package *p = &ps->packages[i];
                _cleanup_(freep) char *uri = NULL, *dir = NULL, *what = NULL, *file = NULL;
                char base[32];

                if (p->tree || p->data || !p->file)
                        continue;
                if (!(file = package_display(p)))
                        continue;
                if (!any) {
                        json_key(w, "originalUriBaseIds");
                        json_begin_object(w);
                }
                any = true;
                snprintf(base, sizeof base, "PACKAGE%zu", i + 1);
                dir = strjoin(file, "/");
                uri = dir ? path_to_uri(dir) : NULL;
                json_key(w, base);
                json_begin_object(w);
                json_kv_string(w, "uri", uri);
                if (file[0] != '/')
                        json_kv_string(w, "uriBaseId", SRCROOT);
                if (asprintf_safe(&what, "the members of the Debian package %s (%s %s %s)", file,
                                  strna(p->name), strna(p->version), strna(p->architecture)) >= 0)
                        message(w, "description", what);
                json_end_object(w);
        }
        if (any)
                json_end_object(w);
}

/* A reference "PATH:LINE" in an evidence line to a unit file, drop-in or tmpfiles.d file (rules data such as
 * "target-tmpfiles.xml:90" is no file of the code scanned). Returns true with *ret_path (owned) and *ret_line. */
static bool evidence_ref(const char *text, const char *file, char **ret_path, unsigned *ret_line) {
        static const char delims[] = " ()[],;\"";

        for (const char *t = text + strspn(text, delims); *t; t += strspn(t, delims)) {
                size_t n = strcspn(t, delims), k;
                _cleanup_(freep) char *tok = strndup(t, n), *p = NULL;
                char *colon, *end;
                unsigned long line;

                t += n;
                if (!tok)
                        return false;
                for (k = strlen(tok); k > 0 && strchr(".:", tok[k - 1]); k--)
                        tok[k - 1] = 0; /* sentence punctuation */
                colon = strrchr(tok, ':');
                if (!colon || colon == tok || !isdigit((unsigned char) colon[1]))
                        continue;
                line = strtoul(colon + 1, &end, 10);
                if (*end || line == 0 || line > UINT_MAX)
                        continue;
                *colon = 0;
                if (!(file && streq(tok, file)) &&
                    (!strchr(tok, '/') || endswith(tok, ".xml") || endswith(tok, ".c") || endswith(tok, ".md")))
                        continue;
                if (!(p = strdup(tok)))
                        return false;
                *ret_path = TAKE_PTR(p);
                *ret_line = (unsigned) line;
                return true;
        }
        return false;
}

/* Code points of s[0..n): SARIF columns, with columnKind "unicodeCodePoints". */
static unsigned code_points(const char *s, size_t n) {
        unsigned c = 0;
        for (size_t i = 0; i < n; i++)
                c += ((unsigned char) s[i] & 0xc0) != 0x80;
        return c;
}

static void region(JsonWriter *w, const char *key, unsigned l1, unsigned c1, unsigned l2, unsigned c2) {
        json_key(w, key);
        json_begin_object(w);
        json_kv_uint(w, "startLine", l1);
        json_kv_uint(w, "startColumn", c1);
        json_kv_uint(w, "endLine", l2);
        json_kv_uint(w, "endColumn", c2);
        json_end_object(w);
}

static void replacement(JsonWriter *w, unsigned l1, unsigned c1, unsigned l2, unsigned c2, const char *text,
                        size_t n) {
        json_begin_object(w);
        region(w, "deletedRegion", l1, c1, l2, c2);
        json_key(w, "insertedContent");
        json_begin_object(w);
        json_key(w, "text");
        json_string_n(w, text, n);
        json_end_object(w);
        json_end_object(w);
}

/* A unified diff's hunks as replacements: each hunk replaces its old lines (context included) by its new
 * ones, from the start of its first old line to the end of its last (the newline after it stays). */
static int diff_replacements(JsonWriter *w, const char *diff) {
        const char *l = diff;

        json_key(w, "replacements");
        json_begin_array(w);
        while (l && *l) {
                unsigned a, b = 1, c, d = 1;
                const char *eol = strchrnul(l, '\n');
                _cleanup_(freep) char *text = NULL;
                size_t len = 0, last_len = 0;
                FILE *f;
                bool first = true;

                if (!startswith(l, "@@ ") ||
                    (sscanf(l, "@@ -%u,%u +%u,%u @@", &a, &b, &c, &d) != 4 &&
                     sscanf(l, "@@ -%u +%u,%u @@", &a, &c, &d) != 3 && sscanf(l, "@@ -%u,%u +%u @@", &a, &b, &c) != 3 &&
                     sscanf(l, "@@ -%u +%u @@", &a, &c) != 2)) {
                        l = *eol ? eol + 1 : NULL;
                        continue;
                }
                f = open_memstream(&text, &len);
                if (!f)
                        return -ENOMEM;
                for (l = *eol ? eol + 1 : NULL; l && *l && !startswith(l, "@@ "); l = *eol ? eol + 1 : NULL) {
                        eol = strchrnul(l, '\n');
                        if (*l == ' ' || *l == '-')
                                last_len = code_points(l + 1, (size_t) (eol - l - 1));
                        if (*l == ' ' || *l == '+') {
                                fprintf(f, "%s%.*s", first ? "" : "\n", (int) (eol - l - 1), l + 1);
                                first = false;
                        }
                }
                if (fclose(f) != 0)
                        return -ENOMEM;
                if (b == 0) /* nothing old (a new file): insert before line a + 1 */
                        replacement(w, a + 1, 1, a + 1, 1, text, len);
                else
                        replacement(w, a, 1, a + b - 1, (unsigned) last_len + 1, text, len);
        }
        json_end_array(w);
        return 0;
}

/* Where the fix goes: the new drop-in, or the file and the first line of the diff's first hunk. Returns the
 * path (owned), NULL on OOM. */
static char *fix_target(const Finding *x, bool *ret_diff, unsigned *ret_line) {
        const char *h = strstr(x->fix, "\n@@ -");
        unsigned a = 0;

        *ret_diff = startswith(x->fix, "--- ") || h;
        *ret_line = 0;
        if (!*ret_diff)
                return strjoin(x->file, ".d/", FIX_DROPIN_NAME);
        if (h && sscanf(h, "\n@@ -%u", &a) == 1)
                *ret_line = MAX(a, 1u);
        return strdup(x->file);
}

/* fixes[]: the repair lint proposes, as the change of an artifact: a new drop-in next to the unit file (the
 * drop-in form), or the edit of the file (a unified diff). */
static void fixes(JsonWriter *w, const ReportMeta *m, const Finding *x) {
        _cleanup_(freep) char *dropin = NULL, *desc = NULL, *text = NULL;
        unsigned line;
        bool diff;

        if (!x->file || !(dropin = fix_target(x, &diff, &line)))
                return;
        if (asprintf_safe(&desc, "%s%s", diff ? "edit " : "new drop-in ", dropin) < 0)
                return;
        if (x->fix_details && x->fix_details->candidate) {
                char *n = NULL;
                if (asprintf_safe(&n, "%s: %s", x->fix_details->candidate, desc) < 0)
                        return;
                free(desc);
                desc = n;
        }
        json_key(w, "fixes");
        json_begin_array(w);
        json_begin_object(w);
        message(w, "description", desc);
        json_key(w, "artifactChanges");
        json_begin_array(w);
        json_begin_object(w);
        artifact_location(w, m, dropin);
        if (diff)
                (void) diff_replacements(w, x->fix);
        else {
                json_key(w, "replacements");
                json_begin_array(w);
                text = strjoin(x->fix, "\n");
                if (text)
                        replacement(w, 1, 1, 1, 1, text, strlen(text));
                json_end_array(w);
        }
        json_end_object(w);
        json_end_array(w);
        json_end_object(w);
        json_end_array(w);
}

/* Markdown may not open markup from what a unit file says: escape its punctuation. */
static void md_escaped(FILE *f, const char *s) {
        for (; *s; s++) {
                if (strchr("\\`*_[]<>#|~", *s))
                        fputc('\\', f);
                fputc(*s == '\n' ? ' ' : *s, f);
        }
}

/* message.text (plain) and message.markdown: the message, the evidence as a list linked to its related
 * locations ([text](id)), and the fix as a code block. Code scanning does not show "properties". */
static void result_message(JsonWriter *w, const Finding *x, const bool *linked) {
        _cleanup_(freep) char *text = NULL, *md = NULL;
        size_t tn = 0, mn = 0;
        FILE *t = open_memstream(&text, &tn), *m = open_memstream(&md, &mn);
        size_t i = 0;

        if (!t || !m) {
                if (t)
                        fclose(t);
                if (m)
                        fclose(m);
                return message(w, "message", x->message);
        }
        fputs(x->message, t);
        md_escaped(m, x->message);
        if (x->profile) {
                fprintf(t, " (%s)", x->profile);
                fputs(" \\(", m);
                md_escaped(m, x->profile);
                fputs("\\)", m);
        }
        if (x->evidence && x->evidence[0])
                fputs("\n\nEvidence:\n", m);
        STRV_FOREACH(e, x->evidence) {
                const char *line = *e + strspn(*e, " ");
                fprintf(t, "\n%s", *e);
                fprintf(m, "%*s- ", (int) (strspn(*e, " ") / 2 * 2), "");
                if (linked[i]) {
                        fputc('[', m);
                        md_escaped(m, line);
                        fprintf(m, "](%zu)\n", i + 1);
                } else {
                        md_escaped(m, line);
                        fputc('\n', m);
                }
                i++;
        }
        if (x->fix) {
                fprintf(t, "\nFix:\n%s", x->fix);
                size_t k = strv_length(x->evidence);
                fputs("\nFix", m);
                if (x->fix_details && x->fix_details->candidate) {
                        fputs(" ", m);
                        md_escaped(m, x->fix_details->candidate);
                }
                if (x->file && linked[k])
                        fprintf(m, " ([where](%zu))", k + 1);
                fprintf(m, ":\n\n```%s\n%.*s\n```\n", startswith(x->fix, "--- ") ? "diff" : "ini",
                        (int) (strlen(x->fix) - (endswith(x->fix, "\n") != NULL)), x->fix);
        }
        if (fclose(t) != 0 || fclose(m) != 0)
                return message(w, "message", x->message);
        json_key(w, "message");
        json_begin_object(w);
        json_kv_string(w, "text", text);
        json_kv_string(w, "markdown", md);
        json_end_object(w);
}

/* relatedLocations: one per evidence line (id = its number), with the file and line it names if any. */
static int related_locations(JsonWriter *w, const ReportMeta *m, const Finding *x, bool **ret_linked) {
        size_t n = strv_length(x->evidence);
        _cleanup_(freep) bool *linked = calloc(n + 1, sizeof(bool));

        if (!linked)
                return -ENOMEM;
        if (n > 0) {
                json_key(w, "relatedLocations");
                json_begin_array(w);
        }
        for (size_t i = 0; i < n; i++) {
                _cleanup_(freep) char *path = NULL;
                unsigned line = 0;
                json_begin_object(w);
                json_kv_uint(w, "id", i + 1);
                if (evidence_ref(x->evidence[i], x->file, &path, &line)) {
                        physical_location(w, m, path, line);
                        linked[i] = true;
                }
                message(w, "message", x->evidence[i] + strspn(x->evidence[i], " "));
                json_end_object(w);
        }
        if (x->fix && x->file) {
                /* the fix, last: where it goes */
                _cleanup_(freep) char *path = NULL, *what = NULL;
                unsigned line;
                bool diff;
                if (!(path = fix_target(x, &diff, &line)) ||
                    asprintf_safe(&what, "fix%s%s%s: %s %s", x->fix_details && x->fix_details->candidate ? " (" : "",
                                  x->fix_details && x->fix_details->candidate ? x->fix_details->candidate : "",
                                  x->fix_details && x->fix_details->candidate ? ")" : "",
                                  diff ? "edit" : "new drop-in", path) < 0)
                        return -ENOMEM;
                if (n == 0) {
                        json_key(w, "relatedLocations");
                        json_begin_array(w);
                }
                json_begin_object(w);
                json_kv_uint(w, "id", n + 1);
                physical_location(w, m, path, line);
                message(w, "message", what);
                json_end_object(w);
                linked[n] = true;
                n++;
        }
        if (n > 0)
                json_end_array(w);
        *ret_linked = TAKE_PTR(linked);
        return 0;
}

/* invocations: whether everything asked for could be judged, and each thing that could not as an error
 * notification (GitHub code scanning shows them as tool errors). */
static void invocations(JsonWriter *w, const DiagList *errors) {
        /* errors name files as given: packages too ("FILE.deb"), never their members */
        json_key(w, "invocations");
        json_begin_array(w);
        json_begin_object(w);
        json_kv_bool(w, "executionSuccessful", !errors || errors->n == 0);
        if (errors && errors->n > 0) {
                json_key(w, "toolExecutionNotifications");
                json_begin_array(w);
                for (size_t i = 0; i < errors->n; i++) {
                        json_begin_object(w);
                        json_kv_string(w, "level", "error");
                        message(w, "message", errors->items[i].message);
                        if (errors->items[i].file)
                                locations(w, NULL, errors->items[i].file, errors->items[i].line);
                        json_end_object(w);
                }
                json_end_array(w);
        }
        json_end_object(w);
        json_end_array(w);
}

/* help: what code scanning shows of a rule, the explanation and its references (markdown). */
static void rule_help(JsonWriter *w, const CheckInfo *c) {
        _cleanup_(freep) char *md = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&md, &n);

        if (!f)
                return;
        fprintf(f, "**%s** (`%s`)\n\n", c->title, c->id);
        md_escaped(f, strempty(c->explanation));
        fputc('\n', f);
        for (size_t i = 0; c->references && c->references[i]; i++) {
                const char *url = c->reference_urls && !isempty(c->reference_urls[i]) ? c->reference_urls[i] : NULL;
                fputs(i == 0 ? "\nReferences:\n- " : "- ", f);
                if (url)
                        fputc('[', f);
                md_escaped(f, c->references[i]);
                if (url)
                        fprintf(f, "](%s)", url);
                fputc('\n', f);
        }
        if (fclose(f) != 0)
                return;
        json_key(w, "help");
        json_begin_object(w);
        json_kv_string(w, "text", strempty(c->explanation));
        json_kv_string(w, "markdown", md);
        json_end_object(w);
}

int report_sarif(const FindingList *l, const ReportMeta *m, FILE *f) {
        return report_sarif_runs(&(ReportRun) { .findings = l, .meta = m }, 1, f);
}

int report_sarif_runs(const ReportRun *runs, size_t n, FILE *f) {
        JsonWriter w;

        json_init(&w, f, true);
        json_begin_object(&w);
        json_kv_string(&w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        json_kv_string(&w, "version", "2.1.0");
        json_key(&w, "runs");
        json_begin_array(&w);
        for (size_t i = 0; i < n; i++)
                report_sarif_run(&w, runs[i].findings, runs[i].meta);
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
        return ferror(f) ? -EIO : 0;
}

void report_sarif_run(JsonWriter *w, const FindingList *l, const ReportMeta *m) {
        size_t n_rules = rules_check_count(m->rules);

        json_begin_object(w);

        json_key(w, "tool");
        json_begin_object(w);
        json_key(w, "driver");
        json_begin_object(w);
        json_kv_string(w, "name", "bootrace");
        json_kv_string(w, "version", m->tool_version);
        json_key(w, "rules");
        json_begin_array(w);
        for (size_t i = 0; i < n_rules; i++) {
                const CheckInfo *c = rules_check_get(m->rules, i);
                json_begin_object(w);
                json_kv_string(w, "id", c->id);
                message(w, "shortDescription", c->title);
                message(w, "fullDescription", c->explanation);
                rule_help(w, c);
                if (c->reference_urls && !isempty(c->reference_urls[0]))
                        json_kv_string(w, "helpUri", c->reference_urls[0]);
                json_key(w, "defaultConfiguration");
                json_begin_object(w);
                json_kv_string(w, "level", sarif_level(c->severity));
                json_end_object(w);
                json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
        json_end_object(w);

        invocations(w, m->errors);
        uri_base_ids(w, m);
        json_kv_string(w, "columnKind", "unicodeCodePoints");

        json_key(w, "properties");
        json_begin_object(w);
        json_kv_uint(w, "systemd", m->systemd);
        json_kv_string(w, "target", m->target);
        report_json_nearest_model(w, m->version_choice);
        if (m->nearest_note)
                json_kv_string(w, "note", m->nearest_note);
        json_end_object(w);

        json_key(w, "results");
        json_begin_array(w);
        for (size_t i = 0; i < l->n; i++) {
                const Finding *x = &l->items[i];
                _cleanup_(freep) bool *linked = NULL;
                json_begin_object(w);
                json_kv_string(w, "ruleId", x->check);
                for (size_t k = 0; k < n_rules; k++)
                        if (streq(rules_check_get(m->rules, k)->id, x->check)) {
                                json_kv_uint(w, "ruleIndex", k);
                                break;
                        }
                json_kv_string(w, "level", sarif_level(x->severity));
                if (related_locations(w, m, x, &linked) >= 0)
                        result_message(w, x, linked);
                else
                        message(w, "message", x->message);
                linked = mfree(linked);
                if (x->file)
                        locations(w, m, x->file, x->line);
                if (x->fix)
                        fixes(w, m, x);
                if (x->suppressed) {
                        json_key(w, "suppressions");
                        json_begin_array(w);
                        json_begin_object(w);
                        json_kv_string(w, "kind", startswith(x->suppressed, "override ") ? "external" : "inSource");
                        json_kv_string(w, "justification", x->suppressed);
                        json_end_object(w);
                        json_end_array(w);
                }
                json_key(w, "properties");
                json_begin_object(w);
                json_kv_string(w, "unit", x->unit);
                json_kv_strv(w, "evidence", x->evidence);
                if (x->fix)
                        json_kv_string(w, "fix", x->fix);
                json_end_object(w);
                json_end_object(w);
        }
        json_end_array(w);

        json_end_object(w);
}
