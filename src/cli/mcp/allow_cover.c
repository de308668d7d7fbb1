/* SPDX-License-Identifier: Apache-2.0 */
/*
 * allow_cover.c - whether the operator's allowlist allows all that an
 * agent's entry allows (allow_hosts of run and sandbox_create). Both are
 * read with the egress proxy's own parser and matched with its own rules
 * (plugins/local/proxy/allow.c), so that the check is the enforcement: an
 * entry's ports are its :PORT, or 80 and 443 without one; a name is listed
 * or under a listed *.domain; an address block lies inside a listed one.
 * Every port of the entry must be allowed, each by one operator entry that
 * holds the whole of the entry's hosts (a block split over two listed ones
 * is refused: narrower, never wider).
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "allow_cover.h"

static int rule_holds(const px_rule *op, const px_rule *r, uint16_t port)
{
    union { struct sockaddr sa; struct sockaddr_in v4; struct sockaddr_in6 v6; } lo, hi;
    uint8_t first[16], last[16];
    char star[PX_MAX_HOST + 3];

    if (r->kind == PX_RULE_NAME)
        return px_allow_name(op, 1, r->name, port);
    if (r->kind == PX_RULE_WILDCARD) {
        /* '*' is in no listed name: "*.d" stands for every name under d,
         * and only a *.domain over d (or d itself) matches it. */
        snprintf(star, sizeof star, "*.%s", r->name);
        return px_allow_name(op, 1, star, port);
    }
    /* A block is inside another when its first and last addresses are. */
    for (int i = 0; i < 16; i++) {
        int bits = r->prefix - 8 * i;
        uint8_t mask = bits >= 8 ? 0xff : bits <= 0 ? 0 : (uint8_t)(0xff << (8 - bits));
        first[i] = r->addr[i] & mask;
        last[i] = (uint8_t)(first[i] | (uint8_t)~mask);
    }
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    if (r->family == AF_INET) {
        lo.v4.sin_family = hi.v4.sin_family = AF_INET;
        memcpy(&lo.v4.sin_addr, first, 4);
        memcpy(&hi.v4.sin_addr, last, 4);
    } else {
        lo.v6.sin6_family = hi.v6.sin6_family = AF_INET6;
        memcpy(&lo.v6.sin6_addr, first, 16);
        memcpy(&hi.v6.sin6_addr, last, 16);
    }
    return px_allow_addr(op, 1, &lo.sa, port) && px_allow_addr(op, 1, &hi.sa, port);
}

int mcp_allow_covered(const px_rule *ops, size_t n, const px_rule *r)
{
    const uint16_t plain[] = { 80, 443 };
    const uint16_t *ports = r->port ? &r->port : plain;
    size_t nports = r->port ? 1 : 2;

    for (size_t p = 0; p < nports; p++) {
        size_t i;

        for (i = 0; i < n && !rule_holds(&ops[i], r, ports[p]); i++)
            ;
        if (i == n)
            return 0;
    }
    return 1;
}
