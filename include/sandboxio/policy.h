/*
 * sandboxio/policy.h - what the caller requires of a sandbox.
 *
 * The core enforces a policy FAIL-CLOSED: sbx_sandbox_open() refuses a policy
 * that the chosen backend cannot guarantee, before anything runs, with a
 * SBX_E3xxx code naming the control. A control left at its default asks
 * nothing, except the network, which defaults to none.
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

/**
 * sbx_policy_new - a policy with the defaults: min tier none, network none,
 * no memory/CPU/pids limit, no timeout, output cap SBX_DEFAULT_OUTPUT_CAP,
 * no environment. Free with sbx_policy_free().
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
/** Memory limit in bytes for the whole sandbox; 0 = none requested. */
SBX_API int sbx_policy_set_memory(sbx_policy *policy, uint64_t bytes);
/** CPU limit in thousandths of a CPU (1500 = 1.5 CPUs); 0 = none. */
SBX_API int sbx_policy_set_cpu(sbx_policy *policy, uint32_t millicpus);
/** Maximum number of processes in the sandbox; 0 = none. */
SBX_API int sbx_policy_set_pids(sbx_policy *policy, uint32_t pids);
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

#ifdef __cplusplus
}
#endif
#endif
