/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules module: the real rules directory ($BOOTRACE_RULES_DIR), target and key lookups, and broken rules files
 * in a temporary directory, each of which must give a DIAG_ERROR naming the right file and line. */
#include <fcntl.h>
#include <sys/stat.h>

#include "rules/rules.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-rules.XXXXXX";

static int write_file(const char *dir, const char *name, const char *text) {
        _cleanup_(freep) char *p = strjoin(dir, "/", name);
        _cleanup_(fclosep) FILE *f = NULL;

        if (!p || !(f = fopen(p, "we")))
                return -errno;
        fputs(text, f);
        return fflush(f) == 0 ? 0 : -errno;
}

static int copy_file(const char *from, const char *to) {
        _cleanup_(closep) int fd = open(from, O_RDONLY | O_CLOEXEC);
        _cleanup_(freep) char *buf = NULL;
        _cleanup_(fclosep) FILE *f = NULL;
        size_t n;

        if (fd < 0 || read_full_fd(fd, 1U << 20, &buf, &n) < 0 || !(f = fopen(to, "we")))
                return -EIO;
        return fwrite(buf, 1, n, f) == n ? 0 : -EIO;
}

static const char *valid_targets =
        "<?xml version=\"1.0\"?>\n"
        "<targets>\n"
        "  <target name=\"debian-bookworm\" systemd=\"252\" status=\"measured\"/>\n"
        "</targets>\n";
static const char *valid_keys =
        "<?xml version=\"1.0\"?>\n"
        "<unit-keys>\n"
        "  <section name=\"Unit\">\n"
        "    <key name=\"After\" kind=\"dependency\" type=\"unit-list\" since=\"0\"/>\n"
        "  </section>\n"
        "</unit-keys>\n";

/* Writes targets.xml, unit-keys.xml and (unless NULL) messages.xml, base-252.xml and value-words.xml into a fresh
 * directory (with
 * the real schemas; with targets NULL, a copy of the whole real rules directory, so that cross-file checks run),
 * loads it and checks that it fails with a DIAG_ERROR at file:line and that nothing was printed to stderr. */
static void check_broken_full(const char *name, const char *targets, const char *keys, const char *messages,
                              const char *base, const char *bad_file, unsigned bad_line, const char *needle,
                              const char *value_words) {
        _cleanup_(freep) char *dir = NULL, *schema = NULL, *want_file = NULL, *errpath = NULL;
        _cleanup_(rules_freep) Rules *r = NULL;
        DiagList diags = {};
        bool found = false;
        int k, saved, errfd;
        struct stat st;
        static unsigned n;

        if (asprintf_safe(&dir, "%s/%u", tmpdir, n++) < 0 || mkdir(dir, 0755) < 0)
                goto fail;
        if (!targets) {
                _cleanup_(freep) char *cmd = strjoin("cp -R '", rules_default_dir(), "/.' '", dir, "'");
                if (!cmd || system(cmd) != 0)
                        goto fail;
        }
        schema = strjoin(dir, "/schema");
        if (!schema || (mkdir(schema, 0755) < 0 && errno != EEXIST))
                goto fail;
        for (const char *s = "targets.rng"; s;
             s = streq(s, "targets.rng")     ? "unit-keys.rng"
                 : streq(s, "unit-keys.rng") ? "messages.rng"
                 : streq(s, "messages.rng")  ? "base.rng"
                                             : NULL) {
                _cleanup_(freep) char *from = strjoin(rules_default_dir(), "/schema/", s);
                _cleanup_(freep) char *to = strjoin(schema, "/", s);
                if (!from || !to || copy_file(from, to) < 0)
                        goto fail;
        }
        if ((targets && write_file(dir, "targets.xml", targets) < 0) ||
            (keys && write_file(dir, "unit-keys.xml", keys) < 0) ||
            (messages && write_file(dir, "messages.xml", messages) < 0) ||
            (base && write_file(dir, "base-252.xml", base) < 0) ||
            (value_words && write_file(dir, "value-words.xml", value_words) < 0))
                goto fail;
        want_file = strjoin(dir, "/", bad_file);
        errpath = strjoin(dir, "/stderr");
        if (!want_file || !errpath)
                goto fail;

        /* libxml2 must not print anything itself */
        fflush(stderr);
        saved = dup(STDERR_FILENO);
        errfd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (saved < 0 || errfd < 0)
                goto fail;
        dup2(errfd, STDERR_FILENO);
        close(errfd);
        k = rules_load(dir, &r, &diags);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);

        tap_ok(k < 0, "%s: load fails (%s)", name, strerror(k < 0 ? -k : 0));
        for (size_t i = 0; i < diags.n; i++) {
                const Diag *d = &diags.items[i];
                tap_diag("  %s:%u: %s: %s", strna(d->file), d->line, diag_level_to_string(d->level), d->message);
                if (d->level == DIAG_ERROR && streq_ptr(d->file, want_file) && d->line == bad_line &&
                    (!needle || strstr(d->message, needle)))
                        found = true;
        }
        tap_ok(found, "%s: DIAG_ERROR at %s:%u%s%s", name, bad_file, bad_line, needle ? " mentioning " : "",
               strempty(needle));
        tap_ok(stat(errpath, &st) == 0 && st.st_size == 0, "%s: nothing printed to stderr", name);
        diag_list_done(&diags);
        return;
fail:
        tap_ok(false, "%s: setting up %s: %s", name, strna(dir), strerror(errno));
        diag_list_done(&diags);
}

static void check_broken_ex(const char *name, const char *targets, const char *keys, const char *messages,
                            const char *bad_file, unsigned bad_line, const char *needle) {
        check_broken_full(name, targets, keys, messages, NULL, bad_file, bad_line, needle, NULL);
}

static void check_broken(const char *name, const char *targets, const char *keys, const char *bad_file,
                         unsigned bad_line, const char *needle) {
        check_broken_ex(name, targets, keys, NULL, bad_file, bad_line, needle);
}

/* messages.xml with one <text> (line 8) after the minimum of the other elements */
#define MESSAGES(text) \
        "<?xml version=\"1.0\"?>\n<messages>\n" \
        "  <ident format=\"description\" source=\"s\">d</ident>\n" \
        "  <writer identifier=\"systemd\" role=\"manager\" source=\"s\"/>\n" \
        "  <message-id id=\"39f53479d3a045ac8e11786248231fbf\" name=\"N\" event=\"job-done\" source=\"s\"/>\n" \
        "\n\n" \
        text "\n</messages>\n"

