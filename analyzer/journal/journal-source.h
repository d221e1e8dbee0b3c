/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Opening journals with sd-journal (a directory, files, a root's /var/log/journal, or the local journal),
 * listing their boots in boot order, and scanning the records bootrace needs with field matches. */

#include <systemd/sd-journal.h>

#include "basic/diag.h"
#include "journal/journal-events.h"

typedef struct JournalSourceSpec {
        char *directory; /* -D DIR: its journal files and those of its machine-ID subdirectories (as
                          * journalctl -D reads /var/log/journal, or a fleet's journals gathered there) */
        char **files;    /* --file=FILE… */
        char *root;      /* --root=DIR: DIR/var/log/journal and DIR/run/log/journal */
} JournalSourceSpec;

void journal_source_spec_done(JournalSourceSpec *s);
bool journal_source_spec_is_set(const JournalSourceSpec *s);
/* "-D DIR", "FILE, FILE", "--root DIR", "the local journal": for messages and reports. Returns NULL on OOM. */
char *journal_source_spec_describe(const JournalSourceSpec *s);

typedef struct JournalBoot {
        sd_id128_t id;
        char id_str[33];
        uint64_t first_realtime, last_realtime;
        uint64_t first_monotonic, last_monotonic;
        char *kernel; /* "Linux version" of the boot's first kernel record, if any */
        char machine_id[33]; /* _MACHINE_ID of the boot's last entry (else its first), "" when none says */
        char *hostname;      /* _HOSTNAME likewise (the name set during the boot, not the initrd's), or NULL */
} JournalBoot;

typedef struct JournalSource {
        sd_journal *journal;
        char *description;
        JournalBoot *boots; /* ordered by first entry */
        size_t n_boots;
        /* read problems: sd-journal skips what it cannot read; these say that it happened */
        uint64_t n_errors;
        int first_error;
        unsigned n_files, n_files_bad;
} JournalSource;

/* There are journal files, but no entry could be read from any of them. */
#define JOURNAL_SOURCE_EMPTY (-ENOMSG)

/* Opens the journals named by spec (none set: the local system journal). Files (all of them for --file, -D
 * and --root) are checked one by one first: their structure (journal_file_verify()), then every entry and
 * field read alone with sd-journal. A file sd-journal cannot open is left out; a damaged one (structural
 * problems, fewer readable entries than its header counts, read errors, unreadable fields) is still read for
 * what it holds. Both are an error in diags naming the file and count in n_errors; a file not closed cleanly,
 * or with bytes in its free space only, is a notice. diags is filled also when opening fails. Returns 0;
 * -ENOENT, -ENOTDIR, -EISDIR for a named path; JOURNAL_SOURCE_EMPTY when no entry can be read; or another
 * -errno from sd-journal. */
int journal_source_open(const JournalSourceSpec *spec, DiagList *diags, JournalSource **ret);
JournalSource *journal_source_free(JournalSource *s);
static inline void journal_source_freep(JournalSource **s) {
        journal_source_free(*s);
}

/* Of the unit names the journal holds (the values of UNIT= and _SYSTEMD_UNIT=), the one a mistyped name is closest
 * to (suggest.h), in *ret, or NULL. Returns 0 or -ENOMEM. For "did you mean": the scan has read only the units
 * asked for, so this asks the journal's field index. */
int journal_source_closest_unit(JournalSource *s, const char *name, char **ret);

/* Enumerates boots (sd_journal_query_unique on _BOOT_ID) and orders them by their first entry. */
int journal_source_list_boots(JournalSource *s);

typedef struct JournalScanMatches {
        /* NULL: every record a journal transport carries except plain kernel messages. Otherwise the manager's
         * records (_PID=1, kmsg copies of PID 1, journald, the MESSAGE_IDs others log) plus, for these units,
         * what runs in their cgroup (_SYSTEMD_UNIT=): their own output and their helpers' records. */
        char **units;
        /* from the message rules (journal_decoder_*()): MESSAGE_IDs others than PID 1 write, journald's and the
         * manager's SYSLOG_IDENTIFIERs (the latter for PID 1's kmsg copies); NULL: none */
        char * const *message_ids;
        char * const *journald;
        char * const *manager;
} JournalScanMatches;

/* Called for every matching entry of a selected boot; boot is an index into s->boots. A negative return stops
 * the scan and is returned. */
typedef int (*JournalEntryCallback)(const JournalFields *f, size_t boot, void *userdata);
/* Where a scan is: the totals are the boots in the journals, in boot order. */
typedef struct JournalProgress {
        uint64_t entries; /* matching entries read so far */
        size_t boot;      /* the boot of the last entry read (1 = the first boot), 0 before any */
        size_t boots;     /* boots in the journals */
        bool done;        /* the last call of the scan */
} JournalProgress;
typedef void (*JournalProgressCallback)(const JournalProgress *p, void *userdata);

/* Reads every matching entry of the boots with selected[i] set (selected NULL: all boots). Read errors of single
 * entries are counted in s->n_errors and skipped. Returns 0, or the callback's or sd-journal's -errno. */
int journal_source_scan(JournalSource *s, const JournalScanMatches *m, const bool *selected,
                        JournalEntryCallback cb, JournalProgressCallback progress, void *userdata);
