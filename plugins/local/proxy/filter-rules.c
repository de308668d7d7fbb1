/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the proxy may do once it is set up (proxy.c has made its event
 * loop, resolver, listener and exit watch): relay bytes between sockets it
 * accepts from the sandbox and sockets it connects to the internet, and
 * nothing else. Everything not listed kills it (the default action): no
 * file is opened, no program run, no unix socket made (the host's daemons
 * listen on those), no memory made executable. The list is what glibc
 * and libevent call for that, found with strace on the proxy's tests.
 */
#include "config.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "filter-rules.h"

static const char *const allowed[] = {
    /* The event loop and its clocks (the vDSO's, or these where it is missing). */
    "epoll_wait", "epoll_pwait", "epoll_ctl", "clock_gettime", "gettimeofday", "time",
    "restart_syscall", "rt_sigreturn",
    /* Bytes: the sockets, the relay's pipes, the log on stderr, DNS over UDP. */
    "read", "readv", "write", "writev", "recvfrom", "sendto", "splice", "pipe2", "close",
    "shutdown",
    /* Connections: accepted from the sandbox's listener, made upstream. */
    "accept4", "connect", "getsockopt", "fcntl",
    /* Where a connection would go from: the host itself? (self.h) */
    "getsockname",
    /* Memory (mmap and mprotect below), evdns's query ids, the end. */
    "brk", "munmap", "mremap", "madvise", "getrandom", "exit_group", "exit",
    /* The sanitizers' runtime, at the end (--enable-sanitizers builds). */
    "sigaltstack",
};

int px_filter_rules(scmp_filter_ctx ctx)
{
    int rc = 0;

    for (size_t i = 0; i < sizeof allowed / sizeof *allowed && rc == 0; i++) {
        int nr = seccomp_syscall_resolve_name(allowed[i]);
        if (nr == __NR_SCMP_ERROR || nr < 0)
            continue; /* not a syscall of this architecture (epoll_wait on arm64) */
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
    }
    /* Sockets of the internet only: TCP upstream, UDP to the nameservers. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_EQ, AF_INET));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_EQ, AF_INET6));
    /* Each connection's buffers are fixed (proxy.c); nothing else is set. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setsockopt), 2,
                              SCMP_A1(SCMP_CMP_EQ, SOL_SOCKET), SCMP_A2(SCMP_CMP_EQ, SO_RCVBUF));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setsockopt), 2,
                              SCMP_A1(SCMP_CMP_EQ, SOL_SOCKET), SCMP_A2(SCMP_CMP_EQ, SO_SNDBUF));
    /* libevent asks how many bytes a socket holds (FIONREAD), nothing else. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
                              SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, FIONREAD));
    /* malloc's mappings, never executable ones. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
                              SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                              SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    return rc;
}
