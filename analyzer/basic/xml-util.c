/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>

#include "basic/xml-util.h"

/* Rules files are small; anything bigger is not ours. */
#define XML_FILE_MAX (16U * 1024U * 1024U)

#if LIBXML_VERSION >= 21200
void xml_error_sink_collect(void *userdata, const xmlError *e) {
#else
void xml_error_sink_collect(void *userdata, xmlError *e) {
#endif
        XmlErrorSink *sink = userdata;
        _cleanup_(freep) char *m = NULL;
        DiagLevel level;

        if (!sink || !e)
                return;
        level = e->level == XML_ERR_WARNING ? DIAG_WARNING : DIAG_ERROR;
        if (level == DIAG_ERROR)
                sink->n_errors++;
        m = strdup(e->message ?: "unknown XML error");
        if (!m) {
                sink->oom = true;
                return;
        }
        /* libxml2 ends its messages with a newline; RelaxNG messages name the element, which is enough */
        for (size_t l = strlen(m); l > 0 && (m[l - 1] == '\n' || m[l - 1] == ' '); l--)
                m[l - 1] = 0;
        if (diag_add(sink->diags, level, e->file ?: sink->fallback_file, e->line > 0 ? (unsigned) e->line : 0,
                     "%s", m) < 0)
                sink->oom = true;
}

int xml_read_file(const char *path, xmlDoc **ret, DiagList *diags) {
        _cleanup_(xmlFreeParserCtxtp) xmlParserCtxt *ctxt = NULL;
        _cleanup_(xmlFreeDocp) xmlDoc *doc = NULL;
        _cleanup_(freep) char *buf = NULL;
        _cleanup_(closep) int fd = -EBADF;
        XmlErrorSink sink = { .diags = diags, .fallback_file = path };
        size_t size;
        int r;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        r = read_full_fd(fd, XML_FILE_MAX, &buf, &size);
        if (r == -EFBIG)
                return diag_add(diags, DIAG_ERROR, path, 0, "file larger than %u bytes, refusing", XML_FILE_MAX)
                       ?: -EBADMSG;
        if (r < 0)
                return r;
        if (size > INT32_MAX)
                return -EFBIG;

        ctxt = xmlNewParserCtxt();
        if (!ctxt)
                return -ENOMEM;

        /* No XML_PARSE_NOENT (no entity substitution), no XML_PARSE_DTDLOAD, no network. The structured handler
         * is per thread and replaces libxml2's default printing to stderr. */
        xmlSetStructuredErrorFunc(&sink, xml_error_sink_collect);
        doc = xmlCtxtReadMemory(ctxt, buf, (int) size, path, NULL,
                                XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (sink.oom)
                return -ENOMEM;
        if (!doc || sink.n_errors > 0 || !ctxt->wellFormed) {
                if (sink.n_errors == 0 &&
                    diag_add(diags, DIAG_ERROR, path, 0, "not a well-formed XML document") < 0)
                        return -ENOMEM;
                return -EBADMSG;
        }
        if (doc->intSubset || doc->extSubset) {
                /* libxml2 keeps no line for the DTD node: find it in the text */
                const char *p = strstr(buf, "<!DOCTYPE");
                unsigned line = 1;

                for (const char *c = buf; p && c < p; c++)
                        line += *c == '\n';
                return diag_add(diags, DIAG_ERROR, path, p ? line : 0,
                                "document type declarations (DTDs) are not allowed in rules files") ?: -EBADMSG;
        }
        if (!xmlDocGetRootElement(doc))
                return diag_add(diags, DIAG_ERROR, path, 0, "empty XML document") ?: -EBADMSG;

        *ret = TAKE_PTR(doc);
        return 0;
}

int xml_schema_load(const char *path, xmlRelaxNG **ret, DiagList *diags) {
        _cleanup_(xmlRelaxNGFreeParserCtxtp) xmlRelaxNGParserCtxt *pctxt = NULL;
        _cleanup_(xmlFreeDocp) xmlDoc *doc = NULL;
        XmlErrorSink sink = { .diags = diags, .fallback_file = path };
        xmlRelaxNG *schema;
        int r;

        /* read the schema with the same safe reader, then compile it from the tree */
        r = xml_read_file(path, &doc, diags);
        if (r < 0)
                return r;
        pctxt = xmlRelaxNGNewDocParserCtxt(doc);
        if (!pctxt)
                return -ENOMEM;
        xmlRelaxNGSetParserStructuredErrors(pctxt, xml_error_sink_collect, &sink);
        xmlSetStructuredErrorFunc(&sink, xml_error_sink_collect);
        schema = xmlRelaxNGParse(pctxt);
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (sink.oom) {
                if (schema)
                        xmlRelaxNGFree(schema);
                return -ENOMEM;
        }
        if (!schema) {
                if (sink.n_errors == 0 && diag_add(diags, DIAG_ERROR, path, 0, "invalid RelaxNG schema") < 0)
                        return -ENOMEM;
                return -EBADMSG;
        }
        *ret = schema;
        return 0;
}

int xml_validate(xmlRelaxNG *schema, xmlDoc *doc, const char *path, DiagList *diags) {
        _cleanup_(xmlRelaxNGFreeValidCtxtp) xmlRelaxNGValidCtxt *vctxt = NULL;
        XmlErrorSink sink = { .diags = diags, .fallback_file = path };
        int k;

        vctxt = xmlRelaxNGNewValidCtxt(schema);
        if (!vctxt)
                return -ENOMEM;
        xmlRelaxNGSetValidStructuredErrors(vctxt, xml_error_sink_collect, &sink);
        xmlSetStructuredErrorFunc(&sink, xml_error_sink_collect);
        k = xmlRelaxNGValidateDoc(vctxt, doc);
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (sink.oom)
                return -ENOMEM;
        if (k != 0) {
                if (sink.n_errors == 0 &&
                    diag_add(diags, DIAG_ERROR, path, 0, "does not match its schema") < 0)
                        return -ENOMEM;
                return -EBADMSG;
        }
        return 0;
}

const char *xml_attr(xmlNode *n, const char *name) {
        xmlAttr *a = xmlHasProp(n, (const xmlChar *) name);

        if (!a || a->type != XML_ATTRIBUTE_NODE)
                return NULL;
        if (!a->children)
                return "";
        /* without entity substitution and without a DTD an attribute value is a single text node */
        if (a->children->type == XML_TEXT_NODE && !a->children->next)
                return (const char *) a->children->content;
        return NULL;
}

char *xml_text(xmlNode *n) {
        _cleanup_(xmlFreep) xmlChar *t = xmlNodeGetContent(n);

        return strdup(t ? (const char *) t : "");
}
