/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outcome.c - how a case process ends: PASS, FAIL or SKIP, sent to the
 * runner over a pipe, after every sandbox the case opened is destroyed.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "runner.h"

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; /* the runner is gone or stopped listening: nothing to tell */
        buf += n;
        len -= (size_t)n;
    }
}

/* Destroy what the case left open; returns the first failure's text or NULL. */
static const char *cleanup(sbxc_ctx *ctx, char *buf, size_t size)
{
    const char *problem = NULL;
    for (size_t i = 0; i < SBXC_MAX_SANDBOXES; i++) {
        sbx_sandbox *sb = ctx->sandboxes[i];
        if (!sb)
            continue;
        ctx->sandboxes[i] = NULL;
        int rc = sbx_sandbox_destroy(sb);
        if (rc != SBX_OK && !problem) {
            const sbx_error *e = sbx_error_last();
            snprintf(buf, size, "cleanup: sbx_sandbox_destroy: %s (%s)", sbx_error_id(rc),
                     e && e->message ? e->message : sbx_strerror(rc));
            problem = buf;
        }
        sbx_sandbox_free(sb);
    }
    if (ctx->host_dir[0]) {
        sbxc_remove_tree(ctx->host_dir);
        ctx->host_dir[0] = '\0';
    }
    if (ctx->client) {
        sbx_client_free(ctx->client);
        ctx->client = NULL;
    }
    return problem;
}

void sbxc_finish(sbxc_ctx *ctx, int status, const char *reason)
{
    char problem_buf[512];
    const char *problem = cleanup(ctx, problem_buf, sizeof problem_buf);
    if (status == SBXC_PASS && problem) {
        status = SBXC_FAIL;
        reason = problem;
    }
    if (status == SBXC_PASS && ctx->note[0])
        reason = ctx->note;

    char record[SBXC_REASON_MAX + 2];
    record[0] = (char)('0' + status);
    snprintf(record + 1, sizeof record - 1, "%s", reason ? reason : "");
    write_all(ctx->result_fd, record, strlen(record) + 1); /* with the NUL: end of record */
    _exit(0);
}

/* va_end before sbxc_finish(), which does not return. */
#define FINISH_FORMATTED(ctx, status, fmt)                                                  \
    do {                                                                                    \
        char reason_[SBXC_REASON_MAX];                                                      \
        va_list ap_;                                                                        \
        va_start(ap_, fmt);                                                                 \
        vsnprintf(reason_, sizeof reason_, fmt, ap_);                                       \
        va_end(ap_);                                                                        \
        sbxc_finish(ctx, status, reason_);                                                  \
    } while (0)

void sbxc_fail(sbxc_ctx *ctx, const char *fmt, ...)
{
    FINISH_FORMATTED(ctx, SBXC_FAIL, fmt);
}

void sbxc_skip(sbxc_ctx *ctx, const char *fmt, ...)
{
    FINISH_FORMATTED(ctx, SBXC_SKIP, fmt);
}

void sbxc_host_skip(sbxc_ctx *ctx, const char *fmt, ...)
{
    const char *must = getenv("SANDBOXIO_MUST_WORK");
    int status = must && strcmp(must, "1") == 0 ? SBXC_FAIL : SBXC_SKIP;
    char reason[SBXC_REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (status == SBXC_FAIL)
        sbxc_fail(ctx, "%s (SANDBOXIO_MUST_WORK=1 turns this skip into a failure)", reason);
    sbxc_skip(ctx, "host: %s", reason);
}

static bool is_refusal(int rc)
{
    return rc >= 3000 && rc < 4000;
}

void sbxc_fail_rc(sbxc_ctx *ctx, const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    const char *msg = e && e->code == rc && e->message ? e->message : sbx_strerror(rc);
    sbxc_fail(ctx, "%s: %s %s%s", what, sbx_error_id(rc), msg,
              is_refusal(rc) ? " (a refusal although the capability is declared: declared "
                               "capabilities are promises)"
                             : "");
}

void sbxc_expect_code(sbxc_ctx *ctx, const char *what, int rc, int want)
{
    if (rc == want)
        return;
    if (rc == SBX_OK)
        sbxc_fail(ctx, "%s: succeeded, expected %s", what, sbx_error_id(want));
    const sbx_error *e = sbx_error_last();
    sbxc_fail(ctx, "%s: got %s (%s), expected %s", what, sbx_error_id(rc),
              e && e->code == rc && e->message ? e->message : sbx_strerror(rc),
              sbx_error_id(want));
}
