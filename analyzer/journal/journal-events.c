/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <regex.h>

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

/* MESSAGE_IDs (knowledge/journal.md §2) */
#define MID_JOB_STARTING "7d4958e842da4a758f6c1cdc7b36dcc5"
#define MID_JOB_STARTED "39f53479d3a045ac8e11786248231fbf"
#define MID_JOB_FAILED "be02cf6855d2428ba40df7e9d022f03d"
#define MID_STOPPING "de5b426a63be47a7b6ac3eaac82e2f6f"
#define MID_STOPPED "9d1aaa27d60140bd96365438aad20286"
#define MID_UNIT_SUCCESS "7ad2d189f7e94e70a38c781354912448"
#define MID_UNIT_FAILURE_RESULT "d9b373ed55a64feb8242e02dbe79a49c"
#define MID_UNIT_SKIPPED "0e4284a0caca4bfc81c0bb6786972673"
#define MID_PROCESS_EXIT "98e322203f7a4ed290d09fe03c09fe15"
#define MID_SPAWN_FAILED "641257651c1b4ec9a8624d7a40a9e1e7"
#define MID_RESTART_SCHEDULED "5eb03494b6584870a536b337290809b3"
#define MID_STARTUP_FINISHED "b07a249cd024414a82dd00cd181378ff"
#define MID_USER_STARTUP_FINISHED "eed00a68ffd84e31882105fd973abdd1"
#define MID_ORDERING_CYCLE "f27a3f94406a4783b946a9bc849e9452"
#define MID_DELETING_JOB "5084367542f7472dbc6a94125d5debce"
#define MID_CYCLE_UNFIXABLE "b3112ddad19045538c76685ba5918a80"
#define MID_JOURNAL_STOP "d93fb3c9c24d451a97cea615ce59c00b"
#define MID_JOURNAL_USAGE "ec387f577b844b8fa948f33cad9a75e6"

const char * const journal_event_message_ids[] = {
        MID_JOB_STARTING, MID_JOB_STARTED, MID_JOB_FAILED, MID_STOPPING, MID_STOPPED,
        MID_UNIT_SUCCESS, MID_UNIT_FAILURE_RESULT, MID_UNIT_SKIPPED, MID_PROCESS_EXIT, MID_SPAWN_FAILED,
        MID_RESTART_SCHEDULED, MID_STARTUP_FINISHED, MID_USER_STARTUP_FINISHED, MID_ORDERING_CYCLE,
        MID_DELETING_JOB, MID_CYCLE_UNFIXABLE, MID_JOURNAL_STOP, MID_JOURNAL_USAGE,
        NULL,
};

const char * const journal_event_message_ids_not_pid1[] = {
        MID_SPAWN_FAILED, MID_JOURNAL_STOP, MID_JOURNAL_USAGE, NULL,
};

/* Anchored patterns for the text forms. The UNIT captures are checked with journal_unit_name_plausible(). */
#define U "([^ /']+)"
#define T "([a-z-]+)"
enum {
        /* matched against the text after a "UNIT: " prefix */
        PAT_FAILED_RESULT,
        PAT_ENTERED_FAILED,
        PAT_DEACTIVATED,
        PAT_SKIPPED_DUE,
        PAT_MAIN_EXITED,
        PAT_TASK_FAILED,
        PAT_NAMESPACE,
        PAT_FAILED_AT_STEP,
        PAT_JOB_FAILED_RESULT,
        PAT_RESTART,
        PAT_CYCLE_FOUND_ON,
        PAT_CYCLE_FOUND_LIST,
        PAT_CYCLE_DEP,
        PAT_CYCLE_BREAKING,
        PAT_CYCLE_DELETED,
        PAT_CYCLE_UNFIXABLE,
        /* matched against the whole message */
        PAT_UNIT_ENTERED_FAILED,
        PAT_OLD_TASK_FAILED,
        PAT_CONDITION_OLD,
        PAT_CONDITION_NEW,
        PAT_MANAGER_VERSION,
        PAT_KERNEL_VERSION,
        _PAT_MAX,
};

