/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/tighten.h - the policy a call may ask for, never wider than the
 * operator's.
 */
#ifndef SBX_CLI_MCP_TIGHTEN_H
#define SBX_CLI_MCP_TIGHTEN_H

#include <stddef.h>
#include <stdint.h>
#include <sandboxio/sandboxio.h>

#include "args.h"
#include "server.h"

/*
 * tighten.c: the network, limits and minimum tier a call that makes a
 * sandbox may ask for, never wider than the operator's
 * (SBX_E_MCP_POLICY_WIDER, the reason in a->why).
 */
struct mcp_tighten {
    int any;                    /* something was asked: the call needs a policy of its own */
    int network_given, network; /* an sbx_network */
    const char **hosts;         /* allow_hosts (borrowed from the arguments) */
    size_t nhosts;
    int memory_given, cpu_given, pids_given, disk_given, tier_given;
    uint64_t memory, disk;
    uint32_t cpu_millis, pids;
    int min_tier;               /* an sbx_tier */
};
/* The tightening keys a tool that takes them allows (see mcp_arg_only()). */
#define MCP_TIGHTEN_KEYS "network", "allow_hosts", "memory_bytes", "cpus", "pids", "disk_bytes", \
    "min_tier"
int mcp_tighten_read(struct mcp_tighten *t, struct mcp_session *s, struct mcp_args *a);
/* The operator's policy with t on top; free with sbx_policy_free(). */
int mcp_tighten_policy(sbx_policy **out, const struct mcp_config *cfg, const struct mcp_tighten *t);
void mcp_tighten_release(struct mcp_tighten *t);
/*
 * May a tool's env set variable name? Only a name --agent-env allows, and
 * never one the operator's policy sets: else SBX_E_MCP_POLICY_WIDER.
 */
int mcp_tighten_env(const struct mcp_config *cfg, struct mcp_args *a, const char *name);

#endif
