/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jsonrpc.h - JSON-RPC 2.0 messages as MCP uses them: one object per
 * message (no batches since protocol revision 2025-06-18), ids that are
 * strings or integers. Depends on json-c only, so that the fuzz target
 * links it alone.
 */
#ifndef SBX_CLI_MCP_JSONRPC_H
#define SBX_CLI_MCP_JSONRPC_H

#include <stddef.h>
#include <json-c/json.h>

#define JSONRPC_PARSE_ERROR (-32700)
#define JSONRPC_INVALID_REQUEST (-32600)
#define JSONRPC_METHOD_NOT_FOUND (-32601)
#define JSONRPC_INVALID_PARAMS (-32602)
#define JSONRPC_INTERNAL_ERROR (-32603)
/* The server's own (-32000 to -32099): a resumed stream whose events are lost. */
#define JSONRPC_SERVER_ERROR (-32000)

enum mcp_msg_kind { MCP_MSG_REQUEST, MCP_MSG_NOTIFICATION, MCP_MSG_RESPONSE };

struct mcp_msg {
    int kind;
    json_object *root;      /* the whole message (owned) */
    json_object *id;        /* borrowed from root; NULL for a notification */
    const char *method;     /* borrowed; NULL for a response */
    json_object *params;    /* borrowed; NULL when absent */
};

/* Deepest nesting accepted: deeper input is a parse error, not a stack overflow. */
#define JSONRPC_MAX_DEPTH 64

/*
 * Parse one message of len bytes. Returns 0 with msg filled in, or a
 * JSON-RPC error code with *why set (and msg->id set when the message had
 * a usable id, for the error response). Release msg either way.
 */
int mcp_jsonrpc_parse(const char *data, size_t len, struct mcp_msg *msg, const char **why);
void mcp_msg_release(struct mcp_msg *msg);

/* New messages; each takes the reference of result/params, not of id. NULL on OOM. */
json_object *mcp_jsonrpc_response(json_object *id, json_object *result);
json_object *mcp_jsonrpc_error(json_object *id, int code, const char *message);
json_object *mcp_jsonrpc_notification(const char *method, json_object *params);

#endif
