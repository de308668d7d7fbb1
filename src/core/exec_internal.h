/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec_internal.h - the command and result objects, shared by the files of
 * one concern each: cmd.c builds a command, exec.c runs it, result.c
 * answers what happened. Not exported.
 */
#ifndef SBX_EXEC_INTERNAL_H
#define SBX_EXEC_INTERNAL_H

#include "internal.h"

struct sbx_cmd {
    sbx_strvec argv;
    sbx_strvec env;
    char *cwd;
    sbx_buf stdin_data;
    bool has_stdin;
    int stdin_fd;             /* streamed stdin (not owned); -1 = stdin_data */
    bool pty;                 /* run on a pseudo-terminal of rows x cols */
    uint16_t rows, cols;
    int resize_fd;            /* readable when the size changed (not owned); -1 = fixed */
    int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols);
    void *winsize_ud;
    uint64_t timeout_ms;
    size_t output_cap;
    bool has_output_cap;
    sbx_cancel *cancel;       /* not owned; NULL = none */
};

struct sbx_result {
    sbx_plugin_exit exit;
    sbx_buf out[2];        /* stdout, stderr */
    bool truncated[2];
    uint64_t duration_ns;
    /* Where it ran, copied: the result may outlive its sandbox and client. */
    char *backend;
    char *dsn;             /* redacted */
    int tier;
    uint64_t caps;         /* of the sandbox, as probed when it was made */
    bool streamed;         /* output went to an observer as it came */
};

/* A result that knows where it ran: backend, tier, caps and redacted DSN. NULL: no memory. */
SBX_HIDDEN sbx_result *sbx__result_new(const sbx_sandbox *sb, bool streamed);

#endif
