/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* journal_file_verify() on journal files built here byte by byte (docs/JOURNAL_FILE_FORMAT.md), in the four
 * layouts (regular or compact, Jenkins or keyed hashes): an intact file has no problem, each kind of damage is
 * found, bytes in free space are only noted; and the two hash functions against published test vectors. The
 * real journals are checked by tests/t1903-hostile-journal.sh. */

#include <endian.h>
#include <fcntl.h>

#include "basic/util.h"
#include "journal/journal-verify.h"
#include "tap.h"

#define FILE_SIZE 8192
#define HEADER_SIZE 272
#define DATA_BUCKETS 8
#define FIELD_BUCKETS 4

typedef struct Builder {
        uint8_t f[FILE_SIZE];
        uint64_t end, tail, n_objects;
        bool compact, keyed;
} Builder;

static const uint8_t file_id[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t boot_id[16] = { 0xb0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static void w64(Builder *b, uint64_t off, uint64_t x) {
        x = htole64(x);
        memcpy(b->f + off, &x, 8);
}

static void w32(Builder *b, uint64_t off, uint32_t x) {
        x = htole32(x);
        memcpy(b->f + off, &x, 4);
}

static uint64_t r64(const Builder *b, uint64_t off) {
        uint64_t x;
        memcpy(&x, b->f + off, 8);
        return le64toh(x);
}

static uint64_t object(Builder *b, uint8_t type, uint64_t size) {
        uint64_t off = b->end;
        b->f[off] = type;
        w64(b, off + 8, size);
        b->tail = off;
        b->end = (off + size + 7) & ~UINT64_C(7);
        b->n_objects++;
        return off;
}

static uint64_t hash(const Builder *b, const char *s) {
        return b->keyed ? journal_hash_siphash24(s, strlen(s), file_id) : journal_hash_jenkins64(s, strlen(s));
}

static void link_hash(Builder *b, uint64_t table, unsigned buckets, uint64_t off, uint64_t h) {
        uint64_t item = table + 16 + (h % buckets) * 16;
        if (r64(b, item) == 0)
                w64(b, item, off);
        else
                w64(b, r64(b, item + 8) + 24, off);
        w64(b, item + 8, off);
}

static uint64_t field(Builder *b, uint64_t table, const char *name) {
        uint64_t off = object(b, 2, 40 + strlen(name));
        w64(b, off + 16, hash(b, name));
        memcpy(b->f + off + 40, name, strlen(name));
        link_hash(b, table, FIELD_BUCKETS, off, hash(b, name));
        return off;
}

static uint64_t data(Builder *b, uint64_t table, uint64_t fld, const char *payload) {
        uint64_t po = b->compact ? 72 : 64, off = object(b, 1, po + strlen(payload));
        w64(b, off + 16, hash(b, payload));
        memcpy(b->f + off + po, payload, strlen(payload));
        link_hash(b, table, DATA_BUCKETS, off, hash(b, payload));
        w64(b, off + 32, r64(b, fld + 32)); /* next_field_offset: the field's chain, newest first */
        w64(b, fld + 32, off);
        return off;
}

static uint64_t entry(Builder *b, uint64_t seqnum, const uint64_t *items, const char * const *payloads,
                      size_t n) {
        size_t isz = b->compact ? 4 : 16;
        uint64_t off = object(b, 3, 64 + n * isz), x = 0;

        w64(b, off + 16, seqnum);
        w64(b, off + 24, 1700000000000000 + seqnum);
        w64(b, off + 32, 1000 * seqnum);
        memcpy(b->f + off + 40, boot_id, 16);
        for (size_t i = 0; i < n; i++) { /* items given in offset order */
                if (b->compact)
                        w32(b, off + 64 + i * 4, (uint32_t) items[i]);
                else {
                        w64(b, off + 64 + i * 16, items[i]);
                        w64(b, off + 64 + i * 16 + 8, r64(b, items[i] + 16));
                }
                x ^= journal_hash_jenkins64(payloads[i], strlen(payloads[i]));
        }
        w64(b, off + 56, x);
        return off;
}

/* a data object's entries: the first inline, n_entries counted */
static void data_add_entry(Builder *b, uint64_t d, uint64_t e) {
        if (r64(b, d + 40) == 0)
                w64(b, d + 40, e);
        w64(b, d + 56, r64(b, d + 56) + 1);
}

static uint64_t entry_array(Builder *b, const uint64_t *items, size_t n, size_t slots) {
        size_t isz = b->compact ? 4 : 8;
        uint64_t off = object(b, 6, 24 + slots * isz);
        for (size_t i = 0; i < n; i++) {
                if (b->compact)
                        w32(b, off + 24 + i * 4, (uint32_t) items[i]);
                else
                        w64(b, off + 24 + i * 8, items[i]);
        }
        return off;
}

/* Two entries, _TRANSPORT=journal and _TRANSPORT=stdout, both with the same _BOOT_ID (the one in the entries'
 * headers). Offsets of interest in *l. */
typedef struct Layout {
        uint64_t fht, dht, f_msg, msg_a, boot, msg_b, e1, e2, main_array, boot_array;
} Layout;

static void build(Builder *b, bool compact, bool keyed, Layout *l) {
        static const char *boot = "_BOOT_ID=b00102030405060708090a0b0c0d0e0f";
        uint64_t f_boot;

        memset(b, 0, sizeof *b);
        b->compact = compact;
        b->keyed = keyed;
        b->end = HEADER_SIZE;
        l->fht = object(b, 5, 16 + FIELD_BUCKETS * 16);
        l->dht = object(b, 4, 16 + DATA_BUCKETS * 16);
        l->f_msg = field(b, l->fht, "_TRANSPORT");
        l->msg_a = data(b, l->dht, l->f_msg, "_TRANSPORT=journal");
        f_boot = field(b, l->fht, "_BOOT_ID");
        l->boot = data(b, l->dht, f_boot, boot);
        l->e1 = entry(b, 1, (uint64_t[]) { l->msg_a, l->boot }, (const char *[]) { "_TRANSPORT=journal", boot },
                      2);
        data_add_entry(b, l->msg_a, l->e1);
        data_add_entry(b, l->boot, l->e1);
        l->msg_b = data(b, l->dht, l->f_msg, "_TRANSPORT=stdout");
        l->e2 = entry(b, 2, (uint64_t[]) { l->boot, l->msg_b }, (const char *[]) { boot, "_TRANSPORT=stdout" },
                      2);
        data_add_entry(b, l->msg_b, l->e2);
        data_add_entry(b, l->boot, l->e2);
        l->boot_array = entry_array(b, (uint64_t[]) { l->e2 }, 1, 4);
        w64(b, l->boot + 48, l->boot_array);
        if (compact) { /* the chain's last array and its fill, kept for appending */
                w32(b, l->boot + 64, (uint32_t) l->boot_array);
                w32(b, l->boot + 68, 1);
        }
        l->main_array = entry_array(b, (uint64_t[]) { l->e1, l->e2 }, 2, 4);

        memcpy(b->f, "LPKSHHRH", 8);
        w32(b, 12, (keyed ? 1u << 2 : 0) | (compact ? 1u << 4 : 0));
        memcpy(b->f + 24, file_id, 16);
        memcpy(b->f + 56, boot_id, 16);
        w64(b, 88, HEADER_SIZE);
        w64(b, 96, FILE_SIZE - HEADER_SIZE);
        w64(b, 104, l->dht + 16);
        w64(b, 112, DATA_BUCKETS * 16);
        w64(b, 120, l->fht + 16);
        w64(b, 128, FIELD_BUCKETS * 16);
        w64(b, 136, b->tail);
        w64(b, 144, b->n_objects);
        w64(b, 152, 2);
        w64(b, 160, 2);
        w64(b, 168, 1);
        w64(b, 176, l->main_array);
        w64(b, 184, r64(b, l->e1 + 24));
        w64(b, 192, r64(b, l->e2 + 24));
        w64(b, 200, r64(b, l->e2 + 32));
        w64(b, 208, 3);
        w64(b, 216, 2);
        w64(b, 232, 2);
        w32(b, 256, (uint32_t) l->main_array);
        w32(b, 260, 2);
        w64(b, 264, l->e2);
}

static int verify(const Builder *b, JournalVerifyReport *rep) {
        char path[] = "/tmp/test-journal-verify-XXXXXX";
        int fd = mkstemp(path), r;

        if (fd < 0 || write(fd, b->f, FILE_SIZE) != FILE_SIZE)
                abort();
        close(fd);
        r = journal_file_verify(path, rep);
        unlink(path);
        return r;
}

typedef void (*Damage)(Builder *b, const Layout *l);

static void d_payload(Builder *b, const Layout *l) {
        b->f[l->msg_a + (b->compact ? 72 : 64) + 8] = 'z'; /* _TRANSPORT=journal -> _TRANSPOzT=journal */
}
static void d_field_name(Builder *b, const Layout *l) {
        b->f[l->f_msg + 40] ^= 0x20; /* _TRANSPORT -> \x7fTRANSPORT */
}
static void d_entry_item(Builder *b, const Layout *l) {
        if (b->compact)
                w32(b, l->e1 + 64, (uint32_t) l->msg_b);
        else
                w64(b, l->e1 + 64, l->msg_b);
}
static void d_entry_time(Builder *b, const Layout *l) {
        w64(b, l->e2 + 24, 0);
}
static void d_xor(Builder *b, const Layout *l) {
        w64(b, l->e2 + 56, 1);
}
static void d_main_array(Builder *b, const Layout *l) {
        b->f[l->main_array + 24 + (b->compact ? 4 : 8)] ^= 0x08;
}
static void d_unused_slot(Builder *b, const Layout *l) {
        b->f[l->main_array + 24 + 3 * (b->compact ? 4 : 8)] = 0xff;
}
static void d_data_array(Builder *b, const Layout *l) {
        w64(b, l->boot + 48, 0);
}
static void d_data_count(Builder *b, const Layout *l) {
        w64(b, l->msg_b + 56, 2);
}
static void d_hash_bucket(Builder *b, const Layout *l) {
        uint64_t h = r64(b, l->msg_a + 16) % DATA_BUCKETS;
        w64(b, l->dht + 16 + h * 16, 0);
}
static void d_field_chain(Builder *b, const Layout *l) {
        /* the second _TRANSPORT value's next in its field chain: a _BOOT_ID data object */
        w64(b, l->msg_b + 32, l->boot);
}
static void d_object_type(Builder *b, const Layout *l) {
        b->f[l->e1] = 0x7f;
}
static void d_object_size(Builder *b, const Layout *l) {
        w64(b, l->boot + 8, FILE_SIZE);
}
static void d_n_entries(Builder *b, const Layout *l) {
        (void) l;
        w64(b, 152, 3);
}
static void d_tail(Builder *b, const Layout *l) {
        w64(b, 136, l->e2);
}
static void d_arena(Builder *b, const Layout *l) {
        (void) l;
        w64(b, 96, FILE_SIZE);
}
static void d_state(Builder *b, const Layout *l) {
        (void) l;
        b->f[16] = 7;
}
static void d_head_seqnum(Builder *b, const Layout *l) {
        (void) l;
        w64(b, 168, 5);
}
static void d_tail_monotonic(Builder *b, const Layout *l) {
        (void) l;
        w64(b, 200, 1);
}
static void d_no_objects(Builder *b, const Layout *l) {
        (void) l;
        w64(b, 136, 0); /* no tail object, no objects, but entries */
        w64(b, 144, 0);
}
static void d_hash_loop(Builder *b, const Layout *l) {
        w64(b, l->msg_a + 24, l->msg_a); /* next_hash_offset: itself */
}
static void d_array_loop(Builder *b, const Layout *l) {
        w64(b, l->main_array + 16, l->main_array); /* next_entry_array_offset: itself */
}
static void d_entry_boot_id(Builder *b, const Layout *l) {
        b->f[l->e2 + 40 + 5] ^= 1;
}
static void d_data_tail(Builder *b, const Layout *l) {
        if (b->compact)
                w32(b, l->boot + 68, 2); /* the last array holds 1 entry, not 2 */
        else
                w64(b, l->boot + 56, 3); /* (no such field: an entry count instead) */
}
static void d_header_tail_array(Builder *b, const Layout *l) {
        (void) l;
        w32(b, 260, 3);
}
static void d_monotonic_back(Builder *b, const Layout *l) {
        w64(b, l->e2 + 32, 500); /* before the first entry's 1000, same boot */
        w64(b, 200, 500);
}
static void d_flags(Builder *b, const Layout *l) {
        b->f[l->e1 + 1] = 1; /* a compressed entry object */
}

static const struct {
        const char *name;
        Damage damage;
} damages[] = {
        { "a data payload (hash)", d_payload },
        { "a field name (hash)", d_field_name },
        { "an entry item pointing to another data object", d_entry_item },
        { "an entry's realtime timestamp", d_entry_time },
        { "an entry's xor_hash", d_xor },
        { "the entry list's second item", d_main_array },
        { "an unused slot of the entry list", d_unused_slot },
        { "a data object's entry array", d_data_array },
        { "a data object's entry count", d_data_count },
        { "a data hash bucket", d_hash_bucket },
        { "a field's data chain", d_field_chain },
        { "an object type", d_object_type },
        { "an object size", d_object_size },
        { "the header's entry count", d_n_entries },
        { "the header's tail object", d_tail },
        { "the header's arena size", d_arena },
        { "the header's state", d_state },
        { "the header's first sequence number", d_head_seqnum },
        { "the header's last monotonic timestamp", d_tail_monotonic },
        { "object flags", d_flags },
        { "an entry's boot ID", d_entry_boot_id },
        { "an entry's monotonic time going back", d_monotonic_back },
        { "a data object's last entry array", d_data_tail },
        { "the header's last entry array", d_header_tail_array },
        { "a header with entries but no objects", d_no_objects },
        { "a hash chain that loops", d_hash_loop },
        { "an entry array chain that loops", d_array_loop },
};

static void test_layout(bool compact, bool keyed) {
        const char *what = compact ? (keyed ? "compact, keyed" : "compact, Jenkins")
                                   : (keyed ? "regular, keyed" : "regular, Jenkins");
        _cleanup_(journal_verify_report_done) JournalVerifyReport rep = {};
        Builder *b = malloc(sizeof(Builder));
        Layout l;
        int r;

        if (!b)
                abort();
        build(b, compact, keyed, &l);
        r = verify(b, &rep);
        tap_ok(r == 0 && rep.n_problems == 0 && rep.n_entries == 2 && rep.unused_dirty == 0, "%s: intact file",
               what);
        if (rep.n_problems > 0)
                tap_diag("%s", rep.problems[0] ?: "?");
        journal_verify_report_done(&rep);

        for (size_t i = 0; i < ELEMENTSOF(damages); i++) {
                build(b, compact, keyed, &l);
                damages[i].damage(b, &l);
                r = verify(b, &rep);
                tap_ok(r == 0 && rep.n_problems > 0, "%s: %s is damage", what, damages[i].name);
                if (rep.n_problems > 0)
                        tap_diag("%s", rep.problems[0] ?: "?");
                journal_verify_report_done(&rep);
        }

        build(b, compact, keyed, &l);
        b->f[FILE_SIZE - 100] = 0x42;
        r = verify(b, &rep);
        tap_ok(r == 0 && rep.n_problems == 0 && rep.unused_dirty == FILE_SIZE - 100,
               "%s: a byte in free space is noted, not damage", what);
        journal_verify_report_done(&rep);

        build(b, compact, keyed, &l);
        b->f[l.e1 + 4] = 0x42; /* a reserved byte of an object header */
        r = verify(b, &rep);
        tap_ok(r == 0 && rep.n_problems == 0 && rep.unused_dirty == l.e1 + 4,
               "%s: a reserved byte is noted, not damage", what);
        journal_verify_report_done(&rep);

        build(b, compact, keyed, &l);
        b->f[16] = 1; /* online: a writer may be appending */
        b->f[FILE_SIZE - 100] = 0x42;
        r = verify(b, &rep);
        tap_ok(r == 0 && rep.n_problems == 0 && rep.unused_dirty == 0 && rep.state == 1,
               "%s: an online file's free space is not judged", what);
        journal_verify_report_done(&rep);
        free(b);
}

static void test_hashes(void) {
        uint8_t key[16], msg[15];

        /* lookup3.c's own self-test values for hashlittle2(), printed there as "c b" */
        tap_ok(journal_hash_jenkins64("", 0) == 0xdeadbeefdeadbeefull, "Jenkins: the empty string");
        tap_ok(journal_hash_jenkins64("Four score and seven years ago", 30) == 0x17770551ce7226e6ull,
               "Jenkins: \"Four score and seven years ago\"");
        /* SipHash-2-4 paper, appendix A: key 00..0f, message 00..0e */
        for (unsigned i = 0; i < 16; i++)
                key[i] = (uint8_t) i;
        for (unsigned i = 0; i < 15; i++)
                msg[i] = (uint8_t) i;
        tap_ok(journal_hash_siphash24(msg, 15, key) == 0xa129ca6149be45e5ull,
               "SipHash-2-4: the paper's vector");
}

static void test_not_journals(void) {
        JournalVerifyReport rep;
        char path[] = "/tmp/test-journal-verify-XXXXXX";
        int fd = mkstemp(path);

        if (fd < 0 || write(fd, "LPKSHHRH", 8) != 8)
                abort();
        close(fd);
        tap_ok(journal_file_verify(path, &rep) == -EBADMSG, "a file shorter than a header is no journal");
        unlink(path);
        tap_ok(journal_file_verify("/", &rep) == -EISDIR, "a directory is refused");
        tap_ok(journal_file_verify("/nonexistent/x.journal", &rep) == -ENOENT, "a missing file is -ENOENT");
        if (access("/dev/null", R_OK) == 0)
                tap_ok(journal_file_verify("/dev/null", &rep) == -EBADFD, "a device is refused");
        else
                tap_skip("no /dev/null");
}

/* TEST_JOURNAL_VERIFY_SEEDS=DIR: also writes the four intact files there (the seeds of fuzz-journal). */
static void write_seeds(const char *dir) {
        static const char * const names[] = { "regular-jenkins", "regular-keyed", "compact-jenkins",
                                               "compact-keyed" };
        Builder *b = malloc(sizeof(Builder));
        Layout l;

        if (!b)
                abort();
        for (int i = 0; i < 4; i++) {
                char path[4096];
                int fd;
                build(b, i >= 2, i % 2, &l);
                snprintf(path, sizeof path, "%s/seed-%s.journal", dir, names[i]);
                fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                tap_ok(fd >= 0 && write(fd, b->f, FILE_SIZE) == FILE_SIZE, "seed written: %s", path);
                if (fd >= 0)
                        close(fd);
        }
        free(b);
}

int main(void) {
        if (getenv("TEST_JOURNAL_VERIFY_SEEDS"))
                write_seeds(getenv("TEST_JOURNAL_VERIFY_SEEDS"));
        test_hashes();
        test_not_journals();
        for (int compact = 0; compact < 2; compact++)
                for (int keyed = 0; keyed < 2; keyed++)
                        test_layout(compact, keyed);
        return tap_done();
}
