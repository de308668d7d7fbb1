/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/replay.h - event streams of HTTP answers, kept for a reader that
 * resumes them.
 */
#ifndef SBX_CLI_MCP_REPLAY_H
#define SBX_CLI_MCP_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "server.h"

/*
 * replay.c: the messages of one HTTP answer (the sink of its call), kept
 * for a reader and, once made resumable, for a reader that resumes it
 * (GET with Last-Event-ID). Event i of stream n has the id "n-i".
 */
struct mcp_stream {
    struct mcp_session *session;
    int refs;                   /* the request's, the call's thread's, the session list's, readers' */
    unsigned long no;           /* its number in the session, once resumable */
    json_object *request_id;    /* of the request it answers (a reference; may be NULL) */
    json_object *queue;         /* the events kept: queue[i] is event base + i */
    size_t base, count;         /* the first kept; all ever queued */
    size_t bytes;               /* of the kept events, once listed */
    size_t sent;                /* events a reader has taken */
    int finished;               /* the call's thread sent its NULL */
    int listed;                 /* in session->streams */
    int reader;                 /* a connection is writing it */
    unsigned reader_gen;        /* the reader that may write it; an older one stops */
    int given_up;               /* its call was cancelled for want of a reader */
    uint64_t detached_ms;       /* when its last reader went away */
    int wake_fd;                /* eventfd: an event was queued, or the end */
    struct mcp_stream *next;
};
enum { MCP_STREAM_EVENT, MCP_STREAM_WAIT, MCP_STREAM_END, MCP_STREAM_LOST, MCP_STREAM_ABANDONED,
       MCP_STREAM_TAKEN };
struct mcp_stream *mcp_stream_new(struct mcp_session *session, json_object *request_id);
void mcp_stream_ref(struct mcp_stream *st);
void mcp_stream_put(struct mcp_stream *st);
/* The sink (mcp_send_fn) of a call; its NULL drops the reference the caller took for it. */
void mcp_stream_send(void *userdata, json_object *message);
/* Give it a number and keep it in the session (1), or 0 when --replay-buffer is 0. */
int mcp_stream_make_resumable(struct mcp_stream *st);
/* Resumable, and not yet delivered to its end or forgotten. */
int mcp_stream_listed(struct mcp_stream *st);
/* A reader takes it over (*gen: its generation) and lets it go again. */
void mcp_stream_attach(struct mcp_stream *st, unsigned *gen);
void mcp_stream_detach(struct mcp_stream *st, unsigned gen);
/* The event at *pos (then *pos is the next), or what else there is: MCP_STREAM_*. */
int mcp_stream_next(struct mcp_stream *st, unsigned gen, size_t *pos, json_object **message);
/* Out of the session: delivered to the end, or lost. */
void mcp_stream_forget(struct mcp_stream *st);
/* The stream of a Last-Event-ID, referenced, and the position after it; SBX_E_MCP_STREAM_LOST. */
int mcp_stream_find(struct mcp_session *s, const char *last_event_id, struct mcp_stream **out,
                    size_t *pos);
/* Cancel the calls whose stream had no reader for --resume-window. */
void mcp_replay_reap(struct mcp_session *s, uint64_t now_ms);
/* The session ends: forget its streams. */
void mcp_replay_release(struct mcp_session *s);

#endif
