/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "basic/util.h"

const char *endswith(const char *s, const char *suffix) {
        size_t sl = strlen(s), pl = strlen(suffix);

        if (pl > sl)
                return NULL;
        return streq(s + sl - pl, suffix) ? s + sl - pl : NULL;
}

char *strjoin_real(const char *first, ...) {
        va_list ap;
        size_t l = 0;
        char *r, *p;

        va_start(ap, first);
        for (const char *s = first; s; s = va_arg(ap, const char *))
                l += strlen(s);
        va_end(ap);

        r = malloc(l + 1);
        if (!r)
                return NULL;
        p = r;
        va_start(ap, first);
        for (const char *s = first; s; s = va_arg(ap, const char *)) {
                size_t n = strlen(s);
                memcpy(p, s, n);
                p += n;
        }
        va_end(ap);
        *p = 0;
        return r;
}

char *strndup_safe(const char *s, size_t n) {
        char *r = malloc(n + 1);
        if (!r)
                return NULL;
        memcpy(r, s, n);
        r[n] = 0;
        return r;
}

int asprintf_safe(char **ret, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(ret, fmt, ap);
        va_end(ap);
        if (r < 0) {
                *ret = NULL;
                return -ENOMEM;
        }
        return r;
}

int greedy_realloc(void **p, size_t *allocated, size_t need, size_t sz) {
        size_t a;
        void *q;

        if (need <= *allocated)
                return 0;
        a = MAX(need * 2, (size_t) 8);
        if (a > SIZE_MAX / sz)
                return -ENOMEM;
        q = realloc(*p, a * sz);
        if (!q)
                return -ENOMEM;
        *p = q;
        *allocated = a;
        return 0;
}

char **strv_free(char **l) {
        if (!l)
                return NULL;
        for (char **s = l; *s; s++)
                free(*s);
        free(l);
        return NULL;
}

size_t strv_length(char * const *l) {
        size_t n = 0;
        while (l && l[n])
                n++;
        return n;
}

bool strv_contains(char * const *l, const char *s) {
        STRV_FOREACH(i, l)
                if (streq(*i, s))
                        return true;
        return false;
}

int strv_push(char ***l, char *value) {
        size_t n = strv_length(*l);
        char **c;

        if (!value)
                return -ENOMEM;
        c = realloc(*l, sizeof(char *) * (n + 2));
        if (!c) {
                free(value);
                return -ENOMEM;
        }
        c[n] = value;
        c[n + 1] = NULL;
        *l = c;
        return 0;
}

int strv_extend(char ***l, const char *value) {
        return strv_push(l, strdup(value));
}

int strv_push_grow(char ***l, size_t *n, size_t *allocated, char *value) {
        if (!value)
                return -ENOMEM;
        if (*n == 0 && *l)
                *n = strv_length(*l);
        if (GREEDY_REALLOC(*l, *allocated, *n + 2) < 0) {
                free(value);
                return -ENOMEM;
        }
        (*l)[(*n)++] = value;
        (*l)[*n] = NULL;
        return 0;
}

int strv_extend_unique(char ***l, const char *value) {
        if (strv_contains(*l, value))
                return 0;
        return strv_extend(l, value);
}

char **strv_copy(char * const *l) {
        char **r = calloc(strv_length(l) + 1, sizeof(char *));
        size_t i = 0;

        if (!r)
                return NULL;
        STRV_FOREACH(s, l) {
                r[i] = strdup(*s);
                if (!r[i])
                        return strv_free(r);
                i++;
        }
        return r;
}

static int str_cmp(const void *a, const void *b) {
        return strcmp(*(char * const *) a, *(char * const *) b);
}

void strv_sort(char **l) {
        if (strv_length(l) > 1)
                qsort_safe(l, strv_length(l), sizeof(char *), str_cmp);
}

int string_table_lookup(const char * const *table, size_t n, const char *key) {
        if (!key)
                return -EINVAL;
        for (size_t i = 0; i < n; i++)
                if (table[i] && streq(table[i], key))
                        return (int) i;
        return -EINVAL;
}

int fd_stat_regular(int fd, struct stat *ret) {
        if (fstat(fd, ret) < 0)
                return -errno;
        if (S_ISDIR(ret->st_mode))
                return -EISDIR;
        if (!S_ISREG(ret->st_mode))
                return -EBADFD;
        return 0;
}

int read_full_fd(int fd, size_t max, char **ret, size_t *ret_size) {
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        return read_full_fd_stat(fd, &st, max, ret, ret_size);
}

