/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <endian.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "basic/suggest.h"
#include "journal/journal-source.h"
#include "journal/journal-verify.h"
#include "load/root.h"

static inline void sd_journal_closep_(sd_journal **j) {
        if (*j)
                sd_journal_close(*j);
}

void journal_source_spec_done(JournalSourceSpec *s) {
        s->directory = mfree(s->directory);
        s->files = strv_free(s->files);
        s->root = mfree(s->root);
}

bool journal_source_spec_is_set(const JournalSourceSpec *s) {
        return s->directory || s->files || s->root;
}

char *journal_source_spec_describe(const JournalSourceSpec *s) {
        _cleanup_(freep) char *r = NULL;

        if (s->directory)
                return strjoin("-D ", s->directory);
        if (s->root)
                return strjoin("--root ", s->root);
        if (!s->files)
                return strdup("the local journal");
        STRV_FOREACH(f, s->files) {
                char *n = r ? strjoin(r, ", ", *f) : strdup(*f);
                if (!n)
                        return NULL;
                free(r);
                r = n;
        }
        return TAKE_PTR(r);
}

JournalSource *journal_source_free(JournalSource *s) {
        if (!s)
                return NULL;
        if (s->journal)
                sd_journal_close(s->journal);
        for (size_t i = 0; i < s->n_boots; i++) {
                free(s->boots[i].kernel);
                free(s->boots[i].hostname);
        }
        free(s->boots);
        free(s->description);
        free(s);
        return NULL;
}

static int check_path(const char *p, bool want_dir) {
        struct stat st;

        if (stat(p, &st) < 0)
                return -errno;
        if (want_dir && !S_ISDIR(st.st_mode))
                return -ENOTDIR;
        if (!want_dir && S_ISDIR(st.st_mode))
                return -EISDIR;
        return 0;
}

/* Does the journal have at least one entry? sd-journal opens an empty directory without complaint. */
static int has_entries(sd_journal *j) {
        int r = sd_journal_seek_head(j);
        if (r < 0)
                return r;
        r = sd_journal_next(j);
        return r;
}

static void note_error(JournalSource *s, int r) {
        if (s->n_errors++ == 0)
                s->first_error = r;
}

static void note_file(JournalSource *s, DiagList *diags, DiagLevel level, const char *file, int error,
                      const char *fmt, ...) _printf_(6, 7);
static void note_file(JournalSource *s, DiagList *diags, DiagLevel level, const char *file, int error,
                      const char *fmt, ...) {
        _cleanup_(freep) char *m = NULL;
        va_list ap;
        int r;

        if (level == DIAG_ERROR)
                note_error(s, error);
        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0) {
                m = NULL;
                return;
        }
        (void) diag_add(diags, level, file, 0, "%s", m);
}

static bool is_journal_file_name(const char *n) {
        return endswith(n, ".journal") || endswith(n, ".journal~");
}

/* A machine-ID directory name: 32 lowercase hex digits (what journald names /var/log/journal/MACHINE). */
static bool is_machine_dir_name(const char *n) {
        return strlen(n) == 32 && strspn(n, "0123456789abcdef") == 32;
}

/* Journal files in dir and, with subdirs, in its machine-ID subdirectories (what sd_journal_open_directory()
 * reads), appended to *files. Symlinks are not followed into subdirectories. */
static int list_dir(const char *dir, bool subdirs, char ***files) {
        struct dirent **de = NULL;
        int n, r = 0;

        n = scandir(dir, &de, NULL, alphasort);
        if (n < 0)
                return errno == ENOENT ? 0 : -errno;
        for (int i = 0; i < n; i++) {
                if (r >= 0 && is_journal_file_name(de[i]->d_name)) {
                        char *p = path_join(dir, de[i]->d_name);
                        r = p ? strv_push(files, p) : -ENOMEM;
                } else if (r >= 0 && subdirs && is_machine_dir_name(de[i]->d_name)) {
                        _cleanup_(freep) char *p = path_join(dir, de[i]->d_name);
                        struct stat st;
                        if (!p)
                                r = -ENOMEM;
                        else if (lstat(p, &st) >= 0 && S_ISDIR(st.st_mode))
                                r = list_dir(p, false, files);
                }
                free(de[i]);
        }
        free(de);
        return r;
}

/* One candidate file of --root, resolved inside the root: its host path, which stays inside. A symlink out of
 * the root or in a loop is an error in diags (counted like an unreadable file), never followed. */
