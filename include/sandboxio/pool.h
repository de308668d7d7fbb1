/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/pool.h - a warm pool: sandboxes of one DSN and policy kept
 * ready, so that a run costs an exec, not a create.
 *
 * A pool keeps up to its size of sandboxes open, made by a thread of its
 * own. Taking one hands it over for good: the pool makes a fresh one in its
 * place and never sees the taken one again, so a sandbox a command ran in
 * is never handed out twice. The sandboxes still in the pool are destroyed
 * with it; like every sandbox, they die with the process that opened them
 * (a killed process leaves none behind, as the backend's owner rules say).
 *
 * Thread-safety: every function but sbx_pool_free() may be called from
 * several threads at once.
 */
#ifndef SANDBOXIO_POOL_H
#define SANDBOXIO_POOL_H

#include <sandboxio/common.h>
#include <sandboxio/exec.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_pool sbx_pool;

/**
 * sbx_pool_new - a pool of size (1 or more) sandboxes of dsn and policy
 * (NULL = defaults; copied), filled in the background from now on. The DSN
 * and policy are checked here as sbx_sandbox_open() checks them, so a
 * policy the backend cannot guarantee fails now, not at the first take.
 * client must outlive the pool. Free with sbx_pool_free().
 * Errors: SBX_E_INVALID_ARGUMENT, those of sbx_client_probe() and of the
 * policy check (3xxx), SBX_E_NOMEM, SBX_E_SYSTEM (no thread).
 */
SBX_API int sbx_pool_new(sbx_pool **out, sbx_client *client, const char *dsn,
                         const sbx_policy *policy, size_t size);

/**
 * sbx_pool_take - a ready sandbox, now the caller's (free it with
 * sbx_sandbox_free()); when none is ready, one is opened on the spot. Either
 * way a fresh one is made in the background to take its place.
 * Errors: those of sbx_sandbox_open().
 */
SBX_API int sbx_pool_take(sbx_pool *pool, sbx_sandbox **out);

/**
 * sbx_pool_run - sbx_run() from the pool: take a sandbox, run cmd in it as
 * sbx_exec() does, destroy it. Returns SBX_OK when the command ran, whatever
 * its exit status; a failed destroy outranks the command's result as in
 * sbx_run().
 */
SBX_API int sbx_pool_run(sbx_result **out, sbx_pool *pool, const sbx_cmd *cmd);

/**
 * sbx_pool_retire - hand back a sandbox taken from pool, done with: the
 * pool's thread destroys it in the background (before it makes the next
 * one), so the caller does not wait for the destroy. It is never handed
 * out again. Any use of sandbox afterwards is undefined; sbx_pool_free()
 * destroys those not yet destroyed. NULL sandbox is ignored.
 */
SBX_API void sbx_pool_retire(sbx_pool *pool, sbx_sandbox *sandbox);

/** sbx_pool_ready - how many sandboxes are ready right now. */
SBX_API size_t sbx_pool_ready(sbx_pool *pool);

/**
 * sbx_pool_free - stop filling, wait for a create under way, destroy the
 * ready sandboxes, free the pool. Sandboxes taken are not affected. NULL is
 * ignored.
 */
SBX_API void sbx_pool_free(sbx_pool *pool);

#ifdef __cplusplus
}
#endif
#endif
