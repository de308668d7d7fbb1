/* SPDX-License-Identifier: Apache-2.0 */
/*
 * allow_cover.h - an agent's allowlist entry against the operator's, as the
 * local backend's egress proxy would enforce both (allow_cover.c).
 */
#ifndef SBX_CLI_MCP_ALLOW_COVER_H
#define SBX_CLI_MCP_ALLOW_COVER_H

#include <stddef.h>

#include "proxy/allow.h"

/* 1 if every (host, port) r allows is allowed by one of ops[0..n), else 0. */
int mcp_allow_covered(const px_rule *ops, size_t n, const px_rule *r);

#endif
