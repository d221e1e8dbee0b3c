/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Small helpers shared by every module: cleanup attributes, ownership steals, string lists. */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _warn_unused_result_ __attribute__((warn_unused_result))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Returns the pointer and leaves NULL behind: how ownership leaves a _cleanup_ variable. */
#define TAKE_PTR(p)                                     \
        ({                                              \
                __typeof__(p) _p_ = (p);                \
                (p) = NULL;                             \
                _p_;                                    \
        })
#define TAKE_FD(fd)                                     \
        ({                                              \
                int _fd_ = (fd);                        \
                (fd) = -EBADF;                          \
                _fd_;                                   \
        })

static inline void *mfree(void *p) {
        free(p);
        return NULL;
}

static inline void freep(void *p) {
        free(*(void **) p);
}
static inline void fclosep(FILE **f) {
        if (*f)
                fclose(*f);
}
static inline void closep(int *fd) {
        if (*fd >= 0)
                close(*fd);
}

/* What separates words in unit settings, as systemd's WHITESPACE */
#define WHITESPACE " \t\n\r"

/* The CPUs this process may run on (taskset, a container's cpuset), not just those online. */
int usable_cpus(void);

/* qsort() of nothing or one element does nothing, also with a NULL array (qsort()'s own contract forbids that) */
static inline void qsort_safe(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
        if (n > 1)
                qsort(base, n, size, cmp);
}

static inline bool streq(const char *a, const char *b) {
        /* most strings compared differ in their first byte: no call for those */
        return a[0] == b[0] && strcmp(a, b) == 0;
}
static inline bool streq_ptr(const char *a, const char *b) {
        if (!a || !b)
                return a == b;
        return streq(a, b);
}
static inline bool isempty(const char *s) {
        return !s || !s[0];
}
static inline const char *strempty(const char *s) {
        return s ?: "";
}
static inline const char *strna(const char *s) {
        return s ?: "n/a";
}

/* Returns the rest of s after prefix, or NULL if s does not start with it. */
static inline const char *startswith(const char *s, const char *prefix) {
        size_t l = strlen(prefix);
        return strncmp(s, prefix, l) == 0 ? s + l : NULL;
}
const char *endswith(const char *s, const char *suffix);

/* Allocation that aborts on OOM is not used: every allocator returns NULL and callers return -ENOMEM. */
char *strjoin_real(const char *first, ...) __attribute__((sentinel));
#define strjoin(...) strjoin_real(__VA_ARGS__, NULL)
char *strndup_safe(const char *s, size_t n);
int asprintf_safe(char **ret, const char *fmt, ...) _printf_(2, 3);

/* Growable array helper: ensures room for need elements of size sz in *p (capacity in *allocated). */
int greedy_realloc(void **p, size_t *allocated, size_t need, size_t sz);
#define GREEDY_REALLOC(array, allocated, need) \
        greedy_realloc((void **) &(array), &(allocated), (need), sizeof((array)[0]))

/* NULL-terminated string lists. */
typedef char **strv_t;
char **strv_free(char **l);
static inline void strv_freep(char ***l) {
        strv_free(*l);
}
size_t strv_length(char * const *l);
bool strv_contains(char * const *l, const char *s);
int strv_push(char ***l, char *value);       /* takes value (also on failure) */
/* strv_push() for long lists: *l holds *n strings in room for *allocated pointers (start both at 0 with a NULL or
 * empty list); takes value (also on failure). */
int strv_push_grow(char ***l, size_t *n, size_t *allocated, char *value);
int strv_extend(char ***l, const char *value); /* copies value */
int strv_extend_unique(char ***l, const char *value);
char **strv_copy(char * const *l);
void strv_sort(char **l);
#define STRV_FOREACH(s, l) for (char * const *s = (l); s && *s; s++)

/* String-table helpers for enums: returns the index or -EINVAL. */
int string_table_lookup(const char * const *table, size_t n, const char *key);

/* Reads a whole regular file from an open fd, refusing more than max bytes (-EFBIG). Returns a NUL-terminated
 * buffer (the file may contain NUL bytes itself; *ret_size is the true size). */
