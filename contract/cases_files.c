/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_files.c - SBX-FILE-001..005: write/read round trips, nested
 * directories, listing, removal, and the error for a missing path.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

static void round_trip(sbxc_ctx *ctx, sbx_sandbox *sb, const char *path, const void *data,
                       size_t n)
{
    int rc = sbx_file_write(sb, path, data, n, 0644);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_write", rc);
    void *back = NULL;
    size_t len = 0;
    rc = sbx_file_read(sb, path, &back, &len);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_read", rc);
    bool same = len == n && (n == 0 || memcmp(back, data, n) == 0);
    bool terminated = back && ((const char *)back)[len] == '\0';
    sbx_free(back);
    SBXC_CHECK(ctx, same, "%s: wrote %zu bytes, read back %zu %s", path, n, len,
               len == n ? "different bytes" : "bytes");
    SBXC_CHECK(ctx, terminated, "%s: sbx_file_read added no NUL after the data", path);
}

typedef struct source {
    const unsigned char *data;
    size_t n, pos;
} source;

static long pull(void *userdata, void *buf, size_t len)
{
    source *s = userdata;
    size_t left = s->n - s->pos;
    if (len > left)
        len = left;
    if (len > 65536)
        len = 65536;
    memcpy(buf, s->data + s->pos, len);
    s->pos += len;
    return (long)len;
}

typedef struct sink {
    const unsigned char *want;
    size_t n, pos;
    long bad;
} sink;

static int push(void *userdata, const void *data, size_t len)
{
    sink *s = userdata;
    for (size_t i = 0; i < len && s->bad < 0; i++)
        if (s->pos + i >= s->n || ((const unsigned char *)data)[i] != s->want[s->pos + i])
            s->bad = (long)(s->pos + i);
    s->pos += len;
    return 0;
}

void sbxc_case_file_round_trip(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    round_trip(ctx, sb, "empty", "", 0);

    unsigned char binary[256 * 16];
    for (size_t i = 0; i < sizeof binary; i++)
        binary[i] = (unsigned char)i;
    round_trip(ctx, sb, "binary.bin", binary, sizeof binary);
    round_trip(ctx, sb, "binary.bin", "shorter", 7); /* replacing truncates */

    size_t n = ((size_t)17 << 20) + 3;
    unsigned char *big = malloc(n);
    if (!big)
        sbxc_fail(ctx, "out of memory");
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        big[i] = (unsigned char)x;
    }
    round_trip(ctx, sb, "big.bin", big, n);

    /* The same through the streaming calls. */
    source src = { big, n, 0 };
    int rc = sbx_file_write_from(sb, "big-streamed.bin", n, 0600, pull, &src);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_write_from", rc);
    sink snk = { big, n, 0, -1 };
    rc = sbx_file_read_to(sb, "big-streamed.bin", push, &snk);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_read_to", rc);
    SBXC_CHECK(ctx, snk.pos == n, "streamed read gave %zu bytes of %zu", snk.pos, n);
    SBXC_CHECK(ctx, snk.bad < 0, "streamed read differs at byte %ld", snk.bad);
    free(big);
    sbxc_close(ctx, sb);
}

/* The entries of path as "name:type:size;..." in the order listed. */
static char *listing(sbxc_ctx *ctx, sbx_sandbox *sb, const char *path)
{
    sbx_dirlist *list = NULL;
    int rc = sbx_file_list(sb, path, &list);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_list", rc);
    static char buf[4096];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        int w = snprintf(buf + used, sizeof buf - used, "%s:%d:%llu;", e->name, e->type,
                         e->type == SBX_FILE_REGULAR ? (unsigned long long)e->size : 0ULL);
        if (w < 0 || (size_t)w >= sizeof buf - used)
            break;
        used += (size_t)w;
    }
    sbx_dirlist_free(list);
    return buf;
}

void sbxc_case_file_dirs_and_list(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "sbx_file_write a/b/c/deep.txt",
            sbx_file_write(sb, "a/b/c/deep.txt", "deep", 4, 0644));
    SBXC_OK(ctx, "sbx_file_mkdir x/y/z", sbx_file_mkdir(sb, "x/y/z"));
    SBXC_OK(ctx, "sbx_file_write list/b.txt", sbx_file_write(sb, "list/b.txt", "bbb", 3, 0644));
    SBXC_OK(ctx, "sbx_file_write list/a.bin", sbx_file_write(sb, "list/a.bin", "", 0, 0600));
    SBXC_OK(ctx, "sbx_file_mkdir list/c", sbx_file_mkdir(sb, "list/c"));

    char *got = listing(ctx, sb, "a/b/c");
    SBXC_CHECK(ctx, strcmp(got, "deep.txt:1:4;") == 0, "a/b/c lists '%s'", got);
    got = listing(ctx, sb, "x/y");
    SBXC_CHECK(ctx, strcmp(got, "z:2:0;") == 0, "x/y lists '%s'", got);
    got = listing(ctx, sb, "list");
    SBXC_CHECK(ctx, strcmp(got, "a.bin:1:0;b.txt:1:3;c:2:0;") == 0,
               "list lists '%s', expected a.bin (file, 0), b.txt (file, 3), c (dir), sorted", got);
    got = listing(ctx, sb, "");
    SBXC_CHECK(ctx, strstr(got, "a:2:0;") && strstr(got, "list:2:0;") && strstr(got, "x:2:0;"),
               "the work directory lists '%s', without a, list and x", got);
    sbxc_close(ctx, sb);
}

