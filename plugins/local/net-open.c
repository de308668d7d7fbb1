/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --network open on local: user-mode networking by slirp4netns.
 *
 * The sandbox's network namespace gets a tap device whose far end is
 * slirp4netns, a process of the client's user on the host: it turns the
 * sandbox's TCP/UDP flows into ordinary sockets of its own, so the sandbox
 * reaches what that user could reach, and no privilege is needed.
 * slirp4netns was chosen over pasta because it has an exit descriptor and a
 * ready descriptor: it dies when the client closes (or loses, by dying) its
 * end, and says when the interface is configured.
 *
 * What stays unreachable: the host's loopback (--disable-host-loopback
 * refuses the gateway 10.0.2.2 that would map onto it; 127/8 inside is the
 * sandbox's own lo) and the host's own addresses, for which init installs
 * "prohibit" routes (init/net.c) from the list the plugin gathers here. The
 * tool itself runs in its own mount namespace with a seccomp filter
 * (--enable-sandbox, --enable-seccomp), with no environment (helper.c) and
 * at most NET_MAX_CONNS connections: each costs its buffers on the host,
 * outside the sandbox's limits. No IPv6: the sandbox has no v6 route.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "local.h"
#include "proxy/self.h"

#define NET_READY_TIMEOUT_MS 10000
/* The sandbox's connections at once, as the allowlist proxy's default
 * (proxy/proxy.c), and the descriptors the tool needs of its own. */
#define NET_MAX_CONNS 256
#define NET_TOOL_FDS 16

/*
 * The tool: $SANDBOXIO_SLIRP4NETNS (ignored in setuid programs), else
 * slirp4netns on PATH (or in /usr/bin). NULL if none is executable.
 */
static const char *tool_path(char *buf, size_t cap)
{
    const char *env = secure_getenv("SANDBOXIO_SLIRP4NETNS");
    const char *path = getenv("PATH");

    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    if (!path || !*path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n && (size_t)snprintf(buf, cap, "%.*s/slirp4netns", (int)n, path) < cap
            && access(buf, X_OK) == 0)
            return buf;
        path += n + (path[n] == ':');
    }
    return NULL;
}

int local_net_open_available(char *why, size_t cap)
{
    char buf[4096];
    if (!tool_path(buf, sizeof buf)) {
        snprintf(why, cap, "slirp4netns is not installed (Debian: apt install slirp4netns)");
        return 0;
    }
    /* The tool opens the tap device as this user: where that is refused
     * (a /dev/net/tun of mode 0600, no tun module) it cannot work. */
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, cap, "slirp4netns cannot open /dev/net/tun as this user: %s",
                 strerror(errno));
        return 0;
    }
    close(fd);
    return 1;
}

size_t local_net_host_addrs(struct in_addr *out, size_t cap)
{
    px_self self[PX_MAX_SELF];
    int all = px_self_addrs(self, PX_MAX_SELF);
    size_t n = 0;

    for (int i = 0; i < all && i < PX_MAX_SELF && n < cap; i++) {
        /* No IPv6 route inside; 127/8 is the sandbox's own loopback already. */
        if (self[i].family != AF_INET || self[i].addr[0] == 127)
            continue;
        memcpy(&out[n++], self[i].addr, 4);
    }
    return n;
}

int local_net_open_start(const sbx_host *host, local_sandbox *sb)
{
    char buf[4096], pid[16], exitfd[16], readyfd[16];
    const char *tool = tool_path(buf, sizeof buf);
    int ex[2] = { -1, -1 }, rd[2] = { -1, -1 }, rc = SBX_OK;

    if (!tool)
        return host->set_error(SBX_E_POLICY_NETWORK_OPEN,
                               "local: --network open needs slirp4netns, which is not installed");
    if (pipe2(ex, O_CLOEXEC) < 0 || pipe2(rd, O_CLOEXEC) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: pipe: %s", strerror(errno));
        goto out;
    }
    snprintf(pid, sizeof pid, "%d", (int)sb->pid);
    snprintf(exitfd, sizeof exitfd, "--exit-fd=%d", 3);
    snprintf(readyfd, sizeof readyfd, "--ready-fd=%d", 4);
    char *argv[] = { (char *)"slirp4netns", (char *)"--configure", (char *)"--mtu=65520",
                     (char *)"--disable-host-loopback", (char *)"--enable-sandbox",
                     (char *)"--enable-seccomp", exitfd, readyfd, pid, (char *)"tap0", NULL };
    int fds[2] = { ex[0], rd[1] }; /* as 3 and 4 */
    int e = local_helper_spawn(&sb->net_pid, tool, argv, -1, fds, 2);
    if (e) {
        rc = host->set_error(SBX_E_BACKEND_UNAVAILABLE, "local: cannot start %s: %s", tool,
                             strerror(e));
        goto out;
    }
    /* Each connection the sandbox makes is a socket of the tool's, with its
     * buffers: a cap on its descriptors caps them (past it, a connection is
     * refused inside). It is set before the tool has configured the
     * sandbox's network, so before any connection. */
    struct rlimit nofile = { NET_MAX_CONNS + NET_TOOL_FDS, NET_MAX_CONNS + NET_TOOL_FDS };
    if (prlimit(sb->net_pid, RLIMIT_NOFILE, &nofile, NULL) < 0) {
        rc = host->set_error(SBX_E_BACKEND_FAILED, "local: cannot cap slirp4netns's connections: %s",
                             strerror(errno));
        local_net_open_stop(sb);
        goto out;
    }
    close(rd[1]);
    rd[1] = -1;
    /* Our end of the exit pipe: closing it, or our death, ends the tool. */
    sb->net_exit = ex[1];
    ex[1] = -1;

    struct pollfd p = { .fd = rd[0], .events = POLLIN };
    char one;
    int r;
    while ((r = poll(&p, 1, NET_READY_TIMEOUT_MS)) < 0 && errno == EINTR)
        ;
    if (r <= 0 || read(rd[0], &one, 1) != 1) {
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "local: slirp4netns did not configure the sandbox's network%s",
                             r == 0 ? " in 10 s" : " (it exited; is /dev/net/tun usable?)");
        local_net_open_stop(sb);
    }
out:
    for (int i = 0; i < 2; i++) {
        if (ex[i] >= 0)
            close(ex[i]);
        if (rd[i] >= 0)
            close(rd[i]);
    }
    return rc;
}

void local_net_open_stop(local_sandbox *sb)
{
    local_helper_stop(&sb->net_pid, &sb->net_exit);
}
