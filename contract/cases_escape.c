/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_escape.c - SBX-FILE-006..007: a path that leaves the sandbox's work
 * directory - by "..", by being absolute, or through a symlink planted
 * inside - is refused with SBX_E_PATH_ESCAPE, and nothing outside changes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"

/* Every file call on path must be refused as an escape. */
static void expect_all_refused(sbxc_ctx *ctx, sbx_sandbox *sb, const char *path, bool mutate)
{
    char what[300];
    void *data = NULL;
    size_t len = 0;
    snprintf(what, sizeof what, "sbx_file_read('%s')", path);
    int rc = sbx_file_read(sb, path, &data, &len);
    sbx_free(data);
    sbxc_expect_code(ctx, what, rc, SBX_E_PATH_ESCAPE);
    snprintf(what, sizeof what, "sbx_file_list('%s')", path);
    sbx_dirlist *list = NULL;
    rc = sbx_file_list(sb, path, &list);
    sbx_dirlist_free(list);
    sbxc_expect_code(ctx, what, rc, SBX_E_PATH_ESCAPE);
    if (!mutate)
        return;
    snprintf(what, sizeof what, "sbx_file_write('%s')", path);
    sbxc_expect_code(ctx, what, sbx_file_write(sb, path, "pwned\n", 6, 0644), SBX_E_PATH_ESCAPE);
    snprintf(what, sizeof what, "sbx_file_mkdir('%s')", path);
    sbxc_expect_code(ctx, what, sbx_file_mkdir(sb, path), SBX_E_PATH_ESCAPE);
    snprintf(what, sizeof what, "sbx_file_remove('%s')", path);
    sbxc_expect_code(ctx, what, sbx_file_remove(sb, path, 1), SBX_E_PATH_ESCAPE);
}

/* What the sandbox must never reach: a host directory holding one file. */
static const char *plant_host_secret(sbxc_ctx *ctx, const char *token, char *secret,
                                     size_t size)
{
    const char *dir = sbxc_host_tmpdir(ctx);
    snprintf(secret, size, "%s/secret", dir);
    int fd = open(secret, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, token, 16) != 16) {
        if (fd >= 0)
            close(fd);
        sbxc_host_skip(ctx, "cannot write %s: %s", secret, strerror(errno));
    }
    close(fd);
    return dir;
}

/* The host directory holds exactly the untouched secret. */
static void expect_host_untouched(sbxc_ctx *ctx, const char *dir, const char *secret,
                                  const char *token)
{
    char buf[64] = "";
    int fd = open(secret, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    SBXC_CHECK(ctx, n == 16 && memcmp(buf, token, 16) == 0,
               "the host file %s was changed or removed through the sandbox", secret);
    static const char *const intruders[] = { "pwned", "sbxc-escape", NULL };
    for (size_t i = 0; intruders[i]; i++) {
        char path[300];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, intruders[i]);
        SBXC_CHECK(ctx, lstat(path, &st) < 0, "%s was created on the host through the sandbox",
                   path);
    }
}

void sbxc_case_escape_paths(sbxc_ctx *ctx)
{
    char token[17], secret[256];
    sbxc_token(token);
    const char *dir = plant_host_secret(ctx, token, secret, sizeof secret);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char abs_path[300];
    snprintf(abs_path, sizeof abs_path, "%s/sbxc-escape", dir);
    const char *paths[] = { "..", "../sbxc-escape", "a/../../sbxc-escape", "a/b/../../..",
                            "/etc/passwd", "/", abs_path, secret, NULL };
    for (size_t i = 0; paths[i]; i++)
        expect_all_refused(ctx, sb, paths[i], true);
    expect_host_untouched(ctx, dir, secret, token);
    sbxc_close(ctx, sb);
}

void sbxc_case_escape_symlinks(sbxc_ctx *ctx)
{
    char token[17], secret[256];
    sbxc_token(token);
    const char *dir = plant_host_secret(ctx, token, secret, sizeof secret);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    /* Links planted from inside: to the host directory, to the file, to the
     * parent of the work directory, and to the root. */
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx,
                                              "ln -s \"$1\" out && ln -s \"$2\" leaf && "
                                              "ln -s .. up && ln -s / root && mkdir real && "
                                              "ln -s ../.. real/up2",
                                              dir, secret, NULL));
    sbxc_expect_exit(ctx, r, 0, "planting symlinks with ln -s");
    sbx_result_free(r);

    expect_all_refused(ctx, sb, "out/secret", true);
    expect_all_refused(ctx, sb, "out/pwned", true);
    expect_all_refused(ctx, sb, "out/sub/pwned", true);
    expect_all_refused(ctx, sb, "out", false);
    expect_all_refused(ctx, sb, "root/etc", false);
    expect_all_refused(ctx, sb, "up/x", true);
    expect_all_refused(ctx, sb, "real/up2/x", true);
    /* A link as the last component: reading or writing through it leaves. */
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_file_read(sb, "leaf", &data, &len);
    bool leaked = rc == SBX_OK && len >= 16 && memcmp(data, token, 16) == 0;
    sbx_free(data);
    SBXC_CHECK(ctx, !leaked, "sbx_file_read('leaf') returned the host file's content");
    sbxc_expect_code(ctx, "sbx_file_read('leaf') of a link to a host file", rc,
                     SBX_E_PATH_ESCAPE);
    rc = sbx_file_write(sb, "leaf", "pwned\n", 6, 0644);
    SBXC_CHECK(ctx, rc == SBX_OK || rc == SBX_E_PATH_ESCAPE,
               "sbx_file_write('leaf') failed with %s, expected a refusal (%s) or a "
               "replacement of the link itself", sbx_error_id(rc),
               sbx_error_id(SBX_E_PATH_ESCAPE));
    expect_host_untouched(ctx, dir, secret, token);
    sbxc_close(ctx, sb);
}
