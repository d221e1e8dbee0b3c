/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The repair search's own parts, shared by its files: fix-search.c (the search: what may change, the groups of
 * candidate changes, the baselines), fix-candidates.c (candidates built from the groups, applied to the unit's
 * text), fix-judge.c (each candidate linted again for every target: races closed, cycles made, units delayed) and
 * fix-explain.c (ranking, why each other candidate lost, what lint shows). Nothing outside fix/ includes this. */

#include "fix/fix-search.h"
#include "lint/check-common.h"
#include "lint/exec-writes.h"

/* at most this many candidates are judged */
#define FIX_CANDIDATES_MAX 200

typedef struct Removable {
        char *key, *word;
        unsigned line;
} Removable;

typedef struct Search {
        const FixRequest *req;
        const Rules *rules;
        const char *unit;
        FixResult *res;
        char **install; /* units the baselines count as enabled */
        char ***baseline_cycles; /* per target */
        Removable *removable; /* After=/Before= words of the unit's own file */
        size_t n_removable;
        const Setting *sandbox; /* a sandboxing setting that can go, or NULL */
        char *sandbox_file;
        char *root_paths;        /* the paths on the root file system that must be writable, joined */
        char *tmpdir;
        DiagList *diags;
} Search;

typedef struct Group {
        FixStep *options;
        size_t n;
} Group;

/* fix-search.c */
bool fix_marked(const LintRun *run, const uint8_t *set, const char *name);
bool fix_step_eq(const FixStep *a, const FixStep *b);
void fix_step_done(FixStep *s);
char *fix_cycle_string(const LintRun *run, const Cycle *cy, uint32_t first);
int fix_cycle_words(const Search *s, const LintRun *run, char **old_cycles, const Removable ***ret,
                    size_t *ret_n);
int fix_step_copy(const FixStep *s, FixStep *d);
int fix_cycle_signatures(const LintRun *run, char ***ret);
int fix_closure(const LintRun *run, uint32_t start, bool after, uint8_t **ret);

/* fix-candidates.c */
int fix_candidate_add(FixResult *res, const FixStep *const *steps, size_t n, bool dropin);
void fix_group_done(Group *g);
int fix_group_add_orderings(Group *g, const char *paths, const char *mount);
int fix_candidates_product(FixResult *res, Group *groups, size_t n_groups, bool dropin);
int fix_step_cmp(const void *a, const void *b);
int fix_group_add(Group *g, FixKind kind, const char *section, const char *key, const char *value,
                  unsigned line);
int fix_candidate_text(const Search *s, FixCandidate *c);

/* fix-judge.c */
int fix_judge(Search *s, FixCandidate *c, const Removable ***words, size_t *n_words);

/* fix-explain.c */
int fix_candidate_cmp(const void *a, const void *b);
int fix_explain_rejection(const FixCandidate *chosen, FixCandidate *c, const char *unit);
