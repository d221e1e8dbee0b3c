/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <endian.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "basic/util.h"
#include "journal/journal-verify.h"

/* The layout (docs/JOURNAL_FILE_FORMAT.md): a header, then an arena of 8-byte aligned objects, each starting
 * with type (1 byte), flags (1), 6 reserved bytes and its size (8, header included). */
enum {
        OBJ_UNUSED,
        OBJ_DATA,
        OBJ_FIELD,
        OBJ_ENTRY,
        OBJ_DATA_HASH_TABLE,
        OBJ_FIELD_HASH_TABLE,
        OBJ_ENTRY_ARRAY,
        OBJ_TAG,
        _OBJ_MAX,
};

static const char * const obj_name[_OBJ_MAX] = {
        "unused", "data", "field", "entry", "data hash table", "field hash table", "entry array", "tag",
};

#define FLAG_COMPRESSED_MASK 0x07u /* xz, lz4, zstd */
#define COMPAT_TAIL_ENTRY_BOOT_ID (1u << 1)
#define INCOMPAT_KEYED_HASH (1u << 2)
#define INCOMPAT_COMPACT (1u << 4)
#define INCOMPAT_KNOWN 0x1fu
#define INCOMPAT_COMPRESSION(f) (((f) & 0x3u) | (((f) >> 1) & 0x4u)) /* header bits as object flag bits */

/* header field offsets */
#define H_STATE 16
#define H_FILE_ID 24
#define H_TAIL_BOOT_ID 56
#define H_HEADER_SIZE 88
#define H_ARENA_SIZE 96
#define H_DATA_HT_OFFSET 104
#define H_DATA_HT_SIZE 112
#define H_FIELD_HT_OFFSET 120
#define H_FIELD_HT_SIZE 128
#define H_TAIL_OBJECT 136
#define H_N_OBJECTS 144
#define H_N_ENTRIES 152
#define H_TAIL_SEQNUM 160
#define H_HEAD_SEQNUM 168
#define H_ENTRY_ARRAY 176
#define H_HEAD_REALTIME 184
#define H_TAIL_REALTIME 192
#define H_TAIL_MONOTONIC 200
#define H_N_DATA 208 /* from v187: the smallest header sd-journal reads ends here */
#define H_N_FIELDS 216
#define H_N_TAGS 224
#define H_N_ENTRY_ARRAYS 232
#define H_TAIL_ENTRY_ARRAY 256 /* le32 offset, le32 items used (v252) */
#define H_TAIL_ENTRY_OFFSET 264
#define HEADER_MIN 208

/* sizes of the fixed parts */
#define OBJ_HEADER 16
#define DATA_FIXED 64 /* + 8 in compact files */
#define FIELD_FIXED 40
#define ENTRY_FIXED 64
#define ENTRY_ARRAY_FIXED 24
#define TAG_SIZE 64

#define FIELD_NAME_MAX 64
#define TIMESTAMP_MAX (UINT64_C(1) << 55)

typedef struct Offsets {
        uint64_t *v;
        size_t n, allocated;
} Offsets;

typedef struct Verifier {
        const uint8_t *map;
        uint64_t file_size, header_size, arena_end;
        uint32_t incompat;
        bool compact, keyed, online;
        Offsets by_type[_OBJ_MAX];
        uint8_t *type_at;  /* 1 + the type of the object starting at offset 8*i, 0 for none: is_obj() in O(1) */
        uint64_t n_slots;
        uint64_t *item_hash; /* keyed files: the Jenkins hash of each data object of by_type[OBJ_DATA], once */
        uint8_t *item_hash_known; /* 0 for a compressed payload (not decompressed here) */
        uint64_t n_objects;
        uint64_t n_items; /* of all entries: each is one link of a data object to an entry */
        JournalVerifyReport *rep;
} Verifier;

static uint64_t rd64(const Verifier *v, uint64_t off) {
        uint64_t x;
        memcpy(&x, v->map + off, 8);
        return le64toh(x);
}

static uint32_t rd32(const Verifier *v, uint64_t off) {
        uint32_t x;
        memcpy(&x, v->map + off, 4);
        return le32toh(x);
}

static void problem(Verifier *v, const char *fmt, ...) _printf_(2, 3);
static void problem(Verifier *v, const char *fmt, ...) {
        JournalVerifyReport *r = v->rep;
        va_list ap;

        if (r->n_problems < JOURNAL_VERIFY_PROBLEMS_KEPT) {
                char *m = NULL;
                va_start(ap, fmt);
                if (vasprintf(&m, fmt, ap) < 0)
                        m = NULL;
                va_end(ap);
                r->problems[r->n_problems] = m; /* NULL on OOM: counted all the same */
        }
        if (r->n_problems < UINT_MAX)
                r->n_problems++;
}

void journal_verify_report_done(JournalVerifyReport *r) {
        for (size_t i = 0; i < JOURNAL_VERIFY_PROBLEMS_KEPT; i++)
                r->problems[i] = mfree(r->problems[i]);
        *r = (JournalVerifyReport) {};
}

/* ---- the hashes */

static uint32_t rot32(uint32_t x, unsigned k) {
        return (x << k) | (x >> (32 - k));
}

