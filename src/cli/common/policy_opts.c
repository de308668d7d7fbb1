/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/policy_opts.c - the policy options, and the profile they start
 * from, turned into a policy.
 *
 * Everything the backend must guarantee (network, limits, timeout,
 * environment) goes into the policy, so that the core refuses an impossible
 * request before anything is created.
 *
 * A profile is applied before the command line's options, so that an
 * option given overrides the profile: a later value of a single setting
 * replaces an earlier one, a later --env NAME=... replaces the profile's
 * NAME, and --network or --allow-host on the command line replace the
 * profile's network and allow-hosts together (a list cannot be half
 * overridden without surprise).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_opts.h"
#include "error.h"
#include "parse.h"

const char policy_opts_usage[] =
    "  --dsn DSN          backend (default: $SANDBOXIO_DSN, else " SBX_CLI_DEFAULT_DSN ")\n"
    "  --timeout S        kill CMD after S: 30, 1.5, 500ms, 2m, 1h (exit 124)\n"
    "  --memory SIZE      memory limit: 123, 64k, 512M, 2G (powers of 1024)\n"
    "  --cpus N           CPU limit, may be fractional (1.5)\n"
    "  --pids N           process limit\n"
    "  --disk SIZE        cap on what the work dir may hold\n"
    "  --no-default-limits  apply no default process/memory/disk limit (by\n"
    "                     default a backend that can enforce them gets\n"
    "                     pids 1024, memory 2G, disk 1G where none is given)\n"
    "  --network MODE     none (default), open, or allowlist\n"
    "  --allow-host H     allow host H[:PORT] (repeatable; implies allowlist)\n"
    "  --min-tier TIER    refuse a backend weaker than TIER: none, namespace,\n"
    "                     container, userspace-kernel, microvm\n"
    "  -e, --env K=V      set K in CMD's environment (repeatable)\n"
    "  --env-pass NAME    pass NAME from this environment if set (repeatable)\n"
    "  --output-cap SIZE  cap on each captured stream (default 16M)\n"
    "  --profile NAME     start from profile NAME (default: $SANDBOXIO_PROFILE);\n"
    "                     the options above override its values\n";

/* Report a bad size/duration value of option name. */
static int bad_value(const char *name, const char *value, const char *expected)
{
    return sbx_cli_error(SBX_E_BAD_SIZE, "--%s: '%s' is not %s", name, value, expected);
}

static int lib_failed(int rc, const char *what)
{
    return rc == SBX_OK ? 0 : sbx_cli_error_lib(rc, what);
}

static int set_env_pair(sbx_policy *policy, const char *cmd, const char *pair)
{
    const char *eq = strchr(pair, '=');
    char *name;
    int rc;

    if (!eq || eq == pair)
        return sbx_cli_usage_error(cmd, "--env: '%s' is not NAME=VALUE", pair);
    name = strndup(pair, (size_t)(eq - pair));
    if (!name)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    rc = sbx_policy_set_env(policy, name, eq + 1);
    free(name);
    return lib_failed(rc, "--env");
}

static int pass_env(sbx_policy *policy, const char *cmd, const char *name)
{
    const char *value;

    if (!*name || strchr(name, '='))
        return sbx_cli_usage_error(cmd, "--env-pass: '%s' is not a variable name", name);
    value = getenv(name);
    /* Like `docker run -e NAME`: an unset variable is simply not passed. */
    return value ? lib_failed(sbx_policy_set_env(policy, name, value), "--env-pass") : 0;
}

static int set_network(const char *cmd, const char *mode, int *network)
{
    if (strcmp(mode, "none") == 0)
        *network = SBX_NET_NONE;
    else if (strcmp(mode, "open") == 0)
        *network = SBX_NET_OPEN;
    else if (strcmp(mode, "allowlist") == 0)
        *network = SBX_NET_ALLOWLIST;
    else
        return sbx_cli_usage_error(cmd, "--network: '%s' is not none, open or allowlist", mode);
    return 0;
}

/* The network mode follows from --network and --allow-host; contradictions are refused. */
static int apply_network(sbx_policy *policy, int network, size_t hosts)
{
    if (network != SBX_NET_ALLOWLIST && hosts)
        return sbx_cli_error(SBX_E_BAD_POLICY, "--allow-host needs --network allowlist, not %s",
                             network == SBX_NET_OPEN ? "open" : "none");
    if (network == SBX_NET_ALLOWLIST && !hosts)
        return sbx_cli_error(SBX_E_BAD_POLICY, "--network allowlist needs at least one --allow-host");
    return lib_failed(sbx_policy_set_network(policy, network), "--network");
}

