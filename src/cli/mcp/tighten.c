/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tighten.c - what of the operator's policy a call that makes a sandbox
 * (run, sandbox_create) may tighten: the network, memory, CPU, process and
 * disk limits, and the minimum tier; and the variables a command's env may
 * set (none, unless the operator allowed names with --agent-env). A value
 * wider than the operator's is refused with SBX_E_MCP_POLICY_WIDER before
 * anything is made; "the operator's" is the limit the backend would really
 * apply (its default included), so that an operator who set nothing still
 * cannot be outbid past the core's default.
 * A tighter value gets a policy of its own: the operator's options replayed,
 * the call's on top.
 */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server.h"
#include "args.h"
#include "tighten.h"
#include "allow_cover.h"

static const char *const network_names[] = { "none", "allowlist", "open" };

static int bad(struct mcp_args *a, const char *why)
{
    snprintf(a->why, sizeof(a->why), "%s", why);
    return SBX_E_MCP_BAD_ARGUMENTS;
}

/* Does the operator's --allow-host list allow all that rule allows? */
static int host_covered(const struct policy_opts *po, const px_rule *rule, int *covered)
{
    px_rule *ops = calloc(po->n_given ? po->n_given : 1, sizeof(*ops));
    const char *why;
    size_t n = 0;

    if (!ops)
        return SBX_E_NOMEM;
    /* An operator's entry the proxy could not parse allows nothing. */
    for (size_t i = 0; i < po->n_given; i++)
        if (po->given[i].opt == OPT_ALLOW_HOST && px_rule_parse(po->given[i].arg, &ops[n], &why) == 0)
            n++;
    *covered = mcp_allow_covered(ops, n, rule);
    free(ops);
    return SBX_OK;
}

static int read_network(struct mcp_tighten *t, const struct policy_opts *po, struct mcp_args *a)
{
    const char *mode;
    json_object *hosts = NULL;
    const char *why;
    px_rule rule;
    size_t i, n = 0;
    int rc, covered;

    if ((rc = mcp_arg_string(a, "network", 0, &mode)))
        return rc;
    if (a->obj && json_object_object_get_ex(a->obj, "allow_hosts", &hosts)) {
        if (!json_object_is_type(hosts, json_type_array) || !(n = json_object_array_length(hosts)))
            return bad(a, "'allow_hosts' must be a non-empty array of strings");
    }
    if (!mode && !hosts)
        return SBX_OK;
    t->network_given = 1;
    t->network = SBX_NET_ALLOWLIST;     /* allow_hosts alone means an allowlist */
    if (mode) {
        for (i = 0; i < 3 && strcmp(mode, network_names[i]) != 0; i++)
            ;
        if (i == 3)
            return bad(a, "'network' must be none, allowlist or open");
        t->network = (int)i;
    }
    if (t->network == SBX_NET_ALLOWLIST && !hosts)
        return bad(a, "'network' allowlist needs 'allow_hosts'");
    if (t->network != SBX_NET_ALLOWLIST && hosts)
        return bad(a, "'allow_hosts' goes with 'network' allowlist only");
    /* The SBX_NET_* values rank by width: none < allowlist < open. */
    if (t->network > po->network) {
        snprintf(a->why, sizeof(a->why), "network %s is wider than the server's --network %s",
                 network_names[t->network], network_names[po->network]);
        return SBX_E_MCP_POLICY_WIDER;
    }
    if (!n)
        return SBX_OK;
    if (!(t->hosts = calloc(n, sizeof(*t->hosts))))
        return SBX_E_NOMEM;
    for (i = 0; i < n; i++) {
        json_object *h = json_object_array_get_idx(hosts, i);
        const char *host = json_object_get_string(h);

        if (!json_object_is_type(h, json_type_string) || !*host ||
            strlen(host) != (size_t)json_object_get_string_len(h))
            return bad(a, "'allow_hosts' must be an array of host names");
        if (px_rule_parse(host, &rule, &why) < 0) {
            snprintf(a->why, sizeof(a->why), "allow_hosts: %.200s: %s", host, why);
            return SBX_E_MCP_BAD_ARGUMENTS;
        }
        /* Under --network open any list is tighter; under an allowlist only its hosts. */
        if (po->network == SBX_NET_ALLOWLIST && (rc = host_covered(po, &rule, &covered)))
            return rc;
        if (po->network == SBX_NET_ALLOWLIST && !covered) {
            snprintf(a->why, sizeof(a->why), "allow_hosts: %.120s allows more than the server's --allow-host list "
                     "(without :PORT an entry means ports 80 and 443)",
                     host);
            return SBX_E_MCP_POLICY_WIDER;
        }
        t->hosts[t->nhosts++] = host;
    }
    return SBX_OK;
}

