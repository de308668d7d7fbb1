/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The policy's limits as members of Daytona's create request
 * (CreateSandbox in spec/api-openapi.yaml), fail-closed.
 *
 * What Daytona enforces, from its last public sources (daytonaio/daytona
 * b5a5d9e78, 2026-06-23; see docs/backends/daytona.md):
 * - networkBlockAll and networkAllowList (IPv4 CIDRs, at most ten) are
 *   applied by the runner's firewall rules (runner pkg/docker/create.go);
 * - domainAllowList reaches the runner as a field and nothing enforces it
 *   there, so a list of names is refused, never sent;
 * - cpu is whole cores (CPUQuota = cores x CPUPeriod), memory and disk whole
 *   GiB (runner pkg/docker/container_configs.go, common.GBToBytes is x 2^30):
 *   a limit between two steps would be rounded up, and a larger limit is
 *   not the limit asked for;
 * - there is no process limit.
 */
#include "daytona.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/caps.h>
#include <sandboxio/common.h>
#include <sandboxio/errors.h>
#include <sandboxio/policy.h>

#include <sbxu/json.h>

#define NAME "daytona"
/* "255.255.255.255/32" and its NUL. */
#define CIDR_MAX 19

/*
 * One allowlist entry as the IPv4 CIDR Daytona takes: an address is a /32,
 * an a.b.c.d/n stays as it is. False for anything else (a host name, a
 * port, IPv6): Daytona would not enforce it.
 */
static bool as_cidr(const char *entry, char out[CIDR_MAX])
{
    char addr[16];
    const char *slash = strchr(entry, '/');
    size_t alen = slash ? (size_t)(slash - entry) : strlen(entry);
    if (alen == 0 || alen >= sizeof(addr))
        return false;
    memcpy(addr, entry, alen);
    addr[alen] = '\0';
    struct in_addr in;
    if (inet_pton(AF_INET, addr, &in) != 1)
        return false;
    unsigned prefix = 32;
    if (slash) {
        const char *d = slash + 1;
        if (!d[0] || strlen(d) > 2 || strspn(d, "0123456789") != strlen(d))
            return false;
        prefix = (unsigned)atoi(d);
        if (prefix > 32)
            return false;
    }
    snprintf(out, CIDR_MAX, "%s/%u", addr, prefix % 100);
    return true;
}

static int allowlist(json_object *body, const sbx_host *host, const char *const *allow)
{
    char list[DAYTONA_ALLOW_MAX * (CIDR_MAX + 1)] = "";
    size_t n = 0;
    for (; allow && allow[n]; n++) {
        char cidr[CIDR_MAX];
        if (n == DAYTONA_ALLOW_MAX)
            return host->set_error(SBX_E_POLICY_NETWORK_ALLOWLIST,
                                   NAME ": Daytona takes at most %d networks in an allowlist",
                                   DAYTONA_ALLOW_MAX);
        if (!as_cidr(allow[n], cidr))
            return host->set_error(SBX_E_POLICY_NETWORK_ALLOWLIST,
                                   NAME ": Daytona enforces an allowlist of IPv4 networks only; "
                                        "\"%s\" is not one (a list of names is not enforced)",
                                   allow[n]);
        if (n)
            strcat(list, ",");
        strcat(list, cidr);
    }
    /* No host allowed is no network (an empty networkAllowList would be none). */
    if (n == 0)
        return sbxu_json_add(body, "networkBlockAll", json_object_new_boolean(1)) ? SBX_E_NOMEM
                                                                                 : SBX_OK;
    return sbxu_json_add_str(body, "networkAllowList", list) ? SBX_E_NOMEM : SBX_OK;
}

/*
 * One limit in Daytona's unit: *out the count of units, or a refusal when
 * the value is not a whole number of them (0 when there is no limit).
 */
static int whole(uint64_t value, uint64_t unit, int64_t *out)
{
    *out = 0;
    if (value == 0)
        return SBX_OK;
    if (value % unit != 0)
        return -1;
    *out = (int64_t)(value / unit);
    return SBX_OK;
}

/* A limit Daytona cannot express: refused if asked, dropped if defaulted. */
static int cannot(const sbx_host *host, uint64_t defaulted, uint64_t cap, int code,
                  const char *what)
{
    if (defaulted & cap) {
        if (host->log)
            host->log(SBX_LOG_WARN, NAME, "default limit left out: %s", what);
        return SBX_OK;
    }
    return host->set_error(code, NAME ": %s", what);
}

int daytona_policy_body(json_object *body, const sbx_host *host, const sbx_plugin_limits *limits)
{
    if (!limits)
        return SBX_OK;
    uint64_t defaulted = SBX_STRUCT_HAS(limits, defaulted) ? limits->defaulted : 0;
    uint64_t disk = SBX_STRUCT_HAS(limits, disk_bytes) ? limits->disk_bytes : 0;
    int rc = SBX_OK;
    if (limits->network == SBX_NET_NONE)
        rc = sbxu_json_add(body, "networkBlockAll", json_object_new_boolean(1)) ? SBX_E_NOMEM
                                                                               : SBX_OK;
    else if (limits->network == SBX_NET_ALLOWLIST)
        rc = allowlist(body, host, limits->net_allow);
    if (rc == SBX_E_NOMEM)
        return host->set_error(SBX_E_NOMEM, NAME ": out of memory");
    if (rc != SBX_OK)
        return rc;

    int64_t cores, mem_gib, disk_gib;
    if (whole(limits->cpu_millis, 1000, &cores) != SBX_OK)
        rc = cannot(host, defaulted, SBX_CAP_LIMIT_CPU, SBX_E_POLICY_CPU,
                    "Daytona allots whole CPU cores; a limit of a fraction of one would be "
                    "rounded up");
    if (rc == SBX_OK && whole(limits->memory_bytes, DAYTONA_GIB, &mem_gib) != SBX_OK)
        rc = cannot(host, defaulted, SBX_CAP_LIMIT_MEMORY, SBX_E_POLICY_MEMORY,
                    "Daytona allots memory in whole GiB; this limit would be rounded up");
    if (rc == SBX_OK && whole(disk, DAYTONA_GIB, &disk_gib) != SBX_OK)
        rc = cannot(host, defaulted, SBX_CAP_LIMIT_DISK, SBX_E_POLICY_DISK,
                    "Daytona allots disk in whole GiB; this limit would be rounded up");
    if (rc == SBX_OK && limits->pids)
        rc = cannot(host, defaulted, SBX_CAP_LIMIT_PIDS, SBX_E_POLICY_PIDS,
                    "Daytona has no limit on the number of processes");
    if (rc != SBX_OK)
        return rc;
    if ((cores && sbxu_json_add(body, "cpu", json_object_new_int64(cores))) ||
        (mem_gib && sbxu_json_add(body, "memory", json_object_new_int64(mem_gib))) ||
        (disk_gib && sbxu_json_add(body, "disk", json_object_new_int64(disk_gib))))
        return host->set_error(SBX_E_NOMEM, NAME ": out of memory");
    return SBX_OK;
}
