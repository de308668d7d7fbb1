/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The error catalog agrees with the header, the docs pages and itself, and
 * every public function has a man page that shows its prototype.
 *
 * The header and the docs are read as text from $SBX_TEST_SRCDIR, so a code
 * added to errors.h without a catalog row or a page, or a function added
 * without a man page, fails here.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sandboxio/sandboxio.h>

#define MAX_CODES 512

/* ---- helpers ----------------------------------------------------------- */

static const char *srcdir(void)
{
    const char *dir = getenv("SBX_TEST_SRCDIR");
    ck_assert_msg(dir != NULL && *dir != '\0', "SBX_TEST_SRCDIR is not set");
    return dir;
}

/* The whole of srcdir/rel as a NUL-terminated string, or NULL if missing. */
static char *slurp(const char *rel)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", srcdir(), rel);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            ck_assert_ptr_nonnull(grown);
            buf = grown;
        }
    }
    ck_assert_msg(!ferror(f), "read error on %s", path);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static size_t catalog_codes(int *codes)
{
    size_t n = 0;
    for (int c; (c = sbx_error_catalog(n)) != 0; n++) {
        ck_assert_msg(n < MAX_CODES, "catalog does not end");
        codes[n] = c;
    }
    return n;
}

static int contains(const int *v, size_t n, int x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* The two definitions of the codes: the library's and the tool's. */
#define LIBRARY_DEF "include/sandboxio/error-codes.def"
#define TOOL_DEF "src/cli/error-codes.def"

/*
 * Codes of one definition file, parsed from its text, each with the leading
 * digit of the "Nxxx:" section comment it sits under.
 */
static size_t def_codes(const char *rel, int *codes, int *sections)
{
    char *text = slurp(rel);
    ck_assert_msg(text != NULL, "cannot read %s", rel);
    regex_t value, section;
    ck_assert_int_eq(regcomp(&value, "^SBX_ERROR\\(SBX_E_[A-Z0-9_]+, *([0-9]+), *\"",
                             REG_EXTENDED), 0);
    ck_assert_int_eq(regcomp(&section, "^/\\*[[:space:]]*([0-9])xxx:", REG_EXTENDED), 0);
    size_t n = 0;
    int current = -1;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        regmatch_t m[2];
        if (regexec(&section, line, 2, m, 0) == 0)
            current = line[m[1].rm_so] - '0';
        else if (regexec(&value, line, 2, m, 0) == 0) {
            ck_assert_msg(n < MAX_CODES, "too many codes in %s", rel);
            ck_assert_msg(current >= 0, "code outside a range section: %s", line);
            codes[n] = atoi(line + m[1].rm_so);
            sections[n++] = current;
        } else
            ck_assert_msg(strncmp(line, "SBX_ERROR", 9) != 0, "%s: malformed line: %s", rel, line);
    }
    regfree(&value);
    regfree(&section);
    free(text);
    ck_assert_msg(n > 0, "no codes parsed from %s", rel);
    return n;
}

/* Codes of both definitions, the library's first. */
static size_t header_codes(int *codes, int *sections)
{
    size_t n = def_codes(LIBRARY_DEF, codes, sections);
    return n + def_codes(TOOL_DEF, codes + n, sections + n);
}

/* ---- the catalog against the header ------------------------------------ */

START_TEST(every_header_code_is_in_the_catalog_and_back)
{
    int hdr[MAX_CODES], sec[MAX_CODES], cat[MAX_CODES];
    size_t nh = header_codes(hdr, sec);
    size_t nc = catalog_codes(cat);
    for (size_t i = 0; i < nh; i++)
        ck_assert_msg(contains(cat, nc, hdr[i]), "code %d of errors.h is not in the catalog", hdr[i]);
    for (size_t i = 0; i < nc; i++)
        ck_assert_msg(contains(hdr, nh, cat[i]), "catalog code %d is not in errors.h", cat[i]);
    ck_assert_uint_eq(nh, nc);
}
END_TEST

START_TEST(header_codes_sit_in_their_documented_range)
{
    int hdr[MAX_CODES], sec[MAX_CODES];
    size_t nh = header_codes(hdr, sec);
    for (size_t i = 0; i < nh; i++) {
        ck_assert_msg(hdr[i] >= 1000 && hdr[i] <= 9999, "code %d is not four digits", hdr[i]);
        ck_assert_msg(hdr[i] / 1000 == sec[i], "code %d listed under the %dxxx range",
                      hdr[i], sec[i]);
    }
}
END_TEST

