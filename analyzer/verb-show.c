/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "verbs.h"

int verb_show(int argc, char *argv[], Context *ctx) {
        log_error("show: not built yet");
        return EXIT_ERROR;
}
