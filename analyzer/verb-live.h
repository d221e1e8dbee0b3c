/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The live variants of show, graph and chain: what a running systemd holds, over sd-bus. The verbs' own
 * files take these options (LIVE_OPTIONS, short "H:M:") and hand over to the functions here, which connect,
 * load, print and report their errors once, returning an exit status. live_connect() is the one connection of
 * every verb that talks to PID 1 (probe and drift too). */

#include <getopt.h>

#include "cli.h"
#include "live/live.h"

enum {
        ARG_LIVE = ARG_VERB_BASE + 0x80, /* clear of every verb's own ids */
        ARG_LIVE_HOST,
        ARG_LIVE_MACHINE,
        ARG_LIVE_FUZZ,
};

#define LIVE_OPTIONS                                                   \
        { "live", no_argument, NULL, ARG_LIVE },                      \
        { "host", required_argument, NULL, ARG_LIVE_HOST },           \
        { "machine", required_argument, NULL, ARG_LIVE_MACHINE }
#define LIVE_OPTION_FUZZ { "fuzz", required_argument, NULL, ARG_LIVE_FUZZ }
#define LIVE_SHORT_OPTIONS "H:M:"

typedef struct LiveArgs {
        bool live;
        char *host;
        char *machine;
        uint64_t fuzz; /* chain: µs */
} LiveArgs;

/* Handles c if it is a live option (also -H and -M). Returns 0 when handled, 1 when c is not a live option,
 * -EINVAL after printing a usage error, -ENOMEM. */
int live_args_handle(LiveArgs *a, int c, const char *arg);
void live_args_done(LiveArgs *a);
/* Was any live option given? */
bool live_args_wanted(const LiveArgs *a);
/* The bus of host or machine (at most one; neither: this system) and its manager, read with opts (may be NULL);
 * errors are printed with verb in front. Returns 0, or a negative errno after printing an error. */
int live_connect(const char *host, const char *machine, const LiveOptions *opts, const char *verb, sd_bus **ret_bus,
                 LiveSystem **ret);

/* show --live UNIT...: what PID 1 has for each unit. */
int verb_show_live(const LiveArgs *a, char **units, size_t n, Context *ctx);
/* graph --live [UNIT...]: the typed edges of every loaded unit (or of those named). */
int verb_graph_live(const LiveArgs *a, char **units, size_t n, Context *ctx);
/* chain [UNIT]: the critical chain of a running system (default.target when unit is NULL). */
int verb_chain_live(const LiveArgs *a, const char *unit, Context *ctx);
