/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/xml-util.h"
#include "rules/rules-internal.h"

static const char * const slot_table[_MESSAGE_SLOT_MAX] = {
        [MESSAGE_SLOT_LITERAL] = "",
        [MESSAGE_SLOT_IDENT] = "ident",
        [MESSAGE_SLOT_UNIT] = "unit",
        [MESSAGE_SLOT_JOB_UNIT] = "job-unit",
        [MESSAGE_SLOT_JOB_TYPE] = "job-type",
        [MESSAGE_SLOT_CYCLE_UNIT] = "cycle-unit",
        [MESSAGE_SLOT_CYCLE_TYPE] = "cycle-type",
        [MESSAGE_SLOT_RESULT] = "result",
        [MESSAGE_SLOT_EXIT_CODE] = "exit-code",
        [MESSAGE_SLOT_EXIT_STATUS] = "exit-status",
        [MESSAGE_SLOT_STEP] = "step",
        [MESSAGE_SLOT_ERROR] = "error",
        [MESSAGE_SLOT_JOBS] = "jobs",
        [MESSAGE_SLOT_VERSION] = "version",
        [MESSAGE_SLOT_NUMBER] = "n",
        [MESSAGE_SLOT_TEXT] = "text",
};

const char *message_slot_to_string(MessageSlot s) {
        return s >= 0 && s < _MESSAGE_SLOT_MAX ? slot_table[s] : NULL;
}

MessageSlot message_slot_from_string(const char *s) {
        if (isempty(s))
                return _MESSAGE_SLOT_INVALID;
        return (MessageSlot) string_table_lookup(slot_table, _MESSAGE_SLOT_MAX, s);
}

static const char * const writer_table[_MESSAGE_WRITER_MAX] = {
        [MESSAGE_WRITER_MANAGER] = "manager",
        [MESSAGE_WRITER_JOURNALD] = "journald",
        [MESSAGE_WRITER_KERNEL] = "kernel",
};

const char *message_writer_to_string(MessageWriter w) {
        return w >= 0 && w < _MESSAGE_WRITER_MAX ? writer_table[w] : NULL;
}

MessageWriter message_writer_from_string(const char *s) {
        return (MessageWriter) string_table_lookup(writer_table, _MESSAGE_WRITER_MAX, s);
}

/* The strings are the Rules' own; the public structs point at them as const. */
static void free_const(const void *p) {
        free((void *) p);
}

static void text_done(MessageText *t) {
        free_const(t->event);
        free_const(t->result);
        free_const(t->job_type);
        free_const(t->step);
        free_const(t->form);
        for (size_t i = 0; i < t->n_parts; i++)
                free_const(t->parts[i].literal);
        free_const(t->parts);
}

static void id_done(MessageIdInfo *m) {
        free_const(m->id);
        free_const(m->name);
        free_const(m->event);
        free_const(m->job_type);
        free_const(m->result);
        for (size_t i = 0; i < m->n_fields; i++) {
                free_const(m->fields[i].name);
                free_const(m->fields[i].to);
        }
        free_const(m->fields);
        for (size_t i = 0; i < m->n_on_result; i++) {
                free_const(m->on_result[i].value);
                free_const(m->on_result[i].event);
        }
        free_const(m->on_result);
        for (size_t i = 0; i < m->n_requires; i++) {
                free_const(m->requires[i].field);
                free_const(m->requires[i].value);
        }
        free_const(m->requires);
}

void rules_messages_done(Rules *r) {
        for (size_t i = 0; i < r->n_message_texts; i++)
                text_done(&r->message_texts[i]);
        r->message_texts = mfree(r->message_texts);
        r->n_message_texts = r->allocated_message_texts = 0;
        for (size_t i = 0; i < r->n_message_ids; i++)
                id_done(&r->message_ids[i]);
        r->message_ids = mfree(r->message_ids);
        r->n_message_ids = r->allocated_message_ids = 0;
        for (size_t i = 0; i < r->n_message_writers; i++)
                free_const(r->message_writers[i].identifier);
        r->message_writers = mfree(r->message_writers);
        r->n_message_writers = r->allocated_message_writers = 0;
        for (size_t i = 0; i < r->n_message_idents; i++) {
                free_const(r->message_idents[i].format);
                free_const(r->message_idents[i].separator);
        }
        r->message_idents = mfree(r->message_idents);
        r->n_message_idents = r->allocated_message_idents = 0;
}