static const char * const pattern_source[_PAT_MAX] = {
        [PAT_FAILED_RESULT] = "^Failed with result '([^']*)'\\.?$",
        [PAT_ENTERED_FAILED] = "^Unit entered failed state\\.?$",
        [PAT_DEACTIVATED] = "^Deactivated successfully\\.?$",
        [PAT_SKIPPED_DUE] = "^Skipped due to '([^']*)'\\.?$",
        [PAT_MAIN_EXITED] = "^Main process exited, code=([a-z]+), status=([0-9]+)(/([A-Za-z0-9_+-]+))?",
        [PAT_TASK_FAILED] = "^[Ff]ailed to (run|spawn) '([a-z-]+)' task: (.*)$",
        [PAT_NAMESPACE] = "^Failed to set up mount namespacing: (.*)$",
        [PAT_FAILED_AT_STEP] = "^Failed at step ([A-Z_]+) spawning (.*): (.*)$",
        [PAT_JOB_FAILED_RESULT] = "^Job " U "/" T " failed with result '([^']*)'\\.?$",
        [PAT_RESTART] = "^Scheduled restart job, restart counter is at ([0-9]+)",
        [PAT_CYCLE_FOUND_ON] = "^Found ordering cycle on " U "/" T "$",
        [PAT_CYCLE_FOUND_LIST] = "^Found ordering cycle: (.*)$",
        [PAT_CYCLE_DEP] = "^Found dependency on " U "/" T "$",
        [PAT_CYCLE_BREAKING] = "^Breaking ordering cycle by deleting job " U "/" T "$",
        [PAT_CYCLE_DELETED] = "^Job " U "/" T " deleted to break ordering cycle starting with " U "/" T "$",
        [PAT_CYCLE_UNFIXABLE] = "^Unable to break cycle( starting with " U "/" T ")?",
        [PAT_UNIT_ENTERED_FAILED] = "^Unit " U " entered failed state\\.?$",
        [PAT_OLD_TASK_FAILED] = "^" U " failed to run '([a-z-]+)' task: (.*)$",
        [PAT_CONDITION_OLD] = "^Condition check resulted in (.*) being skipped\\.?$",
        [PAT_CONDITION_NEW] = "^(.*) was skipped because (.*)$",
        [PAT_MANAGER_VERSION] = "^systemd ([^ ]+) running in system mode",
        [PAT_KERNEL_VERSION] = "^Linux version ([^ ]+)",
};
#undef U
#undef T

static regex_t patterns[_PAT_MAX];
static int patterns_state; /* 0 not compiled, 1 ok, <0 failed */

static int patterns_compile(void) {
        if (patterns_state != 0)
                return patterns_state;
        for (size_t i = 0; i < _PAT_MAX; i++)
                if (regcomp(&patterns[i], pattern_source[i], REG_EXTENDED) != 0) {
                        for (size_t k = 0; k < i; k++)
                                regfree(&patterns[k]);
                        return patterns_state = -ENOMEM;
                }
        return patterns_state = 1;
}

#define N_GROUPS 8

/* Every pattern needs a literal that is cheap to look for first: most manager records are status texts that
 * match none of them, and regexec() is the cost of a scan. */
static bool prefilter(int pat, const char *s) {
        switch (pat) {
        case PAT_FAILED_RESULT:
                return startswith(s, "Failed with result '");
        case PAT_ENTERED_FAILED:
                return startswith(s, "Unit entered failed state");
        case PAT_DEACTIVATED:
                return startswith(s, "Deactivated successfully");
        case PAT_SKIPPED_DUE:
                return startswith(s, "Skipped due to '");
        case PAT_MAIN_EXITED:
                return startswith(s, "Main process exited, ");
        case PAT_TASK_FAILED:
                return (s[0] == 'F' || s[0] == 'f') && startswith(s + 1, "ailed to ");
        case PAT_NAMESPACE:
                return startswith(s, "Failed to set up mount namespacing: ");
        case PAT_FAILED_AT_STEP:
                return startswith(s, "Failed at step ");
        case PAT_JOB_FAILED_RESULT:
                return startswith(s, "Job ") && strstr(s, " failed with result '");
        case PAT_RESTART:
                return startswith(s, "Scheduled restart job");
        case PAT_CYCLE_FOUND_ON:
                return startswith(s, "Found ordering cycle on ");
        case PAT_CYCLE_FOUND_LIST:
                return startswith(s, "Found ordering cycle: ");
        case PAT_CYCLE_DEP:
                return startswith(s, "Found dependency on ");
        case PAT_CYCLE_BREAKING:
                return startswith(s, "Breaking ordering cycle");
        case PAT_CYCLE_DELETED:
                return startswith(s, "Job ") && strstr(s, " deleted to break ordering cycle");
        case PAT_CYCLE_UNFIXABLE:
                return startswith(s, "Unable to break cycle");
        case PAT_UNIT_ENTERED_FAILED:
                return startswith(s, "Unit ");
        case PAT_OLD_TASK_FAILED:
                return strstr(s, " failed to run '");
        case PAT_CONDITION_OLD:
                return startswith(s, "Condition check resulted in ");
        case PAT_CONDITION_NEW:
                return strstr(s, " was skipped because ");
        case PAT_MANAGER_VERSION:
                return startswith(s, "systemd ");
        case PAT_KERNEL_VERSION:
                return startswith(s, "Linux version ");
        }
        return true;
}

