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
#include <sbxu/clock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/errors.h>
#include <sandboxio/policy.h>

#include <sbxu/owner.h>

/* Idle minutes before Daytona stops (and so deletes) a sandbox nobody uses. */
#define AUTO_STOP_MIN 15

bool daytona_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < 64 &&
           strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == n;
}

static json_object *labels(uint64_t ttl_s, const char *create_id)
{
    sbxu_owner_labels l;
    sbxu_owner_labels_make(&l, ttl_s);
    json_object *m = json_object_new_object();
    int bad = !m || sbxu_json_add_str(m, SBXU_REMOTE_LABEL_CREATE, create_id);
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

/* POST /sandbox, tried again only where no second sandbox can come of it (the kit). */
static int create(daytona_sandbox *sb, const sbx_plugin_limits *limits, json_object **out)
{
    char create_id[64];
    sbxu_remote_create_id(create_id);
    char *body = NULL;
    int rc = create_body(sb, limits, create_id, &body);
    if (rc)
        return rc;
    rc = sbxu_remote_create(&sb->api.r, body, create_id, out);
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
    uint64_t start = (uint64_t)sbxu_mono_ms(), bound = sb->api.ep.start_s * 1000;
    /* An answer without a state says nothing of it: the wait asks at once. */
    json_object *first = sbxu_json_str(created, "state") ? json_object_get(created) : NULL;
    for (json_object *rec = first;; rec = NULL) {
        int rc = SBX_OK;
        if (!rec)
            rc = sbxu_remote_call(&sb->api.r, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO,
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
        uint64_t waited = (uint64_t)sbxu_mono_ms() - start;
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
    sbxu_remote_state *st = state;
    const sbx_host *host = st->host;
    daytona_sandbox *sb = calloc(1, sizeof(*sb));
    if (!sb) {
        host->set_error(SBX_E_NOMEM, "daytona: out of memory");
        return SBX_E_NOMEM;
    }
    sb->host = host;
    sbxu_remote_sandbox_init(&sb->kit, st);
    pthread_mutex_init(&sb->lock, NULL);
    int rc = sbxu_remote_api_open(&sb->api, st, dsn);
    if (rc) {
        pthread_mutex_destroy(&sb->lock);
        free(sb);
        return rc;
    }
    json_object *out = NULL, *rec = NULL;
    rc = create(sb, limits, &out);
    const char *proxy = NULL;
    if (rc == SBX_OK)
        rc = sbxu_remote_created_id(&sb->api.r, out, sb->id);
    if (rc == SBX_OK)
        rc = wait_started(sb, out, &rec);
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
            sbxu_remote_delete(&sb->api.r, sb->id, "deleting a sandbox that did not open");
        sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int daytona_destroy(void *sandbox)
{
    daytona_sandbox *sb = sandbox;
    int rc = sbxu_remote_delete(&sb->api.r, sb->id, "deleting the sandbox");
    sandbox_free(sb);
    return rc;
}

const char *daytona_sandbox_id(void *sandbox)
{
    return ((daytona_sandbox *)sandbox)->id;
}
