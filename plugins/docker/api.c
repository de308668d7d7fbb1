/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Engine API on top of the transport: version negotiation, calls whose
 * failures carry the daemon's own message.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "1.41" into major/minor; false if it is not that shape. */
static bool parse_version(const char *s, unsigned *major, unsigned *minor)
{
    char tail;
    return s && sscanf(s, "%u.%u%c", major, minor, &tail) == 2;
}

static int version_cmp(unsigned a_major, unsigned a_minor, unsigned b_major, unsigned b_minor)
{
    if (a_major != b_major)
        return a_major < b_major ? -1 : 1;
    if (a_minor != b_minor)
        return a_minor < b_minor ? -1 : 1;
    return 0;
}

int dk_api_negotiate(dk_conn *c)
{
    if (c->http.prefix[0])
        return SBX_OK;
    sbxu_http_request rq = {.method = "GET", .path = "/_ping", .timeout_ms = SBXU_HTTP_PING_TIMEOUT_MS};
    sbxu_http_response rs = {0};
    int rc = dk_api_call(c, &rq, &rs, "asking the daemon for its API version (/_ping)");
    char *server = rs.header[DK_HDR_API_VERSION] ? strdup(rs.header[DK_HDR_API_VERSION]) : NULL;
    sbxu_http_response_clear(&rs);
    if (rc) {
        free(server);
        return rc;
    }
    if (!server) {
        /* Daemons before API 1.25 send no Api-Version on /_ping. */
        json_object *v = NULL;
        rc = dk_api_json(c, "GET", "/version", NULL, "asking the daemon for its version", &v);
        if (rc)
            return rc;
        const char *s = sbxu_json_str(v, "ApiVersion");
        server = s ? strdup(s) : NULL;
        json_object_put(v);
    }
    unsigned major, minor;
    if (!parse_version(server, &major, &minor)) {
        rc = c->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                "docker: %s reports no usable API version (\"%s\")",
                                c->ep.display, server ? server : "");
        free(server);
        return rc;
    }
    free(server);
    /* DOCKER_API_VERSION pins the version, as it does for the docker CLI. */
    const char *pin = getenv("DOCKER_API_VERSION");
    unsigned pin_major, pin_minor;
    if (pin && pin[0]) {
        if (!parse_version(pin, &pin_major, &pin_minor))
            return c->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                      "docker: DOCKER_API_VERSION=%s is not a version like 1.41",
                                      pin);
        major = pin_major;
        minor = pin_minor;
    }
    if (version_cmp(major, minor, DK_API_MIN_MAJOR, DK_API_MIN_MINOR) < 0)
        return c->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                  "docker: %s speaks Engine API %u.%u; this backend needs %d.%d "
                                  "or newer (Docker 17.06+)",
                                  c->ep.display, major, minor, DK_API_MIN_MAJOR, DK_API_MIN_MINOR);
    if (!(pin && pin[0]) && version_cmp(major, minor, DK_API_MAX_MAJOR, DK_API_MAX_MINOR) > 0) {
        major = DK_API_MAX_MAJOR;
        minor = DK_API_MAX_MINOR;
    }
    snprintf(c->http.prefix, sizeof(c->http.prefix), "/v%u.%u", major, minor);
    return SBX_OK;
}

int dk_api_fail(dk_conn *c, const sbxu_http_response *rs, const char *context)
{
    char msg[1024];
    sbxu_json_message(rs->body.data, rs->body.len, msg, sizeof(msg));
    return sbxu_http_fail_as(&c->http, dk_errmap_status(rs->status, msg), NULL, rs, context, msg);
}

int dk_api_call(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs, const char *context)
{
    int rc = dk_http(c, rq, rs);
    if (rc)
        return rc;
    if (rs->status < 200 || rs->status >= 300)
        return dk_api_fail(c, rs, context);
    return SBX_OK;
}

int dk_api_json(dk_conn *c, const char *method, const char *path, const char *body,
                const char *context, json_object **out)
{
    sbxu_http_request rq = {.method = method, .path = path, .body = body};
    sbxu_http_response rs = {0};
    *out = NULL;
    int rc = dk_api_call(c, &rq, &rs, context);
    if (rc == SBX_OK)
        rc = sbxu_json_parse(out, c->host, DK_NAME, "daemon", context, rs.body.data, rs.body.len);
    sbxu_http_response_clear(&rs);
    return rc;
}
