/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host's own addresses: those of each of its interfaces, IPv4 and
 * IPv6. A name the sandbox may reach must not lead to one of them (the
 * host's services listen there), under an allowlist (the proxy) as under
 * --network open (init's prohibit routes).
 */
#ifndef SBX_PROXY_SELF_H
#define SBX_PROXY_SELF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define PX_MAX_SELF 1024 /* addresses kept */
#define PX_MAX_SELF_TEXT "1024"

typedef struct px_self {
    int family;       /* AF_INET or AF_INET6 */
    uint8_t addr[16]; /* v4 in the first 4 bytes */
} px_self;

/*
 * The host's addresses (getifaddrs), each once: up to cap of them into out.
 * How many there are (more than cap: some were left out), or -1 with errno.
 */
int px_self_addrs(px_self *out, size_t cap);

/*
 * Whether the kernel routes to the address (with its port) as to the host
 * itself, which sees addresses gained after px_self_addrs(): a local route
 * picks the address itself as its source, or a loopback one (a block routed
 * to lo). 1 if so, 0 if not (or there is no route: connecting fails too),
 * -1 if it cannot tell (no socket).
 */
int px_self_route(const struct sockaddr *sa, socklen_t len);

/* Whether the address (AF_INET or AF_INET6) is one of list[0..n). */
int px_self_has(const px_self *list, size_t n, const struct sockaddr *sa);

#endif