static uint32_t le32_bytes(const uint8_t *p, size_t n) {
        uint32_t x = 0;
        for (size_t i = 0; i < n; i++)
                x |= (uint32_t) p[i] << (8 * i);
        return x;
}

uint64_t journal_hash_jenkins64(const void *data, size_t size) {
        const uint8_t *k = data;
        uint32_t a, b, c;

        a = b = c = 0xdeadbeefu + (uint32_t) size; /* both initial values are 0 */
        /* clang-format off */
        while (size > 12) {
                a += le32_bytes(k, 4);
                b += le32_bytes(k + 4, 4);
                c += le32_bytes(k + 8, 4);
                a -= c; a ^= rot32(c, 4);  c += b;
                b -= a; b ^= rot32(a, 6);  a += c;
                c -= b; c ^= rot32(b, 8);  b += a;
                a -= c; a ^= rot32(c, 16); c += b;
                b -= a; b ^= rot32(a, 19); a += c;
                c -= b; c ^= rot32(b, 4);  b += a;
                size -= 12;
                k += 12;
        }
        if (size == 0)
                return ((uint64_t) c << 32) | b;
        /* the last 1..12 bytes, zero-padded */
        a += le32_bytes(k, MIN(size, (size_t) 4));
        if (size > 4)
                b += le32_bytes(k + 4, MIN(size - 4, (size_t) 4));
        if (size > 8)
                c += le32_bytes(k + 8, size - 8);
        c ^= b; c -= rot32(b, 14);
        a ^= c; a -= rot32(c, 11);
        b ^= a; b -= rot32(a, 25);
        c ^= b; c -= rot32(b, 16);
        a ^= c; a -= rot32(c, 4);
        b ^= a; b -= rot32(a, 14);
        c ^= b; c -= rot32(b, 24);
        /* clang-format on */
        return ((uint64_t) c << 32) | b;
}

static uint64_t rot64(uint64_t x, unsigned k) {
        return (x << k) | (x >> (64 - k));
}

static uint64_t le64_bytes(const uint8_t *p, size_t n) {
        uint64_t x = 0;
        for (size_t i = 0; i < n; i++)
                x |= (uint64_t) p[i] << (8 * i);
        return x;
}

/* clang-format off */
#define SIPROUND                                                                  \
        do {                                                                      \
                v0 += v1; v1 = rot64(v1, 13); v1 ^= v0; v0 = rot64(v0, 32);       \
                v2 += v3; v3 = rot64(v3, 16); v3 ^= v2;                           \
                v0 += v3; v3 = rot64(v3, 21); v3 ^= v0;                           \
                v2 += v1; v1 = rot64(v1, 17); v1 ^= v2; v2 = rot64(v2, 32);       \
        } while (0)
/* clang-format on */

