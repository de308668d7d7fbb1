/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.c - a command run for a call that asked for progress (a
 * progressToken): the library captures its output under the cap and gives
 * every chunk here as it comes (sbx_exec_opts' observer), which reports it
 * as notifications/progress with the elapsed time.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "server.h"
#include "protocol.h"
#include "progress.h"
#include "../encode.h"

/* At most one notification per this many ms: a chatty command must not flood. */
#define PROGRESS_EVERY_MS 50
/* Output quoted in one notification. */
#define PROGRESS_QUOTE 256

void mcp_progress_start(struct mcp_progress *p, struct mcp_call *call)
{
    memset(p, 0, sizeof(*p));
    p->call = call;
    p->start_ms = sbxu_mono_ms();
    mcp_send_progress(call, 0, "started");
}

int mcp_progress_observe(void *userdata, int stream, const void *data, size_t len)
{
    struct mcp_progress *p = userdata;
    uint64_t now = sbxu_mono_ms();
    char message[PROGRESS_QUOTE + 64];
    size_t n = len < PROGRESS_QUOTE ? len : PROGRESS_QUOTE;
    double progress;

    if (now - p->last_ms < PROGRESS_EVERY_MS && p->last_ms)
        return 0;
    p->last_ms = now;
    /* Progress must grow with every notification: the elapsed ms, at least +1. */
    progress = (double)(now - p->start_ms);
    if (progress <= p->last_progress)
        progress = p->last_progress + 1;
    p->last_progress = progress;
    if (sbx_cli_utf8_valid(data, n))
        snprintf(message, sizeof(message), "%s: %.*s", stream == SBX_STDERR ? "stderr" : "stdout",
                 (int)n, (const char *)data);
    else
        snprintf(message, sizeof(message), "%s: %zu bytes", stream == SBX_STDERR ? "stderr" : "stdout", len);
    mcp_send_progress(p->call, progress, message);
    return 0;   /* a report never stops the command: the call's cancel does */
}
