/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/sandboxio.h - the public API of libsandboxio, all in one include.
 *
 *     sbx_client *c; sbx_sandbox *sb; sbx_cmd *cmd; sbx_result *r;
 *     const char *argv[] = { "echo", "hello", NULL };
 *     sbx_client_new(&c);
 *     sbx_sandbox_open(&sb, c, "local://", NULL);
 *     sbx_cmd_new(&cmd, argv);
 *     sbx_exec(&r, sb, cmd);
 *     ... sbx_result_stdout(r, &len) ...
 *     sbx_result_free(r); sbx_cmd_free(cmd); sbx_sandbox_free(sb); sbx_client_free(c);
 */
#ifndef SANDBOXIO_SANDBOXIO_H
#define SANDBOXIO_SANDBOXIO_H

#include <sandboxio/common.h>
#include <sandboxio/errors.h>
#include <sandboxio/caps.h>
#include <sandboxio/policy.h>
#include <sandboxio/dsn.h>
#include <sandboxio/client.h>
#include <sandboxio/sandbox.h>
#include <sandboxio/lifecycle.h>
#include <sandboxio/exec.h>
#include <sandboxio/files.h>
#include <sandboxio/native.h>
#include <sandboxio/pool.h>

#endif
