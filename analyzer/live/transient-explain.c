/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What became of a transient unit, in words (transient_explain()): the job's result, the service's Result and
 * exit status with systemd's names for them. */

#include "live/bus-util.h"
#include "live/transient.h"

const char *exit_status_name(int status) {
        static const char * const names[] = {
                [200 - 200] = "200/CHDIR",           [201 - 200] = "201/NICE",
                [202 - 200] = "202/FDS",             [203 - 200] = "203/EXEC",
                [204 - 200] = "204/MEMORY",          [205 - 200] = "205/LIMITS",
                [206 - 200] = "206/OOM_ADJUST",      [207 - 200] = "207/SIGNAL_MASK",
                [208 - 200] = "208/STDIN",           [209 - 200] = "209/STDOUT",
                [210 - 200] = "210/CHROOT",          [211 - 200] = "211/IOPRIO",
                [212 - 200] = "212/TIMERSLACK",      [213 - 200] = "213/SECUREBITS",
                [214 - 200] = "214/SETSCHEDULER",    [215 - 200] = "215/CPUAFFINITY",
                [216 - 200] = "216/GROUP",           [217 - 200] = "217/USER",
                [218 - 200] = "218/CAPABILITIES",    [219 - 200] = "219/CGROUP",
                [220 - 200] = "220/SETSID",          [221 - 200] = "221/CONFIRM",
                [222 - 200] = "222/STDERR",          [224 - 200] = "224/PAM",
                [225 - 200] = "225/NETWORK",         [226 - 200] = "226/NAMESPACE",
                [227 - 200] = "227/NO_NEW_PRIVILEGES", [228 - 200] = "228/SECCOMP",
                [229 - 200] = "229/SELINUX_CONTEXT", [230 - 200] = "230/PERSONALITY",
                [231 - 200] = "231/APPARMOR_PROFILE", [232 - 200] = "232/ADDRESS_FAMILIES",
                [233 - 200] = "233/RUNTIME_DIRECTORY", [235 - 200] = "235/CHOWN",
                [236 - 200] = "236/SMACK_PROCESS_LABEL", [237 - 200] = "237/KEYRING",
                [238 - 200] = "238/STATE_DIRECTORY", [239 - 200] = "239/CACHE_DIRECTORY",
                [240 - 200] = "240/LOGS_DIRECTORY",  [241 - 200] = "241/CONFIGURATION_DIRECTORY",
                [242 - 200] = "242/NUMA_POLICY",     [243 - 200] = "243/CREDENTIALS",
                [245 - 200] = "245/BPF",
        };
        if (status == 1)
                return "1/FAILURE";
        if (status == 2)
                return "2/INVALIDARGUMENT";
        if (status < 200 || status - 200 >= (int) ELEMENTSOF(names))
                return NULL;
        return names[status - 200];
}

static const char *signal_name(int sig) {
        static const char * const names[] = {
                [1] = "SIGHUP",   [2] = "SIGINT",   [3] = "SIGQUIT", [4] = "SIGILL",   [5] = "SIGTRAP",
                [6] = "SIGABRT",  [7] = "SIGBUS",   [8] = "SIGFPE",  [9] = "SIGKILL",  [10] = "SIGUSR1",
                [11] = "SIGSEGV", [12] = "SIGUSR2", [13] = "SIGPIPE", [14] = "SIGALRM", [15] = "SIGTERM",
        };
        return sig > 0 && sig < (int) ELEMENTSOF(names) ? names[sig] : NULL;
}

static char *explain_failed(const TransientResult *r) {
        const char *res = r->service_result;
        char *s = NULL;
        char sig[16];
        const char *sn;

        if (r->details_missing || !res)
                return strdup("the job failed; the unit was collected before its Result could be read, so "
                              "only the job result is known");
        sn = signal_name(r->exec_main_status);
        if (!sn) {
                snprintf(sig, sizeof sig, "signal %d", r->exec_main_status);
                sn = sig;
        }
        if (streq(res, "exit-code")) {
                const char *n = exit_status_name(r->exec_main_status);
                const char *why =
                        r->exec_main_status == 226 ?
                                ": systemd could not set up the mount namespace (PrivateTmp=, ProtectSystem=, "
                                "ReadWritePaths=, ...): a read-only or missing path?" :
                        r->exec_main_status == 203 ?
                                ": the command could not be executed (missing, not executable, or on a file "
                                "system not mounted yet)" :
                        r->exec_main_status >= 200 && n ? ": systemd failed while setting up the process" :
                                                          "";
                (void) asprintf_safe(&s, "Result=exit-code: the process exited with status %d%s%s%s%s",
                                     r->exec_main_status, n ? " (" : "", n ? n : "", n ? ")" : "", why);
        } else if (streq(res, "signal"))
                (void) asprintf_safe(&s, "Result=signal: the process was killed by %s", sn);
        else if (streq(res, "core-dump"))
                (void) asprintf_safe(&s, "Result=core-dump: the process dumped core (%s)", sn);
        else if (streq(res, "resources"))
                s = strdup(
                        "Result=resources: systemd could not set up the unit's resources (for example the "
                        "PrivateTmp= directories on a read-only file system)");
        else if (streq(res, "oom-kill"))
                s = strdup("Result=oom-kill: the kernel's OOM killer killed a process of the unit");
        else if (streq(res, "start-limit-hit"))
                s = strdup("Result=start-limit-hit: the unit was started too often (StartLimitBurst=)");
        else if (streq(res, "timeout"))
                s = strdup(
                        "Result=timeout: a timeout of the unit was hit (TimeoutStartSec=, RuntimeMaxSec=)");
        else if (streq(res, "watchdog"))
                s = strdup("Result=watchdog: the watchdog timed out");
        else
                (void) asprintf_safe(&s, "Result=%s", res);
        return s;
}

