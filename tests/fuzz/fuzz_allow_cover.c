/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_allow_cover.c - libFuzzer target: an MCP agent's allow_hosts entry
 * against the operator's --allow-host list (src/cli/mcp/allow_cover.c),
 * both read by the egress proxy's parser (plugins/local/proxy/allow.c).
 * The input is lines: the operator's entries, then the agent's last.
 *
 * Properties: what is found covered the proxy allows under the operator's
 * list: each of the entry's ports for its name, for a name under its
 * *.domain, for the first, last and a middle address of its block; and a
 * name found not covered is refused by the proxy on one of its ports.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/mcp/allow_cover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPS 16

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "allow_cover: %s\n", what);
        abort();
    }
}

static int addr_allowed(const px_rule *ops, size_t n, const px_rule *r, const uint8_t *a, uint16_t port)
{
    union { struct sockaddr sa; struct sockaddr_in v4; struct sockaddr_in6 v6; } u;

    memset(&u, 0, sizeof u);
    if (r->family == AF_INET) {
        u.v4.sin_family = AF_INET;
        memcpy(&u.v4.sin_addr, a, 4);
    } else {
        u.v6.sin6_family = AF_INET6;
        memcpy(&u.v6.sin6_addr, a, 16);
    }
    return px_allow_addr(ops, n, &u.sa, port);
}

/* Does the proxy allow a sample of what r allows, on port? */
static int proxy_allows(const px_rule *ops, size_t n, const px_rule *r, uint16_t port)
{
    char name[PX_MAX_HOST + 8];
    uint8_t first[16], last[16], mid[16];

    if (r->kind == PX_RULE_NAME)
        return px_allow_name(ops, n, r->name, port);
    if (r->kind == PX_RULE_WILDCARD) {
        snprintf(name, sizeof name, "x.%s", r->name);
        return px_allow_name(ops, n, name, port);
    }
    for (int i = 0; i < 16; i++) {
        int bits = r->prefix - 8 * i;
        uint8_t mask = bits >= 8 ? 0xff : bits <= 0 ? 0 : (uint8_t)(0xff << (8 - bits));
        first[i] = r->addr[i] & mask;
        last[i] = (uint8_t)(first[i] | (uint8_t)~mask);
        mid[i] = (uint8_t)(first[i] | ((uint8_t)~mask & 0x5a));
    }
    return addr_allowed(ops, n, r, first, port) && addr_allowed(ops, n, r, last, port) &&
           addr_allowed(ops, n, r, mid, port);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    px_rule ops[MAX_OPS], r;
    const char *why;
    size_t n = 0;
    char *text = malloc(size + 1), *line, *save = NULL, *last = NULL;

    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (last && n < MAX_OPS && px_rule_parse(last, &ops[n], &why) == 0)
            n++;
        last = line;
    }
    if (last && px_rule_parse(last, &r, &why) == 0) {
        const uint16_t plain[] = { 80, 443 };
        const uint16_t *ports = r.port ? &r.port : plain;
        size_t nports = r.port ? 1 : 2, p;

        if (mcp_allow_covered(ops, n, &r)) {
            for (p = 0; p < nports; p++)
                check(proxy_allows(ops, n, &r, ports[p]), "covered, but the proxy refuses part of it");
        } else if (r.kind == PX_RULE_NAME) {
            for (p = 0; p < nports && proxy_allows(ops, n, &r, ports[p]); p++)
                ;
            check(p < nports, "a name not covered, but the proxy allows it on every port");
        }
    }
    free(text);
    return 0;
}