START_TEST(catalog_is_sorted_and_ids_spell_their_number)
{
    int cat[MAX_CODES];
    size_t nc = catalog_codes(cat);
    ck_assert_uint_gt(nc, 0);
    for (size_t i = 0; i < nc; i++) {
        char want[16];
        ck_assert_int_ge(cat[i], 1000);
        ck_assert_int_le(cat[i], 9999);
        if (i > 0)
            ck_assert_msg(cat[i - 1] < cat[i], "catalog not strictly ascending at %d", cat[i]);
        snprintf(want, sizeof(want), "SBX_E%04d", cat[i]);
        ck_assert_str_eq(sbx_error_id(cat[i]), want);
    }
}
END_TEST

START_TEST(catalog_index_past_the_end_is_zero)
{
    int cat[MAX_CODES];
    size_t nc = catalog_codes(cat);
    ck_assert_int_eq(sbx_error_catalog(nc), 0);
    ck_assert_int_eq(sbx_error_catalog(nc + 1), 0);
    ck_assert_int_eq(sbx_error_catalog(SIZE_MAX), 0);
}
END_TEST

/* ---- the lookup functions ---------------------------------------------- */

START_TEST(known_codes_have_summary_id_and_docs_url)
{
    int cat[MAX_CODES];
    size_t nc = catalog_codes(cat);
    for (size_t i = 0; i < nc; i++) {
        const char *summary = sbx_strerror(cat[i]);
        ck_assert_ptr_nonnull(summary);
        ck_assert_msg(*summary != '\0' && strchr(summary, '\n') == NULL,
                      "summary of %d is not one line", cat[i]);
        ck_assert_str_ne(summary, "unknown error code");
        char want[256];
        snprintf(want, sizeof(want), "%serrors/%s%s", SBX_DOCS_URL, sbx_error_id(cat[i]), SBX_DOCS_SUFFIX);
        ck_assert_pstr_eq(sbx_error_docs_url(cat[i]), want);
    }
    ck_assert_str_eq(sbx_error_id(SBX_E_DSN_NO_SCHEME), "SBX_E1003");
    ck_assert_str_eq(sbx_error_docs_url(SBX_E_SYSTEM), SBX_DOCS_URL "errors/SBX_E9003" SBX_DOCS_SUFFIX);
    ck_assert_str_eq(sbx_strerror(SBX_E_NOMEM), "out of memory");
}
END_TEST

START_TEST(ok_is_success_but_not_a_catalog_entry)
{
    ck_assert_str_eq(sbx_strerror(SBX_OK), "success");
    ck_assert_str_eq(sbx_error_id(SBX_OK), "SBX_E????");
    ck_assert_ptr_null(sbx_error_docs_url(SBX_OK));
}
END_TEST

START_TEST(unknown_codes_get_the_placeholders)
{
    const int unknown[] = { -1, 1, 999, 1000, 1999, 6000, 9999, 10000, INT_MAX, INT_MIN, -1001 };
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        ck_assert_str_eq(sbx_strerror(unknown[i]), "unknown error code");
        ck_assert_str_eq(sbx_error_id(unknown[i]), "SBX_E????");
        ck_assert_ptr_null(sbx_error_docs_url(unknown[i]));
    }
}
END_TEST

/* ---- the catalog against docs/errors ------------------------------------ */

START_TEST(every_code_has_a_page_titled_with_its_summary)
{
    int cat[MAX_CODES];
    size_t nc = catalog_codes(cat);
    for (size_t i = 0; i < nc; i++) {
        const char *id = sbx_error_id(cat[i]);
        char rel[64], title[512];
        snprintf(rel, sizeof(rel), "docs/errors/%s.md", id);
        char *page = slurp(rel);
        ck_assert_msg(page != NULL, "%s has no page %s", id, rel);
        snprintf(title, sizeof(title), "# %s: %s\n", id, sbx_strerror(cat[i]));
        ck_assert_msg(strncmp(page, title, strlen(title)) == 0,
                      "%s: first line is not \"%.*s\"", rel, (int)strlen(title) - 1, title);
        ck_assert_msg(strstr(page, "\n## What it means\n") && strstr(page, "\n## Common causes\n") &&
                          strstr(page, "\n## What to do\n"),
                      "%s lacks one of the required sections", rel);
        if (cat[i] / 1000 == 3)
            ck_assert_msg(strstr(page, "\n## Policy control\n"), "%s names no policy control", rel);
        free(page);
    }
}
END_TEST

/*
 * The tool's codes (src/cli/error-codes.def) are exactly the ones whose page
 * says "**CLI only**", but for SBX_E5001: a library code (a result says it,
 * sbx_result_timed_out()) that only the tool returns as a failure.
 */