static void test_broken_messages(void) {
        check_broken_ex("unknown placeholder", valid_targets, valid_keys,
                        MESSAGES("  <text event=\"job-done\" source=\"s\">Started {unitt}.</text>"), "messages.xml", 8,
                        "unknown placeholder {unitt}");
        check_broken_ex("unclosed placeholder", valid_targets, valid_keys,
                        MESSAGES("  <text event=\"job-done\" source=\"s\">Started {ident.</text>"), "messages.xml", 8,
                        "unclosed");
        check_broken_ex("text version range", valid_targets, valid_keys,
                        MESSAGES("  <text event=\"job-done\" since=\"250\" until=\"249\" source=\"s\">Started {ident}."
                                 "</text>"), "messages.xml", 8, "after until");
        check_broken_ex("unknown event", valid_targets, valid_keys,
                        MESSAGES("  <text event=\"job-won\" source=\"s\">Started {ident}.</text>"), "messages.xml", 8,
                        NULL);
        check_broken_ex("one form twice", valid_targets, valid_keys,
                        MESSAGES("  <text event=\"job-done\" until=\"250\" source=\"s\">Started {ident}.</text>\n"
                                 "  <text event=\"job-done\" since=\"250\" source=\"s\">Started\n    {ident}.</text>"),
                        "messages.xml", 9, "already given");
}

/* The shipped messages.xml as the loader gives it: forms split into their parts, white space normalised. */
static void test_messages(const Rules *r) {
        const MessageText *t;
        const MessageIdInfo *m;
        size_t n = rules_message_texts(r, &t), nm = rules_message_ids(r, &m);
        bool parts_ok = true, wrapped_ok = false;

        tap_ok(n > 50, "messages.xml: %zu text forms", n);
        tap_ok(nm > 15, "messages.xml: %zu MESSAGE_IDs", nm);
        for (size_t i = 0; i < n; i++) {
                size_t l = 0;
                for (size_t k = 0; k < t[i].n_parts; k++)
                        l += t[i].parts[k].slot == MESSAGE_SLOT_LITERAL ? strlen(t[i].parts[k].literal)
                                                                          : strlen(message_slot_to_string(
                                                                                   t[i].parts[k].slot)) + 2;
                parts_ok = parts_ok && l == strlen(t[i].form) && !strchr(t[i].form, '\n');
                wrapped_ok = wrapped_ok || streq(t[i].form, "Failed to set up automount {ident}.");
        }
        tap_ok(parts_ok, "every form is its parts, on one line");
        tap_ok(wrapped_ok, "a form wrapped in the file is one line with one space");
        TAP_STREQ(message_slot_to_string(message_slot_from_string("exit-status")), "exit-status", "slot names");
        tap_ok(message_slot_from_string("") < 0 && message_slot_from_string("nope") < 0, "unknown slot names");
}

/* A base model with one release's enablement; TARGET is put in before </base>. */
#define BASE_252(target)                                                                                          \
        "<?xml version=\"1.0\"?>\n<base systemd=\"252\" source=\"test\">\n"                                    \
        "<unit name=\"local-fs.target\">\n[Unit]\nDescription=x\n</unit>\n"                                     \
        "<unit name=\"tmp.mount\">\n[Mount]\nWhat=tmpfs\n</unit>\n"                                             \
        "<link type=\"Wants\" unit=\"local-fs.target\" name=\"tmp.mount\"/>\n" target "</base>\n"

static void check_broken_base(const char *name, const char *targets, const char *keys, const char *base,
                              const char *bad_file, unsigned bad_line, const char *needle) {
        check_broken_full(name, targets, keys, NULL, base, bad_file, bad_line, needle, NULL);
}

static void test_broken_base_targets(void) {
        check_broken_base("<target> of no release", NULL, NULL,
                          BASE_252("<target name=\"debian-nosuch\" source=\"s\">\n</target>\n"), "base-252.xml", 12,
                          "not a release");
        check_broken_base("<target> of an alias, not the canonical name", NULL, NULL,
                          BASE_252("<target name=\"debian-12\" source=\"s\">\n</target>\n"), "base-252.xml",
                          12, "canonical");
        check_broken_base("<target> whose release has another version", NULL, NULL,
                          BASE_252("<target name=\"debian-trixie\" source=\"s\">\n</target>\n"), "base-252.xml",
                          12, "systemd 257");
        check_broken_base("<target> twice", valid_targets, valid_keys,
                          BASE_252("<target name=\"debian-bookworm\" source=\"s\">\n</target>\n"
                                   "<target name=\"debian-bookworm\" source=\"s\">\n</target>\n"),
                          "base-252.xml", 14, "a second time");
        check_broken_base("<omit> of no unit of the model", valid_targets, valid_keys,
                          BASE_252("<target name=\"debian-bookworm\" source=\"s\">\n<omit unit=\"tmp.swap\"/>\n"
                                   "</target>\n"), "base-252.xml", 12, "tmp.swap");
        check_broken_base("<unlink> of no link of the model", valid_targets, valid_keys,
                          BASE_252("<target name=\"debian-bookworm\" source=\"s\">\n"
                                   "<unlink type=\"Wants\" unit=\"sysinit.target\" name=\"tmp.mount\"/>\n"
                                   "</target>\n"), "base-252.xml", 13, "no link");
        check_broken_base("<link> with an invalid name", valid_targets, valid_keys,
                          BASE_252("<target name=\"debian-bookworm\" source=\"s\">\n"
                                   "<link type=\"Wants\" unit=\"local-fs.target\" name=\"../x.service\"/>\n"
                                   "</target>\n"), "base-252.xml", 13, "invalid unit name");
}

