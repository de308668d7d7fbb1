/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Daytona's control plane (spec/api-openapi.yaml) as the remote-backend
 * kit's table (lib/sbxu/remote.h): `Authorization: Bearer` with the API key,
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
#include <sandboxio/errors.h>

#include <sbxu/cred.h>

/* The code for a control-plane failure: the toolkit's table refined by Daytona's message. */
static const sbxu_remote_rule RULES[] = {
    /* "Snapshot X not found. Did you add it ...?" is a 400 (open source, sandbox.service.ts). */
    {{400, 404}, {"snapshot", "image"}, {"not found"}, SBX_E_TEMPLATE_NOT_FOUND},
    /* An organisation at its limits: "... exceeds maximum ...", "... quota ...". */
    {{400, 403, 429}, {"quota", "exceeds maximum"}, {NULL}, SBX_E_BACKEND_QUOTA},
    {{0}, {NULL}, {NULL}, 0},
};

#define KEY_HINT "make one at https://app.daytona.io/dashboard/keys"

/* The bearer and, for a JWT, the organisation, from the environment only. */
static int credentials(void *api, sbxu_remote_state *st)
{
    daytona_api *a = api;
    const sbx_host *host = st->host;
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
    size_t n = 0;
    a->headers[n++] = a->auth;
    if (a->org[0])
        a->headers[n++] = a->org;
    a->headers[n] = NULL;
    sbxu_remote_api_bind(&a->r, st, a->ep.api_url, a->headers);
    return rc;
}

static int parse(void *api, const sbx_host *host, const sbx_plugin_dsn *dsn)
{
    return daytona_endpoint_parse(&((daytona_api *)api)->ep, host, dsn);
}

void daytona_api_clear(void *api)
{
    daytona_api *a = api;
    daytona_endpoint_clear(&a->ep);
    explicit_bzero(a->auth, sizeof(a->auth));
}

/* GET /sandbox?labels={"key":"value"}. */
static char *list_filter(const char *key, const char *value)
{
    json_object *filter = json_object_new_object();
    char *text = NULL;
    if (filter && !sbxu_json_add_str(filter, key, value))
        text = sbxu_json_text(filter);
    json_object_put(filter);
    return text;
}

const sbxu_remote_backend sbxu_remote_this_backend = {
    .plugin = DAYTONA_NAME, .service = "Daytona's API", .rules = RULES, .fs = &daytona_fs,
    .sandboxes = {"/sandbox", "id", "labels", daytona_id_ok},
    /* By labels, the answer's items; ping's GET /sandbox with limit=1 changes nothing. */
    .list = {"/sandbox?labels=", "&limit=200", "items", list_filter},
    .ping = {"/sandbox?limit=1", "checking the credential (listing sandboxes)", "Daytona API",
             "credential accepted"},
    .api = {sizeof(daytona_api), parse, credentials, daytona_api_clear},
};
