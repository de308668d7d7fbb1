/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A Daytona sandbox's life: POST /sandbox (CreateSandbox) makes it, with
 * the snapshot (or a build from "FROM image"), the target, the owner
 * labels, the policy's limits (policy.c) and its lifetime: ttlMinutes
 * (destroyed that long after creation whatever happens to this client),
 * autoStopInterval (stopped when idle) with autoDeleteInterval 0 (deleted
 * when stopped), so a client that dies leaves nothing running for long.
 * It answers at once; GET /sandbox/{id} is polled until `started`
 * (lifecycle.c), bounded, and a sandbox that never starts is deleted.
 * DELETE /sandbox/{id} ends it.
 *
 * Create is never retried blindly: a lost answer may have made a sandbox.
 * A 429 made nothing, so it is tried again after the wait Daytona asks
 * for; after a 5xx or no answer, the sandbox this call may have made is
 * looked for by the create id in its labels and deleted first.
 */
#include "daytona.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>
#include <sandboxio/policy.h>

#include <sbxu/clock.h>
#include <sbxu/create.h>
#include <sbxu/owner.h>

/* Idle minutes before Daytona stops (and so deletes) a sandbox nobody uses. */
#define AUTO_STOP_MIN 15

bool daytona_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < 64 &&
           strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == n;
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

static json_object *labels(uint64_t ttl_s, const char *create_id)
{
    sbxu_owner_labels l;
    sbxu_owner_labels_make(&l, ttl_s);
    json_object *m = json_object_new_object();
    int bad = !m || sbxu_json_add_str(m, DAYTONA_LABEL_CREATE, create_id);
    for (size_t i = 0; !bad && i < SBXU_OWNER_LABELS; i++)
        bad = sbxu_json_add_str(m, l.kv[i].key, l.kv[i].value);
    if (bad) {
        json_object_put(m);
        return NULL;
    }
    return m;
}

/* The create request's text in *text (free() it). */
static int create_body(daytona_sandbox *sb, const sbx_plugin_limits *limits,
                       const char *create_id, char **text)
{
    const daytona_endpoint *ep = &sb->api.ep;
    json_object *req = json_object_new_object();
    *text = NULL;
    if (!req)
        return sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    int64_t ttl_min = (int64_t)((ep->ttl_s + 59) / 60);
    int bad = 0;
    if (ep->image[0]) {
        char *docker = NULL;
        json_object *build = json_object_new_object();
        bad |= !build || asprintf(&docker, "FROM %s\n", ep->image) < 0;
        if (!bad)
            bad |= sbxu_json_add_str(build, "dockerfileContent", docker);
        free(docker);
        bad |= sbxu_json_add(req, "buildInfo", bad ? (json_object_put(build), NULL) : build);
    } else if (ep->snapshot[0]) {
        bad |= sbxu_json_add_str(req, "snapshot", ep->snapshot);
    }
    if (ep->target[0])
        bad |= sbxu_json_add_str(req, "target", ep->target);
    bad |= sbxu_json_add(req, "labels", labels(ep->ttl_s, create_id));
    bad |= sbxu_json_add(req, "public", json_object_new_boolean(0));
    bad |= sbxu_json_add(req, "autoStopInterval",
                        json_object_new_int64(ttl_min < AUTO_STOP_MIN ? ttl_min : AUTO_STOP_MIN));
    bad |= sbxu_json_add(req, "autoDeleteInterval", json_object_new_int64(0));
    bad |= sbxu_json_add(req, "ttlMinutes", json_object_new_int64(ttl_min));
    int rc = bad ? sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory")
                 : daytona_policy_body(req, sb->host, limits);
    if (rc == SBX_OK && !(*text = sbxu_json_text(req)))
        rc = sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    json_object_put(req);
    return rc;
}

int daytona_delete(daytona_api *a, const char *id, const char *context)
{
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/sandbox/%s", id);
    int rc = daytona_api_call(a, "DELETE", path, NULL, SBXU_HTTP_RETRY_AUTO, context, NULL,
                              &status);
    /* Already gone (its TTL, or a retry after a lost answer): nothing remains. */
    return rc == SBX_E_NOT_FOUND && status == 404 ? SBX_OK : rc;
}