static void test_broken(void) {
        check_broken("malformed XML", "<?xml version=\"1.0\"?>\n<targets>\n  <target name=\"a\" systemd=\"1\" "
                     "status=\"verified\">\n</targets>\n", valid_keys, "targets.xml", 4, NULL);
        check_broken("schema violation", "<?xml version=\"1.0\"?>\n<targets>\n  <target name=\"a\" systemd=\"1\" "
                     "status=\"maybe\"/>\n</targets>\n", valid_keys, "targets.xml", 3, NULL);
        check_broken("unknown element", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n  <section name="
                     "\"Unit\">\n    <kee name=\"After\"/>\n  </section>\n</unit-keys>\n", "unit-keys.xml", 4, NULL);
        check_broken("duplicate target", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"debian-bookworm\" systemd=\"252\" status=\"measured\"/>\n"
                     "  <target name=\"debian-bookworm\" systemd=\"253\" status=\"measured\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 4, "duplicate");
        check_broken("duplicate alias", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"debian-bookworm\" systemd=\"252\" status=\"measured\"/>\n"
                     "  <target name=\"rhel-9\" systemd=\"252\" status=\"verified\">\n"
                     "    <alias name=\"Debian-Bookworm\"/>\n  </target>\n</targets>\n",
                     valid_keys, "targets.xml", 5, "duplicate");
        check_broken("bad target version", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"x\" systemd=\"25x\" status=\"measured\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 3, "not a systemd version");
        check_broken("bad key version", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <section name=\"Unit\">\n"
                     "    <key name=\"After\" kind=\"dependency\" type=\"unit-list\" since=\"v229\"/>\n"
                     "  </section>\n</unit-keys>\n", "unit-keys.xml", 4, "not a systemd version");
        check_broken("two <warn> of one value for one version", valid_targets, "<?xml version=\"1.0\"?>\n"
                     "<unit-keys>\n  <type-section unit-types=\"service\">\n"
                     "    <key name=\"User\" kind=\"single\" type=\"string\" since=\"0\">\n"
                     "      <warn value=\"nobody\" since=\"246\">a</warn>\n"
                     "      <warn value=\"nobody\" since=\"250\">b</warn>\n"
                     "    </key>\n  </type-section>\n</unit-keys>\n", "unit-keys.xml", 6, "hold for the same version");
        check_broken("<unsupported> for a type the key is not in", valid_targets, "<?xml version=\"1.0\"?>\n"
                     "<unit-keys>\n  <type-section unit-types=\"service slice\">\n"
                     "    <key name=\"Delegate\" kind=\"single\" type=\"string\" since=\"0\">\n"
                     "      <unsupported unit-types=\"socket\"/>\n"
                     "    </key>\n  </type-section>\n</unit-keys>\n", "unit-keys.xml", 5, "no such key");
        check_broken("since after until", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <section name=\"Unit\">\n\n"
                     "    <key name=\"After\" kind=\"dependency\" type=\"unit-list\" since=\"250\" until=\"249\"/>\n"
                     "  </section>\n</unit-keys>\n", "unit-keys.xml", 5, "after until");
        check_broken("duplicate key", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <type-section unit-types=\"service socket\">\n"
                     "    <key name=\"PrivateTmp\" kind=\"single\" type=\"bool\" since=\"0\"/>\n"
                     "  </type-section>\n"
                     "  <type-section unit-types=\"socket\">\n"
                     "    <key name=\"PrivateTmp\" kind=\"single\" type=\"bool\" since=\"200\"/>\n"
                     "  </type-section>\n</unit-keys>\n", "unit-keys.xml", 7, "defined twice");
        check_broken("unknown unit type", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <type-section unit-types=\"service sokcet\">\n"
                     "    <key name=\"PrivateTmp\" kind=\"single\" type=\"bool\" since=\"0\"/>\n"
                     "  </type-section>\n</unit-keys>\n", "unit-keys.xml", 3, "unknown unit type");
        check_broken("a rolling target with a version", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"a\" systemd=\"250\" status=\"rolling\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 3, NULL);
        check_broken("a target with neither a version nor rolling", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"a\" status=\"verified\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 3, NULL);
        check_broken("DTD refused", "<?xml version=\"1.0\"?>\n<!DOCTYPE targets [ <!ENTITY x \"y\"> ]>\n<targets>\n"
                     "  <target name=\"a\" systemd=\"1\" status=\"verified\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 2, "DTD");
        check_broken("undefined entity", "<?xml version=\"1.0\"?>\n<targets>\n"
                     "  <target name=\"a&ext;\" systemd=\"1\" status=\"verified\"/>\n</targets>\n",
                     valid_keys, "targets.xml", 3, NULL);
        check_broken("missing file", valid_targets, NULL, "unit-keys.xml", 0, "missing");
}

/* value-words.xml: a set named twice, a word listed twice, a bad range; in a copy of the real rules */
static void test_broken_value_words(void) {
        check_broken_full("word set defined twice", NULL, NULL, NULL, NULL, "value-words.xml", 4, "defined twice",
                          "<?xml version=\"1.0\"?>\n<value-words>\n"
                          "  <word-set name=\"signal\" source=\"s\"><word name=\"HUP\"/></word-set>\n"
                          "  <word-set name=\"signal\" source=\"s\"><word name=\"INT\"/></word-set>\n"
                          "</value-words>\n");
        check_broken_full("word listed twice", NULL, NULL, NULL, NULL, "value-words.xml", 5, "listed twice",
                          "<?xml version=\"1.0\"?>\n<value-words>\n"
                          "  <word-set name=\"exit-status\" source=\"s\">\n"
                          "    <word name=\"KSM\" since=\"254\"/>\n"
                          "    <word name=\"KSM\" since=\"255\"/>\n"
                          "  </word-set>\n</value-words>\n");
        check_broken_full("word since after until", NULL, NULL, NULL, NULL, "value-words.xml", 4, "after until",
                          "<?xml version=\"1.0\"?>\n<value-words>\n"
                          "  <word-set name=\"exit-status\" source=\"s\">\n"
                          "    <word name=\"KSM\" since=\"254\" until=\"250\"/>\n"
                          "  </word-set>\n</value-words>\n");
        /* <range if-key=>: all conditional ranges of a key name one key */
        check_broken("two if-keys for one key", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <type-section unit-types=\"service\">\n"
                     "    <key name=\"CPUSchedulingPriority\" kind=\"single\" type=\"string\" since=\"0\" syntax=\"int\">\n"
                     "      <range min=\"0\" max=\"0\" if-key=\"CPUSchedulingPolicy\" if-values=\"other\"/>\n"
                     "      <range min=\"1\" max=\"9\" if-key=\"Nice\" if-values=\"1\"/>\n"
                     "    </key>\n  </type-section>\n</unit-keys>\n", "unit-keys.xml", 6, "depends on");
        check_broken("two conditional ranges for one value", valid_targets, "<?xml version=\"1.0\"?>\n<unit-keys>\n"
                     "  <type-section unit-types=\"service\">\n"
                     "    <key name=\"CPUSchedulingPriority\" kind=\"single\" type=\"string\" since=\"0\" syntax=\"int\">\n"
                     "      <range min=\"0\" max=\"0\" if-key=\"CPUSchedulingPolicy\" if-values=\"other rr\"/>\n"
                     "      <range min=\"1\" max=\"9\" if-key=\"CPUSchedulingPolicy\" if-values=\"rr\"/>\n"
                     "    </key>\n  </type-section>\n</unit-keys>\n", "unit-keys.xml", 6, "same version");
}

/* The shipped words and the conditional range, as the loader reads them. */
static void test_value_words(const Rules *r) {
        const KeyInfo *prio = rules_key_lookup(r, UNIT_SERVICE, "Service", "CPUSchedulingPriority", 247);
        const KeyInfo *prio252 = rules_key_lookup(r, UNIT_SERVICE, "Service", "CPUSchedulingPriority", 252);
        const char *why = NULL;

        TAP_INTEQ(rules_value_word_known(r, "exit-status", "KSM", 253), 0, "KSM is no exit status at 253");
        TAP_INTEQ(rules_value_word_known(r, "exit-status", "KSM", 254), 1, "KSM is one at 254");
        TAP_INTEQ(rules_value_word_known(r, "signal", "TERM", 219), 1, "TERM is a signal name at 219");
        TAP_INTEQ(rules_value_word_known(r, "signal", "SIGTERM", 262), 0, "signal names are written without SIG");
        TAP_INTEQ(rules_value_word_known(r, "no-such-set", "x", 252), -ENOENT, "an unknown set: -ENOENT");
        tap_ok(prio && prio->range_if_key && streq(prio->range_if_key, "CPUSchedulingPolicy"),
               "CPUSchedulingPriority= at 247 depends on CPUSchedulingPolicy=");
        TAP_INTEQ(rules_key_check_range_given(prio, "5", 247, NULL, &why), 0, "priority 5, no policy: out of range");
        tap_ok(why && strstr(why, "0..0"), "the reason names the range: %s", strna(why));
        TAP_INTEQ(rules_key_check_range_given(prio, "5", 247, "fifo", NULL), 1, "priority 5 with fifo: inside");
        TAP_INTEQ(rules_key_check_range_given(prio, "0", 247, "rr", NULL), 0, "priority 0 with rr: outside");
        TAP_INTEQ(rules_key_check_range_given(prio, "0", 247, "batch", NULL), 1, "priority 0 with batch: inside");
        TAP_INTEQ(rules_key_check_range_given(prio, "1", 247, "deadline", NULL), -ENOENT,
                  "a policy no range names: not judged");
        TAP_INTEQ(rules_key_check_range_given(prio252, "5", 252, NULL, NULL), -ENOENT,
                  "from 252 no range depends on the policy");
}

/* The shipped profiles: defaults, extends, units with their package, links, names. */
/* One check that p has (or, !has, lacks) the unit name. */
static void has_unit(const Profile *p, const char *what, const char *name, bool has) {
        tap_ok(p && !!profile_unit(p, name) == has, "%s: %s %s", what, has ? "has" : "has no", name);
}

static void test_profiles(const Rules *r) {
        const Profile *p = rules_profile(r, "debian-bookworm", NULL), *d;
        const BaseLink *links;
        const BaseUnit *u;
        size_t n;
        bool found = false;

        tap_ok(p != NULL, "debian-bookworm: a default profile");
        if (!p)
                return;
        TAP_STREQ(profile_name(p), "server", "debian-bookworm: default profile server");
        tap_ok(profile_is_default(p), "debian-bookworm: server is the default");
        u = profile_unit(p, "networking.service");
        TAP_STREQ(u ? u->package : NULL, "ifupdown", "networking.service of ifupdown");
        tap_ok(u && u->version, "networking.service: ifupdown's version");
        TAP_CONTAINS(u ? u->text : NULL, "Wants=network.target", "networking.service: with its Wants=");
        n = profile_links(p, "multi-user.target", &links);
        for (size_t i = 0; i < n; i++)
                found = found || (streq(links[i].name, "networking.service") && streq(links[i].package, "ifupdown"));
        tap_ok(found, "multi-user.target.wants/networking.service (ifupdown's postinst)");
        has_unit(p, "the server profile", "NetworkManager.service", false);
        d = rules_profile(r, "debian-bookworm", "desktop");
        tap_ok(d && !profile_is_default(d), "debian-bookworm desktop: not the default");
        has_unit(d, "desktop extends server", "networking.service", true);
        has_unit(d, "desktop", "NetworkManager.service", true);
        has_unit(d, "desktop", "dbus.socket", true);
        TAP_INTEQ(d ? profile_package_count(d) : 0, 4, "desktop: ifupdown's, dbus's and NetworkManager's packages");
        tap_ok(!rules_profile(r, "debian-bookworm", "nosuch"), "no profile for an unknown name");
        tap_ok(!rules_profile(r, "ubuntu-xenial", NULL), "no profile for a target without profiles");
        tap_ok(!rules_profile(r, NULL, NULL), "no profile without a target");
        {
                _cleanup_(strv_freep) char **names = rules_profile_names(r, "debian-bookworm");
                _cleanup_(strv_freep) char **none = rules_profile_names(r, "ubuntu-xenial");
                static const char *const want[] = { PROFILE_MINIMAL, "server", "desktop" };

                TAP_INTEQ(strv_length(names), 3, "debian-bookworm: three profiles");
                for (size_t i = 0; i < ELEMENTSOF(want) && i < strv_length(names); i++)
                        TAP_STREQ(names[i], want[i], "debian-bookworm's profiles: minimal server desktop");
                TAP_INTEQ(strv_length(none), 1, "ubuntu-xenial: one profile");
                TAP_STREQ(none ? none[0] : NULL, PROFILE_MINIMAL, "ubuntu-xenial: minimal only");
        }
        p = rules_profile(r, "ubuntu-noble", "cloud");
        has_unit(p, "ubuntu-noble cloud", "cloud-init.service", true);
        u = p ? profile_unit(p, "systemd-networkd.service") : NULL;
        TAP_STREQ(u ? u->package : NULL, "systemd", "ubuntu-noble cloud: networkd, systemd's");
        tap_ok(p && profile_alias(p, "nosuch.service") == NULL, "ubuntu-noble cloud: no alias of an unknown name");
        p = rules_profile(r, "rhel-9", NULL);
        has_unit(p, "rhel-9 server", "firewalld.service", true);
        has_unit(p, "rhel-9 server", "NetworkManager-wait-online.service", true);
        TAP_STREQ(p ? profile_alias(p, "dbus-org.fedoraproject.FirewallD1.service") : NULL, "firewalld.service",
                  "rhel-9 server: firewalld's alias");
        p = rules_profile(r, "rhel-10", NULL);
        tap_ok(p && profile_is_default(p), "rhel-10: a default profile");
        u = p ? profile_unit(p, "NetworkManager-wait-online.service") : NULL;
        TAP_STREQ(u ? u->version : NULL, "1.52.0", "rhel-10 server: NetworkManager 1.52.0");
        TAP_STREQ(p ? profile_alias(p, "dbus-org.fedoraproject.FirewallD1.service") : NULL, "firewalld.service",
                  "rhel-10 server: firewalld's alias");
        static const char *const from_archive[] = { "debian-forky", "debian-sid" };
        for (size_t i = 0; i < ELEMENTSOF(from_archive); i++) {
                const char *t = from_archive[i];
                char what[64];

                p = rules_profile(r, t, NULL);
                TAP_STREQ(p ? profile_name(p) : NULL, "server", t);
                snprintf(what, sizeof what, "%s server", t);
                has_unit(p, what, "networking.service", true);
                has_unit(p, what, "NetworkManager.service", false);
                snprintf(what, sizeof what, "%s desktop", t);
                has_unit(rules_profile(r, t, "desktop"), what, "NetworkManager.service", true);
        }
}

/* A broken profile file among the real rules must give a DIAG_ERROR at its line. */
static void check_profile_broken(const char *name, const char *body, unsigned bad_line, const char *needle) {
        _cleanup_(freep) char *dir = NULL, *cmd = NULL, *text = NULL, *want = NULL;
        _cleanup_(rules_freep) Rules *r = NULL;
        DiagList diags = {};
        bool found = false;
        static unsigned n;
        int k;

        if (asprintf_safe(&dir, "%s/profile-%u", tmpdir, n++) < 0 || mkdir(dir, 0755) < 0 ||
            asprintf_safe(&cmd, "cd '%s' && cp -R schema targets.xml unit-keys.xml dependencies.xml checks.xml '%s'",
                          rules_default_dir(), dir) < 0 || system(cmd) != 0 ||
            asprintf_safe(&text, "<?xml version=\"1.0\"?>\n%s", body) < 0 ||
            write_file(dir, "profile-x.xml", text) < 0 || !(want = strjoin(dir, "/profile-x.xml"))) {
                tap_ok(false, "%s: setting up %s", name, strna(dir));
                return;
        }
        k = rules_load(dir, &r, &diags);
        for (size_t i = 0; i < diags.n; i++) {
                const Diag *d = &diags.items[i];
                tap_diag("  %s:%u: %s", strna(d->file), d->line, d->message);
                found = found || (d->level == DIAG_ERROR && streq_ptr(d->file, want) && d->line == bad_line &&
                                  strstr(d->message, needle));
        }
        tap_ok(k < 0 && found, "%s: load fails with an error at profile-x.xml:%u mentioning %s", name, bad_line,
               needle);
        diag_list_done(&diags);
}

#define PKG "  <package name=\"a\" version=\"1\" source=\"s\" reason=\"r\"/>\n"
static void test_profiles_broken(void) {
        check_profile_broken("unknown target", "<profiles target=\"debian-nosuch\" default=\"server\">\n"
                             "<profile name=\"server\" description=\"d\"/>\n</profiles>\n", 2, "debian-nosuch");
        check_profile_broken("alias as target", "<profiles target=\"bookworm\" default=\"server\">\n"
                             "<profile name=\"server\" description=\"d\"/>\n</profiles>\n", 2, "canonical");
        check_profile_broken("reserved name", "<profiles target=\"debian-bookworm\" default=\"minimal\">\n"
                             "<profile name=\"minimal\" description=\"d\"/>\n</profiles>\n", 3, "reserved");
        check_profile_broken("no default", "<profiles target=\"debian-bookworm\" default=\"cloud\">\n"
                             "<profile name=\"server\" description=\"d\"/>\n</profiles>\n", 2, "default");
        check_profile_broken("extends later", "<profiles target=\"debian-bookworm\" default=\"server\">\n"
                             "<profile name=\"desktop\" extends=\"server\" description=\"d\"/>\n"
                             "<profile name=\"server\" description=\"d\"/>\n</profiles>\n", 3, "extends");
        check_profile_broken("unknown package", "<profiles target=\"debian-bookworm\" default=\"server\">\n"
                             "<profile name=\"server\" description=\"d\">\n" PKG
                             "<unit name=\"x.service\" package=\"b\" version=\"1\" path=\"/x\" source=\"s\">\n"
                             "[Unit]\n</unit>\n</profile>\n</profiles>\n", 5, "no such <package>");
        check_profile_broken("bad unit name", "<profiles target=\"debian-bookworm\" default=\"server\">\n"
                             "<profile name=\"server\" description=\"d\">\n" PKG
                             "<unit name=\"x.servic\" package=\"a\" version=\"1\" path=\"/x\" source=\"s\">\n"
                             "[Unit]\n</unit>\n</profile>\n</profiles>\n", 5, "not a valid unit name");
        check_profile_broken("unit twice", "<profiles target=\"debian-bookworm\" default=\"server\">\n"
                             "<profile name=\"server\" description=\"d\">\n" PKG
                             "<unit name=\"x.service\" package=\"a\" version=\"1\" path=\"/x\" source=\"s\">\n"
                             "[Unit]\n</unit>\n"
                             "<unit name=\"x.service\" package=\"a\" version=\"1\" path=\"/x\" source=\"s\">\n"
                             "[Unit]\n</unit>\n</profile>\n</profiles>\n", 9, "defined twice");
        check_profile_broken("schema", "<profiles target=\"debian-bookworm\" default=\"server\">\n"
                             "<profile name=\"Server\" description=\"d\"/>\n</profiles>\n", 3, "");
}

static void test_targets(const Rules *r) {
        _cleanup_(strv_freep) char **names = rules_target_names(r);
        const char *canonical = NULL;
        unsigned v = 0;

        TAP_INTEQ(rules_target_version(r, "ubuntu-xenial", &v, &canonical), 0, "ubuntu-xenial is known");
        TAP_INTEQ(v, 229, "ubuntu-xenial has systemd 229");
        TAP_STREQ(canonical, "ubuntu-xenial", "ubuntu-xenial is canonical");
        static const struct { const char *name, *canonical; unsigned version; } cases[] = {
                { "xenial", "ubuntu-xenial", 229 },       { "ubuntu-16.04", "ubuntu-xenial", 229 },
                { "16.04", "ubuntu-xenial", 229 },        { "Ubuntu-Xenial", "ubuntu-xenial", 229 },
                { "bionic", "ubuntu-bionic", 237 },       { "ubuntu-focal", "ubuntu-focal", 245 },
                { "jammy", "ubuntu-jammy", 249 },         { "ubuntu-24.04", "ubuntu-noble", 255 },
                { "debian-9", "debian-stretch", 232 },    { "buster", "debian-buster", 241 },
                { "debian-11", "debian-bullseye", 247 },  { "debian-12", "debian-bookworm", 252 },
                { "bookworm", "debian-bookworm", 252 },   { "trixie", "debian-trixie", 257 },
                { "rhel-7", "rhel-7", 219 },              { "el8", "rhel-8", 239 },
                { "rhel-9", "rhel-9", 252 },              { "el9", "rhel-9", 252 },
                { "centos-stream-9", "rhel-9", 252 },     { "oracular", "ubuntu-oracular", 256 },
                { "25.04", "ubuntu-plucky", 257 },        { "ubuntu-25.10", "ubuntu-questing", 257 },
                { "26.04", "ubuntu-resolute", 259 },      { "forky", "debian-forky", 262 },
                { "unstable", "debian-sid", 262 },        { "el10", "rhel-10", 257 },
                { "centos-stream-10", "rhel-10", 257 },   { "fc40", "fedora-40", 255 },
                { "f43", "fedora-43", 258 },              { "fedora44", "fedora-44", 259 },
                { "al2023", "amazon-linux-2023", 252 },   { "leap-15.6", "opensuse-leap-15.6", 254 },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                v = 0;
                canonical = NULL;
                tap_ok(rules_target_version(r, cases[i].name, &v, &canonical) == 0 && v == cases[i].version &&
                       streq_ptr(canonical, cases[i].canonical),
                       "target %s -> %s (%u)", cases[i].name, cases[i].canonical, cases[i].version);
        }
        TAP_INTEQ(rules_target_version(r, "ubuntu-warty", &v, NULL), -ENOENT, "unknown target is -ENOENT");
        TAP_INTEQ(rules_target_version(r, "", &v, NULL), -EINVAL, "empty target is -EINVAL");
        TAP_INTEQ(strv_length(names), 30, "30 canonical targets");
        TAP_STREQ(names ? names[0] : NULL, "ubuntu-xenial", "targets in file order");
        tap_ok(strv_contains(names, "rhel-9") && !strv_contains(names, "el9"), "names are canonical only");
        TAP_INTEQ(rules_newest_version(r), 262, "newest target version is 262 (debian-forky, debian-sid)");
        tap_ok(rules_target_note(r, "rhel-7") && strstr(rules_target_note(r, "rhel-7"), "208"),
               "rhel-7 notes the 208 point releases");
        tap_ok(rules_target_source(r, "el10") && strstr(rules_target_source(r, "el10"), "systemd-rhel10"),
               "rhel-10 cites its source (source= attribute, found by alias too)");
        TAP_STREQ(rules_target_source(r, "xenial"), NULL, "a target without source= has none");

        /* the modelled range is that of the base models; rolling targets are judged with the newest */
        unsigned lo = 0, hi = 0, newest = 0;
        TAP_INTEQ(rules_model_range(r, &lo, &hi), 0, "the rules have a modelled range");
        for (size_t i = 0; i < 100000; i++) {
                const BaseModel *b = rules_base_model(r, (unsigned) i);
                if (b && base_model_version(b) > newest)
                        newest = base_model_version(b);
        }
        tap_ok(hi == newest, "its newest end is the newest base model (%u)", newest);
        tap_ok(lo == base_model_version(rules_base_model(r, 0)), "its oldest end is the oldest base model (%u)", lo);
        static const char * const rolling[] = { "arch", "archlinux", "tumbleweed", "opensuse-tumbleweed" };
        for (size_t i = 0; i < ELEMENTSOF(rolling); i++) {
                int q;
                v = 0;
                q = rules_target_version(r, rolling[i], &v, NULL);
                tap_ok(q == 0 && v == hi, "rolling target %s is judged with the newest base model (%u)", rolling[i], v);
        }
        TAP_INTEQ(rules_model_range(NULL, &lo, &hi), -ENOENT, "no rules, no range");
}

static void test_keys(const Rules *r) {
        const KeyInfo *k;
        unsigned since = 0, until = 0;

        TAP_STREQ(rules_type_section(UNIT_SERVICE), "Service", "a service's own section is [Service]");
        TAP_STREQ(rules_type_section(UNIT_AUTOMOUNT), "Automount", "an automount's is [Automount]");
        tap_ok(!rules_type_section(UNIT_TARGET) && !rules_type_section(UNIT_DEVICE) &&
                       !rules_type_section(_UNIT_TYPE_INVALID),
               "targets and devices have no section of their own");

        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "PrivateTmp", 229);
        tap_ok(k && k->kind == KEY_SINGLE && k->type == VALUE_BOOL, "PrivateTmp in [Service] at 229: single bool");
        tap_ok(k && rules_key_value_known(k, "yes", 229) && rules_key_value_known(k, "Off", 229),
               "PrivateTmp=yes/Off known at 229");
        tap_ok(k && !rules_key_value_known(k, "disconnected", 256), "PrivateTmp=disconnected unknown at 256");
        tap_ok(k && rules_key_value_known(k, "disconnected", 257), "PrivateTmp=disconnected known at 257");
        tap_ok(k && !rules_key_value_known(k, "maybe", 257), "PrivateTmp=maybe never known");
        tap_ok(k && rules_key_value_since(k, "disconnected", &since, &until) == 0 && since == 257 && until == 0,
               "disconnected: since 257");
        tap_ok(!!rules_key_lookup(r, UNIT_SOCKET, "Socket", "PrivateTmp", 229), "PrivateTmp in [Socket] (exec context)");
        tap_ok(!rules_key_lookup(r, UNIT_TIMER, "Timer", "PrivateTmp", 257), "PrivateTmp not in [Timer]");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Socket", "PrivateTmp", 257), "[Socket] not valid in a service");

        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Unit", "WantsMountsFor", 252), "WantsMountsFor unknown at 252");
        k = rules_key_lookup(r, UNIT_MOUNT, "Unit", "WantsMountsFor", 256);
        tap_ok(k && k->kind == KEY_DEPENDENCY && k->type == VALUE_PATH_LIST, "WantsMountsFor at 256: dependency");
        k = rules_key_lookup_any(r, "WantsMountsFor");
        tap_ok(k && k->since == 256, "WantsMountsFor appeared in 256");
        k = rules_key_lookup(r, UNIT_TARGET, "Unit", "RequiresMountsFor", 219);
        tap_ok(k && k->kind == KEY_DEPENDENCY, "RequiresMountsFor cannot be reset");

        k = rules_key_lookup(r, UNIT_SERVICE, "Unit", "After", 219);
        tap_ok(k && k->kind == KEY_DEPENDENCY && k->type == VALUE_UNIT_LIST, "After is a dependency");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Service", "After", 257), "After does not belong in [Service]");
        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "ExecStart", 219);
        tap_ok(k && k->kind == KEY_LIST && k->type == VALUE_EXEC, "ExecStart is an exec list");
        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "ReadWritePaths", 257);
        tap_ok(k && k->kind == KEY_LIST && k->type == VALUE_PATH_LIST, "ReadWritePaths is a resettable path list");
        k = rules_key_lookup(r, UNIT_PATH, "Unit", "ConditionPathExists", 219);
        tap_ok(k && k->kind == KEY_CONDITION, "ConditionPathExists is a condition");
        k = rules_key_lookup(r, UNIT_PATH, "Unit", "AssertPathExists", 219);
        tap_ok(k && k->kind == KEY_ASSERT, "AssertPathExists is an assert");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Unit", "ConditionCredential", 251) &&
               rules_key_lookup(r, UNIT_SERVICE, "Unit", "ConditionCredential", 252), "ConditionCredential from 252");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Unit", "Frobnicate", 257) &&
               !rules_key_lookup_any(r, "Frobnicate"), "unknown key");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Unit", "Upholds", 248) &&
               rules_key_lookup(r, UNIT_SERVICE, "Unit", "Upholds", 249), "Upholds from 249");
        tap_ok(!rules_key_lookup(r, UNIT_SERVICE, "Install", "UpheldBy", 253) &&
               rules_key_lookup(r, UNIT_SERVICE, "Install", "UpheldBy", 254), "[Install] UpheldBy from 254");
        tap_ok(!!rules_key_lookup(r, UNIT_TARGET, "Install", "WantedBy", 219), "WantedBy in a target's [Install]");
        tap_ok(!rules_key_lookup(r, UNIT_TARGET, "Target", "WantedBy", 257), "targets have no [Target]");

        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "ProtectSystem", 232);
        tap_ok(k && rules_key_value_known(k, "strict", 232) && !rules_key_value_known(k, "strict", 231) &&
               rules_key_value_known(k, "full", 231), "ProtectSystem=strict from 232, full before");
        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "StandardOutput", 240);
        tap_ok(k && k->type == VALUE_ENUM && rules_key_value_known(k, "append:/var/log/x", 240) &&
               !rules_key_value_known(k, "truncate:/var/log/x", 247) && !rules_key_value_known(k, "files", 257),
               "StandardOutput prefixes by version");
        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "Type", 252);
        tap_ok(k && k->type == VALUE_ENUM && !rules_key_value_known(k, "notify-reload", 252) &&
               rules_key_value_known(k, "notify-reload", 253), "Type=notify-reload from 253");
        k = rules_key_lookup(r, UNIT_MOUNT, "Mount", "Type", 252);
        tap_ok(k && k->type == VALUE_STRING, "Type= of a mount is a file system type");

        tap_ok(rules_key_lookup(r, UNIT_SERVICE, "Service", "ManagedOOMMemoryPressureLimitPercent", 247) &&
               !rules_key_lookup(r, UNIT_SERVICE, "Service", "ManagedOOMMemoryPressureLimitPercent", 248),
               "ManagedOOMMemoryPressureLimitPercent only in 247");
        k = rules_key_lookup(r, UNIT_SERVICE, "Service", "Capabilities", 257);
        tap_ok(k && k->ignored_since == 230, "Capabilities= ignored since 230");
        k = rules_key_lookup(r, UNIT_SERVICE, "Unit", "BindTo", 257);
        tap_ok(k && streq_ptr(k->renamed_to, "BindsTo"), "BindTo= is an alias of BindsTo=");
        tap_ok(rules_key_lookup(r, UNIT_SERVICE, "Service", "OOMPolicy", 243) &&
               !rules_key_lookup(r, UNIT_SCOPE, "Scope", "OOMPolicy", 247) &&
               rules_key_lookup(r, UNIT_SCOPE, "Scope", "OOMPolicy", 252), "OOMPolicy: [Service] 243, [Scope] 252");
        k = rules_key_lookup(r, UNIT_SLICE, "Slice", "MemoryMax", 257);
        tap_ok(k && k->unit_types & (1U << UNIT_SCOPE) && !(k->unit_types & (1U << UNIT_TIMER)),
               "MemoryMax: cgroup context");

        tap_ok(rules_section_is_valid(UNIT_SERVICE, "Service") && rules_section_is_valid(UNIT_DEVICE, "Install") &&
               !rules_section_is_valid(UNIT_TARGET, "Target") && !rules_section_is_valid(UNIT_SOCKET, "Service"),
               "sections per unit type");
        tap_ok(rules_key_count(r) > 500, "more than 500 key entries (%zu)", rules_key_count(r));
        for (size_t i = 0; i < rules_key_count(r); i++) {
                k = rules_key_get(r, i);
                if (k->renamed_to && !rules_key_lookup_any(r, k->renamed_to)) {
                        tap_ok(false, "%s= renamed to a known key", k->name);
                        return;
                }
        }
}

