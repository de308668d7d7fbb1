/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host's own addresses, out of reach of an open network.
 *
 * slirp4netns turns every connection the sandbox makes into a socket of
 * the host, so a connection to one of the host's addresses would reach the
 * host's own services (those bound to 0.0.0.0 too). Init, still holding
 * CAP_NET_ADMIN in the sandbox's network namespace, adds a "prohibit" route
 * (/32) for each such address, more specific than the default route that
 * slirp4netns adds after: connect() fails with EACCES inside. Commands have
 * no capability left to remove them. One rtnetlink request per address,
 * each acknowledged.
 *
 * Under an allowlist, the proxy's socket: made here so that it belongs to
 * the sandbox's namespace, then handed out (net-proxy.c in the plugin).
 */
#include "config.h"

#include <errno.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "init.h"
#include "../proto.h"

static int add_prohibit(int s, uint32_t addr, uint32_t seq)
{
    struct {
        struct nlmsghdr nh;
        struct rtmsg rt;
        struct rtattr dst;
        uint32_t addr;
    } req;
    memset(&req, 0, sizeof req);
    req.nh.nlmsg_len = sizeof req;
    req.nh.nlmsg_type = RTM_NEWROUTE;
    req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
    req.nh.nlmsg_seq = seq;
    req.rt.rtm_family = AF_INET;
    req.rt.rtm_dst_len = 32;
    req.rt.rtm_table = RT_TABLE_MAIN;
    req.rt.rtm_protocol = RTPROT_STATIC;
    req.rt.rtm_scope = RT_SCOPE_UNIVERSE;
    req.rt.rtm_type = RTN_PROHIBIT;
    req.dst.rta_len = RTA_LENGTH(sizeof req.addr);
    req.dst.rta_type = RTA_DST;
    req.addr = addr;
    if (send(s, &req, sizeof req, 0) != (ssize_t)sizeof req)
        return -1;

    union {
        struct nlmsghdr nh;
        char buf[512];
    } ack;
    ssize_t n = recv(s, &ack, sizeof ack, 0);
    if (n < 0)
        return -1;
    if ((size_t)n < NLMSG_LENGTH(sizeof(struct nlmsgerr)) || ack.nh.nlmsg_type != NLMSG_ERROR
        || ack.nh.nlmsg_seq != seq) {
        errno = EPROTO;
        return -1;
    }
    const struct nlmsgerr *e = NLMSG_DATA(&ack.nh);
    /* A host address listed twice (two interfaces) is already prohibited. */
    if (e->error && e->error != -EEXIST) {
        errno = -e->error;
        return -1;
    }
    return 0;
}

int init_net_block(const init_config *cfg, init_failure *why)
{
    if (cfg->nblocked == 0)
        return 0;
    int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (s < 0)
        return init_fail(why, LP_STEP_NET_BLOCK, errno, "netlink socket");
    for (size_t i = 0; i < cfg->nblocked; i++) {
        if (add_prohibit(s, cfg->blocked[i], (uint32_t)i + 1) < 0) {
            int e = errno;
            const unsigned char *b = (const unsigned char *)&cfg->blocked[i];
            close(s);
            return init_fail(why, LP_STEP_NET_BLOCK, e, "prohibit route to %u.%u.%u.%u", b[0],
                             b[1], b[2], b[3]);
        }
    }
    close(s);
    return 0;
}

int init_net_proxy_listen(const init_config *cfg, init_failure *why)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(cfg->proxy_port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    int one = 1;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return init_fail(why, LP_STEP_PROXY, errno, "proxy socket");
    if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
        || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 4096) < 0) {
        int e = errno;
        close(s);
        return init_fail(why, LP_STEP_PROXY, e, "listen on 127.0.0.1:%u", cfg->proxy_port);
    }
    return s;
}