/* fstat() of fd that must be a regular file: -EISDIR for a directory, -EBADFD for a FIFO, device or socket. */
int fd_stat_regular(int fd, struct stat *ret);
int read_full_fd(int fd, size_t max, char **ret, size_t *ret_size);
/* read_full_fd() with fstat() of fd already done (st). */
int read_full_fd_stat(int fd, const struct stat *st, size_t max, char **ret, size_t *ret_size);
/* read_full_fd() of whatever fd is but a directory (standard input: a pipe, a terminal, /dev/null), to its end. */
int read_full_stream(int fd, size_t max, char **ret, size_t *ret_size);

typedef enum Utf8Flags {
        /* also refuse U+FDD0..U+FDEF and U+xFFFE/U+xFFFF, as systemd's utf8_is_valid() does */
        UTF8_REFUSE_NONCHARACTERS = 1 << 0,
} Utf8Flags;

/* Position of the first invalid UTF-8 byte in s[0..n), or n. Invalid: malformed, overlong, a surrogate, beyond
 * U+10FFFF, and with UTF8_REFUSE_NONCHARACTERS a noncharacter. */
size_t utf8_first_invalid(const char *s, size_t n, Utf8Flags flags);
bool utf8_is_valid_n(const char *s, size_t n, Utf8Flags flags);
/* A copy of s with every invalid UTF-8 byte replaced by U+FFFD (for XML and other strict consumers). */
char *utf8_sanitize(const char *s);

/* A copy of s with its control characters escaped (\\n, \\t, \\x1b, ...), for text output of names that come from
 * the input (a file name may hold a newline or a terminal escape sequence). NULL on OOM. */
char *escape_control(const char *s);

/* Replaces the string *p owns with a copy of s (*p is kept on failure). Returns 0 or -ENOMEM. */
int free_and_strdup(char **p, const char *s);

/* Safe unsigned parse; returns -EINVAL/-ERANGE. */
int safe_atou(const char *s, unsigned *ret);
/* The numbers systemd's safe_atou_full(s, 0, ...) and safe_atoi() read (src/basic/parse-util.c@v219..v262): blanks
 * before the number, strtoul()/strtol() with base 0 (0x, a leading 0 for octal, a sign), nothing after it, within
 * unsigned int or int. modern (systemd 246 and later, fc80cabcf5 and c78eefc135; the fact number-base-prefixes):
 * 0b and 0o prefixes too, and "-0" is 0; before, any '-' put an unsigned number out of range. Return 0, -EINVAL
 * or -ERANGE. */
int systemd_atou(const char *s, bool modern, unsigned long *ret);
int systemd_atoi(const char *s, bool modern, long *ret);
/* systemd's boolean words: 1/yes/y/true/t/on, 0/no/n/false/f/off, any case. Returns 1, 0 or -EINVAL. */
int parse_boolean(const char *s);

/* Path helpers operating on strings only (no file system access). */
bool path_is_absolute(const char *p);
/* Normalises a path: collapses "//" and "/./", strips a trailing "/". Returns NULL on OOM. Refuses nothing. */
char *path_simplify_dup(const char *p);
bool path_is_normalized(const char *p);
/* Is path dir itself or below it (component-wise: "/dev" covers "/dev/null", not "/devices")? */
bool path_startswith_dir(const char *path, const char *dir);
const char *path_basename(const char *p);
/* Cuts the last component off the absolute path p in place ("/a/b" -> "/a", "/a" -> "/"). Returns false, leaving
 * p alone, when p is "/" already: a loop over a path and each of its parents is do { ... } while (path_cut_last(p)). */
bool path_cut_last(char *p);
char *path_join(const char *a, const char *b);
/* s with every path below dir that starts a word (at the start of s, after a blank or '(') made relative to dir:
 * paths shown back the way the user typed them, relative to the working directory. NULL on OOM. */
char *path_text_relative(const char *s, const char *dir);

#define USEC_PER_SEC UINT64_C(1000000)
#define USEC_PER_MSEC UINT64_C(1000)

/* CLOCK_MONOTONIC in µs, a deadline budget µs from now, and the time left until a deadline (0 when passed).
 */
uint64_t now_usec(void);
uint64_t deadline_after(uint64_t budget);
uint64_t deadline_remaining(uint64_t deadline);