int read_full_fd_stat(int fd, const struct stat *stp, size_t max, char **ret, size_t *ret_size) {
        _cleanup_(freep) char *buf = NULL;
        size_t n = 0, allocated = 0;
        struct stat st = *stp;

        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        if ((uint64_t) st.st_size > max)
                return -EFBIG;

        for (;;) {
                ssize_t k;

                /* room for the size fstat() gave and one byte more (a file that grew, or EOF), then more */
                if (n + 1 >= allocated) {
                        size_t want = allocated == 0 ? (size_t) st.st_size + 2 : MAX(allocated * 2, (size_t) 4096);
                        char *b = realloc(buf, want);
                        if (!b)
                                return -ENOMEM;
                        buf = b;
                        allocated = want;
                }
                size_t asked = allocated - n - 1;
                k = read(fd, buf + n, asked);
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (k == 0)
                        break;
                n += (size_t) k;
                if (n > max)
                        return -EFBIG;
                /* a regular file that gave all fstat() promised and less than asked for has ended: no read just
                 * to see the end (procfs files say 0 and may come in pieces: those are read to the end) */
                if (st.st_size > 0 && n >= (size_t) st.st_size && (size_t) k < asked)
                        break;
        }
        if (!buf && !(buf = malloc(1)))
                return -ENOMEM;
        buf[n] = 0;
        *ret = TAKE_PTR(buf);
        if (ret_size)
                *ret_size = n;
        return 0;
}

int read_full_stream(int fd, size_t max, char **ret, size_t *ret_size) {
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        /* not a regular file: no size to trust, read until read() says the end */
        if (!S_ISREG(st.st_mode))
                st = (struct stat) { .st_mode = S_IFREG };
        return read_full_fd_stat(fd, &st, max, ret, ret_size);
}

size_t utf8_first_invalid(const char *s, size_t n, Utf8Flags flags) {
        const unsigned char *p = (const unsigned char *) s;
        size_t i = 0;

        while (i < n) {
                unsigned char c = p[i];
                size_t len;
                uint32_t cp;

                if (c < 0x80) {
                        i++;
                        continue;
                }
                if ((c & 0xE0) == 0xC0) {
                        len = 2;
                        cp = c & 0x1F;
                } else if ((c & 0xF0) == 0xE0) {
                        len = 3;
                        cp = c & 0x0F;
                } else if ((c & 0xF8) == 0xF0) {
                        len = 4;
                        cp = c & 0x07;
                } else
                        return i;
                if (i + len > n)
                        return i;
                for (size_t j = 1; j < len; j++) {
                        if ((p[i + j] & 0xC0) != 0x80)
                                return i;
                        cp = (cp << 6) | (p[i + j] & 0x3F);
                }
                /* overlong forms, surrogates, beyond U+10FFFF */
                if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
                    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
                        return i;
                if ((flags & UTF8_REFUSE_NONCHARACTERS) &&
                    ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE))
                        return i;
                i += len;
        }
        return n;
}

char *utf8_sanitize(const char *s) {
        size_t n = strlen(s), o = 0;
        char *r = malloc(n * 3 + 1);

        if (!r)
                return NULL;
        for (size_t i = 0; i < n;) {
                size_t ok = utf8_first_invalid(s + i, n - i, 0);
                memcpy(r + o, s + i, ok);
                o += ok;
                i += ok;
                if (i < n) {
                        memcpy(r + o, "\xef\xbf\xbd", 3);
                        o += 3;
                        i++;
                }
        }
        r[o] = 0;
        return r;
}

bool utf8_is_valid_n(const char *s, size_t n, Utf8Flags flags) {
        return utf8_first_invalid(s, n, flags) == n;
}

int free_and_strdup(char **p, const char *s) {
        char *c = strdup(s);

        if (!c)
                return -ENOMEM;
        free(*p);
        *p = c;
        return 0;
}

int parse_boolean(const char *s) {
        static const char * const yes[] = { "1", "yes", "y", "true", "t", "on" };
        static const char * const no[] = { "0", "no", "n", "false", "f", "off" };

        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                if (strcasecmp(s, yes[i]) == 0)
                        return 1;
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                if (strcasecmp(s, no[i]) == 0)
                        return 0;
        return -EINVAL;
}

int safe_atou(const char *s, unsigned *ret) {
        char *end;
        unsigned long v;

        if (isempty(s) || s[0] == '-' || s[0] == '+' || s[0] == ' ')
                return -EINVAL;
        errno = 0;
        v = strtoul(s, &end, 10);
        if (errno > 0)
                return -errno;
        if (*end)
                return -EINVAL;
        if (v > UINT_MAX)
                return -ERANGE;
        *ret = (unsigned) v;
        return 0;
}

/* mangle_base() from 246: 0b and 0o name the base */
static const char *number_base(const char *s, bool modern, int *base) {
        *base = 0;
        if (modern && s[0] == '0' && s[1] && strchr("bBoO", s[1])) {
                *base = strchr("bB", s[1]) ? 2 : 8;
                return s + 2;
        }
        return s;
}

