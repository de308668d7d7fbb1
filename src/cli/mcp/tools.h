/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/tools.h - the tools: tools/call and tools/list.
 */
#ifndef SBX_CLI_MCP_TOOLS_H
#define SBX_CLI_MCP_TOOLS_H

#include <json-c/json.h>

#include "server.h"

/* tools.c: tools/call; returns the CallToolResult (never NULL but on OOM). */
json_object *mcp_tools_call(struct mcp_session *session, struct mcp_call *call,
                            const char *name, json_object *arguments, int *known);
/* schema.c: the tools/list result. */
json_object *mcp_tools_list(void);

#endif
