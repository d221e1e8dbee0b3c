/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes the decoding of journal records and their classification: the input is records separated by an empty
 * line, each a list of "NAME=value" lines (values may hold any byte but a newline, NUL included). Every record is
 * decoded, all go into a one-boot analysis, and race evidence and the critical chain are built for every unit. */

#include "fuzz.h"
#include "fuzz-util.h"
#include "journal/boot-outcome.h"
#include "journal/chain.h"
#include "journal/race-evidence.h"

static Rules *rules;
static JournalDecoder *decoder;

static void release(void) {
        decoder = journal_decoder_free(decoder);
        rules = rules_free(rules);
}

/* The message rules, loaded once: they are what the decoder reads, not the input. */
static void setup(void) {
        _cleanup_(diag_list_done) DiagList d = {};

        if (decoder)
                return;
        if (rules_load(fuzz_rules_dir(), &rules, &d) < 0 || journal_decoder_new(rules, &decoder) < 0) {
                diag_list_print(&d, stderr, DIAG_WARNING);
                fprintf(stderr, "fuzz: cannot load the rules from %s (set BOOTRACE_RULES_DIR)\n", fuzz_rules_dir());
                abort();
        }
        atexit(release);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const char * const anchors[] = { "systemd-remount-fs.service", "local-fs.target", NULL };
        char *ids[] = { (char *) "00000000000000000000000000000001" };
        BootAnalysisOptions o = { .output_signatures = (char *[]) { (char *) "Read-only file system", NULL } };
        BootAnalysis *a = NULL;
        JournalFields f = {};
        const char *p = (const char *) data, *end = p + size;
        uint64_t mono = 1;

        setup();
        if (size > 1 << 16 || boot_analysis_new(ids, 1, &a) < 0)
                return 0;
        while (p < end) {
                JournalEvent e;
                journal_fields_reset(&f);
                f.monotonic_usec = mono++;
                /* one record: lines up to an empty line */
                while (p < end && *p != '\n') {
                        const char *nl = memchr(p, '\n', end - p);
                        size_t l = nl ? (size_t) (nl - p) : (size_t) (end - p);
                        if (journal_fields_add(&f, p, l) < 0)
                                goto out;
                        p += l + (nl ? 1 : 0);
                }
                if (p < end)
                        p++; /* the empty line */
                if (journal_event_decode(decoder, &f, &e) > 0) {
                        int r = boot_analysis_add_event(a, 0, &e);
                        journal_event_done(&e);
                        if (r < 0)
                                goto out;
                }
        }
        if (boot_analysis_finish(a, &o) < 0)
                goto out;
        for (size_t u = 0; u < a->n_units; u++) {
                RaceEvidence r = {};
                ChainJournalSource js = { .analysis = a, .boot = 0 };
                ChainSource src;
                Chain c = {};

                if (race_evidence_build(a, u, 0, anchors, &r) >= 0)
                        race_evidence_done(&r);
                chain_source_journal(&js, &src);
                if (chain_build(&src, a->units[u].name, &c) >= 0)
                        chain_done(&c);
        }
out:
        journal_fields_done(&f);
        boot_analysis_free(a);
        return 0;
}
