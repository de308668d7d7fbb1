/* SPDX-License-Identifier: Apache-2.0 */
/*
 * session.c - one client's sandboxes: a table under ids nobody else can
 * guess, a limit on how many are open (the session's and the whole
 * server's, which run's sandboxes count in too), the idle TTL, their destruction
 * when the session ends. A sandbox in use by a call is never destroyed
 * under it: dropping it takes it out of the table, and the last call using
 * it destroys it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "replay.h"

static struct mcp_session *session_alloc(struct mcp_server *server, const char *id)
{
    struct mcp_session *s = calloc(1, sizeof(*s));

    if (!s)
        return NULL;
    s->server = server;
    snprintf(s->id, sizeof(s->id), "%s", id);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->calls_done, NULL);
    pthread_mutex_init(&s->replay_lock, NULL);
    s->last_seen_ms = sbxu_mono_ms();
    return s;
}

static void session_free(struct mcp_session *s)
{
    pthread_mutex_destroy(&s->replay_lock);
    pthread_cond_destroy(&s->calls_done);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

struct mcp_session *mcp_session_new(struct mcp_server *server, const char *id)
{
    struct mcp_session *s = session_alloc(server, id);

    if (!s)
        return NULL;
    pthread_mutex_lock(&server->lock);
    s->next = server->sessions;
    server->sessions = s;
    pthread_mutex_unlock(&server->lock);
    return s;
}

/* Counted and linked under one lock: parallel initializes cannot pass the cap together. */
int mcp_session_new_http(struct mcp_session **out, struct mcp_server *server, const char *id)
{
    struct mcp_session *s = session_alloc(server, id);
    size_t open = 0;

    *out = NULL;
    if (!s)
        return SBX_E_NOMEM;
    s->http = 1;
    s->http_refs = 1;
    pthread_mutex_lock(&server->lock);
    for (struct mcp_session *o = server->sessions; o; o = o->next)
        open += o->http;
    if (open >= server->config->max_sessions) {
        pthread_mutex_unlock(&server->lock);
        session_free(s);
        return SBX_E_MCP_SESSION_LIMIT;
    }
    s->next = server->sessions;
    server->sessions = s;
    pthread_mutex_unlock(&server->lock);
    *out = s;
    return SBX_OK;
}

int mcp_server_reserve(struct mcp_server *server)
{
    int rc = SBX_OK;

    pthread_mutex_lock(&server->boxes_lock);
    if (server->open_boxes >= server->config->max_total_sandboxes)
        rc = SBX_E_MCP_SANDBOX_LIMIT;
    else
        server->open_boxes++;
    pthread_mutex_unlock(&server->boxes_lock);
    return rc;
}

void mcp_server_unreserve(struct mcp_server *server, size_t n)
{
    pthread_mutex_lock(&server->boxes_lock);
    server->open_boxes -= n;
    pthread_mutex_unlock(&server->boxes_lock);
}

static void box_free(struct mcp_box *box)
{
    sbx_sandbox_free(box->sandbox);
    free(box);
}

