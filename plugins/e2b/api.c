/*
 * E2B's control plane (openapi.yml): sessions with the key in X-API-Key,
 * pooled in the plugin's state (see e2b.h), JSON requests, and its failures as SBX_E codes with E2B's own message
 * ({code, message} bodies). Idempotent calls are retried with backoff by
 * the toolkit; create never is (a retried create could make two sandboxes).
 */
#include "e2b.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sandboxio/errors.h>

#include "../lib/sbx-cred.h"

int e2b_api_open(e2b_api *a, e2b_state *st, const sbx_plugin_dsn *dsn)
{
    const sbx_host *host = st->host;
    memset(a, 0, sizeof(*a));
    a->host = host;
    a->st = st;
    int rc = e2b_endpoint_parse(&a->ep, host, dsn);
    if (rc)
        return rc;
    const char *key = NULL;
    rc = sbx_cred_get(&key, host, E2B_NAME, "E2B_API_KEY",
                      "get one at https://e2b.dev/dashboard?tab=keys");
    if (rc == SBX_OK && (size_t)snprintf(a->key_header, sizeof(a->key_header), "X-API-Key: %s",
                                         key) >= sizeof(a->key_header))
        rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "e2b: E2B_API_KEY is too long");
    if (rc)
        e2b_api_clear(a);
    return rc;
}

void e2b_api_clear(e2b_api *a)
{
    e2b_endpoint_clear(&a->ep);
    memset(a->key_header, 0, sizeof(a->key_header));
}

/* A session for a's endpoint and key in c (whose strings it points to). */
static int conn_init(e2b_conn *c, const e2b_api *a)
{
    snprintf(c->base_url, sizeof(c->base_url), "%s", a->ep.api_url);
    memcpy(c->key_header, a->key_header, sizeof(c->key_header));
    c->headers[0] = c->key_header;
    c->headers[1] = NULL;
    sbx_http_config cfg = {
        .plugin = E2B_NAME,
        .base_url = c->base_url,
        .display = c->base_url,
        .service = "E2B's control plane",
        .headers = c->headers,
        .connect_timeout_ms = 15000,
        .retry = {.attempts = 5, .base_ms = 200, .max_ms = 5000, .deadline_ms = 60000},
    };
    return sbx_http_init(&c->http, a->host, &cfg);
}

static void conn_clear(e2b_conn *c)
{
    sbx_http_clear(&c->http);
    memset(c->key_header, 0, sizeof(c->key_header));
    c->used = c->busy = false;
}

/* An idle pooled session of a's endpoint and key, a new pooled one, or *own. */
static e2b_conn *conn_take(e2b_api *a, e2b_conn *own, int *rc)
{
    e2b_state *st = a->st;
    e2b_conn *c = NULL;
    *rc = SBX_OK;
    pthread_mutex_lock(&st->lock);
    for (size_t i = 0; !c && i < E2B_POOL; i++) {
        e2b_conn *p = &st->pool[i];
        if (p->used && !p->busy && strcmp(p->base_url, a->ep.api_url) == 0 &&
            strcmp(p->key_header, a->key_header) == 0)
            c = p;
    }
    for (size_t i = 0; !c && i < E2B_POOL; i++) {
        if (!st->pool[i].used && conn_init(&st->pool[i], a) == SBX_OK) {
            c = &st->pool[i];
            c->used = true;
        }
    }
    if (c)
        c->busy = true;
    pthread_mutex_unlock(&st->lock);
    if (c)
        return c;
    memset(own, 0, sizeof(*own));
    *rc = conn_init(own, a);
    return *rc ? NULL : own;
}

static void conn_give(e2b_api *a, e2b_conn *c, e2b_conn *own)
{
    if (c == own) {
        conn_clear(own);
        return;
    }
    pthread_mutex_lock(&a->st->lock);
    c->busy = false;
    pthread_mutex_unlock(&a->st->lock);
}

void e2b_pool_clear(e2b_state *st)
{
    for (size_t i = 0; i < E2B_POOL; i++)
        if (st->pool[i].used)
            conn_clear(&st->pool[i]);
}

char *e2b_api_escape(e2b_api *a, const char *text)
{
    e2b_conn own, *c;
    int rc;
    if (!(c = conn_take(a, &own, &rc)))
        return NULL;
    char *esc = sbx_http_escape(&c->http, text);
    conn_give(a, c, &own);
    if (!esc)
        a->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    return esc;
}

static bool has(const char *message, const char *needle)
{
    return message && strcasestr(message, needle) != NULL;
}

int e2b_api_code(long status, const char *message)
{
    /* The spec gives create no 404: E2B answers a missing template 400 or 404, naming it. */
    if ((status == 400 || status == 404) && has(message, "template") && has(message, "not found"))
        return SBX_E_TEMPLATE_NOT_FOUND;
    /* A team at its limit of concurrent sandboxes (429 or 403, "... limit ..."). */
    if ((status == 429 || status == 403) && (has(message, "concurrent") || has(message, "quota")))
        return SBX_E_BACKEND_QUOTA;
    return sbx_http_status_code(status);
}

int e2b_api_call(e2b_api *a, const char *method, const char *path, const char *body, int retry,
                 const char *context, json_object **out, long *status)
{
    if (out)
        *out = NULL;
    sbx_http_request rq = {
        .method = method,
        .path = path,
        .body = body,
        .content_type = body ? "application/json" : NULL,
        .timeout_ms = 120000,
        .retry = retry,
    };
    sbx_http_response rs = {0};
    e2b_conn own, *c;
    int rc;
    if (!(c = conn_take(a, &own, &rc)))
        return rc;
    rc = sbx_http_send(&c->http, &rq, &rs);
    if (status)
        *status = rs.status;
    a->retry_after_ms = rs.retry_after_ms;
    if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300)) {
        char msg[512];
        sbx_json_message(rs.body.data ? rs.body.data : "", rs.body.len, msg, sizeof(msg));
        rc = sbx_http_fail_as(&c->http, e2b_api_code(rs.status, msg), &rq, &rs, context, msg);
    } else if (rc == SBX_OK && out && rs.body.len) {
        rc = sbx_json_parse(out, a->host, E2B_NAME, "API", context, rs.body.data, rs.body.len);
    }
    sbx_http_response_clear(&rs);
    conn_give(a, c, &own);
    return rc;
}
