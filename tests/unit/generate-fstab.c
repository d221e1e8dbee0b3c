/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test helper (not a test): runs bootrace's model of systemd-fstab-generator, as tests/t6012 compares it with the
 * real generator. Usage: generate-fstab ROOT VERSION DIR */

#include "features.h"
#include "load/fstab-generator.h"

int main(int argc, char *argv[]) {
        _cleanup_(root_freep) Root *root = NULL;
        DiagList diags = {};
        unsigned v;
        int r;

        if (argc != 4 || safe_atou(argv[2], &v) < 0) {
                fprintf(stderr, "usage: generate-fstab ROOT VERSION DIR\n");
                return 2;
        }
        if (root_open(argv[1], &root) < 0) {
                fprintf(stderr, "%s: cannot open\n", argv[1]);
                return 2;
        }
        r = fstab_generate(root, test_features(v), argv[3], &diags);
        diag_list_print(&diags, stderr, DIAG_NOTICE);
        diag_list_done(&diags);
        if (r < 0) {
                fprintf(stderr, "fstab_generate: %s\n", strerror(-r));
                return 1;
        }
        return 0;
}