char *transient_explain(const TransientResult *r) {
        char buf[512], *s = NULL;

        switch (r->outcome) {
        case TRANSIENT_DONE:
                return strdup("the job finished: done");
        case TRANSIENT_FAILED:
                return explain_failed(r);
        case TRANSIENT_SKIPPED:
                return strdup("job skipped: a condition of the unit failed, nothing ran (not a failure)");
        case TRANSIENT_CANCELED:
                (void) asprintf_safe(&s,
                                     "job %s: the start was canceled (a conflicting job, or the unit was "
                                     "stopped meanwhile): the outcome of the command is unknown",
                                     strna(r->job_result));
                return s;
        case TRANSIENT_JOB_TIMEOUT:
                return strdup("job timeout: the unit's own start timeout passed");
        case TRANSIENT_DEPENDENCY:
                return strdup(
                        "job dependency: a unit it needs failed (for PrivateTmp= that can be tmp.mount or "
                        "systemd-tmpfiles-setup.service)");
        case TRANSIENT_INVALID:
                return strdup("job invalid: the job type does not apply to the unit");
        case TRANSIENT_ASSERT:
                return strdup("job assert: an assertion of the unit failed");
        case TRANSIENT_UNSUPPORTED:
                return strdup("job unsupported: the unit type is not supported here");
        case TRANSIENT_ONCE:
                return strdup("job once: the unit may only be started once");
        case TRANSIENT_UNEXPECTED:
                (void) asprintf_safe(&s, "unexpected job result '%s' (newer systemd?): counted as a failure",
                                     strna(r->job_result));
                return s;
        case TRANSIENT_TIMEOUT:
                (void) asprintf_safe(&s, "no result within the time limit (%s): the outcome is unknown",
                                     strna(r->phase));
                return s;
        case TRANSIENT_BUS_LOST:
                (void) asprintf_safe(&s, "the connection to the bus was lost (%s): the outcome is unknown",
                                     strna(r->phase));
                return s;
        case TRANSIENT_MANAGER_GONE:
                (void) asprintf_safe(&s, "%s: the outcome is unknown", strna(r->phase));
                return s;
        case TRANSIENT_INTERRUPTED:
                (void) asprintf_safe(&s, "interrupted (%s): the outcome is unknown", strna(r->phase));
                return s;
        case TRANSIENT_CALL_FAILED:
        case TRANSIENT_SETUP_FAILED:
                (void) asprintf_safe(&s, "%s%s%s", r->outcome == TRANSIENT_SETUP_FAILED ?
                                     "the match rules could not be installed, nothing was started: " :
                                     "systemd refused to start the unit: ",
                                     bus_error_describe(&r->error, -EIO, buf), "");
                return s;
        case TRANSIENT_ALREADY_RUNNING:
                (void) asprintf_safe(&s, "a unit of that name is already %s%s%s: it was left alone",
                                     strna(r->active_state), r->sub_state ? " " : "",
                                     strempty(r->sub_state));
                return s;
        case TRANSIENT_NAME_CLASH:
                (void) asprintf_safe(
                        &s,
                        "the name belongs to a unit that is not a transient unit (%s): it was left "
                        "alone",
                        isempty(r->fragment_path) ? "no fragment" : r->fragment_path);
                return s;
        case TRANSIENT_NAME_IN_USE:
                return strdup(
                        "a loaded unit of that name did not go away after resetting and retrying (pinned by "
                        "a reference or a dependency?)");
        default:
                return strdup("unknown outcome");
        }
}
