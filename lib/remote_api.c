/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A remote backend's control plane: sessions from the plugin's pool with
 * the backend's credentials, JSON requests, and failures as SBX_E codes
 * with the provider's own message, by the backend's rules (a table: the
 * same status means different things to different providers, told apart
 * by their messages) before the toolkit's status map. Idempotent calls are
 * retried with backoff by the toolkit; create never is (remote_sandbox.c).
 */
#include "config.h"

#include <string.h>
#include <strings.h>
#include <sandboxio/errors.h>

#include <sbxu/json.h>
#include <sbxu/remote.h>

static bool names(const char *message, const char *needle)
{
    return message && strcasestr(message, needle) != NULL;
}

static bool rule_takes(const sbxu_remote_rule *r, long status, const char *message)
{
    bool st = false, any = r->any[0] == NULL;
    for (size_t i = 0; i < 4 && r->status[i]; i++)
        st |= r->status[i] == status;
    for (size_t i = 0; i < 4 && r->any[i]; i++)
        any |= names(message, r->any[i]);
    for (size_t i = 0; i < 2 && r->all[i]; i++)
        any &= names(message, r->all[i]);
    return st && any;
}

int sbxu_remote_code(const sbxu_remote_rule *rules, long status, const char *message)
{
    for (const sbxu_remote_rule *r = rules; r && r->code; r++)
        if (rule_takes(r, status, message))
            return r->code;
    return sbxu_http_status_code(status);
}

int sbxu_remote_api_open(void *api, sbxu_remote_state *st, const sbx_plugin_dsn *dsn)
{
    memset(api, 0, st->be->api.size);
    int rc = st->be->api.parse(api, st->host, dsn);
    if (rc)
        return rc;
    rc = st->be->api.credentials(api, st);
    if (rc)
        st->be->api.clear(api);
    return rc;
}

void sbxu_remote_api_bind(sbxu_remote_api *a, sbxu_remote_state *st, const char *base_url,
                         const char *const *headers)
{
    a->host = st->host;
    a->st = st;
    a->base_url = base_url;
    a->headers = headers;
    a->retry_after_ms = -1;
}

/* An idle session of a's endpoint and credentials from the pool, or a new one. */
static int session(sbxu_remote_api *a, sbxu_http **out)
{
    sbxu_http_config cfg = {
        .plugin = a->st->be->plugin,
        .base_url = a->base_url,
        .service = a->st->be->service,
        .headers = a->headers,
        .connect_timeout_ms = SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS,
        .retry = {.attempts = 5, .base_ms = 200, .max_ms = 5000, .deadline_ms = 60000},
    };
    return sbxu_http_pool_take(out, &a->st->pool, a->host, &cfg);
}

char *sbxu_remote_escape(sbxu_remote_api *a, const char *text)
{
    sbxu_http *s;
    if (session(a, &s))
        return NULL;
    char *esc = sbxu_http_escape(s, text);
    sbxu_http_pool_give(&a->st->pool, s);
    if (!esc)
        a->host->set_error(SBX_E_NOMEM, "%s: out of memory", a->st->be->plugin);
    return esc;
}

sbxu_http_request sbxu_remote_json_request(const char *method, const char *path, const char *body,
                                         int retry)
{
    return (sbxu_http_request){
        .method = method,
        .path = path,
        .body = body,
        .content_type = body ? "application/json" : NULL,
        .timeout_ms = SBXU_HTTP_CALL_TIMEOUT_MS,
        .retry = retry,
    };
}

int sbxu_remote_json_answer(int rc, sbxu_http_response *rs, const sbx_host *host,
                           const char *plugin, const char *what, const char *context,
                           json_object **out, long *status,
                           int (*fail)(void *ud, const sbxu_http_response *rs,
                                       const char *context),
                           void *ud)
{
    if (status)
        *status = rs->status;
    if (rc == SBX_OK && (rs->status < 200 || rs->status >= 300))
        rc = fail(ud, rs, context);
    else if (rc == SBX_OK && out && rs->body.len)
        rc = sbxu_json_parse(out, host, plugin, what, context, rs->body.data, rs->body.len);
    sbxu_http_response_clear(rs);
    return rc;
}

typedef struct api_fail {
    sbxu_remote_api *a;
    sbxu_http *s;
    const sbxu_http_request *rq;
} api_fail;

/* A non-2xx answer: the provider's message, mapped by the backend's rules. */
static int fail_api(void *ud, const sbxu_http_response *rs, const char *context)
{
    api_fail *f = ud;
    char msg[512];
    sbxu_json_message(rs->body.data ? rs->body.data : "", rs->body.len, msg, sizeof(msg));
    return sbxu_http_fail_as(f->s, sbxu_remote_code(f->a->st->be->rules, rs->status, msg), f->rq,
                            rs, context, msg);
}

int sbxu_remote_call(sbxu_remote_api *a, const char *method, const char *path, const char *body,
                    int retry, const char *context, json_object **out, long *status)
{
    if (out)
        *out = NULL;
    sbxu_http_request rq = sbxu_remote_json_request(method, path, body, retry);
    sbxu_http_response rs = {0};
    sbxu_http *s;
    int rc = session(a, &s);
    if (rc)
        return rc;
    rc = sbxu_http_send(s, &rq, &rs);
    a->retry_after_ms = rs.retry_after_ms;
    api_fail f = {.a = a, .s = s, .rq = &rq};
    rc = sbxu_remote_json_answer(rc, &rs, a->host, a->st->be->plugin, "API", context, out, status,
                                fail_api, &f);
    sbxu_http_pool_give(&a->st->pool, s);
    return rc;
}
