/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_run.c - `sandboxio run`: create a sandbox, run one command, destroy it
 * (sbx_run(), which lets a backend do the three in one go); or, on a backend
 * where a sandbox can be made ahead of time (run_ready.h), take a ready one,
 * run the command, destroy it, and leave a fresh one behind.
 *
 * The exit status is the command's (128+N for signal N), or one of
 * SBX_CLI_EXIT_* when sandboxio itself failed or the command timed out.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "common/result_json.h"
#include "interrupt.h"
#include "run.h"
#include "run_ready.h"
#include "run_tty.h"
#include "common/error.h"

/* Report a failed library call: on stderr, and on stdout too in --json mode. */
static int fail(const struct run_opts *opts, int code, const char *context)
{
    if (opts->json)
        result_json_print_error(code, sbx_cli_error_message(code));
    return sbx_cli_error_lib(code, context);
}

/*
 * Run the command in ready (taken by run_ready_take(); run_ready_end()
 * destroys it), or in a sandbox made for it when ready is NULL.
 */
static int run_command(const struct run_opts *opts, sbx_client *client, const char *dsn,
                       sbx_sandbox *ready, sbx_result **result)
{
    if (ready)
        return opts->json ? sbx_exec(result, ready, opts->cmd)
                          : run_exec_in(ready, opts->cmd, result);
    return opts->json ? sbx_run(result, client, dsn, opts->po.policy, opts->cmd)
                      : run_exec_live(client, dsn, opts->po.policy, opts->cmd, result);
}

/* The command's run, in ready or a sandbox made for it, to its exit status; *ran: it ran. */
static int run_once(const struct run_opts *opts, sbx_client *client, const char *dsn,
                    sbx_sandbox *ready, int *ran)
{
    sbx_result *result = NULL;
    int rc, status;

    *ran = 0;
    if (sbx_cli_interrupted())
        return 128 + sbx_cli_interrupted();
    rc = run_command(opts, client, dsn, ready, &result);
    *ran = rc == SBX_OK;
    if (opts->json) {
        if (rc == SBX_E_EXEC_CANCELLED && sbx_cli_interrupted()) {
            sbx_result_free(result);
            result_json_print_error(rc, sbx_cli_error_message(rc));
            return 128 + sbx_cli_interrupted();
        }
        if (rc != SBX_OK) {
            sbx_result_free(result);
            return fail(opts, rc, NULL);
        }
        rc = result_json_print(result, opts->po.policy);
    }
    status = rc == SBX_OK ? run_status_of(result) : sbx_cli_exit_code(rc);
    sbx_result_free(result);
    if (rc == SBX_E_CAP_STDIN && opts->stdin_auto)
        run_note_stdin_auto();
    /* Like a shell: a run the user interrupted ends as if killed by that signal. */
    return sbx_cli_interrupted() ? 128 + sbx_cli_interrupted() : status;
}

static const char interrupt_note[] =
    "sandboxio: interrupted: stopping the command and destroying the sandbox"
    " (interrupt again to quit at once)\n";

int cmd_run(int argc, char **argv)
{
    struct run_opts opts;
    int status = run_opts_parse(&opts, argc, argv);

    if (status != 0) {
        run_opts_release(&opts);
        return status < 0 ? 0 : status;
    }
    return run_with_opts(&opts);
}

int run_with_opts(struct run_opts *o)
{
    struct run_opts opts = *o;
    sbx_client *client = NULL;
    int rc, status;
    if (sbx_cli_interrupt_install(interrupt_note) != 0) {
        status = sbx_cli_error(SBX_E_SYSTEM, "installing the signal handlers: %m");
        goto out;
    }
    /* A signal kills the command at once, even one that writes nothing. */
    rc = sbx_cmd_set_cancel(opts.cmd, sbx_cli_interrupt_cancel());
    if (rc != SBX_OK) {
        status = fail(&opts, rc, "setting up the cancel");
        goto out;
    }
    rc = sbx_client_new(&client);
    if (rc != SBX_OK) {
        status = fail(&opts, rc, "creating the client");
        goto out;
    }
    /* One call creates the sandbox, runs the command and destroys it: a
     * sandbox that could not be destroyed is an error that outranks the
     * command's status (see `sandboxio gc`). */
    /* -t: the terminal goes raw last, and back first, whatever the run gave. */
    if (opts.tty && (status = sbx_cli_tty_begin(opts.cmd, opts.interactive)) != 0)
        goto out;
    const char *dsn = policy_opts_dsn(&opts.po);
    struct run_ready rr;
    sbx_sandbox *ready = NULL;
    /*
     * Not with a network: local keeps no detached sandbox with one yet (its
     * slirp4netns or egress proxy would end with the process that made it).
     */
    int pooled = opts.ready && opts.po.network == SBX_NET_NONE &&
                 run_ready_begin(&rr, client, dsn, opts.po.policy);
    int ran = 0;
    if (pooled)
        (void)run_ready_take(&rr, client, &ready);
    status = run_once(&opts, client, dsn, ready, &ran);
    sbx_cli_tty_end();
    /*
     * The next run's sandbox is made, and this one torn down, while nothing
     * waits for them; after a failure or an interrupt none is made, and
     * this one goes here. A sandbox that could not be destroyed outranks
     * the command's status, as with sbx_run().
     */
    int drc = pooled ? run_ready_end(&rr, ready, ran && !sbx_cli_interrupted()) : SBX_OK;
    if (drc != SBX_OK)
        status = sbx_cli_exit_code(drc);
out:
    sbx_client_free(client);
    run_opts_release(&opts);
    return status;
}
