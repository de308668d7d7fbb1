/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An E2B sandbox's life: POST /sandboxes (NewSandbox) makes it, with the
 * template, its timeout (the sandbox's TTL: E2B kills it then, whatever
 * happens to this client), `secure: true` (envd then wants the
 * envdAccessToken create returns), the owner labels in its metadata, and
 * the policy's network; DELETE /sandboxes/{id} kills it.
 *
 * Create is never retried blindly: a lost answer may have made a sandbox,
 * and a second try would make another. A 429 made nothing (the edge
 * refused it), so it is tried again after the wait E2B asks for. After a
 * 5xx or no answer at all, the sandbox this call may have made is looked
 * for by the create id in its metadata and killed before the next try.
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sandboxio/policy.h>

#include <sbxu/owner.h>

/*
 * The labels. A sandbox made with a TTL outlives its owner on purpose: it
 * carries no owner pid (gc keeps it) and no label TTL (E2B ends it at its
 * timeout, which set_ttl moves and a label could not follow).
 */
static json_object *metadata(uint64_t ttl_s, const char *create_id,
                             const sbx_plugin_sandbox_opts *opts)
{
    bool detachable = opts && opts->ttl_ms;
    sbxu_owner_labels l;
    sbxu_owner_labels_make(&l, detachable ? 0 : ttl_s);
    json_object *m = json_object_new_object();
    int bad = !m || sbxu_json_add_str(m, SBXU_REMOTE_LABEL_CREATE, create_id);
    if (!bad && opts && opts->name)
        bad = sbxu_json_add_str(m, E2B_LABEL_NAME, opts->name);
    if (!bad && opts && opts->policy)
        bad = sbxu_json_add_str(m, E2B_LABEL_POLICY, opts->policy);
    for (size_t i = 0; !bad && i < SBXU_OWNER_LABELS; i++)
        if (!detachable || (strcmp(l.kv[i].key, SBXU_LABEL_PID) != 0 &&
                            strcmp(l.kv[i].key, SBXU_LABEL_START) != 0))
            bad = sbxu_json_add_str(m, l.kv[i].key, l.kv[i].value);
    if (bad) {
        json_object_put(m);
        return NULL;
    }
    return m;
}

/*
 * The policy's network as E2B expresses it (openapi.yml NewSandbox,
 * SandboxNetworkConfig): none is allow_internet_access false ("the same as
 * specifying denyOut to 0.0.0.0/0"); open is true. The sandbox's own URLs
 * want the access token either way (allowPublicTraffic false).
 */
static char *create_body(const e2b_endpoint *ep, const sbx_plugin_limits *limits,
                         const char *create_id, const sbx_plugin_sandbox_opts *opts)
{
    json_object *req = json_object_new_object(), *net = json_object_new_object();
    int bad = !req || !net;
    char *text = NULL;
    if (!bad) {
        bad |= sbxu_json_add_str(req, "templateID", ep->template_id);
        /* A TTL given with the sandbox replaces the DSN's timeout. */
        uint64_t timeout_s = opts && opts->ttl_ms ? (opts->ttl_ms + 999) / 1000 : ep->timeout_s;
        bad |= sbxu_json_add(req, "timeout", json_object_new_int64((int64_t)timeout_s));
        bad |= sbxu_json_add(req, "secure", json_object_new_boolean(1));
        bad |= sbxu_json_add(req, "allow_internet_access",
                            json_object_new_boolean(limits->network == SBX_NET_OPEN));
        bad |= sbxu_json_add(net, "allowPublicTraffic", json_object_new_boolean(0));
        bad |= sbxu_json_add(req, "network", net);
        net = NULL;
        bad |= sbxu_json_add(req, "metadata", metadata(timeout_s, create_id, opts));
        if (!bad)
            text = sbxu_json_text(req);
    }
    json_object_put(net);
    json_object_put(req);
    return text;
}

bool e2b_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < 64 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_") == n;
}

