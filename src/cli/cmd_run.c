/*
 * cmd_run.c - `sandboxio run`: create a sandbox, run one command, destroy it.
 *
 * The exit status is the command's (128+N for signal N), or one of
 * SBX_CLI_EXIT_* when sandboxio itself failed or the command timed out.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "interrupt.h"
#include "run.h"
#include "util.h"

/* Report a failed library call: on stderr, and on stdout too in --json mode. */
static int fail(const struct run_opts *opts, int code, const char *context)
{
    if (opts->json)
        run_print_json_error(code, sbx_cli_error_message(code));
    return sbx_cli_error_lib(code, context);
}

static int status_of(const sbx_result *result)
{
    if (sbx_result_timed_out(result)) {
        sbx_cli_error(SBX_E_EXEC_TIMEOUT, "the command was killed at its timeout");
        return SBX_CLI_EXIT_TIMEOUT;
    }
    if (sbx_result_oom_killed(result))
        sbx_cli_error(SBX_E_EXEC_OOM, "the command was killed for exceeding the memory limit");
    if (sbx_result_exited(result))
        return sbx_result_exit_code(result);
    return 128 + sbx_result_signal(result);
}

/* The command's run, from an open sandbox to its exit status. */
static int run_in(const struct run_opts *opts, sbx_sandbox *sandbox)
{
    sbx_result *result = NULL;
    int rc, status;

    if (sbx_cli_interrupted())
        return 128 + sbx_cli_interrupted();
    if (opts->json) {
        rc = sbx_exec(&result, sandbox, opts->cmd);
        if (rc != SBX_OK)
            return fail(opts, rc, "running the command");
        rc = run_print_json(result, sandbox);
        status = rc == SBX_OK ? status_of(result) : sbx_cli_exit_code(rc);
    } else {
        rc = run_exec_live(sandbox, opts->cmd, &result);
        status = rc == SBX_OK ? status_of(result) : sbx_cli_exit_code(rc);
    }
    sbx_result_free(result);
    /* Like a shell: a run the user interrupted ends as if killed by that signal. */
    return sbx_cli_interrupted() ? 128 + sbx_cli_interrupted() : status;
}

/* The DSN to use: --dsn, else $SANDBOXIO_DSN, else the default backend. */
static const char *choose_dsn(const struct run_opts *opts)
{
    const char *env = getenv("SANDBOXIO_DSN");

    if (opts->dsn)
        return opts->dsn;
    return env && *env ? env : SBX_CLI_DEFAULT_DSN;
}

int cmd_run(int argc, char **argv)
{
    struct run_opts opts;
    sbx_client *client = NULL;
    sbx_sandbox *sandbox = NULL;
    int rc, status = run_opts_parse(&opts, argc, argv);

    if (status != 0) {
        run_opts_release(&opts);
        return status < 0 ? 0 : status;
    }
    if (sbx_cli_interrupt_install() != 0) {
        status = sbx_cli_error(SBX_E_SYSTEM, "sigaction: %m");
        goto out;
    }
    rc = sbx_client_new(&client);
    if (rc != SBX_OK) {
        status = fail(&opts, rc, "creating the client");
        goto out;
    }
    rc = sbx_sandbox_open(&sandbox, client, choose_dsn(&opts), opts.policy);
    if (rc != SBX_OK) {
        status = fail(&opts, rc, NULL);
        goto out;
    }
    status = run_in(&opts, sandbox);

    /* A sandbox that cannot be destroyed may be leaking: that outranks the command's status. */
    rc = sbx_sandbox_destroy(sandbox);
    if (rc != SBX_OK)
        status = sbx_cli_error_lib(rc, "destroying the sandbox (it may be left behind: see `sandboxio gc`)");
out:
    sbx_sandbox_free(sandbox);
    sbx_client_free(client);
    run_opts_release(&opts);
    return status;
}
