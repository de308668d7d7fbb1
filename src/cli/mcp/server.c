/* SPDX-License-Identifier: Apache-2.0 */
/*
 * server.c - what all sessions share: the library client, the tool list,
 * the list of sessions, ids, the clock, and the reaper that destroys
 * sandboxes left idle past the TTL.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server.h"
#include "protocol.h"
#include "tools.h"
#include "replay.h"

const char *const mcp_protocol_versions[] = { "2025-11-25", "2025-06-18", "2025-03-26", NULL };

int mcp_random_id(char *buf, size_t size, const char *prefix)
{
    unsigned char bytes[16];
    size_t got = 0, plen = strlen(prefix);

    if (size < plen + 2 * sizeof(bytes) + 1)
        return -1;
    while (got < sizeof(bytes)) {
        ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    memcpy(buf, prefix, plen);
    for (size_t i = 0; i < sizeof(bytes); i++)
        snprintf(buf + plen + 2 * i, 3, "%02x", bytes[i]);
    return 0;
}

int mcp_server_init(struct mcp_server *server, const struct mcp_config *config)
{
    int rc;

    memset(server, 0, sizeof(*server));
    server->config = config;
    pthread_mutex_init(&server->lock, NULL);
    pthread_mutex_init(&server->boxes_lock, NULL);
    pthread_cond_init(&server->wake, NULL);
    server->tools = mcp_tools_list();
    if (!server->tools)
        return SBX_E_NOMEM;
    rc = sbx_client_new(&server->client);
    if (rc == SBX_OK && config->pool)
        rc = sbx_pool_new(&server->pool, server->client, config->dsn, config->po.policy, config->pool);
    return rc;
}

/*
 * Take the HTTP sessions no request used for the session TTL out of the
 * list (server->lock held): a client that went away without DELETE. No
 * request holds them, so none can be running a call.
 */
static struct mcp_session *expired_sessions(struct mcp_server *server, uint64_t now)
{
    uint64_t ttl = server->config->session_ttl_ms;
    struct mcp_session *expired = NULL;

    for (struct mcp_session **p = &server->sessions; ttl && *p;) {
        struct mcp_session *s = *p;
        uint64_t seen;

        pthread_mutex_lock(&s->lock);
        seen = s->last_seen_ms;
        pthread_mutex_unlock(&s->lock);
        if (s->http && !s->http_refs && !s->http_deleted && now - seen >= ttl) {
            s->http_deleted = 1;    /* find_session() no longer sees it */
            *p = s->next;
            s->next = expired;
            expired = s;
        } else {
            p = &s->next;
        }
    }
    return expired;
}

static void *reaper(void *arg)
{
    struct mcp_server *server = arg;
    struct timespec until;

    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&server->wake, &server->lock, &until);
        if (server->stopping)
            break;
        uint64_t now = sbxu_mono_ms();
        for (struct mcp_session *s = server->sessions; s; s = s->next) {
            mcp_session_reap(s, now);
            mcp_replay_reap(s, now);
        }
        struct mcp_session *expired = expired_sessions(server, now);
        if (!expired)
            continue;
        /* Closing destroys sandboxes: not under the lock every request takes. */
        pthread_mutex_unlock(&server->lock);
        while (expired) {
            struct mcp_session *next = expired->next;
            mcp_session_close(expired);
            expired = next;
        }
        pthread_mutex_lock(&server->lock);
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

int mcp_server_start_reaper(struct mcp_server *server)
{
    if (pthread_create(&server->reaper, NULL, reaper, server) != 0)
        return SBX_E_SYSTEM;
    server->reaper_running = 1;
    return SBX_OK;
}

void mcp_server_release(struct mcp_server *server)
{
    if (server->reaper_running) {
        /* (mcp_server_cancel_all() may have set stopping already.) */
        pthread_mutex_lock(&server->lock);
        server->stopping = 1;
        pthread_cond_broadcast(&server->wake);
        pthread_mutex_unlock(&server->lock);
        pthread_join(server->reaper, NULL);
    }
    json_object_put(server->tools);
    sbx_pool_free(server->pool);
    sbx_client_free(server->client);
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->boxes_lock);
    pthread_mutex_destroy(&server->lock);
}
