/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A remote backend's gc and ping. gc lists the sandboxes this backend
 * made (the mark in their labels) and lets the sweep (sbxu/owner.h) delete
 * those whose owner is gone or whose TTL has passed: providers end a
 * sandbox at its timeout themselves, this catches those of a client that
 * died long before. ping asks the backend's list cut to one entry: it is
 * authenticated (a bad key is its 401) and changes nothing; the same
 * session, endpoint and error rules a sandbox would meet.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/errors.h>

#include <sbxu/json.h>
#include <sbxu/owner.h>
#include <sbxu/remote.h>

/* The backend's API object for dsn in *api (free with api_close). */
static int api_open(sbxu_remote_state *st, const sbx_plugin_dsn *dsn, void **api)
{
    *api = calloc(1, st->be->api.size);
    if (!*api)
        return st->host->set_error(SBX_E_NOMEM, "%s: out of memory", st->be->plugin);
    int rc = sbxu_remote_api_open(*api, st, dsn);
    if (rc) {
        free(*api);
        *api = NULL;
    }
    return rc;
}

static void api_close(sbxu_remote_state *st, void *api)
{
    st->be->api.clear(api);
    free(api);
}

typedef struct gc_ctx {
    sbxu_remote_api *api;
    json_object *list;
} gc_ctx;

static const char *item_id(void *ud, size_t i)
{
    gc_ctx *g = ud;
    const sbxu_remote_backend *be = g->api->st->be;
    json_object *s = json_object_array_get_idx(g->list, i);
    json_object *labels = sbxu_json_at(s, be->sandboxes.labels_key);
    if (!labels || !sbxu_json_str(labels, SBXU_LABEL_MARK))
        return NULL;
    return sbxu_remote_item_id(be, s);
}

static const char *item_label(void *ud, size_t i, const char *key)
{
    gc_ctx *g = ud;
    json_object *s = json_object_array_get_idx(g->list, i);
    return sbxu_json_str(sbxu_json_at(s, g->api->st->be->sandboxes.labels_key), key);
}

static int item_remove(void *ud, size_t i)
{
    gc_ctx *g = ud;
    return sbxu_remote_delete(g->api, item_id(ud, i), "gc: deleting a sandbox");
}

int sbxu_remote_gc(void *state, const sbx_plugin_dsn *dsn,
                  int (*report)(void *userdata, const char *id, const char *reason),
                  void *userdata, size_t *removed)
{
    sbxu_remote_state *st = state;
    void *api;
    if (removed)
        *removed = 0;
    int rc = api_open(st, dsn, &api);
    if (rc)
        return rc;
    json_object *list = NULL;
    rc = sbxu_remote_find(api, SBXU_LABEL_MARK, "1", &list);
    if (rc == SBX_OK) {
        gc_ctx g = {.api = api, .list = list};
        sbxu_gc_list items = {.count = json_object_array_length(list), .id = item_id,
                             .label = item_label, .remove = item_remove, .ud = &g};
        rc = sbxu_gc_sweep(&items, report, userdata, removed);
    }
    json_object_put(list);
    api_close(st, api);
    return rc;
}

int sbxu_remote_ping(void *state, const sbx_plugin_dsn *dsn, char **detail)
{
    sbxu_remote_state *st = state;
    const sbxu_remote_backend *be = st->be;
    void *mem;
    json_object *list = NULL, *items = NULL;
    int rc = api_open(st, dsn, &mem);
    if (rc)
        return rc;
    sbxu_remote_api *api = mem;
    rc = sbxu_remote_call(api, "GET", be->ping.path, NULL, SBXU_HTTP_RETRY_AUTO, be->ping.context,
                         &list, NULL);
    if (rc == SBX_OK)
        items = be->list.items ? sbxu_json_at(list, be->list.items) : list;
    if (rc == SBX_OK && !json_object_is_type(items, json_type_array))
        rc = st->host->set_error(SBX_E_BACKEND_PROTOCOL, "%s: the sandbox list is not an array",
                                 be->plugin);
    if (rc == SBX_OK) {
        /* The line is a nicety: out of memory, the answer stands without it. */
        static const char fmt[] = "%s at %s (%s)";
        const char *who = be->ping.who, *ok = be->ping.accepted;
        size_t size = (size_t)snprintf(NULL, 0, fmt, who, api->base_url, ok) + 1;
        if ((*detail = st->host->alloc(size)) != NULL)
            snprintf(*detail, size, fmt, who, api->base_url, ok);
    }
    json_object_put(list);
    api_close(st, mem);
    return rc;
}
