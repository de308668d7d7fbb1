/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `sandboxio gc` for daytona: list the sandboxes this backend made (GET
 * /sandbox filtered by the mark in their labels) and let sbxu's
 * sweep delete those whose owner is gone or whose TTL has passed. Daytona
 * ends a sandbox at its ttlMinutes itself; this catches those of a client
 * that died long before.
 */
#include "daytona.h"

#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/owner.h>

typedef struct gc_ctx {
    daytona_api *api;
    json_object *list;
} gc_ctx;

static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    json_object *s = json_object_array_get_idx(g->list, i);
    const char *id = sbxu_json_str(s, "id");
    json_object *labels = sbxu_json_at(s, "labels");
    if (!id || !daytona_id_ok(id) || !labels || !sbxu_json_str(labels, SBXU_LABEL_MARK))
        return NULL;
    return id;
}

static const char *item_label(void *ud, size_t i, const char *key)
{
    gc_ctx *g = ud;
    return sbxu_json_str(sbxu_json_at(json_object_array_get_idx(g->list, i), "labels"), key);
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    return daytona_delete(g->api, item_id(ud, i), "gc: deleting a sandbox");
}

int daytona_gc(void *state, const sbx_plugin_dsn *dsn,
               int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
               size_t *removed)
{
    daytona_state *st = state;
    daytona_api api;
    if (removed)
        *removed = 0;
    int rc = daytona_api_open(&api, st, dsn);
    if (rc)
        return rc;
    json_object *list = NULL;
    rc = daytona_find(&api, SBXU_LABEL_MARK, "1", &list);
    if (rc == SBX_OK) {
        gc_ctx g = {.api = &api, .list = list};
        sbxu_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbxu_gc_sweep(&items, report, userdata, removed);
    }
    json_object_put(list);
    daytona_api_clear(&api);
    return rc;
}
