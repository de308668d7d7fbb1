/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ping: is the daemon behind the DSN there, and which one (for `sandboxio
 * doctor --online`). The same connection a sandbox would make: the
 * endpoint, the API version negotiated on /_ping, then /version for the
 * line shown. Nothing is created.
 */
#include "docker.h"

#include <stdio.h>
#include <string.h>

int dk_ping(void *state, const sbx_plugin_dsn *dsn, char **detail)
{
    dk_state *st = state;
    const sbx_host *host = st->host;
    dk_options opt;
    dk_conn conn;
    json_object *v = NULL;

    int rc = dk_options_parse(host, dsn, &opt);
    if (rc)
        return rc;
    dk_options_clear(&opt);
    if ((rc = dk_connect(host, dsn, &conn)) != SBX_OK)
        return rc;
    rc = dk_api_json(&conn, "GET", "/version", NULL, "asking the daemon for its version", &v);
    if (rc == SBX_OK) {
        const char *version = sbxu_json_str(v, "Version"), *api = sbxu_json_str(v, "ApiVersion");
        const char *os = sbxu_json_str(v, "Os"), *arch = sbxu_json_str(v, "Arch");
        char text[512];
        snprintf(text, sizeof(text), "Docker Engine %s (API %s, %s/%s) at %s",
                 version ? version : "?", api ? api : "?", os ? os : "?", arch ? arch : "?",
                 conn.ep.display);
        char *line = host->alloc(strlen(text) + 1);
        if (line)
            memcpy(line, text, strlen(text) + 1);
        *detail = line;
    }
    json_object_put(v);
    dk_conn_clear(&conn);
    return rc;
}