/* A copy of attribute name of n, or NULL when absent. Returns 0 or -ENOMEM. */
static int dup_attr(xmlNode *n, const char *name, const char **ret) {
        const char *v = xml_attr(n, name);

        *ret = NULL;
        if (!v)
                return 0;
        *ret = strdup(v);
        return *ret ? 0 : -ENOMEM;
}

/* since= and until= of n; until below since is an error. */
static int parse_versions(const RulesFile *f, xmlNode *n, unsigned *ret_since, unsigned *ret_until,
                          DiagList *diags) {
        int q;

        if ((q = rules_parse_version(f, n, "since", false, ret_since, diags)) < 0 ||
            (q = rules_parse_version(f, n, "until", false, ret_until, diags)) < 0)
                return q;
        if (*ret_until > 0 && *ret_since > *ret_until)
                return rules_bad(diags, f->path, xml_line(n), "<%s> has since=\"%u\" after until=\"%u\"",
                                 (const char *) n->name, *ret_since, *ret_until);
        return 0;
}

static bool versions_overlap(unsigned s1, unsigned u1, unsigned s2, unsigned u2) {
        return (u1 == 0 || s2 <= u1) && (u2 == 0 || s1 <= u2);
}

/* The element's text with every run of white space that holds a line break made one space, trimmed: long forms
 * may be wrapped in the file. A run without a line break is kept as it is. */
static int normalised_text(xmlNode *n, char **ret) {
        _cleanup_(freep) char *t = xml_text(n), *out = NULL;
        size_t o = 0;

        if (!t)
                return -ENOMEM;
        out = malloc(strlen(t) + 1);
        if (!out)
                return -ENOMEM;
        for (const char *p = t; *p;) {
                size_t ws = strspn(p, " \t\r\n");
                if (ws == 0) {
                        out[o++] = *p++;
                        continue;
                }
                if (memchr(p, '\n', ws)) {
                        if (o > 0 && p[ws])
                                out[o++] = ' ';
                } else if (o > 0 && p[ws]) {
                        memcpy(out + o, p, ws);
                        o += ws;
                }
                p += ws;
        }
        out[o] = 0;
        *ret = TAKE_PTR(out);
        return 0;
}

/* Splits a form into literals and {placeholders}. An unknown placeholder, a lone brace or an empty form is an
 * error at file:line. */
static int parse_form(const RulesFile *f, xmlNode *n, const char *form, MessagePart **ret, size_t *ret_n,
                      DiagList *diags) {
        _cleanup_(freep) MessagePart *parts = NULL;
        size_t np = 0, allocated = 0;
        const char *p = form;
        int q = 0;

        if (isempty(form))
                return rules_bad(diags, f->path, xml_line(n), "<text> is empty");
        while (*p && q >= 0) {
                MessagePart part = {};
                if (*p == '{') {
                        const char *close = strchr(p, '}');
                        _cleanup_(freep) char *name = close ? strndup_safe(p + 1, close - p - 1) : NULL;
                        if (!close)
                                q = rules_bad(diags, f->path, xml_line(n), "unclosed '{' in \"%s\"", form);
                        else if (!name)
                                q = -ENOMEM;
                        else if ((part.slot = message_slot_from_string(name)) < 0 ||
                                 part.slot == MESSAGE_SLOT_LITERAL)
                                q = rules_bad(diags, f->path, xml_line(n), "unknown placeholder {%s} in \"%s\"",
                                              name, form);
                        if (q < 0)
                                break;
                        p = close + 1;
                } else {
                        size_t l = strcspn(p, "{}");
                        if (l == 0) { /* a '}' */
                                q = rules_bad(diags, f->path, xml_line(n), "lone '}' in \"%s\"", form);
                                break;
                        }
                        part.slot = MESSAGE_SLOT_LITERAL;
                        if (!(part.literal = strndup_safe(p, l)))
                                q = -ENOMEM;
                        p += l;
                }
                if (q >= 0 && GREEDY_REALLOC(parts, allocated, np + 1) < 0)
                        q = -ENOMEM;
                if (q < 0) {
                        free_const(part.literal);
                        break;
                }
                parts[np++] = part;
        }
        if (q < 0) {
                for (size_t i = 0; i < np; i++)
                        free_const(parts[i].literal);
                return q;
        }
        *ret = TAKE_PTR(parts);
        *ret_n = np;
        return 0;
}

