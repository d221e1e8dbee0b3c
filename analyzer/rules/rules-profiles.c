/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rules/profile-TARGET.xml: what a default installation of one release adds to its boot transaction beyond
 * systemd's own units, per profile (a profile that extends another holds the other's units too). */
#include "basic/xml-util.h"
#include "rules/rules-internal.h"

struct Profile {
        char *name, *description, *target;
        bool is_default;
        const char *file;          /* borrowed from RulesFile */
        unsigned line;
        ProfilePackage *packages;  /* inherited ones first */
        size_t n_packages;
        BaseUnit *units;           /* sorted by name */
        size_t n_units;
        BaseLink *links;           /* sorted by unit */
        size_t n_links;
        char **alias_names, **alias_units, **alias_packages;
};

static Profile *profile_free(Profile *p) {
        if (!p)
                return NULL;
        free(p->name);
        free(p->description);
        free(p->target);
        for (size_t i = 0; i < p->n_packages; i++) {
                free((char *) p->packages[i].name);
                free((char *) p->packages[i].version);
                free((char *) p->packages[i].source);
                free((char *) p->packages[i].reason);
        }
        free(p->packages);
        for (size_t i = 0; i < p->n_units; i++)
                base_unit_done(&p->units[i]);
        free(p->units);
        base_links_free(p->links, p->n_links);
        strv_free(p->alias_names);
        strv_free(p->alias_units);
        strv_free(p->alias_packages);
        return mfree(p);
}
static inline void profile_freep(Profile **p) {
        profile_free(*p);
}

void rules_profiles_done(Rules *r) {
        for (size_t i = 0; i < r->n_profiles; i++)
                profile_free(r->profiles[i]);
        r->profiles = mfree(r->profiles);
        r->n_profiles = 0;
}

static char *dup_attr(xmlNode *n, const char *name) {
        return strdup(strempty(xml_attr(n, name)));
}

static int add_package(Profile *p, const char *name, const char *version, const char *source, const char *reason) {
        ProfilePackage *np = realloc(p->packages, sizeof(ProfilePackage) * (p->n_packages + 1));
        if (!np)
                return -ENOMEM;
        p->packages = np;
        np[p->n_packages++] = (ProfilePackage) {
                .name = strdup(name), .version = strdup(version), .source = strdup(source),
                .reason = strdup(reason),
        };
        np += p->n_packages - 1;
        return np->name && np->version && np->source && np->reason ? 0 : -ENOMEM;
}

static int add_unit(Profile *p, const BaseUnit *u) {
        BaseUnit *nu = realloc(p->units, sizeof(BaseUnit) * (p->n_units + 1));
        if (!nu)
                return -ENOMEM;
        p->units = nu;
        nu[p->n_units++] = (BaseUnit) {
                .name = strdup(u->name), .text = strdup(u->text), .size = u->size,
                .path = u->path ? strdup(u->path) : NULL, .file = u->file, .line = u->line,
                .package = strdup(u->package), .version = strdup(u->version),
        };
        nu += p->n_units - 1;
        return nu->name && nu->text && (!u->path || nu->path) && nu->package && nu->version ? 0 : -ENOMEM;
}

static int add_link(Profile *p, const BaseLink *l) {
        BaseLink *nl = realloc(p->links, sizeof(BaseLink) * (p->n_links + 1));
        if (!nl)
                return -ENOMEM;
        p->links = nl;
        nl[p->n_links++] = (BaseLink) {
                .type = l->type, .unit = strdup(l->unit), .name = strdup(l->name), .line = l->line,
                .package = strdup(l->package),
        };
        nl += p->n_links - 1;
        return nl->unit && nl->name && nl->package ? 0 : -ENOMEM;
}

static int add_alias(Profile *p, const char *name, const char *unit, const char *package) {
        return strv_extend(&p->alias_names, name) < 0 || strv_extend(&p->alias_units, unit) < 0 ||
                       strv_extend(&p->alias_packages, package) < 0
               ? -ENOMEM
               : 0;
}

/* Everything of base (the profile extended) into p first. */
static int inherit(Profile *p, const Profile *base) {
        int r;

        for (size_t i = 0; i < base->n_packages; i++) {
                const ProfilePackage *k = &base->packages[i];
                if ((r = add_package(p, k->name, k->version, k->source, k->reason)) < 0)
                        return r;
        }
        for (size_t i = 0; i < base->n_units; i++)
                if ((r = add_unit(p, &base->units[i])) < 0)
                        return r;
        for (size_t i = 0; i < base->n_links; i++)
                if ((r = add_link(p, &base->links[i])) < 0)
                        return r;
        for (size_t i = 0; base->alias_names && base->alias_names[i]; i++)
                if ((r = add_alias(p, base->alias_names[i], base->alias_units[i], base->alias_packages[i])) < 0)
                        return r;
        return 0;
}

