/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_lifecycle.c - SBX-LIFE-*: a sandbox can be created and destroyed,
 * destroy is idempotent, a destroyed handle refuses use, and many sandboxes
 * can be open at once.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

void sbxc_case_create_destroy(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *backend = sbx_sandbox_backend(sb);
    SBXC_CHECK(ctx, backend && strcmp(backend, ctx->backend->name) == 0,
               "sbx_sandbox_backend says '%s', expected '%s'", backend ? backend : "(null)",
               ctx->backend->name);
    SBXC_CHECK(ctx, sbx_sandbox_tier(sb) == ctx->backend->tier,
               "sbx_sandbox_tier changed from %d to %d between two sandboxes of one DSN",
               ctx->backend->tier, sbx_sandbox_tier(sb));
    SBXC_CHECK(ctx, sbx_sandbox_id(sb) != NULL, "sbx_sandbox_id returned NULL");
    SBXC_CHECK(ctx, sbx_sandbox_dsn(sb) != NULL, "sbx_sandbox_dsn returned NULL");
    sbxc_close(ctx, sb);
}

void sbxc_case_destroy_twice(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "first sbx_sandbox_destroy", sbx_sandbox_destroy(sb));
    SBXC_OK(ctx, "second sbx_sandbox_destroy", sbx_sandbox_destroy(sb));
    sbxc_close(ctx, sb); /* a third destroy, then free */
}

static int ignore_output(void *userdata, int stream, const void *data, size_t len)
{
    return 0;
}

void sbxc_case_use_after_destroy(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    SBXC_OK(ctx, "sbx_sandbox_destroy", sbx_sandbox_destroy(sb));
    const char *argv[] = { "echo", "must not run", NULL };
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    sbx_result *r = NULL;
    int rc = sbx_exec(&r, sb, cmd);
    sbx_result_free(r);
    if (sbxc_has(ctx, SBX_CAP_EXEC) || rc != SBX_E_CAP_EXEC)
        sbxc_expect_code(ctx, "sbx_exec after destroy", rc, SBX_E_SANDBOX_DESTROYED);
    if (sbxc_has(ctx, SBX_CAP_STREAM)) {
        rc = sbx_exec_stream(&r, sb, cmd, ignore_output, NULL);
        sbx_result_free(r);
        sbxc_expect_code(ctx, "sbx_exec_stream after destroy", rc, SBX_E_SANDBOX_DESTROYED);
    }
    sbx_cmd_free(cmd);
    if (sbxc_has(ctx, SBX_CAP_FILES)) {
        void *data = NULL;
        size_t len = 0;
        rc = sbx_file_read(sb, "x", &data, &len);
        sbx_free(data);
        sbxc_expect_code(ctx, "sbx_file_read after destroy", rc, SBX_E_SANDBOX_DESTROYED);
        rc = sbx_file_write(sb, "x", "x", 1, 0644);
        sbxc_expect_code(ctx, "sbx_file_write after destroy", rc, SBX_E_SANDBOX_DESTROYED);
        sbx_dirlist *list = NULL;
        rc = sbx_file_list(sb, "", &list);
        sbx_dirlist_free(list);
        sbxc_expect_code(ctx, "sbx_file_list after destroy", rc, SBX_E_SANDBOX_DESTROYED);
        rc = sbx_file_remove(sb, "x", 0);
        sbxc_expect_code(ctx, "sbx_file_remove after destroy", rc, SBX_E_SANDBOX_DESTROYED);
        rc = sbx_file_mkdir(sb, "d");
        sbxc_expect_code(ctx, "sbx_file_mkdir after destroy", rc, SBX_E_SANDBOX_DESTROYED);
    }
    sbxc_close(ctx, sb);
}

#define MANY 16

void sbxc_case_many_sandboxes(sbxc_ctx *ctx)
{
    sbx_sandbox *sbs[MANY];
    for (int i = 0; i < MANY; i++)
        sbs[i] = sbxc_open_default(ctx, 0);
    /* Each must be its own: a file written in one is absent from the others. */
    if (sbxc_has(ctx, SBX_CAP_EXEC)) {
        for (int i = 0; i < MANY; i++) {
            char script[64];
            snprintf(script, sizeof script, "echo %d > mine; cat mine", i);
            char *out = sbxc_sh_ok(ctx, sbs[i], script);
            SBXC_CHECK(ctx, atoi(out) == i, "sandbox %d answered '%s'", i, out);
            free(out);
        }
        if (sbxc_has(ctx, SBX_CAP_PERSIST)) {
            for (int i = 0; i < MANY; i++) {
                char *out = sbxc_sh_ok(ctx, sbs[i], "cat mine");
                SBXC_CHECK(ctx, atoi(out) == i,
                           "sandbox %d reads '%s' from its file: sandboxes share files", i, out);
                free(out);
            }
        }
    }
    for (int i = MANY - 1; i >= 0; i--)
        sbxc_close(ctx, sbs[i]);
}
