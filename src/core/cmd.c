/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Building a command: its argv, environment, working directory, stdin,
 * terminal, timeout, output cap and cancel. Checks that need the sandbox
 * wait for the exec (exec.c); here only the arguments themselves.
 */
#include "exec_internal.h"

#include <stdlib.h>
#include <string.h>

int sbx_cmd_new(sbx_cmd **out, const char *const *argv)
{
    if (!out || !argv || !argv[0] || !argv[0][0])
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_cmd_new: argv must hold a non-empty program name");
    sbx_cmd *cmd = sbx__calloc(1, sizeof(*cmd));
    if (!cmd)
        return SBX_E_NOMEM;
    cmd->stdin_fd = -1;
    cmd->resize_fd = -1;
    for (size_t i = 0; argv[i]; i++) {
        int rc = sbx__strvec_push(&cmd->argv, argv[i]);
        if (rc) {
            sbx_cmd_free(cmd);
            return rc;
        }
    }
    *out = cmd;
    return SBX_OK;
}

void sbx_cmd_free(sbx_cmd *cmd)
{
    if (!cmd)
        return;
    sbx__strvec_clear(&cmd->argv);
    sbx__strvec_clear(&cmd->env);
    free(cmd->cwd);
    sbx__buf_clear(&cmd->stdin_data);
    free(cmd);
}

int sbx_cmd_set_env(sbx_cmd *cmd, const char *name, const char *value)
{
    if (!cmd || !sbx__env_name_ok(name) || !value)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "environment name must be non-empty without '=', value non-NULL");
    return sbx__strvec_push_kv(&cmd->env, name, value);
}

int sbx_cmd_set_cwd(sbx_cmd *cmd, const char *cwd)
{
    if (!cmd || !cwd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cwd: NULL argument");
    char *clean = NULL;
    int rc = sbx__path_clean(cwd, true, &clean);
    if (rc)
        return rc;
    free(cmd->cwd);
    cmd->cwd = clean;
    return SBX_OK;
}

int sbx_cmd_set_cwd_abs(sbx_cmd *cmd, const char *cwd)
{
    if (!cmd || !cwd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cwd_abs: NULL argument");
    if (cwd[0] != '/')
        return sbx__error_set(SBX_E_BAD_PATH,
                              "working directory '%s' is not absolute (sbx_cmd_set_cwd() "
                              "takes one relative to the work directory)", cwd);
    /* The same cleaning as a relative one: no '..', no '.', no empty parts. */
    char *rel = NULL;
    int rc = sbx__path_clean(cwd + strspn(cwd, "/"), true, &rel);
    if (rc)
        return rc;
    size_t n = strlen(rel);
    char *clean = malloc(n + 2);
    if (!clean) {
        free(rel);
        return sbx__error_set(SBX_E_NOMEM, "out of memory");
    }
    clean[0] = '/';
    memcpy(clean + 1, rel, n + 1);
    free(rel);
    free(cmd->cwd);
    cmd->cwd = clean;
    return SBX_OK;
}

int sbx_cmd_set_stdin(sbx_cmd *cmd, const void *data, size_t len)
{
    if (!cmd || (!data && len))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_stdin: bad argument");
    sbx__buf_clear(&cmd->stdin_data);
    cmd->has_stdin = true;
    cmd->stdin_fd = -1;
    return sbx__buf_append(&cmd->stdin_data, data, len);
}

int sbx_cmd_set_stdin_fd(sbx_cmd *cmd, int fd)
{
    if (!cmd || fd < 0)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_stdin_fd: bad argument");
    sbx__buf_clear(&cmd->stdin_data);
    cmd->has_stdin = true;
    cmd->stdin_fd = fd;
    return SBX_OK;
}

int sbx_cmd_set_pty(sbx_cmd *cmd, uint16_t rows, uint16_t cols)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_pty: cmd is NULL");
    cmd->pty = true;
    cmd->rows = rows;
    cmd->cols = cols;
    return SBX_OK;
}

int sbx_cmd_set_pty_resize(sbx_cmd *cmd, int fd,
                           int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols),
                           void *userdata)
{
    if (!cmd || fd < 0 || !winsize)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_pty_resize: bad argument");
    cmd->resize_fd = fd;
    cmd->winsize = winsize;
    cmd->winsize_ud = userdata;
    return SBX_OK;
}

int sbx_cmd_set_timeout(sbx_cmd *cmd, uint64_t ms)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_timeout: cmd is NULL");
    cmd->timeout_ms = ms;
    return SBX_OK;
}

int sbx_cmd_set_output_cap(sbx_cmd *cmd, size_t bytes)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_output_cap: cmd is NULL");
    cmd->output_cap = bytes;
    cmd->has_output_cap = true;
    return SBX_OK;
}

int sbx_cmd_set_cancel(sbx_cmd *cmd, sbx_cancel *c)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cancel: cmd is NULL");
    cmd->cancel = c;
    return SBX_OK;
}
