/*
 * run.h - the parts of `sandboxio run`: options, execution and output.
 */
#ifndef SBX_CLI_RUN_H
#define SBX_CLI_RUN_H

#include <sandboxio/sandboxio.h>

/* What the command line asked for, built into library objects. */
struct run_opts {
    const char *dsn;        /* NULL: SANDBOXIO_DSN, then SBX_CLI_DEFAULT_DSN */
    int json;
    sbx_policy *policy;
    sbx_cmd *cmd;
};

/*
 * Parse run's options and build the policy and the command. Returns 0 when
 * opts is ready, else an exit status (the error is reported); -1 means
 * --help was shown and run should exit 0. opts needs run_opts_release()
 * either way.
 */
int run_opts_parse(struct run_opts *opts, int argc, char **argv);
void run_opts_release(struct run_opts *opts);

/*
 * Run the command in a sandbox made for it from dsn and policy
 * (sbx_run_live()), its output going live to our stdout/stderr (streamed
 * when the backend can, else captured and printed after). Returns the SBX code of the run,
 * or SBX_E_SYSTEM if the output could not be written (errors already
 * reported); *result may be set either way and is the caller's to free.
 */
int run_exec_live(sbx_client *client, const char *dsn, const sbx_policy *policy,
                  const sbx_cmd *cmd, sbx_result **result);

/*
 * Print the result as one JSON object (see docs/cli.md), with the backend,
 * tier and redacted DSN it ran on and the limits the policy gave it there
 * (all from the result). Returns an SBX code.
 */
int run_print_json(const sbx_result *result, const sbx_policy *policy);

/* Print {"error": {...}} for a failed run in --json mode. Returns an SBX code. */
int run_print_json_error(int code, const char *message);

#endif