static int add_root_file(JournalSource *s, DiagList *diags, const Root *r, const char *path, char ***files) {
        _cleanup_(freep) char *resolved = NULL, *host = NULL;
        int k;

        k = root_chase(r, path, 0, &resolved, NULL);
        if (k == -ENOMEM)
                return k;
        if (k < 0) {
                _cleanup_(freep) char *disp = root_display_path(r, path);
                s->n_files++;
                s->n_files_bad++;
                note_file(s, diags, DIAG_ERROR, disp ?: path, k, "cannot be resolved inside the root: %s",
                          strerror(-k));
                return 0;
        }
        host = root_display_path(r, resolved);
        if (!host)
                return -ENOMEM;
        return strv_push(files, TAKE_PTR(host));
}

/* --root: DIR/var/log/journal/MACHINE/ and DIR/run/log/journal/MACHINE/ (and files right in them), every
 * path resolved inside DIR like a chroot: a symlink there never leads to the host's journals. */
static int list_root(JournalSource *s, DiagList *diags, const char *root, char ***files) {
        static const char * const subdirs[] = { "/var/log/journal", "/run/log/journal" };
        _cleanup_(root_freep) Root *r = NULL;
        int k;

        if ((k = root_open(root, &r)) < 0)
                return k;
        for (size_t i = 0; i < ELEMENTSOF(subdirs); i++) {
                _cleanup_(freep) char *top = NULL;
                _cleanup_(strv_freep) char **names = NULL;

                k = root_chase(r, subdirs[i], 0, &top, NULL);
                if (k == -ENOMEM)
                        return k;
                if (k < 0 || root_list_dir(r, top, &names) < 0)
                        continue; /* no journal there */
                for (int pass = 0; pass < 2; pass++)
                        STRV_FOREACH(n, names) {
                                _cleanup_(freep) char *p = path_join(top, *n), *sub = NULL;
                                _cleanup_(strv_freep) char **inner = NULL;

                                if (!p)
                                        return -ENOMEM;
                                if (pass == 0) {
                                        if (is_journal_file_name(*n) &&
                                            (k = add_root_file(s, diags, r, p, files)) < 0)
                                                return k;
                                        continue;
                                }
                                /* then the machine directories */
                                if ((*n)[0] == '.' || root_chase(r, p, 0, &sub, NULL) < 0 ||
                                    root_entry_type(r, sub) != DT_DIR || root_list_dir(r, sub, &inner) < 0)
                                        continue;
                                STRV_FOREACH(f, inner) {
                                        _cleanup_(freep) char *fp = NULL;
                                        if (!is_journal_file_name(*f))
                                                continue;
                                        if (!(fp = path_join(sub, *f)))
                                                return -ENOMEM;
                                        if ((k = add_root_file(s, diags, r, fp, files)) < 0)
                                                return k;
                                }
                        }
        }
        return 0;
}

/* Opens one file alone and reads every entry the way the scan will, and with fields, their fields. Returns the
 * entries read, and those with fields that cannot be read in *ret_bad_fields, or -errno when the file cannot be
 * opened; a read error that ends the walk early is in *ret_error (0 when the walk reached the end). */
static int64_t count_entries(const char *path, bool fields, uint64_t *ret_bad_fields, int *ret_error) {
        sd_journal *j = NULL;
        const char *files[] = { path, NULL };
        int64_t n = 0;
        int r;

        *ret_bad_fields = 0;
        r = sd_journal_open_files(&j, files, 0);
        if (r < 0)
                return r;
        while ((r = sd_journal_next(j)) > 0) {
                const void *d;
                size_t l;
                int k;
                n++;
                if (!fields)
                        continue;
                sd_journal_restart_data(j);
                while ((k = sd_journal_enumerate_data(j, &d, &l)) > 0)
                        ;
                if (k < 0)
                        (*ret_bad_fields)++;
        }
        sd_journal_close(j);
        *ret_error = r < 0 ? r : 0;
        return n;
}

static const char *file_error_text(int r) {
        return r == -EBADFD ? "not a regular file (FIFO, device or socket)" : strerror(-r);
}

/* Checks one file alone: its structure (journal-verify.c), then what sd-journal reads of it. Returns 1 when
 * the file is usable (maybe in part), 0 when not, -ENOMEM. */