static bool has_package(const Profile *p, const char *name) {
        for (size_t i = 0; i < p->n_packages; i++)
                if (streq(p->packages[i].name, name))
                        return true;
        return false;
}

/* A unit, link or alias names its package: one of the profile's, or systemd for systemd's own units. */
static int check_package(const Profile *p, const RulesFile *f, xmlNode *n, DiagList *diags) {
        const char *pkg = xml_attr(n, "package");

        if (!pkg || (!streq(pkg, "systemd") && !has_package(p, pkg)))
                return rules_bad(diags, f->path, xml_line(n), "<%s package=\"%s\">: no such <package> in profile %s",
                                 n->name, strempty(pkg), p->name);
        return 0;
}

static int parse_element(Profile *p, const RulesFile *f, xmlNode *n, DiagList *diags) {
        int r;

        if (xml_is(n, "package")) {
                if (has_package(p, xml_attr(n, "name")))
                        return rules_bad(diags, f->path, xml_line(n), "package %s is listed twice in profile %s",
                                         xml_attr(n, "name"), p->name);
                return add_package(p, xml_attr(n, "name"), xml_attr(n, "version"), xml_attr(n, "source"),
                                   xml_attr(n, "reason"));
        }
        if ((r = check_package(p, f, n, diags)) < 0)
                return r;
        if (xml_is(n, "unit")) {
                const char *name = xml_attr(n, "name");
                _cleanup_(freep) char *text = NULL;
                unsigned line = xml_line(n);
                char *start;

                if (!unit_name_is_valid(name, UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE))
                        return rules_bad(diags, f->path, line, "<unit name=\"%s\">: not a valid unit name", name);
                text = xml_text(n);
                if (!text)
                        return -ENOMEM;
                start = text;
                if (*start == '\n') {
                        start++;
                        line++;
                }
                return add_unit(p, &(BaseUnit) {
                        .name = name, .text = start, .size = strlen(start), .path = xml_attr(n, "path"),
                        .file = f->path, .line = line, .package = xml_attr(n, "package"),
                        .version = xml_attr(n, "version"),
                });
        }
        if (xml_is(n, "link")) {
                const char *u = xml_attr(n, "unit"), *name = xml_attr(n, "name");
                if (!unit_name_is_valid(u, UNIT_NAME_ANY) || !unit_name_is_valid(name, UNIT_NAME_ANY))
                        return rules_bad(diags, f->path, xml_line(n), "<link>: invalid unit name");
                return add_link(p, &(BaseLink) {
                        .type = dep_type_from_string(xml_attr(n, "type")), .unit = u, .name = name,
                        .line = xml_line(n), .package = xml_attr(n, "package"),
                });
        }
        /* <alias> */
        if (!unit_name_is_valid(xml_attr(n, "name"), UNIT_NAME_ANY) ||
            !unit_name_is_valid(xml_attr(n, "unit"), UNIT_NAME_ANY))
                return rules_bad(diags, f->path, xml_line(n), "<alias>: invalid unit name");
        return add_alias(p, xml_attr(n, "name"), xml_attr(n, "unit"), xml_attr(n, "package"));
}

static const Profile *find(const Rules *r, const char *target, const char *name) {
        for (size_t i = 0; r && i < r->n_profiles; i++)
                if (streq(r->profiles[i]->target, target) && (name ? streq(r->profiles[i]->name, name)
                                                                   : r->profiles[i]->is_default))
                        return r->profiles[i];
        return NULL;
}

