/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/hashmap.h"

void hashmap_init(Hashmap *h) {
        *h = (Hashmap) {};
}

void hashmap_done(Hashmap *h) {
        free(h->slots);
        free(h->entries);
        *h = (Hashmap) {};
}

uint64_t string_hash(const char *s) {
        /* FNV-1a, 64 bit */
        uint64_t x = 0xcbf29ce484222325ULL;
        for (; *s; s++) {
                x ^= (unsigned char) *s;
                x *= 0x100000001b3ULL;
        }
        return x;
}

uint64_t string_hash_n(const char *s, size_t n) {
        uint64_t x = 0xcbf29ce484222325ULL;
        for (size_t i = 0; i < n; i++) {
                x ^= (unsigned char) s[i];
                x *= 0x100000001b3ULL;
        }
        return x;
}

#define SLOT_INDEX(s) ((size_t) ((s) & UINT32_MAX))
#define SLOT_TAG(hash) ((hash) & ~(uint64_t) UINT32_MAX)

static uint64_t *find_slot_hashed(const Hashmap *h, const char *key, uint64_t hash) {
        size_t mask = h->n_slots - 1, i = hash & mask;

        for (;;) {
                uint64_t *s = &h->slots[i];
                if (*s == 0 || (SLOT_TAG(*s) == SLOT_TAG(hash) &&
                                streq(h->entries[SLOT_INDEX(*s) - 1].key, key)))
                        return s;
                i = (i + 1) & mask;
        }
}

static int rehash(Hashmap *h, size_t n_slots) {
        uint64_t *slots = calloc(n_slots, sizeof(uint64_t));
        if (!slots)
                return -ENOMEM;
        free(h->slots);
        h->slots = slots;
        h->n_slots = n_slots;
        for (size_t k = 0; k < h->n_entries; k++) {
                uint64_t hash = string_hash(h->entries[k].key);
                /* the keys are distinct: the first empty slot of the probe sequence, no compares */
                size_t mask = n_slots - 1, i = hash & mask;
                while (slots[i] != 0)
                        i = (i + 1) & mask;
                slots[i] = SLOT_TAG(hash) | (k + 1);
        }
        return 0;
}

int hashmap_put(Hashmap *h, const char *key, void *value) {
        uint64_t hash = string_hash(key), *s;

        if (h->n_entries >= UINT32_MAX - 1)
                return -ENOMEM;
        if (h->n_slots == 0 || (h->n_entries + 1) * 2 > h->n_slots)
                if (rehash(h, h->n_slots ? h->n_slots * 2 : 64) < 0)
                        return -ENOMEM;
        s = find_slot_hashed(h, key, hash);
        if (*s)
                return -EEXIST;
        if (GREEDY_REALLOC(h->entries, h->allocated, h->n_entries + 1) < 0)
                return -ENOMEM;
        h->entries[h->n_entries] = (struct HashmapEntry) { key, value };
        *s = SLOT_TAG(hash) | ++h->n_entries;
        return 0;
}

void *hashmap_get(const Hashmap *h, const char *key) {
        uint64_t *s;
        if (h->n_slots == 0)
                return NULL;
        s = find_slot_hashed(h, key, string_hash(key));
        return *s ? h->entries[SLOT_INDEX(*s) - 1].value : NULL;
}

void hashmap_prefetch(const Hashmap *h, const HashmapKey *keys, size_t n) {
        size_t mask = h->n_slots - 1, at[HASHMAP_PREFETCH_MAX];
        uint64_t hash[HASHMAP_PREFETCH_MAX];

        if (h->n_slots == 0)
                return;
        n = MIN(n, (size_t) HASHMAP_PREFETCH_MAX);
        /* three rounds, each reading what the one before fetched: the slots, then the entries they point to, then
         * the keys' texts (the first slot of each probe only: most keys are found there) */
        for (size_t i = 0; i < n; i++) {
                hash[i] = string_hash_n(keys[i].s, keys[i].n);
                __builtin_prefetch(&h->slots[hash[i] & mask]);
        }
        for (size_t i = 0; i < n; i++) {
                uint64_t s = h->slots[hash[i] & mask];
                at[i] = s != 0 && SLOT_TAG(s) == SLOT_TAG(hash[i]) ? SLOT_INDEX(s) : 0;
                if (at[i] > 0)
                        __builtin_prefetch(&h->entries[at[i] - 1]);
        }
        for (size_t i = 0; i < n; i++)
                if (at[i] > 0)
                        __builtin_prefetch(h->entries[at[i] - 1].key);
}
