/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Editing the text of a unit file (or drop-in) the way a person would: add lines to a section, drop one word
 * of an assignment, drop a key. Every other byte stays as it was: comments, blank lines, indentation, line
 * endings, continuation lines, a missing final newline. Each function returns a new text in *ret (caller
 * frees). */

#include "basic/util.h"

/* Is key a dependency key of [Unit] (After=, Before=, Requires=, Wants=, RequiresMountsFor=, ...)? */
bool fix_edit_is_dependency_key(const char *key);

/* Inserts lines ("Key=value", without newline) into section: in the last instance of the section that has a
 * dependency assignment, right after the last one (its continuation lines included); else after the last
 * assignment of the first instance; else right after its header. Without such a section a new one is made:
 * [Unit] before the first section header, any other at the end. Returns 0 or -ENOMEM. */
int fix_edit_add(const char *text, const char *section, char * const *lines, char **ret);

/* Removes word from the assignment of key that starts at line (1-based): the line goes when the word was its
 * only one. -ENOENT when that line is no such assignment or lacks the word, -EOPNOTSUPP when it is continued
 * over several lines. */
int fix_edit_remove_word(const char *text, unsigned line, const char *key, const char *word, char **ret);

/* Removes every assignment of key in section (continuation lines included). -ENOENT when there is none. */
int fix_edit_remove_key(const char *text, const char *section, const char *key, char **ret);
