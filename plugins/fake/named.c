/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake's minor-2 members: sandboxes in the user's state directory that
 * any of the user's processes may attach to, with a TTL the fake enforces
 * whenever it looks (every operation, attach, list, gc), and a pause that
 * stops the handle's commands and refuses new ones until resume.
 */
#include "fake.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int new_id(const sbx_host *host, char id[FAKE_ID_LEN + 1])
{
    unsigned char raw[FAKE_ID_LEN / 2];

    if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
        return host->set_error(SBX_E_SYSTEM, "fake: getrandom: %s", strerror(errno));
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(id + 2 * i, 3, "%02x", raw[i]);
    return SBX_OK;
}

/* mkdir "<statedir>/<fresh id>"; the state dir may vanish under us (last one out). */
static int make_root(const sbx_host *host, char **statedir, char id[FAKE_ID_LEN + 1],
                     char **root)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        int rc = fake_statedir(host, true, statedir);
        if (rc == SBX_OK)
            rc = new_id(host, id);
        if (rc != SBX_OK)
            return rc;
        if (asprintf(root, "%s/%s", *statedir, id) < 0)
            return host->set_error(SBX_E_NOMEM, "fake: out of memory");
        if (mkdir(*root, 0700) == 0)
            return SBX_OK;
        int err = errno;
        free(*root);
        free(*statedir);
        *root = *statedir = NULL;
        if (err != ENOENT && err != EEXIST)
            return host->set_error(SBX_E_SYSTEM, "fake: cannot create a sandbox root: %s",
                                   strerror(err));
    }
    return host->set_error(SBX_E_SYSTEM, "fake: cannot create a sandbox root (state dir "
                                         "kept vanishing)");
}

/* Take name for id: the link is made once, so two creators cannot share it. */
static int claim_name(const sbx_host *host, const char *statedir, const char *id,
                      const char *name)
{
    char link[4096];

    snprintf(link, sizeof(link), "%s/n.%s", statedir, name);
    if (symlink(id, link) == 0)
        return SBX_OK;
    if (errno == EEXIST)
        return host->set_error(SBX_E_BACKEND_CONFLICT,
                               "fake: a sandbox named \"%s\" exists already", name);
    return host->set_error(SBX_E_SYSTEM, "fake: cannot create %s: %s", link, strerror(errno));
}

int fake_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                    const sbx_plugin_sandbox_opts *opts, void **sandbox)
{
    const sbx_host *host = ((fake_state *)state)->host;
    const char *name = opts != NULL && opts->name != NULL ? opts->name : "";
    char *statedir = NULL, *root = NULL, id[FAKE_ID_LEN + 1];
    fake_sandbox *sb = NULL;
    fake_meta m = {0};
    int rc;

    (void)limits;
    rc = fake_dsn_check(host, dsn);
    if (rc != SBX_OK)
        return rc;
    if (opts == NULL || strlen(name) >= sizeof(m.name) ||
        (opts->policy != NULL && strchr(opts->policy, '\n') != NULL))
        return host->set_error(SBX_E_INVALID_ARGUMENT, "fake: bad name or policy");
    rc = make_root(host, &statedir, id, &root);
    if (rc != SBX_OK)
        return rc;
    if (name[0] != '\0' && (rc = claim_name(host, statedir, id, name)) != SBX_OK) {
        rmdir(root);
        free(root);
        free(statedir);
        return rc;
    }
    strcpy(m.name, name);
    m.created_ms = sbxu_wall_ms();
    m.expires_ms = opts->ttl_ms ? m.created_ms + (int64_t)opts->ttl_ms : 0;
    m.owner_pid = (long)getpid();
    m.owner_ns = fake_pidns();
    m.policy = opts->policy != NULL ? strdup(opts->policy) : NULL;
    rc = opts->policy != NULL && m.policy == NULL
             ? host->set_error(SBX_E_NOMEM, "fake: out of memory")
             : fake_meta_write(host, statedir, id, &m);
    if (rc == SBX_OK)
        rc = fake_handle_new(host, root, &sb);
    else
        free(root);
    if (rc != SBX_OK) {
        fake_named_remove(host, statedir, id, name);
        free(statedir);
        fake_meta_clear(&m);
        return rc;
    }
    sb->statedir = statedir;
    sb->meta = m;
    *sandbox = sb;
    return SBX_OK;
}

void fake_info(const fake_sandbox *sb, sbx_plugin_sandbox_info *info)
{
    /* Every member the caller's struct has room for, from our own meta. */
    sbx_plugin_sandbox_info full = {
        .struct_size = sizeof(full),
        .id = sb->id,
        .name = sb->meta.name,
        .created_ms = sb->meta.created_ms,
        .expires_ms = sb->meta.expires_ms,
        .owner = "",
        .state = sb->meta.paused ? SBX_PLUGIN_STATE_PAUSED : SBX_PLUGIN_STATE_RUNNING,
        .policy = sb->meta.policy,
    };
    uint32_t size = info->struct_size < sizeof(full) ? info->struct_size : sizeof(full);

    memcpy((char *)info + sizeof(uint32_t), (char *)&full + sizeof(uint32_t),
           size - sizeof(uint32_t));
}

