/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "journal/journal-events.h"

int journal_fields_add(JournalFields *f, const void *data, size_t len) {
        const char *d = data, *eq = memchr(d, '=', len);

        if (!eq || eq == d)
                return 0;
        if (GREEDY_REALLOC(f->items, f->allocated, f->n + 1) < 0)
                return -ENOMEM;
        f->items[f->n++] = (JournalField) {
                .name = d,
                .name_len = eq - d,
                .value = eq + 1,
                .value_len = len - (eq - d) - 1,
        };
        return 0;
}

void journal_fields_reset(JournalFields *f) {
        f->n = 0;
        f->monotonic_usec = f->realtime_usec = 0;
}

void journal_fields_done(JournalFields *f) {
        f->items = mfree(f->items);
        f->n = f->allocated = 0;
}

static bool field_name_is(const JournalField *i, const char *name) {
        size_t l = strlen(name);
        return i->name_len == l && memcmp(i->name, name, l) == 0;
}

bool journal_fields_get(const JournalFields *f, const char *name, const char **ret, size_t *ret_len) {
        for (size_t i = 0; i < f->n; i++)
                if (field_name_is(&f->items[i], name)) {
                        *ret = f->items[i].value;
                        *ret_len = f->items[i].value_len;
                        return true;
                }
        return false;
}

bool journal_fields_has(const JournalFields *f, const char *name, const char *value) {
        size_t l = strlen(value);
        for (size_t i = 0; i < f->n; i++)
                if (field_name_is(&f->items[i], name) && f->items[i].value_len == l &&
                    memcmp(f->items[i].value, value, l) == 0)
                        return true;
        return false;
}

/* A NUL-terminated copy of a field value, cut at an embedded NUL and stripped of trailing whitespace.
 * Returns 1 and *ret, 0 and *ret = NULL when the field is absent, or -ENOMEM. */
static int field_dup(const JournalFields *f, const char *name, char **ret) {
        const char *v, *nul;
        size_t l;

        *ret = NULL;
        if (!journal_fields_get(f, name, &v, &l))
                return 0;
        nul = memchr(v, 0, l);
        if (nul)
                l = nul - v;
        while (l > 0 && strchr(" \t\r\n", v[l - 1]))
                l--;
        *ret = strndup_safe(v, l);
        return *ret ? 1 : -ENOMEM;
}

static const char * const event_type_table[_JOURNAL_EVENT_MAX] = {
        [JOURNAL_EVENT_NONE] = "none",
        [JOURNAL_EVENT_JOB_START] = "job-start",
        [JOURNAL_EVENT_JOB_DONE] = "job-done",
        [JOURNAL_EVENT_JOB_FAILED] = "job-failed",
        [JOURNAL_EVENT_CONDITION_SKIP] = "condition-skip",
        [JOURNAL_EVENT_UNIT_SUCCESS] = "unit-success",
        [JOURNAL_EVENT_UNIT_FAILED] = "unit-failed",
        [JOURNAL_EVENT_EXEC_CONDITION] = "exec-condition",
        [JOURNAL_EVENT_PROCESS_EXIT] = "process-exit",
        [JOURNAL_EVENT_SPAWN_FAILED] = "spawn-failed",
        [JOURNAL_EVENT_STOP] = "stop",
        [JOURNAL_EVENT_RESTART] = "restart",
        [JOURNAL_EVENT_CYCLE_FOUND] = "cycle-found",
        [JOURNAL_EVENT_CYCLE_DEPENDENCY] = "cycle-dependency",
        [JOURNAL_EVENT_CYCLE_BREAKING] = "cycle-breaking",
        [JOURNAL_EVENT_CYCLE_DELETED] = "cycle-deleted",
        [JOURNAL_EVENT_CYCLE_UNFIXABLE] = "cycle-unfixable",
        [JOURNAL_EVENT_CYCLE_OTHER] = "cycle-other",
        [JOURNAL_EVENT_STARTUP_FINISHED] = "startup-finished",
        [JOURNAL_EVENT_JOURNAL_FLUSHED] = "journal-flushed",
        [JOURNAL_EVENT_JOURNAL_STOPPED] = "journal-stopped",
        [JOURNAL_EVENT_MANAGER_VERSION] = "manager-version",
        [JOURNAL_EVENT_KERNEL_VERSION] = "kernel-version",
        [JOURNAL_EVENT_UNIT_OUTPUT] = "unit-output",
};

const char *journal_event_type_to_string(JournalEventType t) {
        return t >= 0 && t < _JOURNAL_EVENT_MAX ? event_type_table[t] : NULL;
}