START_TEST(cli_only_codes_are_the_tools_and_their_pages_say_so)
{
    int hdr[MAX_CODES], sec[MAX_CODES];
    size_t nl = def_codes(LIBRARY_DEF, hdr, sec);
    size_t n = nl + def_codes(TOOL_DEF, hdr + nl, sec + nl);
    for (size_t i = 0; i < n; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "docs/errors/%s.md", sbx_error_id(hdr[i]));
        char *page = slurp(rel);
        ck_assert_msg(page != NULL, "no page %s", rel);
        int in_page = strstr(page, "\n**CLI only**: ") != NULL;
        free(page);
        int tools = i >= nl || hdr[i] == SBX_E_EXEC_TIMEOUT;
        ck_assert_msg(tools == in_page, "%s: %s", rel,
                      in_page ? "says CLI only but the code is the library's (" LIBRARY_DEF ")"
                              : "the tool's code (" TOOL_DEF ") but the page does not say CLI only");
    }
}
END_TEST

/*
 * Each range is shared: the library's new codes take n001-n499, the tool's
 * n500-n999. The tool's codes below n500 were released before the split
 * and keep their numbers; no new one may join them.
 */
START_TEST(library_and_tool_codes_keep_to_their_halves_of_a_range)
{
    int hdr[MAX_CODES], sec[MAX_CODES];
    size_t nl = def_codes(LIBRARY_DEF, hdr, sec);
    for (size_t i = 0; i < nl; i++)
        ck_assert_msg(hdr[i] % 1000 < 500, "library code %d is in the tool's n500-n999", hdr[i]);
    size_t nt = def_codes(TOOL_DEF, hdr, sec), before_split = 0;
    for (size_t i = 0; i < nt; i++)
        before_split += hdr[i] % 1000 < 500;
    ck_assert_msg(before_split == 22, "%zu tool codes below n500, 22 were released there: a new "
                  "code of the tool takes n500-n999", before_split);
}
END_TEST

START_TEST(every_page_has_a_catalog_entry)
{
    char dirpath[PATH_MAX];
    snprintf(dirpath, sizeof(dirpath), "%s/docs/errors", srcdir());
    DIR *d = opendir(dirpath);
    ck_assert_msg(d != NULL, "cannot open %s", dirpath);
    size_t pages = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int num;
        char tail[8];
        if (strncmp(e->d_name, "SBX_E", 5) != 0)
            continue;
        ck_assert_msg(sscanf(e->d_name, "SBX_E%4d%7s", &num, tail) == 2 && strcmp(tail, ".md") == 0,
                      "unexpected file name %s", e->d_name);
        char want[16];
        snprintf(want, sizeof(want), "SBX_E%04d.md", num);
        ck_assert_msg(strcmp(e->d_name, want) == 0, "unexpected file name %s", e->d_name);
        ck_assert_msg(sbx_error_docs_url(num) != NULL, "page %s has no catalog entry", e->d_name);
        pages++;
    }
    closedir(d);
    int cat[MAX_CODES];
    ck_assert_uint_eq(pages, catalog_codes(cat));
}
END_TEST

START_TEST(every_page_is_distributed_and_indexed)
{
    char *mk = slurp("docs/errors/errors.mk");
    char *index = slurp("docs/errors/README.md");
    ck_assert_msg(mk != NULL && index != NULL, "docs/errors/errors.mk or README.md missing");
    int cat[MAX_CODES];
    size_t nc = catalog_codes(cat);
    for (size_t i = 0; i < nc; i++) {
        char want[64];
        snprintf(want, sizeof(want), "docs/errors/%s.md", sbx_error_id(cat[i]));
        ck_assert_msg(strstr(mk, want), "%s is not in EXTRA_DIST (docs/errors/errors.mk)", want);
        snprintf(want, sizeof(want), "[%s](%s.md)", sbx_error_id(cat[i]), sbx_error_id(cat[i]));
        ck_assert_msg(strstr(index, want), "docs/errors/README.md does not index %s", want);
    }
    free(mk);
    free(index);
}
END_TEST

/* ---- man pages ---------------------------------------------------------- */

/* Collapse every run of white space into one space, in place. */
static void squeeze(char *s)
{
    char *w = s;
    int space = 0;
    for (const char *r = s; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\n') {
            space = 1;
            continue;
        }
        if (space && w != s)
            *w++ = ' ';
        space = 0;
        *w++ = *r;
    }
    *w = '\0';
}

/* The page that documents name: docs/man/<name>.3, following one ".so". */
static char *man_page_for(const char *name)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof(rel), "docs/man/%s.3", name);
    char *page = slurp(rel);
    if (page && strncmp(page, ".so man3/", 9) == 0) {
        char target[256];
        ck_assert_msg(sscanf(page + 9, "%255[^\n]", target) == 1, "%s: bad .so line", rel);
        free(page);
        snprintf(rel, sizeof(rel), "docs/man/%s", target);
        page = slurp(rel);
        ck_assert_msg(page != NULL, "docs/man/%s.3 points at missing %s", name, rel);
    }
    return page;
}