/* <warn value=…>: systemd warns about User=nobody (and SocketUser=nobody) from 246, about no other user, and a
 * <warn> without value= holds whatever the value */
static void test_key_warnings(const Rules *r) {
        const KeyInfo *user = rules_key_lookup(r, UNIT_SERVICE, "Service", "User", 252);
        const KeyInfo *suser = rules_key_lookup(r, UNIT_SOCKET, "Socket", "SocketUser", 252);
        const KeyInfo *shares = rules_key_lookup(r, UNIT_SERVICE, "Service", "CPUShares", 252);

        tap_ok(user != NULL, "User= is known at 252");
        tap_ok(suser != NULL, "SocketUser= is known at 252");
        tap_ok(shares != NULL, "CPUShares= is known at 252");
        if (!user || !suser || !shares)
                return;
        tap_ok(rules_key_warning(user, 252, "nobody") != NULL, "User=nobody warned at 252");
        tap_ok(rules_key_warning(user, 246, "nobody") != NULL, "User=nobody warned at 246");
        tap_ok(rules_key_warning(user, 245, "nobody") == NULL, "User=nobody not warned at 245");
        tap_ok(rules_key_warning(user, 262, "nobodyx") == NULL, "User=nobodyx not warned");
        tap_ok(rules_key_warning(user, 262, NULL) == NULL, "User= without a value not warned");
        tap_ok(rules_key_warning(suser, 257, "nobody") != NULL, "SocketUser=nobody warned at 257");
        tap_ok(rules_key_warning(shares, 252, "5") != NULL, "CPUShares=5 warned at 252 (any value)");
        tap_ok(rules_key_warning(shares, 252, NULL) != NULL, "CPUShares= warned at 252 whatever the value");
}

