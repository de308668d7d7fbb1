/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Framing for the local backend's control and status sockets (proto.h).
 * Shared by the plugin and the init, so it uses nothing but libc.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "proto.h"

#define LP_MAX_FDS 4

int lp_send(int sock, uint32_t type, const void *payload, size_t len, const int *fds,
            size_t nfds)
{
    lp_hdr hdr = { .type = type, .len = (uint32_t)len };
    struct iovec iov[2] = {
        { .iov_base = &hdr, .iov_len = sizeof hdr },
        { .iov_base = (void *)payload, .iov_len = len },
    };
    union {
        char buf[CMSG_SPACE(sizeof(int) * LP_MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct msghdr msg = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

    if (len > LP_MAX_MSG || nfds > LP_MAX_FDS) {
        errno = EMSGSIZE;
        return -1;
    }
    if (nfds > 0) {
        memset(&ctl, 0, sizeof ctl);
        msg.msg_control = ctl.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    }
    for (;;) {
        ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL);
        if (n >= 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

static void close_fds(int *fds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
}

long lp_recv(int sock, lp_hdr *hdr, void *buf, size_t cap, int *fds, size_t *nfds)
{
    struct iovec iov[2] = {
        { .iov_base = hdr, .iov_len = sizeof *hdr },
        { .iov_base = buf, .iov_len = cap },
    };
    union {
        char buf[CMSG_SPACE(sizeof(int) * LP_MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct msghdr msg = {
        .msg_iov = iov, .msg_iovlen = 2,
        .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf,
    };
    size_t room = nfds ? *nfds : 0, got = 0;
    int tmp[LP_MAX_FDS];
    ssize_t n;

    if (nfds)
        *nfds = 0;
    memset(hdr, 0, sizeof *hdr);
    do
        n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k && got < LP_MAX_FDS; i++)
            memcpy(&tmp[got++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
    }
    if (n == 0 && got == 0)
        return 0;
    if ((size_t)n < sizeof *hdr || hdr->len != (size_t)n - sizeof *hdr
        || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || got > room) {
        close_fds(tmp, got);
        errno = EBADMSG;
        return -1;
    }
    if (got)
        memcpy(fds, tmp, got * sizeof(int));
    if (nfds)
        *nfds = got;
    return (long)hdr->len;
}
