/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local plugin's helper processes on the host (slirp4netns for an open
 * network, the allowlist proxy): started with only the descriptors they
 * are given and an empty environment, ended by closing their exit pipe and
 * SIGKILL, and reaped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "local.h"

int local_helper_spawn(pid_t *pid, const char *path, char *const *argv, int err_fd,
                       const int *fds, int nfds)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return ENOMEM;
    /* Only /dev/null, err_fd as 2 and fds as 3, 4, ... reach the helper. */
    int e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!e) e = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!e) e = err_fd >= 0 ? posix_spawn_file_actions_adddup2(&fa, err_fd, 2)
                            : posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    for (int i = 0; i < nfds && !e; i++)
        e = posix_spawn_file_actions_adddup2(&fa, fds[i], 3 + i);
    if (!e) e = posix_spawn_file_actions_addclosefrom_np(&fa, 3 + nfds);
    /* No environment at all: these are the two processes that parse what the
     * sandbox sends, and the client's holds its secrets (E2B_API_KEY,
     * SANDBOXIO_MCP_TOKEN, ...). Neither needs a variable: everything they
     * are told is in argv. */
    char *const envp[] = { NULL };
    if (!e) e = posix_spawn(pid, path, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    if (e)
        *pid = 0;
    return e;
}

void local_helper_stop(pid_t *pid, int *exit_fd)
{
    if (*exit_fd >= 0)
        close(*exit_fd);
    *exit_fd = -1;
    if (*pid > 0) {
        /* Our own unreaped child: the pid cannot have been reused. */
        kill(*pid, SIGKILL);
        while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    *pid = 0;
}