static const char * const origin_table[_JOURNAL_ORIGIN_MAX] = {
        [JOURNAL_ORIGIN_STRUCTURED] = "structured",
        [JOURNAL_ORIGIN_TEXT] = "text",
        [JOURNAL_ORIGIN_KERNEL] = "kernel",
        [JOURNAL_ORIGIN_OUTPUT] = "output",
        [JOURNAL_ORIGIN_OTHER] = "other",
};

const char *journal_origin_to_string(JournalOrigin o) {
        return o >= 0 && o < _JOURNAL_ORIGIN_MAX ? origin_table[o] : NULL;
}

void journal_event_done(JournalEvent *e) {
        free(e->unit);
        free(e->description);
        strv_free(e->units);
        free(e->result);
        free(e->job_type);
        free(e->exit_code);
        free(e->exit_status);
        free(e->error);
        free(e->step);
        free(e->cycle_unit);
        free(e->job_unit);
        strv_free(e->cycle_jobs);
        free(e->message);
        *e = (JournalEvent) {};
}

static const char * const unit_suffixes[] = {
        ".service", ".socket", ".target", ".device", ".mount", ".automount",
        ".swap", ".timer", ".path", ".slice", ".scope",
};

bool journal_unit_name_plausible(const char *s, size_t n) {
        size_t at = 0;

        if (n == 0 || n > 255)
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      strchr(":-_.\\@", c)) || c == 0)
                        return false;
                if (c == '@')
                        at++;
        }
        if (at > 1 || s[0] == '.' || s[0] == '@')
                return false;
        for (size_t i = 0; i < ELEMENTSOF(unit_suffixes); i++) {
                size_t l = strlen(unit_suffixes[i]);
                if (n > l && memcmp(s + n - l, unit_suffixes[i], l) == 0)
                        return true;
        }
        return false;
}


JournalEventType journal_event_type_from_string(const char *s) {
        return (JournalEventType) string_table_lookup(event_type_table, _JOURNAL_EVENT_MAX, s);
}

static int set_str(char **p, const char *v) {
        if (*p || !v)
                return 0;
        *p = strdup(v);
        return *p ? 0 : -ENOMEM;
}

static int set_mem(char **p, const char *v, size_t n) {
        if (*p)
                return 0;
        *p = strndup_safe(v, n);
        return *p ? 0 : -ENOMEM;
}

static int set_field(char **p, const JournalFields *f, const char *name) {
        int r;

        if (*p)
                return 0;
        r = field_dup(f, name, p);
        if (r > 0 && !**p)
                *p = mfree(*p); /* an empty value says nothing */
        return r < 0 ? r : 0;
}

/* errno texts in the C locale, longest first so that "Read-only file system" wins over shorter ones */
static char *errno_texts[256];
static size_t n_errno_texts;

static int len_cmp(const void *a, const void *b) {
        size_t x = strlen(*(char * const *) a), y = strlen(*(char * const *) b);
        return (x < y) - (x > y);
}

const char *journal_find_errno_text(const char *text) {
        if (!text)
                return NULL;
        if (n_errno_texts == 0) {
                for (int e = 1; e < 200 && n_errno_texts < ELEMENTSOF(errno_texts); e++) {
                        const char *s = strerror(e);
                        if (!s || startswith(s, "Unknown error") || strlen(s) < 6)
                                continue;
                        errno_texts[n_errno_texts] = strdup(s);
                        if (errno_texts[n_errno_texts])
                                n_errno_texts++;
                }
                qsort_safe(errno_texts, n_errno_texts, sizeof(char *), len_cmp);
        }
        for (size_t i = 0; i < n_errno_texts; i++)
                if (strstr(text, errno_texts[i]))
                        return errno_texts[i];
        return NULL;
}


/* ---- the compiled rules */

/* A text form ready to match: where to look first, and what it makes. */
typedef struct Form {
        const MessageText *text;
        JournalEventType type;
        const char *lead;   /* the literal the form starts with, or NULL when it starts with a placeholder */
        size_t lead_len;
        const char *anchor; /* without a lead: the longest literal, looked for with strstr() first */
        const char *tail;   /* the literal the form ends with, or NULL */
        size_t tail_len;
        bool needs_units;   /* a {unit}, {job-unit} or {cycle-unit} must be a plausible unit name */
} Form;

/* The forms one kind of text is tried against, in file order: those with a lead by its first byte, and those
 * without. A match is the first in file order of both lists. */
typedef struct FormIndex {
        size_t *by_byte[256];
        size_t n_by_byte[256];
        size_t *no_lead;
        size_t n_no_lead;
} FormIndex;

typedef struct MidEntry {
        const MessageIdInfo *info;
        JournalEventType type;
        JournalEventType *on_result_types; /* parallel to info->on_result; -1: the record's own */
} MidEntry;