/* <unsupported>: Delegate= of the types that cannot delegate, from 239; ManagedOOMSwap= where oomd cannot watch */
static void test_key_unsupported(const Rules *r) {
        const KeyInfo *d252 = rules_key_lookup(r, UNIT_SOCKET, "Socket", "Delegate", 252);
        const KeyInfo *d238 = rules_key_lookup(r, UNIT_SOCKET, "Socket", "Delegate", 238);
        const KeyInfo *oom = rules_key_lookup(r, UNIT_SLICE, "Slice", "ManagedOOMSwap", 257);

        tap_ok(d252 && d238 && oom, "Delegate= at 252 and 238, ManagedOOMSwap= at 257 are known");
        if (!d252 || !d238 || !oom)
                return;
        tap_ok(rules_key_unsupported(d252, UNIT_SOCKET, 252), "Delegate= of a socket: not supported at 252");
        tap_ok(rules_key_unsupported(d252, UNIT_SLICE, 252), "Delegate= of a slice: not supported at 252");
        tap_ok(!rules_key_unsupported(d252, UNIT_SERVICE, 252), "Delegate= of a service: supported");
        tap_ok(!rules_key_unsupported(d238, UNIT_SOCKET, 238), "Delegate= of a socket at 238: not refused yet");
        tap_ok(!rules_key_unsupported(oom, UNIT_SLICE, 257), "ManagedOOMSwap= of a slice: supported");
        tap_ok(rules_key_unsupported(oom, UNIT_MOUNT, 257), "ManagedOOMSwap= of a mount: not supported");
}

