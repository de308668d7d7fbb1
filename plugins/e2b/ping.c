/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ping: does E2B's control plane behind the DSN answer, and does it take
 * the key (for `sandboxio doctor --online`). The call is the one list()
 * makes, cut to one entry: GET /v2/sandboxes is authenticated (a bad key
 * is its 401) and changes nothing. The same session, endpoint and error
 * mapping a sandbox would meet; nothing is created.
 */
#include "e2b.h"

#include <stdio.h>
#include <sandboxio/errors.h>

int e2b_ping(void *state, const sbx_plugin_dsn *dsn, char **detail)
{
    e2b_state *st = state;
    const sbx_host *host = st->host;
    e2b_api api;
    json_object *list = NULL;

    int rc = e2b_api_open(&api, st, dsn);
    if (rc)
        return rc;
    rc = e2b_api_call(&api, "GET", "/v2/sandboxes?limit=1", NULL, SBXU_HTTP_RETRY_AUTO,
                      "checking the API key (listing sandboxes)", &list, NULL);
    if (rc == SBX_OK && !json_object_is_type(list, json_type_array))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: the sandbox list is not an array");
    if (rc == SBX_OK) {
        /* The line is a nicety: out of memory, the answer stands without it. */
        static const char fmt[] = "E2B control plane at %s (API key accepted)";
        size_t size = (size_t)snprintf(NULL, 0, fmt, api.ep.api_url) + 1;
        if ((*detail = host->alloc(size)) != NULL)
            snprintf(*detail, size, fmt, api.ep.api_url);
    }
    json_object_put(list);
    e2b_api_clear(&api);
    return rc;
}
