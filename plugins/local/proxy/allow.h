/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's allowlist: which host and port a connection may go to,
 * and which resolved addresses a name may lead to.
 */
#ifndef SBX_PROXY_ALLOW_H
#define SBX_PROXY_ALLOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "parse.h"

enum px_rule_kind { PX_RULE_NAME, PX_RULE_WILDCARD, PX_RULE_NET };

typedef struct px_rule {
    int kind;
    char name[PX_MAX_HOST + 1]; /* NAME: the name; WILDCARD: the suffix after "*." */
    int family;                 /* NET: AF_INET or AF_INET6 */
    uint8_t addr[16];           /* NET: the block (v4 in the first 4 bytes) */
    int prefix;
    uint16_t port;              /* 0: ports 80 and 443 */
} px_rule;

/*
 * Parse one entry: "name", "*.domain", "1.2.3.4", "10.0.0.0/8", "[::1]",
 * "[fc00::/7]", "fc00::/7", each but a bare IPv6 one with ":PORT".
 * 0, or -1 with *why.
 */
int px_rule_parse(const char *text, px_rule *out, const char **why);

/* Whether the name (lower case, not an address) is listed for port. */
int px_allow_name(const px_rule *rules, size_t n, const char *host, uint16_t port);

/* The address as 16 bytes (v4 in the first 4): its family, -1 if neither. */
int px_addr_bytes(const struct sockaddr *sa, uint8_t out[16]);

/* Whether the address is covered by a listed address or block for port. */
int px_allow_addr(const px_rule *rules, size_t n, const struct sockaddr *sa, uint16_t port);

/*
 * The special range an address is in (loopback, private, link-local and
 * metadata, carrier-grade NAT, multicast, reserved, unique local, an IPv4
 * mapped one's), as a few words; NULL for an ordinary public address.
 */
const char *px_addr_special(const struct sockaddr *sa);

#endif
