/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A string-keyed hash map (open addressing, linear probing). Keys are borrowed: they must outlive their entry
 * (usually they point into the value). Insertion order is kept for iteration. */

#include "basic/util.h"

typedef struct Hashmap {
        uint64_t *slots;    /* low 32 bits: index+1 into entries, 0 = empty; high 32 bits: the top of the key's
                             * hash, so that a probe rarely has to look at an entry (a cache miss) at all */
        size_t n_slots;
        struct HashmapEntry {
                const char *key;
                void *value;
        } *entries;         /* 16 bytes each: a large tree has several maps of 100k names (the hash is recomputed
                             * when the slots grow, instead of kept) */
        size_t n_entries, allocated;
} Hashmap;

void hashmap_init(Hashmap *h);
void hashmap_done(Hashmap *h);
/* Returns 0 when added, -EEXIST when the key is present (the value is not replaced), -ENOMEM. */
int hashmap_put(Hashmap *h, const char *key, void *value);
void *hashmap_get(const Hashmap *h, const char *key);
static inline size_t hashmap_size(const Hashmap *h) {
        return h->n_entries;
}
#define HASHMAP_FOREACH_ENTRY(e, h) \
        for (struct HashmapEntry *e = (h)->entries; e && e < (h)->entries + (h)->n_entries; e++)

/* A key to look for that need not end in NUL: n bytes at s. */
typedef struct HashmapKey {
        const char *s;
        size_t n;
} HashmapKey;
/* Fetches into the cache what a look-up of each of the keys will read (the slot, the entry, the key's text), all at
 * once, for a caller about to look them up one by one in a map too large for the cache: the look-ups then wait for
 * memory once instead of three times each. Only a hint: it changes nothing. At most HASHMAP_PREFETCH_MAX keys. */
#define HASHMAP_PREFETCH_MAX 32
void hashmap_prefetch(const Hashmap *h, const HashmapKey *keys, size_t n);

uint64_t string_hash(const char *s);
/* string_hash() of the n bytes at s (string_hash(s) == string_hash_n(s, strlen(s))) */
uint64_t string_hash_n(const char *s, size_t n);
