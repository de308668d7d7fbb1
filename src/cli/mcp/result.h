/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/result.h - CallToolResult objects.
 */
#ifndef SBX_CLI_MCP_RESULT_H
#define SBX_CLI_MCP_RESULT_H

#include <json-c/json.h>

/* result.c: CallToolResult objects. */
/* structured (taken) as structuredContent, and serialized as the text content. */
json_object *mcp_result_ok(json_object *structured);
/* A failure of sandboxio as an isError result with the code, message and docs URL. */
json_object *mcp_result_error(int code, const char *message);
/* Like mcp_result_error() with the library's last detail for code. */
json_object *mcp_result_lib_error(int code, const char *context);

#endif
