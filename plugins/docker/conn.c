/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A connection to one daemon: a lib/ HTTP session set up for the
 * endpoint, and the two things every Engine API request carries, a JSON (or
 * for uploads tar) content type and the capture of the headers the engine
 * answers in (Api-Version, X-Docker-Container-Path-Stat). The engine is
 * local or the user's own, so nothing is retried: a failure shows at once.
 */
#include "docker.h"

#include <stdlib.h>
#include <string.h>

static const char *const captured[] = {
    [DK_HDR_API_VERSION] = "Api-Version",
    [DK_HDR_PATH_STAT] = "X-Docker-Container-Path-Stat",
    NULL,
};

int dk_conn_init(dk_conn *c, const sbx_host *host, dk_endpoint *ep_moved)
{
    memset(c, 0, sizeof(*c));
    c->host = host;
    c->ep = *ep_moved;
    memset(ep_moved, 0, sizeof(*ep_moved));
    const dk_endpoint *ep = &c->ep;
    sbxu_http_config cfg = {
        .plugin = DK_NAME,
        .base_url = ep->base_url,
        .unix_socket = ep->transport == DK_UNIX ? ep->socket_path : NULL,
        .ca_file = ep->ca_file,
        .cert_file = ep->cert_file,
        .key_file = ep->key_file,
        .display = ep->display,
        .service = "the Docker daemon",
        .hint_unavailable = " (is the daemon running?)",
        .hint_permission = " (is this user allowed on the docker socket?)",
    };
    int rc = sbxu_http_init(&c->http, host, &cfg);
    if (rc) {
        dk_endpoint_clear(&c->ep);
        memset(c, 0, sizeof(*c));
    }
    return rc;
}

void dk_conn_clear(dk_conn *c)
{
    if (!c->host)
        return;
    sbxu_http_clear(&c->http);
    dk_endpoint_clear(&c->ep);
    memset(c, 0, sizeof(*c));
}

/* rq with the engine's content type and captured headers. */
static sbxu_http_request engine_request(const sbxu_http_request *rq)
{
    sbxu_http_request r = *rq;
    r.content_type = rq->upload ? "application/x-tar" : "application/json";
    r.capture = captured;
    return r;
}

int dk_http(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs)
{
    sbxu_http_request r = engine_request(rq);
    return sbxu_http_send(&c->http, &r, rs);
}

int dk_pull_begin(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs,
                  sbxu_http_pull **out)
{
    sbxu_http_request r = engine_request(rq);
    return sbxu_http_pull_begin(out, &c->http, &r, rs);
}
