/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/auth.h - who may talk to the HTTP server: the bearer token, Host and
 * Origin checks.
 */
#ifndef SBX_CLI_MCP_AUTH_H
#define SBX_CLI_MCP_AUTH_H

#include <stddef.h>

/* auth.c */
int mcp_token_equal(const char *expected, const char *given, size_t given_len);
int mcp_host_is_loopback(const char *host);
/*
 * Origin is acceptable: absent (not a browser), or http(s) on a loopback
 * host and, unless port is MCP_ANY_PORT, that port: a server without a
 * token takes no browser page but its own origin's.
 */
#define MCP_ANY_PORT 0xffffffffu
int mcp_origin_allowed(const char *origin, unsigned port);
/* Host header names a loopback host or the bound address. */
int mcp_host_allowed(const char *host, const char *bound_host);

#endif
