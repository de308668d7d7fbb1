/* SPDX-License-Identifier: Apache-2.0 */
/* The host's own addresses (self.h). */
#include "config.h"

#include <ifaddrs.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#include "allow.h"
#include "self.h"

int px_self_addrs(px_self *out, size_t cap)
{
    struct ifaddrs *ifa;
    size_t n = 0, more = 0;
    uint8_t a[16];

    if (getifaddrs(&ifa) < 0)
        return -1;
    for (struct ifaddrs *i = ifa; i; i = i->ifa_next) {
        int family = i->ifa_addr ? px_addr_bytes(i->ifa_addr, a) : -1;
        if (family < 0 || px_self_has(out, n, i->ifa_addr))
            continue; /* a link-layer entry, or one listed already */
        if (n == cap) {
            more++;
            continue;
        }
        out[n].family = family;
        memcpy(out[n++].addr, a, 16);
    }
    freeifaddrs(ifa);
    return (int)(n + more);
}

int px_self_has(const px_self *list, size_t n, const struct sockaddr *sa)
{
    uint8_t a[16];
    int family = px_addr_bytes(sa, a);
    for (size_t i = 0; i < n; i++)
        if (list[i].family == family && !memcmp(list[i].addr, a, 16))
            return 1;
    return 0;
}

int px_self_route(const struct sockaddr *sa, socklen_t len)
{
    /* A UDP socket's connect() only looks the route up: nothing is sent. */
    int fd = socket(sa->sa_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_storage src;
    socklen_t slen = sizeof src;
    uint8_t a[16], b[16];

    if (fd < 0)
        return -1;
    int routed = connect(fd, sa, len) == 0 && getsockname(fd, (struct sockaddr *)&src, &slen) == 0;
    close(fd);
    if (!routed || px_addr_bytes(sa, a) != px_addr_bytes((struct sockaddr *)&src, b))
        return 0;
    static const uint8_t v6_loopback[16] = { [15] = 1 };
    int loopback = sa->sa_family == AF_INET ? b[0] == 127 : !memcmp(b, v6_loopback, 16);
    return !memcmp(a, b, 16) || loopback;
}