static int check_file(JournalSource *s, DiagList *diags, const char *f) {
        _cleanup_(journal_verify_report_done) JournalVerifyReport v = {};
        uint64_t bad_fields = 0;
        int64_t got;
        int r, read_error = 0;

        s->n_files++;
        r = journal_file_verify(f, &v);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                s->n_files_bad++;
                note_file(s, diags, DIAG_ERROR, f, r, "not a journal file, or its header is unreadable: %s",
                          file_error_text(r));
                return 0;
        }
        /* Where journal-verify.c found no problem and every payload is uncompressed, it has checked each entry's
         * items and each data object's hash, which is all sd-journal checks when it reads a field: the fields are
         * read only where that is not so (reading every field of every entry took a third of stats' time). */
        got = count_entries(f, v.n_problems > 0 || v.n_unchecked > 0, &bad_fields, &read_error);
        if (got < 0) {
                s->n_files_bad++;
                note_file(s, diags, DIAG_ERROR, f, (int) got, "cannot be opened (truncated or corrupt): %s",
                          strerror((int) -got));
                return 0;
        }
        if (v.n_problems > 0)
                note_file(s, diags, DIAG_ERROR, f, -EBADMSG,
                          "damaged: %u problem%s in its structure (first: %s); what can be read of it is "
                          "used, and what is matched in it may be incomplete", v.n_problems,
                          v.n_problems == 1 ? "" : "s", strna(v.problems[0]));
        if (read_error < 0)
                note_file(s, diags, DIAG_ERROR, f, read_error, "reading stops after %" PRId64 " of %" PRIu64
                          " entries: %s", got, v.n_header_entries, strerror(-read_error));
        else if ((uint64_t) got < v.n_header_entries)
                note_file(s, diags, DIAG_ERROR, f, -EBADMSG,
                          "%" PRIu64 " of %" PRIu64 " entries cannot be read (corrupt)",
                          v.n_header_entries - (uint64_t) got, v.n_header_entries);
        if (bad_fields > 0)
                note_file(s, diags, DIAG_ERROR, f, -EBADMSG,
                          "%" PRIu64 " entr%s with fields that cannot be read", bad_fields,
                          bad_fields == 1 ? "y" : "ies");
        if (v.n_problems == 0 && read_error == 0 && (uint64_t) got >= v.n_header_entries &&
            bad_fields == 0 && v.unused_dirty != 0)
                note_file(s, diags, DIAG_NOTICE, f, 0,
                          "altered: bytes at offset %" PRIu64 " in free space (after the last object, "
                          "between objects or reserved): nothing read changes", v.unused_dirty);
        if (v.state == 1)
                note_file(s, diags, DIAG_NOTICE, f, 0, "was not closed cleanly (still being written, or its "
                          "writer crashed): its last boot may be cut short");
        return 1;
}

/* Checks every file alone; returns the usable ones in *ret_good (NULL when none). */
static int check_files(JournalSource *s, DiagList *diags, char **files, char ***ret_good) {
        _cleanup_(strv_freep) char **good = NULL;
        int r;

        STRV_FOREACH(f, files) {
                r = check_file(s, diags, *f);
                if (r < 0)
                        return r;
                if (r > 0 && (r = strv_extend(&good, *f)) < 0)
                        return r;
        }
        *ret_good = TAKE_PTR(good);
        return 0;
}

int journal_source_open(const JournalSourceSpec *spec, DiagList *diags, JournalSource **ret) {
        _cleanup_(journal_source_freep) JournalSource *s = NULL;
        _cleanup_(sd_journal_closep_) sd_journal *j = NULL;
        int r;

        s = calloc(1, sizeof(JournalSource));
        if (!s)
                return -ENOMEM;
        s->description = journal_source_spec_describe(spec);
        if (!s->description)
                return -ENOMEM;

        if (journal_source_spec_is_set(spec)) {
                _cleanup_(strv_freep) char **files = NULL, **good = NULL;

                if (spec->directory) {
                        if ((r = check_path(spec->directory, true)) < 0 || (r = list_dir(spec->directory, true, &files)) < 0)
                                return r;
                } else if (spec->root) {
                        if ((r = check_path(spec->root, true)) < 0 || (r = list_root(s, diags, spec->root, &files)) < 0)
                                return r;
                } else {
                        STRV_FOREACH(f, spec->files)
                                if ((r = check_path(*f, false)) < 0)
                                        return r;
                        if (!(files = strv_copy(spec->files)))
                                return -ENOMEM;
                }
                /* each file alone first: one bad file must not hide the others (sd-journal would either fail
                 * the whole set or skip the file silently) */
                if ((r = check_files(s, diags, files, &good)) < 0)
                        return r;
                if (!good)
                        return JOURNAL_SOURCE_EMPTY;
                r = sd_journal_open_files(&j, (const char **) good, 0);
        } else
                r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
        if (r < 0)
                return r;
        r = has_entries(j);
        if (r < 0)
                return r;
        if (r == 0)
                return JOURNAL_SOURCE_EMPTY;
        s->journal = TAKE_PTR(j);
        *ret = TAKE_PTR(s);
        return 0;
}

