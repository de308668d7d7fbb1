/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http.h - the streamable HTTP transport's requests (http.c), shared with
 * the writing of a call's answer as an event stream (http_stream.c).
 */
#ifndef SBX_CLI_MCP_HTTP_H
#define SBX_CLI_MCP_HTTP_H

#include <microhttpd.h>

#include "server.h"
#include "replay.h"

#define SESSION_HEADER "Mcp-Session-Id"

/*
 * One HTTP request: its body, and the stream of what the session sends
 * back for it (the sink of its call, which may outlive the request when
 * the stream is resumable), or, for a GET with Last-Event-ID, the stream
 * it resumes.
 */
struct http_request {
    char *body;
    size_t len;
    int too_big;
    struct mcp_session *session; /* referenced (http_refs) until the request is completed */
    struct mcp_stream *st;      /* referenced; NULL before the session is known */
    int call_running;           /* a call's thread may still send to st */
    int reading;                /* this connection writes st as an event stream */
    unsigned gen;               /* as st's reader */
    size_t pos;                 /* the next event of st to write */
    int sock;                   /* the client's socket (for a hang-up), -1 if unknown */
    int gone;                   /* the client went away */
    int cancelled;              /* its call was cancelled for that */
    int last;                   /* the event being written ends the stream */
    char *event;                /* the bytes of the event being written */
    size_t event_len, event_off;
};

/* The client went away: a resumable stream waits for a reader to resume
 * it (for --resume-window); any other call is cancelled at once. */
void http_client_gone(struct http_request *req);
/* Wait for the stream's next message (or its end), watching the client's socket. */
void http_wait_event(struct http_request *req);
int http_finished(struct http_request *req);
/* Wait for the end of the call (the messages it sends are kept). */
void http_wait_finished(struct http_request *req);
/* Answer with req's stream as text/event-stream, req its reader from req->pos. */
enum MHD_Result http_respond_stream(struct MHD_Connection *conn, struct http_request *req,
                                    const char *session_id);

#endif
