/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/protocol.h - JSON-RPC messages of a session in, responses and
 * notifications out.
 */
#ifndef SBX_CLI_MCP_PROTOCOL_H
#define SBX_CLI_MCP_PROTOCOL_H

#include <stddef.h>
#include <json-c/json.h>

#include "server.h"

/*
 * protocol.c: one message in; its response, if any, and the notifications
 * of the work it started go out through send. With threaded, a tools/call
 * runs on a thread of its own and this returns 1 at once (the next message
 * may cancel it; the sink gets NULL when it is over); else, and for every
 * other message, the work is done when this returns 0.
 */
int mcp_session_handle(struct mcp_session *session, const char *data, size_t len,
                       mcp_send_fn send, void *userdata, int threaded);
/* Cancel every call of every session (the server is stopping). */
void mcp_server_cancel_all(struct mcp_server *server);
/* Cancel every call of the session (DELETE). */
void mcp_session_cancel_calls(struct mcp_session *session);
/* Cancel the calls whose sink has this userdata (an HTTP client that went away). */
void mcp_session_cancel_sink(struct mcp_session *session, void *userdata);
/* Send a JSON-RPC error response (id may be NULL for null). */
void mcp_send_error(mcp_send_fn send, void *userdata, json_object *id, int code,
                    const char *message);
/* Send a notifications/progress for a call that asked for it. */
void mcp_send_progress(struct mcp_call *call, double progress, const char *message);

#endif
