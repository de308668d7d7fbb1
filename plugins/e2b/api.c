/* SPDX-License-Identifier: Apache-2.0 */
/*
 * E2B's control plane (openapi.yml): sessions with the key in X-API-Key,
 * pooled in the plugin's state (see e2b.h), JSON requests, and its
 * failures as SBX_E codes with E2B's own message ({code, message}
 * bodies). Idempotent calls are retried with backoff by the toolkit;
 * create never is (a retried create could make two sandboxes).
 */
#include "e2b.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sandboxio/errors.h>

#include <sbxu/cred.h>

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
    rc = sbxu_cred_get(&key, host, E2B_NAME, "E2B_API_KEY",
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

/* The config of a's sessions; headers (2 lines) is filled in. */
static sbxu_http_config api_config(const e2b_api *a, const char **headers)
{
    headers[0] = a->key_header;
    headers[1] = NULL;
    return (sbxu_http_config){
        .plugin = E2B_NAME,
        .base_url = a->ep.api_url,
        .service = "E2B's control plane",
        .headers = headers,
        .connect_timeout_ms = SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS,
        .retry = {.attempts = 5, .base_ms = 200, .max_ms = 5000, .deadline_ms = 60000},
    };
}

/* An idle session of a's endpoint and key from the pool, or a new one. */
static int conn_take(e2b_api *a, sbxu_http **c)
{
    const char *headers[2];
    sbxu_http_config cfg = api_config(a, headers);
    return sbxu_http_pool_take(c, &a->st->pool, a->host, &cfg);
}

char *e2b_api_escape(e2b_api *a, const char *text)
{
    sbxu_http *c;
    if (conn_take(a, &c))
        return NULL;
    char *esc = sbxu_http_escape(c, text);
    sbxu_http_pool_give(&a->st->pool, c);
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
    return sbxu_http_status_code(status);
}

int e2b_api_call(e2b_api *a, const char *method, const char *path, const char *body, int retry,
                 const char *context, json_object **out, long *status)
{
    if (out)
        *out = NULL;
    sbxu_http_request rq = {
        .method = method,
        .path = path,
        .body = body,
        .content_type = body ? "application/json" : NULL,
        .timeout_ms = SBXU_HTTP_CALL_TIMEOUT_MS,
        .retry = retry,
    };
    sbxu_http_response rs = {0};
    sbxu_http *c;
    int rc = conn_take(a, &c);
    if (rc)
        return rc;
    rc = sbxu_http_send(c, &rq, &rs);
    if (status)
        *status = rs.status;
    a->retry_after_ms = rs.retry_after_ms;
    if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300)) {
        char msg[512];
        sbxu_json_message(rs.body.data ? rs.body.data : "", rs.body.len, msg, sizeof(msg));
        rc = sbxu_http_fail_as(c, e2b_api_code(rs.status, msg), &rq, &rs, context, msg);
    } else if (rc == SBX_OK && out && rs.body.len) {
        rc = sbxu_json_parse(out, a->host, E2B_NAME, "API", context, rs.body.data, rs.body.len);
    }
    sbxu_http_response_clear(&rs);
    sbxu_http_pool_give(&a->st->pool, c);
    return rc;
}
