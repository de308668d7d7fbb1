/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay (relay.h): per direction, a pipe; splice(2) moves what the
 * source socket holds into it and from it on to the other socket, so the
 * bytes stay in the kernel. One direction's wake-up moves what is there
 * until either end would block (TURN_BYTES at most, so that the other
 * direction and the rest of the proxy get their turn). Backpressure: while
 * a pipe holds bytes its source is not read; the sockets' own buffers and
 * TCP windows hold the rest. Every descriptor is non-blocking.
 */
#include "config.h" /* _GNU_SOURCE: splice, pipe2, F_SETPIPE_SZ */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/clock.h>

#include "relay.h"

/* Asked for per direction: the default size, asked for all the same. What
 * a connection holds is bounded by this and its sockets' buffers (proxy.c). */
#define PIPE_BYTES (64 * 1024)
#define TURN_BYTES (4 * 1024 * 1024)   /* the most one direction moves per wake-up */

typedef struct way {
    px_relay *relay;
    int from, to;
    int pipe[2];
    size_t held, cap;  /* bytes in the pipe; its size */
    int ended;         /* from sent its end: to gets it once the pipe is empty */
    int shut;          /* to got the end */
    struct event *rd, *wr;
} way;

struct px_relay {
    way w[2];
    struct event *idle;
    int idle_s;
    time_t last;       /* when a byte last moved, on the monotonic clock */
    void (*done)(void *arg, const char *why);
    void *arg;
};

/* Move bytes from->pipe->to until both would block: NULL, or what failed. */
static const char *pump(way *w)
{
    size_t moved = 0;
    for (;;) {
        int progress = 0;
        if (!w->ended && w->held < w->cap) {
            ssize_t n = splice(w->from, NULL, w->pipe[1], NULL, w->cap - w->held,
                               SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (n > 0) {
                w->held += (size_t)n;
                progress = 1;
            } else if (n == 0) {
                w->ended = 1;
            } else if (errno != EAGAIN && errno != EINTR) {
                return "a side failed"; /* a reset, most likely */
            }
        }
        if (w->held) {
            ssize_t n = splice(w->pipe[0], NULL, w->to, NULL, w->held,
                               SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (n > 0) {
                w->held -= (size_t)n;
                moved += (size_t)n;
                progress = 1;
            } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
                return "a side failed"; /* it closed, or reset */
            }
        }
        if (progress)
            w->relay->last = (time_t)(sbxu_mono_ms() / 1000);
        if (!progress || moved >= TURN_BYTES)
            break;
    }
    if (w->ended && !w->held && !w->shut) {
        /* Its peer may still answer: only this direction ends. */
        if (shutdown(w->to, SHUT_WR) < 0 && errno != ENOTCONN)
            return "shutdown failed";
        w->shut = 1;
    }
    /* Wait for room on to while the pipe holds bytes, else for bytes on
     * from (level-triggered: bytes left behind by TURN_BYTES wake it again). */
    if (w->held) {
        if (event_del(w->rd) < 0 || event_add(w->wr, NULL) < 0)
            return "event_add failed";
    } else {
        if (event_del(w->wr) < 0 || (!w->ended && event_add(w->rd, NULL) < 0))
            return "event_add failed";
        if (w->ended && event_del(w->rd) < 0)
            return "event_del failed";
    }
    return NULL;
}

static void ready(evutil_socket_t fd, short what, void *arg)
{
    way *w = arg;
    px_relay *r = w->relay;
    (void)fd;
    (void)what;
    const char *why = pump(w);
    if (why || (r->w[0].shut && r->w[1].shut))
        r->done(r->arg, why); /* may free r */
}

static void idle_check(evutil_socket_t fd, short what, void *arg)
{
    px_relay *r = arg;
    (void)fd;
    (void)what;
    time_t quiet = (time_t)(sbxu_mono_ms() / 1000) - r->last;
    struct timeval left = { r->idle_s - quiet, 0 };
    if (quiet >= r->idle_s || event_add(r->idle, &left) < 0)
        r->done(r->arg, "idle");
}

px_relay *px_relay_new(struct event_base *base, int a, int b, int idle_s,
                       void (*done)(void *arg, const char *why), void *arg)
{
    px_relay *r = calloc(1, sizeof *r);
    int e = ENOMEM;
    if (!r)
        return NULL;
    r->idle_s = idle_s;
    r->last = (time_t)(sbxu_mono_ms() / 1000);
    r->done = done;
    r->arg = arg;
    for (int i = 0; i < 2; i++) {
        way *w = &r->w[i];
        w->relay = r;
        w->from = i ? b : a;
        w->to = i ? a : b;
        w->pipe[0] = w->pipe[1] = -1;
    }
    for (int i = 0; i < 2; i++) {
        way *w = &r->w[i];
        if (pipe2(w->pipe, O_NONBLOCK | O_CLOEXEC) < 0) {
            e = errno;
            goto fail;
        }
        /* Beyond the user's pipe quota (fs.pipe-user-pages-soft) a size is
         * refused, and the pipe keeps what it has (one page at least). */
        (void)fcntl(w->pipe[1], F_SETPIPE_SZ, PIPE_BYTES);
        int size = fcntl(w->pipe[1], F_GETPIPE_SZ);
        w->cap = size > 0 ? (size_t)size : 4096;
        w->rd = event_new(base, w->from, EV_READ | EV_PERSIST, ready, w);
        w->wr = event_new(base, w->to, EV_WRITE | EV_PERSIST, ready, w);
        if (!w->rd || !w->wr || event_add(w->rd, NULL) < 0)
            goto fail;
    }
    struct timeval t = { idle_s, 0 };
    r->idle = evtimer_new(base, idle_check, r);
    if (!r->idle || event_add(r->idle, &t) < 0)
        goto fail;
    return r;
fail:
    px_relay_free(r);
    errno = e;
    return NULL;
}

void px_relay_free(px_relay *r)
{
    if (!r)
        return;
    for (int i = 0; i < 2; i++) {
        way *w = &r->w[i];
        if (w->rd)
            event_free(w->rd);
        if (w->wr)
            event_free(w->wr);
        for (int j = 0; j < 2; j++)
            if (w->pipe[j] >= 0)
                close(w->pipe[j]);
    }
    if (r->idle)
        event_free(r->idle);
    free(r);
}