static int parse_text(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(text_done) MessageText t = { .file = f->path, .line = xml_line(n) };
        _cleanup_(freep) char *form = NULL;
        MessagePart *parts = NULL;
        const char *scope = xml_attr(n, "scope"), *from = xml_attr(n, "from");
        int q;

        if ((q = parse_versions(f, n, &t.since, &t.until, diags)) < 0)
                return q;
        if ((q = dup_attr(n, "event", &t.event)) < 0 || (q = dup_attr(n, "result", &t.result)) < 0 ||
            (q = dup_attr(n, "job-type", &t.job_type)) < 0 || (q = dup_attr(n, "step", &t.step)) < 0 ||
            (q = normalised_text(n, &form)) < 0)
                return q;
        t.unit_scope = streq_ptr(scope, "unit");
        t.from = from ? message_writer_from_string(from) : MESSAGE_WRITER_MANAGER;
        if (t.from < 0)
                return rules_bad(diags, f->path, t.line, "unknown from=\"%s\"", from);
        if ((q = parse_form(f, n, form, &parts, &t.n_parts, diags)) < 0)
                return q;
        t.parts = parts;
        t.form = TAKE_PTR(form);

        for (size_t i = 0; i < r->n_message_texts; i++) {
                const MessageText *o = &r->message_texts[i];
                if (o->unit_scope == t.unit_scope && o->from == t.from && streq(o->form, t.form) &&
                    versions_overlap(o->since, o->until, t.since, t.until))
                        return rules_bad(diags, f->path, t.line,
                                         "the form \"%s\" is already given for these versions at %s:%u", t.form,
                                         o->file, o->line);
        }
        if (GREEDY_REALLOC(r->message_texts, r->allocated_message_texts, r->n_message_texts + 1) < 0)
                return -ENOMEM;
        r->message_texts[r->n_message_texts++] = t;
        t = (MessageText) {};
        return 0;
}

static bool is_message_id(const char *s) {
        return s && strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32;
}

static int parse_message_id(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        _cleanup_(id_done) MessageIdInfo m = {};
        MessageField *fields = NULL;
        MessageOnResult *on = NULL;
        MessageRequire *req = NULL;
        size_t a_fields = 0, a_on = 0, a_req = 0;
        const char *id = xml_attr(n, "id");
        int q;

        if (!is_message_id(id))
                return rules_bad(diags, f->path, xml_line(n), "id=\"%s\" is not 32 lower-case hex digits",
                                 strna(id));
        for (size_t i = 0; i < r->n_message_ids; i++)
                if (streq(r->message_ids[i].id, id))
                        return rules_bad(diags, f->path, xml_line(n), "duplicate MESSAGE_ID %s", id);
        if ((q = parse_versions(f, n, &m.since, &m.until, diags)) < 0)
                return q;
        if ((q = dup_attr(n, "id", &m.id)) < 0 || (q = dup_attr(n, "name", &m.name)) < 0 ||
            (q = dup_attr(n, "event", &m.event)) < 0 || (q = dup_attr(n, "job-type", &m.job_type)) < 0 ||
            (q = dup_attr(n, "result", &m.result)) < 0)
                return q;
        m.any_writer = streq_ptr(xml_attr(n, "logged-by"), "any");

        XML_FOREACH_ELEMENT(c, n) {
                if (xml_is(c, "field")) {
                        MessageField x = {};
                        if ((q = parse_versions(f, c, &x.since, &x.until, diags)) < 0)
                                return q;
                        if (GREEDY_REALLOC(fields, a_fields, m.n_fields + 1) < 0)
                                return -ENOMEM;
                        m.fields = fields;
                        if ((q = dup_attr(c, "name", &x.name)) < 0 || (q = dup_attr(c, "to", &x.to)) < 0) {
                                free_const(x.name);
                                return q;
                        }
                        fields[m.n_fields++] = x;
                } else if (xml_is(c, "on-result")) {
                        MessageOnResult x = {};
                        if (GREEDY_REALLOC(on, a_on, m.n_on_result + 1) < 0)
                                return -ENOMEM;
                        m.on_result = on;
                        if ((q = dup_attr(c, "value", &x.value)) < 0 || (q = dup_attr(c, "event", &x.event)) < 0) {
                                free_const(x.value);
                                return q;
                        }
                        on[m.n_on_result++] = x;
                } else if (xml_is(c, "require")) {
                        MessageRequire x = {};
                        if ((q = parse_versions(f, c, &x.since, &x.until, diags)) < 0)
                                return q;
                        if (GREEDY_REALLOC(req, a_req, m.n_requires + 1) < 0)
                                return -ENOMEM;
                        m.requires = req;
                        if ((q = dup_attr(c, "field", &x.field)) < 0 || (q = dup_attr(c, "value", &x.value)) < 0) {
                                free_const(x.field);
                                return q;
                        }
                        req[m.n_requires++] = x;
                }
        }
        if (GREEDY_REALLOC(r->message_ids, r->allocated_message_ids, r->n_message_ids + 1) < 0)
                return -ENOMEM;
        r->message_ids[r->n_message_ids++] = m;
        m = (MessageIdInfo) {};
        return 0;
}

