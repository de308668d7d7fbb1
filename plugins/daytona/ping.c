/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ping: does Daytona's control plane behind the DSN answer, and does it
 * take the credential (for `sandboxio doctor --online`). GET /sandbox
 * with limit=1 is authenticated (a bad key is its 401) and changes
 * nothing; the same session, endpoint and error mapping a sandbox would
 * meet.
 */
#include "daytona.h"

#include <stdio.h>
#include <sandboxio/errors.h>

int daytona_ping(void *state, const sbx_plugin_dsn *dsn, char **detail)
{
    daytona_state *st = state;
    const sbx_host *host = st->host;
    daytona_api api;
    json_object *list = NULL;
    int rc = daytona_api_open(&api, st, dsn);
    if (rc)
        return rc;
    rc = daytona_api_call(&api, "GET", "/sandbox?limit=1", NULL, SBXU_HTTP_RETRY_AUTO,
                          "checking the credential (listing sandboxes)", &list, NULL);
    if (rc == SBX_OK && !sbxu_json_at(list, "items"))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the sandbox list has no items");
    if (rc == SBX_OK) {
        /* The line is a nicety: out of memory, the answer stands without it. */
        static const char fmt[] = "Daytona API at %s (credential accepted)";
        size_t size = (size_t)snprintf(NULL, 0, fmt, api.ep.api_url) + 1;
        if ((*detail = host->alloc(size)) != NULL)
            snprintf(*detail, size, fmt, api.ep.api_url);
    }
    json_object_put(list);
    daytona_api_clear(&api);
    return rc;
}
