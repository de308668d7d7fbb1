/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `sandboxio gc` for docker: list the containers this backend made (they
 * carry SBXU_LABEL_MARK) and let sbxu's sweep remove those whose owner
 * is gone or whose TTL has passed.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gc_ctx {
    dk_conn *conn;
    json_object *list;
    json_object *vols;          /* TTL volumes: a named sandbox's moved end */
    char ttl[24];               /* item_label's answer for a moved end */
    int (*report)(void *userdata, const char *id, const char *reason);
    void *userdata;
} gc_ctx;

/* A container's id, or NULL for an entry that is not a well-formed one. */
static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    json_object *c = json_object_array_get_idx(g->list, i);
    const char *id = sbxu_json_str(c, "Id");
    if (!id || !id[0] || strspn(id, "0123456789abcdef") != strlen(id) ||
        !json_object_object_get_ex(c, "Labels", NULL))
        return NULL;
    return id;
}

/*
 * A label's value; for a named sandbox whose end a TTL volume moved, its
 * TTL in seconds from creation to that end (at least 1, so that an end
 * already passed counts as passed).
 */
static const char *item_label(void *ud, size_t i, const char *key)
{
    gc_ctx *g = ud;
    json_object *labels = NULL;
    json_object_object_get_ex(json_object_array_get_idx(g->list, i), "Labels", &labels);
    const char *id = item_id(ud, i), *created = sbxu_json_str(labels, SBXU_LABEL_CREATED);
    if (strcmp(key, SBXU_LABEL_TTL) == 0 && id && created && sbxu_json_str(labels, DK_LABEL_POLICY)) {
        int64_t end = dk_expires_ms(labels, g->vols, id);
        int64_t ttl = end ? (end + 999) / 1000 - strtoll(created, NULL, 10) : 0;
        if (end) {
            snprintf(g->ttl, sizeof(g->ttl), "%lld", (long long)(ttl > 0 ? ttl : 1));
            return g->ttl;
        }
    }
    return sbxu_json_str(labels, key);
}

/* TTL volumes whose container is gone (it was removed by hand, say). */
static int drop_orphan_volumes(gc_ctx *g)
{
    int rc = SBX_OK;
    for (size_t v = 0; rc == SBX_OK && v < json_object_array_length(g->vols); v++) {
        json_object *vol = json_object_array_get_idx(g->vols, v);
        const char *of = sbxu_json_str(sbxu_json_at(vol, "Labels"), DK_LABEL_TTL_FOR);
        const char *name = sbxu_json_str(vol, "Name");
        bool alive = false;
        for (size_t i = 0; of && !alive && i < json_object_array_length(g->list); i++) {
            const char *id = sbxu_json_str(json_object_array_get_idx(g->list, i), "Id");
            alive = id && strcmp(id, of) == 0;
        }
        if (!alive && name) {
            char path[300];
            snprintf(path, sizeof(path), "/volumes/%s?force=1", name);
            sbxu_http_request rq = {.method = "DELETE", .path = path};
            sbxu_http_response rs = {0};
            rc = dk_http(g->conn, &rq, &rs);
            if (rc == SBX_OK && rs.status != 204 && rs.status != 404)
                rc = dk_api_fail(g->conn, &rs, "removing a TTL volume");
            sbxu_http_response_clear(&rs);
        }
    }
    return rc;
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    return dk_kept_remove(g->conn, item_id(ud, i));
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
    char *filter = sbxu_http_escape(&conn.http, "{\"label\":[\"" SBXU_LABEL_MARK "\"]}");
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
    json_object *vols = NULL;
    if (rc == SBX_OK)
        rc = dk_ttl_volumes(&conn, "", &vols);
    if (rc == SBX_OK) {
        gc_ctx g = {.conn = &conn, .list = list, .vols = vols, .report = report,
                    .userdata = userdata};
        sbxu_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbxu_gc_sweep(&items, report_short, &g, removed);
        if (rc == SBX_OK)
            rc = drop_orphan_volumes(&g);
    }
    json_object_put(vols);
    json_object_put(list);
    dk_conn_clear(&conn);
    return rc;
}