void sbxc_case_file_remove(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "gone.txt", "x", 1, 0644));
    SBXC_OK(ctx, "sbx_file_remove of a file", sbx_file_remove(sb, "gone.txt", 0));
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_file_read(sb, "gone.txt", &data, &len);
    sbx_free(data);
    sbxc_expect_code(ctx, "sbx_file_read of a removed file", rc, SBX_E_NOT_FOUND);

    SBXC_OK(ctx, "sbx_file_mkdir", sbx_file_mkdir(sb, "emptydir"));
    SBXC_OK(ctx, "sbx_file_remove of an empty directory", sbx_file_remove(sb, "emptydir", 0));

    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "full/inner/f", "x", 1, 0644));
    rc = sbx_file_remove(sb, "full", 0);
    sbxc_expect_code(ctx, "sbx_file_remove of a non-empty directory without recursive", rc,
                     SBX_E_NOT_EMPTY);
    char *got = listing(ctx, sb, "full/inner");
    SBXC_CHECK(ctx, strcmp(got, "f:1:1;") == 0,
               "a refused non-recursive remove still changed the directory: '%s'", got);
    SBXC_OK(ctx, "sbx_file_remove recursive", sbx_file_remove(sb, "full", 1));
    sbx_dirlist *list = NULL;
    rc = sbx_file_list(sb, "full", &list);
    sbx_dirlist_free(list);
    sbxc_expect_code(ctx, "sbx_file_list of a recursively removed directory", rc,
                     SBX_E_NOT_FOUND);
    got = listing(ctx, sb, "");
    SBXC_CHECK(ctx, !strstr(got, "gone.txt") && !strstr(got, "emptydir") && !strstr(got, "full"),
               "removed entries are still listed: '%s'", got);
    sbxc_close(ctx, sb);
}

static int ignore_chunk(void *userdata, const void *data, size_t len)
{
    return 0;
}

void sbxc_case_file_missing(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_file_read(sb, "no-such-file", &data, &len);
    sbx_free(data);
    sbxc_expect_code(ctx, "sbx_file_read of a missing file", rc, SBX_E_NOT_FOUND);
    rc = sbx_file_read(sb, "no-such-dir/file", &data, &len);
    sbx_free(data);
    sbxc_expect_code(ctx, "sbx_file_read in a missing directory", rc, SBX_E_NOT_FOUND);
    rc = sbx_file_read_to(sb, "no-such-file", ignore_chunk, NULL);
    sbxc_expect_code(ctx, "sbx_file_read_to of a missing file", rc, SBX_E_NOT_FOUND);
    rc = sbx_file_remove(sb, "no-such-file", 0);
    sbxc_expect_code(ctx, "sbx_file_remove of a missing file", rc, SBX_E_NOT_FOUND);
    rc = sbx_file_remove(sb, "no-such-dir", 1);
    sbxc_expect_code(ctx, "recursive sbx_file_remove of a missing directory", rc,
                     SBX_E_NOT_FOUND);
    sbx_dirlist *list = NULL;
    rc = sbx_file_list(sb, "no-such-dir", &list);
    sbx_dirlist_free(list);
    sbxc_expect_code(ctx, "sbx_file_list of a missing directory", rc, SBX_E_NOT_FOUND);
    sbxc_close(ctx, sb);
}

void sbxc_case_file_wrong_type(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "dir/file", "x", 1, 0644));
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_file_read(sb, "dir", &data, &len);
    sbx_free(data);
    sbxc_expect_code(ctx, "sbx_file_read of a directory", rc, SBX_E_IS_DIRECTORY);
    rc = sbx_file_write(sb, "dir", "x", 1, 0644);
    sbxc_expect_code(ctx, "sbx_file_write over a directory", rc, SBX_E_IS_DIRECTORY);
    sbx_dirlist *list = NULL;
    rc = sbx_file_list(sb, "dir/file", &list);
    sbx_dirlist_free(list);
    sbxc_expect_code(ctx, "sbx_file_list of a regular file", rc, SBX_E_NOT_DIRECTORY);
    rc = sbx_file_mkdir(sb, "dir/file/sub");
    sbxc_expect_code(ctx, "sbx_file_mkdir under a regular file", rc, SBX_E_NOT_DIRECTORY);
    rc = sbx_file_write(sb, "dir/file/x", "x", 1, 0644);
    sbxc_expect_code(ctx, "sbx_file_write under a regular file", rc, SBX_E_NOT_DIRECTORY);
    if (sbxc_has(ctx, SBX_CAP_EXEC)) {
        /* A FIFO: reading it would block forever if it were opened. */
        sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "mkfifo fifo", NULL));
        sbxc_expect_exit(ctx, r, 0, "mkfifo");
        sbx_result_free(r);
        rc = sbx_file_read(sb, "fifo", &data, &len);
        sbx_free(data);
        sbxc_expect_code(ctx, "sbx_file_read of a FIFO", rc, SBX_E_NOT_REGULAR);
    }
    data = NULL;
    rc = sbx_file_read(sb, "dir/file", &data, &len);
    bool intact = rc == SBX_OK && len == 1 && memcmp(data, "x", 1) == 0;
    sbx_free(data);
    SBXC_CHECK(ctx, intact, "dir/file changed after the refused calls");
    sbxc_close(ctx, sb);
}