struct JournalDecoder {
        Form *forms;
        size_t n_forms;
        FormIndex index[2][_MESSAGE_WRITER_MAX]; /* [unit scope][writer] */
        MidEntry *mids;
        size_t n_mids;
        const MessageWriterInfo *writers;
        size_t n_writers;
        char **separators;     /* of the combined ident format: " - " */
        char **mids_not_pid1;
        char **identifiers[_MESSAGE_WRITER_MAX];
};

static void form_index_done(FormIndex *x) {
        for (size_t i = 0; i < 256; i++)
                free(x->by_byte[i]);
        free(x->no_lead);
}

JournalDecoder *journal_decoder_free(JournalDecoder *d) {
        if (!d)
                return NULL;
        free(d->forms);
        for (size_t s = 0; s < 2; s++)
                for (size_t w = 0; w < _MESSAGE_WRITER_MAX; w++)
                        form_index_done(&d->index[s][w]);
        for (size_t i = 0; i < d->n_mids; i++)
                free(d->mids[i].on_result_types);
        free(d->mids);
        strv_free(d->separators);
        strv_free(d->mids_not_pid1);
        for (size_t w = 0; w < _MESSAGE_WRITER_MAX; w++)
                strv_free(d->identifiers[w]);
        return mfree(d);
}

static int index_add(size_t **l, size_t *n, size_t v) {
        size_t *x = realloc(*l, (*n + 1) * sizeof(size_t));
        if (!x)
                return -ENOMEM;
        x[(*n)++] = v;
        *l = x;
        return 0;
}

static bool slot_is_unit(MessageSlot s) {
        return s == MESSAGE_SLOT_UNIT || s == MESSAGE_SLOT_JOB_UNIT || s == MESSAGE_SLOT_CYCLE_UNIT;
}

static int form_compile(const MessageText *t, Form *ret) {
        Form f = { .text = t };
        size_t best = 0;

        f.type = journal_event_type_from_string(t->event);
        if (f.type < 0)
                return -EBADMSG;
        for (size_t i = 0; i < t->n_parts; i++) {
                const MessagePart *p = &t->parts[i];
                if (p->slot == MESSAGE_SLOT_LITERAL) {
                        size_t l = strlen(p->literal);
                        if (i == 0) {
                                f.lead = p->literal;
                                f.lead_len = l;
                        }
                        if (i == t->n_parts - 1) {
                                f.tail = p->literal;
                                f.tail_len = l;
                        }
                        if (l > best) {
                                best = l;
                                f.anchor = p->literal;
                        }
                } else if (slot_is_unit(p->slot))
                        f.needs_units = true;
        }
        *ret = f;
        return 0;
}

int journal_decoder_new(const Rules *rules, JournalDecoder **ret) {
        _cleanup_(journal_decoder_freep) JournalDecoder *d = NULL;
        const MessageText *texts;
        const MessageIdInfo *ids;
        const MessageIdentInfo *idents;
        size_t n_texts, n_ids, n_idents;
        int r;

        d = calloc(1, sizeof(JournalDecoder));
        if (!d)
                return -ENOMEM;

        n_texts = rules_message_texts(rules, &texts);
        d->forms = calloc(MAX(n_texts, (size_t) 1), sizeof(Form));
        if (!d->forms)
                return -ENOMEM;
        for (size_t i = 0; i < n_texts; i++) {
                const MessageText *t = &texts[i];
                FormIndex *x = &d->index[t->unit_scope][t->from];
                Form *f = &d->forms[d->n_forms];

                if ((r = form_compile(t, f)) < 0)
                        return r;
                if (f->type == JOURNAL_EVENT_NONE)
                        continue;
                r = f->lead ? index_add(&x->by_byte[(unsigned char) f->lead[0]], &x->n_by_byte[(unsigned char) f->lead[0]],
                                        d->n_forms)
                            : index_add(&x->no_lead, &x->n_no_lead, d->n_forms);
                if (r < 0)
                        return r;
                d->n_forms++;
        }

        n_ids = rules_message_ids(rules, &ids);
        d->mids = calloc(MAX(n_ids, (size_t) 1), sizeof(MidEntry));
        if (!d->mids)
                return -ENOMEM;
        for (size_t i = 0; i < n_ids; i++) {
                MidEntry *m = &d->mids[d->n_mids++];
                m->info = &ids[i];
                m->type = journal_event_type_from_string(ids[i].event);
                if (m->type < 0)
                        return -EBADMSG;
                m->on_result_types = calloc(MAX(ids[i].n_on_result, (size_t) 1), sizeof(JournalEventType));
                if (!m->on_result_types)
                        return -ENOMEM;
                for (size_t k = 0; k < ids[i].n_on_result; k++) {
                        const char *ev = ids[i].on_result[k].event;
                        m->on_result_types[k] = ev ? journal_event_type_from_string(ev) : m->type;
                        if (m->on_result_types[k] < 0)
                                return -EBADMSG;
                }
                if (ids[i].any_writer && strv_extend(&d->mids_not_pid1, ids[i].id) < 0)
                        return -ENOMEM;
        }

        d->n_writers = rules_message_writers(rules, &d->writers);
        for (size_t i = 0; i < d->n_writers; i++)
                if (strv_extend(&d->identifiers[d->writers[i].role], d->writers[i].identifier) < 0)
                        return -ENOMEM;
        n_idents = rules_message_idents(rules, &idents);
        for (size_t i = 0; i < n_idents; i++)
                if (idents[i].separator && strv_extend_unique(&d->separators, idents[i].separator) < 0)
                        return -ENOMEM;
        /* NULL-terminated lists even when empty */
        if (!d->mids_not_pid1 && !(d->mids_not_pid1 = calloc(1, sizeof(char *))))
                return -ENOMEM;
        for (size_t w = 0; w < _MESSAGE_WRITER_MAX; w++)
                if (!d->identifiers[w] && !(d->identifiers[w] = calloc(1, sizeof(char *))))
                        return -ENOMEM;
        *ret = TAKE_PTR(d);
        return 0;
}

