/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/progress.h - progress notifications of a running command.
 */
#ifndef SBX_CLI_MCP_PROGRESS_H
#define SBX_CLI_MCP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "server.h"

/*
 * progress.c: the output of a command run for a call with a progressToken,
 * reported as it comes. The library captures it (sbx_exec_ext()); this
 * only observes.
 */
struct mcp_progress {
    struct mcp_call *call;
    uint64_t start_ms, last_ms;
    double last_progress;
};
/* Start the clock and send "started". */
void mcp_progress_start(struct mcp_progress *p, struct mcp_call *call);
/* An sbx_exec_opts observer (userdata: the mcp_progress); returns 0. */
int mcp_progress_observe(void *userdata, int stream, const void *data, size_t len);

#endif