uint64_t journal_hash_siphash24(const void *data, size_t size, const uint8_t key[16]) {
        const uint8_t *p = data;
        uint64_t k0 = le64_bytes(key, 8), k1 = le64_bytes(key + 8, 8), m;
        uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
        uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
        size_t left = size;

        for (; left >= 8; left -= 8, p += 8) {
                m = le64_bytes(p, 8);
                v3 ^= m;
                SIPROUND;
                SIPROUND;
                v0 ^= m;
        }
        m = ((uint64_t) size << 56) | le64_bytes(p, left);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
        v2 ^= 0xff;
        SIPROUND;
        SIPROUND;
        SIPROUND;
        SIPROUND;
        return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t payload_hash(const Verifier *v, const uint8_t *p, size_t n) {
        return v->keyed ? journal_hash_siphash24(p, n, v->map + H_FILE_ID) : journal_hash_jenkins64(p, n);
}

/* ---- objects */

static int offsets_add(Offsets *o, uint64_t off) {
        if (GREEDY_REALLOC(o->v, o->allocated, o->n + 1) < 0)
                return -ENOMEM;
        o->v[o->n++] = off;
        return 0;
}

/* Index of off in o (sorted: the walk goes up), or -1. */
static ssize_t offsets_find(const Offsets *o, uint64_t off) {
        size_t a = 0, b = o->n;
        while (a < b) {
                size_t c = a + (b - a) / 2;
                if (o->v[c] == off)
                        return (ssize_t) c;
                if (o->v[c] < off)
                        a = c + 1;
                else
                        b = c;
        }
        return -1;
}

static bool is_obj(const Verifier *v, int type, uint64_t off) {
        if (v->type_at)
                return off % 8 == 0 && off / 8 < v->n_slots && v->type_at[off / 8] == type + 1;
        return offsets_find(&v->by_type[type], off) >= 0;
}

static uint64_t obj_size(const Verifier *v, uint64_t off) {
        return rd64(v, off + 8);
}

static uint64_t data_payload_offset(const Verifier *v) {
        return DATA_FIXED + (v->compact ? 8 : 0);
}

static size_t entry_item_size(const Verifier *v) {
        return v->compact ? 4 : 16;
}

static size_t array_item_size(const Verifier *v) {
        return v->compact ? 4 : 8;
}

static uint64_t entry_n_items(const Verifier *v, uint64_t off) {
        return (obj_size(v, off) - ENTRY_FIXED) / entry_item_size(v);
}

static uint64_t entry_item(const Verifier *v, uint64_t off, uint64_t i) {
        uint64_t p = off + ENTRY_FIXED + i * entry_item_size(v);
        return v->compact ? rd32(v, p) : rd64(v, p);
}

static uint64_t array_n_items(const Verifier *v, uint64_t off) {
        return (obj_size(v, off) - ENTRY_ARRAY_FIXED) / array_item_size(v);
}

static uint64_t array_item(const Verifier *v, uint64_t off, uint64_t i) {
        uint64_t p = off + ENTRY_ARRAY_FIXED + i * array_item_size(v);
        return v->compact ? rd32(v, p) : rd64(v, p);
}

static bool field_name_valid(const uint8_t *p, size_t n) {
        if (n == 0 || n > FIELD_NAME_MAX || (p[0] >= '0' && p[0] <= '9'))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
                        return false;
        return true;
}

/* The checks of one object that need no other object. Returns false when its frame cannot be trusted (the
 * walk cannot go on past it). */
static bool check_object(Verifier *v, uint64_t off, uint8_t type, uint8_t flags, uint64_t size) {
        uint64_t fixed = 0, n;

        switch (type) {
        case OBJ_DATA:
                fixed = data_payload_offset(v) + 1;
                break;
        case OBJ_FIELD:
                fixed = FIELD_FIXED + 1;
                break;
        case OBJ_ENTRY:
                fixed = ENTRY_FIXED + entry_item_size(v);
                break;
        case OBJ_DATA_HASH_TABLE:
        case OBJ_FIELD_HASH_TABLE:
                fixed = OBJ_HEADER + 16;
                break;
        case OBJ_ENTRY_ARRAY:
                fixed = ENTRY_ARRAY_FIXED + array_item_size(v);
                break;
        case OBJ_TAG:
                fixed = TAG_SIZE;
                break;
        default:
                problem(v, "offset %" PRIu64 ": object of unknown type %u", off, type);
                return false;
        }
        if (size < fixed || (type == OBJ_TAG && size != TAG_SIZE)) {
                problem(v, "offset %" PRIu64 ": %s object of impossible size %" PRIu64, off, obj_name[type],
                        size);
                return false;
        }
        if (flags & ~FLAG_COMPRESSED_MASK || ((flags & FLAG_COMPRESSED_MASK) && type != OBJ_DATA) ||
            (flags & (flags - 1)) || (flags & ~INCOMPAT_COMPRESSION(v->incompat))) {
                problem(v, "offset %" PRIu64 ": %s object with flags 0x%x the file does not use", off,
                        obj_name[type], flags);
                return true;
        }

        switch (type) {
        case OBJ_DATA:
        case OBJ_FIELD: {
                uint64_t po = type == OBJ_DATA ? data_payload_offset(v) : FIELD_FIXED;
                const uint8_t *p = v->map + off + po;
                size_t pn = size - po;
                const uint8_t *eq;

                if (flags) {
                        v->rep->n_unchecked++; /* compressed: left to sd-journal, which fails on bad input */
                        break;
                }
                if (payload_hash(v, p, pn) != rd64(v, off + 16)) {
                        problem(v, "offset %" PRIu64 ": %s object whose hash does not match its payload",
                                off, obj_name[type]);
                        break;
                }
                eq = type == OBJ_DATA ? memchr(p, '=', pn) : p + pn;
                if (!eq || !field_name_valid(p, eq - p))
                        problem(v, "offset %" PRIu64 ": %s object without a valid field name", off,
                                obj_name[type]);
                break;
        }
        case OBJ_ENTRY:
                if ((size - ENTRY_FIXED) % entry_item_size(v) != 0)
                        problem(v, "offset %" PRIu64 ": entry object of impossible size %" PRIu64, off,
                                size);
                /* timestamps below 2^55 µs, as sd-journal takes them */
                if (rd64(v, off + 16) == 0 || rd64(v, off + 24) == 0 || rd64(v, off + 24) >= TIMESTAMP_MAX ||
                    rd64(v, off + 32) >= TIMESTAMP_MAX || (rd64(v, off + 40) | rd64(v, off + 48)) == 0)
                        problem(v,
                                "offset %" PRIu64 ": entry object with a zero sequence number, timestamp or "
                                "boot ID, or an impossible timestamp",
                                off);
                break;
        case OBJ_DATA_HASH_TABLE:
        case OBJ_FIELD_HASH_TABLE:
                if ((size - OBJ_HEADER) % 16 != 0)
                        problem(v, "offset %" PRIu64 ": %s of impossible size %" PRIu64, off, obj_name[type],
                                size);
                break;
        case OBJ_ENTRY_ARRAY:
                n = size - ENTRY_ARRAY_FIXED;
                if (n % array_item_size(v) != 0)
                        problem(v, "offset %" PRIu64 ": entry array of impossible size %" PRIu64, off, size);
                break;
        }
        return true;
}

static uint64_t align8(uint64_t x) {
        return (x + 7) & ~UINT64_C(7);
}

/* Free space (padding between objects, the arena after the last one, the reserved bytes of object headers)
 * is zero in a file its writer closed: notes the first non-zero byte in [from, to). */
static void note_dirty(Verifier *v, uint64_t from, uint64_t to) {
        if (v->online || v->rep->unused_dirty != 0)
                return;
        for (uint64_t p = from; p < to; p++) {
                if (p % 8 == 0)
                        while (p + 8 <= to && rd64(v, p) == 0)
                                p += 8;
                if (p < to && v->map[p] != 0) {
                        v->rep->unused_dirty = p;
                        return;
                }
        }
}

/* Walks the objects from the end of the header to the tail object. */
static int walk(Verifier *v, uint64_t tail) {
        uint64_t off = v->header_size;
        int r;

        for (;;) {
                uint8_t type, flags;
                uint64_t size;

                if (off > v->arena_end || v->arena_end - off < OBJ_HEADER) {
                        problem(v, "offset %" PRIu64 ": the objects run past the arena's end (%" PRIu64 ")",
                                off, v->arena_end);
                        return 0;
                }
                type = v->map[off];
                flags = v->map[off + 1];
                size = rd64(v, off + 8);
                if (size < OBJ_HEADER || size > v->arena_end - off) {
                        problem(v,
                                "offset %" PRIu64 ": object of size %" PRIu64
                                " (type %u) does not fit the arena",
                                off, size, type);
                        return 0;
                }
                if (!check_object(v, off, type, flags, size))
                        return 0;
                if ((r = offsets_add(&v->by_type[type], off)) < 0)
                        return r;
                if (v->type_at && off % 8 == 0 && off / 8 < v->n_slots)
                        v->type_at[off / 8] = type + 1;
                note_dirty(v, off + 2, off + 8); /* the reserved bytes of the object header */
                v->n_objects++;
                if (off >= tail)
                        break;
                note_dirty(v, off + size, MIN(align8(off + size), v->arena_end));
                off += align8(size);
        }
        if (off != tail)
                problem(v, "the header's tail object offset %" PRIu64 " is not where an object starts",
                        tail);
        else
                note_dirty(v, off + rd64(v, off + 8), v->arena_end);
        return 0;
}

/* Does entry e list data object d among its items (sorted by offset)? */
static bool entry_has_item(const Verifier *v, uint64_t e, uint64_t d) {
        uint64_t a = 0, b = entry_n_items(v, e);
        while (a < b) {
                uint64_t c = a + (b - a) / 2, x = entry_item(v, e, c);
                if (x == d)
                        return true;
                if (x < d)
                        a = c + 1;
                else
                        b = c;
        }
        /* older writers did not sort; a linear look before calling it missing */
        for (uint64_t i = 0; i < entry_n_items(v, e); i++)
                if (entry_item(v, e, i) == d)
                        return true;
        return false;
}

/* Follows an entry array chain: the entry offsets in it must be entries, strictly ascending after last, and
 * each must list the data object data (0: none). limit: how many items the chain must hold (UINT64_MAX: up
 * to the first unused slot). The slots after the last item must be unused (zero: arrays are allocated
 * zeroed, and systemd's verifier says the same). Returns how many items it holds; the last array and the
 * items used in it in *ret_tail and *ret_tail_used (0 and 0 for an empty chain). */
static uint64_t follow_array_chain(Verifier *v, uint64_t array, uint64_t limit, uint64_t last, uint64_t data,
                                   const char *what, uint64_t *ret_tail, uint64_t *ret_tail_used) {
        uint64_t n = 0, hops = 0, tail = 0, used = 0;
        bool done = false;

        while (array != 0 && !done) {
                uint64_t k, i;

                if (!is_obj(v, OBJ_ENTRY_ARRAY, array) || ++hops > v->by_type[OBJ_ENTRY_ARRAY].n) {
                        problem(v, "%s: entry array chain leads to %" PRIu64 ", no entry array (or a loop)",
                                what, array);
                        break;
                }
                k = array_n_items(v, array);
                for (i = 0; i < k && !done; i++) {
                        uint64_t e = array_item(v, array, i);
                        if (n == limit || e == 0) {
                                done = true;
                                break;
                        }
                        if (!is_obj(v, OBJ_ENTRY, e) || e <= last) {
                                problem(v,
                                        "%s: entry array %" PRIu64 " item %" PRIu64 " is %" PRIu64
                                        ", no entry or out of order",
                                        what, array, i, e);
                                return n;
                        }
                        if (data != 0 && !entry_has_item(v, e, data)) {
                                problem(v, "%s: its entry %" PRIu64 " does not list it", what, e);
                                return n;
                        }
                        last = e;
                        n++;
                }
                tail = array;
                used = i;
                if (n == limit)
                        done = true;
                if (done && !v->online) {
                        for (; i < k; i++)
                                if (array_item(v, array, i) != 0) {
                                        problem(v,
                                                "%s: entry array %" PRIu64
                                                " has data in unused slot %" PRIu64,
                                                what, array, i);
                                        break;
                                }
                        if (rd64(v, array + OBJ_HEADER) != 0)
                                problem(v, "%s: entry array %" PRIu64 " links another after the last entry",
                                        what, array);
                }
                array = rd64(v, array + OBJ_HEADER);
        }
        if (limit != UINT64_MAX && n < limit)
                problem(v, "%s: entry arrays hold %" PRIu64 " of %" PRIu64 " entries", what, n, limit);
        if (ret_tail)
                *ret_tail = tail;
        if (ret_tail_used)
                *ret_tail_used = used;
        return n;
}

/* The hash an entry's xor_hash takes of data object d (Jenkins of the payload in keyed files, whose own
 * hashes differ from file to file); false for a compressed payload in a keyed file (not decompressed here).
 */
static bool item_xor_hash(const Verifier *v, uint64_t d, uint64_t *ret) {
        if (!v->keyed) {
                *ret = rd64(v, d + 16);
                return true;
        }
        if (v->item_hash) {
                /* an entry item is a data object (checked before): its hash was taken once, by item_hashes() */
                ssize_t i = offsets_find(&v->by_type[OBJ_DATA], d);
                if (i >= 0) {
                        *ret = v->item_hash[i];
                        return v->item_hash_known[i];
                }
        }
        if (v->map[d + 1] & FLAG_COMPRESSED_MASK)
                return false;
        *ret = journal_hash_jenkins64(v->map + d + data_payload_offset(v),
                                      obj_size(v, d) - data_payload_offset(v));
        return true;
}

/* Is data object d no _BOOT_ID field, or the boot ID in entry e's header (journald writes both from the same
 * boot, journal-remote the header from the field)? Compressed payloads are not looked at. */
static bool entry_boot_id_matches(const Verifier *v, uint64_t e, uint64_t d) {
        static const char hex[] = "0123456789abcdef";
        const uint8_t *p = v->map + d + data_payload_offset(v);

        if ((v->map[d + 1] & FLAG_COMPRESSED_MASK) || obj_size(v, d) - data_payload_offset(v) != 9 + 32 ||
            memcmp(p, "_BOOT_ID=", 9) != 0)
                return true;
        for (size_t i = 0; i < 16; i++) {
                uint8_t b = v->map[e + 40 + i];
                if (p[9 + 2 * i] != hex[b >> 4] || p[9 + 2 * i + 1] != hex[b & 15])
                        return false;
        }
        return true;
}

/* In a keyed file, the Jenkins hash of every data object, taken once rather than once per entry that lists it
 * (a data object is in many entries: this was a third of the check's time). Without memory the hashes are taken
 * per item, as before. */
static void item_hashes(Verifier *v) {
        const Offsets *d = &v->by_type[OBJ_DATA];

        if (!v->keyed || d->n == 0)
                return;
        v->item_hash = malloc(d->n * sizeof(uint64_t));
        v->item_hash_known = malloc(d->n);
        if (!v->item_hash || !v->item_hash_known) {
                v->item_hash = mfree(v->item_hash);
                v->item_hash_known = mfree(v->item_hash_known);
                return;
        }
        for (size_t i = 0; i < d->n; i++) {
                uint64_t off = d->v[i];
                v->item_hash_known[i] = !(v->map[off + 1] & FLAG_COMPRESSED_MASK);
                v->item_hash[i] = v->item_hash_known[i]
                                          ? journal_hash_jenkins64(v->map + off + data_payload_offset(v),
                                                                   obj_size(v, off) - data_payload_offset(v))
                                          : 0;
        }
}

/* Every entry's items are data objects (with the data's hash, in regular files), and its xor_hash is theirs.
 */
static void check_entries(Verifier *v) {
        const Offsets *e = &v->by_type[OBJ_ENTRY];
        uint64_t last_seqnum = 0, last_monotonic = 0, last_boot = 0;

        for (size_t i = 0; i < e->n; i++) {
                uint64_t off = e->v[i], n = entry_n_items(v, off), x = 0, seq = rd64(v, off + 16), h, diff;
                bool xor_known = true, explained = false;

                if (seq <= last_seqnum)
                        problem(v, "offset %" PRIu64 ": entry sequence number %" PRIu64 " after %" PRIu64,
                                off, seq, last_seqnum);
                last_seqnum = seq;
                /* within one boot the monotonic clock does not go back from entry to entry (systemd's
                 * verifier says so too; the realtime clock may) */
                if (i > 0 && memcmp(v->map + off + 40, v->map + last_boot + 40, 16) == 0 &&
                    rd64(v, off + 32) < last_monotonic)
                        problem(v, "offset %" PRIu64 ": entry's monotonic time goes back within its boot",
                                off);
                last_monotonic = rd64(v, off + 32);
                last_boot = off;
                v->n_items += n;
                for (uint64_t k = 0; k < n; k++) {
                        uint64_t d = entry_item(v, off, k);
                        if (!is_obj(v, OBJ_DATA, d)) {
                                problem(v,
                                        "offset %" PRIu64 ": entry item %" PRIu64 " points to %" PRIu64
                                        ", no data object",
                                        off, k, d);
                                xor_known = false;
                                break;
                        }
                        if (!entry_boot_id_matches(v, off, d))
                                problem(v,
                                        "offset %" PRIu64 ": entry whose boot ID is not its _BOOT_ID field",
                                        off);
                        if (!v->compact && rd64(v, off + ENTRY_FIXED + k * 16 + 8) != rd64(v, d + 16))
                                problem(v,
                                        "offset %" PRIu64 ": entry item %" PRIu64
                                        " has another hash than its data object",
                                        off, k);
                        if (xor_known && item_xor_hash(v, d, &h))
                                x ^= h;
                        else
                                xor_known = false;
                }
                diff = x ^ rd64(v, off + 56);
                if (!xor_known || diff == 0)
                        continue;
                /* A field given twice with the same value is stored once but was hashed twice, so its hash
                 * cancels out of xor_hash: a difference of exactly one item's hash is that, not damage. */
                for (uint64_t k = 0; k < n && !explained; k++)
                        explained = item_xor_hash(v, entry_item(v, off, k), &h) && h == diff;
                if (!explained)
                        problem(v, "offset %" PRIu64 ": entry whose xor_hash does not match its items", off);
        }
}

/* Every data object's entries: the inline one, then its entry array chain; each lists the data object. */
static void check_data_entries(Verifier *v) {
        const Offsets *d = &v->by_type[OBJ_DATA];
        uint64_t links = 0;

        /* Every item of an entry is one entry of a data object: the totals agree. More links than items
         * would also make the walk below quadratic (chains that share their arrays): it is not walked then.
         */
        for (size_t i = 0; i < d->n; i++)
                links += MIN(rd64(v, d->v[i] + 56), UINT64_MAX - links);
        if (links != v->n_items && (links > v->n_items || !v->online))
                problem(v, "data objects count %" PRIu64 " entries, the entries hold %" PRIu64 " items",
                        links, v->n_items);
        if (links > v->n_items)
                return;
        for (size_t i = 0; i < d->n; i++) {
                uint64_t off = d->v[i], first = rd64(v, off + 40), array = rd64(v, off + 48),
                         n = rd64(v, off + 56);
                uint64_t tail = 0, used = 0;
                char what[64];

                if ((first == 0) != (n == 0)) {
                        problem(v,
                                "offset %" PRIu64 ": data object with %" PRIu64
                                " entries and first entry %" PRIu64,
                                off, n, first);
                        continue;
                }
                if (n == 0)
                        continue;
                if (n > v->by_type[OBJ_ENTRY].n) {
                        problem(v,
                                "offset %" PRIu64 ": data object in %" PRIu64 " entries, the file has %zu",
                                off, n, v->by_type[OBJ_ENTRY].n);
                        continue;
                }
                if (!is_obj(v, OBJ_ENTRY, first) || !entry_has_item(v, first, off)) {
                        problem(v,
                                "offset %" PRIu64 ": data object's first entry %" PRIu64 " does not list it",
                                off, first);
                        continue;
                }
                snprintf(what, sizeof what, "data object %" PRIu64, off);
                (void) follow_array_chain(v, array, n - 1, first, off, what, &tail, &used);
                /* compact files keep the chain's last array and its fill in the data object (used when
                 * appending) */
                if (v->compact && !v->online && (rd32(v, off + 64) != tail || rd32(v, off + 68) != used))
                        problem(v,
                                "offset %" PRIu64 ": data object's last entry array is %" PRIu32
                                " with %" PRIu32 " entries, its chain ends at %" PRIu64 " with %" PRIu64,
                                off, rd32(v, off + 64), rd32(v, off + 68), tail, used);
        }
}

/* A hash table (at the header's offset of its items) and its chains: every object of the type in exactly one
 * chain, in the bucket of its hash. */
static void check_hash_table(Verifier *v, int table_type, int obj_type, uint64_t items,
                             uint64_t items_size) {
        const char *what = obj_name[table_type];
        uint64_t n_buckets, chained = 0, limit = v->by_type[obj_type].n;

        if (items < OBJ_HEADER || !is_obj(v, table_type, items - OBJ_HEADER) ||
            obj_size(v, items - OBJ_HEADER) - OBJ_HEADER != items_size || items_size < 16) {
                problem(v, "the header's %s (offset %" PRIu64 ", %" PRIu64 " bytes) is not there", what,
                        items, items_size);
                return;
        }
        n_buckets = items_size / 16;
        for (uint64_t b = 0; b < n_buckets; b++) {
                uint64_t head = rd64(v, items + b * 16), tail = rd64(v, items + b * 16 + 8), o = head,
                         prev = 0;

                if ((head == 0) != (tail == 0)) {
                        problem(v, "%s bucket %" PRIu64 ": head %" PRIu64 " but tail %" PRIu64, what, b,
                                head, tail);
                        continue;
                }
                while (o != 0) {
                        if (!is_obj(v, obj_type, o)) {
                                problem(v, "%s bucket %" PRIu64 ": chain leads to %" PRIu64 ", no %s object",
                                        what, b, o, obj_name[obj_type]);
                                prev = tail; /* said once */
                                break;
                        }
                        /* each object is in one chain: more hops over all chains is a loop or chains that
                         * merge (and walking on would be quadratic) */
                        if (++chained > limit) {
                                problem(v, "%s: its chains loop or merge (bucket %" PRIu64 ")", what, b);
                                return;
                        }
                        if (rd64(v, o + 16) % n_buckets != b)
                                problem(v, "offset %" PRIu64 ": %s object in the wrong hash bucket", o,
                                        obj_name[obj_type]);
                        prev = o;
                        o = rd64(v, o + 24); /* next_hash_offset, after the hash in both types */
                }
                if (prev != tail)
                        problem(v, "%s bucket %" PRIu64 ": chain ends at %" PRIu64 ", the tail is %" PRIu64,
                                what, b, prev, tail);
        }
        if (chained != limit)
                problem(v, "%s: %" PRIu64 " %s objects are chained, the file has %" PRIu64, what, chained,
                        obj_name[obj_type], limit);
}

/* Every field's chain of data objects (what sd_journal_query_unique() walks): data objects of that field,
 * each data object in one chain. */
static void check_field_chains(Verifier *v) {
        const Offsets *f = &v->by_type[OBJ_FIELD];
        uint64_t chained = 0, limit = v->by_type[OBJ_DATA].n;

        for (size_t i = 0; i < f->n && chained <= limit; i++) {
                uint64_t field = f->v[i], o = rd64(v, field + 32), fn = obj_size(v, field) - FIELD_FIXED;
                const uint8_t *name = v->map + field + FIELD_FIXED;

                while (o != 0) {
                        if (!is_obj(v, OBJ_DATA, o) || ++chained > limit) {
                                problem(v,
                                        "offset %" PRIu64 ": field's data chain leads to %" PRIu64
                                        ", no data object (or a loop)",
                                        field, o);
                                break;
                        }
                        if (!(v->map[field + 1] | v->map[o + 1]) &&
                            (obj_size(v, o) - data_payload_offset(v) <= fn ||
                             memcmp(v->map + o + data_payload_offset(v), name, fn) != 0 ||
                             v->map[o + data_payload_offset(v) + fn] != '='))
                                problem(v, "offset %" PRIu64 ": data object in the chain of another field",
                                        o);
                        o = rd64(v, o + 32);
                }
        }
        if (chained != limit)
                problem(v, "%" PRIu64 " data objects are in field chains, the file has %" PRIu64, chained,
                        limit);
}

static void check_header_counts(Verifier *v) {
        static const struct {
                size_t at;
                int type; /* _OBJ_MAX: all objects */
                const char *what;
        } counts[] = {
                {H_N_OBJECTS, _OBJ_MAX, "objects"},   {H_N_ENTRIES, OBJ_ENTRY, "entries"},
                {H_N_DATA, OBJ_DATA, "data objects"}, {H_N_FIELDS, OBJ_FIELD, "field objects"},
                {H_N_TAGS, OBJ_TAG, "tags"},          {H_N_ENTRY_ARRAYS, OBJ_ENTRY_ARRAY, "entry arrays"},
        };

        for (size_t i = 0; i < ELEMENTSOF(counts); i++) {
                uint64_t want, got;
                if (counts[i].at + 8 > v->header_size)
                        continue;
                want = rd64(v, counts[i].at);
                got = counts[i].type == _OBJ_MAX ? v->n_objects : v->by_type[counts[i].type].n;
                if (want != got)
                        problem(v, "the header counts %" PRIu64 " %s, the file has %" PRIu64, want,
                                counts[i].what, got);
        }
}

/* The entry list the header starts, against the entries found, and the header's head and tail facts. */
static void check_main_list(Verifier *v) {
        const Offsets *e = &v->by_type[OBJ_ENTRY];
        uint64_t tail = 0, used = 0, n;

        n = follow_array_chain(v, rd64(v, H_ENTRY_ARRAY), UINT64_MAX, 0, 0, "the header's entry list", &tail,
                               &used);
        if (n != e->n)
                problem(v, "the header's entry list holds %" PRIu64 " entries, the file has %zu", n, e->n);
        /* v252 headers keep the list's last array and its fill (for appending); 0 where a writer did not */
        if (v->header_size >= H_TAIL_ENTRY_ARRAY + 8 && !v->online &&
            (rd32(v, H_TAIL_ENTRY_ARRAY) | rd32(v, H_TAIL_ENTRY_ARRAY + 4)) != 0 && tail <= UINT32_MAX &&
            (rd32(v, H_TAIL_ENTRY_ARRAY) != tail || rd32(v, H_TAIL_ENTRY_ARRAY + 4) != used))
                problem(v,
                        "the header's last entry array is %" PRIu32 " with %" PRIu32
                        " entries, the list ends "
                        "at %" PRIu64 " with %" PRIu64,
                        rd32(v, H_TAIL_ENTRY_ARRAY), rd32(v, H_TAIL_ENTRY_ARRAY + 4), tail, used);
        if (e->n == 0)
                return;
        if (rd64(v, H_HEAD_SEQNUM) != rd64(v, e->v[0] + 16) ||
            rd64(v, H_TAIL_SEQNUM) != rd64(v, e->v[e->n - 1] + 16))
                problem(v, "the header's first and last sequence numbers are not those of the first and "
                           "last entry");
        if (rd64(v, H_HEAD_REALTIME) != rd64(v, e->v[0] + 24) ||
            rd64(v, H_TAIL_REALTIME) != rd64(v, e->v[e->n - 1] + 24))
                problem(v,
                        "the header's first and last timestamps are not those of the first and last entry");
        /* the header's tail boot ID is the last entry's when the file says so (a compatible flag, v254),
         * else possibly its writer's boot; the monotonic time goes with it */
        if ((rd32(v, 8) & COMPAT_TAIL_ENTRY_BOOT_ID) &&
            memcmp(v->map + H_TAIL_BOOT_ID, v->map + e->v[e->n - 1] + 40, 16) != 0)
                problem(v, "the header's last boot ID is not that of the last entry");
        else if (memcmp(v->map + H_TAIL_BOOT_ID, v->map + e->v[e->n - 1] + 40, 16) == 0 &&
                 rd64(v, H_TAIL_MONOTONIC) != rd64(v, e->v[e->n - 1] + 32))
                problem(v, "the header's last monotonic timestamp is not that of the last entry");
        if (v->header_size >= H_TAIL_ENTRY_OFFSET + 8 && rd64(v, H_TAIL_ENTRY_OFFSET) != 0 &&
            rd64(v, H_TAIL_ENTRY_OFFSET) != e->v[e->n - 1])
                problem(v, "the header's last entry offset %" PRIu64 " is not the last entry",
                        rd64(v, H_TAIL_ENTRY_OFFSET));
}

static void offsets_done(Verifier *v) {
        for (size_t i = 0; i < _OBJ_MAX; i++)
                free(v->by_type[i].v);
        free(v->type_at);
        free(v->item_hash);
        free(v->item_hash_known);
}

static int verify_map(Verifier *v) {
        uint64_t tail;
        int r;

        v->incompat = rd32(v, 12);
        v->compact = v->incompat & INCOMPAT_COMPACT;
        v->keyed = v->incompat & INCOMPAT_KEYED_HASH;
        v->rep->state = v->map[H_STATE];
        v->online =
                v->rep->state == 1; /* a writer may be in the middle of an append: no claims on free space */
        v->header_size = rd64(v, H_HEADER_SIZE);
        v->rep->n_header_entries = rd64(v, H_N_ENTRIES);

        if (v->rep->state > 2)
                problem(v, "the header's state byte is %u (0, 1 or 2 are valid)", v->rep->state);
        if (v->incompat & ~INCOMPAT_KNOWN)
                problem(v, "the header has unknown incompatible flags 0x%" PRIx32, v->incompat);
        if (v->header_size < HEADER_MIN || v->header_size > v->file_size || v->header_size % 8 != 0) {
                problem(v, "the header's size %" PRIu64 " is impossible", v->header_size);
                return 0;
        }
        if (rd64(v, H_ARENA_SIZE) > v->file_size - v->header_size) {
                problem(v, "the header's arena (%" PRIu64 " bytes) is bigger than the file",
                        rd64(v, H_ARENA_SIZE));
                return 0;
        }
        v->arena_end = v->header_size + rd64(v, H_ARENA_SIZE);
        tail = rd64(v, H_TAIL_OBJECT);
        /* even a new file has objects: its two hash tables */
        if (tail < v->header_size || tail >= v->arena_end || tail % 8 != 0) {
                problem(v, "the header's tail object offset %" PRIu64 " is outside the arena", tail);
                return 0;
        }
        /* a byte per 8-byte slot; calloc leaves the pages of a huge sparse claim untouched. Without it (OOM)
         * the sorted offsets answer, only slower. */
        v->n_slots = v->arena_end / 8 + 1;
        v->type_at = calloc(v->n_slots, 1);
        r = walk(v, tail);
        if (r < 0)
                return r;
        v->rep->n_entries = v->by_type[OBJ_ENTRY].n;
        check_header_counts(v);
        check_main_list(v);
        item_hashes(v);
        check_entries(v);
        check_data_entries(v);
        check_hash_table(v, OBJ_DATA_HASH_TABLE, OBJ_DATA, rd64(v, H_DATA_HT_OFFSET),
                         rd64(v, H_DATA_HT_SIZE));
        check_hash_table(v, OBJ_FIELD_HASH_TABLE, OBJ_FIELD, rd64(v, H_FIELD_HT_OFFSET),
                         rd64(v, H_FIELD_HT_SIZE));
        check_field_chains(v);
        return 0;
}

int journal_file_verify(const char *path, JournalVerifyReport *ret) {
        _cleanup_(closep) int fd = -EBADF;
        Verifier v = {.rep = ret};
        struct stat st;
        void *map;
        int r;

        *ret = (JournalVerifyReport) {};
        /* O_NONBLOCK: a FIFO named *.journal must not block the open; it is refused below */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        r = fd_stat_regular(fd, &st);
        if (r < 0)
                return r;
        if (st.st_size < HEADER_MIN)
                return -EBADMSG;
        if ((uint64_t) st.st_size > SIZE_MAX)
                return -EFBIG;
        v.file_size = (uint64_t) st.st_size;
        map = mmap(NULL, v.file_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED)
                return -errno;
        v.map = map;
        if (memcmp(v.map, "LPKSHHRH", 8) != 0)
                r = -EBADMSG;
        else
                r = verify_map(&v);
        offsets_done(&v);
        munmap(map, v.file_size);
        if (r < 0)
                journal_verify_report_done(ret);
        return r;
}
