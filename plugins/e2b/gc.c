/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `sandboxio gc` for e2b: list the sandboxes this backend made (GET
 * /v2/sandboxes, the non-deprecated list, filtered by the mark in their
 * metadata) and let sbxu's sweep kill those whose owner is gone or
 * whose TTL has passed. E2B kills a sandbox at its timeout itself; this
 * catches those of a client that died long before it.
 */
#include "e2b.h"

#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/owner.h>

typedef struct gc_ctx {
    e2b_api *api;
    json_object *list;
} gc_ctx;

static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    json_object *s = json_object_array_get_idx(g->list, i);
    const char *id = sbxu_json_str(s, "sandboxID");
    json_object *meta = sbxu_json_at(s, "metadata");
    if (!id || !id[0] || strlen(id) >= 64 || !meta || !sbxu_json_str(meta, SBXU_LABEL_MARK))
        return NULL;
    return id;
}

static const char *item_label(void *ud, size_t i, const char *key)
{
    gc_ctx *g = ud;
    return sbxu_json_str(sbxu_json_at(json_object_array_get_idx(g->list, i), "metadata"), key);
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/sandboxes/%s", item_id(ud, i));
    int rc = e2b_api_call(g->api, "DELETE", path, NULL, SBXU_HTTP_RETRY_AUTO, "gc: killing a sandbox",
                          NULL, &status);
    return rc == SBX_E_NOT_FOUND && status == 404 ? SBX_OK : rc;
}

int e2b_gc(void *state, const sbx_plugin_dsn *dsn,
           int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
           size_t *removed)
{
    e2b_state *st = state;
    e2b_api api;
    if (removed)
        *removed = 0;
    int rc = e2b_api_open(&api, st, dsn);
    if (rc)
        return rc;
    json_object *list = NULL;
    rc = e2b_find(&api, SBXU_LABEL_MARK, "1", &list);
    if (rc == SBX_OK) {
        gc_ctx g = {.api = &api, .list = list};
        sbxu_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbxu_gc_sweep(&items, report, userdata, removed);
    }
    json_object_put(list);
    e2b_api_clear(&api);
    return rc;
}
