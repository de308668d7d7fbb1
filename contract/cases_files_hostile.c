/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_files_hostile.c - SBX-FILE-008..009 and 011: files a command inside
 * planted to hurt the client, not the host: a FIFO where the client writes or
 * reads (which would block it forever if opened), a sparse file far bigger
 * than its disk use (which would exhaust the client's memory if read whole),
 * and a directory of more names than a client should hold in a listing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

/* Far longer than any refusal takes; far shorter than the case's limit. */
#define PROMPT_S 5.0

void sbxc_case_file_not_regular(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    free(sbxc_sh_ok(ctx, sb, "mkfifo fifo && mkdir -p d && mkfifo d/nested"));
    static const char *const paths[] = { "fifo", "d/nested" };
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        char what[96];
        double t0 = sbxc_now();
        int rc = sbx_file_write(sb, paths[i], "x", 1, 0644);
        double took = sbxc_now() - t0;
        snprintf(what, sizeof what, "sbx_file_write over the FIFO '%s'", paths[i]);
        sbxc_expect_code(ctx, what, rc, SBX_E_NOT_REGULAR);
        SBXC_CHECK(ctx, took < PROMPT_S, "%s took %.1f s", what, took);

        void *data = NULL;
        size_t len = 0;
        t0 = sbxc_now();
        rc = sbx_file_read(sb, paths[i], &data, &len);
        took = sbxc_now() - t0;
        sbx_free(data);
        snprintf(what, sizeof what, "sbx_file_read of the FIFO '%s'", paths[i]);
        sbxc_expect_code(ctx, what, rc, SBX_E_NOT_REGULAR);
        SBXC_CHECK(ctx, took < PROMPT_S, "%s took %.1f s", what, took);
    }
    /* Refused, not replaced: the FIFO is still there and still a FIFO. */
    free(sbxc_sh_ok(ctx, sb, "test -p fifo && test -p d/nested"));
    /* And it can be removed, which is how a caller clears it. */
    SBXC_OK(ctx, "sbx_file_remove of a FIFO", sbx_file_remove(sb, "fifo", 0));
    SBXC_OK(ctx, "sbx_file_write where the FIFO was", sbx_file_write(sb, "fifo", "x", 1, 0644));
    sbxc_close(ctx, sb);
}

typedef struct counter {
    uint64_t bytes;
    bool all_zero;
} counter;

static int count(void *userdata, const void *data, size_t len)
{
    counter *c = userdata;
    const unsigned char *p = data;
    for (size_t i = 0; i < len && c->all_zero; i++)
        c->all_zero = p[i] == 0;
    c->bytes += len;
    return 0;
}

void sbxc_case_file_read_cap(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    /* 20 GiB that cost the sandbox no space, and one just past the cap. */
    char script[160];
    snprintf(script, sizeof script, "truncate -s 20G huge && truncate -s %zu over",
             SBX_FILE_READ_MAX + 1);
    free(sbxc_sh_ok(ctx, sb, script));

    static const char *const big[] = { "huge", "over" };
    for (size_t i = 0; i < 2; i++) {
        void *data = (void *)1;
        size_t len = 1;
        int rc = sbx_file_read(sb, big[i], &data, &len);
        bool empty = data == NULL && len == 0;
        sbx_free(data);
        char what[64];
        snprintf(what, sizeof what, "sbx_file_read of the sparse file '%s'", big[i]);
        sbxc_expect_code(ctx, what, rc, SBX_E_FILE_TOO_LARGE);
        SBXC_CHECK(ctx, empty, "%s returned data with its refusal", what);
    }
    /* Streamed, the file past the cap comes whole: the cap is the collector's only. */
    counter c = { 0, true };
    SBXC_OK(ctx, "sbx_file_read_to of a file past the in-memory cap",
            sbx_file_read_to(sb, "over", count, &c));
    SBXC_CHECK(ctx, c.bytes == SBX_FILE_READ_MAX + 1 && c.all_zero,
               "sbx_file_read_to gave %llu bytes (%s), want %zu zero bytes",
               (unsigned long long)c.bytes, c.all_zero ? "zeros" : "not all zero",
               SBX_FILE_READ_MAX + 1);
    /* Exactly the cap is still read into memory (plain sizes: busybox has no "-s -1"). */
    snprintf(script, sizeof script, "truncate -s %zu over", SBX_FILE_READ_MAX);
    free(sbxc_sh_ok(ctx, sb, script));
    void *data = NULL;
    size_t len = 0;
    SBXC_OK(ctx, "sbx_file_read of a file of exactly SBX_FILE_READ_MAX bytes",
            sbx_file_read(sb, "over", &data, &len));
    sbx_free(data);
    SBXC_CHECK(ctx, len == SBX_FILE_READ_MAX, "read %zu bytes, want %zu", len, SBX_FILE_READ_MAX);
    sbxc_close(ctx, sb);
}

/* List dir: SBX_OK and want entries, or the refusal want_rc with no list. */
static void expect_listing(sbxc_ctx *ctx, sbx_sandbox *sb, const char *dir, int want_rc,
                           size_t want)
{
    sbx_dirlist *l = (sbx_dirlist *)1;
    int rc = sbx_file_list(sb, dir, &l);
    char what[96];
    snprintf(what, sizeof what, "sbx_file_list of '%s' (%zu entries)", dir, want);
    if (want_rc == SBX_OK) {
        SBXC_OK(ctx, what, rc);
        SBXC_CHECK(ctx, sbx_dirlist_count(l) == want, "%s gave %zu entries", what,
                   sbx_dirlist_count(l));
    } else {
        sbxc_expect_code(ctx, what, rc, want_rc);
        SBXC_CHECK(ctx, l == NULL, "%s returned a list with its refusal", what);
    }
    if (rc == SBX_OK)
        sbx_dirlist_free(l);
}

void sbxc_case_file_list_cap(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char script[512];
    /* The most entries are listed; one more is refused. Short names cost little. */
    snprintf(script, sizeof script,
             "mkdir many && cd many && seq 1 %zu | sed 's/^/f/' | xargs touch",
             SBX_FILE_LIST_MAX_ENTRIES);
    free(sbxc_sh_ok(ctx, sb, script));
    expect_listing(ctx, sb, "many", SBX_OK, SBX_FILE_LIST_MAX_ENTRIES);
    free(sbxc_sh_ok(ctx, sb, "touch many/one-more"));
    expect_listing(ctx, sb, "many", SBX_E_LIST_TOO_LARGE, SBX_FILE_LIST_MAX_ENTRIES + 1);

    /* Names of 255 bytes (NAME_MAX): as many as the name bytes allow, then one more. */
    size_t n = SBX_FILE_LIST_MAX_NAME_BYTES / 255;
    char prefix[250];
    memset(prefix, 'n', sizeof prefix - 1);
    prefix[sizeof prefix - 1] = '\0';
    snprintf(script, sizeof script,
             "mkdir long && cd long && seq 100001 %zu | sed 's/^/%s/' | xargs touch",
             100000 + n, prefix);
    free(sbxc_sh_ok(ctx, sb, script));
    expect_listing(ctx, sb, "long", SBX_OK, n);
    snprintf(script, sizeof script, "touch long/%s%zu", prefix, 100001 + n);
    free(sbxc_sh_ok(ctx, sb, script));
    expect_listing(ctx, sb, "long", SBX_E_LIST_TOO_LARGE, n + 1);
    sbxc_close(ctx, sb);
}
