/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sandboxes that outlive their handle (ABI minor 2): a name and the core's
 * policy in the sandbox's metadata, its TTL as E2B's own timeout (E2B ends
 * it then, whatever becomes of the clients); attach by id or name through
 * POST /sandboxes/{id}/connect, which gives the envd access token again;
 * list by metadata; set_ttl with POST /sandboxes/{id}/timeout; pause with
 * POST /sandboxes/{id}/pause and resume with connect ("If the sandbox is
 * paused, it will be resumed"; /resume is deprecated in the stored spec).
 *
 * The SDK 2.51 connects with POST /v2/sandboxes/{id}/connect, which the
 * stored spec (2026-08-21) lacks; this follows the spec.
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/clock.h>
#include <sbxu/owner.h>
#include <sbxu/time.h>

int e2b_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                   const sbx_plugin_sandbox_opts *opts, void **sandbox)
{
    return e2b_open_with(state, dsn, limits, opts, sandbox);
}

/* RFC 3339 ("2026-12-01T12:00:00.123Z", as E2B writes startedAt, endAt) in Unix ms; 0 if not. */
static int64_t time_ms(const char *text)
{
    int64_t sec;
    uint32_t nsec;
    return sbxu_rfc3339_parse(text, &sec, &nsec) == 0 ? sec * 1000 + nsec / 1000000 : 0;
}

static int state_of(const char *s)
{
    if (!s)
        return SBX_PLUGIN_STATE_UNKNOWN;
    if (strcmp(s, "running") == 0)
        return SBX_PLUGIN_STATE_RUNNING;
    if (strcmp(s, "paused") == 0)
        return SBX_PLUGIN_STATE_PAUSED;
    return SBX_PLUGIN_STATE_UNKNOWN;
}

/* info from a SandboxDetail or ListedSandbox; strings point into s, owner into owner. */
static void info_of(json_object *s, sbx_plugin_sandbox_info *info, char *owner, size_t size)
{
    json_object *meta = sbxu_json_at(s, "metadata");
    const char *host = sbxu_json_str(meta, SBXU_LABEL_HOST), *pid = sbxu_json_str(meta, SBXU_LABEL_PID);
    snprintf(owner, size, "%s%s%s", host ? host : "", host && pid ? ":" : "", pid && host ? pid : "");
    const char *name = sbxu_json_str(meta, E2B_LABEL_NAME);
    *info = (sbx_plugin_sandbox_info){
        .struct_size = sizeof(*info),
        .id = sbxu_json_str(s, "sandboxID"),
        .name = name ? name : "",
        .created_ms = time_ms(sbxu_json_str(s, "startedAt")),
        .expires_ms = time_ms(sbxu_json_str(s, "endAt")),
        .owner = owner,
        .state = state_of(sbxu_json_str(s, "state")),
        .policy = sbxu_json_str(meta, E2B_LABEL_POLICY),
    };
}

/* The milliseconds left before endAt (0 past it). */
static int64_t ms_left(json_object *s)
{
    int64_t end = time_ms(sbxu_json_str(s, "endAt"));
    int64_t left = end - sbxu_wall_ms();
    return left > 0 ? left : 0;
}

/*
 * The whole seconds left: connect's timeout, which must move nothing. E2B
 * only ever extends a TTL, so a second rounded up on every attach would
 * keep a sandbox that is polled near its end alive for ever.
 */
static long seconds_left(json_object *s)
{
    return (long)(ms_left(s) / 1000);
}

/* POST /sandboxes/{id}/connect: the sandbox running (resumed if paused), its envd token. */
static int connect_sandbox(e2b_sandbox *sb, long timeout_s, bool reopen_envd)
{
    char path[96], body[64];
    snprintf(path, sizeof(path), "/sandboxes/%s/connect", sb->id);
    snprintf(body, sizeof(body), "{\"timeout\":%ld}", timeout_s);
    json_object *out = NULL;
    /* Idempotent: "TTL is only extended", a running sandbox stays as it is. */
    int rc = sbxu_remote_call(&sb->api.r, "POST", path, body, SBXU_HTTP_RETRY_ALWAYS,
                          "connecting to the sandbox", &out, NULL);
    const char *token = rc == SBX_OK ? sbxu_json_str(out, "envdAccessToken") : NULL;
    if (rc == SBX_OK && (!token || !token[0]))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                 "e2b: connecting to %s: no envdAccessToken in the answer", sb->id);
    if (rc == SBX_OK && reopen_envd) {
        sbxu_http_clear(&sb->envd);
        rc = e2b_envd_open(sb, token);
    }
    json_object_put(out);
    return rc;
}

/* The sandboxio sandbox named id_or_name, else the one with that id: its detail in *out. */
static int lookup(e2b_sandbox *sb, const char *id_or_name, json_object **out)
{
    json_object *list = NULL;
    *out = NULL;
    int rc = sbxu_remote_find(&sb->api.r, E2B_LABEL_NAME, id_or_name, &list);
    const char *id = rc == SBX_OK && json_object_array_length(list) > 0
                         ? sbxu_json_str(json_object_array_get_idx(list, 0), "sandboxID")
                         : id_or_name;
    if (rc == SBX_OK && (!id || !e2b_id_ok(id)))
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "e2b: no sandbox %s", id_or_name);
    if (rc == SBX_OK) {
        char path[96];
        snprintf(path, sizeof(path), "/sandboxes/%s", id);
        rc = sbxu_remote_call(&sb->api.r, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "looking the sandbox up",
                          out, NULL);
    }
    json_object_put(list);
    /* Only what sandboxio made: another program's sandbox of the same key is not ours. */
    if (rc == SBX_OK && !sbxu_json_str(sbxu_json_at(*out, "metadata"), SBXU_LABEL_MARK)) {
        json_object_put(*out);
        *out = NULL;
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "e2b: %s is not a sandbox sandboxio made",
                                 id_or_name);
    }
    return rc;
}

