/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names of capabilities and isolation tiers, as shown by the CLI and docs.
 */
#include "internal.h"

#include <string.h>

static const struct {
    uint64_t bit;
    const char *name;
} cap_names[] = {
    {SBX_CAP_EXEC, "exec"},
    {SBX_CAP_STREAM, "stream"},
    {SBX_CAP_STDIN, "stdin"},
    {SBX_CAP_FILES, "files"},
    {SBX_CAP_ENV, "env"},
    {SBX_CAP_CWD, "cwd"},
    {SBX_CAP_TIMEOUT, "timeout"},
    {SBX_CAP_NET_NONE, "net-none"},
    {SBX_CAP_NET_ALLOWLIST, "net-allowlist"},
    {SBX_CAP_LIMIT_MEMORY, "limit-memory"},
    {SBX_CAP_LIMIT_CPU, "limit-cpu"},
    {SBX_CAP_LIMIT_PIDS, "limit-pids"},
    {SBX_CAP_PERSIST, "persist"},
    {SBX_CAP_PAUSE, "pause"},
    {SBX_CAP_SNAPSHOT, "snapshot"},
    {SBX_CAP_PORTS, "ports"},
    {SBX_CAP_NATIVE, "native"},
    {SBX_CAP_OOM_REPORT, "oom-report"},
    {SBX_CAP_LIMIT_DISK, "limit-disk"},
    {SBX_CAP_ATTACH, "attach"},
    {SBX_CAP_PTY, "pty"},
    {SBX_CAP_NET_OPEN, "net-open"},
    {SBX_CAP_FILE_META, "file-meta"},
    {SBX_CAP_CWD_ABS, "cwd-abs"},
};

const char *sbx_cap_name(uint64_t cap)
{
    for (size_t i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
        if (cap_names[i].bit == cap)
            return cap_names[i].name;
    return NULL;
}

uint64_t sbx_cap_from_name(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
        if (strcmp(cap_names[i].name, name) == 0)
            return cap_names[i].bit;
    return 0;
}

static const char *const tier_names[] = {
    [SBX_TIER_UNKNOWN] = "unknown",
    [SBX_TIER_NONE] = "none",
    [SBX_TIER_NAMESPACE] = "namespace",
    [SBX_TIER_CONTAINER] = "container",
    [SBX_TIER_USERSPACE_KERNEL] = "userspace-kernel",
    [SBX_TIER_MICROVM] = "microvm",
};

const char *sbx_tier_name(int tier)
{
    if (tier < SBX_TIER_UNKNOWN || tier > SBX_TIER_MICROVM)
        return "invalid";
    return tier_names[tier];
}

int sbx_tier_from_name(const char *name, int *out)
{
    if (!name || !out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "tier name and out must not be NULL");
    for (int t = SBX_TIER_UNKNOWN; t <= SBX_TIER_MICROVM; t++) {
        if (strcmp(tier_names[t], name) == 0) {
            *out = t;
            return SBX_OK;
        }
    }
    return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                          "unknown isolation tier '%s' (none, namespace, container, "
                          "userspace-kernel, microvm)", name);
}
