/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostproc.c - the host-process backend behind the broken self-test
 * plugins: a private directory in /tmp per sandbox, each exec a process
 * group of its own, output through pipes. Honest except for the one flaw
 * its plugin switches on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hostproc.h"

#define MAX_GROUPS 4096

static const sbx_host *host;

typedef struct hp_sandbox {
    char root[256];
    pthread_mutex_t lock;
    pid_t groups[MAX_GROUPS];
    size_t ngroups;
} hp_sandbox;

int hostproc_init(const sbx_host *h, void **state)
{
    host = h;
    *state = NULL;
    return SBX_OK;
}

void hostproc_fini(void *state)
{
}

int hostproc_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  void **out)
{
    hp_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb)
        return host->set_error(SBX_E_NOMEM, "out of memory");
    /* The self-test names a directory it removes: a plugin that crashes
     * before destroy leaves nothing behind in /tmp. */
    const char *parent = getenv("SBXC_SELFTEST_ROOT");
    int n = snprintf(sb->root, sizeof sb->root, "%s/sbxc-selftest-XXXXXX",
                     parent && *parent ? parent : "/tmp");
    if (n < 0 || (size_t)n >= sizeof sb->root) {
        free(sb);
        return host->set_error(SBX_E_INVALID_ARGUMENT, "SBXC_SELFTEST_ROOT is too long");
    }
    if (!mkdtemp(sb->root)) {
        int err = errno;
        free(sb);
        return host->set_error(SBX_E_SYSTEM, "mkdtemp: %s", strerror(err));
    }
    pthread_mutex_init(&sb->lock, NULL);
    *out = sb;
    return SBX_OK;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    remove(path);
    return 0;
}

int hostproc_destroy(void *sandbox)
{
    hp_sandbox *sb = sandbox;
    if (!hostproc_flaws_of_this_plugin.leak_on_destroy)
        for (size_t i = 0; i < sb->ngroups; i++)
            kill(-sb->groups[i], SIGKILL);
    nftw(sb->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    pthread_mutex_destroy(&sb->lock);
    free(sb);
    return SBX_OK;
}

/* Remember a process group, for destroy to kill. */
static void record_group(hp_sandbox *sb, pid_t pgid)
{
    pthread_mutex_lock(&sb->lock);
    if (sb->ngroups < MAX_GROUPS)
        sb->groups[sb->ngroups++] = pgid;
    pthread_mutex_unlock(&sb->lock);
}

/* In the child: exec argv[0], searched in PATH from envp or a default. */
static void exec_program(const sbx_plugin_cmd *cmd, char **envp)
{
    const char *path = "/usr/local/bin:/usr/bin:/bin";
    for (char **e = envp; *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0)
            path = *e + 5;
    const char *prog = cmd->argv[0];
    if (strchr(prog, '/')) {
        execve(prog, (char *const *)cmd->argv, envp);
        return;
    }
    int first_err = ENOENT;
    while (*path) {
        size_t len = strcspn(path, ":");
        char full[4096];
        snprintf(full, sizeof full, "%.*s/%s", (int)len, path, prog);
        execve(full, (char *const *)cmd->argv, envp);
        if (errno != ENOENT && first_err == ENOENT)
            first_err = errno;
        path += len + (path[len] == ':');
    }
    errno = first_err;
}

/* The environment given, with a PATH added when it has none. */
static char **make_env(const sbx_plugin_cmd *cmd)
{
    size_t n = 0;
    int has_path = 0;
    for (; cmd->envp && cmd->envp[n]; n++)
        has_path |= strncmp(cmd->envp[n], "PATH=", 5) == 0;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++)
        env[i] = (char *)cmd->envp[i];
    if (!has_path)
        env[n] = (char *)"PATH=/usr/local/bin:/usr/bin:/bin";
    return env;
}

