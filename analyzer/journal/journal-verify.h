/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A structural check of one journal file, read-only, without sd-journal: the header against the objects,
 * every object's frame, the hashes of uncompressed payloads, and every reference that sd-journal follows
 * when it reads (the entry arrays from the header and from each data object, the entries' items, the hash
 * chains, the field chains). sd-journal itself trusts most of these and silently returns less, or other,
 * data when they are damaged; what this finds is damage that changes what a reader sees. Facts from
 * systemd's docs/JOURNAL_FILE_FORMAT.md. */

#include <stdbool.h>
#include <stdint.h>

#define JOURNAL_VERIFY_PROBLEMS_KEPT 3

typedef struct JournalVerifyReport {
        uint8_t state; /* 0 offline, 1 online (being written or its writer crashed), 2 archived */
        uint64_t n_header_entries; /* what the header counts */
        uint64_t n_entries;        /* entry objects found */
        uint64_t n_unchecked;      /* compressed payloads whose hashes were not checked */
        /* offset of the first non-zero byte in free space (after the last object, between objects, the
         * reserved bytes of object headers): damage that changes nothing read; or 0 */
        uint64_t unused_dirty;
        unsigned n_problems;
        char *problems[JOURNAL_VERIFY_PROBLEMS_KEPT]; /* the first ones, in words with their offsets */
} JournalVerifyReport;

void journal_verify_report_done(JournalVerifyReport *r);

/* Checks the file at path. Returns 0 with the report filled (n_problems 0: no damage found); -EBADMSG when
 * it is no journal file at all (no signature, or a header too short to read); -EISDIR; -EBADFD when it is no
 * regular file (opened without blocking); -ENOMEM; other -errno from reading it. */
int journal_file_verify(const char *path, JournalVerifyReport *ret);

/* The two hash functions of the journal file format, exported for the unit tests: Bob Jenkins' lookup3
 * hashlittle2 as a 64-bit value (files without keyed hashes, and every entry's xor_hash), and SipHash-2-4
 * keyed with the file ID (files with keyed hashes). */
uint64_t journal_hash_jenkins64(const void *data, size_t size);
uint64_t journal_hash_siphash24(const void *data, size_t size, const uint8_t key[16]);
