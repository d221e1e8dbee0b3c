/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Why a unit failed in a boot: when it started relative to the units that make paths writable at boot
 * (systemd-remount-fs, systemd-tmpfiles-setup, local-fs.target, the mounts its failing paths live on), from
 * the monotonic timestamps of that boot's records. */

#include "journal/boot-outcome.h"

typedef struct RaceMark {
        char *unit;
        const char *what; /* "finished", "reached", "mounted", "started only", "job deleted", "no record" */
        uint64_t usec;    /* 0 when not recorded */
        bool has_delta;
        int64_t delta_usec; /* usec - the unit's start */
} RaceMark;

typedef struct RaceEvidence {
        uint64_t start_usec;
        const char *start_kind; /* "started" ("Starting…" record), "first record", or NULL: nothing known */
        uint64_t end_usec;      /* the record that decided the outcome, 0 when none */
        RaceMark *marks;
        size_t n_marks;
        char *summary; /* one line */
} RaceEvidence;

/* Builds the evidence for unit index u in boot b. anchors: NULL-terminated unit names. Returns 0 or -ENOMEM. */
int race_evidence_build(const BootAnalysis *a, size_t u, size_t b, const char * const *anchors,
                        RaceEvidence *ret);
void race_evidence_done(RaceEvidence *e);

/* Absolute paths mentioned in text ("/var/lib/x/stamp" from "cannot create /var/lib/x/stamp: …"). */
int race_paths_in_text(const char *text, char ***ret);
