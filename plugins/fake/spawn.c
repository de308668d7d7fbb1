/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting and reaping a command. posix_spawn, not fork: the host may be
 * multi-threaded, and only async-signal-safe code may run between fork and
 * exec. Each command leads its own session (hence process group), so one
 * kill(-pgid) reaches every process it started that stayed in the group.
 */
#include "fake.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sbxu/exec_start.h>

#define FAKE_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* The command's own PATH: execvp would search the caller's environ instead. */
static const char *cmd_path(const char *const *envp)
{
    for (; envp != NULL && *envp != NULL; envp++)
        if (strncmp(*envp, "PATH=", 5) == 0)
            return *envp + 5;
    return FAKE_DEFAULT_PATH;
}

/*
 * Find argv0 the way execvp does, but in the command's PATH and relative to
 * its working directory (cwd_fd). *found is malloc'd. Returns 0 or an errno:
 * EACCES if only non-executable candidates exist, else ENOENT.
 */
static int lookup_program(const char *argv0, const char *path, int cwd_fd, char **found)
{
    size_t name_len = strlen(argv0);
    int result = ENOENT;

    if (strchr(argv0, '/') != NULL) {
        *found = strdup(argv0);
        return *found != NULL ? 0 : ENOMEM;
    }
    for (const char *p = path;; p++) {
        const char *end = strchrnul(p, ':');
        size_t dir_len = (size_t)(end - p);
        struct stat st;
        char *cand;

        /* An empty PATH element means the working directory, as in execvp. */
        if (asprintf(&cand, "%.*s%s%s", (int)dir_len, p, dir_len > 0 ? "/" : "", argv0) < 0)
            return ENOMEM;
        if (dir_len + 1 + name_len < PATH_MAX &&
            fstatat(cwd_fd, cand, &st, 0) == 0 && S_ISREG(st.st_mode)) {
            if (faccessat(cwd_fd, cand, X_OK, AT_EACCESS) == 0) {
                /* A relative hit must stay relative: the child resolves it after its chdir. */
                *found = cand;
                return 0;
            }
            result = EACCES;
        }
        free(cand);
        if (*end == '\0')
            break;
        p = end;
    }
    return result;
}

/*
 * The command's working directory, beneath the root, made with its missing
 * parents as `docker run -w` makes it. Inside a fake sandbox the work
 * directory's absolute path is its host path (what `pwd` prints), so an
 * absolute cwd is accepted when it lies under the root.
 */
static int resolve_cwd(fake_sandbox *sb, const char *cwd, int *fd_out)
{
    size_t root_len = strlen(sb->root);

    if (cwd == NULL)
        cwd = "";
    if (cwd[0] == '/') {
        if (strncmp(cwd, sb->root, root_len) != 0 ||
            (cwd[root_len] != '\0' && cwd[root_len] != '/'))
            return sb->host->set_error(SBX_E_PATH_ESCAPE,
                                       "fake: working directory \"%s\" is outside the sandbox (%s)",
                                       cwd, sb->root);
        cwd += root_len;
        while (*cwd == '/')
            cwd++;
    }
    return fake_mkdir_beneath(sb, cwd, fd_out);
}

static int register_group(fake_sandbox *sb, pid_t pgid)
{
    if (sb->group_count == sb->group_cap) {
        size_t cap = sb->group_cap ? sb->group_cap * 2 : 8;
        pid_t *g = realloc(sb->groups, cap * sizeof(*g));
        if (g == NULL)
            return ENOMEM;
        sb->groups = g;
        sb->group_cap = cap;
    }
    sb->groups[sb->group_count++] = pgid;
    return 0;
}

static void forget_group(fake_sandbox *sb, pid_t pgid)
{
    pthread_mutex_lock(&sb->lock);
    for (size_t i = 0; i < sb->group_count; i++) {
        if (sb->groups[i] == pgid) {
            sb->groups[i] = sb->groups[--sb->group_count];
            break;
        }
    }
    pthread_mutex_unlock(&sb->lock);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* The child's attributes: new session, default signal dispositions, empty mask. */
static int spawn_attrs(posix_spawnattr_t *attr)
{
    sigset_t all, none;
    int err;

    sigfillset(&all);
    sigemptyset(&none);
    if ((err = posix_spawnattr_init(attr)) != 0)
        return err;
    if ((err = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF |
                                                  POSIX_SPAWN_SETSIGMASK)) != 0 ||
        (err = posix_spawnattr_setsigdefault(attr, &all)) != 0 ||
        (err = posix_spawnattr_setsigmask(attr, &none)) != 0)
        posix_spawnattr_destroy(attr);
    return err;
}

/* stdin from in_rd (or /dev/null), stdout/stderr to the pipes, cwd, no other fd. */
static int spawn_actions(posix_spawn_file_actions_t *fa, int in_rd, int out_wr, int err_wr,
                         int cwd_fd)
{
    int err;

    if ((err = posix_spawn_file_actions_init(fa)) != 0)
        return err;
    if (in_rd >= 0)
        err = posix_spawn_file_actions_adddup2(fa, in_rd, 0);
    else
        err = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
    if (err == 0)
        err = posix_spawn_file_actions_adddup2(fa, out_wr, 1);
    if (err == 0)
        err = posix_spawn_file_actions_adddup2(fa, err_wr, 2);
    if (err == 0)
        err = posix_spawn_file_actions_addfchdir_np(fa, cwd_fd);
    if (err == 0)
        err = posix_spawn_file_actions_addclosefrom_np(fa, 3);
    if (err != 0)
        posix_spawn_file_actions_destroy(fa);
    return err;
}

