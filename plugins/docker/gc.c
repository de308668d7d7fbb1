/*
 * `sandboxio gc` for docker: remove the containers this backend made whose
 * owner is gone or whose TTL has passed.
 *
 * The owner is known by labels: host name, boot id, pid and the pid's start
 * time. Only an owner on this machine in this boot can be checked (its pid
 * must be running with the same start time, which catches pid reuse); a
 * container made from another machine goes only when its TTL passes.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *label(json_object *labels, const char *key)
{
    return dk_json_str(labels, key);
}

int dk_gc(void *state, const sbx_plugin_dsn *dsn,
          int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
          size_t *removed)
{
    dk_state *st = state;
    const sbx_host *host = st->host;
    dk_options opt;
    dk_conn conn;
    size_t count = 0;
    if (removed)
        *removed = 0;
    int rc = dk_options_parse(host, dsn, &opt);
    if (rc)
        return rc;
    dk_options_clear(&opt);
    rc = dk_connect(host, dsn, &conn);
    if (rc)
        return rc;
    json_object *list = NULL;
    char *filter = dk_escape(&conn, "{\"label\":[\"" DK_LABEL_MARK "\"]}");
    char path[256];
    if (!filter) {
        dk_conn_clear(&conn);
        return host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    snprintf(path, sizeof(path), "/containers/json?all=1&filters=%s", filter);
    curl_free(filter);
    rc = dk_api_json(&conn, "GET", path, NULL, "listing sandboxio containers", &list);
    if (rc == SBX_OK && !json_object_is_type(list, json_type_array))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: the container list is not an array");
    dk_owner self;
    dk_owner_self(&self);
    int64_t now = (int64_t)time(NULL);
    size_t n = rc == SBX_OK ? json_object_array_length(list) : 0;
    for (size_t i = 0; rc == SBX_OK && i < n; i++) {
        json_object *c = json_object_array_get_idx(list, i), *labels = NULL;
        const char *id = dk_json_str(c, "Id");
        if (!id || strspn(id, "0123456789abcdef") != strlen(id) || !id[0] ||
            !json_object_object_get_ex(c, "Labels", &labels))
            continue;
        const char *why = dk_gc_verdict(&self, label(labels, DK_LABEL_HOST),
                                        label(labels, DK_LABEL_BOOT), label(labels, DK_LABEL_PID),
                                        label(labels, DK_LABEL_START),
                                        label(labels, DK_LABEL_CREATED),
                                        label(labels, DK_LABEL_TTL), now, dk_proc_start);
        if (!why)
            continue;
        rc = dk_container_remove(&conn, id);
        if (rc)
            break;
        count++;
        char short_id[13];
        snprintf(short_id, sizeof(short_id), "%s", id);
        if (report && report(userdata, short_id, why) != 0)
            break;
    }
    json_object_put(list);
    dk_conn_clear(&conn);
    if (removed)
        *removed = count;
    return rc;
}
