/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run.h - the parts of `sandboxio run` (and `shell`, `exec`): the command
 * line, the execution and its live output.
 */
#ifndef SBX_CLI_RUN_H
#define SBX_CLI_RUN_H

#include <sandboxio/sandboxio.h>

#include "common/policy_opts.h"

/* What the command line asked for, built into library objects. */
struct run_opts {
    struct policy_opts po;
    int json;
    int interactive;        /* -i */
    int stdin_auto;         /* stdin streamed without -i: it is a pipe or a file */
    int tty;                /* -t */
    const char *shell_id;   /* shell ID: a named sandbox to attach to */
    int ready;              /* run: may take a ready sandbox (run_ready.h); not --fresh */
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
/*
 * -w DIR: an absolute DIR is a directory of the sandbox, any other is
 * relative to its work directory (as docker's -w, which knows only the
 * first). Returns the library's code.
 */
int sbx_cli_cmd_set_cwd(sbx_cmd *cmd, const char *dir);
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

#endif