static bool match(int pat, const char *s, regmatch_t m[N_GROUPS]) {
        return prefilter(pat, s) && regexec(&patterns[pat], s, N_GROUPS, m, 0) == 0;
}

static bool group_set(const regmatch_t m[N_GROUPS], int g) {
        return m[g].rm_so >= 0;
}

static char *group_dup(const char *s, const regmatch_t m[N_GROUPS], int g) {
        if (!group_set(m, g))
                return NULL;
        return strndup_safe(s + m[g].rm_so, m[g].rm_eo - m[g].rm_so);
}

static bool group_is_unit(const char *s, const regmatch_t m[N_GROUPS], int g) {
        return group_set(m, g) && journal_unit_name_plausible(s + m[g].rm_so, m[g].rm_eo - m[g].rm_so);
}

/* Sets *p to a copy of group g unless already set. Returns 0 or -ENOMEM. */
static int set_group(char **p, const char *s, const regmatch_t m[N_GROUPS], int g) {
        if (*p || !group_set(m, g))
                return 0;
        *p = group_dup(s, m, g);
        return *p ? 0 : -ENOMEM;
}

static int set_str(char **p, const char *v) {
        if (*p || !v)
                return 0;
        *p = strdup(v);
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

/* "NAME - Description" (v249+ status texts) -> unit NAME and description; otherwise the whole text is the
 * description. */
static int split_status_object(const char *obj, size_t len, char **ret_unit, char **ret_description) {
        const char *sep = NULL;

        for (size_t i = 0; i + 3 <= len; i++)
                if (memcmp(obj + i, " - ", 3) == 0) {
                        sep = obj + i;
                        break;
                }
        if (sep && journal_unit_name_plausible(obj, sep - obj)) {
                *ret_unit = strndup_safe(obj, sep - obj);
                *ret_description = strndup_safe(sep + 3, len - (sep - obj) - 3);
                if (!*ret_unit || !*ret_description)
                        return -ENOMEM;
                return 0;
        }
        *ret_unit = NULL;
        if (len > 0 && journal_unit_name_plausible(obj, len)) {
                *ret_unit = strndup_safe(obj, len);
                if (!*ret_unit)
                        return -ENOMEM;
        }
        *ret_description = strndup_safe(obj, len);
        return *ret_description ? 0 : -ENOMEM;
}

typedef struct StatusText {
        const char *prefix;
        const char *suffix;
        JournalEventType type;
        const char *result; /* for JOB_FAILED */
} StatusText;

/* Job status texts (job_done_messages / job_start_messages in src/core/job.c), most specific first. */
static const StatusText status_texts[] = {
        { "Starting of ", " unsupported.", JOURNAL_EVENT_JOB_FAILED, "unsupported" },
        { "Starting of ", " not supported.", JOURNAL_EVENT_JOB_FAILED, "unsupported" },
        { "Starting ", "...", JOURNAL_EVENT_JOB_START, NULL },
        { "Starting ", "\xe2\x80\xa6", JOURNAL_EVENT_JOB_START, NULL },
        { "Started ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Finished ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Reached target ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Listening on ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Mounted ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Activated swap ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Set up automount ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Created slice ", ".", JOURNAL_EVENT_JOB_DONE, NULL },
        { "Failed to start ", ".", JOURNAL_EVENT_JOB_FAILED, "failed" },
        { "Failed to listen on ", ".", JOURNAL_EVENT_JOB_FAILED, "failed" },
        { "Failed to mount ", ".", JOURNAL_EVENT_JOB_FAILED, "failed" },
        { "Failed to activate swap ", ".", JOURNAL_EVENT_JOB_FAILED, "failed" },
        { "Failed to set up automount ", ".", JOURNAL_EVENT_JOB_FAILED, "failed" },
        { "Dependency failed for ", ".", JOURNAL_EVENT_JOB_FAILED, "dependency" },
        { "Timed out starting ", ".", JOURNAL_EVENT_JOB_FAILED, "timeout" },
        { "Timed out waiting for device ", ".", JOURNAL_EVENT_JOB_FAILED, "timeout" },
        { "Assertion failed for ", ".", JOURNAL_EVENT_JOB_FAILED, "assert" },
        { "Stopping ", "...", JOURNAL_EVENT_STOP, NULL },
        { "Stopping ", "\xe2\x80\xa6", JOURNAL_EVENT_STOP, NULL },
        { "Stopped target ", ".", JOURNAL_EVENT_STOP, NULL },
        { "Stopped ", ".", JOURNAL_EVENT_STOP, NULL },
        { "Unmounting ", "...", JOURNAL_EVENT_STOP, NULL },
        { "Unmounted ", ".", JOURNAL_EVENT_STOP, NULL },
        { "Closed ", ".", JOURNAL_EVENT_STOP, NULL },
        { "Removed slice ", ".", JOURNAL_EVENT_STOP, NULL },
        { "Deactivated swap ", ".", JOURNAL_EVENT_STOP, NULL },
};

static const StatusText *status_text_find(const char *msg, const char **ret_obj, size_t *ret_len) {
        size_t ml = strlen(msg);

        for (size_t i = 0; i < ELEMENTSOF(status_texts); i++) {
                const StatusText *s = &status_texts[i];
                size_t pl = strlen(s->prefix), sl = strlen(s->suffix);
                if (ml <= pl + sl || strncmp(msg, s->prefix, pl) != 0 || strcmp(msg + ml - sl, s->suffix) != 0)
                        continue;
                *ret_obj = msg + pl;
                *ret_len = ml - pl - sl;
                return s;
        }
        return NULL;
}

/* Job status and condition texts: sets type, unit (unless set from UNIT=) and description. */
static int decode_status_text(const char *msg, JournalEvent *e) {
        _cleanup_(freep) char *unit = NULL, *desc = NULL;
        regmatch_t m[N_GROUPS];
        const StatusText *st;
        const char *obj;
        size_t len;
        int r;

        if (match(PAT_CONDITION_OLD, msg, m) || match(PAT_CONDITION_NEW, msg, m)) {
                obj = msg + m[1].rm_so;
                len = m[1].rm_eo - m[1].rm_so;
                e->type = JOURNAL_EVENT_CONDITION_SKIP;
        } else if ((st = status_text_find(msg, &obj, &len))) {
                e->type = st->type;
                if (st->result && (r = set_str(&e->result, st->result)) < 0)
                        return r;
                if (st->type == JOURNAL_EVENT_STOP && (r = set_str(&e->job_type, "stop")) < 0)
                        return r;
        } else
                return 0;

        r = split_status_object(obj, len, &unit, &desc);
        if (r < 0)
                return r;
        if (!e->unit)
                e->unit = TAKE_PTR(unit);
        if (!e->description)
                e->description = TAKE_PTR(desc);
        return 0;
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

/* Text after a unit prefix (or the whole message for the ≤v219 forms). prefix_unit may be NULL. */
static int decode_unit_text(const char *rest, const char *prefix_unit, JournalEvent *e) {
        regmatch_t m[N_GROUPS];
        int r = 0;

        if (match(PAT_FAILED_RESULT, rest, m)) {
                e->type = JOURNAL_EVENT_UNIT_FAILED;
                r = set_group(&e->result, rest, m, 1);
        } else if (match(PAT_ENTERED_FAILED, rest, m))
                e->type = JOURNAL_EVENT_UNIT_FAILED;
        else if (match(PAT_DEACTIVATED, rest, m))
                e->type = JOURNAL_EVENT_UNIT_SUCCESS;
        else if (match(PAT_SKIPPED_DUE, rest, m)) {
                e->type = JOURNAL_EVENT_EXEC_CONDITION;
                r = set_group(&e->result, rest, m, 1);
        } else if (match(PAT_MAIN_EXITED, rest, m)) {
                e->type = JOURNAL_EVENT_PROCESS_EXIT;
                if ((r = set_group(&e->exit_code, rest, m, 1)) >= 0 && !e->exit_status) {
                        /* "2/INVALIDARGUMENT" or "2" */
                        int last = group_set(m, 4) ? 4 : 2;
                        e->exit_status = strndup_safe(rest + m[2].rm_so, m[last].rm_eo - m[2].rm_so);
                        if (!e->exit_status)
                                r = -ENOMEM;
                }
        } else if (match(PAT_TASK_FAILED, rest, m)) {
                e->type = JOURNAL_EVENT_SPAWN_FAILED;
                if ((r = set_group(&e->step, rest, m, 2)) >= 0 && (r = set_group(&e->error, rest, m, 3)) >= 0)
                        r = set_str(&e->result, "resources");
        } else if (match(PAT_NAMESPACE, rest, m)) {
                e->type = JOURNAL_EVENT_SPAWN_FAILED;
                if ((r = set_str(&e->step, "NAMESPACE")) >= 0)
                        r = set_group(&e->error, rest, m, 1);
        } else if (match(PAT_FAILED_AT_STEP, rest, m)) {
                e->type = JOURNAL_EVENT_SPAWN_FAILED;
                if ((r = set_group(&e->step, rest, m, 1)) >= 0)
                        r = set_group(&e->error, rest, m, 3);
        } else if (match(PAT_JOB_FAILED_RESULT, rest, m) && group_is_unit(rest, m, 1)) {
                e->type = JOURNAL_EVENT_JOB_FAILED;
                free(e->unit);
                if (!(e->unit = group_dup(rest, m, 1)))
                        return -ENOMEM;
                if ((r = set_group(&e->job_type, rest, m, 2)) >= 0)
                        r = set_group(&e->result, rest, m, 3);
        } else if (match(PAT_RESTART, rest, m))
                e->type = JOURNAL_EVENT_RESTART;
        else if (match(PAT_CYCLE_FOUND_ON, rest, m) && group_is_unit(rest, m, 1)) {
                e->type = JOURNAL_EVENT_CYCLE_FOUND;
                if ((r = set_group(&e->job_unit, rest, m, 1)) >= 0)
                        r = set_str(&e->cycle_unit, prefix_unit ?: e->job_unit);
        } else if (match(PAT_CYCLE_FOUND_LIST, rest, m)) {
                _cleanup_(freep) char *list = group_dup(rest, m, 1);
                e->type = JOURNAL_EVENT_CYCLE_FOUND;
                if (!list)
                        return -ENOMEM;
                if ((r = parse_cycle_list(list, &e->cycle_jobs)) >= 0 && e->cycle_jobs && e->cycle_jobs[0] &&
                    !e->job_unit)
                        r = job_to_unit(e->cycle_jobs[0], &e->job_unit);
                if (r >= 0)
                        r = set_str(&e->cycle_unit, prefix_unit ?: e->job_unit);
        } else if (match(PAT_CYCLE_DEP, rest, m) && group_is_unit(rest, m, 1)) {
                e->type = JOURNAL_EVENT_CYCLE_DEPENDENCY;
                if ((r = set_group(&e->job_unit, rest, m, 1)) >= 0)
                        r = set_str(&e->cycle_unit, prefix_unit);
        } else if (match(PAT_CYCLE_BREAKING, rest, m) && group_is_unit(rest, m, 1)) {
                e->type = JOURNAL_EVENT_CYCLE_BREAKING;
                if ((r = set_group(&e->job_unit, rest, m, 1)) >= 0 && (r = set_group(&e->job_type, rest, m, 2)) >= 0)
                        r = set_str(&e->cycle_unit, prefix_unit);
        } else if (match(PAT_CYCLE_DELETED, rest, m) && group_is_unit(rest, m, 1) && group_is_unit(rest, m, 3)) {
                e->type = JOURNAL_EVENT_CYCLE_DELETED;
                /* the cycle's start is in the text; the prefix is X from v235 but D before (journal.md §4) */
                if ((r = set_group(&e->job_unit, rest, m, 1)) >= 0 && (r = set_group(&e->job_type, rest, m, 2)) >= 0)
                        r = set_group(&e->cycle_unit, rest, m, 3);
        } else if (match(PAT_CYCLE_UNFIXABLE, rest, m)) {
                e->type = JOURNAL_EVENT_CYCLE_UNFIXABLE;
                if (group_is_unit(rest, m, 2))
                        r = set_group(&e->cycle_unit, rest, m, 2);
                if (r >= 0)
                        r = set_str(&e->cycle_unit, prefix_unit);
        } else
                return 0;
        if (r < 0)
                return r;
        if (!e->unit && prefix_unit && !(e->unit = strdup(prefix_unit)))
                return -ENOMEM;
        return 1;
}

/* Manager plain text of every era. */
static int decode_manager_text(const char *msg, JournalEvent *e) {
        _cleanup_(freep) char *prefix = NULL;
        regmatch_t m[N_GROUPS];
        const char *rest;
        int r;

        rest = unit_prefix(msg, &prefix);
        if (rest) {
                r = decode_unit_text(rest, prefix, e);
                if (r != 0)
                        return r < 0 ? r : 0;
        }

        /* ≤v219 forms without a "U: " prefix */
        r = decode_unit_text(msg, NULL, e);
        if (r != 0)
                return r < 0 ? r : 0;
        if (match(PAT_UNIT_ENTERED_FAILED, msg, m) && group_is_unit(msg, m, 1)) {
                e->type = JOURNAL_EVENT_UNIT_FAILED;
                free(e->unit);
                return (e->unit = group_dup(msg, m, 1)) ? 0 : -ENOMEM;
        }
        if (match(PAT_OLD_TASK_FAILED, msg, m) && group_is_unit(msg, m, 1)) {
                e->type = JOURNAL_EVENT_SPAWN_FAILED;
                free(e->unit);
                if (!(e->unit = group_dup(msg, m, 1)))
                        return -ENOMEM;
                if ((r = set_group(&e->step, msg, m, 2)) < 0 || (r = set_group(&e->error, msg, m, 3)) < 0)
                        return r;
                return set_str(&e->result, "resources");
        }
        if (startswith(msg, "Startup finished in ")) {
                e->type = JOURNAL_EVENT_STARTUP_FINISHED;
                return 0;
        }
        if (match(PAT_MANAGER_VERSION, msg, m)) {
                e->type = JOURNAL_EVENT_MANAGER_VERSION;
                free(e->result);
                return (e->result = group_dup(msg, m, 1)) ? 0 : -ENOMEM;
        }
        r = decode_status_text(msg, e);
        if (r < 0)
                return r;
        if (e->type == JOURNAL_EVENT_NONE && strstr(msg, "ordering cycle"))
                e->type = JOURNAL_EVENT_CYCLE_OTHER;
        return 0;
}

static int decode_structured(const JournalFields *f, const char *mid, const char *msg, JournalEvent *e) {
        int r = 0;

        if (streq(mid, MID_JOB_STARTING)) {
                e->type = JOURNAL_EVENT_JOB_START;
                r = set_str(&e->job_type, "start");
        } else if (streq(mid, MID_JOB_STARTED)) {
                _cleanup_(freep) char *jr = NULL;
                if ((r = set_field(&jr, f, "JOB_RESULT")) < 0 || (r = set_field(&jr, f, "RESULT")) < 0)
                        return r;
                e->type = JOURNAL_EVENT_JOB_DONE;
                if (jr && !streq(jr, "done")) {
                        e->type = streq(jr, "skipped") ? JOURNAL_EVENT_CONDITION_SKIP : JOURNAL_EVENT_JOB_FAILED;
                        e->result = TAKE_PTR(jr);
                }
        } else if (streq(mid, MID_JOB_FAILED)) {
                e->type = JOURNAL_EVENT_JOB_FAILED;
                if ((r = set_field(&e->result, f, "JOB_RESULT")) >= 0)
                        r = set_field(&e->result, f, "RESULT");
        } else if (streq(mid, MID_STOPPING) || streq(mid, MID_STOPPED)) {
                e->type = JOURNAL_EVENT_STOP;
                r = set_str(&e->job_type, "stop");
        } else if (streq(mid, MID_UNIT_SUCCESS))
                e->type = JOURNAL_EVENT_UNIT_SUCCESS;
        else if (streq(mid, MID_UNIT_FAILURE_RESULT)) {
                e->type = JOURNAL_EVENT_UNIT_FAILED;
                r = set_field(&e->result, f, "UNIT_RESULT");
        } else if (streq(mid, MID_UNIT_SKIPPED)) {
                e->type = JOURNAL_EVENT_EXEC_CONDITION;
                r = set_field(&e->result, f, "UNIT_RESULT");
        } else if (streq(mid, MID_PROCESS_EXIT)) {
                e->type = JOURNAL_EVENT_PROCESS_EXIT;
                if ((r = set_field(&e->exit_code, f, "EXIT_CODE")) >= 0)
                        r = set_field(&e->exit_status, f, "EXIT_STATUS");
        } else if (streq(mid, MID_SPAWN_FAILED)) {
                _cleanup_(freep) char *errnostr = NULL;
                unsigned en;
                e->type = JOURNAL_EVENT_SPAWN_FAILED;
                if ((r = set_field(&errnostr, f, "ERRNO")) < 0)
                        return r;
                if (errnostr && safe_atou(errnostr, &en) >= 0 && en > 0 && en < 4096)
                        r = set_str(&e->error, strerror((int) en));
        } else if (streq(mid, MID_RESTART_SCHEDULED))
                e->type = JOURNAL_EVENT_RESTART;
        else if (streq(mid, MID_STARTUP_FINISHED) || streq(mid, MID_USER_STARTUP_FINISHED))
                e->type = JOURNAL_EVENT_STARTUP_FINISHED;
        else if (streq(mid, MID_ORDERING_CYCLE))
                e->type = JOURNAL_EVENT_CYCLE_FOUND;
        else if (streq(mid, MID_DELETING_JOB)) {
                e->type = JOURNAL_EVENT_CYCLE_DELETED;
                if ((r = set_field(&e->job_unit, f, "DELETED_UNIT")) >= 0)
                        r = set_field(&e->job_type, f, "DELETED_TYPE");
        } else if (streq(mid, MID_CYCLE_UNFIXABLE))
                e->type = JOURNAL_EVENT_CYCLE_UNFIXABLE;
        else if (streq(mid, MID_JOURNAL_STOP))
                e->type = JOURNAL_EVENT_JOURNAL_STOPPED;
        else if (streq(mid, MID_JOURNAL_USAGE)) {
                if (msg && startswith(msg, "System Journal"))
                        e->type = JOURNAL_EVENT_JOURNAL_FLUSHED;
        }
        if (r < 0)
                return r;

        /* The text fills in what older releases did not put into fields (RESULT before v235, no UNIT_RESULT
         * before v240, no DELETED_UNIT before v258), tells condition skips from real starts and gives the
         * description. Stop and success records need nothing from it; a done job only its description, unless
         * it says it was skipped. */
        if (msg && (e->type == JOURNAL_EVENT_STOP || e->type == JOURNAL_EVENT_UNIT_SUCCESS ||
                    e->type == JOURNAL_EVENT_RESTART))
                return 0;
        if (msg && e->type == JOURNAL_EVENT_JOB_DONE && !strstr(msg, "skipped")) {
                const StatusText *st;
                const char *obj;
                size_t len;
                _cleanup_(freep) char *unit = NULL;

                if ((st = status_text_find(msg, &obj, &len)) && st->type == JOURNAL_EVENT_JOB_DONE) {
                        if ((r = split_status_object(obj, len, &unit, &e->description)) < 0)
                                return r;
                        if (!e->unit)
                                e->unit = TAKE_PTR(unit);
                }
                return 0;
        }
        if (msg && e->type != JOURNAL_EVENT_NONE && e->type < JOURNAL_EVENT_STARTUP_FINISHED) {
                JournalEvent t = { .type = JOURNAL_EVENT_NONE };
                r = decode_manager_text(msg, &t);
                if (r >= 0) {
                        if (t.type == JOURNAL_EVENT_CONDITION_SKIP && e->type == JOURNAL_EVENT_JOB_DONE)
                                e->type = JOURNAL_EVENT_CONDITION_SKIP;
                        if (t.type == e->type || (t.type == JOURNAL_EVENT_CONDITION_SKIP &&
                                                  e->type == JOURNAL_EVENT_CONDITION_SKIP)) {
                                if (!e->result && t.result)
                                        e->result = TAKE_PTR(t.result);
                                if (!e->exit_code && t.exit_code)
                                        e->exit_code = TAKE_PTR(t.exit_code);
                                if (!e->exit_status && t.exit_status)
                                        e->exit_status = TAKE_PTR(t.exit_status);
                                if (!e->error && t.error)
                                        e->error = TAKE_PTR(t.error);
                                if (!e->step && t.step)
                                        e->step = TAKE_PTR(t.step);
                                if (!e->job_unit && t.job_unit)
                                        e->job_unit = TAKE_PTR(t.job_unit);
                                if (!e->job_type && t.job_type)
                                        e->job_type = TAKE_PTR(t.job_type);
                                if (!e->cycle_unit && t.cycle_unit)
                                        e->cycle_unit = TAKE_PTR(t.cycle_unit);
                                if (!e->cycle_jobs && t.cycle_jobs)
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
        if (e->type == JOURNAL_EVENT_JOB_FAILED && !e->result)
                return set_str(&e->result, "failed");
        return 0;
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

static int decode(const JournalFields *f, JournalEvent *e) {
        _cleanup_(freep) char *msg = NULL, *mid = NULL, *ident = NULL;
        bool kernel = journal_fields_has(f, "_TRANSPORT", "kernel");
        bool pid1 = journal_fields_has(f, "_PID", "1");
        bool has_unit = false, user = false, manager;
        const char *v;
        size_t l;
        int r;

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

        /* Who wrote it: the system manager (PID 1, its kmsg copies, or its forked helpers that log with UNIT=),
         * or someone else. User managers (USER_UNIT=) are not the system manager. */
        manager = !user && ((pid1 && !kernel) ||
                            (kernel && streq_ptr(ident, "systemd")) ||
                            (has_unit && (streq_ptr(ident, "systemd") || streq_ptr(ident, "systemd-executor"))));

        if (mid && manager && strv_contains((char **) journal_event_message_ids, mid)) {
                e->origin = JOURNAL_ORIGIN_STRUCTURED;
                return decode_structured(f, mid, msg, e);
        }
        if (!msg)
                return 0;
        if (mid && streq(mid, MID_JOURNAL_STOP)) {
                e->origin = JOURNAL_ORIGIN_OTHER;
                e->type = JOURNAL_EVENT_JOURNAL_STOPPED;
                return 0;
        }
        if (mid && streq(mid, MID_JOURNAL_USAGE) && startswith(msg, "System Journal")) {
                e->origin = JOURNAL_ORIGIN_OTHER;
                e->type = JOURNAL_EVENT_JOURNAL_FLUSHED;
                return 0;
        }
        if (manager) {
                e->origin = kernel ? JOURNAL_ORIGIN_KERNEL : JOURNAL_ORIGIN_TEXT;
                return decode_manager_text(msg, e);
        }
        if (streq_ptr(ident, "systemd-journald") && (startswith(msg, "Time spent on flushing to /var") ||
                                                    startswith(msg, "System Journal ("))) {
                e->origin = JOURNAL_ORIGIN_OTHER;
                e->type = JOURNAL_EVENT_JOURNAL_FLUSHED;
                return 0;
        }
        if (kernel && (!ident || streq(ident, "kernel"))) {
                regmatch_t m[N_GROUPS];
                if (match(PAT_KERNEL_VERSION, msg, m)) {
                        e->origin = JOURNAL_ORIGIN_OTHER;
                        e->type = JOURNAL_EVENT_KERNEL_VERSION;
                        return (e->result = group_dup(msg, m, 1)) ? 0 : -ENOMEM;
                }
                return 0;
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

int journal_event_decode(const JournalFields *f, JournalEvent *ret) {
        JournalEvent e = { .type = JOURNAL_EVENT_NONE, .origin = JOURNAL_ORIGIN_OTHER };
        int r;

        *ret = (JournalEvent) {};
        r = patterns_compile();
        if (r < 0)
                return r;
        r = decode(f, &e);
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