static int boot_cmp(const void *x, const void *y) {
        const JournalBoot *a = x, *b = y;
        if (a->first_realtime != b->first_realtime)
                return (a->first_realtime > b->first_realtime) - (a->first_realtime < b->first_realtime);
        return strcmp(a->id_str, b->id_str);
}

/* _MACHINE_ID and _HOSTNAME of the current entry, where the boot has none yet. */
static int boot_machine(sd_journal *j, JournalBoot *b) {
        const void *d;
        size_t l;

        if (!b->machine_id[0] && sd_journal_get_data(j, "_MACHINE_ID", &d, &l) >= 0 && l == 12 + 32 &&
            strspn((const char *) d + 12, "0123456789abcdef") >= 32)
                memcpy(b->machine_id, (const char *) d + 12, 32);
        if (!b->hostname && sd_journal_get_data(j, "_HOSTNAME", &d, &l) >= 0 && l > 10 && l <= 10 + 255) {
                b->hostname = strndup_safe((const char *) d + 10, l - 10);
                if (!b->hostname)
                        return -ENOMEM;
                /* a name from the journal goes into reports: no control characters */
                for (char *c = b->hostname; *c; c++)
                        if ((unsigned char) *c < 0x20 || *c == 0x7f)
                                *c = '?';
        }
        return 0;
}

/* First/last timestamps of one boot, its machine, and the "Linux version" of its first kernel record. */
static int boot_stamps(JournalSource *s, JournalBoot *b) {
        sd_journal *j = s->journal;
        char match[64];
        int r;

        sd_journal_flush_matches(j);
        snprintf(match, sizeof match, "_BOOT_ID=%s", b->id_str);
        if ((r = sd_journal_add_match(j, match, 0)) < 0)
                return r;
        if ((r = sd_journal_seek_head(j)) < 0)
                return r;
        r = sd_journal_next(j);
        if (r > 0) {
                (void) sd_journal_get_realtime_usec(j, &b->first_realtime);
                (void) sd_journal_get_monotonic_usec(j, &b->first_monotonic, NULL);
        } else if (r < 0)
                note_error(s, r);
        if ((r = sd_journal_seek_tail(j)) < 0)
                return r;
        r = sd_journal_previous(j);
        if (r > 0) {
                (void) sd_journal_get_realtime_usec(j, &b->last_realtime);
                (void) sd_journal_get_monotonic_usec(j, &b->last_monotonic, NULL);
                /* the last entry has the name the system gave itself, not an initrd's or "localhost" */
                if ((r = boot_machine(j, b)) < 0)
                        return r;
        } else if (r < 0)
                note_error(s, r);
        if ((!b->machine_id[0] || !b->hostname) && sd_journal_seek_head(j) >= 0 && sd_journal_next(j) > 0 &&
            (r = boot_machine(j, b)) < 0)
                return r;

        /* the kernel's first record says which kernel booted (VMs and hardware; containers have none) */
        if ((r = sd_journal_add_match(j, "_TRANSPORT=kernel", 0)) < 0 ||
            (r = sd_journal_add_match(j, "SYSLOG_IDENTIFIER=kernel", 0)) < 0 || (r = sd_journal_seek_head(j)) < 0)
                return r;
        r = sd_journal_next(j);
        if (r > 0) {
                const void *d;
                size_t l;
                if (sd_journal_get_data(j, "MESSAGE", &d, &l) >= 0 && l > 8 + 14 &&
                    memcmp(d, "MESSAGE=Linux version ", 22) == 0) {
                        const char *v = (const char *) d + 22;
                        size_t n = 0;
                        while (22 + n < l && v[n] != ' ' && v[n] != 0)
                                n++;
                        b->kernel = strndup_safe(v, n);
                        if (!b->kernel)
                                return -ENOMEM;
                }
        } else if (r < 0)
                note_error(s, r);
        sd_journal_flush_matches(j);
        return 0;
}

