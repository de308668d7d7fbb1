/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Daytona's control plane (spec/api-openapi.yaml): sessions from the
 * plugin's pool (daytona.h), `Authorization: Bearer` with the API key,
 * or with a JWT and the X-Daytona-Organization-ID header (the SDK's two
 * forms, esm/Daytona.js); JSON requests, and failures as SBX_E codes
 * with Daytona's own message (its error body is {path, timestamp,
 * statusCode, error, message}).
 * Idempotent calls are retried with backoff by the toolkit (429 after its
 * Retry-After); create never is (sandbox.c).
 */
#include "daytona.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sandboxio/errors.h>

#include <sbxu/cred.h>

#define KEY_HINT "make one at https://app.daytona.io/dashboard/keys"

/* The bearer and, for a JWT, the organisation, from the environment only. */
static int credentials(daytona_api *a, const sbx_host *host)
{
    const char *key = getenv("DAYTONA_API_KEY"), *jwt = getenv("DAYTONA_JWT_TOKEN");
    const char *org = getenv("DAYTONA_ORGANIZATION_ID");
    const char *bearer = NULL;
    int rc = SBX_OK;
    if (key && key[0]) {
        bearer = key;
    } else if (jwt && jwt[0]) {
        rc = sbxu_cred_get(&org, host, DAYTONA_NAME, "DAYTONA_ORGANIZATION_ID",
                          "a JWT (DAYTONA_JWT_TOKEN) needs its organisation");
        bearer = jwt;
        if (rc == SBX_OK && (size_t)snprintf(a->org, sizeof(a->org),
                                             "X-Daytona-Organization-ID: %s", org) >=
                                sizeof(a->org))
            rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                 "daytona: DAYTONA_ORGANIZATION_ID is too long");
    } else {
        rc = sbxu_cred_get(&bearer, host, DAYTONA_NAME, "DAYTONA_API_KEY",
                          KEY_HINT " (or set DAYTONA_JWT_TOKEN and DAYTONA_ORGANIZATION_ID)");
    }
    if (rc == SBX_OK && (size_t)snprintf(a->auth, sizeof(a->auth), "Authorization: Bearer %s",
                                         bearer) >= sizeof(a->auth))
        rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "daytona: the credential is too long");
    return rc;
}

int daytona_api_open(daytona_api *a, daytona_state *st, const sbx_plugin_dsn *dsn)
{
    const sbx_host *host = st->host;
    memset(a, 0, sizeof(*a));
    a->host = host;
    a->st = st;
    a->retry_after_ms = -1;
    int rc = daytona_endpoint_parse(&a->ep, host, dsn);
    if (rc)
        return rc;
    rc = credentials(a, host);
    if (rc == SBX_OK) {
        size_t n = 0;
        a->headers[n++] = a->auth;
        if (a->org[0])
            a->headers[n++] = a->org;
        a->headers[n] = NULL;
    }
    if (rc)
        daytona_api_clear(a);
    return rc;
}

void daytona_api_clear(daytona_api *a)
{
    daytona_endpoint_clear(&a->ep);
    explicit_bzero(a->auth, sizeof(a->auth));
}

/* An idle session of a's endpoint and credentials from the pool, or a new one. */
static int api_session(daytona_api *a, sbxu_http **out)
{
    sbxu_http_config cfg = {
        .plugin = DAYTONA_NAME,
        .base_url = a->ep.api_url,
        .service = "Daytona's API",
        .headers = a->headers,
        .connect_timeout_ms = SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS,
        .retry = {.attempts = 5, .base_ms = 200, .max_ms = 5000, .deadline_ms = 60000},
    };
    return sbxu_http_pool_take(out, &a->st->pool, a->host, &cfg);
}

int daytona_api_escape(daytona_api *a, const char *text, char **out)
{
    sbxu_http *s;
    int rc = api_session(a, &s);
    if (rc)
        return rc;
    *out = sbxu_http_escape(s, text);
    sbxu_http_pool_give(&a->st->pool, s);
    return *out ? SBX_OK : a->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
}

static bool has(const char *message, const char *needle)
{
    return message && strcasestr(message, needle) != NULL;
}

int daytona_api_code(long status, const char *message)
{
    /* "Snapshot X not found. Did you add it ...?" is a 400 (open source, sandbox.service.ts). */
    if ((status == 400 || status == 404) && (has(message, "snapshot") || has(message, "image")) &&
        has(message, "not found"))
        return SBX_E_TEMPLATE_NOT_FOUND;
    /* An organisation at its limits: "... exceeds maximum ...", "... quota ...". */
    if ((status == 400 || status == 403 || status == 429) &&
        (has(message, "quota") || has(message, "exceeds maximum")))
        return SBX_E_BACKEND_QUOTA;
    return sbxu_http_status_code(status);
}

int daytona_api_call(daytona_api *a, const char *method, const char *path, const char *body,
                     int retry, const char *context, json_object **out, long *status)
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
    sbxu_http *s;
    int rc = api_session(a, &s);
    if (rc)
        return rc;
    rc = sbxu_http_send(s, &rq, &rs);
    if (status)
        *status = rs.status;
    a->retry_after_ms = rs.retry_after_ms;
    if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300)) {
        char msg[512];
        sbxu_json_message(rs.body.data ? rs.body.data : "", rs.body.len, msg, sizeof(msg));
        rc = sbxu_http_fail_as(s, daytona_api_code(rs.status, msg), &rq, &rs, context, msg);
    } else if (rc == SBX_OK && out && rs.body.len) {
        rc = sbxu_json_parse(out, a->host, DAYTONA_NAME, "API", context, rs.body.data,
                            rs.body.len);
    }
    sbxu_http_response_clear(&rs);
    sbxu_http_pool_give(&a->st->pool, s);
    return rc;
}
