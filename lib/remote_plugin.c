/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A remote backend's state: libcurl's global state and the pool of HTTP
 * sessions its sandboxes share. Nothing here reaches the provider.
 */
#include "config.h"

#include <stdlib.h>
#include <sandboxio/errors.h>

#include <sbxu/remote.h>

int sbxu_remote_init(const sbx_host *host, void **state)
{
    const sbxu_remote_backend *be = &sbxu_remote_this_backend;
    sbxu_remote_state *st = calloc(1, sizeof(*st));
    if (!st)
        return host->set_error(SBX_E_NOMEM, "%s: out of memory", be->plugin);
    CURLcode cc = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (cc != CURLE_OK) {
        free(st);
        return host->set_error(SBX_E_PLUGIN_INIT_FAILED, "%s: curl_global_init: %s", be->plugin,
                               curl_easy_strerror(cc));
    }
    st->host = host;
    st->be = be;
    int rc = sbxu_http_pool_init(&st->pool, host, be->plugin);
    if (rc) {
        curl_global_cleanup();
        free(st);
        return rc;
    }
    *state = st;
    return SBX_OK;
}

void sbxu_remote_fini(void *state)
{
    sbxu_remote_state *st = state;
    sbxu_http_pool_clear(&st->pool);
    curl_global_cleanup();
    free(st);
}
