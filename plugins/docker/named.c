/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docker backend's minor-2 members. A named sandbox is a container
 * called "sandboxio-<name>" whose labels carry its owner's user, name, the
 * policy the core stored and its end; labels are fixed at create, so a TTL
 * moved later is a volume labelled with the container's id and the new end
 * (the newest one counts). The TTL is enforced wherever the backend looks:
 * attach and list remove a container past its end, and so does gc.
 */
#include "docker.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dk_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  const sbx_plugin_sandbox_opts *opts, void **sandbox)
{
    dk_sandbox *sb;
    int64_t created = sbxu_wall_ms();
    int rc = dk_sandbox_create(state, dsn, limits, NULL, opts, &sb);
    if (rc == SBX_E_EXISTS)
        /* The engine's 409 "name already in use". */
        return ((dk_state *)state)->host->set_error(SBX_E_BACKEND_CONFLICT,
                                                    "docker: a sandbox named \"%s\" exists already",
                                                    opts->name ? opts->name : "");
    if (rc)
        return rc;
    sb->named = NULL;
    sb->kept = true;
    snprintf(sb->name, sizeof(sb->name), "%s", opts->name ? opts->name : "");
    sb->created_ms = created;
    sb->expires_ms = opts->ttl_ms ? created + (int64_t)opts->ttl_ms : 0;
    rc = opts->policy && !(sb->policy = strdup(opts->policy))
             ? sb->host->set_error(SBX_E_NOMEM, "docker: out of memory")
             : dk_container_start(sb);
    if (rc) {
        (void)dk_container_remove(&sb->conn, sb->id);
        dk_sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int dk_ttl_volumes(dk_conn *c, const char *id, json_object **out)
{
    char filter[256], path[512];
    snprintf(filter, sizeof(filter), "{\"label\":[\"%s%s%s\"]}", DK_LABEL_TTL_FOR, id[0] ? "=" : "",
             id);
    char *esc = sbxu_http_escape(&c->http, filter);
    if (!esc)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    snprintf(path, sizeof(path), "/volumes?filters=%s", esc);
    curl_free(esc);
    json_object *answer = NULL;
    int rc = dk_api_json(c, "GET", path, NULL, "listing TTL volumes", &answer);
    json_object *vols = rc == SBX_OK ? sbxu_json_at(answer, "Volumes") : NULL;
    *out = vols && json_object_is_type(vols, json_type_array) ? json_object_get(vols)
                                                              : json_object_new_array();
    json_object_put(answer);
    return rc;
}

/* The newest end a TTL volume of id gives, 0 if none. */
static int64_t volume_end(json_object *vols, const char *id, int64_t *set_at)
{
    int64_t best_at = 0, end = 0;
    for (size_t i = 0; vols && i < json_object_array_length(vols); i++) {
        json_object *labels = sbxu_json_at(json_object_array_get_idx(vols, i), "Labels");
        const char *of = sbxu_json_str(labels, DK_LABEL_TTL_FOR);
        const char *e = sbxu_json_str(labels, DK_LABEL_EXPIRES);
        const char *at = sbxu_json_str(labels, SBXU_LABEL_CREATED);
        if (!of || !e || !at || strcmp(of, id) != 0)
            continue;
        int64_t a = strtoll(at, NULL, 10);
        if (a >= best_at) {
            best_at = a;
            end = strtoll(e, NULL, 10);
        }
    }
    if (set_at)
        *set_at = best_at;
    return end;
}

int64_t dk_expires_ms(json_object *labels, json_object *vols, const char *id)
{
    int64_t moved = volume_end(vols, id, NULL);
    if (moved)
        return moved;
    const char *e = sbxu_json_str(labels, DK_LABEL_EXPIRES);
    return e ? strtoll(e, NULL, 10) : 0;
}

static int volume_remove(dk_conn *c, const char *name)
{
    char path[300];
    snprintf(path, sizeof(path), "/volumes/%s?force=1", name);
    sbxu_http_request rq = {.method = "DELETE", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(c, &rq, &rs);
    if (rc == SBX_OK && rs.status != 204 && rs.status != 404)
        rc = dk_api_fail(c, &rs, "removing a TTL volume");
    sbxu_http_response_clear(&rs);
    return rc;
}

/* Remove the TTL volumes of id but keep (NULL: none) the one named keep. */
static int volumes_drop(dk_conn *c, const char *id, const char *keep)
{
    json_object *vols = NULL;
    int rc = dk_ttl_volumes(c, id, &vols);
    for (size_t i = 0; rc == SBX_OK && i < json_object_array_length(vols); i++) {
        const char *name = sbxu_json_str(json_object_array_get_idx(vols, i), "Name");
        if (name && (!keep || strcmp(name, keep) != 0))
            rc = volume_remove(c, name);
    }
    json_object_put(vols);
    return rc;
}

int dk_kept_remove(dk_conn *c, const char *id)
{
    int rc = dk_container_remove(c, id);
    return rc ? rc : volumes_drop(c, id, NULL);
}

/* Is the container (its inspect answer) a named sandbox of this user? */
static bool ours(json_object *inspect)
{
    json_object *labels = sbxu_json_at(inspect, "Config.Labels");
    const char *uid = sbxu_json_str(labels, DK_LABEL_UID);
    char me[24];
    snprintf(me, sizeof(me), "%lu", (unsigned long)geteuid());
    return sbxu_json_str(labels, SBXU_LABEL_MARK) && sbxu_json_str(labels, DK_LABEL_POLICY) && uid &&
           strcmp(uid, me) == 0;
}

/* GET /containers/<ref>/json; SBX_E_NOT_FOUND when the engine has none. */
static int inspect(dk_conn *c, const char *ref, json_object **out)
{
    char *esc = sbxu_http_escape(&c->http, ref);
    char path[400];
    if (!esc)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    snprintf(path, sizeof(path), "/containers/%s/json", esc);
    curl_free(esc);
    return dk_api_json(c, "GET", path, NULL, "looking up the sandbox", out);
}

/* The container id_or_name names: an id or its prefix, else our name for it. */
static int find(dk_conn *c, const char *id_or_name, json_object **out)
{
    char name[128];
    bool hex = strspn(id_or_name, "0123456789abcdef") == strlen(id_or_name);
    int rc = hex ? inspect(c, id_or_name, out) : SBX_E_NOT_FOUND;
    if (rc == SBX_E_NOT_FOUND && strlen(id_or_name) <= 63) {
        snprintf(name, sizeof(name), DK_NAME_PREFIX "%s", id_or_name);
        rc = inspect(c, name, out);
    }
    if (rc == SBX_OK && !ours(*out))
        rc = SBX_E_NOT_FOUND;
    if (rc == SBX_E_NOT_FOUND) {
        json_object_put(*out);
        *out = NULL;
        return c->host->set_error(SBX_E_NOT_FOUND, "docker: no sandbox \"%s\" of this user",
                                  id_or_name);
    }
    return rc;
}

int dk_state_of(const char *status)
{
    if (!status)
        return SBX_PLUGIN_STATE_UNKNOWN;
    if (strcmp(status, "running") == 0)
        return SBX_PLUGIN_STATE_RUNNING;
    if (strcmp(status, "paused") == 0)
        return SBX_PLUGIN_STATE_PAUSED;
    return SBX_PLUGIN_STATE_STOPPED;
}

/* Fill the handle from the inspect answer; SBX_E_NOT_FOUND (and removed) past its end. */
static int adopt(dk_sandbox *sb, json_object *in, sbx_plugin_sandbox_info *info)
{
    json_object *labels = sbxu_json_at(in, "Config.Labels"), *vols = NULL;
    const char *id = sbxu_json_str(in, "Id");
    if (!id || strlen(id) >= sizeof(sb->id))
        return sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: the container has no Id");
    snprintf(sb->id, sizeof(sb->id), "%s", id);
    int rc = dk_ttl_volumes(&sb->conn, sb->id, &vols);
    sb->expires_ms = dk_expires_ms(labels, vols, sb->id);
    json_object_put(vols);
    if (rc)
        return rc;
    if (sb->expires_ms && sbxu_wall_ms() >= sb->expires_ms) {
        (void)dk_kept_remove(&sb->conn, sb->id);
        return sb->host->set_error(SBX_E_NOT_FOUND, "docker: sandbox %.12s reached its TTL",
                                   sb->id);
    }
    const char *wd = sbxu_json_str(sbxu_json_at(in, "Config"), "WorkingDir");
    if (wd && wd[0] == '/') {
        char *copy = strdup(wd);
        if (!copy)
            return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
        free(sb->opt.workdir);
        sb->opt.workdir = copy;
    }
    const char *name = sbxu_json_str(labels, DK_LABEL_NAME);
    const char *created = sbxu_json_str(labels, SBXU_LABEL_CREATED);
    snprintf(sb->name, sizeof(sb->name), "%s", name ? name : "");
    sb->created_ms = created ? strtoll(created, NULL, 10) * 1000 : 0;
    if (!(sb->policy = strdup(sbxu_json_str(labels, DK_LABEL_POLICY))))
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    sb->memory_limited = sbxu_json_int(sbxu_json_at(in, "HostConfig"), "Memory", 0) > 0;
    sb->kept = true;
    info->id = sb->id;
    info->name = sb->name;
    info->created_ms = sb->created_ms;
    info->expires_ms = sb->expires_ms;
    info->owner = "";
    info->state = dk_state_of(sbxu_json_str(sbxu_json_at(in, "State"), "Status"));
    if (SBX_STRUCT_HAS(info, policy))
        info->policy = sb->policy;
    return SBX_OK;
}

int dk_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name, void **sandbox,
              sbx_plugin_sandbox_info *info)
{
    const sbx_host *host = ((dk_state *)state)->host;
    dk_sandbox *sb;
    json_object *in = NULL;
    int rc = dk_sandbox_new(host, dsn, &sb);
    if (rc)
        return rc;
    rc = find(&sb->conn, id_or_name, &in);
    if (rc == SBX_OK)
        rc = adopt(sb, in, info);
    json_object_put(in);
    if (rc) {
        dk_sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int dk_detach(void *sandbox)
{
    /* The container goes on; only our connection to it ends. */
    dk_sandbox_free(sandbox);
    return SBX_OK;
}

int dk_set_ttl(void *sandbox, uint64_t ttl_ms)
{
    dk_sandbox *sb = sandbox;
    if (!sb->kept)
        return sb->host->set_error(SBX_E_BACKEND_CONFLICT,
                                   "docker: sandbox %.12s was opened without a name or TTL and "
                                   "cannot get one now", sb->id);
    int64_t now = sbxu_wall_ms(), end = now + (int64_t)ttl_ms;
    char name[128], at[24], endtxt[24];
    snprintf(name, sizeof(name), "sandboxio-ttl-%.12s-%" PRId64, sb->id, now);
    snprintf(at, sizeof(at), "%" PRId64, now);
    snprintf(endtxt, sizeof(endtxt), "%" PRId64, end);
    json_object *labels = json_object_new_object(), *body = json_object_new_object();
    if (!labels || !body) {
        json_object_put(labels);
        json_object_put(body);
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    int bad = 0;
    bad |= sbxu_json_add_str(labels, DK_LABEL_TTL_FOR, sb->id);
    bad |= sbxu_json_add_str(labels, DK_LABEL_EXPIRES, endtxt);
    bad |= sbxu_json_add_str(labels, SBXU_LABEL_CREATED, at);
    bad |= sbxu_json_add_str(body, "Name", name);
    bad |= sbxu_json_add(body, "Labels", labels);  /* body owns labels now, or it is freed */
    char *text = bad ? NULL : sbxu_json_text(body);
    json_object_put(body);
    if (!text)
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    json_object *created = NULL;
    int rc = dk_api_json(&sb->conn, "POST", "/volumes/create", text, "moving the TTL", &created);
    free(text);
    json_object_put(created);
    if (rc == SBX_OK)
        rc = volumes_drop(&sb->conn, sb->id, name);
    if (rc == SBX_OK)
        sb->expires_ms = end;
    return rc;
}

static int post(dk_sandbox *sb, const char *what, const char *context)
{
    char path[160];
    snprintf(path, sizeof(path), "/containers/%s/%s", sb->id, what);
    sbxu_http_request rq = {.method = "POST", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_api_call(&sb->conn, &rq, &rs, context);
    sbxu_http_response_clear(&rs);
    return rc;
}

int dk_pause(void *sandbox)
{
    return post(sandbox, "pause", "pausing the container");
}

int dk_resume(void *sandbox)
{
    return post(sandbox, "unpause", "resuming the container");
}