int daytona_find(daytona_api *a, const char *key, const char *value, json_object **list)
{
    *list = NULL;
    json_object *filter = json_object_new_object();
    char *text = NULL, *esc = NULL, path[1024];
    int bad = !filter || sbxu_json_add_str(filter, key, value);
    if (!bad)
        text = sbxu_json_text(filter);
    json_object_put(filter);
    if (!text)
        return a->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    int rc = daytona_api_escape(a, text, &esc);
    free(text);
    if (rc)
        return rc;
    int n = snprintf(path, sizeof(path), "/sandbox?labels=%s&limit=200", esc);
    curl_free(esc);
    if (n < 0 || (size_t)n >= sizeof(path))
        return a->host->set_error(SBX_E_INVALID_ARGUMENT, "daytona: the label filter is too long");
    json_object *answer = NULL;
    rc = daytona_api_call(a, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "listing sandboxes",
                          &answer, NULL);
    json_object *items = NULL;
    if (rc == SBX_OK)
        rc = sbxu_json_get(&items, json_type_array, a->host, DAYTONA_NAME, "listing sandboxes",
                          answer, "items");
    if (rc == SBX_OK)
        *list = json_object_get(items);
    json_object_put(answer);
    return rc;
}

/* Delete what a create that got no clear answer may have made (found by its create id). */
static int sweep_lost_create(daytona_sandbox *sb, const char *create_id)
{
    json_object *list = NULL;
    int rc = daytona_find(&sb->api, DAYTONA_LABEL_CREATE, create_id, &list);
    size_t n = rc == SBX_OK ? json_object_array_length(list) : 0;
    for (size_t i = 0; rc == SBX_OK && i < n; i++) {
        const char *id = sbxu_json_str(json_object_array_get_idx(list, i), "id");
        if (id && daytona_id_ok(id))
            rc = daytona_delete(&sb->api, id, "deleting the sandbox of a lost create");
    }
    json_object_put(list);
    return rc;
}

typedef struct create_ctx {
    daytona_sandbox *sb;
    const char *body, *create_id;
    json_object **out;
} create_ctx;

static int create_call(void *ud, long *status, long *retry_after_ms)
{
    create_ctx *c = ud;
    int rc = daytona_api_call(&c->sb->api, "POST", "/sandbox", c->body, SBXU_HTTP_RETRY_NEVER,
                              "creating a sandbox", c->out, status);
    *retry_after_ms = c->sb->api.retry_after_ms;
    return rc;
}

static int create_sweep(void *ud)
{
    create_ctx *c = ud;
    return sweep_lost_create(c->sb, c->create_id);
}

/* POST /sandbox, tried again only where no second sandbox can come of it (lib/). */
static int create(daytona_sandbox *sb, const sbx_plugin_limits *limits, json_object **out)
{
    char create_id[64];
    make_create_id(create_id, sizeof(create_id));
    char *body = NULL;
    int rc = create_body(sb, limits, create_id, &body);
    if (rc)
        return rc;
    create_ctx ctx = {.sb = sb, .body = body, .create_id = create_id, .out = out};
    sbxu_create c = {.host = sb->host, .plugin = DAYTONA_NAME, .call = create_call,
                    .sweep = create_sweep, .ud = &ctx};
    rc = sbxu_create_run(&c);
    free(body);
    return rc;
}

/* The pauses between looks at a sandbox on its way to `started` (wait_started). */
#define START_PAUSE_MIN_MS 10
#define START_PAUSE_MAX_MS 1000

/*
 * Wait until `started`; its record (with toolboxProxyUrl) in *record. The
 * create's answer (created) is the first record looked at: a sandbox
 * already started is not asked for again. One on its way is asked for
 * (GET /sandbox/{id}) after pauses of a quarter of the time waited so far
 * (at least START_PAUSE_MIN_MS, at most START_PAUSE_MAX_MS): it is seen
 * started at most a quarter later than it was, however long it takes,
 * where doubling pauses could see it up to twice as late.
 */
