/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_workdir.c - where a command starts: an absolute working directory,
 * a missing one made (SBX-EXEC-018), and HOME (SBX-EXEC-019). What docker
 * does for `docker run -w` and what tools that write under $HOME expect.
 */
#include "cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run `pwd` in cwd set by set(); FAIL unless it prints want. */
static void expect_pwd(sbxc_ctx *ctx, sbx_sandbox *sb, int (*set)(sbx_cmd *, const char *),
                       const char *cwd, const char *want)
{
    sbx_cmd *cmd = sbxc_sh(ctx, "pwd", NULL);
    SBXC_OK(ctx, "setting the working directory", set(cmd, cwd));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "pwd in the chosen directory");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    size_t wlen = strlen(want);
    SBXC_CHECK(ctx, len == wlen + 1 && memcmp(out, want, wlen) == 0 && out[wlen] == '\n',
               "cwd '%s': pwd printed '%.*s', expected '%s'", cwd,
               (int)(len > 300 ? 300 : len), out ? out : "", want);
    sbx_result_free(r);
}

/* The work directory, as pwd prints it in a command with no cwd. */
static char *work_dir(sbxc_ctx *ctx, sbx_sandbox *sb)
{
    char *work = sbxc_sh_ok(ctx, sb, "pwd");
    work[strcspn(work, "\n")] = '\0';
    SBXC_CHECK(ctx, work[0] == '/', "pwd printed '%s', not an absolute path", work);
    return work;
}

void sbxc_case_cwd_absolute_made(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char token[17], path[200], want[4300];
    sbxc_token(token);
    char *work = work_dir(ctx, sb);

    /* An absolute directory that exists, cleaned of '.' and empty parts. */
    expect_pwd(ctx, sb, sbx_cmd_set_cwd_abs, "//tmp/./", "/tmp");

    /* A missing absolute one is made with its parents. */
    snprintf(path, sizeof path, "/tmp/sbxc-%s/a b/c", token);
    expect_pwd(ctx, sb, sbx_cmd_set_cwd_abs, path, path);

    /* So is a missing relative one, under the work directory. */
    snprintf(path, sizeof path, "sbxc-%s/d e/f", token);
    snprintf(want, sizeof want, "%s/%s", strcmp(work, "/") ? work : "", path);
    expect_pwd(ctx, sb, sbx_cmd_set_cwd, path, want);
    free(work);

    /* Still never '..'; a relative path is not an absolute one. */
    sbx_cmd *cmd = sbxc_sh(ctx, "pwd", NULL);
    sbxc_expect_code(ctx, "sbx_cmd_set_cwd_abs('/tmp/../etc')",
                     sbx_cmd_set_cwd_abs(cmd, "/tmp/../etc"), SBX_E_PATH_ESCAPE);
    sbxc_expect_code(ctx, "sbx_cmd_set_cwd_abs('tmp')", sbx_cmd_set_cwd_abs(cmd, "tmp"),
                     SBX_E_BAD_PATH);
    sbxc_expect_code(ctx, "sbx_cmd_set_cwd_abs(NULL)", sbx_cmd_set_cwd_abs(cmd, NULL),
                     SBX_E_INVALID_ARGUMENT);
    sbx_cmd_free(cmd);
    sbxc_close(ctx, sb);
}

/* printf $HOME in a command, with HOME=home set on it when home is not NULL. */
static char *home_seen(sbxc_ctx *ctx, sbx_sandbox *sb, const char *home)
{
    sbx_cmd *cmd = sbxc_sh(ctx, "printf '%s' \"${HOME-unset}\"", NULL);
    if (home)
        SBXC_OK(ctx, "sbx_cmd_set_env", sbx_cmd_set_env(cmd, "HOME", home));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "printf of $HOME");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    char *copy = strndup(out ? out : "", len);
    sbx_result_free(r);
    if (!copy)
        sbxc_fail(ctx, "out of memory");
    return copy;
}

void sbxc_case_home_is_work_dir(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char *work = work_dir(ctx, sb);
    char *home = home_seen(ctx, sb, NULL);
    SBXC_CHECK(ctx, strcmp(home, work) == 0,
               "HOME is '%s', expected the work directory '%s'", home, work);
    free(home);
    free(work);
    home = home_seen(ctx, sb, "/sbxc home");
    SBXC_CHECK(ctx, strcmp(home, "/sbxc home") == 0,
               "the command's HOME=/sbxc home became '%s'", home);
    free(home);
    sbxc_close(ctx, sb);
}
