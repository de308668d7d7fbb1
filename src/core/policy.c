/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Policies, and the fail-closed check of a policy against what a backend
 * declares. The check is the security boundary of the core: every control
 * the caller asked for must be guaranteed by a declared capability, or the
 * open is refused with the code naming that control.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void sbx__policy_defaults(sbx_policy *p)
{
    memset(p, 0, sizeof(*p));
    p->min_tier = SBX_TIER_NONE;
    p->network = SBX_NET_NONE;
    p->output_cap = SBX_DEFAULT_OUTPUT_CAP;
}

int sbx_policy_new(sbx_policy **out)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_policy_new: out is NULL");
    sbx_policy *p = sbx__calloc(1, sizeof(*p));
    if (!p)
        return SBX_E_NOMEM;
    sbx__policy_defaults(p);
    *out = p;
    return SBX_OK;
}

void sbx__policy_clear(sbx_policy *p)
{
    sbx__strvec_clear(&p->allow);
    sbx__strvec_clear(&p->env);
}

void sbx_policy_free(sbx_policy *policy)
{
    if (!policy)
        return;
    sbx__policy_clear(policy);
    free(policy);
}

int sbx__policy_copy(sbx_policy *dst, const sbx_policy *src)
{
    *dst = *src;
    memset(&dst->allow, 0, sizeof(dst->allow));
    memset(&dst->env, 0, sizeof(dst->env));
    int rc = sbx__strvec_copy(&dst->allow, &src->allow);
    if (rc == SBX_OK)
        rc = sbx__strvec_copy(&dst->env, &src->env);
    if (rc)
        sbx__policy_clear(dst);
    return rc;
}

#define POLICY_ARG(p, fn) \
    do { \
        if (!(p)) \
            return sbx__error_set(SBX_E_INVALID_ARGUMENT, fn ": policy is NULL"); \
    } while (0)

int sbx_policy_set_min_tier(sbx_policy *policy, int tier)
{
    POLICY_ARG(policy, "sbx_policy_set_min_tier");
    if (tier < SBX_TIER_UNKNOWN || tier > SBX_TIER_MICROVM)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "unknown isolation tier %d", tier);
    policy->min_tier = tier;
    return SBX_OK;
}

int sbx_policy_set_network(sbx_policy *policy, int network)
{
    POLICY_ARG(policy, "sbx_policy_set_network");
    if (network != SBX_NET_NONE && network != SBX_NET_ALLOWLIST && network != SBX_NET_OPEN)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "unknown network mode %d", network);
    policy->network = network;
    return SBX_OK;
}

/* A '/' only as an address block's prefix length ("10.0.0.0/8", "[fc00::/7]:443"). */
static int allow_entry_ok(const char *host)
{
    const char *slash = strchr(host, '/');
    if (!*host || strpbrk(host, " \t\r\n"))
        return 0;
    if (!slash)
        return 1;
    return strspn(host, "0123456789abcdefABCDEF.:[") == (size_t)(slash - host)
           && !strchr(slash + 1, '/');
}

int sbx_policy_allow_host(sbx_policy *policy, const char *host)
{
    POLICY_ARG(policy, "sbx_policy_allow_host");
    if (!host || !allow_entry_ok(host))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "allowlist entry must be a host, *.domain, an address or an "
                              "address block, each with an optional :port");
    return sbx__strvec_push(&policy->allow, host);
}

int sbx_policy_set_memory(sbx_policy *policy, uint64_t bytes)
{
    POLICY_ARG(policy, "sbx_policy_set_memory");
    policy->memory = bytes;
    return SBX_OK;
}

int sbx_policy_set_cpu(sbx_policy *policy, uint32_t millicpus)
{
    POLICY_ARG(policy, "sbx_policy_set_cpu");
    policy->cpu_millis = millicpus;
    return SBX_OK;
}

int sbx_policy_set_pids(sbx_policy *policy, uint32_t pids)
{
    POLICY_ARG(policy, "sbx_policy_set_pids");
    policy->pids = pids;
    return SBX_OK;
}

int sbx_policy_set_disk(sbx_policy *policy, uint64_t bytes)
{
    POLICY_ARG(policy, "sbx_policy_set_disk");
    policy->disk = bytes;
    return SBX_OK;
}

int sbx_policy_set_default_limits(sbx_policy *policy, int enabled)
{
    POLICY_ARG(policy, "sbx_policy_set_default_limits");
    policy->no_default_limits = !enabled;
    return SBX_OK;
}

/*
 * A default applies only where the caller set nothing and the backend can
 * enforce the control: it protects the host and is never a reason to
 * refuse. CPU has no default (a slow sandbox harms no one).
 */