/* The id id_or_name names in statedir: itself if a meta exists, else its name link's. */
static int resolve(const sbx_host *host, const char *statedir, const char *id_or_name,
                   char id[FAKE_ID_LEN + 1])
{
    char path[4096];
    struct stat st;

    if (strlen(id_or_name) > 63 || strspn(id_or_name, "abcdefghijklmnopqrstuvwxyz0123456789_.-") !=
                                       strlen(id_or_name))
        return host->set_error(SBX_E_NOT_FOUND, "fake: no sandbox \"%.80s\"", id_or_name);
    snprintf(path, sizeof(path), "%s/%s.meta", statedir, id_or_name);
    if (fake_id_ok(id_or_name) && lstat(path, &st) == 0) {
        strcpy(id, id_or_name);
        return SBX_OK;
    }
    snprintf(path, sizeof(path), "%s/n.%s", statedir, id_or_name);
    ssize_t n = readlink(path, id, FAKE_ID_LEN + 1);
    if (n != FAKE_ID_LEN)
        return host->set_error(SBX_E_NOT_FOUND, "fake: no sandbox \"%s\"", id_or_name);
    id[n] = '\0';
    return fake_id_ok(id) ? SBX_OK
                          : host->set_error(SBX_E_NOT_FOUND, "fake: no sandbox \"%s\"",
                                            id_or_name);
}

int fake_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                void **sandbox, sbx_plugin_sandbox_info *info)
{
    const sbx_host *host = ((fake_state *)state)->host;
    char *statedir = NULL, *root = NULL, id[FAKE_ID_LEN + 1];
    fake_sandbox *sb = NULL;
    fake_meta m;
    int rc;

    rc = fake_dsn_check(host, dsn);
    if (rc == SBX_OK)
        rc = fake_statedir(host, false, &statedir);
    if (rc == SBX_OK)
        rc = resolve(host, statedir, id_or_name, id);
    if (rc == SBX_OK)
        rc = fake_meta_read(host, statedir, id, &m);
    if (rc != SBX_OK) {
        free(statedir);
        return rc;
    }
    if (m.expires_ms != 0 && sbxu_wall_ms() >= m.expires_ms) {
        /* Gone at its TTL: this look is the one that removes it. */
        fake_named_remove(host, statedir, id, m.name);
        fake_meta_clear(&m);
        free(statedir);
        return host->set_error(SBX_E_NOT_FOUND, "fake: sandbox \"%s\" reached its TTL",
                               id_or_name);
    }
    if (asprintf(&root, "%s/%s", statedir, id) < 0)
        rc = host->set_error(SBX_E_NOMEM, "fake: out of memory");
    else
        rc = fake_handle_new(host, root, &sb);
    if (rc != SBX_OK) {
        fake_meta_clear(&m);
        free(statedir);
        return rc;
    }
    sb->statedir = statedir;
    sb->meta = m;
    fake_info(sb, info);
    *sandbox = sb;
    return SBX_OK;
}

int fake_detach(void *sandbox)
{
    fake_sandbox *sb = sandbox;

    /* Commands started through this handle end with it; the sandbox stays. */
    fake_end_commands(sb);
    fake_handle_free(sb);
    return SBX_OK;
}

/* Read the meta afresh, let change() edit it, write it back. */
static int update(fake_sandbox *sb, void (*change)(fake_meta *m, uint64_t arg), uint64_t arg)
{
    fake_meta m;
    int rc;

    if (sb->statedir == NULL) {
        change(&sb->meta, arg);
        return SBX_OK;
    }
    rc = fake_meta_read(sb->host, sb->statedir, sb->id, &m);
    if (rc != SBX_OK)
        return rc;
    change(&m, arg);
    rc = fake_meta_write(sb->host, sb->statedir, sb->id, &m);
    if (rc == SBX_OK) {
        fake_meta_clear(&sb->meta);
        sb->meta = m;
    } else {
        fake_meta_clear(&m);
    }
    return rc;
}

static void change_ttl(fake_meta *m, uint64_t ttl_ms)
{
    m->expires_ms = sbxu_wall_ms() + (int64_t)ttl_ms;
}

static void change_paused(fake_meta *m, uint64_t paused)
{
    m->paused = paused != 0;
}

/* A plain sandbox (open()) keeps its pause state in memory; it has no TTL to set. */
static int named_only(fake_sandbox *sb)
{
    int rc = fake_enter(sb);  /* refuses one destroyed, or past its TTL */
    if (rc == SBX_OK)
        fake_leave(sb);
    return rc;
}

int fake_set_ttl(void *sandbox, uint64_t ttl_ms)
{
    fake_sandbox *sb = sandbox;
    int rc = named_only(sb);

    if (rc == SBX_OK && ttl_ms == 0)
        rc = sb->host->set_error(SBX_E_INVALID_ARGUMENT, "fake: a TTL of 0 is refused");
    if (rc == SBX_OK && sb->statedir == NULL)
        rc = sb->host->set_error(SBX_E_BACKEND_CONFLICT,
                                 "fake: sandbox %s was opened without a name or TTL and cannot "
                                 "get one now", sb->id);
    return rc != SBX_OK ? rc : update(sb, change_ttl, ttl_ms);
}

/* SIGSTOP or SIGCONT the command trees this handle runs. */
static void signal_groups(fake_sandbox *sb, int sig)
{
    pthread_mutex_lock(&sb->lock);
    for (size_t i = 0; i < sb->group_count; i++)
        kill(-sb->groups[i], sig);
    pthread_mutex_unlock(&sb->lock);
}

int fake_pause(void *sandbox)
{
    fake_sandbox *sb = sandbox;
    int rc = named_only(sb);

    if (rc == SBX_OK)
        rc = update(sb, change_paused, 1);
    if (rc == SBX_OK)
        signal_groups(sb, SIGSTOP);
    return rc;
}

int fake_resume(void *sandbox)
{
    fake_sandbox *sb = sandbox;
    int rc = named_only(sb);

    if (rc == SBX_OK)
        rc = update(sb, change_paused, 0);
    if (rc == SBX_OK)
        signal_groups(sb, SIGCONT);
    return rc;
}