static int wait_started(daytona_sandbox *sb, json_object *created, json_object **record)
{
    char path[96], state[64] = "", reason[256] = "";
    snprintf(path, sizeof(path), "/sandbox/%s", sb->id);
    uint64_t start = sbxu_mono_ms(), bound = sb->api.ep.start_s * 1000;
    /* An answer without a state says nothing of it: the wait asks at once. */
    json_object *first = sbxu_json_str(created, "state") ? json_object_get(created) : NULL;
    for (json_object *rec = first;; rec = NULL) {
        int rc = SBX_OK;
        if (!rec)
            rc = daytona_api_call(&sb->api, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO,
                                  "waiting for the sandbox to start", &rec, NULL);
        if (rc == SBX_OK)
            rc = daytona_start_state(rec, sb->host, state, sizeof(state));
        if (rc == SBX_OK) {
            *record = rec;
            return SBX_OK;
        }
        const char *why = rec ? sbxu_json_str(rec, "errorReason") : NULL;
        snprintf(reason, sizeof(reason), "%s", why ? why : "");
        json_object_put(rec);
        if (rc != DAYTONA_STARTING)
            return rc;
        uint64_t waited = sbxu_mono_ms() - start;
        if (waited >= bound)
            return daytona_start_timeout(sb->host, sb->id, state, reason, waited);
        uint64_t pause_ms = waited / 4;
        if (pause_ms < START_PAUSE_MIN_MS)
            pause_ms = START_PAUSE_MIN_MS;
        if (pause_ms > START_PAUSE_MAX_MS)
            pause_ms = START_PAUSE_MAX_MS;
        usleep((useconds_t)pause_ms * 1000);
    }
}

/* The daemon's work dir (GET /work-dir), where relative paths and commands start. */
static int work_dir(daytona_sandbox *sb)
{
    json_object *out = NULL;
    const char *dir = NULL;
    int rc = daytona_tb_call(sb, "GET", "/work-dir", NULL, SBXU_HTTP_RETRY_AUTO,
                             "asking for the work dir", &out, NULL);
    if (rc == SBX_OK)
        rc = sbxu_json_get_string(&dir, sb->host, DAYTONA_NAME, "asking for the work dir", out,
                                 "dir");
    if (rc == SBX_OK && (dir[0] != '/' || strlen(dir) >= sizeof(sb->home) || strstr(dir, "/..") ||
                         strcmp(dir, "/") == 0))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the work dir \"%s\" is not "
                                 "an absolute path below /", dir);
    if (rc == SBX_OK)
        snprintf(sb->home, sizeof(sb->home), "%s", dir);
    json_object_put(out);
    return rc;
}

static void sandbox_free(daytona_sandbox *sb)
{
    daytona_api_clear(&sb->api);
    pthread_mutex_destroy(&sb->lock);
    free(sb);
}

int daytona_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                 void **sandbox)
{
    daytona_state *st = state;
    const sbx_host *host = st->host;
    daytona_sandbox *sb = calloc(1, sizeof(*sb));
    if (!sb) {
        host->set_error(SBX_E_NOMEM, "daytona: out of memory");
        return SBX_E_NOMEM;
    }
    sb->host = host;
    pthread_mutex_init(&sb->lock, NULL);
    int rc = daytona_api_open(&sb->api, st, dsn);
    if (rc) {
        pthread_mutex_destroy(&sb->lock);
        free(sb);
        return rc;
    }
    json_object *out = NULL, *rec = NULL;
    rc = create(sb, limits, &out);
    const char *id = NULL, *proxy = NULL;
    if (rc == SBX_OK)
        rc = sbxu_json_get_string(&id, host, DAYTONA_NAME, "creating a sandbox", out, "id");
    if (rc == SBX_OK && !daytona_id_ok(id))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: creating a sandbox: a bad id");
    if (rc == SBX_OK) {
        snprintf(sb->id, sizeof(sb->id), "%s", id);
        rc = wait_started(sb, out, &rec);
    }
    if (rc == SBX_OK)
        rc = sbxu_json_get_string(&proxy, host, DAYTONA_NAME, "the started sandbox", rec,
                                 "toolboxProxyUrl");
    if (rc == SBX_OK)
        rc = daytona_toolbox_open(sb, proxy);
    if (rc == SBX_OK)
        rc = work_dir(sb);
    json_object_put(out);
    json_object_put(rec);
    if (rc) {
        if (sb->id[0])
            daytona_delete(&sb->api, sb->id, "deleting a sandbox that did not open");
        sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int daytona_destroy(void *sandbox)
{
    daytona_sandbox *sb = sandbox;
    int rc = daytona_delete(&sb->api, sb->id, "deleting the sandbox");
    sandbox_free(sb);
    return rc;
}

const char *daytona_sandbox_id(void *sandbox)
{
    return ((daytona_sandbox *)sandbox)->id;
}

bool daytona_sandbox_alive(daytona_sandbox *sb)
{
    char path[96];
    long status = 0;
    snprintf(path, sizeof(path), "/sandbox/%s", sb->id);
    int rc = daytona_api_call(&sb->api, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO,
                              "looking the sandbox up", NULL, &status);
    return !(rc == SBX_E_NOT_FOUND && status == 404);
}
