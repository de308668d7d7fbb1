/* SPDX-License-Identifier: Apache-2.0 */
/*
 * E2B's control plane (openapi.yml) as the remote-backend kit's table
 * (lib/sbxu/remote.h): the key in X-API-Key, sandboxes at
 * /sandboxes/{sandboxID} with their labels in `metadata`, the list by
 * metadata filter, and the rules that refine the status map by E2B's own
 * message ({code, message} bodies).
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/cred.h>

/* The code for a control-plane failure: the toolkit's table refined by E2B's message. */
static const sbxu_remote_rule RULES[] = {
    /* The spec gives create no 404: E2B answers a missing template 400 or 404, naming it. */
    {{400, 404}, {"template"}, {"not found"}, SBX_E_TEMPLATE_NOT_FOUND},
    /* A team at its limit of concurrent sandboxes (429 or 403, "... limit ..."). */
    {{429, 403}, {"concurrent", "quota"}, {NULL}, SBX_E_BACKEND_QUOTA},
    {{0}, {NULL}, {NULL}, 0},
};

static int parse(void *api, const sbx_host *host, const sbx_plugin_dsn *dsn)
{
    return e2b_endpoint_parse(&((e2b_api *)api)->ep, host, dsn);
}

/* The key, in X-API-Key. */
static int credentials(void *api, sbxu_remote_state *st)
{
    e2b_api *a = api;
    const char *key = NULL;
    int rc = sbxu_cred_get(&key, st->host, E2B_NAME, "E2B_API_KEY",
                          "get one at https://e2b.dev/dashboard?tab=keys");
    if (rc == SBX_OK && (size_t)snprintf(a->key_header, sizeof(a->key_header), "X-API-Key: %s",
                                         key) >= sizeof(a->key_header))
        rc = st->host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "e2b: E2B_API_KEY is too long");
    a->headers[0] = a->key_header;
    sbxu_remote_api_bind(&a->r, st, a->ep.api_url, a->headers);
    return rc;
}

void e2b_api_clear(void *api)
{
    e2b_api *a = api;
    e2b_endpoint_clear(&a->ep);
    memset(a->key_header, 0, sizeof(a->key_header));
}

/* GET /v2/sandboxes?metadata=key=value (the non-deprecated list). */
static char *list_filter(const char *key, const char *value)
{
    char *pair = NULL;
    return asprintf(&pair, "%s=%s", key, value) < 0 ? NULL : pair;
}

const sbxu_remote_backend sbxu_remote_this_backend = {
    .plugin = E2B_NAME, .service = "E2B's control plane", .rules = RULES, .fs = &e2b_fs,
    .sandboxes = {"/sandboxes", "sandboxID", "metadata", e2b_id_ok},
    /* The non-deprecated list, by metadata; ping cuts it to one entry. */
    .list = {"/v2/sandboxes?metadata=", "&limit=100", NULL, list_filter},
    .ping = {"/v2/sandboxes?limit=1", "checking the API key (listing sandboxes)",
             "E2B control plane", "API key accepted"},
    .api = {sizeof(e2b_api), parse, credentials, e2b_api_clear},
};
