/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_persist.c - SBX-PERS-*: a sandbox keeps its files between execs, and
 * the files API and commands see the same files.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cases.h"

void sbxc_case_persist_between_execs(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "mkdir -p kept && printf %s \"$1\" > kept/f",
                                              token, NULL));
    sbxc_expect_exit(ctx, r, 0, "writing kept/f");
    sbx_result_free(r);
    char *out = sbxc_sh_ok(ctx, sb, "cat kept/f");
    SBXC_CHECK(ctx, strcmp(out, token) == 0, "the next exec reads '%s', expected '%s'", out,
               token);
    free(out);
    sbxc_close(ctx, sb);
}

void sbxc_case_persist_files_and_exec(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "api/in.txt", token, 16, 0644));
    char *out = sbxc_sh_ok(ctx, sb, "cat api/in.txt && printf 'from exec' > api/out.txt");
    SBXC_CHECK(ctx, strcmp(out, token) == 0,
               "an exec reads '%s' from a file the API wrote ('%s')", out, token);
    free(out);
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_file_read(sb, "api/out.txt", &data, &len);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_file_read of a file an exec wrote", rc);
    bool same = len == 9 && memcmp(data, "from exec", 9) == 0;
    sbx_free(data);
    SBXC_CHECK(ctx, same, "the files API reads %zu other bytes from a file an exec wrote", len);
    sbxc_close(ctx, sb);
}