/* The option each profile key stands for; 0 for ttl, which is no policy option. */
static const int option_of[PROFILE_N_KEYS] = {
    [PROFILE_DSN] = OPT_DSN,
    [PROFILE_NETWORK] = OPT_NETWORK,
    [PROFILE_ALLOW_HOSTS] = OPT_ALLOW_HOST,
    [PROFILE_MEMORY] = OPT_MEMORY,
    [PROFILE_CPUS] = OPT_CPUS,
    [PROFILE_PIDS] = OPT_PIDS,
    [PROFILE_DISK] = OPT_DISK,
    [PROFILE_DEFAULT_LIMITS] = OPT_NO_DEFAULT_LIMITS,
    [PROFILE_MIN_TIER] = OPT_MIN_TIER,
    [PROFILE_TIMEOUT] = OPT_TIMEOUT,
    [PROFILE_OUTPUT_CAP] = OPT_OUTPUT_CAP,
    [PROFILE_ENV] = OPT_ENV,
    [PROFILE_ENV_PASS] = OPT_ENV_PASS,
    [PROFILE_TTL] = 0,
};

/* "file1, file2" of the files read, for the not-found message. */
static void files_read(const struct profile_set *set, char *out, size_t size)
{
    size_t n = 0;

    out[0] = '\0';
    for (size_t i = 0; i < set->n_files && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", set->files[i]);
    if (!set->n_files)
        snprintf(out, size, "none was found");
}

int policy_opts_use_profile(struct policy_opts *po, int cli_network)
{
    const char *name = po->profile ? po->profile : getenv("SANDBOXIO_PROFILE");
    const char *cmd = po->cmd ? po->cmd : "run";
    struct profile_error err = { 0 };
    const struct profile *p;
    char files[512];
    int rc, status;

    if (!name || (!po->profile && !*name))
        return 0;   /* no profile asked for: no file is read */
    rc = profile_set_load_default(&po->profiles, &err);
    if (rc != SBX_OK)
        return sbx_cli_error(err.code, "%s", err.message);
    p = profile_set_find(&po->profiles, name);
    if (!p) {
        files_read(&po->profiles, files, sizeof(files));
        return sbx_cli_error(SBX_E_PROFILE_NOT_FOUND, "%s: no profile '%s' (profiles files read: %s)",
                             po->profile ? "--profile" : "SANDBOXIO_PROFILE", name, files);
    }
    for (size_t i = 0; i < p->n_items; i++) {
        const struct profile_item *item = &p->items[i];
        int opt = option_of[item->key];

        if (!opt)
            continue;
        if (cli_network && (opt == OPT_NETWORK || opt == OPT_ALLOW_HOST))
            continue;
        if (opt == OPT_NO_DEFAULT_LIMITS && strcmp(item->value, "false") != 0)
            continue;   /* default-limits: true is the default */
        status = policy_opts_apply(po, cmd, opt, item->value);
        if (status) {
            fprintf(stderr, "  in profile '%s' (%s:%d:%d)\n", p->name, p->file, item->line,
                    item->column);
            return status;
        }
    }
    po->ttl_ms = p->ttl_ms;
    po->used = p;
    return 0;
}

/* Keep the name the operator set (for `mcp`, which lets no tool replace it). */
static int note_env(struct policy_opts *po, const char *arg)
{
    const char **env = realloc(po->env, (po->n_env + 1) * sizeof(*env));

    if (!env)
        return -1;
    po->env = env;
    env[po->n_env++] = arg;
    return 0;
}

int policy_opts_init(struct policy_opts *po)
{
    memset(po, 0, sizeof(*po));
    po->output_cap = SBX_DEFAULT_OUTPUT_CAP;
    return lib_failed(sbx_policy_new(&po->policy), "creating the policy");
}

int policy_opts_take(struct policy_opts *po, const char *cmd, int opt, const char *arg)
{
    struct policy_given *given;

    po->cmd = cmd;
    if (opt == OPT_PROFILE) {
        po->profile = arg;
        return 0;
    }
    given = realloc(po->given, (po->n_given + 1) * sizeof(*given));
    if (!given)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    po->given = given;
    given[po->n_given].opt = opt;
    given[po->n_given++].arg = arg;
    return 0;
}

int policy_opts_apply(struct policy_opts *po, const char *cmd, int opt, const char *arg)
{
    int tier;
    uint64_t v;

    switch (opt) {
    case OPT_DSN:
        po->dsn = arg;
        return 0;
    case OPT_TIMEOUT:
        if (sbx_cli_parse_duration_ms(arg, &v))
            return bad_value("timeout", arg, "a duration (30, 1.5, 500ms, 2m, 1h)");
        po->timeout_ms = v;
        return lib_failed(sbx_policy_set_timeout(po->policy, v), "--timeout");
    case OPT_MEMORY:
        if (sbx_cli_parse_size(arg, &v))
            return bad_value("memory", arg, "a size (123, 64k, 512M, 2G)");
        return lib_failed(sbx_policy_set_memory(po->policy, v), "--memory");
    case OPT_OUTPUT_CAP:
        if (sbx_cli_parse_size(arg, &v) || v > SIZE_MAX)
            return bad_value("output-cap", arg, "a size (123, 64k, 512M, 2G)");
        po->output_cap = (size_t)v;
        return lib_failed(sbx_policy_set_output_cap(po->policy, (size_t)v), "--output-cap");
    case OPT_CPUS:
        if (sbx_cli_parse_millis(arg, &v) || v > UINT32_MAX)
            return bad_value("cpus", arg, "a number of CPUs (1, 0.5, 2.25)");
        return lib_failed(sbx_policy_set_cpu(po->policy, (uint32_t)v), "--cpus");
    case OPT_PIDS:
        if (sbx_cli_parse_uint(arg, UINT32_MAX, &v))
            return bad_value("pids", arg, "a number of processes");
        return lib_failed(sbx_policy_set_pids(po->policy, (uint32_t)v), "--pids");
    case OPT_DISK:
        if (sbx_cli_parse_size(arg, &v))
            return bad_value("disk", arg, "a size (123, 64k, 512M, 2G)");
        return lib_failed(sbx_policy_set_disk(po->policy, v), "--disk");
    case OPT_NO_DEFAULT_LIMITS:
        return lib_failed(sbx_policy_set_default_limits(po->policy, 0), "--no-default-limits");
    case OPT_NETWORK:
        po->network_given = 1;
        return set_network(cmd, arg, &po->network);
    case OPT_ALLOW_HOST:
        po->hosts++;
        return lib_failed(sbx_policy_allow_host(po->policy, arg), "--allow-host");
    case OPT_MIN_TIER:
        if (sbx_tier_from_name(arg, &tier) != SBX_OK)
            return sbx_cli_usage_error(cmd, "--min-tier: unknown tier '%s'", arg);
        po->min_tier = tier;
        return lib_failed(sbx_policy_set_min_tier(po->policy, tier), "--min-tier");
    case OPT_ENV:
        return note_env(po, arg) ? sbx_cli_error(SBX_E_NOMEM, "out of memory")
                                 : set_env_pair(po->policy, cmd, arg);
    case OPT_ENV_PASS:
        return note_env(po, arg) ? sbx_cli_error(SBX_E_NOMEM, "out of memory")
                                 : pass_env(po->policy, cmd, arg);
    default:
        return sbx_cli_error(SBX_E_INTERNAL, "option %d is not a policy option", opt);
    }
}

int policy_opts_finish(struct policy_opts *po)
{
    /* network_given already: `mcp` set a call's tighter network itself. */
    int cli_network = po->network_given, status;

    for (size_t i = 0; i < po->n_given; i++)
        cli_network |= po->given[i].opt == OPT_NETWORK || po->given[i].opt == OPT_ALLOW_HOST;
    if ((status = policy_opts_use_profile(po, cli_network)))
        return status;
    for (size_t i = 0; i < po->n_given; i++) {
        if ((status = policy_opts_apply(po, po->cmd, po->given[i].opt, po->given[i].arg)))
            return status;
    }
    if (!po->network_given)
        po->network = po->hosts ? SBX_NET_ALLOWLIST : SBX_NET_NONE;
    return apply_network(po->policy, po->network, po->hosts);
}

void policy_opts_release(struct policy_opts *po)
{
    sbx_policy_free(po->policy);
    po->policy = NULL;
    free(po->given);
    po->given = NULL;
    po->n_given = 0;
    free(po->env);
    po->env = NULL;
    po->n_env = 0;
    po->used = NULL;
    profile_set_free(&po->profiles);
}

const char *policy_opts_dsn(const struct policy_opts *po)
{
    return po->dsn ? po->dsn : sbx_cli_default_dsn();
}
