/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c - the messages of one HTTP answer, kept so that an event stream
 * can be resumed (MCP streamable HTTP, "Resumability and Redelivery").
 *
 * Every answer collects the messages of its request in a stream; a stream
 * that goes out as text/event-stream becomes resumable: it gets a number in
 * its session, each event the id "<stream>-<index>", and it stays in the
 * session when its client goes away before the end. A GET with
 * Last-Event-ID then continues it from the event after that id, on the new
 * connection: the events the client missed, then the rest as they come. No
 * event is sent twice on one stream, none of another stream is replayed.
 *
 * What a session keeps is bounded (--replay-buffer): past it the oldest
 * events are dropped, but never one a connected reader has not yet written.
 * A resume from before what is kept is told so (SBX_E1060) instead of
 * getting a stream with a hole. A call whose stream has no reader for
 * --resume-window is cancelled, as a call of a client that went away.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "server.h"
#include "protocol.h"
#include "replay.h"

/* Streams a session keeps for resumption at most, whatever their size. */
#define MAX_STREAMS 64

static size_t message_bytes(json_object *m)
{
    size_t len = 0;

    json_object_to_json_string_length(m, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    return len;
}

struct mcp_stream *mcp_stream_new(struct mcp_session *session, json_object *request_id)
{
    struct mcp_stream *st = calloc(1, sizeof(*st));

    if (!st)
        return NULL;
    st->session = session;
    st->refs = 1;
    if (!(st->queue = json_object_new_array()) ||
        (st->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
        json_object_put(st->queue);
        free(st);
        return NULL;
    }
    st->request_id = json_object_get(request_id);
    return st;
}

void mcp_stream_ref(struct mcp_stream *st)
{
    pthread_mutex_lock(&st->session->replay_lock);
    st->refs++;
    pthread_mutex_unlock(&st->session->replay_lock);
}

void mcp_stream_put(struct mcp_stream *st)
{
    int last;

    if (!st)
        return;
    pthread_mutex_lock(&st->session->replay_lock);
    last = --st->refs == 0;
    pthread_mutex_unlock(&st->session->replay_lock);
    if (!last)
        return;
    json_object_put(st->queue);
    json_object_put(st->request_id);
    close(st->wake_fd);
    free(st);
}

static void wake(struct mcp_stream *st)
{
    uint64_t one = 1;

    if (write(st->wake_fd, &one, sizeof(one)) != sizeof(one))
        abort();    /* an eventfd write only fails on overflow: cannot happen */
}

/* Take st out of its session's list (replay_lock held); the list's reference is the caller's. */
static void unlist(struct mcp_session *s, struct mcp_stream *st)
{
    for (struct mcp_stream **p = &s->streams; *p; p = &(*p)->next) {
        if (*p == st) {
            *p = st->next;
            s->replay_bytes -= st->bytes;
            s->n_streams--;
            st->listed = 0;
            return;
        }
    }
}

/* Drop the oldest events past the session's budget (replay_lock held). */
static void evict(struct mcp_session *s)
{
    size_t budget = s->server->config->replay_bytes;

    for (struct mcp_stream *st = s->streams; st && s->replay_bytes > budget; st = st->next) {
        /* A connected reader still has to write what it has not sent. */
        while (s->replay_bytes > budget && st->base < st->count && (!st->reader || st->base < st->sent)) {
            size_t n = message_bytes(json_object_array_get_idx(st->queue, 0));
            json_object_array_del_idx(st->queue, 0, 1);
            st->base++;
            st->bytes -= n;
            s->replay_bytes -= n;
        }
    }
}

void mcp_stream_send(void *userdata, json_object *message)
{
    struct mcp_stream *st = userdata;
    struct mcp_session *s = st->session;

    pthread_mutex_lock(&s->replay_lock);
    if (!message) {
        st->finished = 1;
    } else if (json_object_array_add(st->queue, json_object_get(message)) != 0) {
        json_object_put(message);
    } else {
        st->count++;
        if (st->listed) {
            size_t n = message_bytes(message);
            st->bytes += n;
            s->replay_bytes += n;
            evict(s);
        }
    }
    pthread_mutex_unlock(&s->replay_lock);
    wake(st);
    /* The end of the call: its thread is done with the stream. */
    if (!message)
        mcp_stream_put(st);
}

int mcp_stream_make_resumable(struct mcp_stream *st)
{
    struct mcp_session *s = st->session;

    if (!s->server->config->replay_bytes)
        return 0;
    pthread_mutex_lock(&s->replay_lock);
    /* At the cap, the oldest stream is forgotten (a resume of it is SBX_E1060). */
    if (s->n_streams >= MAX_STREAMS) {
        struct mcp_stream *old = s->streams;
        unlist(s, old);
        pthread_mutex_unlock(&s->replay_lock);
        mcp_stream_put(old);
        pthread_mutex_lock(&s->replay_lock);
    }
    st->no = ++s->next_stream;
    st->listed = 1;
    st->refs++;     /* the list's */
    for (size_t i = 0; i < json_object_array_length(st->queue); i++)
        st->bytes += message_bytes(json_object_array_get_idx(st->queue, i));
    s->replay_bytes += st->bytes;
    st->next = NULL;
    struct mcp_stream **tail = &s->streams;
    while (*tail)
        tail = &(*tail)->next;
    *tail = st;
    s->n_streams++;
    evict(s);
    pthread_mutex_unlock(&s->replay_lock);
    return 1;
}

int mcp_stream_listed(struct mcp_stream *st)
{
    int listed;

    pthread_mutex_lock(&st->session->replay_lock);
    listed = st->listed;
    pthread_mutex_unlock(&st->session->replay_lock);
    return listed;
}

void mcp_stream_attach(struct mcp_stream *st, unsigned *gen)
{
    pthread_mutex_lock(&st->session->replay_lock);
    st->reader = 1;
    *gen = ++st->reader_gen;   /* a reader before this one is done */
    pthread_mutex_unlock(&st->session->replay_lock);
    wake(st);
}

void mcp_stream_detach(struct mcp_stream *st, unsigned gen)
{
    pthread_mutex_lock(&st->session->replay_lock);
    if (st->reader_gen == gen) {
        st->reader = 0;
        st->detached_ms = sbxu_mono_ms();
    }
    pthread_mutex_unlock(&st->session->replay_lock);
}

int mcp_stream_next(struct mcp_stream *st, unsigned gen, size_t *pos, json_object **message)
{
    struct mcp_session *s = st->session;
    int state;

    *message = NULL;
    pthread_mutex_lock(&s->replay_lock);
    if (st->reader_gen != gen) {
        state = MCP_STREAM_TAKEN;
    } else if (*pos < st->base) {
        state = MCP_STREAM_LOST;
    } else if (*pos < st->count) {
        *message = json_object_get(json_object_array_get_idx(st->queue, *pos - st->base));
        (*pos)++;
        if (*pos > st->sent)
            st->sent = *pos;
        state = MCP_STREAM_EVENT;
    } else if (st->finished) {
        /* A call cancelled for want of a reader sent no response: say so. */
        state = st->given_up ? MCP_STREAM_ABANDONED : MCP_STREAM_END;
    } else {
        state = MCP_STREAM_WAIT;
    }
    pthread_mutex_unlock(&s->replay_lock);
    /* The wake this reader may have taken was for the one that took over. */
    if (state == MCP_STREAM_TAKEN)
        wake(st);
    return state;
}

void mcp_stream_forget(struct mcp_stream *st)
{
    struct mcp_session *s = st->session;
    int listed;

    pthread_mutex_lock(&s->replay_lock);
    listed = st->listed;
    if (listed)
        unlist(s, st);
    pthread_mutex_unlock(&s->replay_lock);
    if (listed)
        mcp_stream_put(st);
}

int mcp_stream_find(struct mcp_session *s, const char *last_event_id, struct mcp_stream **out,
                    size_t *pos)
{
    unsigned long no;
    size_t index;
    char end;
    int rc = SBX_E_MCP_STREAM_LOST;

    *out = NULL;
    if (sscanf(last_event_id, "%lu-%zu%c", &no, &index, &end) != 2)
        return rc;
    pthread_mutex_lock(&s->replay_lock);
    for (struct mcp_stream *st = s->streams; st; st = st->next) {
        if (st->no != no || index >= st->count)
            continue;
        st->refs++;
        *out = st;
        *pos = index + 1;
        rc = SBX_OK;
        break;
    }
    pthread_mutex_unlock(&s->replay_lock);
    return rc;
}

void mcp_replay_reap(struct mcp_session *s, uint64_t now_ms)
{
    uint64_t window = s->server->config->resume_window_ms;
    struct mcp_stream *stale[MAX_STREAMS];
    size_t n = 0;

    pthread_mutex_lock(&s->replay_lock);
    for (struct mcp_stream *st = s->streams; st && n < MAX_STREAMS; st = st->next) {
        if (!st->reader && !st->finished && !st->given_up && now_ms - st->detached_ms >= window) {
            st->given_up = 1;
            st->refs++;
            stale[n++] = st;
        }
    }
    pthread_mutex_unlock(&s->replay_lock);
    /* Cancelling takes the session's lock: not under the replay lock a call's sends take. */
    for (size_t i = 0; i < n; i++) {
        mcp_session_cancel_sink(s, stale[i]);
        mcp_stream_put(stale[i]);
    }
}

void mcp_replay_release(struct mcp_session *s)
{
    for (;;) {
        pthread_mutex_lock(&s->replay_lock);
        struct mcp_stream *st = s->streams;
        if (st)
            unlist(s, st);
        pthread_mutex_unlock(&s->replay_lock);
        if (!st)
            break;
        mcp_stream_put(st);
    }
}
