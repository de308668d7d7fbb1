/* SPDX-License-Identifier: Apache-2.0 */
/*
 * envd, the daemon in each sandbox: its session (X-Access-Token, and
 * E2b-Sandbox-Id where E2B_SANDBOX_URL names one envd for every sandbox, as
 * the SDK sends it), unary Connect calls with the JSON encoding, and their
 * failures. A Connect error is a non-200 answer {"code":"not_found",
 * "message":...} (connect protocol, "Unary-Response"); E2B's proxy answers
 * 502 for a sandbox that is not running (SDK src/envd/api.ts).
 */
#include "e2b.h"

#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

int e2b_envd_open(e2b_sandbox *sb, const char *token)
{
    const sbx_host *host = sb->host;
    int rc = e2b_endpoint_envd_url(sb->envd_url, sizeof(sb->envd_url), &sb->api.ep, sb->id);
    if (rc)
        return host->set_error(rc, "e2b: envd's URL for %s is too long", sb->id);
    size_t n = 0;
    if (token && token[0]) {
        if ((size_t)snprintf(sb->token_header, sizeof(sb->token_header), "X-Access-Token: %s",
                             token) >= sizeof(sb->token_header))
            return host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: envd's access token is too long");
        sb->envd_headers[n++] = sb->token_header;
    }
    if (sb->api.ep.sandbox_url[0]) {
        snprintf(sb->id_header, sizeof(sb->id_header), "E2b-Sandbox-Id: %s", sb->id);
        sb->envd_headers[n++] = sb->id_header;
    }
    sb->envd_headers[n] = NULL;
    sbxu_http_config cfg = {
        .plugin = E2B_NAME,
        .base_url = sb->envd_url,
        .display = sb->envd_url,
        .service = "the sandbox's envd",
        .headers = sb->envd_headers,
        .connect_timeout_ms = SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS,
        /* A 502 right after create is E2B's proxy before envd is up: retried. */
        .retry = {.attempts = 8, .base_ms = 100, .max_ms = 2000, .deadline_ms = 30000},
    };
    return sbxu_http_init(&sb->envd, host, &cfg);
}

int e2b_connect_code(const char *code)
{
    static const sbxu_remote_word map[] = {
        {"not_found", SBX_E_NOT_FOUND},
        {"already_exists", SBX_E_EXISTS},
        {"permission_denied", SBX_E_BACKEND_PERMISSION},
        {"unauthenticated", SBX_E_BACKEND_AUTH},
        {"resource_exhausted", SBX_E_BACKEND_QUOTA},
        {"unavailable", SBX_E_BACKEND_UNAVAILABLE},
        {"deadline_exceeded", SBX_E_BACKEND_TRANSPORT},
        {"unimplemented", SBX_E_BACKEND_PROTOCOL},
    };
    return sbxu_remote_word_value(map, sizeof(map) / sizeof(map[0]), code, code ? strlen(code) : 0,
                                 SBX_E_BACKEND_FAILED);
}

int e2b_envd_fail(e2b_sandbox *sb, long status, const char *body, const char *context)
{
    char msg[512];
    sbxu_json_message(body ? body : "", body ? strlen(body) : 0, msg, sizeof(msg));
    sbxu_http_scrub(&sb->envd, NULL, msg, sizeof(msg));
    if (status == 502 && !e2b_sandbox_alive(sb))
        return sb->host->set_error(SBX_E_NOT_FOUND, "e2b: %s: the sandbox %s is gone (%s)", context,
                                   sb->id, msg);
    json_object *o = json_tokener_parse(body ? body : "");
    const char *code = sbxu_json_str(o, "code");
    int rc = code ? e2b_connect_code(code) : sbxu_http_status_code(status);
    rc = sb->host->set_error(rc, "e2b: %s: %s (HTTP %ld from envd)", context, msg, status);
    json_object_put(o);
    return rc;
}

int e2b_rpc(e2b_sandbox *sb, const char *method, const char *body, bool idempotent,
            const char *context, json_object **out)
{
    char path[128];
    snprintf(path, sizeof(path), "/%s", method);
    static const char *const headers[] = {"Connect-Protocol-Version: 1", NULL};
    sbxu_http_request rq = {
        .method = "POST",
        .path = path,
        .body = body,
        .content_type = "application/json",
        .headers = headers,
        .timeout_ms = SBXU_HTTP_AGENT_TIMEOUT_MS,
        .retry = idempotent ? SBXU_HTTP_RETRY_ALWAYS : SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_response rs = {0};
    if (out)
        *out = NULL;
    int rc = sbxu_http_send(&sb->envd, &rq, &rs);
    if (rc == SBX_OK && rs.status != 200)
        rc = e2b_envd_fail(sb, rs.status, rs.body.data, context);
    else if (rc == SBX_OK && out)
        rc = sbxu_json_parse(out, sb->host, E2B_NAME, "envd", context,
                            rs.body.data ? rs.body.data : "{}", rs.body.data ? rs.body.len : 2);
    sbxu_http_response_clear(&rs);
    return rc;
}