/*
 * The command's environment with HOME set to the sandbox's root unless it
 * names one, as the real backends set it to their work dir. *env is
 * malloc'd (the strings are borrowed but *home's); NULL on no memory.
 */
static const char **env_with_home(const fake_sandbox *sb, const char *const *envp, char **home)
{
    size_t n = 0;
    const char **env;

    for (; envp && envp[n]; n++)
        if (strncmp(envp[n], "HOME=", 5) == 0)
            home = NULL;
    if (!(env = calloc(n + 2, sizeof(*env))))
        return NULL;
    memcpy(env, envp ? envp : env, n * sizeof(*env));
    if (home && asprintf(home, "HOME=%s", sb->root) < 0) {
        free(env);
        return NULL;
    }
    if (home)
        env[n] = *home;
    return env;
}

int fake_spawn(fake_sandbox *sb, const sbx_plugin_cmd *cmd, bool want_stdin, fake_child *child)
{
    const sbx_host *host = sb->host;
    const char **env = NULL;
    char *home = NULL;
    int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    int cwd_fd = -1, err, rc;
    char *program = NULL;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t fa;
    pid_t pid;

    child->pid = -1;
    child->pidfd = child->in_fd = child->out_fd = child->err_fd = -1;

    rc = resolve_cwd(sb, cmd->cwd, &cwd_fd);
    if (rc != SBX_OK)
        return rc;
    err = lookup_program(cmd->argv[0], cmd_path(cmd->envp), cwd_fd, &program);
    if (err != 0) {
        close(cwd_fd);
        return host->set_error(err == ENOMEM ? SBX_E_NOMEM : sbxu_exec_start_code(err),
                               "fake: cannot run \"%s\": %s", cmd->argv[0], strerror(err));
    }
    if (!(env = env_with_home(sb, cmd->envp, &home))) {
        rc = host->set_error(SBX_E_NOMEM, "fake: out of memory");
        goto out;
    }
    if ((want_stdin && pipe2(in_pipe, O_CLOEXEC) != 0) || pipe2(out_pipe, O_CLOEXEC) != 0 ||
        pipe2(err_pipe, O_CLOEXEC) != 0) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: pipe2: %s", strerror(errno));
        goto out;
    }
    if ((err = spawn_attrs(&attr)) != 0) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: posix_spawnattr: %s", strerror(err));
        goto out;
    }
    if ((err = spawn_actions(&fa, in_pipe[0], out_pipe[1], err_pipe[1], cwd_fd)) != 0) {
        posix_spawnattr_destroy(&attr);
        rc = host->set_error(SBX_E_SYSTEM, "fake: posix_spawn_file_actions: %s", strerror(err));
        goto out;
    }

    /* Spawn and register under the lock, so destroy() never misses a group. */
    pthread_mutex_lock(&sb->lock);
    err = sb->destroying ? ECANCELED
                         : posix_spawn(&pid, program, &fa, &attr, (char *const *)cmd->argv,
                                       (char *const *)env);
    if (err == 0 && register_group(sb, pid) != 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
        err = ENOMEM;
        rc = host->set_error(SBX_E_NOMEM, "fake: out of memory");
    } else if (err == ECANCELED) {
        rc = host->set_error(SBX_E_SANDBOX_DESTROYED, "fake: sandbox %s is being destroyed",
                             sb->id);
    } else if (err != 0) {
        /* glibc reports the child's chdir/exec failure here. */
        rc = host->set_error(sbxu_exec_start_code(err), "fake: cannot run \"%s\": %s", cmd->argv[0],
                             strerror(err));
    }
    pthread_mutex_unlock(&sb->lock);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (err != 0)
        goto out;

    child->pid = pid;
    child->pidfd = pidfd_open(pid, 0);
    if (child->pidfd < 0) {
        err = errno;
        rc = host->set_error(err == ENOSYS ? SBX_E_KERNEL_FEATURE : SBX_E_SYSTEM,
                             "fake: pidfd_open: %s", strerror(err));
        fake_reap(sb, child, NULL);
        goto out;
    }
    child->in_fd = in_pipe[1];
    child->out_fd = out_pipe[0];
    child->err_fd = err_pipe[0];
    in_pipe[1] = out_pipe[0] = err_pipe[0] = -1;
    rc = SBX_OK;
out:
    free(program);
    free(env);
    free(home);
    close_fd(&cwd_fd);
    for (int i = 0; i < 2; i++) {
        close_fd(&in_pipe[i]);
        close_fd(&out_pipe[i]);
        close_fd(&err_pipe[i]);
    }
    return rc;
}

int fake_reap(fake_sandbox *sb, fake_child *child, int *status)
{
    int st = 0, rc = SBX_OK;

    /*
     * The leader is not reaped yet, so its pid cannot have been reused as a
     * process group id: this kill reaches only what the command started.
     */
    kill(-child->pid, SIGKILL);
    forget_group(sb, child->pid);
    while (waitpid(child->pid, &st, 0) < 0) {
        if (errno != EINTR) {
            rc = sb->host->set_error(SBX_E_SYSTEM, "fake: waitpid %ld: %s", (long)child->pid,
                                     strerror(errno));
            break;
        }
    }
    if (status != NULL)
        *status = st;
    close_fd(&child->pidfd);
    close_fd(&child->in_fd);
    close_fd(&child->out_fd);
    close_fd(&child->err_fd);
    child->pid = -1;
    return rc;
}
