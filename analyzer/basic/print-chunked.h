/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Many lines of output (graph's millions of edges) formatted on two threads. The items are cut into chunks: the
 * calling thread formats the even chunks straight into the output, a helper formats the odd ones into buffers of
 * its own, and the calling thread writes those in their place. The output is byte for byte what one call of the
 * formatter over all items writes. */

#include <stdio.h>

#include "basic/util.h"

/* Writes the lines of items [begin, end) to f. It runs on two threads at once: it may only read what it shares. */
typedef void (*ChunkFormat)(FILE *f, size_t begin, size_t end, void *userdata);

#define PRINT_CHUNK 16384

/* Formats items [0, n) into out. One thread does it all when there are fewer than two chunks, when the process
 * may run on only one CPU, or when the helper cannot be had (no thread, no memory): the same output. */
void print_chunked(FILE *out, size_t n, ChunkFormat format, void *userdata);

/* print_chunked() with the chunk size given, and the helper used whenever there are two chunks or more (tests).
 * Returns whether the helper formatted any chunk. */
bool print_chunked_with(FILE *out, size_t n, size_t chunk, ChunkFormat format, void *userdata);
