/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Splitting setting values into words the way systemd does for each kind of setting (knowledge/unit-syntax.md
 * §4): dependency lists (whitespace, quotes kept), path lists (quotes removed; '-' and '+' prefixes), and command
 * lines (quotes and C escapes, ';' separators, executable prefixes). */

#include "basic/util.h"
#include "rules/features.h"

/* Dependency lists: split on whitespace only; quotes and backslashes are kept. */
int words_split_plain(const char *s, char ***ret);

/* Quote-aware split (systemd's extract_first_word with EXTRACT_UNQUOTE): "a b" 'c d' e -> {a b, c d, e}.
 * With cunescape also handles C escapes (\n, \t, \x41, \101, \u...). Returns -EINVAL on unbalanced quotes or
 * a bad escape. */
int words_split_quoted(const char *s, bool cunescape, char ***ret);

typedef enum WordsFlags {
        WORDS_CUNESCAPE = 1 << 0,      /* apply C escapes (EXTRACT_CUNESCAPE) */
        WORDS_RETAIN_ESCAPE = 1 << 1,  /* keep backslashes and the character after them (EXTRACT_RETAIN_ESCAPE) */
        WORDS_RELAX = 1 << 2,          /* a trailing unquoted backslash is kept, and with WORDS_CUNESCAPE an unknown
                                        * escape is kept as written, backslash and all (EXTRACT_UNESCAPE_RELAX) */
} WordsFlags;

/* The first field of extract_many_words(s, "SEP", EXTRACT_CUNESCAPE|EXTRACT_UNESCAPE_SEPARATORS): s up to the
 * first sep no backslash escapes, "\SEP" read as sep and the other escapes C-decoded as cunescape_one() does (an
 * exec directory's SOURCE of SOURCE[:SYMLINK]). Returns 0 with a new string, -EINVAL for an escape systemd
 * refuses or a trailing backslash, -ENOMEM. */
int words_first_field(const char *s, char sep, char **ret);

/* The general form of words_split_quoted(): quotes are always removed. */
int words_split_flags(const char *s, WordsFlags flags, char ***ret);

typedef enum ExecFlags {
        EXEC_IGNORE_FAILURE = 1 << 0, /* - */
        EXEC_ARGV0 = 1 << 1,          /* @ */
        EXEC_PRIVILEGED = 1 << 2,     /* + */
        EXEC_NO_SETUID = 1 << 3,      /* ! */
        EXEC_AMBIENT = 1 << 4,        /* !! */
        EXEC_NO_ENV_EXPAND = 1 << 5,  /* : */
        EXEC_VIA_SHELL = 1 << 6,      /* | */
} ExecFlags;

typedef struct ExecCommand {
        ExecFlags flags;
        char *path;  /* the executable after prefixes, unquoting and C unescaping; an absolute path simplified */
        char **argv; /* argv[0] is path, or the separate argv0 with '@' */
        bool unknown_escape; /* an unknown escape was kept as written (systemd: "Ignoring unknown escape sequences") */
        bool bangbang_ignored; /* '!!' given where systemd ignores it (v258: "The !! modifier ... is now ignored") */
} ExecCommand;

void exec_command_list_free(ExecCommand *l, size_t n);

/* Parses one Exec*= value into one or more commands (split by lone ';'). systemd is the version whose prefix
 * and executable rules apply (0 = newest; a prefix character unknown to that version stays part of the path;
 * non-absolute executables need v239+). Returns:
 *   0   all commands parsed (*ret may be NULL with *ret_n 0 for an empty value: the caller resets the list);
 *   1   systemd would warn and ignore the rest of the value (a bad executable word, or a command with the '-'
 *       prefix that is invalid): the commands before it are returned, *ret_error says why;
 *   -EINVAL  the unit fails to load (bad-setting); *ret_error says why; -ENOMEM.
 * Specifiers are not expanded here (the caller expands path and argv with specifier_expand()); the executable
 * checks (absolute or plain name, no quotes/control characters, not a directory) are skipped for a path that
 * still contains '%', because systemd runs them after expansion. '$VAR' stays as written (expanded at
 * execution time). */
int exec_command_parse(const char *value, const FeatureSet *fs, ExecCommand **ret, size_t *ret_n,
                       const char **ret_error);