void e2b_sandbox_free(e2b_sandbox *sb)
{
    free(sb->name);
    free(sb->policy);
    sbxu_http_clear(&sb->envd);
    e2b_api_clear(&sb->api);
    memset(sb->token_header, 0, sizeof(sb->token_header));
    free(sb);
}

int e2b_kill(e2b_sandbox *sb)
{
    return sbxu_remote_delete(&sb->api.r, sb->id, "killing the sandbox");
}

/* POST /sandboxes, tried again only where no second sandbox can come of it (the kit). */
static int create(e2b_sandbox *sb, const sbx_plugin_limits *limits,
                  const sbx_plugin_sandbox_opts *opts, json_object **out)
{
    char create_id[64];
    sbxu_remote_create_id(create_id);
    char *body = create_body(&sb->api.ep, limits, create_id, opts);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int rc = sbxu_remote_create(&sb->api.r, body, create_id, out);
    free(body);
    return rc;
}

int e2b_sandbox_new(e2b_sandbox **out, sbxu_remote_state *st, const sbx_plugin_dsn *dsn)
{
    const sbx_host *host = st->host;
    e2b_sandbox *sb = calloc(1, sizeof(*sb));
    if (!sb) {
        host->set_error(SBX_E_NOMEM, "e2b: out of memory");
        return SBX_E_NOMEM; /* a constant: the analyzer cannot see set_error's */
    }
    sb->host = host;
    sbxu_remote_sandbox_init(&sb->kit, st);
    int rc = sbxu_remote_api_open(&sb->api, st, dsn);
    if (rc) {
        free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

/* A name is unique among this key's sandboxes: one in use is a conflict, and nothing is made. */
static int name_free(e2b_sandbox *sb, const char *name)
{
    json_object *list = NULL;
    int rc = sbxu_remote_find(&sb->api.r, E2B_LABEL_NAME, name, &list);
    if (rc == SBX_OK && json_object_array_length(list) > 0)
        rc = sb->host->set_error(SBX_E_BACKEND_CONFLICT, "e2b: a sandbox named %s exists (%s)",
                                 name,
                                 sbxu_json_str(json_object_array_get_idx(list, 0), "sandboxID")
                                     ?: "?");
    json_object_put(list);
    return rc;
}

int e2b_open_with(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  const sbx_plugin_sandbox_opts *opts, void **sandbox)
{
    sbxu_remote_state *st = state;
    const sbx_host *host = st->host;
    e2b_sandbox *sb = NULL;
    int rc = e2b_sandbox_new(&sb, st, dsn);
    if (rc)
        return rc;
    if (opts && opts->name && (rc = name_free(sb, opts->name)) != SBX_OK) {
        e2b_sandbox_free(sb);
        return rc;
    }
    sb->ttl_ms = opts ? opts->ttl_ms : 0;
    json_object *out = NULL;
    rc = create(sb, limits, opts, &out);
    const char *token = NULL;
    if (rc == SBX_OK)
        rc = sbxu_remote_created_id(&sb->api.r, out, sb->id);
    if (rc == SBX_OK) {
        token = sbxu_json_str(out, "envdAccessToken");
        if (!token || !token[0])
            rc = host->set_error(SBX_E_BACKEND_PROTOCOL,
                                 "e2b: creating a secure sandbox: no envdAccessToken in the answer");
    }
    if (rc == SBX_OK)
        rc = e2b_envd_open(sb, token);
    json_object_put(out);
    if (rc) {
        if (sb->id[0])
            e2b_kill(sb);
        e2b_sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int e2b_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
             void **sandbox)
{
    return e2b_open_with(state, dsn, limits, NULL, sandbox);
}

int e2b_destroy(void *sandbox)
{
    e2b_sandbox *sb = sandbox;
    int rc = e2b_kill(sb);
    e2b_sandbox_free(sb);
    return rc;
}

const char *e2b_sandbox_id(void *sandbox)
{
    return ((e2b_sandbox *)sandbox)->id;
}
