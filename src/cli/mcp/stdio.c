/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stdio.c - the stdio transport: one JSON-RPC message per line on stdin,
 * responses and notifications one per line on stdout (nothing else is
 * written there; diagnostics go to stderr). The session ends at EOF or on a
 * termination signal, and every sandbox it opened is destroyed first.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sbxu/file.h>

#include "jsonrpc.h"
#include "server.h"
#include "protocol.h"
#include "../interrupt.h"
#include "../common/error.h"

struct stdout_sink {
    pthread_mutex_t lock;       /* one message at a time, whole */
    int broken;                 /* stdout closed: nothing more can go out */
};

static void send_line(void *userdata, json_object *message)
{
    struct stdout_sink *sink = userdata;
    size_t len;
    const char *text;

    if (!message)
        return;     /* a call is over: nothing to do for stdout */
    text = json_object_to_json_string_length(
        message, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);

    pthread_mutex_lock(&sink->lock);
    if (!sink->broken && (sbxu_write_all(STDOUT_FILENO, text, len) ||
                          sbxu_write_all(STDOUT_FILENO, "\n", 1)))
        sink->broken = 1;
    pthread_mutex_unlock(&sink->lock);
}

struct line_reader {
    char *buf;
    size_t len, cap;
    int overlong;               /* dropping the rest of a line past max */
};

static void too_large(struct stdout_sink *sink)
{
    mcp_send_error(send_line, sink, NULL, JSONRPC_INVALID_REQUEST,
                   "SBX_E1031: the message is larger than the server's --max-request");
}

/* Hand every complete line in the buffer to the session. */
static void take_lines(struct line_reader *r, struct mcp_session *s, struct stdout_sink *sink,
                       size_t max)
{
    size_t start = 0;

    for (;;) {
        char *nl = memchr(r->buf + start, '\n', r->len - start);
        if (!nl)
            break;
        size_t n = (size_t)(nl - (r->buf + start));
        if (r->overlong) {
            r->overlong = 0;
        } else if (n > max) {
            /* A whole line can arrive in one read: its size is checked too. */
            too_large(sink);
        } else if (n > 0 && !(n == 1 && r->buf[start] == '\r')) {
            mcp_session_handle(s, r->buf + start, n, send_line, sink, 1);
        }
        start += n + 1;
    }
    memmove(r->buf, r->buf + start, r->len - start);
    r->len -= start;
    if (r->len > max) {
        /* Too long to be a message we accept: answer once, drop to the newline. */
        if (!r->overlong)
            too_large(sink);
        r->overlong = 1;
        r->len = 0;
    }
}

int mcp_serve_stdio(struct mcp_server *server)
{
    struct stdout_sink sink = { .broken = 0 };
    struct line_reader r = { 0 };
    size_t max = server->config->max_request;
    struct mcp_session *s;
    int status = 0;

    pthread_mutex_init(&sink.lock, NULL);
    s = mcp_session_new(server, "stdio");
    r.cap = 65536;
    r.buf = malloc(r.cap);
    if (!s || !r.buf) {
        free(r.buf);
        if (s)
            mcp_session_close(s);
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    }
    for (;;) {
        struct pollfd fds[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
                                 { .fd = sbx_cli_interrupt_fd(), .events = POLLIN } };
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            status = sbx_cli_error(SBX_E_SYSTEM, "poll: %s", strerror(errno));
            break;
        }
        if (fds[1].revents)
            break;      /* SIGTERM, SIGINT, SIGHUP */
        if (r.cap - r.len < 4096) {
            size_t ncap = r.cap * 2;
            char *nbuf = realloc(r.buf, ncap);
            if (!nbuf) {
                status = sbx_cli_error(SBX_E_NOMEM, "out of memory reading a message");
                break;
            }
            r.buf = nbuf, r.cap = ncap;
        }
        ssize_t n = read(STDIN_FILENO, r.buf + r.len, r.cap - r.len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            status = sbx_cli_error(SBX_E_SYSTEM, "reading stdin: %s", strerror(errno));
            break;
        }
        if (n == 0) {
            /* EOF: a last line without its newline is still a message. */
            if (r.len > max && !r.overlong)
                too_large(&sink);
            else if (r.len > 0 && !r.overlong)
                mcp_session_handle(s, r.buf, r.len, send_line, &sink, 1);
            break;
        }
        r.len += (size_t)n;
        take_lines(&r, s, &sink, max);
    }
    free(r.buf);
    mcp_session_close(s);
    pthread_mutex_destroy(&sink.lock);
    if (sbx_cli_interrupted())
        return 128 + sbx_cli_interrupted();
    return status;
}
