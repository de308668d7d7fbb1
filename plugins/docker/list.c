/* SPDX-License-Identifier: Apache-2.0 */
/*
 * list() for docker: the named sandboxes of this user (containers with the
 * sandboxio mark, a stored policy and our uid), with their end from the
 * labels or a later TTL volume; one past its end is removed, not listed.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One entry of /containers/json: reported, skipped, or removed past its end. */
static int one(dk_conn *c, json_object *item, json_object *vols,
               int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata)
{
    json_object *labels = sbxu_json_at(item, "Labels");
    const char *id = sbxu_json_str(item, "Id");
    const char *name = sbxu_json_str(labels, DK_LABEL_NAME);
    const char *created = sbxu_json_str(labels, SBXU_LABEL_CREATED);
    if (!id || strspn(id, "0123456789abcdef") != strlen(id))
        return SBX_OK;
    int64_t end = dk_expires_ms(labels, vols, id);
    if (end && sbxu_wall_ms() >= end)
        return dk_kept_remove(c, id);
    sbx_plugin_sandbox_info info = {
        .struct_size = sizeof(info),
        .id = id,
        .name = name ? name : "",
        .created_ms = created ? strtoll(created, NULL, 10) * 1000 : 0,
        .expires_ms = end,
        .owner = sbxu_json_str(labels, SBXU_LABEL_HOST) ? sbxu_json_str(labels, SBXU_LABEL_HOST) : "",
        .state = dk_state_of(sbxu_json_str(item, "State")),
        .policy = sbxu_json_str(labels, DK_LABEL_POLICY),
    };
    return entry(userdata, &info) ? -1 : SBX_OK;
}

int dk_list(void *state, const sbx_plugin_dsn *dsn,
            int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata)
{
    const sbx_host *host = ((dk_state *)state)->host;
    dk_options opt;
    dk_conn conn;
    int rc = dk_options_parse(host, dsn, &opt);
    if (rc)
        return rc;
    dk_options_clear(&opt);
    if ((rc = dk_connect(host, dsn, &conn)) != SBX_OK)
        return rc;
    char filter[256], path[512];
    snprintf(filter, sizeof(filter), "{\"label\":[\"%s\",\"%s\",\"%s=%lu\"]}", SBXU_LABEL_MARK,
             DK_LABEL_POLICY, DK_LABEL_UID, (unsigned long)geteuid());
    char *esc = sbxu_http_escape(&conn.http, filter);
    json_object *list = NULL, *vols = NULL;
    if (!esc) {
        dk_conn_clear(&conn);
        return host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    snprintf(path, sizeof(path), "/containers/json?all=1&filters=%s", esc);
    curl_free(esc);
    rc = dk_api_json(&conn, "GET", path, NULL, "listing sandboxio containers", &list);
    if (rc == SBX_OK && !json_object_is_type(list, json_type_array))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: the container list is not an array");
    if (rc == SBX_OK)
        rc = dk_ttl_volumes(&conn, "", &vols);
    for (size_t i = 0; rc == SBX_OK && i < json_object_array_length(list); i++)
        rc = one(&conn, json_object_array_get_idx(list, i), vols, entry, userdata);
    json_object_put(vols);
    json_object_put(list);
    dk_conn_clear(&conn);
    return rc < 0 ? SBX_OK : rc;
}
