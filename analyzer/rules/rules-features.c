/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/features.xml: the version facts the code asks for by name (rules/features.h). */

#include "basic/xml-util.h"
#include "rules/features.h"
#include "rules/rules-internal.h"

#define _FEATURE_NAME(e, s) [FEATURE_##e] = s,
static const char * const feature_table[_FEATURE_MAX] = { FEATURE_LIST(_FEATURE_NAME) };
#undef _FEATURE_NAME

const char *feature_to_string(Feature f) {
        return f >= 0 && f < _FEATURE_MAX ? feature_table[f] : NULL;
}

Feature feature_from_string(const char *s) {
        return (Feature) string_table_lookup(feature_table, _FEATURE_MAX, s);
}

void rules_features_done(Rules *r) {
        r->feature_ranges = mfree(r->feature_ranges);
        r->n_feature_ranges = r->allocated_feature_ranges = 0;
}

static bool ranges_overlap(const FeatureRange *a, const FeatureRange *b) {
        unsigned a_end = a->until ?: UINT_MAX, b_end = b->until ?: UINT_MAX;
        return a->since <= b_end && b->since <= a_end;
}

static int parse_feature(Rules *r, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *name = xml_attr(n, "name");
        FeatureRange x = { .file = f->path, .line = xml_line(n) };
        int q;

        x.feature = feature_from_string(strempty(name));
        if (x.feature < 0)
                return rules_bad(diags, f->path, xml_line(n), "unknown feature \"%s\" (bootrace asks for the names "
                                 "in analyzer/rules/features.h only)", strempty(name));
        q = rules_parse_range(f, n, &x.since, &x.until, diags);
        if (q < 0)
                return q;
        for (size_t i = 0; i < r->n_feature_ranges; i++) {
                const FeatureRange *o = &r->feature_ranges[i];
                if (o->feature == x.feature && ranges_overlap(o, &x))
                        return rules_bad(diags, f->path, xml_line(n),
                                         "feature \"%s\": this range overlaps the one at %s:%u", name, o->file,
                                         o->line);
        }
        if (GREEDY_REALLOC(r->feature_ranges, r->allocated_feature_ranges, r->n_feature_ranges + 1) < 0)
                return -ENOMEM;
        r->feature_ranges[r->n_feature_ranges++] = x;
        return 0;
}

int rules_parse_features(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        xmlNode *root = xmlDocGetRootElement(doc);
        int error = 0;

        XML_FOREACH_ELEMENT(n, root) {
                int q = parse_feature(r, f, n, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        return error;
}

/* Every name the code knows must have a range: a fact missing from the data is an error, not a default. */
int rules_features_finish(Rules *r, DiagList *diags) {
        bool seen[_FEATURE_MAX] = {};
        const char *file = NULL;
        int error = 0;

        for (size_t i = 0; i < r->n_feature_ranges; i++) {
                seen[r->feature_ranges[i].feature] = true;
                file = r->feature_ranges[i].file;
        }
        for (Feature f = 0; f < _FEATURE_MAX; f++)
                if (!seen[f]) {
                        int q = rules_bad(diags, file ?: "features.xml", 0,
                                          "no <feature name=\"%s\"> (bootrace needs every feature of "
                                          "analyzer/rules/features.h)", feature_to_string(f));
                        if (q == -ENOMEM)
                                return q;
                        error = error ?: q;
                }
        return error;
}

static bool range_holds(const FeatureRange *x, unsigned v) {
        return v >= x->since && (x->until == 0 || v <= x->until);
}

int rules_feature_set(const Rules *r, unsigned v, FeatureSet *ret) {
        if (v == 0)
                return -EINVAL;
        *ret = (FeatureSet) { .version = v, .rules = r };
        for (size_t i = 0; r && i < r->n_feature_ranges; i++) {
                const FeatureRange *x = &r->feature_ranges[i];
                if (range_holds(x, v))
                        ret->bits[(unsigned) x->feature / 64] |= UINT64_C(1) << ((unsigned) x->feature % 64);
        }
        return 0;
}

unsigned feature_set_since(const FeatureSet *s, Feature f) {
        unsigned best = 0;

        for (size_t i = 0; s->rules && i < s->rules->n_feature_ranges; i++) {
                const FeatureRange *x = &s->rules->feature_ranges[i];
                if (x->feature != f || (x->until != 0 && x->until < s->version))
                        continue;
                if (range_holds(x, s->version))
                        return x->since;
                if (best == 0 || x->since < best)
                        best = x->since;
        }
        return best;
}

unsigned feature_set_until(const FeatureSet *s, Feature f) {
        const FeatureRange *best = NULL;

        for (size_t i = 0; s->rules && i < s->rules->n_feature_ranges; i++) {
                const FeatureRange *x = &s->rules->feature_ranges[i];
                if (x->feature != f || x->since > s->version)
                        continue;
                if (range_holds(x, s->version))
                        return x->until;
                if (!best || x->until > best->until)
                        best = x;
        }
        return best ? best->until : 0;
}