/*
 * Check one public prototype ("int sbx_x(int a);", squeezed) against its
 * page, and that the page is installed (listed in docs/docs.mk).
 */
static void check_man_page(const char *proto, const char *docs_mk)
{
    const char *paren = strchr(proto, '(');
    ck_assert_ptr_nonnull(paren);
    const char *start = paren;
    while (start > proto && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                             (start[-1] >= '0' && start[-1] <= '9')))
        start--;
    char name[128];
    snprintf(name, sizeof(name), "%.*s", (int)(paren - start), start);
    ck_assert_msg(strncmp(name, "sbx_", 4) == 0, "cannot find the name in \"%s\"", proto);

    char *page = man_page_for(name);
    ck_assert_msg(page != NULL, "public function %s has no man page docs/man/%s.3", name, name);
    char listed[160];
    snprintf(listed, sizeof(listed), "docs/man/%s.3", name);
    ck_assert_msg(strstr(docs_mk, listed), "%s is not in dist_man_MANS (docs/docs.mk)", listed);
    const char *name_sec = strstr(page, ".SH NAME\n");
    ck_assert_msg(name_sec != NULL, "man page of %s has no NAME section", name);
    const char *name_end = strstr(name_sec + 1, ".SH ");
    char *hit = strstr(name_sec, name);
    ck_assert_msg(hit && (!name_end || hit < name_end), "man page of %s: NAME does not list it", name);
    squeeze(page);
    ck_assert_msg(strstr(page, proto) != NULL, "man page of %s lacks the prototype \"%s\"", name, proto);
    free(page);
}

START_TEST(every_public_function_has_a_man_page_with_its_prototype)
{
    char dirpath[PATH_MAX];
    snprintf(dirpath, sizeof(dirpath), "%s/include/sandboxio", srcdir());
    DIR *d = opendir(dirpath);
    ck_assert_msg(d != NULL, "cannot open %s", dirpath);
    char *docs_mk = slurp("docs/docs.mk");
    ck_assert_msg(docs_mk != NULL, "cannot read docs/docs.mk");
    size_t functions = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
            continue;
        char rel[PATH_MAX];
        snprintf(rel, sizeof(rel), "include/sandboxio/%s", e->d_name);
        char *text = slurp(rel);
        ck_assert_ptr_nonnull(text);
        /* Each declaration runs from "SBX_API " on a non-directive line to ';'. */
        for (char *p = text; (p = strstr(p, "SBX_API ")) != NULL;) {
            char *bol = p;
            while (bol > text && bol[-1] != '\n')
                bol--;
            while (*bol == ' ' || *bol == '\t')
                bol++;
            if (*bol == '#') {
                p += 8;
                continue;
            }
            char *semi = strchr(p, ';');
            ck_assert_msg(semi != NULL, "%s: unterminated declaration", rel);
            *semi = '\0';
            char proto[1024];
            snprintf(proto, sizeof(proto), "%s;", p + 8);
            squeeze(proto);
            check_man_page(proto, docs_mk);
            functions++;
            p = semi + 1;
        }
        free(text);
    }
    closedir(d);
    free(docs_mk);
    ck_assert_msg(functions > 50, "only %zu SBX_API declarations found", functions);
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("error_catalog");
    TCase *tc = tcase_create("catalog");
    tcase_add_test(tc, every_header_code_is_in_the_catalog_and_back);
    tcase_add_test(tc, cli_only_codes_are_the_tools_and_their_pages_say_so);
    tcase_add_test(tc, library_and_tool_codes_keep_to_their_halves_of_a_range);
    tcase_add_test(tc, header_codes_sit_in_their_documented_range);
    tcase_add_test(tc, catalog_is_sorted_and_ids_spell_their_number);
    tcase_add_test(tc, catalog_index_past_the_end_is_zero);
    tcase_add_test(tc, known_codes_have_summary_id_and_docs_url);
    tcase_add_test(tc, ok_is_success_but_not_a_catalog_entry);
    tcase_add_test(tc, unknown_codes_get_the_placeholders);
    suite_add_tcase(s, tc);
    TCase *docs = tcase_create("docs");
    tcase_add_test(docs, every_code_has_a_page_titled_with_its_summary);
    tcase_add_test(docs, every_page_has_a_catalog_entry);
    tcase_add_test(docs, every_page_is_distributed_and_indexed);
    tcase_add_test(docs, every_public_function_has_a_man_page_with_its_prototype);
    suite_add_tcase(s, docs);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(catalog_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
