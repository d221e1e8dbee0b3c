/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Decoding of journal records into typed unit-lifecycle events, for every systemd era: structured records
 * (MESSAGE_ID, UNIT=, UNIT_RESULT=, JOB_RESULT=, …) and plain text from PID 1 on the journal, syslog or kernel
 * transport (knowledge/journal.md §1–§5). What the records look like is data (rules/messages.xml): a
 * JournalDecoder is compiled from it once, and journal_event_decode() is then a pure function of a field set, so
 * the same code serves sd-journal, tests and the fuzzer. Field data is bytes with a length, never NUL-terminated. */

#include "basic/util.h"
#include "rules/rules.h"

typedef struct JournalField {
        const char *name;
        size_t name_len;
        const char *value;
        size_t value_len;
} JournalField;

/* A borrowed view of one record's fields: the pointers point into the caller's buffers (sd-journal's data or a
 * fuzz input) and are valid until the caller moves on. Repeated fields appear once per value. */
typedef struct JournalFields {
        JournalField *items;
        size_t n, allocated;
        uint64_t monotonic_usec; /* the entry's own __MONOTONIC_TIMESTAMP; 0 when unknown */
        uint64_t realtime_usec;
} JournalFields;

/* Adds one "NAME=value" blob of len bytes (no NUL needed). Blobs without '=' are ignored. Returns 0 or -ENOMEM. */
int journal_fields_add(JournalFields *f, const void *data, size_t len);
void journal_fields_reset(JournalFields *f);
void journal_fields_done(JournalFields *f);
/* The first value of field name: true with *ret and *ret_len set, or false. */
bool journal_fields_get(const JournalFields *f, const char *name, const char **ret, size_t *ret_len);
/* Does the field name have the value exactly (any of its values)? */
bool journal_fields_has(const JournalFields *f, const char *name, const char *value);

typedef enum JournalEventType {
        JOURNAL_EVENT_NONE,             /* nothing bootrace uses */
        JOURNAL_EVENT_JOB_START,        /* a start job began: "Starting DESC..." */
        JOURNAL_EVENT_JOB_DONE,         /* a start job finished: Started/Finished/Reached target/Mounted/Listening on */
        JOURNAL_EVENT_JOB_FAILED,       /* a start job ended otherwise: result = job result (failed, dependency, …) */
        JOURNAL_EVENT_CONDITION_SKIP,   /* a start job done, but a Condition…= was not met */
        JOURNAL_EVENT_UNIT_SUCCESS,     /* "U: Deactivated successfully." */
        JOURNAL_EVENT_UNIT_FAILED,      /* "U: Failed with result 'R'." / "entered failed state"; result maybe NULL */
        JOURNAL_EVENT_EXEC_CONDITION,   /* "U: Skipped due to 'exec-condition'." */
        JOURNAL_EVENT_PROCESS_EXIT,     /* "U: Main process exited, code=C, status=N/NAME" */
        JOURNAL_EVENT_SPAWN_FAILED,     /* "Failed to run 'start' task: ERR", "Failed at step …", namespace setup */
        JOURNAL_EVENT_STOP,             /* a stop job: "Stopping …", "Stopped …" */
        JOURNAL_EVENT_RESTART,          /* "Scheduled restart job" */
        JOURNAL_EVENT_CYCLE_FOUND,      /* "Found ordering cycle on J" or (v258) "Found ordering cycle: J after …" */
        JOURNAL_EVENT_CYCLE_DEPENDENCY, /* "Found dependency on J" */
        JOURNAL_EVENT_CYCLE_BREAKING,   /* ≤v234: "Breaking ordering cycle by deleting job D/T" */
        JOURNAL_EVENT_CYCLE_DELETED,    /* "Job D/T deleted to break ordering cycle starting with X/T" */
        JOURNAL_EVENT_CYCLE_UNFIXABLE,  /* "Unable to break cycle" */
        JOURNAL_EVENT_CYCLE_OTHER,      /* an ordering cycle in no form known: kept, not dropped */
        JOURNAL_EVENT_STARTUP_FINISHED, /* "Startup finished in …" from PID 1 */
        JOURNAL_EVENT_JOURNAL_FLUSHED,  /* journald wrote to /var: the boot reached the persistent journal */
        JOURNAL_EVENT_JOURNAL_STOPPED,  /* journald stopped: the boot's journal ended cleanly */
        JOURNAL_EVENT_MANAGER_VERSION,  /* "systemd V running in system mode" */
        JOURNAL_EVENT_KERNEL_VERSION,   /* "Linux version V …" */
        JOURNAL_EVENT_UNIT_OUTPUT,      /* a line a unit's own processes logged (not the manager) */
        _JOURNAL_EVENT_MAX,
        _JOURNAL_EVENT_INVALID = -EINVAL,
} JournalEventType;

