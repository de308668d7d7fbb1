/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.c - a command run for a call that asked for progress (a
 * progressToken): its output is streamed, captured here up to the cap, and
 * reported as notifications/progress with the elapsed time as it comes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"
#include "../encode.h"
#include "../util.h"

/* At most one notification per this many ms: a chatty command must not flood. */
#define PROGRESS_EVERY_MS 50
/* Output quoted in one notification. */
#define PROGRESS_QUOTE 256

void mcp_capture_init(struct mcp_capture *c, struct mcp_call *call, size_t cap)
{
    memset(c, 0, sizeof(*c));
    c->call = call;
    c->cap = cap;
    c->start_ms = mcp_now_ms();
    mcp_send_progress(call, 0, "started");
}

static void report(struct mcp_capture *c, int stream, const void *data, size_t len)
{
    uint64_t now = mcp_now_ms();
    char message[PROGRESS_QUOTE + 64];
    size_t n = len < PROGRESS_QUOTE ? len : PROGRESS_QUOTE;
    double progress;

    if (now - c->last_ms < PROGRESS_EVERY_MS && c->last_ms)
        return;
    c->last_ms = now;
    /* Progress must grow with every notification: the elapsed ms, at least +1. */
    progress = (double)(now - c->start_ms);
    if (progress <= c->last_progress)
        progress = c->last_progress + 1;
    c->last_progress = progress;
    if (sbx_cli_utf8_valid(data, n))
        snprintf(message, sizeof(message), "%s: %.*s", stream == SBX_STDERR ? "stderr" : "stdout",
                 (int)n, (const char *)data);
    else
        snprintf(message, sizeof(message), "%s: %zu bytes", stream == SBX_STDERR ? "stderr" : "stdout", len);
    mcp_send_progress(c->call, progress, message);
}

int mcp_capture_cb(void *userdata, int stream, const void *data, size_t len)
{
    struct mcp_capture *c = userdata;
    int i = stream == SBX_STDERR;
    size_t room = c->cap ? c->cap - c->len[i] : len, take = len < room ? len : room;

    report(c, stream, data, len);
    if (take < len)
        c->truncated[i] = 1;
    if (take) {
        if (c->len[i] + take > c->alloc[i]) {
            size_t want = (c->len[i] + take) * 2;
            char *grown = realloc(c->data[i], want);
            if (!grown)
                return 1;   /* kills the command: SBX_E_EXEC_ABORTED */
            c->data[i] = grown, c->alloc[i] = want;
        }
        memcpy(c->data[i] + c->len[i], data, take);
        c->len[i] += take;
    }
    return 0;
}

int mcp_capture_result_json(struct mcp_capture *c, const sbx_result *result, json_object **out)
{
    int rc = run_result_json(result, out);

    if (!rc && (c->len[0] > INT32_MAX / 2 || c->len[1] > INT32_MAX / 2))
        rc = SBX_E_EXEC_TRUNCATED;
    if (!rc) rc = run_json_add_output(*out, "stdout", "stdout_encoding", c->data[0], c->len[0]);
    if (!rc) rc = run_json_add_output(*out, "stderr", "stderr_encoding", c->data[1], c->len[1]);
    if (!rc) rc = sbx_cli_json_add(*out, "stdout_truncated", json_object_new_boolean(c->truncated[0]));
    if (!rc) rc = sbx_cli_json_add(*out, "stderr_truncated", json_object_new_boolean(c->truncated[1]));
    if (rc) {
        json_object_put(*out);
        *out = NULL;
    }
    return rc;
}

void mcp_capture_release(struct mcp_capture *c)
{
    free(c->data[0]);
    free(c->data[1]);
}