static pid_t spawn(hp_sandbox *sb, const sbx_plugin_cmd *cmd, int out_fd[2], int err_fd[2],
                   int *start_errno)
{
    int status_fd[2];
    char **env = make_env(cmd);
    if (!env || pipe2(status_fd, O_CLOEXEC) < 0) {
        free(env);
        *start_errno = errno ? errno : ENOMEM;
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_fd[1], 1) < 0 ||
            dup2(err_fd[1], 2) < 0 || chdir(sb->root) < 0 ||
            (cmd->cwd && *cmd->cwd && chdir(cmd->cwd) < 0)) {
            int e = errno;
            if (write(status_fd[1], &e, sizeof e) < 0)
                _exit(127);
            _exit(127);
        }
        /* The command gets a clean signal state, not the caller's. */
        for (int sig = 1; sig < 32; sig++)
            signal(sig, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        exec_program(cmd, env);
        int e = errno;
        if (write(status_fd[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    int saved = errno;
    free(env);
    close(status_fd[1]);
    if (pid < 0) {
        close(status_fd[0]);
        *start_errno = saved;
        return -1;
    }
    setpgid(pid, pid);
    record_group(sb, pid);
    int e = 0;
    ssize_t n;
    while ((n = read(status_fd[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(status_fd[0]);
    if (n == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        *start_errno = e;
        return -1;
    }
    return pid;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int hostproc_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                  sbx_plugin_exit *exit_out)
{
    hp_sandbox *sb = sandbox;
    const hostproc_flaws *flaws = &hostproc_flaws_of_this_plugin;
    if (flaws->crash_in_exec)
        raise(SIGSEGV);
    while (flaws->hang_in_exec)
        pause();
    int out_fd[2], err_fd[2];
    if (pipe2(out_fd, O_CLOEXEC) < 0)
        return host->set_error(SBX_E_SYSTEM, "pipe: %s", strerror(errno));
    if (pipe2(err_fd, O_CLOEXEC) < 0) {
        int e = errno;
        close(out_fd[0]);
        close(out_fd[1]);
        return host->set_error(SBX_E_SYSTEM, "pipe: %s", strerror(e));
    }
    int start_errno = 0;
    pid_t pid = spawn(sb, cmd, out_fd, err_fd, &start_errno);
    close(out_fd[1]);
    close(err_fd[1]);
    if (pid < 0) {
        close(out_fd[0]);
        close(err_fd[0]);
        return host->set_error(start_errno == ENOENT   ? SBX_E_EXEC_NOT_FOUND
                               : start_errno == EACCES ? SBX_E_EXEC_DENIED
                                                       : SBX_E_EXEC_START,
                               "cannot start %s: %s", cmd->argv[0], strerror(start_errno));
    }

    double deadline = cmd->timeout_ms && !flaws->ignore_timeout
                          ? now_s() + (double)cmd->timeout_ms / 1000.0
                          : 0;
    int cancel_fd = SBX_STRUCT_HAS(io, cancel_fd) && !flaws->ignore_cancel ? io->cancel_fd : -1;
    struct pollfd pfd[3] = { { out_fd[0], POLLIN, 0 }, { err_fd[0], POLLIN, 0 },
                             { cancel_fd, POLLIN, 0 } };
    size_t seen[2] = { 0, 0 };
    int open_streams = 2, timed_out = 0, aborted = 0, cancelled = 0;
    char buf[65536];
    while (open_streams > 0) {
        int wait_ms = -1;
        if (deadline && !timed_out) {
            double left = deadline - now_s();
            wait_ms = left > 0 ? (int)(left * 1000) + 1 : 0;
        }
        int pr = poll(pfd, 3, wait_ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0 || (deadline && !timed_out && now_s() >= deadline)) {
            kill(-pid, SIGKILL);
            timed_out = 1;
            continue;
        }
        if (pfd[2].fd >= 0 && pfd[2].revents) {
            kill(-pid, SIGKILL);
            cancelled = 1;
            pfd[2].fd = -1; /* it stays readable */
        }
        for (int s = 0; s < 2; s++) {
            if (pfd[s].fd < 0 || !(pfd[s].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(pfd[s].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(pfd[s].fd);
                pfd[s].fd = -1;
                open_streams--;
                continue;
            }
            size_t give = (size_t)n;
            if (flaws->crop_after)
                give = seen[s] >= flaws->crop_after ? 0
                       : seen[s] + give > flaws->crop_after ? flaws->crop_after - seen[s] : give;
            seen[s] += (size_t)n;
            if (give && !aborted && io->output(io->userdata, s + 1, buf, give) != 0) {
                kill(-pid, SIGKILL);
                aborted = 1;
            }
        }
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (cancelled)
        return host->set_error(SBX_E_EXEC_CANCELLED, "the command was cancelled");
    if (aborted)
        return host->set_error(SBX_E_EXEC_ABORTED, "the output callback stopped the command");
    exit_out->exited = WIFEXITED(status);
    exit_out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    exit_out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    exit_out->timed_out = timed_out;
    exit_out->oom_killed = 0;
    return SBX_OK;
}
