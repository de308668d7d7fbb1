/* SPDX-License-Identifier: Apache-2.0 */
/*
 * auth.c - the HTTP transport's checks: the bearer token, compared in
 * constant time, and the Origin and Host headers that stop DNS rebinding
 * (a web page of evil.example resolving its own name to 127.0.0.1).
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "auth.h"

int mcp_token_equal(const char *expected, const char *given, size_t given_len)
{
    size_t n = strlen(expected);
    unsigned char diff = (unsigned char)(n != given_len);

    /* Every byte of the expected token is looked at whatever the input, so
     * the time taken tells nothing of how much of a guess was right. */
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(expected[i] ^ (i < given_len ? given[i] : 0));
    return diff == 0;
}

/* host without its port: "[::1]:8080" -> "::1", "localhost:80" -> "localhost". */
static size_t host_part(const char *host, const char **start)
{
    const char *colon;

    if (host[0] == '[') {
        const char *end = strchr(host, ']');
        *start = host + 1;
        return end ? (size_t)(end - host - 1) : 0;
    }
    *start = host;
    colon = strchr(host, ':');
    return colon ? (size_t)(colon - host) : strlen(host);
}

static int name_is(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

static int loopback_name(const char *s, size_t n)
{
    if (name_is(s, n, "localhost") || name_is(s, n, "::1"))
        return 1;
    /* 127.0.0.0/8 written as a dotted quad. */
    if (n >= 9 && strncmp(s, "127.", 4) == 0) {
        for (size_t i = 4; i < n; i++) {
            if (!(s[i] == '.' || (s[i] >= '0' && s[i] <= '9')))
                return 0;
        }
        return 1;
    }
    return 0;
}

int mcp_host_is_loopback(const char *host)
{
    return loopback_name(host, strlen(host));
}

/* The port after the host of an origin ("h:8080", "[::1]:8080", "h"): 0 if malformed. */
static unsigned long origin_port(const char *rest, unsigned long default_port)
{
    const char *p = rest[0] == '[' ? strchr(rest, ']') : rest;
    unsigned long port = 0;

    if (!p || !(p = strchr(p, ':')))
        return default_port;
    for (p++; *p >= '0' && *p <= '9' && port <= 65535; p++)
        port = port * 10 + (unsigned long)(*p - '0');
    return *p == '\0' && port <= 65535 ? port : 0;
}

int mcp_origin_allowed(const char *origin, unsigned port)
{
    const char *rest, *h;
    unsigned long default_port;
    size_t n;

    if (!origin)
        return 1;   /* not a browser: nothing to rebind */
    if (strncasecmp(origin, "http://", 7) == 0)
        rest = origin + 7, default_port = 80;
    else if (strncasecmp(origin, "https://", 8) == 0)
        rest = origin + 8, default_port = 443;
    else
        return 0;   /* "null", file:, a foreign scheme */
    n = host_part(rest, &h);
    if (!loopback_name(h, n))
        return 0;
    return port == MCP_ANY_PORT || origin_port(rest, default_port) == port;
}

int mcp_host_allowed(const char *host, const char *bound_host)
{
    const char *h;
    size_t n;

    if (!host || !*host)
        return 0;
    n = host_part(host, &h);
    if (loopback_name(h, n))
        return 1;
    return bound_host && name_is(h, n, bound_host);
}
