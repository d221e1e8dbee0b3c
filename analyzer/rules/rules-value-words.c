/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/value-words.xml: named words systemd accepts inside some setting values (exit status names, signal names),
 * each for a range of versions. */

#include "basic/xml-util.h"
#include "rules/rules-internal.h"

typedef struct ValueWordSet {
        char *name;
        char **words;
        unsigned *since, *until; /* parallel to words; until 0 = still accepted */
} ValueWordSet;

void rules_value_words_done(Rules *r) {
        for (size_t i = 0; i < r->n_word_sets; i++) {
                free(r->word_sets[i].name);
                strv_free(r->word_sets[i].words);
                free(r->word_sets[i].since);
                free(r->word_sets[i].until);
        }
        r->word_sets = mfree(r->word_sets);
        r->n_word_sets = 0;
}

static const ValueWordSet *find_set(const Rules *r, const char *name) {
        for (size_t i = 0; i < r->n_word_sets; i++)
                if (streq(r->word_sets[i].name, name))
                        return &r->word_sets[i];
        return NULL;
}

static int parse_set(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *name = xml_attr(n, "name");
        ValueWordSet *s;
        size_t m = 0;
        int q;

        if (isempty(name))
                return rules_bad(diags, f->path, xml_line(n), "<word-set> without a name");
        if (find_set(r, name))
                return rules_bad(diags, f->path, xml_line(n), "word set \"%s\" is defined twice", name);
        XML_FOREACH_ELEMENT(c, n)
                m += xml_is(c, "word");

        s = reallocarray(r->word_sets, r->n_word_sets + 1, sizeof(ValueWordSet));
        if (!s)
                return -ENOMEM;
        r->word_sets = s;
        s = &r->word_sets[r->n_word_sets++];
        *s = (ValueWordSet) {
                .name = strdup(name),
                .since = calloc(m + 1, sizeof(unsigned)),
                .until = calloc(m + 1, sizeof(unsigned)),
        };
        if (!s->name || !s->since || !s->until)
                return -ENOMEM;
        m = 0;
        XML_FOREACH_ELEMENT(c, n) {
                const char *w = xml_attr(c, "name");

                if (!xml_is(c, "word"))
                        continue;
                if (isempty(w) || strpbrk(w, WHITESPACE))
                        return rules_bad(diags, f->path, xml_line(c), "word set \"%s\": bad word \"%s\"", name,
                                         strempty(w));
                if (strv_contains(s->words, w))
                        return rules_bad(diags, f->path, xml_line(c), "word set \"%s\": \"%s\" is listed twice",
                                         name, w);
                q = rules_parse_range(f, c, &s->since[m], &s->until[m], diags);
                if (q < 0)
                        return q;
                if (strv_extend(&s->words, w) < 0)
                        return -ENOMEM;
                m++;
        }
        return 0;
}

int rules_parse_value_words(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        int error = 0;

        XML_FOREACH_ELEMENT(n, xmlDocGetRootElement(doc)) {
                int q = parse_set(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        return error;
}

int rules_value_word_known(const Rules *r, const char *set, const char *word, unsigned v) {
        const ValueWordSet *s = r && set ? find_set(r, set) : NULL;
        size_t i = 0;

        if (!s)
                return -ENOENT;
        if (!word)
                return 0;
        STRV_FOREACH(w, s->words) {
                if (streq(*w, word))
                        return v >= s->since[i] && (s->until[i] == 0 || v <= s->until[i]);
                i++;
        }
        return 0;
}
