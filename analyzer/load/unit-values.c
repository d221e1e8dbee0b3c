/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/specifier.h"
#include "load/unit-values.h"
#include "load/unit-words.h"

static const char *file_of(const Unit *u, const Setting *s) {
        return u->sources[s->source].path;
}

static int expand_one(const Unit *u, const Setting *s, const char *word, SpecifierUse use, const FeatureSet *fs, char **ret,
                      DiagList *diags) {
        SpecifierContext c = { .unit_name = u->id, .features = fs };
        const char *unknown = NULL;
        int r;

        r = specifier_expand(word, &c, use, ret, &unknown);
        if (r == -ENXIO) {
                (void) diag_add(diags, DIAG_NOTICE, file_of(u, s), s->line,
                                "%s= uses %s, which cannot be known offline; kept unexpanded", s->key,
                                strna(unknown));
                *ret = strdup(word);
                return *ret ? -ENXIO : -ENOMEM;
        }
        if (r == -EBADMSG) {
                (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line,
                                "%s=%s: unknown or not allowed specifier %s, systemd rejects the assignment",
                                s->key, word, strna(unknown));
                return r;
        }
        if (r == -EINVAL) {
                /* %f of an instance that is no escaped path, and the like: systemd logs "Failed to resolve unit
                 * specifiers" and ignores the assignment (or the word) */
                (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line,
                                "%s=%s: failed to resolve specifier %s, ignored", s->key, word, strna(unknown));
                return -EBADMSG;
        }
        return r;
}

int setting_expand(const Unit *u, const Setting *s, const FeatureSet *fs, char **ret, DiagList *diags) {
        return expand_one(u, s, s->value, SPECIFIER_USE_VALUE, fs, ret, diags);
}

/* A unit name with specifiers not known offline: could it be valid? Each specifier is taken as one letter (host
 * names, machine and boot ids, architectures and os-release fields are letters, digits, '-', '_' and '.', all
 * valid in unit names), "%%" as the '%' it is. */
static bool name_may_be_valid(const char *word) {
        char probe[UNIT_NAME_MAX + 1];
        size_t n = 0;

        for (const char *p = word; *p; p++) {
                if (n >= UNIT_NAME_MAX)
                        return true; /* a host name may also be shorter than its specifier: not judged */
                if (*p == '%' && p[1]) {
                        probe[n++] = p[1] == '%' ? '%' : 'a';
                        p++;
                } else
                        probe[n++] = *p;
        }
        probe[n] = 0;
        return unit_name_is_valid(probe, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE);
}

