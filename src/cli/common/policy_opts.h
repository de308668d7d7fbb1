/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/policy_opts.h - the policy options every command that makes
 * sandboxes takes (run, create, demo, mcp, contract), with the profile they
 * start from: one module, so that a profile's value and the option it
 * stands for are applied by the same code.
 */
#ifndef SBX_CLI_COMMON_POLICY_OPTS_H
#define SBX_CLI_COMMON_POLICY_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <sandboxio/sandboxio.h>

#include "../profile.h"
#include "dsn.h"

/*
 * The options: --dsn, --timeout, --memory, --cpus, --pids, --disk,
 * --no-default-limits, --network, --allow-host, --min-tier, --env,
 * --env-pass, --output-cap, and --profile NAME (else $SANDBOXIO_PROFILE),
 * whose values come first and which the other options override. A command
 * puts POLICY_OPTIONS first in its getopt_long table and hands every option
 * it does not know itself to policy_opts_take().
 */
enum {
    OPT_DSN = 256, OPT_TIMEOUT, OPT_MEMORY, OPT_CPUS, OPT_PIDS, OPT_NETWORK, OPT_ALLOW_HOST,
    OPT_MIN_TIER, OPT_ENV, OPT_ENV_PASS, OPT_OUTPUT_CAP, OPT_DISK, OPT_NO_DEFAULT_LIMITS,
    OPT_PROFILE, OPT_POLICY_END
};

#define POLICY_OPTIONS \
    { "dsn", required_argument, NULL, OPT_DSN }, \
    { "timeout", required_argument, NULL, OPT_TIMEOUT }, \
    { "memory", required_argument, NULL, OPT_MEMORY }, \
    { "cpus", required_argument, NULL, OPT_CPUS }, \
    { "pids", required_argument, NULL, OPT_PIDS }, \
    { "disk", required_argument, NULL, OPT_DISK }, \
    { "no-default-limits", no_argument, NULL, OPT_NO_DEFAULT_LIMITS }, \
    { "network", required_argument, NULL, OPT_NETWORK }, \
    { "allow-host", required_argument, NULL, OPT_ALLOW_HOST }, \
    { "min-tier", required_argument, NULL, OPT_MIN_TIER }, \
    { "env", required_argument, NULL, OPT_ENV }, \
    { "env-pass", required_argument, NULL, OPT_ENV_PASS }, \
    { "output-cap", required_argument, NULL, OPT_OUTPUT_CAP }, \
    { "profile", required_argument, NULL, OPT_PROFILE }

/* The policy the options built, and the ceilings they set (for `mcp`). */
struct policy_given {
    int opt;
    const char *arg;
};

struct policy_opts {
    const char *cmd;        /* for messages */
    const char *dsn;        /* NULL: the profile's, SANDBOXIO_DSN, then SBX_CLI_DEFAULT_DSN */
    const char *profile;    /* --profile, else NULL */
    /* The options, in order (args borrowed from argv): applied after the
     * profile, and replayed by `mcp` to build a tighter copy for one call. */
    struct policy_given *given;
    size_t n_given;
    struct profile_set profiles;   /* read only when a profile is asked for */
    const struct profile *used;    /* the profile applied, or NULL */
    uint64_t ttl_ms;        /* the profile's ttl; 0: none */
    sbx_policy *policy;
    uint64_t timeout_ms;    /* 0: none given */
    size_t output_cap;      /* SBX_DEFAULT_OUTPUT_CAP unless given */
    int network;            /* an sbx_network, once policy_opts_finish() ran */
    int network_given;
    size_t hosts;
    int min_tier;           /* an sbx_tier: --min-tier, else the profile's, else none */
    /* The variables the options set (--env, --env-pass, the profile's):
     * "NAME=VALUE" or "NAME", borrowed like the args. */
    const char **env;
    size_t n_env;
};

/* Start with the library's default policy. Returns 0 or an exit status. */
int policy_opts_init(struct policy_opts *po);
/*
 * Take option opt (an OPT_* of POLICY_OPTIONS) with its argument (which
 * must outlive po), for command cmd's messages; it is applied by
 * policy_opts_finish(), after the profile's values. Returns 0, or the exit
 * status of the error reported.
 */
int policy_opts_take(struct policy_opts *po, const char *cmd, int opt, const char *arg);
/* Apply option opt now. Returns 0, or the exit status of the error reported. */
int policy_opts_apply(struct policy_opts *po, const char *cmd, int opt, const char *arg);
/*
 * After the last option: apply the profile (--profile, else
 * $SANDBOXIO_PROFILE when not empty), then the options, then settle the
 * network mode. 0 or an exit status.
 */
int policy_opts_finish(struct policy_opts *po);
/*
 * Apply the profile named by --profile or $SANDBOXIO_PROFILE, if any;
 * cli_network: the options set the network, so the
 * profile's network and allow-hosts are not used. 0 or an exit status.
 */
int policy_opts_use_profile(struct policy_opts *po, int cli_network);
void policy_opts_release(struct policy_opts *po);
/*
 * The DSN to use: --dsn, else the profile's dsn, else sbx_cli_default_dsn()
 * ($SANDBOXIO_DSN, else SBX_CLI_DEFAULT_DSN).
 */
const char *policy_opts_dsn(const struct policy_opts *po);
/* The usage lines of the policy options, for a command's --help. */
extern const char policy_opts_usage[];

#endif
