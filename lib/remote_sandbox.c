/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A remote backend's sandboxes on its control plane: create (never retried
 * blindly: a lost answer may have made a sandbox, and a second try would
 * make another; a 429 made nothing, so it is tried again after the wait
 * the provider asks for; after a 5xx or no answer at all, the sandbox this
 * call may have made is looked for by the create id in its labels and
 * deleted before the next try), delete, lookup and the list by label.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/create.h>
#include <sbxu/json.h>
#include <sbxu/remote.h>

void sbxu_remote_create_id(char out[64])
{
    static unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(out, 64, "%lx-%llx-%x", (long)getpid(),
             (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec,
             __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
}

/* "{sandboxes}/{id}" into out. */
static void sandbox_path(const sbxu_remote_api *a, const char *id, char out[96])
{
    snprintf(out, 96, "%s/%s", a->st->be->sandboxes.path, id);
}

int sbxu_remote_delete(sbxu_remote_api *a, const char *id, const char *context)
{
    char path[96];
    long status = 0;
    sandbox_path(a, id, path);
    int rc = sbxu_remote_call(a, "DELETE", path, NULL, SBXU_HTTP_RETRY_AUTO, context, NULL, &status);
    /* Already gone (its TTL, or a retry after a lost answer): nothing remains. */
    return rc == SBX_E_NOT_FOUND && status == 404 ? SBX_OK : rc;
}

bool sbxu_remote_alive(sbxu_remote_api *a, const char *id)
{
    char path[96];
    long status = 0;
    sandbox_path(a, id, path);
    int rc = sbxu_remote_call(a, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "looking the sandbox up",
                             NULL, &status);
    return !(rc == SBX_E_NOT_FOUND && status == 404);
}

/* The list's path for key=value into out. */
static int list_path(sbxu_remote_api *a, const char *key, const char *value, char *out,
                     size_t size)
{
    const sbxu_remote_backend *be = a->st->be;
    char *text = be->list.filter(key, value);
    if (!text)
        return a->host->set_error(SBX_E_NOMEM, "%s: out of memory", be->plugin);
    char *esc = sbxu_remote_escape(a, text);
    free(text);
    if (!esc)
        return SBX_E_NOMEM;
    int n = snprintf(out, size, "%s%s%s", be->list.path, esc, be->list.limit);
    curl_free(esc);
    if (n < 0 || (size_t)n >= size)
        return a->host->set_error(SBX_E_INVALID_ARGUMENT, "%s: the label filter is too long",
                                  be->plugin);
    return SBX_OK;
}

int sbxu_remote_find(sbxu_remote_api *a, const char *key, const char *value, json_object **list)
{
    const sbxu_remote_backend *be = a->st->be;
    char path[1024];
    *list = NULL;
    int rc = list_path(a, key, value, path, sizeof(path));
    json_object *answer = NULL, *items = NULL;
    if (rc == SBX_OK)
        rc = sbxu_remote_call(a, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "listing sandboxes",
                             &answer, NULL);
    if (rc == SBX_OK && be->list.items)
        rc = sbxu_json_get(&items, json_type_array, a->host, be->plugin, "listing sandboxes",
                          answer, be->list.items);
    else if (rc == SBX_OK && !json_object_is_type(answer, json_type_array))
        rc = a->host->set_error(SBX_E_BACKEND_PROTOCOL, "%s: the sandbox list is not an array",
                                be->plugin);
    else
        items = answer;
    if (rc == SBX_OK)
        *list = json_object_get(items);
    json_object_put(answer);
    return rc;
}

int sbxu_remote_created_id(sbxu_remote_api *a, json_object *out, char id[64])
{
    const sbxu_remote_backend *be = a->st->be;
    const char *got = NULL;
    int rc = sbxu_json_get_string(&got, a->host, be->plugin, "creating a sandbox", out,
                                 be->sandboxes.id_key);
    if (rc == SBX_OK && !be->sandboxes.id_ok(got))
        rc = a->host->set_error(SBX_E_BACKEND_PROTOCOL, "%s: creating a sandbox: a bad %s",
                                be->plugin, be->sandboxes.id_key);
    if (rc == SBX_OK)
        snprintf(id, 64, "%s", got);
    return rc;
}

const char *sbxu_remote_item_id(const sbxu_remote_backend *be, json_object *item)
{
    const char *id = sbxu_json_str(item, be->sandboxes.id_key);
    return id && be->sandboxes.id_ok(id) ? id : NULL;
}

typedef struct create_ctx {
    sbxu_remote_api *a;
    const char *body, *create_id;
    json_object **out;
} create_ctx;

static int create_call(void *ud, long *status, long *retry_after_ms)
{
    create_ctx *c = ud;
    int rc = sbxu_remote_call(c->a, "POST", c->a->st->be->sandboxes.path, c->body, SBXU_HTTP_RETRY_NEVER,
                             "creating a sandbox", c->out, status);
    *retry_after_ms = c->a->retry_after_ms;
    return rc;
}

/* Delete what a create that got no clear answer may have made (found by its create id). */
static int create_sweep(void *ud)
{
    create_ctx *c = ud;
    json_object *list = NULL;
    int rc = sbxu_remote_find(c->a, SBXU_REMOTE_LABEL_CREATE, c->create_id, &list);
    size_t n = rc == SBX_OK ? json_object_array_length(list) : 0;
    for (size_t i = 0; rc == SBX_OK && i < n; i++) {
        const char *id = sbxu_remote_item_id(c->a->st->be, json_object_array_get_idx(list, i));
        if (id)
            rc = sbxu_remote_delete(c->a, id, "deleting the sandbox of a lost create");
    }
    json_object_put(list);
    return rc;
}

int sbxu_remote_create(sbxu_remote_api *a, const char *body, const char *create_id,
                      json_object **out)
{
    create_ctx ctx = {.a = a, .body = body, .create_id = create_id, .out = out};
    sbxu_create c = {.host = a->host, .plugin = a->st->be->plugin, .call = create_call,
                    .sweep = create_sweep, .ud = &ctx};
    return sbxu_create_run(&c);
}
