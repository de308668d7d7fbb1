/*
 * cases_files_hostile.c - SBX-FILE-008..009: files a command inside planted
 * to hurt the client, not the host: a FIFO where the client writes or reads
 * (which would block it forever if opened), and a sparse file far bigger
 * than its disk use (which would exhaust the client's memory if read whole).
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
