/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A streaming JSON writer: tracks nesting and commas so callers only say what comes next. Output is compact
 * unless pretty is set. Strings are escaped; invalid UTF-8 bytes are written as U+FFFD. */

#include "basic/util.h"

#define JSON_DEPTH_MAX 64

typedef struct JsonWriter {
        FILE *f;
        bool pretty;
        unsigned depth;
        bool need_comma[JSON_DEPTH_MAX];
        bool after_key;
} JsonWriter;

void json_init(JsonWriter *w, FILE *f, bool pretty);
void json_begin_object(JsonWriter *w);
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w);
void json_end_array(JsonWriter *w);
void json_key(JsonWriter *w, const char *key);
void json_string(JsonWriter *w, const char *s); /* NULL writes null */
void json_string_n(JsonWriter *w, const char *s, size_t n);
void json_int(JsonWriter *w, long long v);
void json_uint(JsonWriter *w, unsigned long long v);
void json_double(JsonWriter *w, double v); /* non-finite values are written as null */
void json_bool(JsonWriter *w, bool b);
void json_null(JsonWriter *w);
/* Finishes a top-level value with a newline. */
void json_finish(JsonWriter *w);

/* "key": [ the strings of l ] (NULL: an empty array). */
void json_kv_strv(JsonWriter *w, const char *key, char * const *l);

/* Convenience: "key": value pairs. */
static inline void json_kv_string(JsonWriter *w, const char *k, const char *v) {
        json_key(w, k);
        json_string(w, v);
}
static inline void json_kv_int(JsonWriter *w, const char *k, long long v) {
        json_key(w, k);
        json_int(w, v);
}
static inline void json_kv_uint(JsonWriter *w, const char *k, unsigned long long v) {
        json_key(w, k);
        json_uint(w, v);
}
static inline void json_kv_double(JsonWriter *w, const char *k, double v) {
        json_key(w, k);
        json_double(w, v);
}
static inline void json_kv_bool(JsonWriter *w, const char *k, bool v) {
        json_key(w, k);
        json_bool(w, v);
}