typedef enum JournalOrigin {
        JOURNAL_ORIGIN_STRUCTURED, /* a manager record with a known MESSAGE_ID */
        JOURNAL_ORIGIN_TEXT,       /* manager plain text on the journal/syslog transport */
        JOURNAL_ORIGIN_KERNEL,     /* manager plain text that came through kmsg (_TRANSPORT=kernel) */
        JOURNAL_ORIGIN_OUTPUT,     /* a unit's own process */
        JOURNAL_ORIGIN_OTHER,      /* journald, the kernel */
        _JOURNAL_ORIGIN_MAX,
        _JOURNAL_ORIGIN_INVALID = -EINVAL,
} JournalOrigin;

typedef struct JournalEvent {
        JournalEventType type;
        JournalOrigin origin;
        char *unit;         /* the unit the record is about; NULL when only a description is known */
        char *description;  /* job texts: the description ("Starting DESC..."), without a "U - " prefix */
        char **units;       /* every UNIT= value (cycle records list all units of the cycle), maybe NULL */
        char *result;       /* unit or job result: exit-code, resources, dependency, timeout, … */
        char *job_type;     /* start, stop, … when known */
        char *exit_code;    /* exited, killed, dumped */
        char *exit_status;  /* "226/NAMESPACE", "1/FAILURE", "2" */
        char *error;        /* an errno text: "Read-only file system" (signature) */
        char *step;         /* "Failed at step NAMESPACE": NAMESPACE; "'start' task": start */
        char *cycle_unit;   /* cycles: X, the unit whose job the walk started from */
        char *job_unit;     /* cycles: the unit of J or D in the line */
        char **cycle_jobs;  /* v258 "Found ordering cycle:" line: every "U/T" in order */
        char *message;      /* MESSAGE (cycle lines, output lines, versions), NUL-terminated, maybe NULL */
        uint64_t usec;      /* _SOURCE_MONOTONIC_TIMESTAMP if present, else the entry's monotonic time */
} JournalEvent;

const char *journal_event_type_to_string(JournalEventType t);
/* "none" is JOURNAL_EVENT_NONE; an unknown name is _JOURNAL_EVENT_INVALID. */
JournalEventType journal_event_type_from_string(const char *s);
const char *journal_origin_to_string(JournalOrigin o);

void journal_event_done(JournalEvent *e);

/* The compiled message rules. Built once from loaded Rules (which it borrows: they must outlive it). */
typedef struct JournalDecoder JournalDecoder;

/* Returns 0, -ENOMEM, or -EBADMSG when the rules name an event this decoder does not know. */
int journal_decoder_new(const Rules *rules, JournalDecoder **ret);
JournalDecoder *journal_decoder_free(JournalDecoder *d);
static inline void journal_decoder_freep(JournalDecoder **d) {
        journal_decoder_free(*d);
}

/* Decodes one record. Returns 1 with *ret filled (the caller must journal_event_done() it), 0 for a record of no
 * interest (*ret zeroed, type NONE), -ENOMEM. Never fails on malformed input. */
int journal_event_decode(const JournalDecoder *d, const JournalFields *f, JournalEvent *ret);

/* Is s a plausible systemd unit name (valid characters, a known type suffix, <= 255 bytes)? */
bool journal_unit_name_plausible(const char *s, size_t n);

/* Finds the errno description (strerror text, C locale) that occurs in text, the longest when several do.
 * Returns a static string or NULL. */
const char *journal_find_errno_text(const char *text);

/* For sd_journal_add_match(), NULL-terminated lists owned by the decoder: the MESSAGE_IDs that others than PID 1
 * write too (systemd-executor from v255, journald), and the SYSLOG_IDENTIFIERs of a writer (manager, journald). */
char * const *journal_decoder_message_ids_not_pid1(const JournalDecoder *d);
char * const *journal_decoder_identifiers(const JournalDecoder *d, MessageWriter role);
