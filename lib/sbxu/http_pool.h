/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/http_pool.h - HTTP sessions shared by a plugin's sandboxes (libsbxu-curl).
 *
 * An idle session holds a connection and curl's buffers (some 20 KiB), so
 * a sandbox that keeps one of its own for each service it talks to costs
 * that much per open sandbox even when it does nothing. With a pool in the
 * plugin's state, a call takes an idle session made for the same base URL
 * and headers (so for the same endpoint and credentials), or a new one,
 * and gives it back when done: the connection stays open for the next call
 * of any sandbox. Past SBXU_HTTP_POOL_SLOTS sessions busy at once, a call
 * has a session of its own for its length.
 */
#ifndef SBXU_HTTP_POOL_H
#define SBXU_HTTP_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <sbxu/http.h>

#define SBXU_HTTP_POOL_SLOTS 8
/* The most headers a pooled session's config may have. */
#define SBXU_HTTP_POOL_HEADERS 4

typedef struct sbxu_http_slot {
    bool used, busy, own;
    char *strings;        /* base_url, display, then the headers, each NUL-ended (owned) */
    size_t strings_len;
    const char *headers[SBXU_HTTP_POOL_HEADERS + 1];
    sbxu_http http;
} sbxu_http_slot;

typedef struct sbxu_http_pool {
    pthread_mutex_t lock;
    sbxu_http_slot slot[SBXU_HTTP_POOL_SLOTS];
} sbxu_http_pool;

/* sbxu_http_pool_init - an empty pool. SBX_OK, or SBX_E_NOMEM (set through host). */
int sbxu_http_pool_init(sbxu_http_pool *p, const sbx_host *host, const char *plugin);
/* sbxu_http_pool_clear - close every session (none may be taken) and free the pool. */
void sbxu_http_pool_clear(sbxu_http_pool *p);

/*
 * sbxu_http_pool_take - an idle session of the pool whose base_url, display
 * and headers are cfg's (its other members are those of the config the
 * session was made with: one pool serves configs that differ only in
 * those), or a new one made from cfg. cfg's base_url, display and headers
 * are copied; its other strings must last as long as the pool. The
 * session in *out; SBX_OK, or SBX_E_NOMEM, or SBX_E_BACKEND_FAILED for
 * more than SBXU_HTTP_POOL_HEADERS headers (set through host; *out NULL).
 * Give it back with sbxu_http_pool_give().
 */
int sbxu_http_pool_take(sbxu_http **out, sbxu_http_pool *p, const sbx_host *host,
                       const sbxu_http_config *cfg);
/* sbxu_http_pool_give - s (from sbxu_http_pool_take) is idle again; NULL is ignored. */
void sbxu_http_pool_give(sbxu_http_pool *p, sbxu_http *s);

#endif