static int parse_profile(Rules *r, const RulesFile *f, xmlNode *n, const char *target, const char *dflt,
                         DiagList *diags) {
        _cleanup_(profile_freep) Profile *p = NULL;
        const char *name = xml_attr(n, "name"), *extends = xml_attr(n, "extends");
        Profile **np;
        int q, error = 0;

        if (streq(name, PROFILE_MINIMAL))
                return rules_bad(diags, f->path, xml_line(n), "profile name \"%s\" is reserved (systemd's units only)",
                                 name);
        if (find(r, target, name))
                return rules_bad(diags, f->path, xml_line(n), "a second profile %s for %s", name, target);
        p = calloc(1, sizeof(Profile));
        if (!p)
                return -ENOMEM;
        p->name = strdup(name);
        p->target = strdup(target);
        p->description = dup_attr(n, "description");
        if (!p->name || !p->target || !p->description)
                return -ENOMEM;
        p->file = f->path;
        p->line = xml_line(n);
        p->is_default = streq(name, dflt);
        if (extends) {
                const Profile *base = find(r, target, extends);
                if (!base)
                        return rules_bad(diags, f->path, xml_line(n),
                                         "profile %s extends %s, which is not defined before it", name, extends);
                if ((q = inherit(p, base)) < 0)
                        return q;
        }
        XML_FOREACH_ELEMENT(c, n) {
                q = parse_element(p, f, c, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        if (p->n_units > 0)
                qsort_safe(p->units, p->n_units, sizeof(BaseUnit), base_unit_cmp);
        for (size_t i = 1; i < p->n_units; i++)
                if (streq(p->units[i].name, p->units[i - 1].name))
                        error = rules_bad(diags, f->path, p->units[i].line, "unit %s is defined twice in profile %s",
                                          p->units[i].name, p->name);
        if (p->n_links > 0)
                qsort_safe(p->links, p->n_links, sizeof(BaseLink), base_link_cmp);
        if (error < 0)
                return error;
        np = realloc(r->profiles, sizeof(Profile *) * (r->n_profiles + 1));
        if (!np)
                return -ENOMEM;
        r->profiles = np;
        np[r->n_profiles++] = TAKE_PTR(p);
        return 0;
}

int rules_parse_profiles(Rules *r, const RulesFile *f, xmlDoc *doc, DiagList *diags) {
        xmlNode *root = xmlDocGetRootElement(doc);
        const char *target = xml_attr(root, "target"), *dflt = xml_attr(root, "default"), *canonical = NULL;
        int q, error = 0;

        /* targets.xml is read before the profiles (rules_file_kinds[] order) */
        if (rules_target_version(r, target, NULL, &canonical) < 0 || !streq(canonical, target))
                return rules_bad(diags, f->path, xml_line(root),
                                 "<profiles target=\"%s\">: not the canonical name of a target of targets.xml",
                                 target);
        for (size_t i = 0; i < r->n_profiles; i++)
                if (streq(r->profiles[i]->target, target))
                        return rules_bad(diags, f->path, xml_line(root), "a second profiles file for %s (%s)",
                                         target, r->profiles[i]->file);
        XML_FOREACH_ELEMENT(n, root) {
                q = parse_profile(r, f, n, target, dflt, diags);
                if (q == -ENOMEM)
                        return q;
                if (q < 0)
                        error = error ?: q;
        }
        if (error == 0 && !find(r, target, NULL))
                return rules_bad(diags, f->path, xml_line(root), "default=\"%s\": no such profile for %s", dflt,
                                 target);
        return error;
}

const Profile *rules_profile(const Rules *r, const char *target, const char *name) {
        return target ? find(r, target, name) : NULL;
}

char **rules_profile_names(const Rules *r, const char *target) {
        _cleanup_(strv_freep) char **l = NULL;

        if (strv_extend(&l, PROFILE_MINIMAL) < 0)
                return NULL;
        for (size_t i = 0; r && target && i < r->n_profiles; i++)
                if (streq(r->profiles[i]->target, target) && strv_extend(&l, r->profiles[i]->name) < 0)
                        return NULL;
        return TAKE_PTR(l);
}

const char *profile_name(const Profile *p) {
        return p->name;
}

const char *profile_target(const Profile *p) {
        return p->target;
}

const char *profile_description(const Profile *p) {
        return p->description;
}

const char *profile_file(const Profile *p) {
        return p->file;
}

bool profile_is_default(const Profile *p) {
        return p->is_default;
}

size_t profile_package_count(const Profile *p) {
        return p ? p->n_packages : 0;
}

const ProfilePackage *profile_package_get(const Profile *p, size_t i) {
        return p && i < p->n_packages ? &p->packages[i] : NULL;
}

const BaseUnit *profile_unit(const Profile *p, const char *name) {
        BaseUnit key = { .name = name };
        return p && p->n_units ? bsearch(&key, p->units, p->n_units, sizeof(BaseUnit), base_unit_cmp) : NULL;
}

size_t profile_links(const Profile *p, const char *unit, const BaseLink **ret) {
        return base_links_find(p ? p->links : NULL, p ? p->n_links : 0, unit, ret);
}

const char *profile_alias(const Profile *p, const char *name) {
        for (size_t i = 0; p && p->alias_names && p->alias_names[i]; i++)
                if (streq(p->alias_names[i], name))
                        return p->alias_units[i];
        return NULL;
}
