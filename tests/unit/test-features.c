/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Version facts (rules/features.xml, analyzer/rules/rules-features.c): the real file gives every feature of the
 * code a range and evaluates as its data says; broken files are refused with the file and line. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "rules/features.h"
#include "rules/rules.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test-features.XXXXXX";

static int copy_file(const char *from, const char *to) {
        _cleanup_(closep) int fd = open(from, O_RDONLY | O_CLOEXEC);
        _cleanup_(freep) char *buf = NULL;
        _cleanup_(fclosep) FILE *f = NULL;
        size_t n;

        if (fd < 0 || read_full_fd(fd, 8U << 20, &buf, &n) < 0 || !(f = fopen(to, "we")))
                return -EIO;
        return fwrite(buf, 1, n, f) == n && fflush(f) == 0 ? 0 : -EIO;
}

/* A copy of the real rules directory (files and schemas) in a new directory. */
static int copy_rules(const char *dir) {
        const char *sub[] = { "", "/schema" };

        for (size_t i = 0; i < ELEMENTSOF(sub); i++) {
                _cleanup_(freep) char *from = strjoin(rules_default_dir(), sub[i]), *to = strjoin(dir, sub[i]);
                DIR *d;
                struct dirent *de;

                if (!from || !to || (i > 0 && mkdir(to, 0755) < 0) || !(d = opendir(from)))
                        return -EIO;
                while ((de = readdir(d))) {
                        _cleanup_(freep) char *a = strjoin(from, "/", de->d_name), *b = strjoin(to, "/", de->d_name);
                        if (!a || !b || de->d_name[0] == '.' || !endswith(de->d_name, i == 0 ? ".xml" : ".rng"))
                                continue;
                        if (copy_file(a, b) < 0) {
                                closedir(d);
                                return -EIO;
                        }
                }
                closedir(d);
        }
        return 0;
}

static const FeatureSet *set_of(const Rules *r, unsigned v) {
        static FeatureSet s;
        if (rules_feature_set(r, v, &s) < 0)
                return NULL;
        return &s;
}

static void test_real(void) {
        _cleanup_(rules_freep) Rules *r = NULL;
        DiagList diags = {};
        const FeatureSet *s;

        TAP_INTEQ(rules_load(NULL, &r, &diags), 0, "the real rules load with features.xml");
        diag_list_done(&diags);
        if (!r)
                return;
        TAP_INTEQ(rules_feature_set(r, 0, &(FeatureSet) {}), -EINVAL, "version 0 is refused");

        for (Feature f = 0; f < _FEATURE_MAX; f++) {
                const char *name = feature_to_string(f);
                tap_ok(name && feature_from_string(name) == f, "feature %d has a name that maps back (%s)", f,
                       strna(name));
        }
        TAP_INTEQ(feature_from_string("no-such-feature"), _FEATURE_INVALID, "an unknown name is -EINVAL");

        /* the data as features.xml has it: since is inclusive, until is inclusive */
        s = set_of(r, 229);
        tap_ok(s && !feature_enabled(s, FEATURE_UNIT_FILE_BOM), "229: no BOM skip (since 230)");
        s = set_of(r, 230);
        tap_ok(s && feature_enabled(s, FEATURE_UNIT_FILE_BOM), "230: BOM skip");
        s = set_of(r, 245);
        tap_ok(s && feature_enabled(s, FEATURE_UNIT_FILE_INCLUDE), "245: .include followed (until 245)");
        s = set_of(r, 246);
        tap_ok(s && !feature_enabled(s, FEATURE_UNIT_FILE_INCLUDE), "246: .include removed");
        s = set_of(r, 240);
        tap_ok(s && feature_enabled(s, FEATURE_UNIT_FILE_COMMENTS_COLUMN_0), "240: comments in column 0 only");
        s = set_of(r, 241);
        tap_ok(s && !feature_enabled(s, FEATURE_UNIT_FILE_COMMENTS_COLUMN_0), "241: indented comments again");
        s = set_of(r, 252);
        tap_ok(s && feature_enabled(s, FEATURE_SPECIFIER_i) && feature_enabled(s, FEATURE_SPECIFIER_NAME_i),
               "a feature without since or until holds for every version");

        /* since/until for messages */
        s = set_of(r, 239);
        TAP_INTEQ(s ? feature_set_since(s, FEATURE_UNIT_FILE_NO_EQUALS_WARNS) : 0, 243,
                  "239: the next range of unit-file-no-equals-warns starts at 243");
        TAP_INTEQ(s ? feature_set_until(s, FEATURE_UNIT_FILE_INCLUDE) : 0, 245,
                  "239: unit-file-include holds until 245");
        s = set_of(r, 257);
        TAP_INTEQ(s ? feature_set_since(s, FEATURE_UNIT_FILE_INCLUDE) : 1, 0,
                  "257: unit-file-include has no later range");

        tap_ok(rules_oldest_modelled(r) > 0 && rules_newest_modelled(r) >= rules_oldest_modelled(r),
               "the modelled range comes from the base models (%u..%u)", rules_oldest_modelled(r),
               rules_newest_modelled(r));
}