static int parse_writer(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        MessageWriterInfo w = {};
        const char *id = xml_attr(n, "identifier");
        int q;

        if (isempty(id))
                return rules_bad(diags, f->path, xml_line(n), "<writer> needs a non-empty identifier=");
        for (size_t i = 0; i < r->n_message_writers; i++)
                if (streq(r->message_writers[i].identifier, id))
                        return rules_bad(diags, f->path, xml_line(n), "duplicate writer \"%s\"", id);
        if ((q = parse_versions(f, n, &w.since, &w.until, diags)) < 0)
                return q;
        w.role = message_writer_from_string(xml_attr(n, "role"));
        if (w.role < 0)
                return rules_bad(diags, f->path, xml_line(n), "unknown role=\"%s\"", strna(xml_attr(n, "role")));
        if (GREEDY_REALLOC(r->message_writers, r->allocated_message_writers, r->n_message_writers + 1) < 0 ||
            !(w.identifier = strdup(id)))
                return -ENOMEM;
        r->message_writers[r->n_message_writers++] = w;
        return 0;
}

static int parse_ident(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        MessageIdentInfo x = {};
        int q;

        if ((q = parse_versions(f, n, &x.since, &x.until, diags)) < 0)
                return q;
        if (streq_ptr(xml_attr(n, "format"), "combined") && isempty(xml_attr(n, "separator")))
                return rules_bad(diags, f->path, xml_line(n), "<ident format=\"combined\"> needs a separator=");
        if (GREEDY_REALLOC(r->message_idents, r->allocated_message_idents, r->n_message_idents + 1) < 0)
                return -ENOMEM;
        if ((q = dup_attr(n, "format", &x.format)) < 0 || (q = dup_attr(n, "separator", &x.separator)) < 0) {
                free_const(x.format);
                return q;
        }
        r->message_idents[r->n_message_idents++] = x;
        return 0;
}

int rules_parse_messages(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = xml_is(n, "text")       ? parse_text(r, f, n, diags) :
                        xml_is(n, "message-id") ? parse_message_id(r, f, n, diags) :
                        xml_is(n, "writer")     ? parse_writer(r, f, n, diags) :
                        xml_is(n, "ident")      ? parse_ident(r, f, n, diags) : 0;
                if (q == -ENOMEM)
                        return q;
                if (q < 0 && error == 0)
                        error = q; /* go on: report every bad entry at once */
        }
        return error;
}

size_t rules_message_texts(const Rules *r, const MessageText **ret) {
        *ret = r->message_texts;
        return r->n_message_texts;
}

size_t rules_message_ids(const Rules *r, const MessageIdInfo **ret) {
        *ret = r->message_ids;
        return r->n_message_ids;
}

size_t rules_message_writers(const Rules *r, const MessageWriterInfo **ret) {
        *ret = r->message_writers;
        return r->n_message_writers;
}

size_t rules_message_idents(const Rules *r, const MessageIdentInfo **ret) {
        *ret = r->message_idents;
        return r->n_message_idents;
}
