/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_ready.h - `sandboxio run`'s ready sandbox: a run takes a sandbox made
 * ahead of time for the same user, DSN, policy and build, runs its command
 * there, and leaves to a process of its own in the background the making
 * of a fresh sandbox (a short TTL) and the teardown of the one it used
 * (whose command, and all it started, have ended). No daemon: the sandboxes are the backend's
 * detached ones (sbx_sandbox_open_with() with a TTL), and what says which
 * one is ready for what is a file per sandbox in a private directory.
 *
 * The directory is `ready/` in the local backend's runtime directory (the
 * one of its sockets and records: $SANDBOXIO_LOCAL_RUNDIR, else
 * /run/sandboxio for root, else $XDG_RUNTIME_DIR/sandboxio, else
 * $HOME/.cache/sandboxio/run), made 0700 and used only if it is the
 * caller's with mode 0700. Its entries:
 *
 *   r.KEY.EXPIRES.ID  ready: sandbox ID, made for KEY (16 hex digits of a
 *                     hash of the key text, which the file holds in full),
 *                     ending at EXPIRES (Unix ms)
 *   c.ID.PID          claimed by run PID (renamed from r.*: one rename, so
 *                     two runs never take the same sandbox)
 *   p.KEY.N           slot N (0, 1) of KEY: a sandbox being made by process
 *                     PID (the file's text); at most READY_MAX (2) of a key
 *                     are ready or being made at once
 *   t.PID             the r.* file being written by PID
 *
 * Only local:// takes part (see docs/performance.md): its detached
 * sandboxes outlive the process that made them and its attach is a local
 * socket. Off with `run --fresh` or SANDBOXIO_RUN_READY=0.
 */
#ifndef SBX_CLI_RUN_READY_H
#define SBX_CLI_RUN_READY_H

#include <stddef.h>
#include <stdint.h>
#include <sandboxio/sandboxio.h>

/* The ready sandboxes' TTL unless SANDBOXIO_RUN_READY_TTL says otherwise. */
#define RUN_READY_TTL_MS 30000

struct run_ready {
    int dirfd;              /* the ready directory, -1 while it does not exist */
    char *key;              /* the key text */
    char hash[17];          /* its hash, 16 hex digits */
    const char *dsn;        /* borrowed */
    const sbx_policy *policy;   /* borrowed */
    char claim[96];         /* c.ID.PID of the sandbox taken, "" if none */
};

/*
 * Set rr up for a run of policy on dsn, if the ready path applies: not
 * turned off by SANDBOXIO_RUN_READY=0, a local:// DSN, a key built.
 * Returns 1 when it does (rr needs run_ready_end()), 0 when not.
 */
int run_ready_begin(struct run_ready *rr, sbx_client *client, const char *dsn,
                    const sbx_policy *policy);
/*
 * Claim a ready sandbox of rr's key and attach to it under rr's policy;
 * ready ones that are gone or ending are cleared on the way. 1 with *out
 * set, 0 when there is none (the caller makes one as it would have).
 */
int run_ready_take(struct run_ready *rr, sbx_client *client, sbx_sandbox **out);
/*
 * After the run: when leave is set, start a process of its own in the
 * background that makes one fresh sandbox of rr's key (unless one is ready
 * or being made) and then destroys taken, the sandbox the command ran in
 * (if any; its command and all it started have ended by now); otherwise
 * destroy taken here. Then release rr. SBX_OK, or the error of a destroy
 * made here (reported).
 */
int run_ready_end(struct run_ready *rr, sbx_sandbox *taken, int leave);

/*
 * `gc`: destroy every ready sandbox, every claimed one whose run is gone,
 * and clear the files of makers that died; report(ud, id, reason) for each
 * sandbox. Adds their number to *removed. An SBX code.
 */
int run_ready_sweep(sbx_client *client, const char *dsn,
                    int (*report)(void *ud, const char *id, const char *reason), void *ud,
                    size_t *removed);

#endif
