/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Walking the user's state directory: list() reports each sandbox kept
 * there, gc removes those past their TTL and those without a TTL whose
 * owner is gone. Both remove an expired sandbox when they meet it, so a TTL
 * holds without any daemon: the sandbox is gone at the next look.
 */
#include "fake.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Call each(id, meta) for each "<id>.meta" of the state dir; an error or -1 (done) stops. */
typedef int (*each_fn)(const sbx_host *host, const char *statedir, const char *id,
                       fake_meta *m, void *ctx);

static int walk(const sbx_host *host, each_fn each, void *ctx)
{
    char *statedir = NULL;
    struct dirent *de;
    DIR *dir;
    int rc = fake_statedir(host, false, &statedir);

    if (rc == SBX_E_NOT_FOUND)
        return SBX_OK;  /* nothing was ever kept */
    if (rc != SBX_OK)
        return rc;
    dir = opendir(statedir);
    if (dir == NULL) {
        rc = errno == ENOENT ? SBX_OK
                             : host->set_error(SBX_E_SYSTEM, "fake: cannot read %s: %s",
                                               statedir, strerror(errno));
        free(statedir);
        return rc;
    }
    while (rc == SBX_OK && (de = readdir(dir)) != NULL) {
        char id[FAKE_ID_LEN + 1];
        const char *dot = strchr(de->d_name, '.');
        fake_meta m;

        if (dot == NULL || strcmp(dot, ".meta") != 0 || dot - de->d_name != FAKE_ID_LEN)
            continue;
        memcpy(id, de->d_name, FAKE_ID_LEN);
        id[FAKE_ID_LEN] = '\0';
        if (!fake_id_ok(id) || fake_meta_read(host, statedir, id, &m) != SBX_OK)
            continue;  /* removed meanwhile, or not ours to judge */
        rc = each(host, statedir, id, &m, ctx);
        fake_meta_clear(&m);
    }
    closedir(dir);
    free(statedir);
    return rc < 0 ? SBX_OK : rc;  /* < 0: stopped on purpose */
}

static bool expired(const fake_meta *m)
{
    return m->expires_ms != 0 && sbxu_wall_ms() >= m->expires_ms;
}

struct list_ctx {
    int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info);
    void *userdata;
};

static int list_one(const sbx_host *host, const char *statedir, const char *id, fake_meta *m,
                    void *ctx)
{
    struct list_ctx *l = ctx;
    char owner[48];

    if (expired(m)) {
        fake_named_remove(host, statedir, id, m->name);
        return SBX_OK;
    }
    snprintf(owner, sizeof(owner), "%ld-%lu", m->owner_pid, m->owner_ns);
    sbx_plugin_sandbox_info info = {
        .struct_size = sizeof(info),
        .id = id,
        .name = m->name,
        .created_ms = m->created_ms,
        .expires_ms = m->expires_ms,
        .owner = owner,
        .state = m->paused ? SBX_PLUGIN_STATE_PAUSED : SBX_PLUGIN_STATE_RUNNING,
        .policy = m->policy,
    };
    return l->entry(l->userdata, &info) != 0 ? -1 : SBX_OK;
}

int fake_list(void *state, const sbx_plugin_dsn *dsn,
              int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata)
{
    const sbx_host *host = ((fake_state *)state)->host;
    struct list_ctx l = {entry, userdata};
    int rc = fake_dsn_check(host, dsn);

    return rc != SBX_OK ? rc : walk(host, list_one, &l);
}

struct gc_ctx {
    int (*report)(void *userdata, const char *id, const char *reason);
    void *userdata;
    size_t removed;
};

static int gc_one(const sbx_host *host, const char *statedir, const char *id, fake_meta *m,
                  void *ctx)
{
    struct gc_ctx *g = ctx;
    char reason[64];

    if (expired(m))
        snprintf(reason, sizeof(reason), "its TTL ended");
    else if (m->expires_ms == 0 && fake_owner_gone(m->owner_pid, m->owner_ns))
        snprintf(reason, sizeof(reason), "owner process %ld is gone", m->owner_pid);
    else
        return SBX_OK;
    int rc = fake_named_remove(host, statedir, id, m->name);
    if (rc != SBX_OK)
        return rc;
    g->removed++;
    if (host->log != NULL)
        host->log(SBX_LOG_INFO, FAKE_NAME, "gc removed %s/%s: %s", statedir, id, reason);
    return g->report != NULL && g->report(g->userdata, id, reason) != 0 ? -1 : SBX_OK;
}

int fake_gc_named(const sbx_host *host,
                  int (*report)(void *userdata, const char *id, const char *reason),
                  void *userdata, size_t *removed)
{
    struct gc_ctx g = {report, userdata, 0};
    int rc = walk(host, gc_one, &g);

    *removed += g.removed;
    return rc;
}
