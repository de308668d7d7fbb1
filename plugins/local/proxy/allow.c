/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allowlist's rules (allow.h) and the address ranges a name may only
 * lead to when the range itself is listed: an answer there would let a DNS
 * name the caller allowed point at the host's neighbours, its loopback or a
 * cloud's metadata service (DNS rebinding).
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "allow.h"

static int parse_port(const char *s, uint16_t *port)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v == 0 || v > 65535 || strspn(s, "0123456789") != strlen(s))
        return -1;
    *port = (uint16_t)v;
    return 0;
}

/*
 * "addr" or "addr/len" into a NET rule. text is left as it was: a caller
 * that goes on to read it as a host name must still see the '/' (a bad
 * block is refused, never taken for a name).
 */
static int parse_net(const char *text, px_rule *r)
{
    char addr[INET6_ADDRSTRLEN];
    const char *slash = strchr(text, '/');
    size_t n = slash ? (size_t)(slash - text) : strlen(text);
    int max;
    if (n >= sizeof addr)
        return -1;
    memcpy(addr, text, n);
    addr[n] = '\0';
    if (inet_pton(AF_INET, addr, r->addr) == 1) {
        r->family = AF_INET;
        max = 32;
    } else if (inet_pton(AF_INET6, addr, r->addr) == 1) {
        r->family = AF_INET6;
        max = 128;
    } else {
        return -1;
    }
    r->prefix = max;
    if (slash) {
        char *end;
        long v = strtol(slash + 1, &end, 10);
        if (!slash[1] || *end || v < 0 || v > max || !strchr("0123456789", slash[1]))
            return -1;
        r->prefix = (int)v;
    }
    r->kind = PX_RULE_NET;
    return 0;
}

int px_rule_parse(const char *text, px_rule *r, const char **why)
{
    char buf[PX_MAX_HOST + 16];
    char *host = buf, *port = NULL;

    memset(r, 0, sizeof *r);
    if (strlen(text) >= sizeof buf)
        return *why = "entry too long", -1;
    for (size_t i = 0; (buf[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] + 32 : text[i])); i++)
        ;
    if (buf[0] == '[') {
        char *close = strchr(buf, ']');
        if (!close || (close[1] && close[1] != ':'))
            return *why = "bad [address]", -1;
        *close = '\0';
        host = buf + 1;
        if (close[1] == ':')
            port = close + 2;
        if (parse_net(host, r) < 0 || r->family != AF_INET6)
            return *why = "bad IPv6 address or block", -1;
    } else if (strchr(buf, ':') != strrchr(buf, ':')) {
        /* Two colons: a bare IPv6 address or block, no port. */
        if (parse_net(buf, r) < 0)
            return *why = "bad IPv6 address or block", -1;
    } else {
        port = strchr(buf, ':');
        if (port)
            *port++ = '\0';
        if (parse_net(host, r) < 0) {
            if (strchr(host, '/'))
                return *why = "bad address block", -1;
            r->kind = PX_RULE_NAME;
            if (!strncmp(host, "*.", 2)) {
                r->kind = PX_RULE_WILDCARD;
                host += 2;
            }
            size_t n = strlen(host);
            if (n > 1 && host[n - 1] == '.')
                host[n - 1] = '\0';
            if (!px_host_ok(host) || strchr(host, '*'))
                return *why = "bad host name", -1;
            strcpy(r->name, host);
        }
    }
    if (port && parse_port(port, &r->port) < 0)
        return *why = "bad port", -1;
    return 0;
}

static int port_ok(const px_rule *r, uint16_t port)
{
    return r->port ? r->port == port : port == 80 || port == 443;
}

int px_allow_name(const px_rule *rules, size_t n, const char *host, uint16_t port)
{
    size_t hl = strlen(host);
    for (size_t i = 0; i < n; i++) {
        const px_rule *r = &rules[i];
        if (!port_ok(r, port))
            continue;
        if (r->kind == PX_RULE_NAME && !strcmp(r->name, host))
            return 1;
        if (r->kind == PX_RULE_WILDCARD) {
            size_t sl = strlen(r->name);
            if (hl > sl + 1 && host[hl - sl - 1] == '.' && !strcmp(host + hl - sl, r->name))
                return 1;
        }
    }
    return 0;
}