/* syntax="absolute-path-list" (Symlinks=): every word, quotes taken off, an absolute normalized path */
static void test_path_list_syntax(const Rules *r) {
        const KeyInfo *k = rules_key_lookup(r, UNIT_SOCKET, "Socket", "Symlinks", 252);
        const char *why = NULL;

        tap_ok(k && k->syntax == VALUE_SYNTAX_ABSOLUTE_PATH_LIST, "Symlinks= is an absolute-path-list at 252");
        if (!k)
                return;
        tap_ok(rules_key_check_value(k, "/a \"/b c\" '/d'", 252, &why) == 0, "Symlinks=/a \"/b c\" '/d': accepted");
        tap_ok(rules_key_check_value(k, "/a b", 252, &why) < 0 && why, "Symlinks=/a b: refused, with a reason");
        tap_ok(rules_key_check_value(k, "/a/../b", 252, &why) < 0, "Symlinks=/a/../b: refused (not normalized)");
        tap_ok(rules_key_check_value(k, "\"/a", 252, &why) < 0, "Symlinks=\"/a: refused (the quote is not closed)");
        tap_ok(rules_key_check_value(k, "/a/./b //c/", 252, &why) == 0, "Symlinks=/a/./b //c/: accepted (simplified)");
}

/* syntax="device-allow" */
static void test_device_allow_syntax(const Rules *r) {
        const KeyInfo *k = rules_key_lookup(r, UNIT_SERVICE, "Service", "DeviceAllow", 257);
        static const struct {
                const char *value;
                bool ok;
        } cases[] = {
                { "/dev/null rw", true },    { "char-pts rw", true }, { "block-loop", true },
                { "/run/systemd/inaccessible/chr m", true }, { "/dev", true }, { "\"/dev/sd a\" r", true },
                { "/dev/null rwx", false },  { "/dev/../etc r", false }, { "/tmp/x", false }, { "dev/null", false },
                { "\"/dev/x", false },
        };

        tap_ok(k && k->syntax == VALUE_SYNTAX_DEVICE_ALLOW, "DeviceAllow= has syntax device-allow");
        for (size_t i = 0; k && i < ELEMENTSOF(cases); i++) {
                const char *why = NULL;
                int x = rules_key_check_value(k, cases[i].value, 257, &why);
                tap_ok((x == 0) == cases[i].ok && (x == 0) == !why, "DeviceAllow=%s: %s%s%s", cases[i].value,
                       cases[i].ok ? "accepted" : "refused", why ? ": " : "", strempty(why));
        }
}

