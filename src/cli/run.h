/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run.h - the parts of `sandboxio run`: options, execution and output.
 */
#ifndef SBX_CLI_RUN_H
#define SBX_CLI_RUN_H

#include <getopt.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

#include "profile.h"

/*
 * The policy options every command that makes sandboxes takes (`run`,
 * `mcp`): --dsn, --timeout, --memory, --cpus, --pids, --disk,
 * --no-default-limits, --network, --allow-host, --min-tier, --env,
 * --env-pass, --output-cap, and --profile NAME (else $SANDBOXIO_PROFILE),
 * whose values come first and which the other options override. A command puts
 * RUN_POLICY_OPTIONS first in its getopt_long table and hands every option
 * it does not know itself to policy_opts_take().
 */
enum {
    OPT_DSN = 256, OPT_TIMEOUT, OPT_MEMORY, OPT_CPUS, OPT_PIDS, OPT_NETWORK, OPT_ALLOW_HOST,
    OPT_MIN_TIER, OPT_ENV, OPT_ENV_PASS, OPT_OUTPUT_CAP, OPT_DISK, OPT_NO_DEFAULT_LIMITS,
    OPT_PROFILE, OPT_POLICY_END
};

#define RUN_POLICY_OPTIONS \
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
 * Take option opt (an OPT_* of RUN_POLICY_OPTIONS) with its argument (which
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
 * Apply the profile named by --profile or $SANDBOXIO_PROFILE, if any
 * (policy_profile.c); cli_network: the options set the network, so the
 * profile's network and allow-hosts are not used. 0 or an exit status.
 */
int policy_opts_use_profile(struct policy_opts *po, int cli_network);
void policy_opts_release(struct policy_opts *po);
/* The DSN to use: --dsn, else $SANDBOXIO_DSN, else the default backend. */
const char *policy_opts_dsn(const struct policy_opts *po);
/* The usage lines of the policy options, for a command's --help. */
extern const char run_policy_usage[];

/* What the command line asked for, built into library objects. */
struct run_opts {
    struct policy_opts po;
    int json;
    int interactive;        /* -i */
    int stdin_auto;         /* stdin streamed without -i: it is a pipe or a file */
    int tty;                /* -t */
    const char *shell_id;   /* shell ID: a named sandbox to attach to */
    sbx_cmd *cmd;
};

/*
 * Parse run's options and build the policy and the command. Returns 0 when
 * opts is ready, else an exit status (the error is reported); -1 means
 * --help was shown and run should exit 0. opts needs run_opts_release()
 * either way.
 */
int run_opts_parse(struct run_opts *opts, int argc, char **argv);
/* The same for `sandboxio shell [OPTIONS] [ID]`: run -it ... -- sh. */
int run_opts_parse_shell(struct run_opts *opts, int argc, char **argv);
void run_opts_release(struct run_opts *opts);
/*
 * Our stdin is data (a pipe, a socket, a file), which run and exec stream
 * to the command without -i, as a shell passes it; not a terminal or
 * /dev/null.
 */
int run_stdin_is_data(void);
/* After SBX_E_CAP_STDIN for stdin passed without -i: say why, and how to leave it. */
void run_note_stdin_auto(void);
/* Read all of our stdin into cmd's. 0 or the exit status of the error reported. */
int run_cmd_stdin(sbx_cmd *cmd);

/* Run what opts asks for (cmd_run.c) and release opts; the exit status. */
int run_with_opts(struct run_opts *opts);

/*
 * Run the command in a sandbox made for it from dsn and policy
 * (sbx_run_live()), its output going live to our stdout/stderr (streamed
 * when the backend can, else captured and printed after). Returns the SBX code of the run,
 * or SBX_E_SYSTEM if the output could not be written (errors already
 * reported); *result may be set either way and is the caller's to free.
 */
int run_exec_live(sbx_client *client, const char *dsn, const sbx_policy *policy,
                  const sbx_cmd *cmd, sbx_result **result);

/* The same for a command in an open sandbox (sbx_exec_ext(), streamed if able). */
int run_exec_in(sbx_sandbox *sandbox, const sbx_cmd *cmd, sbx_result **result);

/*
 * The exit status a finished command gives sandboxio: its own, 128+N for
 * signal N, SBX_CLI_EXIT_TIMEOUT at its timeout (reported on stderr).
 */
int run_status_of(const sbx_result *result);

/* write(2) all of data, again after EINTR; 0, or -1 with errno. */
int sbx_cli_write_all(int fd, const void *data, size_t len);

/*
 * Print the result as one JSON object (see docs/cli.md), with the backend,
 * tier and redacted DSN it ran on and the limits the policy gave it there
 * (all from the result). Returns an SBX code.
 */
int run_print_json(const sbx_result *result, const sbx_policy *policy);

/* Print {"error": {...}} for a failed run in --json mode. Returns an SBX code. */
int run_print_json_error(int code, const char *message);

/*
 * The result as the JSON object `run --json` and the MCP tools share:
 * exit_code, signal, timed_out, oom_killed, stdout, stderr and their
 * encodings and truncated flags, duration_ms. Returns an SBX code.
 */
int run_result_json(const sbx_result *result, json_object **out);

/* Set "<name>" and "<name>_encoding" of obj: the text when it is UTF-8, else base64. */
int run_json_add_output(json_object *obj, const char *name, const char *encoding_key,
                        const void *data, size_t len);

/* {"code", "id", "message", "docs_url"} of a failure. NULL when out of memory. */
json_object *run_error_json(int code, const char *message);
/*
 * Add the outcome of a command's step to obj for --json: "ok" (status == 0,
 * an exit status), and when it failed, "error" as run_error_json() makes it
 * from the error reported last (sbx_cli_last_error()). An SBX code.
 */
int run_json_add_outcome(json_object *obj, int status);
/*
 * Print {k1: v1, k2: v2, "ok", "error"?} for the --json of command cmd
 * (cp, rm). Returns status, or the exit status of a failed print.
 */
int run_print_outcome(const char *cmd, int status, const char *k1, const char *v1, const char *k2,
                      const char *v2);

#endif