int px_addr_bytes(const struct sockaddr *sa, uint8_t out[16])
{
    memset(out, 0, 16);
    if (sa->sa_family == AF_INET) {
        memcpy(out, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return AF_INET;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(out, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return AF_INET6;
    }
    return -1;
}

static int in_block(const uint8_t *a, const uint8_t *net, int prefix)
{
    int full = prefix / 8, rest = prefix % 8;
    if (memcmp(a, net, (size_t)full))
        return 0;
    if (!rest)
        return 1;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (a[full] & mask) == (net[full] & mask);
}

int px_allow_addr(const px_rule *rules, size_t n, const struct sockaddr *sa, uint16_t port)
{
    uint8_t a[16];
    int family = px_addr_bytes(sa, a);
    for (size_t i = 0; i < n; i++) {
        const px_rule *r = &rules[i];
        if (r->kind == PX_RULE_NET && r->family == family && port_ok(r, port)
            && in_block(a, r->addr, r->prefix))
            return 1;
    }
    return 0;
}

static const char *v4_special(const uint8_t *a)
{
    static const struct { uint8_t net[4]; int prefix; const char *what; } v4[] = {
        { { 0, 0, 0, 0 }, 8, "a 'this network' address (0/8)" },
        { { 10, 0, 0, 0 }, 8, "a private address (10/8)" },
        { { 100, 64, 0, 0 }, 10, "a carrier-grade NAT address (100.64/10)" },
        { { 127, 0, 0, 0 }, 8, "a loopback address (127/8)" },
        { { 169, 254, 0, 0 }, 16, "a link-local or metadata address (169.254/16)" },
        { { 172, 16, 0, 0 }, 12, "a private address (172.16/12)" },
        { { 192, 0, 0, 0 }, 24, "an IETF protocol address (192.0.0/24)" },
        { { 192, 168, 0, 0 }, 16, "a private address (192.168/16)" },
        { { 224, 0, 0, 0 }, 4, "a multicast address (224/4)" },
        { { 240, 0, 0, 0 }, 4, "a reserved address (240/4)" },
    };
    for (size_t i = 0; i < sizeof v4 / sizeof *v4; i++)
        if (in_block(a, v4[i].net, v4[i].prefix))
            return v4[i].what;
    return NULL;
}

const char *px_addr_special(const struct sockaddr *sa)
{
    static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    static const uint8_t compat[12] = { 0 };
    static const struct { uint8_t net[16]; int prefix; const char *what; } v6[] = {
        { { 0 }, 128, "the unspecified address (::)" },
        { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 128, "the loopback address (::1)" },
        { { 0xfc }, 7, "a unique local address (fc00::/7)" },
        { { 0xfe, 0x80 }, 10, "a link-local address (fe80::/10)" },
        { { 0xfe, 0xc0 }, 10, "a site-local address (fec0::/10)" },
        { { 0xff }, 8, "a multicast address (ff00::/8)" },
        { { 0x00, 0x64, 0xff, 0x9b }, 96, "a NAT64 address (64:ff9b::/96)" },
        { { 0x20, 0x02 }, 16, "a 6to4 address (2002::/16)" },
        { { 0xfd, 0x00, 0x0e, 0xc2 }, 32, "a metadata address (fd00:ec2::/32)" },
    };
    uint8_t a[16];
    int family = px_addr_bytes(sa, a);
    if (family == AF_INET)
        return v4_special(a);
    if (family != AF_INET6)
        return "not an IP address";
    for (size_t i = 0; i < sizeof v6 / sizeof *v6; i++)
        if (in_block(a, v6[i].net, v6[i].prefix))
            return v6[i].what;
    /* An IPv4 address inside an IPv6 one reaches that IPv4 address. */
    if (!memcmp(a, mapped, 12) || !memcmp(a, compat, 12))
        return v4_special(a + 12) ? v4_special(a + 12) : "an IPv4-mapped address";
    return NULL;
}
