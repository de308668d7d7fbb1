/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The warm pool: a thread keeps up to size sandboxes open; a take hands one
 * over for good and wakes the thread to make its replacement. A create
 * that fails is retried after a pause, not in a loop.
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wait after a failed create before the next try. */
#define POOL_RETRY_MS 1000

struct sbx_pool {
    sbx_client *client;
    char *dsn;
    sbx_policy policy;
    size_t size;
    pthread_mutex_t lock;       /* guards everything below */
    pthread_cond_t wake;
    sbx_sandbox **ready;        /* size slots, count of them filled */
    size_t count;
    struct retired {
        sbx_sandbox *sandbox;
        struct retired *next;
    } *retired;                 /* done with, to destroy */
    int stopping;
    pthread_t filler;
};

static void wait_ms(sbx_pool *p, long ms)
{
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&p->wake, &p->lock, &until);
}

static void pool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void pool_warn(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sbx__logv(SBX_LOG_WARN, "core", fmt, ap);
    va_end(ap);
}

static void *fill(void *arg)
{
    sbx_pool *p = arg;

    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        if (p->retired) {
            /* Destroys first: they free what the next create needs. */
            struct retired *r = p->retired;
            p->retired = r->next;
            pthread_mutex_unlock(&p->lock);
            sbx_sandbox_free(r->sandbox);
            free(r);
            pthread_mutex_lock(&p->lock);
            continue;
        }
        if (p->count >= p->size) {
            pthread_cond_wait(&p->wake, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        sbx_sandbox *sb = NULL;
        int rc = sbx_sandbox_open(&sb, p->client, p->dsn, &p->policy);
        pthread_mutex_lock(&p->lock);
        if (rc != SBX_OK) {
            pool_warn("pool: creating a sandbox failed (%s); retrying", sbx_error_id(rc));
            if (!p->stopping)
                wait_ms(p, POOL_RETRY_MS);
            continue;
        }
        if (p->stopping || p->count >= p->size) {
            pthread_mutex_unlock(&p->lock);
            sbx_sandbox_free(sb);
            pthread_mutex_lock(&p->lock);
            continue;
        }
        p->ready[p->count++] = sb;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Free what sbx_pool_new() made before its thread runs (or after it stopped). */
static void pool_release(sbx_pool *p)
{
    sbx__policy_clear(&p->policy);
    free(p->dsn);
    free(p->ready);
    free(p);
}

int sbx_pool_new(sbx_pool **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
                 size_t size)
{
    uint64_t caps = 0;
    int tier = 0, rc;
    sbx_dsn *parsed = NULL;
    sbx_pool *p;

    if (!out || !client || !dsn || size == 0 || size > 4096)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_pool_new: NULL argument or size not 1..4096");
    *out = NULL;
    /* Refuse now what every create would refuse later. */
    if ((rc = sbx_client_probe(client, dsn, &caps, &tier)) || (rc = sbx_dsn_parse(&parsed, dsn)))
        return rc;
    if (!(p = sbx__calloc(1, sizeof(*p)))) {
        sbx_dsn_free(parsed);
        return SBX_E_NOMEM;
    }
    if (policy)
        rc = sbx__policy_copy(&p->policy, policy);
    else
        sbx__policy_defaults(&p->policy);
    if (rc == SBX_OK)
        rc = sbx__policy_check(&p->policy, caps, tier, sbx_dsn_scheme(parsed));
    sbx_dsn_free(parsed);
    if (rc == SBX_OK && (!(p->dsn = strdup(dsn)) || !(p->ready = sbx__calloc(size, sizeof(*p->ready)))))
        rc = sbx__error_set(SBX_E_NOMEM, "out of memory");
    if (rc != SBX_OK) {
        pool_release(p);
        return rc;
    }
    p->client = client;
    p->size = size;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if ((rc = pthread_create(&p->filler, NULL, fill, p)) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        pool_release(p);
        errno = rc;
        return sbx__error_set(SBX_E_SYSTEM, "sbx_pool_new: starting the pool's thread: %s", strerror(rc));
    }
    *out = p;
    return SBX_OK;
}

int sbx_pool_take(sbx_pool *pool, sbx_sandbox **out)
{
    sbx_sandbox *sb = NULL;

    if (!pool || !out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_pool_take: NULL argument");
    *out = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->count > 0)
        sb = pool->ready[--pool->count];
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    if (sb) {
        *out = sb;
        return SBX_OK;
    }
    /* None ready (a burst, or the pool just made): do not wait for the thread. */
    return sbx_sandbox_open(out, pool->client, pool->dsn, &pool->policy);
}

int sbx_pool_run(sbx_result **out, sbx_pool *pool, const sbx_cmd *cmd)
{
    sbx_sandbox *sb = NULL;
    int rc, destroyed;

    if (!out || !pool || !cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_pool_run: NULL argument");
    *out = NULL;
    if ((rc = sbx_pool_take(pool, &sb)))
        return rc;
    rc = sbx_exec(out, sb, cmd);
    destroyed = sbx_sandbox_destroy(sb);
    sbx_sandbox_free(sb);
    if (destroyed != SBX_OK) {
        sbx_result_free(*out);
        *out = NULL;
        return destroyed;
    }
    return rc;
}

void sbx_pool_retire(sbx_pool *pool, sbx_sandbox *sandbox)
{
    struct retired *r;

    if (!sandbox)
        return;
    if (!pool || !(r = malloc(sizeof(*r)))) {
        sbx_sandbox_free(sandbox);  /* no pool to do it: destroy it now */
        return;
    }
    r->sandbox = sandbox;
    pthread_mutex_lock(&pool->lock);
    r->next = pool->retired;
    pool->retired = r;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

size_t sbx_pool_ready(sbx_pool *pool)
{
    size_t n;

    if (!pool)
        return 0;
    pthread_mutex_lock(&pool->lock);
    n = pool->count;
    pthread_mutex_unlock(&pool->lock);
    return n;
}

void sbx_pool_free(sbx_pool *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    pthread_join(pool->filler, NULL);
    for (size_t i = 0; i < pool->count; i++)
        sbx_sandbox_free(pool->ready[i]);
    while (pool->retired) {
        struct retired *r = pool->retired;
        pool->retired = r->next;
        sbx_sandbox_free(r->sandbox);
        free(r);
    }
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    pool_release(pool);
}
