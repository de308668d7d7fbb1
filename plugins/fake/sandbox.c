/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Life cycle of a fake sandbox: a private 0700 directory made with mkdtemp,
 * the process groups of the commands running in it, and a destroy that
 * leaves nothing of either behind.
 */
#include "fake.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fake_dsn_check(const sbx_host *host, const sbx_plugin_dsn *dsn)
{
    if (dsn == NULL)
        return SBX_OK;
    if (dsn->authority != NULL && dsn->authority[0] != '\0')
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY,
                               "fake: the fake backend takes no authority (got \"%s\"); "
                               "use fake://",
                               dsn->authority);
    if (dsn->path != NULL && dsn->path[0] != '\0' && strcmp(dsn->path, "/") != 0)
        return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                               "fake: the fake backend takes no path (got \"%s\"); use fake://",
                               dsn->path);
    if (dsn->query_count > 0)
        return host->set_error(SBX_E_DSN_UNKNOWN_OPTION,
                               "fake: unknown option \"%s\": the fake backend takes no options",
                               dsn->query[0].key);
    return SBX_OK;
}

const char *fake_tmpdir(void)
{
    /* A relative TMPDIR would make the root depend on the caller's cwd. */
    const char *dir = getenv("TMPDIR");

    return (dir != NULL && dir[0] == '/') ? dir : "/tmp";
}

void fake_handle_free(fake_sandbox *sb)
{
    if (sb->root_fd >= 0)
        close(sb->root_fd);
    pthread_cond_destroy(&sb->idle);
    pthread_mutex_destroy(&sb->lock);
    free(sb->groups);
    free(sb->root);
    free(sb->statedir);
    fake_meta_clear(&sb->meta);
    free(sb);
}

int fake_handle_new(const sbx_host *host, char *root, fake_sandbox **out)
{
    fake_sandbox *sb = calloc(1, sizeof(*sb));
    int rc;

    if (sb == NULL) {
        free(root);
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    }
    sb->host = host;
    sb->root = root;
    sb->id = strrchr(root, '/') + 1;
    pthread_mutex_init(&sb->lock, NULL);
    pthread_cond_init(&sb->idle, NULL);
    sb->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sb->root_fd < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: cannot open the sandbox root %s: %s", root,
                             strerror(errno));
        fake_handle_free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

int fake_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
              void **sandbox)
{
    const sbx_host *host = ((fake_state *)state)->host;
    fake_sandbox *sb;
    char *root;
    int rc, err;

    /* limits: the core passes only what the fake's capabilities allow (none). */
    (void)limits;
    rc = fake_dsn_check(host, dsn);
    if (rc != SBX_OK)
        return rc;
    if (asprintf(&root, "%s/%s%ld-%lu-XXXXXX", fake_tmpdir(), FAKE_ROOT_PREFIX, (long)getpid(),
                 fake_pidns()) < 0)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    if (mkdtemp(root) == NULL) {
        err = errno;
        rc = host->set_error(SBX_E_SYSTEM, "fake: cannot create the sandbox root %s: %s", root,
                             strerror(err));
        free(root);
        return rc;
    }
    /* fake_handle_new() takes root, freed even when it fails: keep the path. */
    char *made = strdup(root);
    if (made == NULL) {
        rmdir(root);
        free(root);
        host->set_error(SBX_E_NOMEM, "fake: out of memory");
        return SBX_E_NOMEM;
    }
    rc = fake_handle_new(host, root, &sb);
    if (rc != SBX_OK) {
        rmdir(made);
        free(made);
        return rc;
    }
    free(made);
    if (host->log != NULL)
        host->log(SBX_LOG_DEBUG, FAKE_NAME, "created sandbox root %s", root);
    *sandbox = sb;
    return SBX_OK;
}

/*
 * A sandbox of the state dir may have been destroyed or paused through
 * another handle, or reached its TTL: its meta file says, read afresh.
 */
static int named_check(fake_sandbox *sb, bool for_exec)
{
    fake_meta m;
    int rc;

    if (sb->statedir == NULL)
        return for_exec && sb->meta.paused
                   ? sb->host->set_error(SBX_E_BACKEND_CONFLICT,
                                         "fake: sandbox %s is paused: resume it first", sb->id)
                   : SBX_OK;
    rc = fake_meta_read(sb->host, sb->statedir, sb->id, &m);
    if (rc != SBX_OK)
        return rc;
    if (m.expires_ms != 0 && sbxu_wall_ms() >= m.expires_ms)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "fake: sandbox %s reached its TTL", sb->id);
    else if (for_exec && m.paused)
        rc = sb->host->set_error(SBX_E_BACKEND_CONFLICT,
                                 "fake: sandbox %s is paused: resume it first", sb->id);
    fake_meta_clear(&m);
    return rc;
}

static int enter(fake_sandbox *sb, bool for_exec)
{
    int rc = SBX_OK;

    pthread_mutex_lock(&sb->lock);
    if (sb->destroying)
        rc = sb->host->set_error(SBX_E_SANDBOX_DESTROYED, "fake: sandbox %s is being destroyed",
                                 sb->id);
    else
        sb->active++;
    pthread_mutex_unlock(&sb->lock);
    if (rc == SBX_OK && (rc = named_check(sb, for_exec)) != SBX_OK)
        fake_leave(sb);
    return rc;
}

int fake_enter(fake_sandbox *sb)
{
    return enter(sb, false);
}

int fake_enter_exec(fake_sandbox *sb)
{
    return enter(sb, true);
}

void fake_leave(fake_sandbox *sb)
{
    pthread_mutex_lock(&sb->lock);
    if (--sb->active == 0)
        pthread_cond_broadcast(&sb->idle);
    pthread_mutex_unlock(&sb->lock);
}

void fake_end_commands(fake_sandbox *sb)
{
    /*
     * Kill every command tree, then wait for the execs that run them to
     * finish: they reap their own leaders, and no exec may touch sb later.
     */
    pthread_mutex_lock(&sb->lock);
    sb->destroying = true;
    for (size_t i = 0; i < sb->group_count; i++)
        kill(-sb->groups[i], SIGKILL);
    while (sb->active > 0)
        pthread_cond_wait(&sb->idle, &sb->lock);
    pthread_mutex_unlock(&sb->lock);
}

int fake_destroy(void *sandbox)
{
    fake_sandbox *sb = sandbox;
    const sbx_host *host = sb->host;
    char *slash;
    int parent_fd, rc = SBX_OK;

    fake_end_commands(sb);
    if (sb->statedir != NULL) {
        rc = fake_named_remove(host, sb->statedir, sb->id, sb->meta.name);
        fake_handle_free(sb);
        return rc;
    }
    slash = strrchr(sb->root, '/');
    *slash = '\0';
    parent_fd = open(slash == sb->root ? "/" : sb->root,
                     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    *slash = '/';
    if (parent_fd < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: cannot open the parent of %s: %s", sb->root,
                             strerror(errno));
    } else {
        int err = fake_remove_tree(parent_fd, sb->id);
        if (err != 0 && err != ENOENT)
            rc = host->set_error(SBX_E_SYSTEM, "fake: cannot remove the sandbox root %s: %s",
                                 sb->root, strerror(err));
        close(parent_fd);
    }
    if (rc == SBX_OK && host->log != NULL)
        host->log(SBX_LOG_DEBUG, FAKE_NAME, "removed sandbox root %s", sb->root);
    fake_handle_free(sb);
    return rc;
}