void mcp_session_close(struct mcp_session *s)
{
    struct mcp_server *server = s->server;
    struct mcp_box *boxes;

    pthread_mutex_lock(&server->lock);
    for (struct mcp_session **p = &server->sessions; *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    pthread_mutex_unlock(&server->lock);

    pthread_mutex_lock(&s->lock);
    s->closing = 1;
    /* Calls still running are told to stop; their sandboxes go when they end. */
    for (struct mcp_call *c = s->calls; c; c = c->next) {
        c->cancelled = 1;
        sbx_cancel_trigger(c->cancel);
    }
    while (s->running > 0)
        pthread_cond_wait(&s->calls_done, &s->lock);
    boxes = s->boxes;
    s->boxes = NULL;
    pthread_mutex_unlock(&s->lock);
    /* No call runs: every place taken is a sandbox of the table, or a doomed one gone. */
    mcp_server_unreserve(server, s->open_boxes);

    while (boxes) {
        struct mcp_box *next = boxes->next;
        box_free(boxes);
        boxes = next;
    }
    mcp_replay_release(s);
    session_free(s);
}

void mcp_session_reap(struct mcp_session *s, uint64_t now_ms)
{
    uint64_t ttl = s->server->config->idle_ttl_ms;
    struct mcp_box *dead = NULL;
    size_t n = 0;

    if (!ttl)
        return;
    pthread_mutex_lock(&s->lock);
    for (struct mcp_box **p = &s->boxes; *p;) {
        struct mcp_box *b = *p;
        if (b->refs == 0 && now_ms - b->last_used_ms >= ttl) {
            *p = b->next;
            b->next = dead;
            dead = b;
            s->open_boxes--;
            n++;
        } else {
            p = &b->next;
        }
    }
    pthread_mutex_unlock(&s->lock);
    mcp_server_unreserve(s->server, n);
    while (dead) {
        struct mcp_box *next = dead->next;
        box_free(dead);
        dead = next;
    }
}

int mcp_session_reserve(struct mcp_session *s, const char **what)
{
    int rc = SBX_OK;

    /* One lock at a time: the reaper takes a session's under the server's. */
    *what = "session";
    pthread_mutex_lock(&s->lock);
    if (s->open_boxes >= s->server->config->max_sandboxes)
        rc = SBX_E_MCP_SANDBOX_LIMIT;
    else
        s->open_boxes++;
    pthread_mutex_unlock(&s->lock);
    if (rc == SBX_OK && (rc = mcp_server_reserve(s->server)) != SBX_OK) {
        *what = "server";
        pthread_mutex_lock(&s->lock);
        s->open_boxes--;
        pthread_mutex_unlock(&s->lock);
    }
    return rc;
}

void mcp_session_unreserve(struct mcp_session *s)
{
    pthread_mutex_lock(&s->lock);
    s->open_boxes--;
    pthread_mutex_unlock(&s->lock);
    mcp_server_unreserve(s->server, 1);
}

int mcp_session_add_box(struct mcp_session *s, sbx_sandbox *sandbox, struct mcp_box **out)
{
    struct mcp_box *box = calloc(1, sizeof(*box));

    *out = NULL;
    if (!box)
        return SBX_E_NOMEM;
    if (mcp_random_id(box->id, sizeof(box->id), "sbx-") != 0) {
        free(box);
        return SBX_E_SYSTEM;
    }
    box->sandbox = sandbox;
    box->refs = 1;
    box->last_used_ms = sbxu_mono_ms();
    pthread_mutex_lock(&s->lock);
    box->next = s->boxes;
    s->boxes = box;
    pthread_mutex_unlock(&s->lock);
    *out = box;
    return SBX_OK;
}

int mcp_session_get_box(struct mcp_session *s, const char *id, struct mcp_box **out)
{
    int rc = SBX_E_MCP_NO_SANDBOX;

    *out = NULL;
    pthread_mutex_lock(&s->lock);
    for (struct mcp_box *b = s->boxes; b; b = b->next) {
        if (strcmp(b->id, id) == 0) {
            b->refs++;
            b->last_used_ms = sbxu_mono_ms();
            *out = b;
            rc = SBX_OK;
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void mcp_session_put_box(struct mcp_session *s, struct mcp_box *box)
{
    int last;

    pthread_mutex_lock(&s->lock);
    box->last_used_ms = sbxu_mono_ms();
    last = --box->refs == 0 && box->doomed;
    pthread_mutex_unlock(&s->lock);
    if (last)
        box_free(box);
}

int mcp_session_drop_box(struct mcp_session *s, const char *id)
{
    struct mcp_box *found = NULL;
    int now = 0;

    pthread_mutex_lock(&s->lock);
    for (struct mcp_box **p = &s->boxes; *p; p = &(*p)->next) {
        if (strcmp((*p)->id, id) == 0) {
            found = *p;
            *p = found->next;
            found->doomed = 1;
            now = found->refs == 0;
            s->open_boxes--;
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (!found)
        return SBX_E_MCP_NO_SANDBOX;
    mcp_server_unreserve(s->server, 1);
    if (now) {
        int rc = sbx_sandbox_destroy(found->sandbox);
        box_free(found);
        return rc;
    }
    return SBX_OK;
}
