/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* libxml2 helpers: _cleanup_ functions for its handles, attribute access with line numbers, and a safe reader
 * that turns every libxml2 message into a diagnostic (libxml2 itself never prints). */

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "basic/diag.h"

static inline void xmlFreeDocp(xmlDoc **d) {
        if (*d)
                xmlFreeDoc(*d);
}
static inline void xmlFreep(xmlChar **p) {
        if (*p)
                xmlFree(*p);
}
static inline void xmlFreeParserCtxtp(xmlParserCtxt **c) {
        if (*c)
                xmlFreeParserCtxt(*c);
}
static inline void xmlRelaxNGFreep(xmlRelaxNG **s) {
        if (*s)
                xmlRelaxNGFree(*s);
}
static inline void xmlRelaxNGFreeParserCtxtp(xmlRelaxNGParserCtxt **c) {
        if (*c)
                xmlRelaxNGFreeParserCtxt(*c);
}
static inline void xmlRelaxNGFreeValidCtxtp(xmlRelaxNGValidCtxt **c) {
        if (*c)
                xmlRelaxNGFreeValidCtxt(*c);
}

/* Where libxml2's structured errors go while a reader or validator runs: each becomes a DIAG_ERROR (warnings a
 * DIAG_WARNING) naming file:line; fallback_file names the file when libxml2 does not. n_errors counts errors. */
typedef struct XmlErrorSink {
        DiagList *diags;
        const char *fallback_file;
        unsigned n_errors;
        bool oom;
} XmlErrorSink;

#if LIBXML_VERSION >= 21200
void xml_error_sink_collect(void *userdata, const xmlError *e);
#else
void xml_error_sink_collect(void *userdata, xmlError *e);
#endif

/* Reads and parses path without network access, entity substitution or DTD loading, and refuses documents that
 * carry a DTD. Returns 0 with *ret set, -EBADMSG (diagnostics added), or -errno when the file cannot be read
 * (no diagnostic: the caller names what it was looking for). */
int xml_read_file(const char *path, xmlDoc **ret, DiagList *diags);

/* Validates doc against a compiled RelaxNG schema. Returns 0, or -EBADMSG with one diagnostic per problem. */
int xml_validate(xmlRelaxNG *schema, xmlDoc *doc, const char *path, DiagList *diags);
/* Compiles the RelaxNG schema at path. Returns 0, -EBADMSG (diagnostics added) or -errno. */
int xml_schema_load(const char *path, xmlRelaxNG **ret, DiagList *diags);

/* Attribute helpers: the returned string is owned by the document (valid while it lives) or NULL. */
const char *xml_attr(xmlNode *n, const char *name);
static inline bool xml_is(const xmlNode *n, const char *name) {
        return n->type == XML_ELEMENT_NODE && streq((const char *) n->name, name);
}
static inline unsigned xml_line(const xmlNode *n) {
        long l = xmlGetLineNo(n);
        return l > 0 ? (unsigned) l : 0;
}
/* The text of n's children (for <note>), owned by the caller; NULL on OOM. */
char *xml_text(xmlNode *n);
#define XML_FOREACH_ELEMENT(c, parent) \
        for (xmlNode *c = (parent)->children; c; c = c->next) \
                if (c->type == XML_ELEMENT_NODE)