int journal_source_list_boots(JournalSource *s) {
        sd_journal *j = s->journal;
        const void *d;
        size_t l;
        int r;

        r = sd_journal_query_unique(j, "_BOOT_ID");
        if (r < 0)
                return r;
        SD_JOURNAL_FOREACH_UNIQUE(j, d, l) {
                char id[33];
                JournalBoot *nb;
                if (l != 9 + 32 || memcmp(d, "_BOOT_ID=", 9) != 0)
                        continue;
                memcpy(id, (const char *) d + 9, 32);
                id[32] = 0;
                nb = realloc(s->boots, (s->n_boots + 1) * sizeof(JournalBoot));
                if (!nb)
                        return -ENOMEM;
                s->boots = nb;
                nb = &s->boots[s->n_boots];
                *nb = (JournalBoot) {};
                if (sd_id128_from_string(id, &nb->id) < 0)
                        continue;
                sd_id128_to_string(nb->id, nb->id_str);
                s->n_boots++;
        }
        for (size_t i = 0; i < s->n_boots; i++) {
                r = boot_stamps(s, &s->boots[i]);
                if (r < 0)
                        return r;
        }
        if (s->n_boots > 1)
                qsort_safe(s->boots, s->n_boots, sizeof(JournalBoot), boot_cmp);
        return 0;
}

/* BOOTRACE_JOURNAL_MATCHES=1: the matches in journalctl's syntax on stderr, so that a benchmark or a user can
 * read exactly the entries stats reads (journalctl ... -o cat). */
static bool show_matches(void) {
        const char *e = getenv("BOOTRACE_JOURNAL_MATCHES");
        return e && streq(e, "1");
}

static int add_match(sd_journal *j, const char *m) {
        if (show_matches())
                fprintf(stderr, " %s", m);
        return sd_journal_add_match(j, m, 0);
}

static int add_disjunction(sd_journal *j) {
        if (show_matches())
                fputs(" +", stderr);
        return sd_journal_add_disjunction(j);
}

static int add_match_str(sd_journal *j, const char *field, const char *value) {
        _cleanup_(freep) char *m = strjoin(field, "=", value);
        if (!m)
                return -ENOMEM;
        return add_match(j, m);
}

static int add_matches_of(sd_journal *j, const JournalScanMatches *m);

static int add_matches(sd_journal *j, const JournalScanMatches *m) {
        int r;

        if (show_matches())
                fputs("journal matches:", stderr);
        r = add_matches_of(j, m);
        if (show_matches())
                fputc('\n', stderr);
        return r;
}

static int add_matches_of(sd_journal *j, const JournalScanMatches *m) {
        int r;

        sd_journal_flush_matches(j);
        if (!m || !m->units) {
                /* everything but the kernel's own messages: services log through these transports */
                if ((r = add_match(j, "_TRANSPORT=journal")) < 0 ||
                    (r = add_match(j, "_TRANSPORT=stdout")) < 0 ||
                    (r = add_match(j, "_TRANSPORT=syslog")) < 0 ||
                    (r = add_match(j, "_TRANSPORT=driver")) < 0 || (r = add_disjunction(j)) < 0)
                        return r;
        } else {
                /* PID 1 writes nearly every record bootrace uses, also the text ones without a MESSAGE_ID
                 * (old releases, cycles); of the structured records only these come from elsewhere. A unit's
                 * own output and its helpers' records (the forked child, systemd-executor: UNIT=U) run in its
                 * cgroup, so _SYSTEMD_UNIT= finds both and a UNIT= term would add nothing. Every term costs
                 * each step of sd_journal_next(), so the list is kept short. */
                bool any = false;
                for (char * const *id = m->message_ids; id && *id; id++, any = true)
                        if ((r = add_match_str(j, "MESSAGE_ID", *id)) < 0)
                                return r;
                if ((any && (r = add_disjunction(j)) < 0) || (r = add_match(j, "_PID=1")) < 0 ||
                    (r = add_disjunction(j)) < 0)
                        return r;
                for (char * const *id = m->journald; id && *id; id++)
                        if ((r = add_match_str(j, "SYSLOG_IDENTIFIER", *id)) < 0 ||
                            (r = add_disjunction(j)) < 0)
                                return r;
                if (m->units[0]) {
                        STRV_FOREACH(u, m->units)
                                if ((r = add_match_str(j, "_SYSTEMD_UNIT", *u)) < 0)
                                        return r;
                        if ((r = add_disjunction(j)) < 0)
                                return r;
                }
        }
        /* PID 1's messages that came through kmsg (before journald ran, on VMs and hardware); without the
         * manager's identifiers no kernel record is read */
        if (!m || !m->manager || !m->manager[0])
                return 0;
        if ((r = add_match(j, "_TRANSPORT=kernel")) < 0)
                return r;
        for (char * const *id = m->manager; *id; id++)
                if ((r = add_match_str(j, "SYSLOG_IDENTIFIER", *id)) < 0)
                        return r;
        return 0;
}

