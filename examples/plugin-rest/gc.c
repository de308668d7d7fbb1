/* SPDX-License-Identifier: Apache-2.0 */
/* example: skip: built against the installed kit (tests/plugin-rest-passes-contract.sh) */
/*
 * `sandboxio gc` for restdemo: list the service's sandboxes and let the
 * kit's sweep remove those carrying our mark whose owner process is gone
 * (on this machine, this boot) or whose TTL has passed.
 */
#include "restdemo.h"

#include <stdio.h>
#include <string.h>

#include <sbxu/json.h>
#include <sbxu/owner.h>

typedef struct gc_ctx {
    rd_api *api;
    json_object *list;
} gc_ctx;

static json_object *labels_of(gc_ctx *g, size_t i)
{
    return sbxu_json_at(json_object_array_get_idx(g->list, i), "labels");
}

static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    const char *id = sbxu_json_str(json_object_array_get_idx(g->list, i), "id");
    /* Not one of ours, or not an id we can put in a path: pass over it. */
    if (!id || !*id || strlen(id) >= 64 || strchr(id, '/') ||
        !sbxu_json_str(labels_of(g, i), SBXU_LABEL_MARK))
        return NULL;
    return id;
}

static const char *item_label(void *ud, size_t i, const char *key)
{
    return sbxu_json_str(labels_of(ud, i), key);
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/v1/sandboxes/%s", item_id(ud, i));
    int rc = rd_api_call(g->api, "DELETE", path, NULL, SBXU_HTTP_RETRY_AUTO,
                         "gc: removing a sandbox", NULL, &status);
    return rc == SBX_E_NOT_FOUND && status == 404 ? SBX_OK : rc;
}

int rd_gc(void *state, const sbx_plugin_dsn *dsn,
          int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
          size_t *removed)
{
    const sbx_host *host = state;
    rd_api api;
    json_object *answer = NULL, *list = NULL;
    (void)dsn;
    if (removed)
        *removed = 0;
    int rc = rd_api_open(&api, host);
    if (rc)
        return rc;
    rc = rd_api_call(&api, "GET", "/v1/sandboxes", NULL, SBXU_HTTP_RETRY_AUTO,
                     "gc: listing sandboxes", &answer, NULL);
    if (!rc)
        rc = sbxu_json_get(&list, json_type_array, host, RD_PLUGIN, "gc: listing sandboxes", answer,
                          "sandboxes");
    if (!rc) {
        gc_ctx g = {.api = &api, .list = list};
        sbxu_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbxu_gc_sweep(&items, report, userdata, removed);
    }
    json_object_put(answer);
    rd_api_close(&api);
    return rc;
}
