/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/lifecycle.h - sandboxes that outlive one handle: a name and a
 * TTL at open, attach from another process, detach, list, TTL changes,
 * pause and resume.
 *
 * A sandbox opened with a TTL outlives its handle once detached: any process
 * of the same user may attach to it by id or name until the backend itself
 * removes it, ttl_ms after creation (or after the last sbx_sandbox_set_ttl()),
 * whether or not a client is left. A sandbox opened without a TTL keeps the
 * rule of sbx_sandbox_open(): it dies with its handle and its owner.
 *
 * These functions need a backend of plugin ABI minor 2 with the attach
 * capability (pause and resume: the pause capability); one without is
 * refused before it is called (SBX_E2040, SBX_E2041, SBX_E3030, SBX_E3031).
 *
 * The policy a sandbox was created with is stored with it (the environment
 * variables excepted: they may hold secrets) and applies to every handle
 * attached to it; an attach never runs under a wider policy.
 */
#ifndef SANDBOXIO_LIFECYCLE_H
#define SANDBOXIO_LIFECYCLE_H

#include <sandboxio/common.h>
#include <sandboxio/client.h>
#include <sandboxio/policy.h>
#include <sandboxio/sandbox.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What sbx_sandbox_open_with() asks for besides the policy: name, TTL. */
typedef struct sbx_sandbox_opts sbx_sandbox_opts;

/** Longest sandbox name, in bytes. */
#define SBX_SANDBOX_NAME_MAX 63

/**
 * sbx_sandbox_opts_new - options with no name and no TTL. Free with
 * sbx_sandbox_opts_free(). Errors: SBX_E_INVALID_ARGUMENT, SBX_E_NOMEM.
 */
SBX_API int sbx_sandbox_opts_new(sbx_sandbox_opts **out);
/** sbx_sandbox_opts_free - NULL ignored. */
SBX_API void sbx_sandbox_opts_free(sbx_sandbox_opts *opts);
/**
 * sbx_sandbox_opts_set_name - a name unique on the backend (copied), or
 * NULL for none: 1 to 63 of [a-z0-9_.-], starting with a letter or a digit.
 * SBX_E_BAD_SANDBOX_NAME (SBX_E1040) otherwise.
 */
SBX_API int sbx_sandbox_opts_set_name(sbx_sandbox_opts *opts, const char *name);
/**
 * sbx_sandbox_opts_set_ttl - the sandbox's lifetime in milliseconds from its
 * creation; 0 (the default) = none: it dies with its handle.
 */
SBX_API int sbx_sandbox_opts_set_ttl(sbx_sandbox_opts *opts, uint64_t ttl_ms);

/**
 * sbx_sandbox_open_with - sbx_sandbox_open() with a name and a TTL. opts
 * may be NULL (= sbx_sandbox_open()). A name or a TTL needs the attach
 * capability; a name already in use fails with SBX_E_BACKEND_CONFLICT and
 * creates nothing. Errors: those of sbx_sandbox_open(), SBX_E2040,
 * SBX_E3030, SBX_E4015.
 */
SBX_API int sbx_sandbox_open_with(sbx_sandbox **out, sbx_client *client, const char *dsn,
                                  const sbx_policy *policy, const sbx_sandbox_opts *opts);

/**
 * sbx_sandbox_attach - a handle on an existing sandbox of dsn's backend,
 * found by its id or its name, made by any process of this user.
 *
 * policy may be NULL: the stored policy applies. Else it may only narrow
 * what the core enforces per command (timeout, output cap) and add the
 * environment; a control wider than the stored one is refused with
 * SBX_E_POLICY_WIDER (SBX_E3032), a sandbox-wide control (network, hosts,
 * memory, CPU, processes, disk) narrower than the sandbox was made with with
 * SBX_E_POLICY_FIXED (SBX_E3033): it cannot be tightened after creation.
 * Errors: those of sbx_sandbox_open(), SBX_E_NOT_FOUND (no such sandbox),
 * SBX_E_STORED_POLICY (SBX_E4050: the backend holds no readable policy).
 */
SBX_API int sbx_sandbox_attach(sbx_sandbox **out, sbx_client *client, const char *dsn,
                               const char *id_or_name, const sbx_policy *policy);

/**
 * sbx_sandbox_detach - free the handle and keep the sandbox: it lives on
 * until its TTL ends or a handle destroys it. Refused, with the handle left
 * as it was, for a sandbox with no TTL (it would leak):
 * SBX_E_DETACH_NO_TTL (SBX_E1041). On SBX_OK the handle is freed. A
 * destroyed handle is simply freed.
 */
SBX_API int sbx_sandbox_detach(sbx_sandbox *sandbox);

/**
 * sbx_sandbox_set_ttl - the sandbox now ends ttl_ms from now (extend or
 * shorten); 0 is refused (SBX_E_INVALID_ARGUMENT): use
 * sbx_sandbox_destroy(). A sandbox without a TTL gets one: it then
 * outlives its handle after sbx_sandbox_detach().
 */
SBX_API int sbx_sandbox_set_ttl(sbx_sandbox *sandbox, uint64_t ttl_ms);
/**
 * sbx_sandbox_pause - freeze every process of the sandbox, keeping files
 * and memory; commands are refused until sbx_sandbox_resume(). Needs the
 * pause capability (SBX_E3031).
 */
SBX_API int sbx_sandbox_pause(sbx_sandbox *sandbox);
/** sbx_sandbox_resume - thaw a paused sandbox. */
SBX_API int sbx_sandbox_resume(sbx_sandbox *sandbox);
/** The sandbox's name, "" if none. */
SBX_API const char *sbx_sandbox_name(const sbx_sandbox *sandbox);
/** When its TTL ends, Unix time in milliseconds; 0 = no TTL. */
SBX_API int64_t sbx_sandbox_expires(const sbx_sandbox *sandbox);

/** A sandbox's life state, as sbx_client_list() reports it. */
typedef enum sbx_sandbox_state {
    SBX_SANDBOX_UNKNOWN = 0,
    SBX_SANDBOX_RUNNING = 1,
    SBX_SANDBOX_PAUSED = 2,
    SBX_SANDBOX_STOPPED = 3
} sbx_sandbox_state;

/**
 * One sandbox of a backend, as sbx_client_list() gives it. The library
 * fills it in: never allocate one (members may be appended). Strings are
 * valid during the callback only.
 */
typedef struct sbx_sandbox_info {
    const char *backend;   /* the plugin's name ("docker") */
    const char *id;        /* the backend's id, as sbx_sandbox_id() gives it */
    const char *name;      /* "" if none */
    int64_t created_ms;    /* Unix time in ms; 0 = unknown */
    int64_t expires_ms;    /* Unix time in ms when its TTL ends; 0 = none */
    const char *owner;     /* the backend's owner label, "" if none */
    int state;             /* an sbx_sandbox_state */
} sbx_sandbox_info;

/** Called by sbx_client_list() for each sandbox; non-zero stops the listing. */
typedef int (*sbx_list_cb)(void *userdata, const sbx_sandbox_info *info);

/**
 * sbx_client_list - call cb for each sandbox of dsn's backend that
 * sandboxio made for this user. A listing stopped by cb returns SBX_OK.
 * Errors: DSN and plugin errors, SBX_E2040, SBX_E3030, the backend's 4xxx.
 */
SBX_API int sbx_client_list(sbx_client *client, const char *dsn, sbx_list_cb cb,
                            void *userdata);

/** The name of a state ("running"), "unknown" for any other value. */
SBX_API const char *sbx_sandbox_state_name(int state);

#ifdef __cplusplus
}
#endif
#endif
