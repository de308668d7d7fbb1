/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http_stream.c - a call's answer written as an event stream (SSE) on one
 * connection of the streamable HTTP transport: its events as they come,
 * with the ids of a resumable stream (replay.c), and what a client that
 * goes away leaves behind: a stream to resume, or a cancelled call.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http.h"
#include "jsonrpc.h"
#include "protocol.h"


/* The client went away: a resumable stream waits for a reader to resume
 * it (for --resume-window); any other call is cancelled at once (the
 * command killed, a run's sandbox destroyed) instead of left running for
 * nobody. */
void http_client_gone(struct http_request *req)
{
    if (req->gone)
        return;
    req->gone = 1;
    if (req->reading)
        mcp_stream_detach(req->st, req->gen);
    if (req->call_running && !(req->reading && mcp_stream_listed(req->st)) && !req->cancelled) {
        req->cancelled = 1;
        mcp_session_cancel_sink(req->session, req->st);
    }
}

/* Wait for the stream's next message (or its end), watching the client's socket. */
void http_wait_event(struct http_request *req)
{
    struct pollfd fds[2] = { { .fd = req->st->wake_fd, .events = POLLIN },
                             { .fd = req->sock, .events = POLLRDHUP } };
    uint64_t count;

    for (;;) {
        int n = poll(fds, req->gone || req->sock < 0 ? 1 : 2, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || (!req->gone && (fds[1].revents & (POLLRDHUP | POLLHUP | POLLERR)))) {
            http_client_gone(req);
            return;
        }
        if (fds[0].revents) {
            ssize_t ignored = read(req->st->wake_fd, &count, sizeof(count));
            (void)ignored;
            return;
        }
    }
}

int http_finished(struct http_request *req)
{
    int done;

    pthread_mutex_lock(&req->session->replay_lock);
    done = req->st->finished;
    pthread_mutex_unlock(&req->session->replay_lock);
    return done;
}

/* Wait for the end of the call (the messages it sends are kept). */
void http_wait_finished(struct http_request *req)
{
    while (!http_finished(req))
        http_wait_event(req);
}

/* Format one message as an SSE event into req->event, with the id "stream-index"
 * of a resumable stream. 0, or -1 out of memory. */
static int format_event(struct http_request *req, json_object *m, size_t index)
{
    size_t len;
    const char *text = json_object_to_json_string_length(
        m, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    char id[64] = "";

    free(req->event);
    req->event_off = 0;
    req->event_len = 0;
    if (req->st->no)
        snprintf(id, sizeof(id), "id: %lu-%zu\n", req->st->no, index);
    if (!text || !(req->event = malloc(len + 96)))
        return -1;
    req->event_len = (size_t)snprintf(req->event, len + 96, "%sevent: message\ndata: %s\n\n", id, text);
    return 0;
}

/*
 * What was lost cannot be replayed: the call's response becomes an error
 * (its request id, so that the client's call ends), and the call, whose
 * real response could no longer be told apart, is cancelled.
 */
static int lost_event(struct http_request *req, int abandoned)
{
    json_object *err = mcp_jsonrpc_error(req->st->request_id, JSONRPC_SERVER_ERROR, abandoned
        ? "SBX_E1060: the stream was not resumed within the server's --resume-window: the call was cancelled"
        : "SBX_E1060: the events after Last-Event-ID are no longer kept (the server's --replay-buffer): "
          "the call's result is lost");
    int rc;

    mcp_session_cancel_sink(req->session, req->st);
    mcp_stream_forget(req->st);
    if (!err)
        return -1;
    rc = format_event(req, err, 0);
    json_object_put(err);
    req->last = 1;
    return rc;
}

/*
 * The event stream of a call, written as its messages come: MHD calls this
 * on the connection's own thread (one per connection), which may wait. It
 * ends with the call, when the client goes away, or when another
 * connection resumes the stream.
 */
static ssize_t stream_read(void *cls, uint64_t offset, char *buf, size_t max)
{
    struct http_request *req = cls;

    (void)offset;
    for (;;) {
        json_object *m = NULL;
        int state;

        if (req->event_off < req->event_len) {
            size_t n = req->event_len - req->event_off;
            if (n > max)
                n = max;
            memcpy(buf, req->event + req->event_off, n);
            req->event_off += n;
            return (ssize_t)n;
        }
        if (req->last)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (req->gone)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        state = mcp_stream_next(req->st, req->gen, &req->pos, &m);
        switch (state) {
        case MCP_STREAM_EVENT:
            state = format_event(req, m, req->pos - 1);
            json_object_put(m);
            if (state != 0)
                http_client_gone(req);
            continue;
        case MCP_STREAM_LOST:
        case MCP_STREAM_ABANDONED:
            if (lost_event(req, state == MCP_STREAM_ABANDONED) != 0)
                http_client_gone(req);
            continue;
        case MCP_STREAM_END:
            /* All of it delivered: nothing to resume. */
            mcp_stream_forget(req->st);
            return MHD_CONTENT_READER_END_OF_STREAM;
        case MCP_STREAM_TAKEN:
            req->gone = 1;
            return MHD_CONTENT_READER_END_WITH_ERROR;
        default:
            http_wait_event(req);
        }
    }
}

enum MHD_Result http_respond_stream(struct MHD_Connection *conn, struct http_request *req,
                                      const char *session_id)
{
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_read,
                                                               req, NULL);
    enum MHD_Result ret;

    if (!r)
        return MHD_NO;
    mcp_stream_attach(req->st, &req->gen);
    req->reading = 1;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    MHD_add_response_header(r, SESSION_HEADER, session_id);
    ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}
