/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A private dbus-daemon (no service directories: a missing name fails fast with ServiceUnknown) and the fake
 * manager (tests/unit/fake-systemd) on it, for the tests of the bus code. The daemon's address is exported
 * as DBUS_SYSTEM_BUS_ADDRESS, so sd_bus_open_system() in the test (and in the fake) reaches it. Under
 * make check WRAPPER=... the fake runs under the wrapper as the test does (it is our code too); valgrind's
 * reports go to logs in the bus directory, which fake_bus_stop() reads. */

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "basic/util.h"

typedef struct FakeBus {
        char dir[256];
        char address[512];
        char log[300];
        pid_t daemon;
        pid_t manager;
        bool wrapped; /* the fake ran under $WRAPPER */
} FakeBus;

/* Reads one line from fd within timeout_ms into buf. Returns its length or -1. */
static inline int fake_read_line(int fd, char *buf, size_t size, int timeout_ms) {
        size_t n = 0;

        while (n + 1 < size) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                ssize_t k;
                int r = poll(&p, 1, timeout_ms);
                if (r < 0 && errno == EINTR)
                        continue; /* a test's own signals (S28) may arrive while the fake starts */
                if (r <= 0)
                        return -1;
                k = read(fd, buf + n, 1);
                if (k <= 0)
                        return -1;
                if (buf[n] == '\n') {
                        buf[n] = 0;
                        return (int) n;
                }
                n++;
        }
        return -1;
}

static inline pid_t fake_spawn(char **argv, int *ret_stdout, bool quiet) {
        int p[2];
        pid_t pid;

        if (pipe2(p, O_CLOEXEC) < 0)
                return -1;
        pid = fork();
        if (pid < 0)
                return -1;
        if (pid == 0) {
                /* a test that dies (a crash, a signal) must not leave its bus and fake behind; the setting
                 * survives the exec, also through sh and valgrind */
                (void) prctl(PR_SET_PDEATHSIG, SIGTERM);
                dup2(p[1], STDOUT_FILENO);
                if (quiet) { /* dbus-daemon complains about fd limits it cannot raise */
                        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
                        if (null >= 0)
                                dup2(null, STDERR_FILENO);
                }
                execv(argv[0], argv);
                _exit(127);
        }
        close(p[1]);
        *ret_stdout = p[0];
        return pid;
}

/* extra: more <busconfig> content (limits), or NULL. Returns 0 or -1. */
static inline int fake_bus_start(FakeBus *fb, const char *extra) {
        char conf[400];
        FILE *f;
        int fd;

        *fb = (FakeBus) {};
        snprintf(fb->dir, sizeof fb->dir, "%s/bootrace-fakebus.XXXXXX", getenv("TMPDIR") ?: "/tmp");
        if (!mkdtemp(fb->dir))
                return -1;
        snprintf(conf, sizeof conf, "%s/bus.conf", fb->dir);
        snprintf(fb->log, sizeof fb->log, "%s/calls.log", fb->dir);
        f = fopen(conf, "we");
        if (!f)
                return -1;
        fprintf(f,
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<busconfig><type>session</type><listen>unix:tmpdir=%s</listen><auth>EXTERNAL</auth>\n"
                "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy>%s</busconfig>\n",
                fb->dir, extra ?: "");
        fclose(f);
        char arg[450];
        snprintf(arg, sizeof arg, "--config-file=%s", conf);
        char *argv[] = { (char *) "/usr/bin/dbus-daemon", arg, (char *) "--nofork",
                         (char *) "--print-address=1", NULL };
        if (access(argv[0], X_OK) < 0)
                argv[0] = (char *) "/bin/dbus-daemon";
        fb->daemon = fake_spawn(argv, &fd, true);
        if (fb->daemon < 0)
                return -1;
        int n = fake_read_line(fd, fb->address, sizeof fb->address, 5000);
        close(fd);
        if (n <= 0)
                return -1;
        setenv("DBUS_SYSTEM_BUS_ADDRESS", fb->address, 1);
        return 0;
}

static inline const char *fake_systemd_path(void) {
        static char path[4096];
        const char *b = getenv("top_builddir");
        ssize_t n;

        if (getenv("FAKE_SYSTEMD"))
                return getenv("FAKE_SYSTEMD");
        if (b) {
                snprintf(path, sizeof path, "%s/tests/unit/fake-systemd", b);
                return path;
        }
        n = readlink("/proc/self/exe", path, sizeof path - 32);
        if (n <= 0)
                return "fake-systemd";
        path[n] = 0;
        strcpy(strrchr(path, '/') + 1, "fake-systemd");
        return path;
}