char * const *journal_decoder_message_ids_not_pid1(const JournalDecoder *d) {
        return d->mids_not_pid1;
}

char * const *journal_decoder_identifiers(const JournalDecoder *d, MessageWriter role) {
        return role >= 0 && role < _MESSAGE_WRITER_MAX ? d->identifiers[role] : NULL;
}

static const MidEntry *mid_find(const JournalDecoder *d, const char *mid) {
        for (size_t i = 0; i < d->n_mids; i++)
                if (streq(d->mids[i].info->id, mid))
                        return &d->mids[i];
        return NULL;
}

static int writer_role(const JournalDecoder *d, const char *ident) {
        if (!ident)
                return -ENOENT;
        for (size_t i = 0; i < d->n_writers; i++)
                if (streq(d->writers[i].identifier, ident))
                        return d->writers[i].role;
        return -ENOENT;
}

/* ---- matching a text against a form */

typedef struct Capture {
        const char *s;
        size_t n;
} Capture;

#define PARTS_MAX 16

/* The longest run of s that the placeholder can take. */
static size_t slot_max(MessageSlot slot, const char *s) {
        switch (slot) {
        case MESSAGE_SLOT_UNIT:
        case MESSAGE_SLOT_JOB_UNIT:
        case MESSAGE_SLOT_CYCLE_UNIT:
                return strcspn(s, " /'");
        case MESSAGE_SLOT_JOB_TYPE:
        case MESSAGE_SLOT_CYCLE_TYPE:
                return strspn(s, "abcdefghijklmnopqrstuvwxyz-");
        case MESSAGE_SLOT_RESULT:
                return strcspn(s, "'");
        case MESSAGE_SLOT_EXIT_CODE:
                return strspn(s, "abcdefghijklmnopqrstuvwxyz");
        case MESSAGE_SLOT_STEP:
                return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-");
        case MESSAGE_SLOT_VERSION:
                return strcspn(s, " ");
        case MESSAGE_SLOT_NUMBER:
                return strspn(s, "0123456789");
        default: /* ident, error, jobs, text: anything */
                return strlen(s);
        }
}

static bool slot_may_be_empty(MessageSlot slot) {
        return slot == MESSAGE_SLOT_RESULT || slot == MESSAGE_SLOT_ERROR || slot == MESSAGE_SLOT_JOBS ||
               slot == MESSAGE_SLOT_TEXT;
}

static bool match_parts(const MessagePart *parts, size_t n, const char *s, Capture *caps);

