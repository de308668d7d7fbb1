/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A scripted HTTP server on 127.0.0.1 for the lib/ tests (a thread
 * of the test): it answers the i-th connection's request with script[i]
 * (the last one repeats), each on a connection of its own.
 */
#ifndef SBXU_TEST_SCRIPTED_SERVER_H
#define SBXU_TEST_SCRIPTED_SERVER_H

#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loopback.h"

/* The server: answers the i-th request with script[i] (the last one repeats). */
typedef struct server {
    int fd;
    int port;
    const char *const *script;
    long listen_after_ms;          /* bound but refusing until then */
    atomic_long answer_after_ms;   /* each answer this long after its request */
    atomic_int requests;
    char last_request[4096];
    pthread_t thread;
} server;

/* Read one request (head and Content-Length body) into buf. */
static void read_request(int c, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    while (n + 1 < size) {
        ssize_t got = read(c, buf + n, size - n - 1);
        if (got <= 0)
            break;
        n += (size_t)got;
        buf[n] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (!end)
            continue;
        char *cl = strcasestr(buf, "\r\nContent-Length:");
        size_t want = cl && cl < end ? (size_t)strtoul(cl + 17, NULL, 10) : 0;
        if (n >= (size_t)(end + 4 - buf) + want)
            break;
    }
}

static void *serve(void *ud)
{
    server *s = ud;
    if (s->listen_after_ms) {
        usleep((useconds_t)s->listen_after_ms * 1000);
        if (listen(s->fd, 16) != 0)
            return NULL;    /* the test is over and closed the socket */
    }
    for (;;) {
        int c = accept(s->fd, NULL, NULL);
        if (c < 0)
            return NULL;
        int i = atomic_fetch_add(&s->requests, 1);
        read_request(c, s->last_request, sizeof(s->last_request));
        size_t k = 0;
        while (s->script[k + 1] && k < (size_t)i)
            k++;
        const char *body = s->script[k];
        /* "ECHO" answers 401 with the request's own head, as some servers do. */
        char out[8192];
        if (strcmp(body, "ECHO") == 0)
            snprintf(out, sizeof(out),
                     "HTTP/1.1 401 Unauthorized\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                     strlen(s->last_request), s->last_request);
        else
            snprintf(out, sizeof(out), "%s", body);
        long delay = atomic_load(&s->answer_after_ms);
        if (delay)
            usleep((useconds_t)delay * 1000);
        ssize_t w = write(c, out, strlen(out));
        (void)w;
        close(c);
    }
}

static void server_start(server *s, const char *const *script, long listen_after_ms)
{
    memset(s, 0, sizeof(*s));
    s->script = script;
    s->listen_after_ms = listen_after_ms;
    s->fd = loopback_bind(&s->port);
    /* Listening before the client can try, unless the test wants refusals first. */
    if (!listen_after_ms)
        ck_assert_int_eq(listen(s->fd, 16), 0);
    ck_assert_int_eq(pthread_create(&s->thread, NULL, serve, s), 0);
}

static void server_stop(server *s)
{
    shutdown(s->fd, SHUT_RDWR);
    close(s->fd);
    pthread_join(s->thread, NULL);
}

#endif
