/* SPDX-License-Identifier: Apache-2.0 */
/* example: skip: built against the installed kit (tests/plugin-rest-passes-contract.sh) */
/*
 * The session with the service and one call through it. The kit does the
 * hard parts: the endpoint is checked (plain http:// only to loopback, so
 * the key never crosses a network in clear), idempotent requests are
 * retried with backoff on 429/502/503/504 and refused connections, the
 * Authorization header never appears in a log, trace or error, and an
 * HTTP failure maps to its code (401/403 auth, 404 not found, 409
 * conflict, 429 rate limited, 5xx unavailable).
 */
#include "restdemo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sbxu/cred.h>
#include <sbxu/json.h>
#include <sbxu/url.h>

int rd_api_open(rd_api *api, const sbx_host *host)
{
    const char *url = getenv(RD_URL_VAR);
    const char *key = NULL;
    memset(api, 0, sizeof(*api));
    if (!url || !*url)
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE, RD_PLUGIN ": set %s to the service's URL",
                               RD_URL_VAR);
    int rc = sbxu_url_check(host, RD_PLUGIN, RD_URL_VAR, url, api->base, sizeof(api->base));
    if (rc == SBX_OK)
        rc = sbxu_cred_get(&key, host, RD_PLUGIN, RD_KEY_VAR, "the service's operator gives it");
    if (rc)
        return rc;
    if ((size_t)snprintf(api->auth, sizeof(api->auth), "Authorization: Bearer %s", key) >=
        sizeof(api->auth))
        return host->set_error(SBX_E_CREDENTIAL_MISSING, RD_PLUGIN ": %s is too long", RD_KEY_VAR);
    api->headers[0] = api->auth;
    sbxu_http_config cfg = {
        .plugin = RD_PLUGIN,
        .base_url = api->base,
        .service = "the restdemo service",
        .headers = api->headers,
        /* Four tries in all, 100 ms doubling to at most 2 s, 30 s for all of them. */
        .retry = {.attempts = 4, .base_ms = 100, .max_ms = 2000, .deadline_ms = 30000},
    };
    return sbxu_http_init(&api->http, host, &cfg);
}

void rd_api_close(rd_api *api)
{
    sbxu_http_clear(&api->http);
}

/* The service's "code" member, as sandboxio codes; the rest is the kit's map. */
static const struct {
    const char *name;
    int code;
} service_codes[] = {
    {"path_escape", SBX_E_PATH_ESCAPE},
    {"is_directory", SBX_E_IS_DIRECTORY},
    {"not_directory", SBX_E_NOT_DIRECTORY},
    {"not_empty", SBX_E_NOT_EMPTY},
    {"not_regular", SBX_E_NOT_REGULAR},
    {"command_not_found", SBX_E_EXEC_NOT_FOUND},
    {"command_denied", SBX_E_EXEC_DENIED},
    {"bad_cwd", SBX_E_EXEC_START},
};

int rd_api_fail(rd_api *api, const sbxu_http_request *rq, const sbxu_http_response *rs,
                const char *context)
{
    char message[512];
    sbxu_json_message(rs->body.data, rs->body.len, message, sizeof(message));
    json_object *err = json_tokener_parse(rs->body.data ? rs->body.data : "");
    const char *name = sbxu_json_str(err, "code");
    int code = 0;
    for (size_t i = 0; name && i < sizeof(service_codes) / sizeof(service_codes[0]); i++)
        if (strcmp(name, service_codes[i].name) == 0)
            code = service_codes[i].code;
    json_object_put(err);
    return code ? sbxu_http_fail_as(&api->http, code, rq, rs, context, message)
                : sbxu_http_fail(&api->http, rq, rs, context, message);
}

int rd_api_call(rd_api *api, const char *method, const char *path, const char *body,
                int retry, const char *context, json_object **out, long *status)
{
    sbxu_http_request rq = {.method = method, .path = path, .body = body, .retry = retry,
                           .content_type = body ? "application/json" : NULL};
    sbxu_http_response rs = {0};
    if (out)
        *out = NULL;
    int rc = sbxu_http_send(&api->http, &rq, &rs);
    if (status)
        *status = rs.status;
    if (rc == SBX_OK && (rs.status < 200 || rs.status > 299))
        rc = rd_api_fail(api, &rq, &rs, context);
    if (rc == SBX_OK && out)
        rc = sbxu_json_parse(out, api->http.host, RD_PLUGIN, "service", context, rs.body.data,
                            rs.body.len);
    sbxu_http_response_clear(&rs);
    return rc;
}
