/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daemon inside a sandbox (spec/toolbox-openapi.yaml), reached through
 * Daytona's proxy at the sandbox's toolboxProxyUrl + /{sandboxId}, with
 * the control plane's credentials, on sessions from the plugin's pool: one
 * proxy serves every sandbox, so a connection serves them all. Its errors
 * ({statusCode, message, code, ...}) keep the daemon's message; a 404 from
 * the proxy is a sandbox that is gone, which callers tell from a missing
 * file by asking the control plane (daytona_sandbox_alive).
 */
#include "daytona.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

int daytona_toolbox_open(daytona_sandbox *sb, const char *proxy_url)
{
    return daytona_url_check(sb->host, "the sandbox's toolboxProxyUrl", proxy_url,
                             sb->toolbox_base, sizeof(sb->toolbox_base));
}

/* An idle session of the proxy (with the API's credentials) from the pool, or a new one. */
static int tb_session(daytona_sandbox *sb, sbxu_http **out)
{
    sbxu_http_config cfg = {
        .plugin = DAYTONA_NAME,
        .base_url = sb->toolbox_base,
        .service = "the sandbox's toolbox (Daytona's proxy)",
        .headers = sb->api.headers,
        .connect_timeout_ms = SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS,
        .retry = {.attempts = 4, .base_ms = 100, .max_ms = 2000, .deadline_ms = 30000},
    };
    return sbxu_http_pool_take(out, &sb->api.r.st->pool, sb->host, &cfg);
}

int daytona_tb_send(daytona_sandbox *sb, const sbxu_http_request *rq, sbxu_http_response *rs)
{
    char *path = NULL;
    if (asprintf(&path, "/%s%s", sb->id, rq->path) < 0)
        return sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    sbxu_http_request mine = *rq;
    mine.path = path;
    sbxu_http *s;
    int rc = tb_session(sb, &s);
    if (rc == SBX_OK) {
        rc = sbxu_http_send(s, &mine, rs);
        sbxu_http_pool_give(&sb->api.r.st->pool, s);
    }
    free(path);
    return rc;
}

int daytona_tb_fail(daytona_sandbox *sb, long status, const char *body, size_t len,
                    const char *context)
{
    char msg[512];
    sbxu_json_message(body ? body : "", body ? len : 0, msg, sizeof(msg));
    sbxu_http_scrub_headers(sb->api.headers, NULL, msg, sizeof(msg));
    int code = sbxu_http_status_code(status);
    /* The command finished before its input came (input.go). */
    if (status == 410)
        code = SBX_E_BACKEND_FAILED;
    return sb->host->set_error(code, "daytona: %s: %s (HTTP %ld from the toolbox of %s)", context,
                               msg[0] ? msg : "no message", status, sb->id);
}

static int answer_fail(void *ud, const sbxu_http_response *rs, const char *context)
{
    return daytona_tb_fail(ud, rs->status, rs->body.data, rs->body.len, context);
}

int daytona_tb_call(daytona_sandbox *sb, const char *method, const char *path, const char *body,
                    int retry, const char *context, json_object **out, long *status)
{
    if (out)
        *out = NULL;
    sbxu_http_request rq = sbxu_remote_json_request(method, path, body, retry);
    sbxu_http_response rs = {0};
    int rc = daytona_tb_send(sb, &rq, &rs);
    return sbxu_remote_json_answer(rc, &rs, sb->host, DAYTONA_NAME, "toolbox", context, out,
                                  status, answer_fail, sb);
}

int daytona_tb_path(daytona_sandbox *sb, char *out, size_t size, const char *prefix,
                    const char *name, const char *value)
{
    char *esc;
    if (!(esc = sbxu_remote_escape(&sb->api.r, value)))
        return SBX_E_NOMEM;
    int n = snprintf(out, size, "%s%c%s=%s", prefix, strchr(prefix, '?') ? '&' : '?', name, esc);
    curl_free(esc);
    if (n < 0 || (size_t)n >= size)
        return sb->host->set_error(SBX_E_BAD_PATH, "daytona: the path %s is too long", value);
    return SBX_OK;
}

int daytona_shell(daytona_sandbox *sb, const char *command, sbxu_buf *out, int *exit_code)
{
    json_object *req = json_object_new_object(), *ans = NULL;
    int bad = !req || sbxu_json_add_str(req, "command", command) ||
              sbxu_json_add(req, "timeout", json_object_new_int(120));
    char *body = bad ? NULL : sbxu_json_text(req);
    json_object_put(req);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    /* Every command run this way only looks, or is safe to repeat. */
    int rc = daytona_tb_call(sb, "POST", "/process/execute", body, SBXU_HTTP_RETRY_ALWAYS,
                             "running a helper command", &ans, NULL);
    free(body);
    const char *result = NULL;
    if (rc == SBX_OK)
        rc = sbxu_json_get_string(&result, sb->host, DAYTONA_NAME, "running a helper command", ans,
                                 "result");
    if (rc == SBX_OK) {
        *exit_code = (int)sbxu_json_int(ans, "exitCode", -1);
        rc = sbxu_buf_append(out, result, strlen(result));
        if (rc)
            rc = sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    }
    json_object_put(ans);
    return rc;
}
