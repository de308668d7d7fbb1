/*
 * `sandboxio gc` for docker: list the containers this backend made (they
 * carry SBX_LABEL_MARK) and let plugins/lib's sweep remove those whose owner
 * is gone or whose TTL has passed.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gc_ctx {
    dk_conn *conn;
    json_object *list;
    int (*report)(void *userdata, const char *id, const char *reason);
    void *userdata;
} gc_ctx;

/* A container's id, or NULL for an entry that is not a well-formed one. */
static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    json_object *c = json_object_array_get_idx(g->list, i);
    const char *id = sbx_json_str(c, "Id");
    if (!id || !id[0] || strspn(id, "0123456789abcdef") != strlen(id) ||
        !json_object_object_get_ex(c, "Labels", NULL))
        return NULL;
    return id;
}

static const char *item_label(void *ud, size_t i, const char *key)
{
    gc_ctx *g = ud;
    json_object *labels = NULL;
    json_object_object_get_ex(json_object_array_get_idx(g->list, i), "Labels", &labels);
    return sbx_json_str(labels, key);
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    return dk_container_remove(g->conn, item_id(ud, i));
}

/* Containers are reported by their short id, as the docker CLI shows them. */
static int report_short(void *ud, const char *id, const char *reason)
{
    gc_ctx *g = ud;
    char short_id[13];
    snprintf(short_id, sizeof(short_id), "%s", id);
    return g->report ? g->report(g->userdata, short_id, reason) : 0;
}

int dk_gc(void *state, const sbx_plugin_dsn *dsn,
          int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
          size_t *removed)
{
    dk_state *st = state;
    const sbx_host *host = st->host;
    dk_options opt;
    dk_conn conn;
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
    char *filter = sbx_http_escape(&conn.http, "{\"label\":[\"" SBX_LABEL_MARK "\"]}");
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
    if (rc == SBX_OK) {
        gc_ctx g = {.conn = &conn, .list = list, .report = report, .userdata = userdata};
        sbx_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbx_gc_sweep(&items, report_short, &g, removed);
    }
    json_object_put(list);
    dk_conn_clear(&conn);
    return rc;
}
