/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes reading a journal file the way bootrace stats does: the input is written to a scratch file, which is
 * checked on its own (journal_file_verify(), then every entry read with sd-journal), then opened, its boots
 * listed and every entry scanned. Seeds are small journal files in the four layouts (made by
 * tests/unit/test-journal-verify with TEST_JOURNAL_VERIFY_SEEDS=DIR) and damaged ones.
 *
 * Invariants checked besides "no crash, no leak": a file the checker passes has as many entries as its header
 * says, and a report keeps no more problems than it counts. FUZZ_DEBUG=1 prints the report and the
 * diagnostics. */

#include <fcntl.h>

#include "fuzz-util.h"
#include "fuzz.h"
#include "journal/journal-source.h"
#include "journal/journal-verify.h"

#define INPUT_MAX (1024 * 1024)

static int on_entry(const JournalFields *f, size_t boot, void *userdata) {
        (*(uint64_t *) userdata)++;
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_(journal_verify_report_done) JournalVerifyReport rep = {};
        _cleanup_(journal_source_freep) JournalSource *s = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        _cleanup_(freep) char *path = NULL;
        JournalSourceSpec spec = {};
        char *files[2] = {};
        uint64_t n = 0;
        int r;

        if (size > INPUT_MAX)
                return 0;
        path = fuzz_write_input("input.journal", data, size);

        r = journal_file_verify(path, &rep);
        if (r == -ENOMEM)
                abort();
        if (r == 0 && rep.n_problems == 0 && rep.n_entries != rep.n_header_entries)
                abort(); /* passed, but the header counts other entries than there are */
        for (size_t i = rep.n_problems; i < JOURNAL_VERIFY_PROBLEMS_KEPT; i++)
                if (rep.problems[i])
                        abort();
        if (getenv("FUZZ_DEBUG")) {
                fprintf(stderr, "verify: %s, %u problems, %" PRIu64 "/%" PRIu64 " entries\n",
                        r < 0 ? strerror(-r) : "read", rep.n_problems, rep.n_entries, rep.n_header_entries);
                for (size_t i = 0; i < JOURNAL_VERIFY_PROBLEMS_KEPT && rep.problems[i]; i++)
                        fprintf(stderr, "  %s\n", rep.problems[i]);
        }

        /* the whole way stats reads it */
        files[0] = path;
        spec.files = files;
        r = journal_source_open(&spec, &d, &s);
        if (r == -ENOMEM)
                abort();
        if (r >= 0 && journal_source_list_boots(s) >= 0)
                (void) journal_source_scan(s, NULL, NULL, on_entry, NULL, &n);
        if (getenv("FUZZ_DEBUG")) {
                fprintf(stderr, "open: %s, %zu boots, %" PRIu64 " entries scanned\n", r < 0 ? strerror(-r) : "ok",
                        s ? s->n_boots : 0, n);
                diag_list_print(&d, stderr, DIAG_NOTICE);
        }
        return 0;
}