/* Starts the fake with scenario and waits until it owns the name. Returns 0 or -1. */
static inline int fake_manager_start(FakeBus *fb, const char *scenario) {
        char logarg[320], pidarg[64], line[64];
        int fd, n;

        snprintf(logarg, sizeof logarg, "--log=%s", fb->log);
        snprintf(pidarg, sizeof pidarg, "--daemon-pid=%d", (int) fb->daemon);
        char *argv[] = { (char *) fake_systemd_path(), (char *) scenario, logarg, pidarg, NULL };
        const char *wrapper = getenv("WRAPPER");
        char script[700];
        /* sh splits $WRAPPER into words, as make does; exec keeps the pid, so SIGTERM reaches the fake */
        char *wrapped_argv[] = { (char *) "/bin/sh", (char *) "-c", script, (char *) "fake-systemd",
                                 argv[0], argv[1], argv[2], argv[3], NULL };

        fb->wrapped = wrapper && *wrapper;
        if (fb->wrapped) {
                if (startswith(wrapper, "valgrind"))
                        snprintf(script, sizeof script, "exec $WRAPPER --log-file=%s/valgrind.%%p.log \"$@\"",
                                 fb->dir);
                else
                        snprintf(script, sizeof script, "exec $WRAPPER \"$@\"");
        }
        fb->manager = fake_spawn(fb->wrapped ? wrapped_argv : argv, &fd, false);
        if (fb->manager < 0)
                return -1;
        /* valgrind takes seconds to start it on a loaded machine */
        n = fake_read_line(fd, line, sizeof line, fb->wrapped ? 60000 : 5000);
        close(fd);
        /* "READY :1.N": the fake names its unique name after it (t5000 waits for the bus to agree) */
        return n > 0 && (streq(line, "READY") || startswith(line, "READY ")) ? 0 : -1;
}

static inline void fake_kill(pid_t *pid) {
        if (*pid > 0) {
                kill(*pid, SIGTERM);
                waitpid(*pid, NULL, 0);
        }
        *pid = 0;
}

/* Reads and removes the valgrind logs in dir: prints every report in them as TAP comments. Returns how many
 * logs had one ("==PID==" lines; "--PID--" lines are valgrind's own notices). */
static inline unsigned fake_valgrind_logs(const char *dir) {
        struct dirent *de;
        unsigned bad = 0;
        DIR *d = opendir(dir);

        if (!d)
                return 0;
        while ((de = readdir(d))) {
                char path[600], line[1024];
                bool reported = false;
                FILE *f;

                if (!startswith(de->d_name, "valgrind."))
                        continue;
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                if ((f = fopen(path, "re"))) {
                        while (fgets(line, sizeof line, f))
                                if (line[0] == '=' && line[1] == '=') {
                                        printf("# fake-systemd: %s", line);
                                        reported = true;
                                }
                        fclose(f);
                }
                fflush(stdout);
                bad += reported;
                unlink(path);
        }
        closedir(d);
        return bad;
}

/* Stops the fake and the daemon. Returns how many runs of the fake valgrind reported errors in, after printing
 * them (0 when it did not run under valgrind). */
static inline unsigned fake_bus_stop(FakeBus *fb) {
        char cmd[300];
        unsigned bad = 0;

        fake_kill(&fb->manager);
        fake_kill(&fb->daemon);
        if (fb->dir[0]) {
                DIR *d;
                bad = fake_valgrind_logs(fb->dir);
                snprintf(cmd, sizeof cmd, "%s/bus.conf", fb->dir);
                unlink(cmd);
                unlink(fb->log);
                /* what else is left: the killed daemon's socket (a file in tmpdir= with newer dbus-daemons) */
                d = opendir(fb->dir);
                for (struct dirent *de; d && (de = readdir(d));)
                        if (!streq(de->d_name, ".") && !streq(de->d_name, ".."))
                                (void) unlinkat(dirfd(d), de->d_name, 0);
                if (d)
                        closedir(d);
                rmdir(fb->dir);
        }
        unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
        return bad;
}

/* Does the fake's call log contain needle? */
static inline bool fake_log_has(const FakeBus *fb, const char *needle) {
        char line[4096];
        bool found = false;
        FILE *f = fopen(fb->log, "re");

        if (!f)
                return false;
        while (!found && fgets(line, sizeof line, f))
                found = strstr(line, needle) != NULL;
        fclose(f);
        return found;
}

static inline unsigned fake_log_count(const FakeBus *fb, const char *needle) {
        char line[4096];
        unsigned n = 0;
        FILE *f = fopen(fb->log, "re");

        if (!f)
                return 0;
        while (fgets(line, sizeof line, f))
                n += strstr(line, needle) != NULL;
        fclose(f);
        return n;
}

/* Generous bounds for "returns within the deadline": a loaded CI machine, or valgrind, is slow. */
static inline uint64_t fake_slack_usec(void) {
        const char *p = getenv("LD_PRELOAD");
        return p && strstr(p, "vgpreload") ? 8000000 : 2000000;
}
