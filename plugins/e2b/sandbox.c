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
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sandboxio/policy.h>

#include "../lib/sbx-owner.h"

#define CREATE_TRIES 4
#define CREATE_WAIT_MAX_MS 10000

static json_object *metadata(uint64_t ttl_s, const char *create_id)
{
    sbx_owner_labels l;
    sbx_owner_labels_make(&l, ttl_s);
    json_object *m = json_object_new_object();
    int bad = !m || sbx_json_add_str(m, E2B_LABEL_CREATE, create_id);
    for (size_t i = 0; !bad && i < SBX_OWNER_LABELS; i++)
        bad = sbx_json_add_str(m, l.kv[i].key, l.kv[i].value);
    if (bad) {
        json_object_put(m);
        return NULL;
    }
    return m;
}

/* A create id no other call shares: pid, time and a counter. */
static void make_create_id(char *out, size_t size)
{
    static unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(out, size, "%lx-%llx-%x", (long)getpid(),
             (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec,
             __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
}

/*
 * The policy's network as E2B expresses it (openapi.yml NewSandbox,
 * SandboxNetworkConfig): none is allow_internet_access false ("the same as
 * specifying denyOut to 0.0.0.0/0"); open is true. The sandbox's own URLs
 * want the access token either way (allowPublicTraffic false).
 */
static char *create_body(const e2b_endpoint *ep, const sbx_plugin_limits *limits,
                         const char *create_id)
{
    json_object *req = json_object_new_object(), *net = json_object_new_object();
    int bad = !req || !net;
    char *text = NULL;
    if (!bad) {
        bad |= sbx_json_add_str(req, "templateID", ep->template_id);
        bad |= sbx_json_add(req, "timeout", json_object_new_int64((int64_t)ep->timeout_s));
        bad |= sbx_json_add(req, "secure", json_object_new_boolean(1));
        bad |= sbx_json_add(req, "allow_internet_access",
                            json_object_new_boolean(limits->network == SBX_NET_OPEN));
        bad |= sbx_json_add(net, "allowPublicTraffic", json_object_new_boolean(0));
        bad |= sbx_json_add(req, "network", net);
        net = NULL;
        bad |= sbx_json_add(req, "metadata", metadata(ep->timeout_s, create_id));
        if (!bad)
            text = sbx_json_text(req);
    }
    json_object_put(net);
    json_object_put(req);
    return text;
}

static bool id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < 64 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_") == n;
}

static void sandbox_free(e2b_sandbox *sb)
{
    sbx_http_clear(&sb->envd);
    e2b_api_clear(&sb->api);
    memset(sb->token_header, 0, sizeof(sb->token_header));
    free(sb);
}

static int kill_sandbox(e2b_sandbox *sb)
{
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/sandboxes/%s", sb->id);
    int rc = e2b_api_call(&sb->api, "DELETE", path, NULL, SBX_HTTP_RETRY_AUTO, "killing the sandbox",
                          NULL, &status);
    /* Already gone (its TTL, or a retry after a lost answer): nothing remains. */
    return rc == SBX_E_NOT_FOUND && status == 404 ? SBX_OK : rc;
}

/* Kill what a create that got no clear answer may have made (found by its create id). */
static int sweep_lost_create(e2b_sandbox *sb, const char *create_id)
{
    char *pair = NULL, path[256];
    if (asprintf(&pair, "%s=%s", E2B_LABEL_CREATE, create_id) < 0)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    char *filter = sbx_http_escape(&sb->api.http, pair);
    free(pair);
    if (!filter)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    snprintf(path, sizeof(path), "/v2/sandboxes?metadata=%s", filter);
    curl_free(filter);
    json_object *list = NULL;
    int rc = e2b_api_call(&sb->api, "GET", path, NULL, SBX_HTTP_RETRY_AUTO,
                          "looking for the sandbox of a failed create", &list, NULL);
    size_t n = rc == SBX_OK && json_object_is_type(list, json_type_array)
                   ? json_object_array_length(list) : 0;
    for (size_t i = 0; rc == SBX_OK && i < n; i++) {
        const char *id = sbx_json_str(json_object_array_get_idx(list, i), "sandboxID");
        if (id && id_ok(id)) {
            snprintf(sb->id, sizeof(sb->id), "%s", id);
            rc = kill_sandbox(sb);
            sb->id[0] = '\0';
        }
    }
    json_object_put(list);
    return rc;
}

/* POST /sandboxes, tried again only where no second sandbox can come of it. */
static int create(e2b_sandbox *sb, const sbx_plugin_limits *limits, json_object **out)
{
    char create_id[64];
    make_create_id(create_id, sizeof(create_id));
    char *body = create_body(&sb->api.ep, limits, create_id);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    long wait = 500;
    int rc = SBX_OK;
    for (int try = 1; try <= CREATE_TRIES; try++) {
        long status = 0;
        rc = e2b_api_call(&sb->api, "POST", "/sandboxes", body, SBX_HTTP_RETRY_NEVER,
                          "creating a sandbox", out, &status);
        bool refused = status == 429 && rc == SBX_E_BACKEND_RATE_LIMITED;
        bool unclear = rc == SBX_E_BACKEND_UNAVAILABLE || rc == SBX_E_BACKEND_TRANSPORT;
        if (rc == SBX_OK || try == CREATE_TRIES || !(refused || unclear))
            break;
        if (unclear && sweep_lost_create(sb, create_id) != SBX_OK)
            break;
        long ms = refused && sb->api.retry_after_ms >= 0 ? sb->api.retry_after_ms : wait;
        if (ms > CREATE_WAIT_MAX_MS)
            break;
        sb->host->log(SBX_LOG_INFO, E2B_NAME, "create answered HTTP %ld; trying again in %ld ms", status, ms);
        usleep((useconds_t)ms * 1000);
        wait *= 2;
    }
    free(body);
    return rc;
}

int e2b_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
             void **sandbox)
{
    e2b_state *st = state;
    const sbx_host *host = st->host;
    e2b_sandbox *sb = calloc(1, sizeof(*sb));
    if (!sb)
        return host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    sb->host = host;
    int rc = e2b_api_open(&sb->api, host, dsn);
    if (rc) {
        free(sb);
        return rc;
    }
    json_object *out = NULL;
    rc = create(sb, limits, &out);
    const char *id = NULL, *token = NULL;
    if (rc == SBX_OK)
        rc = sbx_json_get_string(&id, host, E2B_NAME, "creating a sandbox", out, "sandboxID");
    if (rc == SBX_OK && !id_ok(id))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: creating a sandbox: a bad sandboxID");
    if (rc == SBX_OK) {
        snprintf(sb->id, sizeof(sb->id), "%s", id);
        token = sbx_json_str(out, "envdAccessToken");
        if (!token || !token[0])
            rc = host->set_error(SBX_E_BACKEND_PROTOCOL,
                                 "e2b: creating a secure sandbox: no envdAccessToken in the answer");
    }
    if (rc == SBX_OK)
        rc = e2b_envd_open(sb, token);
    json_object_put(out);
    if (rc) {
        if (sb->id[0])
            kill_sandbox(sb);
        sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int e2b_destroy(void *sandbox)
{
    e2b_sandbox *sb = sandbox;
    int rc = kill_sandbox(sb);
    sandbox_free(sb);
    return rc;
}

const char *e2b_sandbox_id(void *sandbox)
{
    return ((e2b_sandbox *)sandbox)->id;
}

bool e2b_sandbox_alive(e2b_sandbox *sb)
{
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/sandboxes/%s", sb->id);
    int rc = e2b_api_call(&sb->api, "GET", path, NULL, SBX_HTTP_RETRY_AUTO,
                          "looking the sandbox up", NULL, &status);
    return !(rc == SBX_E_NOT_FOUND && status == 404);
}