/* The limit the operator's policy gives control on the backend: 0 for none. */
static int ceiling(struct mcp_session *s, uint64_t control, uint64_t *out)
{
    const struct mcp_config *cfg = s->server->config;
    uint64_t caps = 0;
    int rc = sbx_client_probe(s->server->client, cfg->dsn, &caps, NULL);

    return rc ? rc : sbx_policy_limit(out, NULL, cfg->po.policy, caps, control);
}

static int read_limit(struct mcp_session *s, struct mcp_args *a, const char *key, uint64_t control,
                      uint64_t max, int *given, uint64_t *value)
{
    uint64_t limit;
    int rc = mcp_arg_uint(a, key, max, given, value);

    if (rc || !*given)
        return rc;
    if (*value == 0) {
        snprintf(a->why, sizeof(a->why), "'%s' must be 1 or more", key);
        return SBX_E_MCP_BAD_ARGUMENTS;
    }
    if ((rc = ceiling(s, control, &limit)))
        return rc;
    if (limit && *value > limit) {
        snprintf(a->why, sizeof(a->why), "%s %llu is more than the server allows (%llu)", key,
                 (unsigned long long)*value, (unsigned long long)limit);
        return SBX_E_MCP_POLICY_WIDER;
    }
    return SBX_OK;
}

/* cpus: a positive number of CPUs, kept in thousandths. */
static int read_cpus(struct mcp_session *s, struct mcp_tighten *t, struct mcp_args *a)
{
    json_object *v = NULL;
    uint64_t limit;
    double cpus;
    int rc;

    if (!a->obj || !json_object_object_get_ex(a->obj, "cpus", &v))
        return SBX_OK;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return bad(a, "'cpus' must be a number");
    cpus = json_object_get_double(v);
    if (!isfinite(cpus) || cpus < 0.001 || cpus > 1e6)
        return bad(a, "'cpus' must be a number of CPUs from 0.001");
    t->cpu_given = 1;
    t->cpu_millis = (uint32_t)(cpus * 1000 + 0.5);
    if ((rc = ceiling(s, SBX_CAP_LIMIT_CPU, &limit)))
        return rc;
    if (limit && t->cpu_millis > limit) {
        snprintf(a->why, sizeof(a->why), "cpus %.3f is more than the server allows (%.3f)", cpus,
                 (double)limit / 1000);
        return SBX_E_MCP_POLICY_WIDER;
    }
    return SBX_OK;
}

/* min_tier: a tier name, at least the operator's --min-tier. */
static int read_tier(struct mcp_tighten *t, const struct policy_opts *po, struct mcp_args *a)
{
    const char *name;
    int rc = mcp_arg_string(a, "min_tier", 0, &name);

    if (rc || !name)
        return rc;
    if (sbx_tier_from_name(name, &t->min_tier) != SBX_OK)
        return bad(a, "'min_tier' must be none, namespace, container, userspace-kernel or microvm");
    /* The sbx_tier values rank by strength, weakest first. */
    if (t->min_tier < po->min_tier) {
        snprintf(a->why, sizeof(a->why), "min_tier %s is weaker than the server's --min-tier %s",
                 sbx_tier_name(t->min_tier), sbx_tier_name(po->min_tier));
        return SBX_E_MCP_POLICY_WIDER;
    }
    t->tier_given = 1;
    return SBX_OK;
}

