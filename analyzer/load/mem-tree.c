/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The in-memory tree of a package (root.h): directories, files with their bytes, symlinks with their targets, each
 * entry with the display prefix of where it came from. Resolving paths in it is root-chase.c's. */

#include <dirent.h>

#include "load/root-internal.h"

static MemNode *mem_node_free(MemNode *n) {
        if (!n)
                return NULL;
        HASHMAP_FOREACH_ENTRY(e, &n->children)
                mem_node_free(e->value);
        hashmap_done(&n->children);
        free(n->name);
        free(n->data);
        free(n->target);
        free(n);
        return NULL;
}

static MemNode *mem_node_new(const char *name, size_t len, int type, MemNode *parent) {
        MemNode *n = calloc(1, sizeof(MemNode));

        if (!n)
                return NULL;
        n->name = strndup_safe(name, len);
        if (!n->name)
                return mfree(n);
        n->type = type;
        n->parent = parent;
        hashmap_init(&n->children);
        return n;
}

int mem_tree_new(MemTree **ret) {
        MemTree *t = calloc(1, sizeof(MemTree));

        if (!t)
                return -ENOMEM;
        t->top = mem_node_new("", 0, DT_DIR, NULL);
        if (!t->top)
                return free(t), -ENOMEM;
        *ret = t;
        return 0;
}

MemTree *mem_tree_free(MemTree *t) {
        if (!t)
                return NULL;
        mem_node_free(t->top);
        strv_free(t->origins);
        free(t);
        return NULL;
}

size_t mem_tree_entries(const MemTree *t) {
        return t->n_entries;
}

size_t mem_tree_bytes(const MemTree *t) {
        return t->bytes;
}

static int intern_origin(MemTree *t, const char *origin, const char **ret) {
        *ret = NULL;
        if (!origin)
                return 0;
        STRV_FOREACH(o, t->origins)
                if (streq(*o, origin)) {
                        *ret = *o;
                        return 0;
                }
        if (strv_extend(&t->origins, origin) < 0)
                return -ENOMEM;
        *ret = t->origins[strv_length(t->origins) - 1];
        return 0;
}

static int mem_tree_add(MemTree *t, const char *path, int type, MemNode **ret) {
        MemNode *cur = t->top;
        const char *p = path;
        size_t n;

        n = path_next_component(&p);
        if (n == 0)
                return type == DT_DIR ? (*ret = NULL, 0) : -EINVAL;
        for (;;) {
                const char *comp = p;
                size_t len = n;
                bool last;
                MemNode *child;
                char name[NAME_MAX + 1];

                if (len > NAME_MAX)
                        return -ENAMETOOLONG;
                if (len == 2 && comp[0] == '.' && comp[1] == '.')
                        return -EINVAL;
                p += len;
                n = path_next_component(&p);
                last = n == 0;
                memcpy(name, comp, len);
                name[len] = 0;
                child = hashmap_get(&cur->children, name);
                if (child) {
                        if (last) {
                                if (child->type == DT_DIR && type == DT_DIR) {
                                        *ret = NULL;
                                        return 0;
                                }
                                return -EEXIST;
                        }
                        if (child->type != DT_DIR)
                                return -ENOTDIR;
                        cur = child;
                        continue;
                }
                child = mem_node_new(name, len, last ? type : DT_DIR, cur);
                if (!child)
                        return -ENOMEM;
                if (hashmap_put(&cur->children, child->name, child) < 0) {
                        mem_node_free(child);
                        return -ENOMEM;
                }
                t->n_entries++;
                if (last) {
                        *ret = child;
                        return 0;
                }
                cur = child;
        }
}

/* Marks the new node and its parents that have no origin yet with origin. */
static int mem_tree_set_origin(MemTree *t, MemNode *n, const char *origin) {
        const char *o;
        int r = intern_origin(t, origin, &o);

        if (r < 0)
                return r;
        for (; n && n != t->top && !n->origin; n = n->parent)
                n->origin = o;
        return 0;
}

int mem_tree_add_dir(MemTree *t, const char *path, const char *origin) {
        MemNode *n = NULL;
        int r = mem_tree_add(t, path, DT_DIR, &n);

        if (r < 0 || !n)
                return r;
        return mem_tree_set_origin(t, n, origin);
}

static int add_file(MemTree *t, const char *path, const void *data, size_t size, const char *origin,
                    MemNode **ret) {
        _cleanup_(freep) char *copy = malloc(size + 1);
        MemNode *n = NULL;
        int r;

        if (!copy)
                return -ENOMEM;
        if (size > 0)
                memcpy(copy, data, size);
        copy[size] = 0;
        r = mem_tree_add(t, path, DT_REG, &n);
        if (r < 0)
                return r;
        n->data = TAKE_PTR(copy);
        n->size = size;
        t->bytes += size;
        *ret = n;
        return mem_tree_set_origin(t, n, origin);
}

int mem_tree_add_file(MemTree *t, const char *path, const void *data, size_t size, const char *origin) {
        MemNode *n;
        return add_file(t, path, data, size, origin, &n);
}

int mem_tree_add_file_shown(MemTree *t, const char *path, const void *data, size_t size, const char *origin,
                            const char *shown) {
        MemNode *n;
        int r = add_file(t, path, data, size, origin, &n);

        if (r < 0)
                return r;
        return intern_origin(t, shown, &n->shown);
}

int mem_tree_add_symlink(MemTree *t, const char *path, const char *target, const char *origin) {
        _cleanup_(freep) char *copy = strdup(target);
        MemNode *n = NULL;
        int r;

        if (!copy)
                return -ENOMEM;
        if (strlen(target) >= PATH_MAX)
                return -ENAMETOOLONG;
        r = mem_tree_add(t, path, DT_LNK, &n);
        if (r < 0)
                return r;
        n->target = TAKE_PTR(copy);
        t->bytes += strlen(target);
        return mem_tree_set_origin(t, n, origin);
}

const MemNode *mem_tree_lookup(const MemTree *t, const char *path) {
        const MemNode *cur = t->top;
        const char *p = path;
        size_t n;

        while ((n = path_next_component(&p)) > 0) {
                char name[NAME_MAX + 1];
                if (n > NAME_MAX || cur->type != DT_DIR)
                        return NULL;
                if (n == 2 && p[0] == '.' && p[1] == '.') {
                        cur = cur->parent ?: cur;
                        p += n;
                        continue;
                }
                memcpy(name, p, n);
                name[n] = 0;
                cur = hashmap_get(&cur->children, name);
                if (!cur)
                        return NULL;
                p += n;
        }
        return cur;
}

int mem_tree_read(const MemTree *t, const char *path, const char **ret_data, size_t *ret_size) {
        const MemNode *n = mem_tree_lookup(t, path);

        if (!n)
                return -ENOENT;
        if (n->type != DT_REG)
                return -EBADFD;
        *ret_data = n->data;
        *ret_size = n->size;
        return 0;
}

