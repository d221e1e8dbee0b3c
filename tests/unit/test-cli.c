/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The verbs' shared helpers in cli.c: a unit-name option, --root, the rules; each error printed once, naming
 * what is wrong. */
#include <fcntl.h>

#include "cli.h"
#include "load/root.h"
#include "rules/rules.h"
#include "tap.h"

/* What fn printed on stderr, in *ret. Returns fn's result. */
static int capture_stderr(int (*fn)(void *), void *userdata, char **ret) {
        _cleanup_(closep) int saved = dup(STDERR_FILENO), fd = -EBADF;
        char path[] = "/tmp/test-cli.XXXXXX";
        int r;

        *ret = NULL;
        fd = mkstemp(path);
        if (saved < 0 || fd < 0)
                return -errno;
        (void) unlink(path);
        fflush(stderr);
        dup2(fd, STDERR_FILENO);
        r = fn(userdata);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        if (lseek(fd, 0, SEEK_SET) < 0 || read_full_fd(fd, 1U << 20, ret, NULL) < 0)
                return -EIO;
        return r;
}

typedef struct UnitNameCall {
        const char *arg;
        char *value;
} UnitNameCall;

static int call_set_unit_name(void *userdata) {
        UnitNameCall *c = userdata;
        return cli_set_unit_name("--transaction", c->arg, &c->value);
}

static void test_set_unit_name(void) {
        UnitNameCall c = { .arg = "multi-user.target" };
        _cleanup_(freep) char *err = NULL;

        tap_ok(capture_stderr(call_set_unit_name, &c, &err) == 0 && streq_ptr(c.value, "multi-user.target") &&
                       isempty(err),
               "a plain unit name is taken");
        c.arg = "getty@tty1.service";
        err = mfree(err);
        tap_ok(capture_stderr(call_set_unit_name, &c, &err) == 0 && streq_ptr(c.value, "getty@tty1.service"),
               "an instance replaces it");
        c.arg = "getty@.service";
        err = mfree(err);
        tap_ok(capture_stderr(call_set_unit_name, &c, &err) == -EINVAL &&
                       streq_ptr(c.value, "getty@tty1.service"),
               "a template is refused (-EINVAL) and the value kept");
        TAP_STREQ(err, "bootrace: --transaction=getty@.service: not a unit name\n", "the error names the option");
        c.arg = "no-suffix";
        err = mfree(err);
        tap_ok(capture_stderr(call_set_unit_name, &c, &err) == -EINVAL, "a name without a type is refused");
        free(c.value);
}

typedef struct RootCall {
        Context ctx;
        Root *root;
} RootCall;

static int call_open_root(void *userdata) {
        RootCall *c = userdata;
        return cli_open_root(&c->ctx, &c->root);
}

static void test_open_root(void) {
        RootCall c = {};
        _cleanup_(freep) char *err = NULL;

        context_init(&c.ctx);
        tap_ok(capture_stderr(call_open_root, &c, &err) == 0 && !c.root && isempty(err),
               "without --root: no tree, nothing printed");
        c.ctx.root = strdup("/");
        err = mfree(err);
        tap_ok(capture_stderr(call_open_root, &c, &err) == 0 && c.root && streq_ptr(c.root->path, "/"),
               "--root=/ opened");
        c.root = root_free(c.root);
        free(c.ctx.root);
        c.ctx.root = strdup("/no/such/root");
        err = mfree(err);
        tap_ok(capture_stderr(call_open_root, &c, &err) == -ENOENT && !c.root, "a missing root: -ENOENT");
        TAP_STREQ(err, "bootrace: --root=/no/such/root: No such file or directory\n", "the error names the root");
        context_done(&c.ctx);
}

typedef struct RulesCall {
        Rules *rules;
        DiagList diags;
} RulesCall;

static int call_load_rules(void *userdata) {
        RulesCall *c = userdata;
        return cli_load_rules(&c->rules, &c->diags);
}

static void test_load_rules(void) {
        _cleanup_(freep) char *saved = getenv("BOOTRACE_RULES_DIR") ? strdup(getenv("BOOTRACE_RULES_DIR")) : NULL;
        _cleanup_(freep) char *err = NULL;
        RulesCall c = {};

        if (!saved)
                tap_skip("BOOTRACE_RULES_DIR not set (make check sets it)");
        else {
                tap_ok(capture_stderr(call_load_rules, &c, &err) == 0 && c.rules && isempty(err),
                       "the rules of $BOOTRACE_RULES_DIR load, nothing printed");
                c.rules = rules_free(c.rules);
        }
        diag_list_done(&c.diags);
        c.diags = (DiagList) {};
        setenv("BOOTRACE_RULES_DIR", "/no/such/rules", 1);
        err = mfree(err);
        tap_ok(capture_stderr(call_load_rules, &c, &err) < 0 && !c.rules, "missing rules: an error");
        tap_ok(err && strstr(err, "/no/such/rules: error: ") &&
                       strstr(err, "bootrace: cannot read the rules in /no/such/rules\n"),
               "the diagnostics are printed, then the error naming the directory");
        diag_list_done(&c.diags);
        if (saved)
                setenv("BOOTRACE_RULES_DIR", saved, 1);
}

int main(void) {
        test_set_unit_name();
        test_open_root();
        test_load_rules();
        return tap_done();
}