/* A copy of the rules with features.xml replaced by text must fail to load with an error at features.xml:line
 * whose message contains needle. */
static void check_broken(const char *name, const char *text, unsigned line, const char *needle) {
        _cleanup_(freep) char *dir = NULL, *file = NULL;
        _cleanup_(rules_freep) Rules *r = NULL;
        _cleanup_(fclosep) FILE *f = NULL;
        DiagList diags = {};
        bool found = false;
        static unsigned n;
        int k;

        if (asprintf_safe(&dir, "%s/%u", tmpdir, n++) < 0 || mkdir(dir, 0755) < 0 || copy_rules(dir) < 0 ||
            !(file = strjoin(dir, "/features.xml")) || !(f = fopen(file, "we")) || fputs(text, f) < 0 ||
            fflush(f) != 0) {
                tap_ok(false, "%s: setting up %s: %s", name, strna(dir), strerror(errno));
                return;
        }
        k = rules_load(dir, &r, &diags);
        TAP_INTEQ(k, -EBADMSG, name);
        for (size_t i = 0; i < diags.n; i++) {
                const Diag *d = &diags.items[i];
                if (d->level == DIAG_ERROR && streq_ptr(d->file, file) && d->line == line &&
                    strstr(d->message, needle))
                        found = true;
        }
        tap_ok(found, "%s: an error at features.xml:%u mentioning \"%s\"", name, line, needle);
        if (!found)
                for (size_t i = 0; i < diags.n; i++)
                        tap_diag("  %s:%u: %s", strna(diags.items[i].file), diags.items[i].line,
                                 diags.items[i].message);
        diag_list_done(&diags);
}

static void test_broken(void) {
        check_broken("an unknown name",
                     "<?xml version=\"1.0\"?>\n<features>\n"
                     "  <feature name=\"unit-file-bom\" since=\"230\" source=\"x\">t</feature>\n"
                     "  <feature name=\"made-up\" since=\"1\" source=\"x\">t</feature>\n</features>\n",
                     4, "unknown feature \"made-up\"");
        check_broken("a feature of the code with no entry",
                     "<?xml version=\"1.0\"?>\n<features>\n"
                     "  <feature name=\"unit-file-bom\" since=\"230\" source=\"x\">t</feature>\n</features>\n",
                     0, "no <feature name=\"unit-file-read-line\">");
        check_broken("overlapping ranges",
                     "<?xml version=\"1.0\"?>\n<features>\n"
                     "  <feature name=\"unit-file-bom\" since=\"230\" until=\"240\" source=\"x\">t</feature>\n"
                     "  <feature name=\"unit-file-bom\" since=\"240\" source=\"x\">t</feature>\n</features>\n",
                     4, "overlaps");
        check_broken("since after until",
                     "<?xml version=\"1.0\"?>\n<features>\n"
                     "  <feature name=\"unit-file-bom\" since=\"250\" until=\"240\" source=\"x\">t</feature>\n"
                     "</features>\n",
                     3, "since=250 is after until=240");
        check_broken("a version that is not a number",
                     "<?xml version=\"1.0\"?>\n<features>\n"
                     "  <feature name=\"unit-file-bom\" since=\"v230\" source=\"x\">t</feature>\n</features>\n",
                     3, "not a systemd version number");
}

int main(void) {
        if (!mkdtemp(tmpdir)) {
                printf("Bail out! mkdtemp: %s\n", strerror(errno));
                return 1;
        }
        test_real();
        test_broken();
        {
                _cleanup_(freep) char *cmd = strjoin("rm -rf ", tmpdir);
                if (cmd)
                        (void) !system(cmd);
        }
        return tap_done();
}
