/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/policy.h - what the caller requires of a sandbox.
 *
 * The core enforces a policy FAIL-CLOSED: sbx_sandbox_open() refuses a policy
 * that the chosen backend cannot guarantee, before anything runs, with a
 * SBX_E3xxx code naming the control. A control left at its default asks
 * nothing, except the network, which defaults to none.
 *
 * Default limits: where the caller sets no process, memory or disk limit,
 * the core applies SBX_DEFAULT_PIDS, SBX_DEFAULT_MEMORY and SBX_DEFAULT_DISK
 * on a backend whose (probed) capabilities include the control. They protect
 * the host, they are not the caller's requirement: never refused, only left
 * out where the backend cannot enforce them. A limit set explicitly replaces
 * its default; sbx_policy_set_default_limits(policy, 0) turns them all off.
 *
 * An sbx_policy is not thread-safe; it may be shared read-only once built.
 */
#ifndef SANDBOXIO_POLICY_H
#define SANDBOXIO_POLICY_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_policy sbx_policy;

typedef enum sbx_network {
    SBX_NET_NONE = 0,       /* default: no network (loopback inside only) */
    SBX_NET_ALLOWLIST = 1,  /* only the hosts added with sbx_policy_allow_host() */
    SBX_NET_OPEN = 2        /* whatever the backend offers */
} sbx_network;

/** Default cap on each captured stream of sbx_exec(): 16 MiB. */
#define SBX_DEFAULT_OUTPUT_CAP ((size_t)16 << 20)
/** Default process limit, where the backend has limit-pids. */
#define SBX_DEFAULT_PIDS 1024u
/** Default memory limit, where the backend has limit-memory: 2 GiB. */
#define SBX_DEFAULT_MEMORY ((uint64_t)2 << 30)
/** Default work-dir size limit, where the backend has limit-disk: 1 GiB. */
#define SBX_DEFAULT_DISK ((uint64_t)1 << 30)

/**
 * sbx_policy_new - a policy with the defaults: min tier none, network none,
 * no CPU limit, the default process/memory/disk limits (see above), no
 * timeout, output cap SBX_DEFAULT_OUTPUT_CAP, no environment. Free with
 * sbx_policy_free().
 * Errors: SBX_E_INVALID_ARGUMENT (out NULL), SBX_E_NOMEM.
 */
SBX_API int sbx_policy_new(sbx_policy **out);
SBX_API void sbx_policy_free(sbx_policy *policy);

/** Require at least this isolation tier (an sbx_tier). */
SBX_API int sbx_policy_set_min_tier(sbx_policy *policy, int tier);
/** Network mode (an sbx_network). */
SBX_API int sbx_policy_set_network(sbx_policy *policy, int network);
/** Add a host ("example.com" or "example.com:443") to the allowlist; copied. */
SBX_API int sbx_policy_allow_host(sbx_policy *policy, const char *host);
/** Memory limit in bytes for the whole sandbox; 0 = none requested (the default applies). */
SBX_API int sbx_policy_set_memory(sbx_policy *policy, uint64_t bytes);
/** CPU limit in thousandths of a CPU (1500 = 1.5 CPUs); 0 = none. */
SBX_API int sbx_policy_set_cpu(sbx_policy *policy, uint32_t millicpus);
/** Maximum number of processes in the sandbox; 0 = none requested (the default applies). */
SBX_API int sbx_policy_set_pids(sbx_policy *policy, uint32_t pids);
/**
 * Cap in bytes on what the sandbox may write to its work dir; 0 = none
 * requested (the default applies). Needs capability limit-disk: refused
 * with SBX_E_POLICY_DISK on a backend without it.
 */
SBX_API int sbx_policy_set_disk(sbx_policy *policy, uint64_t bytes);
/**
 * Whether the default process/memory/disk limits apply to the controls this
 * policy leaves unset: 1 (the default) or 0 (none: only what is set).
 */
SBX_API int sbx_policy_set_default_limits(sbx_policy *policy, int enabled);
/**
 * sbx_policy_limit - the limit a backend with capabilities caps gets for one
 * control (SBX_CAP_LIMIT_MEMORY, _CPU, _PIDS or _DISK): the policy's own
 * value, else the default where it applies, else 0 (none). *is_default
 * (may be NULL) says the value is the core's default. caps: as from
 * sbx_client_probe(). SBX_E_INVALID_ARGUMENT for a NULL value or policy or
 * another control.
 */
SBX_API int sbx_policy_limit(uint64_t *value, int *is_default, const sbx_policy *policy,
                             uint64_t caps, uint64_t control);
/** Wall-clock ceiling for every exec, in milliseconds; 0 = none. */
SBX_API int sbx_policy_set_timeout(sbx_policy *policy, uint64_t ms);
/** Cap in bytes on each captured stream (stdout, stderr); 0 = unlimited. */
SBX_API int sbx_policy_set_output_cap(sbx_policy *policy, size_t bytes);
/**
 * Add NAME=VALUE to the environment every exec receives (copied). Nothing of
 * the caller's environment is passed in unless added here or per command.
 * SBX_E_INVALID_ARGUMENT if name is empty or holds '='.
 */
SBX_API int sbx_policy_set_env(sbx_policy *policy, const char *name, const char *value);

/**
 * sbx_policy_to_string - the policy in the one-line form a backend stores
 * with a sandbox ("sbx-policy/1 tier=0 net=0 mem=0 ..."): the same text for
 * the same controls, so it can key a sandbox made ahead of time. The
 * environment is left out, as in the stored form (it may hold secrets, and
 * it is given to each command, not to the sandbox). *out is the caller's:
 * free with sbx_free(). Errors: SBX_E_INVALID_ARGUMENT, SBX_E_NOMEM.
 */
SBX_API int sbx_policy_to_string(char **out, const sbx_policy *policy);

#ifdef __cplusplus
}
#endif
#endif