int systemd_atou(const char *s, bool modern, unsigned long *ret) {
        unsigned long l;
        char *x;
        int base;

        s += strspn(s, WHITESPACE);
        s = number_base(s, modern, &base);
        errno = 0;
        l = strtoul(s, &x, base);
        if (errno > 0)
                return -errno;
        if (x == s || *x != 0)
                return -EINVAL;
        if (s[0] == '-' && (l != 0 || !modern))
                return -ERANGE;
        if ((unsigned long) (unsigned) l != l)
                return -ERANGE;
        *ret = l;
        return 0;
}

int systemd_atoi(const char *s, bool modern, long *ret) {
        char *x;
        long l;
        int base;

        s += strspn(s, WHITESPACE);
        s = number_base(s, modern, &base);
        errno = 0;
        l = strtol(s, &x, base);
        if (errno > 0)
                return -errno;
        if (x == s || *x != 0)
                return -EINVAL;
        if ((long) (int) l != l)
                return -ERANGE;
        *ret = l;
        return 0;
}

bool path_is_absolute(const char *p) {
        return p && p[0] == '/';
}

char *path_simplify_dup(const char *p) {
        size_t n = strlen(p);
        char *r = malloc(n + 2), *o = r;

        if (!r)
                return NULL;
        for (const char *s = p; *s;) {
                if (*s == '/') {
                        while (*s == '/')
                                s++;
                        /* drop "." components */
                        while (s[0] == '.' && (s[1] == '/' || s[1] == 0)) {
                                s++;
                                while (*s == '/')
                                        s++;
                        }
                        *o++ = '/';
                        continue;
                }
                *o++ = *s++;
        }
        *o = 0;
        while (o > r + 1 && o[-1] == '/')
                *--o = 0;
        if (!r[0]) {
                r[0] = '.';
                r[1] = 0;
        }
        return r;
}

bool path_is_normalized(const char *p) {
        if (strstr(p, "//") || streq(p, ".") || startswith(p, "./") || strstr(p, "/./") || endswith(p, "/.") ||
            streq(p, "..") || startswith(p, "../") || strstr(p, "/../") || endswith(p, "/.."))
                return false;
        if (strlen(p) > 1 && p[strlen(p) - 1] == '/')
                return false;
        return true;
}

bool path_startswith_dir(const char *path, const char *dir) {
        const char *t = startswith(path, dir);
        return t && (*t == 0 || *t == '/');
}

const char *path_basename(const char *p) {
        const char *s = strrchr(p, '/');
        return s ? s + 1 : p;
}

bool path_cut_last(char *p) {
        char *slash;

        if (streq(p, "/"))
                return false;
        slash = strrchr(p, '/');
        if (!slash || slash == p)
                p[1] = 0;
        else
                *slash = 0;
        return true;
}

char *path_join(const char *a, const char *b) {
        if (isempty(a))
                return strdup(b);
        if (endswith(a, "/") || b[0] == '/')
                return strjoin(a, b[0] == '/' && endswith(a, "/") ? b + 1 : b);
        return strjoin(a, "/", b);
}

char *path_text_relative(const char *s, const char *dir) {
        size_t n = strlen(dir), k = 0;
        char *r = malloc(strlen(s) + 1), *o = r;

        if (!r)
                return NULL;
        while (s[k]) {
                if (n > 1 && strncmp(s + k, dir, n) == 0 && s[k + n] == '/' &&
                    (k == 0 || s[k - 1] == ' ' || s[k - 1] == '(')) {
                        k += n + 1;
                        continue;
                }
                *o++ = s[k++];
        }
        *o = 0;
        return r;
}

char *escape_control(const char *s) {
        size_t n = 0;
        char *r, *o;

        for (const char *c = s; *c; c++)
                n += (unsigned char) *c < 0x20 || *c == 0x7f ? 4 : 1;
        r = o = malloc(n + 1);
        if (!r)
                return NULL;
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;
                if (c == '\n' || c == '\t') {
                        *o++ = '\\';
                        *o++ = c == '\n' ? 'n' : 't';
                } else if (c < 0x20 || c == 0x7f)
                        o += sprintf(o, "\\x%02x", c);
                else
                        *o++ = (char) c;
        }
        *o = 0;
        return r;
}

int usable_cpus(void) {
        cpu_set_t set;

        if (sched_getaffinity(0, sizeof set, &set) == 0)
                return CPU_COUNT(&set);
        return (int) sysconf(_SC_NPROCESSORS_ONLN);
}

uint64_t now_usec(void) {
        struct timespec ts;

        (void) clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * USEC_PER_SEC + (uint64_t) ts.tv_nsec / 1000;
}

uint64_t deadline_after(uint64_t budget) {
        uint64_t n = now_usec();
        return budget > UINT64_MAX - n ? UINT64_MAX : n + budget;
}

uint64_t deadline_remaining(uint64_t deadline) {
        uint64_t n = now_usec();
        return deadline > n ? deadline - n : 0;
}
