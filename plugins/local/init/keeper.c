/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keeper of a local sandbox opened with a TTL.
 *
 * The plugin starts it (detach.c), outside the sandbox's namespaces, with
 * the creator's uid, and it is no daemon: one keeper per sandbox, gone with
 * it. It does the two things init cannot do from inside its namespaces:
 *  - it checks who connects: init sees every uid but its own mapped one as
 *    the overflow uid, so only the keeper, in the host's user namespace, can
 *    tell the owner from another user. It accepts on the sandbox's socket,
 *    refuses a peer of any other uid (SO_PEERCRED, on every connection), and
 *    hands the owner's connections to init;
 *  - once init has ended (its TTL, a destroy, a kill), it removes what is
 *    left on the host: the cgroups, the socket, then the record.
 * init enforces the TTL itself. A paused sandbox's init is frozen with the
 * rest, though, so the keeper holds the deadline too (init tells it of
 * every move) and SIGKILLs init if it is still there a moment after.
 *
 * Descriptors: 3 the listening socket, 4 the link to init, 5 init's pidfd,
 * 6 the runtime directory. Arguments: "keeper" ID CGROUP CGROUP EXPIRES (a
 * cgroup path, or "" for none; the expiry in Unix ms).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/clock.h>

#include "init.h"
#include "../proto.h"

enum { LISTEN_FD = 3, LINK_FD = 4, PIDFD = 5, DIR_FD = 6 };

/* How long after the expiry init gets to end the sandbox itself. */
#define BACKSTOP_MS 2000

/* init's news of a moved TTL: the new expiry. */
static void from_init(int64_t *expires)
{
    lp_hdr hdr;
    int64_t e;
    if (lp_recv(LINK_FD, &hdr, &e, sizeof e, NULL, NULL) == (long)sizeof e && hdr.type == LP_TTL)
        *expires = e;
}

/* The owner's connection goes to init; any other uid's is closed unread. */
static void accept_one(void)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    int fd = accept4(LISTEN_FD, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && len == sizeof cred
        && cred.uid == geteuid())
        lp_send(LINK_FD, LP_CLIENT, NULL, 0, &fd, 1);
    close(fd);
}

/* A group empties a moment after its last process is reaped: retry briefly. */
static void remove_group(const char *path)
{
    if (!path[0])
        return;
    for (int i = 0; i < 500 && rmdir(path) < 0 && errno == EBUSY; i++)
        usleep(10000);
}

int init_keeper(int argc, char **argv)
{
    struct stat st;
    char rec[128];

    if (argc != 6 || fstat(DIR_FD, &st) < 0 || !S_ISDIR(st.st_mode)
        || snprintf(rec, sizeof rec, "%s.rec", argv[2]) >= (int)sizeof rec)
        return 120; /* not started by the plugin */
    if (chdir("/") < 0)
        return 1; /* holds no directory of the client's busy */
    int64_t expires = strtoll(argv[5], NULL, 10);

    for (;;) {
        struct pollfd p[3] = {
            { .fd = LISTEN_FD, .events = POLLIN },
            { .fd = PIDFD, .events = POLLIN },
            { .fd = LINK_FD, .events = POLLIN }, /* a moved TTL; POLLHUP: init's end closed */
        };
        int64_t left = expires + BACKSTOP_MS - sbxu_wall_ms();
        if (left <= 0) {
            /* A frozen or wedged init: SIGKILL ends it, frozen or not. */
            syscall(SYS_pidfd_send_signal, PIDFD, SIGKILL, NULL, 0);
            struct pollfd gone = { .fd = PIDFD, .events = POLLIN };
            while (poll(&gone, 1, -1) < 0 && errno == EINTR)
                ;
            break;
        }
        if (poll(p, 3, left > INT_MAX ? INT_MAX : (int)left) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[1].revents || (p[2].revents & (POLLHUP | POLLERR)))
            break;
        if (p[2].revents & POLLIN)
            from_init(&expires);
        if (p[0].revents)
            accept_one();
    }
    /* init is gone, and with it every process of its pid namespace. */
    close(LISTEN_FD);
    remove_group(argv[3]);
    remove_group(argv[4]);
    unlinkat(DIR_FD, argv[2], 0);
    unlinkat(DIR_FD, rec, 0);
    return 0;
}
