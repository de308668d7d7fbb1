/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/sandbox.h - open, inspect and destroy a sandbox.
 *
 * A sandbox is a long-lived isolated environment: many execs share it, and
 * files persist between them, until it is destroyed.
 *
 * Thread-safety: sbx_exec(), sbx_exec_stream() and the sbx_file_*() functions
 * may run concurrently on one sandbox. sbx_sandbox_destroy() and
 * sbx_sandbox_free() must not run concurrently with any other use of it.
 */
#ifndef SANDBOXIO_SANDBOX_H
#define SANDBOXIO_SANDBOX_H

#include <sandboxio/common.h>
#include <sandboxio/client.h>
#include <sandboxio/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_sandbox sbx_sandbox;

/**
 * sbx_sandbox_open - parse dsn, load its plugin, check policy against what the
 * backend can guarantee, then create the sandbox.
 *
 * policy may be NULL for the defaults of sbx_policy_new() (network none!).
 * The policy is copied: it may be freed once this returns. A policy the
 * backend cannot guarantee fails with SBX_E3xxx and creates nothing.
 * Errors: any DSN error (1xxx), plugin error (2xxx), policy refusal (3xxx),
 * backend error (4xxx), SBX_E_NOMEM.
 */
SBX_API int sbx_sandbox_open(sbx_sandbox **out, sbx_client *client, const char *dsn,
                             const sbx_policy *policy);

/**
 * sbx_sandbox_destroy - destroy the backend's sandbox and everything in it.
 * Idempotent: a second call returns SBX_OK. Any other use of the handle
 * afterwards fails with SBX_E_SANDBOX_DESTROYED. The handle stays valid until
 * sbx_sandbox_free().
 */
SBX_API int sbx_sandbox_destroy(sbx_sandbox *sandbox);

/** sbx_sandbox_free - destroy (if not yet done) and free the handle. NULL ignored. */
SBX_API void sbx_sandbox_free(sbx_sandbox *sandbox);

/** Capabilities in force for this sandbox (SBX_CAP_* bits). */
SBX_API uint64_t sbx_sandbox_caps(const sbx_sandbox *sandbox);
/** Isolation tier of this sandbox (an sbx_tier). */
SBX_API int sbx_sandbox_tier(const sbx_sandbox *sandbox);
/** Name of the plugin serving it ("local"). */
SBX_API const char *sbx_sandbox_backend(const sbx_sandbox *sandbox);
/** The backend's id for it (container id...), or "" if the backend has none. */
SBX_API const char *sbx_sandbox_id(const sbx_sandbox *sandbox);
/** The DSN it was opened with, redacted. */
SBX_API const char *sbx_sandbox_dsn(const sbx_sandbox *sandbox);

#ifdef __cplusplus
}
#endif
#endif