int setting_unit_names_foreach(const Unit *u, const Setting *s, const FeatureSet *fs, DiagList *diags,
                               int (*f)(const char *name, void *userdata), void *userdata) {
        /* split on whitespace only, as words_split_plain() does: quotes and backslashes are kept */
        for (const char *p = s->value + strspn(s->value, WHITESPACE); *p; p += strspn(p, WHITESPACE)) {
                _cleanup_(freep) char *e = NULL;
                const char *word = p;
                size_t n = strcspn(p, WHITESPACE);
                char buf[UNIT_NAME_MAX + 1];
                const char *w = buf;
                int r;

                p += n;
                if (n < sizeof buf && !memchr(word, '%', n)) {
                        /* nothing to expand: the word as it is */
                        memcpy(buf, word, n);
                        buf[n] = 0;
                } else {
                        _cleanup_(freep) char *copy = strndup_safe(word, n);
                        if (!copy)
                                return -ENOMEM;
                        r = expand_one(u, s, copy, SPECIFIER_USE_UNIT_NAME, fs, &e, diags);
                        if (r == -ENOMEM)
                                return r;
                        if (r == -EBADMSG || !e)
                                continue;
                        if (r == -ENXIO) {
                                /* a specifier not known offline (%H, %m, ...): the name is unknown, so no edge;
                                 * warned about only when no value of it could make the name valid */
                                if (!name_may_be_valid(copy))
                                        (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line,
                                                        "%s=: \"%s\" is not a valid unit name, whatever its "
                                                        "specifiers expand to; ignored", s->key, copy);
                                continue;
                        }
                        w = e;
                }
                if (!unit_name_is_valid(w, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE)) {
                        (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line,
                                        "%s=: \"%s\" is not a valid unit name, ignored", s->key, w);
                        continue;
                }
                r = f(w, userdata);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* A word kept unexpanded (a specifier in it is not known offline) that starts with a specifier whose value is always
 * an absolute path: the directories (%t, %S, %C, %L, %E, %T, %V, %D, %d), the home and shell (%h, %s), the cgroup
 * paths of the unit and its slice (%c, %r) and the fragment's path (%y, %Y). Whether it is absolute and normalized
 * is then not judged (fixtures/show/mounts-for-specifiers, against verify by t6022). */
static bool starts_absolute(const char *w) {
        if (w[0] != '%' || !w[1])
                return false;
        /* %R, the root cgroup, is "" for the system manager: absolute only with what follows */
        return strchr("tSCLETVDdshcryY", w[1]) || (w[1] == 'R' && w[2] == '/');
}

static int push_copy(const char *word, void *userdata) {
        return strv_extend(userdata, word);
}

int setting_words(const Unit *u, const Setting *s, const KeyInfo *k, const FeatureSet *fs, char ***ret,
                  DiagList *diags) {
        _cleanup_(strv_freep) char **words = NULL, **out = NULL;
        int r;

        if (!k)
                return -EINVAL;
        switch (k->type) {
        case VALUE_UNIT_LIST:
                out = calloc(1, sizeof(char *));
                if (!out)
                        return -ENOMEM;
                r = setting_unit_names_foreach(u, s, fs, diags, push_copy, &out);
                if (r < 0)
                        return r;
                *ret = TAKE_PTR(out);
                return 0;
        case VALUE_PATH_LIST:
                r = words_split_quoted(s->value, false, &words);
                break;
        default:
                /* Environment= applies C escapes; other string lists keep backslashes, a trailing one too */
                r = words_split_flags(s->value,
                                      streq(s->key, "Environment") ? WORDS_CUNESCAPE
                                                                   : WORDS_RETAIN_ESCAPE | WORDS_RELAX,
                                      &words);
                break;
        }
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line, "%s=: invalid quoting, ignored", s->key);
                words = NULL;
        }
        out = calloc(1, sizeof(char *));
        if (!out)
                return -ENOMEM;
        STRV_FOREACH(w, words) {
                _cleanup_(freep) char *e = NULL;

                r = expand_one(u, s, *w, SPECIFIER_USE_VALUE, fs, &e, diags);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 && r != -ENXIO)
                        continue;
                if (k->type == VALUE_PATH_LIST && !(r == -ENXIO && starts_absolute(e + strspn(e, "-+")))) {
                        /* systemd simplifies the path ("//", "/./", a trailing "/") and then refuses only relative
                         * paths and ".." components */
                        const char *p = e;
                        _cleanup_(freep) char *simple = NULL;
                        while (*p == '-' || *p == '+')
                                p++;
                        simple = path_simplify_dup(p);
                        if (!simple)
                                return -ENOMEM;
                        if (!path_is_absolute(simple) || !path_is_normalized(simple)) {
                                (void) diag_add(diags, DIAG_WARNING, file_of(u, s), s->line,
                                                "%s=: \"%s\" is not an absolute, normalized path, ignored", s->key,
                                                e);
                                continue;
                        }
                }
                if (strv_push(&out, TAKE_PTR(e)) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(out);
        return 0;
}

/* documentation_url_is_valid() of src/shared/web-util.c@v247..v261 (src/basic/web-util.c before): http:// or
 * https:// and something, file:/ and something, info: or man: and something, the rest ASCII. A word that still
 * has a specifier (one not known offline) is judged by what is written before it: a valid scheme with the
 * specifier after it passes (what it expands to is ASCII), a word that starts with one is not judged. */
static bool documentation_word_ok(const char *w) {
        const char *p, *pct = strchr(w, '%');

        if (pct == w)
                return true;
        if ((p = startswith(w, "http://")) || (p = startswith(w, "https://")) || (p = startswith(w, "file:/")) ||
            (p = startswith(w, "info:")) || (p = startswith(w, "man:"))) {
                if (isempty(p))
                        return false;
                for (; *p; p++)
                        if ((unsigned char) *p >= 128)
                                return false;
                return true;
        }
        return false;
}

const char *documentation_why(const char *value) {
        _cleanup_(strv_freep) char **words = NULL;
        int r;

        if (!value)
                return NULL;
        /* config_parse_strv(): extract_first_word(EXTRACT_UNQUOTE|EXTRACT_RETAIN_ESCAPE) */
        r = words_split_flags(value, WORDS_RETAIN_ESCAPE | WORDS_RELAX, &words);
        if (r < 0)
                return NULL; /* out of memory: not judged; bad quoting: setting_words() says so */
        STRV_FOREACH(w, words)
                if (!documentation_word_ok(*w))
                        return "a word that is not a documentation URL (http://, https://, file:/, info: or man:)";
        return NULL;
}