/* rules_load_on_demand(): the same range and the same base models as a full load, read only when asked for; a
 * broken base model of another version does not stop a run, and is an error for the run that needs it. */
static void test_on_demand(const Rules *eager) {
        static const unsigned versions[] = { 219, 229, 252, 262 };
        _cleanup_(rules_freep) Rules *lazy = NULL, *broken = NULL;
        _cleanup_(strv_freep) char **lazy_files = NULL, **eager_files = NULL;
        _cleanup_(freep) char *copy = NULL, *cmd = NULL, *bad = NULL;
        DiagList diags = {};
        unsigned lo = 0, hi = 0, elo = 0, ehi = 0;
        const BaseModel *b = NULL;
        bool found = false;
        int k;

        k = rules_load_on_demand(NULL, &lazy, &diags);
        tap_ok(k == 0 && diags.n == 0, "on demand: the shipped rules load without diagnostics");
        diag_list_done(&diags);
        if (k < 0)
                return;
        (void) rules_model_range(lazy, &lo, &hi);
        (void) rules_model_range(eager, &elo, &ehi);
        tap_ok(lo == elo && hi == ehi, "on demand: the modelled range %u-%u is the full load's %u-%u", lo, hi, elo, ehi);
        lazy_files = rules_file_paths(lazy);
        eager_files = rules_file_paths(eager);
        tap_ok(strv_length(lazy_files) < strv_length(eager_files), "on demand: no base model read before one is asked for");
        for (size_t i = 0; i < ELEMENTSOF(versions); i++) {
                const BaseModel *e = rules_base_model(eager, versions[i]);
                k = rules_base_model_load(lazy, versions[i], &b, &diags);
                tap_ok(k == 0 && b && e && base_model_version(b) == base_model_version(e) &&
                               base_model_unit_count(b) == base_model_unit_count(e),
                       "on demand: systemd %u gets the base model the full load gives it (%u, %zu units)", versions[i],
                       e ? base_model_version(e) : 0, e ? base_model_unit_count(e) : 0);
                diag_list_done(&diags);
        }
        k = rules_base_model_load(lazy, 252, &b, &diags);
        tap_ok(k == 0 && b == rules_base_model(lazy, 252), "on demand: asked again, the same model (read once)");

        /* a copy of the rules whose base-219.xml is junk */
        if (asprintf_safe(&copy, "%s/on-demand", tmpdir) < 0 ||
            asprintf_safe(&cmd, "cp -R '%s' '%s' && printf 'junk' > '%s/base-219.xml'", rules_default_dir(), copy,
                          copy) < 0 ||
            system(cmd) != 0 || !(bad = strjoin(copy, "/base-219.xml"))) {
                tap_ok(false, "on demand: setting up %s", strna(copy));
                return;
        }
        k = rules_load_on_demand(copy, &broken, &diags);
        tap_ok(k == 0, "on demand: a broken base model of another version does not stop the load");
        diag_list_done(&diags);
        if (k < 0)
                return;
        k = rules_base_model_load(broken, 252, &b, &diags);
        tap_ok(k == 0 && b && base_model_version(b) == 252, "on demand: systemd 252 is judged with base-252.xml");
        diag_list_done(&diags);
        k = rules_base_model_load(broken, 219, &b, &diags);
        for (size_t i = 0; i < diags.n; i++)
                found = found || (diags.items[i].level == DIAG_ERROR && streq_ptr(diags.items[i].file, bad));
        tap_ok(k < 0 && found, "on demand: asking for systemd 219 is an error naming base-219.xml");
        diag_list_done(&diags);
        {
                _cleanup_(rules_freep) Rules *full = NULL;
                k = rules_load(copy, &full, &diags);
                tap_ok(k < 0, "a full load of the same rules fails");
                diag_list_done(&diags);
        }
}

