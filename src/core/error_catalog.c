/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The error catalog: every code of sandboxio/error-codes.def (the library's)
 * and of src/cli/error-codes.def (the sandboxio tool's) with its stable id,
 * one-line summary and docs page, made from those lists.
 *
 * sbx_error_catalog() iterates both in ascending code order, the order the
 * docs index lists them. Every code must have a page
 * docs/errors/SBX_Ennnn.md; tests/test_error_catalog.c checks the lists
 * against the pages in both directions.
 */
#include "internal.h"

#include <stddef.h>

typedef struct catalog_row {
    sbx_catalog_entry entry;
    const char *docs_url;
} catalog_row;

/* The id and the page URL are spelled from the same literal so they cannot
 * drift apart. SBX_DOCS_URL is the root of the documentation site and
 * SBX_DOCS_SUFFIX the suffix of its pages: configure's --with-docs-url, or
 * from the Makefile the site installed under $(docdir)/html/ (".html"), or
 * with no HTML built the Markdown pages under $(docdir)/ (".md"). */
#define ROW(code, num, summary) \
    { { (code), "SBX_E" #num, (summary) }, SBX_DOCS_URL "errors/SBX_E" #num SBX_DOCS_SUFFIX }

static const catalog_row library_rows[] = {
#define SBX_ERROR(name, number, summary) ROW(name, number, summary),
#include <sandboxio/error-codes.def>
#undef SBX_ERROR
};

/* The sandboxio tool's codes are outside the public enum (their names are
 * the tool's), but catalogued here with the rest so that an id, a summary
 * or a page is found for every code the project reports. */
static const catalog_row tool_rows[] = {
#define SBX_ERROR(name, number, summary) ROW(number, number, summary),
#include "../cli/error-codes.def"
#undef SBX_ERROR
};

#define N_LIBRARY (sizeof(library_rows) / sizeof(library_rows[0]))
#define N_TOOL (sizeof(tool_rows) / sizeof(tool_rows[0]))

static const catalog_row *find_row(int code)
{
    /* ~140 rows: a linear scan is cheaper to trust than a search. */
    for (size_t i = 0; i < N_LIBRARY; i++)
        if (library_rows[i].entry.code == code)
            return &library_rows[i];
    for (size_t i = 0; i < N_TOOL; i++)
        if (tool_rows[i].entry.code == code)
            return &tool_rows[i];
    return NULL;
}

/* Row i of both lists merged in ascending code order (each list is
 * ascending, tests/test_error_catalog.c checks it), NULL past the end. */
static const catalog_row *row_at(size_t i)
{
    size_t l = 0, t = 0;
    for (;;) {
        const catalog_row *r;
        if (l < N_LIBRARY && (t == N_TOOL || library_rows[l].entry.code < tool_rows[t].entry.code))
            r = &library_rows[l++];
        else if (t < N_TOOL)
            r = &tool_rows[t++];
        else
            return NULL;
        if (i-- == 0)
            return r;
    }
}

const sbx_catalog_entry *sbx__catalog_find(int code)
{
    const catalog_row *row = find_row(code);
    return row ? &row->entry : NULL;
}

const sbx_catalog_entry *sbx__catalog_at(size_t i)
{
    const catalog_row *row = row_at(i);
    return row ? &row->entry : NULL;
}

const char *sbx_strerror(int code)
{
    if (code == SBX_OK)
        return "success";
    const catalog_row *row = find_row(code);
    return row ? row->entry.summary : "unknown error code";
}

const char *sbx_error_id(int code)
{
    const catalog_row *row = find_row(code);
    return row ? row->entry.id : "SBX_E????";
}

const char *sbx_error_docs_url(int code)
{
    const catalog_row *row = find_row(code);
    return row ? row->docs_url : NULL;
}

int sbx_error_catalog(size_t i)
{
    const catalog_row *row = row_at(i);
    return row ? row->entry.code : 0;
}