int sbx_policy_limit(uint64_t *value, int *is_default, const sbx_policy *policy, uint64_t caps,
                     uint64_t control)
{
    if (!value || !policy)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_policy_limit: NULL argument");
    uint64_t set, dflt;
    switch (control) {
    case SBX_CAP_LIMIT_MEMORY: set = policy->memory; dflt = SBX_DEFAULT_MEMORY; break;
    case SBX_CAP_LIMIT_CPU: set = policy->cpu_millis; dflt = 0; break;
    case SBX_CAP_LIMIT_PIDS: set = policy->pids; dflt = SBX_DEFAULT_PIDS; break;
    case SBX_CAP_LIMIT_DISK: set = policy->disk; dflt = SBX_DEFAULT_DISK; break;
    default:
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_policy_limit: control %#llx is not a limit",
                              (unsigned long long)control);
    }
    bool use_default = !set && dflt && !policy->no_default_limits && (caps & control);
    *value = use_default ? dflt : set;
    if (is_default)
        *is_default = use_default;
    return SBX_OK;
}

int sbx_policy_set_timeout(sbx_policy *policy, uint64_t ms)
{
    POLICY_ARG(policy, "sbx_policy_set_timeout");
    policy->timeout_ms = ms;
    return SBX_OK;
}

int sbx_policy_set_output_cap(sbx_policy *policy, size_t bytes)
{
    POLICY_ARG(policy, "sbx_policy_set_output_cap");
    policy->output_cap = bytes;
    return SBX_OK;
}

int sbx__env_name_ok(const char *name)
{
    return name && *name && !strchr(name, '=');
}

int sbx_policy_set_env(sbx_policy *policy, const char *name, const char *value)
{
    POLICY_ARG(policy, "sbx_policy_set_env");
    if (!sbx__env_name_ok(name) || !value)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "environment name must be non-empty without '=', value non-NULL");
    return sbx__strvec_push_kv(&policy->env, name, value);
}

int sbx__policy_check(const sbx_policy *p, uint64_t caps, int tier, const char *backend)
{
    if (p->network == SBX_NET_ALLOWLIST && p->allow.n == 0)
        return sbx__error_set(SBX_E_BAD_POLICY,
                              "network allowlist requested but no host was allowed");
    if (p->network != SBX_NET_ALLOWLIST && p->allow.n > 0)
        return sbx__error_set(SBX_E_BAD_POLICY,
                              "allowed hosts given but the network mode is not 'allowlist'");
    /* "unknown" meets only a minimum of "none": nothing is guaranteed. */
    if (p->min_tier > SBX_TIER_NONE && tier < p->min_tier)
        return sbx__error_set(SBX_E_POLICY_TIER,
                              "policy requires isolation tier '%s' but backend '%s' offers '%s'",
                              sbx_tier_name(p->min_tier), backend, sbx_tier_name(tier));
    if (p->network == SBX_NET_NONE && !(caps & SBX_CAP_NET_NONE))
        return sbx__error_set(SBX_E_POLICY_NETWORK_NONE,
                              "policy requires no network but backend '%s' cannot guarantee it "
                              "(allow the network explicitly to use this backend)", backend);
    if (p->network == SBX_NET_ALLOWLIST && !(caps & SBX_CAP_NET_ALLOWLIST))
        return sbx__error_set(SBX_E_POLICY_NETWORK_ALLOWLIST,
                              "policy requires a network allowlist but backend '%s' cannot "
                              "enforce one", backend);
    if (p->memory && !(caps & SBX_CAP_LIMIT_MEMORY))
        return sbx__error_set(SBX_E_POLICY_MEMORY,
                              "policy requires a memory limit but backend '%s' cannot enforce one",
                              backend);
    if (p->cpu_millis && !(caps & SBX_CAP_LIMIT_CPU))
        return sbx__error_set(SBX_E_POLICY_CPU,
                              "policy requires a CPU limit but backend '%s' cannot enforce one",
                              backend);
    if (p->pids && !(caps & SBX_CAP_LIMIT_PIDS))
        return sbx__error_set(SBX_E_POLICY_PIDS,
                              "policy requires a process limit but backend '%s' cannot enforce one",
                              backend);
    if (p->disk && !(caps & SBX_CAP_LIMIT_DISK))
        return sbx__error_set(SBX_E_POLICY_DISK,
                              "policy requires a disk limit but backend '%s' cannot enforce one",
                              backend);
    if (p->timeout_ms && !(caps & SBX_CAP_TIMEOUT))
        return sbx__error_set(SBX_E_POLICY_TIMEOUT,
                              "policy requires a timeout but backend '%s' cannot enforce one",
                              backend);
    if (p->env.n && !(caps & SBX_CAP_ENV))
        return sbx__error_set(SBX_E_POLICY_ENV,
                              "policy sets environment variables but backend '%s' cannot pass them",
                              backend);
    return SBX_OK;
}
