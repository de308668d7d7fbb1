/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One-shot runs (the plugin's run, sbx_run()): the command is the
 * container's own process, under the same exec wrapper, instead of an exec
 * into a keep-alive container. That saves the exec round trips and runc's
 * entry into a running container; the container has the same hardening,
 * labels and limits as an open's, and is removed with its volume whatever
 * happened.
 * A command on a terminal runs as an exec in a sandbox opened for it: the
 * engine resizes an exec's terminal as the exec path does it, once the
 * wrapper runs; one interactive run can afford the extra round trips.
 */
#include "docker.h"

static int run_on_terminal(void *state, const sbx_plugin_dsn *dsn,
                           const sbx_plugin_limits *limits, const sbx_plugin_cmd *cmd,
                           const sbx_plugin_io *io, sbx_plugin_exit *exit_out)
{
    void *sb;
    int rc = dk_open(state, dsn, limits, &sb);
    if (rc)
        return rc;
    rc = dk_exec(sb, cmd, io, exit_out);
    int removed = dk_destroy(sb);
    return removed ? removed : rc;
}

int dk_run(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
           const sbx_plugin_cmd *cmd, const sbx_plugin_io *io, sbx_plugin_exit *exit_out)
{
    dk_state *st = state;
    int rc = dk_exec_refuse_program(st->host, cmd);
    if (rc)
        return rc;
    if (dk_cmd_pty(cmd))
        return run_on_terminal(state, dsn, limits, cmd, io, exit_out);
    dk_process proc = {
        .cmd = cmd,
        .stdin_attached = io && SBX_STRUCT_HAS(io, input) && io->input,
    };
    dk_sandbox *sb;
    rc = dk_sandbox_create(state, dsn, limits, &proc, NULL, &sb);
    if (rc)
        return rc;
    rc = dk_exec_oneshot(sb, cmd, io, exit_out);
    int removed = dk_container_remove(&sb->conn, sb->id);
    /* One retry for a dropped connection, as destroy does. */
    if (removed == SBX_E_BACKEND_TRANSPORT)
        removed = dk_container_remove(&sb->conn, sb->id);
    dk_sandbox_free(sb);
    /* A container left behind outranks the command's result (gc finds it by its labels). */
    return removed ? removed : rc;
}