int mcp_tighten_read(struct mcp_tighten *t, struct mcp_session *s, struct mcp_args *a)
{
    const struct policy_opts *po = &s->server->config->po;
    uint64_t v;
    int given, rc;

    memset(t, 0, sizeof(*t));
    if ((rc = read_network(t, po, a)))
        return rc;
    if ((rc = read_limit(s, a, "memory_bytes", SBX_CAP_LIMIT_MEMORY, UINT64_MAX, &given, &v)))
        return rc;
    t->memory_given = given, t->memory = v;
    if ((rc = read_limit(s, a, "pids", SBX_CAP_LIMIT_PIDS, UINT32_MAX, &given, &v)))
        return rc;
    t->pids_given = given, t->pids = (uint32_t)v;
    if ((rc = read_cpus(s, t, a)))
        return rc;
    if ((rc = read_limit(s, a, "disk_bytes", SBX_CAP_LIMIT_DISK, UINT64_MAX, &given, &v)))
        return rc;
    t->disk_given = given, t->disk = v;
    if ((rc = read_tier(t, po, a)))
        return rc;
    t->any = t->network_given || t->memory_given || t->pids_given || t->cpu_given ||
             t->disk_given || t->tier_given;
    return SBX_OK;
}

int mcp_tighten_policy(sbx_policy **out, const struct mcp_config *cfg, const struct mcp_tighten *t)
{
    const struct policy_opts *po = &cfg->po;
    struct policy_opts copy;
    int rc = SBX_OK;

    *out = NULL;
    /* The replay cannot fail where the first run of these options did not,
     * but for memory: an exit status here means out of memory. */
    if (policy_opts_init(&copy))
        return SBX_E_NOMEM;
    copy.profile = po->profile; /* the operator's profile, under the options */
    for (size_t i = 0; !rc && i < po->n_given; i++) {
        int opt = po->given[i].opt;
        if (t->network_given && (opt == OPT_NETWORK || opt == OPT_ALLOW_HOST))
            continue;
        if (policy_opts_take(&copy, "mcp", opt, po->given[i].arg))
            rc = SBX_E_NOMEM;
    }
    if (!rc && t->network_given) {
        copy.network_given = 1;
        copy.network = t->network;
        for (size_t i = 0; !rc && i < t->nhosts; i++, copy.hosts++)
            rc = sbx_policy_allow_host(copy.policy, t->hosts[i]);
    }
    if (!rc && policy_opts_finish(&copy))
        rc = SBX_E_NOMEM;
    if (!rc && t->memory_given)
        rc = sbx_policy_set_memory(copy.policy, t->memory);
    if (!rc && t->cpu_given)
        rc = sbx_policy_set_cpu(copy.policy, t->cpu_millis);
    if (!rc && t->pids_given)
        rc = sbx_policy_set_pids(copy.policy, t->pids);
    if (!rc && t->disk_given)
        rc = sbx_policy_set_disk(copy.policy, t->disk);
    if (!rc && t->tier_given)
        rc = sbx_policy_set_min_tier(copy.policy, t->min_tier);
    if (!rc) {
        *out = copy.policy;
        copy.policy = NULL;
    }
    policy_opts_release(&copy);
    return rc;
}

void mcp_tighten_release(struct mcp_tighten *t)
{
    free(t->hosts);
    t->hosts = NULL;
}

/* Does "NAME=VALUE" or "NAME" name the variable name? */
static int names(const char *given, const char *name)
{
    size_t n = strcspn(given, "=");

    return strlen(name) == n && strncmp(given, name, n) == 0;
}

int mcp_tighten_env(const struct mcp_config *cfg, struct mcp_args *a, const char *name)
{
    const struct policy_opts *po = &cfg->po;
    size_t i;

    /* Fail closed: without --agent-env the environment is the operator's alone. */
    for (i = 0; i < cfg->n_agent_env && fnmatch(cfg->agent_env[i], name, 0) != 0; i++)
        ;
    if (i == cfg->n_agent_env) {
        snprintf(a->why, sizeof(a->why), cfg->n_agent_env
                 ? "env.%.200s: the server's --agent-env does not allow this name"
                 : "env.%.200s: the server allows no variables from tools (no --agent-env)", name);
        return SBX_E_MCP_POLICY_WIDER;
    }
    /* What the operator set stays as set: a tool adds, never replaces. */
    for (i = 0; i < po->n_env; i++) {
        if (names(po->env[i], name)) {
            snprintf(a->why, sizeof(a->why), "env.%.200s: the server's policy sets this variable", name);
            return SBX_E_MCP_POLICY_WIDER;
        }
    }
    return SBX_OK;
}