int e2b_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name, void **sandbox,
               sbx_plugin_sandbox_info *info)
{
    sbxu_remote_state *st = state;
    e2b_sandbox *sb = NULL;
    int rc = e2b_sandbox_new(&sb, st, dsn);
    if (rc)
        return rc;
    json_object *detail = NULL;
    rc = lookup(sb, id_or_name, &detail);
    if (rc == SBX_OK) {
        snprintf(sb->id, sizeof(sb->id), "%s", sbxu_json_str(detail, "sandboxID"));
        long left = seconds_left(detail);
        if (left) {
            rc = connect_sandbox(sb, left, true);
        } else {
            /* Less than a second to live: it ends rather than being extended. */
            usleep((useconds_t)ms_left(detail) * 1000);
            rc = st->host->set_error(SBX_E_NOT_FOUND, "e2b: %s ended at its TTL", id_or_name);
        }
    }
    if (rc == SBX_OK) {
        json_object *meta = sbxu_json_at(detail, "metadata");
        const char *name = sbxu_json_str(meta, E2B_LABEL_NAME);
        const char *policy = sbxu_json_str(meta, E2B_LABEL_POLICY);
        sb->name = strdup(name ? name : "");
        sb->policy = policy ? strdup(policy) : NULL;
        sb->ttl_ms = 1;    /* made to outlive a handle */
        if (!sb->name || (policy && !sb->policy))
            rc = st->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    }
    if (rc == SBX_OK && info && info->struct_size) {
        char owner[320];
        sbx_plugin_sandbox_info got;
        info_of(detail, &got, owner, sizeof(owner));
        /* The strings live as long as the handle: the id, name and policy are its own copies. */
        got.id = sb->id;
        got.name = sb->name;
        got.policy = sb->policy;
        got.owner = "";
        got.state = SBX_PLUGIN_STATE_RUNNING;    /* connect resumed it if it was paused */
        uint32_t size = info->struct_size < sizeof(got) ? info->struct_size : sizeof(got);
        memcpy(info, &got, size);
        info->struct_size = size;
    }
    json_object_put(detail);
    if (rc) {
        e2b_sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int e2b_detach(void *sandbox)
{
    e2b_sandbox_free(sandbox);
    return SBX_OK;
}

int e2b_list(void *state, const sbx_plugin_dsn *dsn,
             int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata)
{
    sbxu_remote_state *st = state;
    e2b_api api;
    int rc = sbxu_remote_api_open(&api, st, dsn);
    if (rc)
        return rc;
    json_object *list = NULL;
    rc = sbxu_remote_find(&api.r, SBXU_LABEL_MARK, "1", &list);
    size_t n = rc == SBX_OK ? json_object_array_length(list) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(list, i);
        const char *id = sbxu_json_str(s, "sandboxID");
        if (!id || !e2b_id_ok(id))
            continue;
        char owner[320];
        sbx_plugin_sandbox_info info;
        info_of(s, &info, owner, sizeof(owner));
        if (entry(userdata, &info) != 0)
            break;
    }
    json_object_put(list);
    e2b_api_clear(&api);
    return rc;
}

int e2b_set_ttl(void *sandbox, uint64_t ttl_ms)
{
    e2b_sandbox *sb = sandbox;
    if (ttl_ms == 0)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT, "e2b: a TTL of 0 is refused");
    uint64_t s = (ttl_ms + 999) / 1000;
    if (s > INT32_MAX)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT, "e2b: a TTL past int32 seconds");
    char path[96], body[64];
    snprintf(path, sizeof(path), "/sandboxes/%s/timeout", sb->id);
    snprintf(body, sizeof(body), "{\"timeout\":%llu}", (unsigned long long)s);
    /* "Calling this method multiple times overwrites the TTL": idempotent. */
    return sbxu_remote_call(&sb->api.r, "POST", path, body, SBXU_HTTP_RETRY_ALWAYS, "setting the TTL",
                        NULL, NULL);
}

int e2b_pause(void *sandbox)
{
    e2b_sandbox *sb = sandbox;
    char path[96];
    snprintf(path, sizeof(path), "/sandboxes/%s/pause", sb->id);
    long status = 0;
    int rc = sbxu_remote_call(&sb->api.r, "POST", path, NULL, SBXU_HTTP_RETRY_NEVER, "pausing the sandbox",
                          NULL, &status);
    /* 409: already paused, which is what was asked. */
    return status == 409 ? SBX_OK : rc;
}

int e2b_resume(void *sandbox)
{
    e2b_sandbox *sb = sandbox;
    json_object *detail = NULL;
    char path[96];
    snprintf(path, sizeof(path), "/sandboxes/%s", sb->id);
    int rc = sbxu_remote_call(&sb->api.r, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "looking the sandbox up",
                          &detail, NULL);
    /* A resume the caller asked for gets a second at least. */
    long left = rc == SBX_OK ? seconds_left(detail) : 0;
    if (rc == SBX_OK)
        rc = connect_sandbox(sb, left ? left : 1, true);
    json_object_put(detail);
    return rc;
}
