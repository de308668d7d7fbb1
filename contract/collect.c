/* SPDX-License-Identifier: Apache-2.0 */
/*
 * collect.c - after a case process died without cleaning up (crash, or
 * killed at its time limit), ask the backend to collect the sandboxes whose
 * owner is gone, so a failing run leaks nothing. Plugin code runs in a
 * forked process, like everywhere else in the runner.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

#define COLLECT_LIMIT_S 60.0

long sbxc_collect_leaked(const char *dsn)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        setpgid(0, 0);
        signal(SIGPIPE, SIG_IGN);
        long count = -1;
        sbx_client *client = NULL;
        size_t removed = 0;
        if (sbx_client_new(&client) == SBX_OK &&
            sbx_client_gc(client, dsn, NULL, NULL, &removed) == SBX_OK)
            count = (long)removed;
        sbx_client_free(client);
        if (write(fds[1], &count, sizeof count) != (ssize_t)sizeof count)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    long count = -1;
    struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
    int limit_ms = (int)(COLLECT_LIMIT_S * sbxc_time_factor() * 1000);
    int pr;
    while ((pr = poll(&pfd, 1, limit_ms)) < 0 && errno == EINTR)
        ;
    if (pr > 0 && read(fds[0], &count, sizeof count) != (ssize_t)sizeof count)
        count = -1;
    close(fds[0]);
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return count;
}