int main(void) {
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(strv_freep) char **files = NULL;
        DiagList diags = {};
        int k;

        k = rules_load(NULL, &r, &diags);
        for (size_t i = 0; i < diags.n; i++)
                tap_diag("%s:%u: %s", strna(diags.items[i].file), diags.items[i].line, diags.items[i].message);
        tap_ok(k == 0, "loading %s: %s", rules_default_dir(), strerror(k < 0 ? -k : 0));
        TAP_INTEQ(diags.n, 0, "no diagnostics for the shipped rules");
        diag_list_done(&diags);
        if (k < 0)
                return tap_done();
        files = rules_file_paths(r);
        {
                /* every *.xml file of the rules directory is one of the known kinds and was loaded */
                char cmd[1024];
                FILE *f;
                unsigned n_xml = 0;
                snprintf(cmd, sizeof cmd, "find '%s' -maxdepth 2 -name '*.xml' | wc -l", rules_default_dir());
                f = popen(cmd, "r");
                if (f) {
                        if (fscanf(f, "%u", &n_xml) != 1)
                                n_xml = 0;
                        pclose(f);
                }
                TAP_INTEQ(strv_length(files), n_xml, "every rules file in the directory loaded");
        }

        test_targets(r);
        test_messages(r);
        test_keys(r);
        test_key_warnings(r);
        test_key_unsupported(r);
        test_path_list_syntax(r);
        test_device_allow_syntax(r);
        test_value_words(r);
        test_profiles(r);

        if (!mkdtemp(tmpdir)) {
                tap_ok(false, "mkdtemp: %s", strerror(errno));
                return tap_done();
        }
        test_broken();
        test_on_demand(r);
        test_profiles_broken();
        test_broken_messages();
        test_broken_base_targets();
        test_broken_value_words();
        {
                _cleanup_(freep) char *cmd = strjoin("rm -rf ", tmpdir);
                if (cmd)
                        (void) !system(cmd);
        }
        return tap_done();
}