/* "226", "2/INVALIDARGUMENT": digits, then maybe a slash and a name; the long form first. */
static bool match_exit_status(const MessagePart *parts, size_t n, const char *s, Capture *caps) {
        size_t d = strspn(s, "0123456789"), k;

        if (d == 0)
                return false;
        if (s[d] == '/' &&
            (k = strspn(s + d + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-")) > 0 &&
            match_parts(parts + 1, n - 1, s + d + 1 + k, caps + 1)) {
                caps[0] = (Capture) { s, d + 1 + k };
                return true;
        }
        if (match_parts(parts + 1, n - 1, s + d, caps + 1)) {
                caps[0] = (Capture) { s, d };
                return true;
        }
        return false;
}

/* Does s match parts[0..n) exactly? Placeholders take as much as they can (the first the most, as POSIX
 * subexpressions do), giving back until the rest matches. caps[i] is set for every part. */
static bool match_parts(const MessagePart *parts, size_t n, const char *s, Capture *caps) {
        const MessagePart *p = parts;
        size_t max, min;

        if (n == 0)
                return *s == 0;
        if (p->slot == MESSAGE_SLOT_LITERAL) {
                size_t l = strlen(p->literal);
                if (strncmp(s, p->literal, l) != 0)
                        return false;
                caps[0] = (Capture) { s, l };
                return match_parts(parts + 1, n - 1, s + l, caps + 1);
        }
        if (p->slot == MESSAGE_SLOT_EXIT_STATUS)
                return match_exit_status(parts, n, s, caps);
        max = slot_max(p->slot, s);
        min = slot_may_be_empty(p->slot) ? 0 : 1;
        if (max < min)
                return false;
        if (n == 1) { /* the last part takes the rest, or fails */
                if (s[max] != 0)
                        return false;
                caps[0] = (Capture) { s, max };
                return true;
        }
        for (size_t l = max + 1; l-- > min;) {
                /* a literal must follow: only try where it starts */
                if (parts[1].slot == MESSAGE_SLOT_LITERAL && s[l] != parts[1].literal[0])
                        continue;
                if (match_parts(parts + 1, n - 1, s + l, caps + 1)) {
                        caps[0] = (Capture) { s, l };
                        return true;
                }
        }
        return false;
}

static bool form_matches(const Form *f, const char *s, size_t len, Capture *caps) {
        if (f->text->n_parts > PARTS_MAX)
                return false;
        if (f->lead && strncmp(s, f->lead, f->lead_len) != 0)
                return false;
        if (f->tail && (len < f->tail_len || memcmp(s + len - f->tail_len, f->tail, f->tail_len) != 0))
                return false;
        if (!f->lead && f->anchor && !strstr(s, f->anchor))
                return false;
        if (!match_parts(f->text->parts, f->text->n_parts, s, caps))
                return false;
        if (f->needs_units)
                for (size_t i = 0; i < f->text->n_parts; i++)
                        if (slot_is_unit(f->text->parts[i].slot) && !journal_unit_name_plausible(caps[i].s, caps[i].n))
                                return false;
        return true;
}

/* The first form (in file order) of the index that s matches, or NULL. */
static const Form *form_find(const JournalDecoder *d, const FormIndex *x, const char *s, Capture *caps) {
        const size_t *a = x->by_byte[(unsigned char) s[0]], *b = x->no_lead;
        size_t na = s[0] ? x->n_by_byte[(unsigned char) s[0]] : 0, nb = x->n_no_lead, i = 0, k = 0;
        size_t len = strlen(s);

        while (i < na || k < nb) {
                size_t f = (k >= nb || (i < na && a[i] < b[k])) ? a[i++] : b[k++];
                if (form_matches(&d->forms[f], s, len, caps))
                        return &d->forms[f];
        }
        return NULL;
}

/* ---- filling in an event */

/* A unit as job status texts name it: "NAME - Description" (combined), "NAME" or "Description" -> the unit
 * when the text says it, and the description (the whole text when there is no name in it). */
static int split_ident(const JournalDecoder *d, const char *obj, size_t len, JournalEvent *e) {
        STRV_FOREACH(sep, d->separators) {
                size_t sl = strlen(*sep);
                for (size_t i = 0; i + sl <= len; i++)
                        if (memcmp(obj + i, *sep, sl) == 0) {
                                if (!journal_unit_name_plausible(obj, i))
                                        break;
                                if (set_mem(&e->unit, obj, i) < 0)
                                        return -ENOMEM;
                                return set_mem(&e->description, obj + i + sl, len - i - sl);
                        }
        }
        if (len > 0 && journal_unit_name_plausible(obj, len) && set_mem(&e->unit, obj, len) < 0)
                return -ENOMEM;
        return set_mem(&e->description, obj, len);
}

/* v258: "X/start after Y/start after … - after X": every "U/T" token, in order. */
static int parse_cycle_list(const char *list, char ***ret) {
        _cleanup_(strv_freep) char **jobs = NULL;
        const char *p = list;

        while (*p) {
                size_t l = strcspn(p, " ");
                const char *slash = memchr(p, '/', l);
                if (slash && journal_unit_name_plausible(p, slash - p) && l > (size_t) (slash - p) + 1) {
                        char *j = strndup_safe(p, l);
                        if (!j || strv_push(&jobs, j) < 0)
                                return -ENOMEM;
                }
                p += l;
                p += strspn(p, " ");
        }
        *ret = TAKE_PTR(jobs);
        return 0;
}

static int job_to_unit(const char *job, char **ret) {
        const char *slash = strchr(job, '/');
        *ret = strndup_safe(job, slash ? (size_t) (slash - job) : strlen(job));
        return *ret ? 0 : -ENOMEM;
}


/* Sets e from the form f that text matched (caps: one per part). prefix_unit: the "UNIT: " prefix of a
 * unit-scope text, else NULL. */
static int apply_form(const JournalDecoder *d, const Form *f, const Capture *caps, const char *prefix_unit,
                      JournalEvent *e) {
        const MessageText *t = f->text;
        int r = 0;

        e->type = f->type;
        for (size_t i = 0; i < t->n_parts && r >= 0; i++) {
                const Capture *c = &caps[i];
                switch (t->parts[i].slot) {
                case MESSAGE_SLOT_IDENT:
                        r = split_ident(d, c->s, c->n, e);
                        break;
                case MESSAGE_SLOT_UNIT: /* the text names the unit itself: it wins over UNIT= and the prefix */
                        free(e->unit);
                        e->unit = NULL;
                        r = set_mem(&e->unit, c->s, c->n);
                        break;
                case MESSAGE_SLOT_JOB_UNIT:
                        r = set_mem(&e->job_unit, c->s, c->n);
                        break;
                case MESSAGE_SLOT_JOB_TYPE:
                        r = set_mem(&e->job_type, c->s, c->n);
                        break;
                case MESSAGE_SLOT_CYCLE_UNIT:
                        r = set_mem(&e->cycle_unit, c->s, c->n);
                        break;
                case MESSAGE_SLOT_RESULT:
                case MESSAGE_SLOT_VERSION:
                        r = set_mem(&e->result, c->s, c->n);
                        break;
                case MESSAGE_SLOT_EXIT_CODE:
                        r = set_mem(&e->exit_code, c->s, c->n);
                        break;
                case MESSAGE_SLOT_EXIT_STATUS:
                        r = set_mem(&e->exit_status, c->s, c->n);
                        break;
                case MESSAGE_SLOT_STEP:
                        r = set_mem(&e->step, c->s, c->n);
                        break;
                case MESSAGE_SLOT_ERROR:
                        r = set_mem(&e->error, c->s, c->n);
                        break;
                case MESSAGE_SLOT_JOBS:
                        if (!e->cycle_jobs) {
                                _cleanup_(freep) char *list = strndup_safe(c->s, c->n);
                                r = list ? parse_cycle_list(list, &e->cycle_jobs) : -ENOMEM;
                        }
                        break;
                default:
                        break;
                }
        }
        if (r < 0 || (r = set_str(&e->result, t->result)) < 0 || (r = set_str(&e->job_type, t->job_type)) < 0 ||
            (r = set_str(&e->step, t->step)) < 0)
                return r;

        /* where the cycle's walk started: the text's prefix from v220, else (found-cycle lines) the job named */
        if (f->type == JOURNAL_EVENT_CYCLE_FOUND && e->cycle_jobs && e->cycle_jobs[0] && !e->job_unit &&
            (r = job_to_unit(e->cycle_jobs[0], &e->job_unit)) < 0)
                return r;
        if (f->type >= JOURNAL_EVENT_CYCLE_FOUND && f->type <= JOURNAL_EVENT_CYCLE_OTHER &&
            (r = set_str(&e->cycle_unit, prefix_unit ?: f->type == JOURNAL_EVENT_CYCLE_FOUND ? e->job_unit : NULL)) < 0)
                return r;
        return set_str(&e->unit, prefix_unit);
}

/* Splits "UNIT: rest" when UNIT is a plausible unit name. */
static const char *unit_prefix(const char *msg, char **ret_unit) {
        const char *c = strstr(msg, ": ");

        *ret_unit = NULL;
        if (!c || !journal_unit_name_plausible(msg, c - msg))
                return NULL;
        *ret_unit = strndup_safe(msg, c - msg);
        return c + 2;
}

/* A text of writer w: the unit-scope forms after a "UNIT: " prefix first, then the whole-message forms. */
static int decode_text(const JournalDecoder *d, MessageWriter w, const char *msg, JournalEvent *e) {
        _cleanup_(freep) char *prefix = NULL;
        Capture caps[PARTS_MAX];
        const char *rest;
        const Form *f;

        rest = unit_prefix(msg, &prefix);
        if (rest && (f = form_find(d, &d->index[1][w], rest, caps)))
                return apply_form(d, f, caps, prefix, e);
        if ((f = form_find(d, &d->index[0][w], msg, caps)))
                return apply_form(d, f, caps, NULL, e);
        return 0;
}

/* Does the record carry one of the values its <require> elements ask for (or ask for none)? */
static bool mid_required(const MessageIdInfo *m, const JournalFields *f) {
        for (size_t i = 0; i < m->n_requires; i++)
                if (journal_fields_has(f, m->requires[i].field, m->requires[i].value))
                        return true;
        return m->n_requires == 0;
}

static int decode_structured(const JournalDecoder *d, const MidEntry *m, const JournalFields *f, const char *msg,
                             JournalEvent *e) {
        const MessageIdInfo *mi = m->info;
        int r = 0;

        if (!mid_required(mi, f))
                return 0;
        e->type = m->type;
        if ((r = set_str(&e->job_type, mi->job_type)) < 0)
                return r;
        for (size_t i = 0; i < mi->n_fields; i++) {
                const MessageField *x = &mi->fields[i];
                if (streq(x->to, "errno")) {
                        _cleanup_(freep) char *v = NULL;
                        unsigned en;
                        if ((r = set_field(&v, f, x->name)) < 0)
                                return r;
                        if (v && safe_atou(v, &en) >= 0 && en > 0 && en < 4096)
                                r = set_str(&e->error, strerror((int) en));
                } else
                        r = set_field(streq(x->to, "result")      ? &e->result :
                                      streq(x->to, "exit-code")   ? &e->exit_code :
                                      streq(x->to, "exit-status") ? &e->exit_status :
                                      streq(x->to, "job-unit")    ? &e->job_unit : &e->job_type,
                                      f, x->name);
                if (r < 0)
                        return r;
        }
        if (e->result && mi->n_on_result > 0) {
                ssize_t hit = -1;
                for (size_t i = 0; i < mi->n_on_result && hit < 0; i++)
                        if (streq_ptr(mi->on_result[i].value, e->result))
                                hit = (ssize_t) i;
                for (size_t i = 0; i < mi->n_on_result && hit < 0; i++)
                        if (!mi->on_result[i].value)
                                hit = (ssize_t) i;
                if (hit >= 0)
                        e->type = m->on_result_types[hit];
        }

        /* The text fills in what older releases did not put into fields (RESULT before v235, no UNIT_RESULT
         * before v240, no DELETED_UNIT before v258), tells condition skips from real starts and gives the
         * description. Stop, success and restart records need nothing from it. */
        if (msg && e->type != JOURNAL_EVENT_NONE && e->type < JOURNAL_EVENT_STARTUP_FINISHED &&
            e->type != JOURNAL_EVENT_STOP && e->type != JOURNAL_EVENT_UNIT_SUCCESS && e->type != JOURNAL_EVENT_RESTART) {
                JournalEvent t = { .type = JOURNAL_EVENT_NONE };
                r = decode_text(d, MESSAGE_WRITER_MANAGER, msg, &t);
                if (r >= 0) {
                        if (t.type == JOURNAL_EVENT_CONDITION_SKIP && e->type == JOURNAL_EVENT_JOB_DONE)
                                e->type = JOURNAL_EVENT_CONDITION_SKIP;
                        if (t.type == e->type) {
                                char **from[] = { &t.result, &t.exit_code, &t.exit_status, &t.error, &t.step,
                                                  &t.job_unit, &t.job_type, &t.cycle_unit };
                                char **to[] = { &e->result, &e->exit_code, &e->exit_status, &e->error, &e->step,
                                                &e->job_unit, &e->job_type, &e->cycle_unit };
                                for (size_t i = 0; i < ELEMENTSOF(from); i++)
                                        if (!*to[i])
                                                *to[i] = TAKE_PTR(*from[i]);
                                if (!e->cycle_jobs)
                                        e->cycle_jobs = TAKE_PTR(t.cycle_jobs);
                        }
                        if (!e->description && t.description)
                                e->description = TAKE_PTR(t.description);
                        if (!e->unit && t.unit)
                                e->unit = TAKE_PTR(t.unit);
                }
                journal_event_done(&t);
                if (r < 0)
                        return r;
        }
        return set_str(&e->result, mi->result);
}

static int collect_units(const JournalFields *f, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t i = 0; i < f->n; i++) {
                const JournalField *x = &f->items[i];
                if (!field_name_is(x, "UNIT") || !journal_unit_name_plausible(x->value, x->value_len))
                        continue;
                char *u = strndup_safe(x->value, x->value_len);
                if (!u)
                        return -ENOMEM;
                if (strv_contains(l, u)) {
                        free(u);
                        continue;
                }
                if (strv_push(&l, u) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

static uint64_t field_u64(const JournalFields *f, const char *name) {
        const char *v;
        size_t l;
        uint64_t x = 0;

        if (!journal_fields_get(f, name, &v, &l) || l == 0 || l > 20)
                return 0;
        for (size_t i = 0; i < l; i++) {
                if (v[i] < '0' || v[i] > '9')
                        return 0;
                if (x > (UINT64_MAX - 9) / 10)
                        return 0;
                x = x * 10 + (v[i] - '0');
        }
        return x;
}


static int decode(const JournalDecoder *d, const JournalFields *f, JournalEvent *e) {
        _cleanup_(freep) char *msg = NULL, *mid = NULL, *ident = NULL;
        bool kernel = journal_fields_has(f, "_TRANSPORT", "kernel");
        bool pid1 = journal_fields_has(f, "_PID", "1");
        bool has_unit = false, user = false, manager;
        const MidEntry *m;
        const char *v;
        size_t l;
        int r, role;

        if ((r = field_dup(f, "MESSAGE", &msg)) < 0 || (r = field_dup(f, "MESSAGE_ID", &mid)) < 0 ||
            (r = field_dup(f, "SYSLOG_IDENTIFIER", &ident)) < 0)
                return r;
        r = collect_units(f, &e->units);
        if (r < 0)
                return r;
        has_unit = e->units && e->units[0];
        user = journal_fields_get(f, "USER_UNIT", &v, &l);
        if (has_unit && (r = set_str(&e->unit, e->units[0])) < 0)
                return r;
        role = writer_role(d, ident);

        /* Who wrote it: the system manager (PID 1, its kmsg copies, or its forked helpers that log with UNIT=),
         * or someone else. User managers (USER_UNIT=) are not the system manager. */
        manager = !user && ((pid1 && !kernel) || ((kernel || has_unit) && role == MESSAGE_WRITER_MANAGER));

        m = mid ? mid_find(d, mid) : NULL;
        if (m && manager) {
                e->origin = JOURNAL_ORIGIN_STRUCTURED;
                return decode_structured(d, m, f, msg, e);
        }
        if (!msg)
                return 0;
        if (m && m->info->any_writer && m->type >= JOURNAL_EVENT_STARTUP_FINISHED) { /* journald's */
                e->origin = JOURNAL_ORIGIN_OTHER;
                return decode_structured(d, m, f, NULL, e);
        }
        if (manager) {
                e->origin = kernel ? JOURNAL_ORIGIN_KERNEL : JOURNAL_ORIGIN_TEXT;
                return decode_text(d, MESSAGE_WRITER_MANAGER, msg, e);
        }
        if (role == MESSAGE_WRITER_JOURNALD) {
                e->origin = JOURNAL_ORIGIN_OTHER;
                return decode_text(d, MESSAGE_WRITER_JOURNALD, msg, e);
        }
        if (kernel && (!ident || role == MESSAGE_WRITER_KERNEL)) {
                e->origin = JOURNAL_ORIGIN_OTHER;
                return decode_text(d, MESSAGE_WRITER_KERNEL, msg, e);
        }
        if (journal_fields_get(f, "_SYSTEMD_UNIT", &v, &l) && journal_unit_name_plausible(v, l) && !pid1 &&
            !(l == strlen("init.scope") && memcmp(v, "init.scope", l) == 0)) {
                e->origin = JOURNAL_ORIGIN_OUTPUT;
                e->type = JOURNAL_EVENT_UNIT_OUTPUT;
                free(e->unit);
                if (!(e->unit = strndup_safe(v, l)))
                        return -ENOMEM;
                r = set_str(&e->error, journal_find_errno_text(msg));
                if (r < 0)
                        return r;
                if (e->error) /* the paths in it tell which mounts matter */
                        e->message = TAKE_PTR(msg);
        }
        return 0;
}

int journal_event_decode(const JournalDecoder *d, const JournalFields *f, JournalEvent *ret) {
        JournalEvent e = { .type = JOURNAL_EVENT_NONE, .origin = JOURNAL_ORIGIN_OTHER };
        int r;

        *ret = (JournalEvent) {};
        r = decode(d, f, &e);
        if (r < 0) {
                journal_event_done(&e);
                return r;
        }
        if (e.type == JOURNAL_EVENT_NONE) {
                journal_event_done(&e);
                return 0;
        }
        /* keep the text of the lines a report quotes */
        if (!e.message && e.type != JOURNAL_EVENT_UNIT_OUTPUT &&
            (e.type >= JOURNAL_EVENT_CYCLE_FOUND || e.type == JOURNAL_EVENT_SPAWN_FAILED ||
             e.type == JOURNAL_EVENT_UNIT_FAILED || e.type == JOURNAL_EVENT_JOB_FAILED ||
             e.type == JOURNAL_EVENT_PROCESS_EXIT) &&
            field_dup(f, "MESSAGE", &e.message) < 0) {
                journal_event_done(&e);
                return -ENOMEM;
        }
        e.usec = field_u64(f, "_SOURCE_MONOTONIC_TIMESTAMP") ?: f->monotonic_usec;
        *ret = e;
        return 1;
}
