/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_output.c - where `sandboxio run` sends the command's output: live to
 * our own stdout/stderr, or captured into one JSON object.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include <sbxu/file.h>

#include "encode.h"
#include "interrupt.h"
#include "run.h"
#include "common/error.h"
#include "common/output.h"

struct live_sink {
    int failed_errno;       /* why a write failed; 0 if none did */
    int failed_stream;
};

/* Unbuffered, so output interleaves as the command wrote it. */
static int live_output(void *userdata, int stream, const void *data, size_t len)
{
    struct live_sink *sink = userdata;

    if (sbx_cli_interrupted())
        return 1;   /* the user wants out: stop the command */
    if (sbxu_write_all(stream == SBX_STDERR ? STDERR_FILENO : STDOUT_FILENO, data, len) == 0)
        return 0;
    sink->failed_errno = errno;
    sink->failed_stream = stream;
    return 1;   /* nobody reads the output any more: stop the command */
}

static void warn_truncated(const sbx_result *result, int stream)
{
    if (sbx_result_truncated(result, stream))
        sbx_cli_error(SBX_E_EXEC_TRUNCATED, "%s was cut at the output cap (see --output-cap)",
                      stream == SBX_STDOUT ? "stdout" : "stderr");
}

/* After a run or exec: say what went wrong, or replay what was captured. */
static int finish_live(int rc, const struct live_sink *sink, const sbx_result *result)
{
    const void *data;
    size_t len;

    if (rc == SBX_E_EXEC_ABORTED && sink->failed_errno)
        sbx_cli_error(SBX_E_EXEC_ABORTED, "cannot write the command's %s: %s; it was stopped",
                      sink->failed_stream == SBX_STDERR ? "stderr" : "stdout",
                      strerror(sink->failed_errno));
    else if (rc != SBX_OK && !sbx_cli_interrupted())
        sbx_cli_error_lib(rc, NULL);
    if (rc != SBX_OK || sbx_result_streamed(result))
        return rc;

    /* No streaming on this backend: the output was captured, replay it. */
    warn_truncated(result, SBX_STDOUT);
    warn_truncated(result, SBX_STDERR);
    for (int stream = SBX_STDOUT; stream <= SBX_STDERR; stream++) {
        const char *name = stream == SBX_STDOUT ? "stdout" : "stderr";

        data = stream == SBX_STDOUT ? sbx_result_stdout(result, &len)
                                    : sbx_result_stderr(result, &len);
        if (len && sbxu_write_all(stream == SBX_STDOUT ? STDOUT_FILENO : STDERR_FILENO, data,
                                     len)) {
            sbx_cli_error(SBX_E_SYSTEM, "cannot write the command's %s: %s", name, strerror(errno));
            /* The output was lost: the command's status would hide that. */
            return SBX_E_SYSTEM;
        }
    }
    return SBX_OK;
}

int run_exec_live(sbx_client *client, const char *dsn, const sbx_policy *policy,
                  const sbx_cmd *cmd, sbx_result **result)
{
    struct live_sink sink = { 0 };

    fflush(stdout);
    /* One preparation of the backend: streamed where it can, else captured. */
    int rc = sbx_run_live(result, client, dsn, policy, cmd, live_output, &sink);
    return finish_live(rc, &sink, *result);
}

int run_exec_in(sbx_sandbox *sandbox, const sbx_cmd *cmd, sbx_result **result)
{
    struct live_sink sink = { 0 };
    /* Streamed where the backend can, else captured: the library chooses. */
    sbx_exec_opts opts = { SBX_EXEC_OPTS_VERSION, SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE,
                           live_output, &sink };

    fflush(stdout);
    return finish_live(sbx_exec_ext(result, sandbox, cmd, &opts), &sink, *result);
}

int run_status_of(const sbx_result *result)
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

void run_note_stdin_auto(void)
{
    fputs("  (stdin is a pipe or a file, so it is passed on; run with </dev/null to leave it)\n",
          stderr);
}
