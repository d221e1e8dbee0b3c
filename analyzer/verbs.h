/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The verb table's entries. Each verb lives in verb-NAME.c, parses its own options with cli_parse() and returns
 * an exit status (EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR) after reporting its own errors exactly once. */

#include "cli.h"

typedef int (*VerbFunction)(int argc, char *argv[], Context *ctx);

typedef struct Verb {
        const char *name;
        VerbFunction run;
        const char *synopsis;
        const char *summary;
} Verb;

int verb_lint(int argc, char *argv[], Context *ctx);
int verb_fix(int argc, char *argv[], Context *ctx);
int verb_show(int argc, char *argv[], Context *ctx);
int verb_graph(int argc, char *argv[], Context *ctx);
int verb_explain(int argc, char *argv[], Context *ctx);
int verb_stats(int argc, char *argv[], Context *ctx);
int verb_chain(int argc, char *argv[], Context *ctx);
int verb_probe(int argc, char *argv[], Context *ctx);
int verb_drift(int argc, char *argv[], Context *ctx);
/* The shell completion's helper "bootrace __complete": dispatched by main.c, not in the table nor --help. */
int verb_complete(int argc, char *argv[], Context *ctx);

extern const Verb verb_table[];
extern const size_t verb_table_size;
