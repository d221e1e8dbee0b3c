/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Replays corpus files (or every file in corpus directories) through a fuzz target, printing TAP: one line per
 * input. A crash or sanitizer report fails the test run. */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "basic/util.h"
#include "fuzz.h"

static unsigned n_inputs;

static int replay_file(const char *path) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *buf = NULL;
        size_t size;
        int r;

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        r = read_full_fd(fd, 64 << 20, &buf, &size);
        if (r < 0)
                return r;
        LLVMFuzzerTestOneInput((const uint8_t *) buf, size);
        printf("ok %u - %s\n", ++n_inputs, path);
        fflush(stdout);
        return 0;
}

static int name_cmp(const struct dirent **a, const struct dirent **b) {
        return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char *argv[]) {
        int failed = 0;

        for (int i = 1; i < argc; i++) {
                struct stat st;
                if (stat(argv[i], &st) < 0) {
                        printf("not ok %u - %s: %s\n", ++n_inputs, argv[i], strerror(errno));
                        failed = 1;
                        continue;
                }
                if (S_ISDIR(st.st_mode)) {
                        struct dirent **de = NULL;
                        int n = scandir(argv[i], &de, NULL, name_cmp);
                        for (int k = 0; k < n; k++) {
                                if (de[k]->d_name[0] != '.') {
                                        _cleanup_(freep) char *p = path_join(argv[i], de[k]->d_name);
                                        if (!p || replay_file(p) < 0) {
                                                printf("not ok %u - %s\n", ++n_inputs, de[k]->d_name);
                                                failed = 1;
                                        }
                                }
                                free(de[k]);
                        }
                        free(de);
                } else if (replay_file(argv[i]) < 0) {
                        printf("not ok %u - %s\n", ++n_inputs, argv[i]);
                        failed = 1;
                }
        }
        printf("1..%u\n", n_inputs);
        return failed;
}
