/* SPDX-License-Identifier: Apache-2.0 */
/* The host's own addresses (self.h). */
#include "config.h"

#include <ifaddrs.h>
#include <netinet/in.h>
#include <string.h>

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