static ssize_t boot_index(const JournalSource *s, sd_id128_t id, size_t *hint) {
        if (*hint < s->n_boots && sd_id128_equal(s->boots[*hint].id, id))
                return (ssize_t) *hint;
        for (size_t i = 0; i < s->n_boots; i++)
                if (sd_id128_equal(s->boots[i].id, id)) {
                        *hint = i;
                        return (ssize_t) i;
                }
        return -ENOENT;
}

int journal_source_scan(JournalSource *s, const JournalScanMatches *m, const bool *selected,
                        JournalEntryCallback cb, JournalProgressCallback progress, void *userdata) {
        sd_journal *j = s->journal;
        _cleanup_(journal_fields_done) JournalFields fields = {};
        JournalProgress p = { .boots = s->n_boots };
        size_t hint = 0;
        int r;

        r = add_matches(j, m);
        if (r < 0)
                return r;
        r = sd_journal_seek_head(j);
        if (r < 0)
                return r;
        for (;;) {
                sd_id128_t boot;
                uint64_t mono;
                const void *d;
                size_t l;
                ssize_t b;

                r = sd_journal_next(j);
                if (r < 0) {
                        /* a corrupt region: sd-journal cannot go on from here */
                        note_error(s, r);
                        break;
                }
                if (r == 0)
                        break;
                r = sd_journal_get_monotonic_usec(j, &mono, &boot);
                if (r < 0) {
                        note_error(s, r);
                        continue;
                }
                b = boot_index(s, boot, &hint);
                if (b >= 0)
                        p.boot = (size_t) b + 1;
                if (progress && ++p.entries % 4096 == 0)
                        progress(&p, userdata);
                if (b < 0 || (selected && !selected[b]))
                        continue;

                journal_fields_reset(&fields);
                fields.monotonic_usec = mono;
                (void) sd_journal_get_realtime_usec(j, &fields.realtime_usec);
                sd_journal_restart_data(j);
                while ((r = sd_journal_enumerate_data(j, &d, &l)) > 0)
                        if (journal_fields_add(&fields, d, l) < 0)
                                return -ENOMEM;
                if (r < 0) {
                        note_error(s, r);
                        continue;
                }
                r = cb(&fields, (size_t) b, userdata);
                if (r < 0)
                        return r;
        }
        sd_journal_flush_matches(j);
        p.done = true;
        if (progress)
                progress(&p, userdata);
        return 0;
}

int journal_source_closest_unit(JournalSource *s, const char *name, char **ret) {
        static const char * const fields[] = { "UNIT", "_SYSTEMD_UNIT" };
        _cleanup_(strv_freep) char **names = NULL;
        size_t n = 0, allocated = 0;
        const char *close;

        *ret = NULL;
        for (size_t f = 0; f < ELEMENTSOF(fields); f++) {
                const void *data;
                size_t len, prefix = strlen(fields[f]) + 1;

                if (sd_journal_query_unique(s->journal, fields[f]) < 0)
                        continue; /* no such field: nothing to offer from it */
                SD_JOURNAL_FOREACH_UNIQUE(s->journal, data, len) {
                        char *v;
                        if (len <= prefix)
                                continue;
                        v = strndup_safe((const char *) data + prefix, len - prefix);
                        if (!v || strv_push_grow(&names, &n, &allocated, v) < 0)
                                return -ENOMEM;
                }
        }
        close = suggest_closest(name, (const char * const *) names, n);
        if (close && !(*ret = strdup(close)))
                return -ENOMEM;
        return 0;
}
