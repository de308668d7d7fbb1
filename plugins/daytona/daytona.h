/*
 * Internal declarations of the daytona backend: sandboxes are Daytona
 * sandboxes, driven through Daytona's control-plane REST API and the
 * toolbox API of the daemon inside each sandbox (reached through the
 * proxy at toolboxProxyUrl/{sandboxId}). Nothing here is exported. The
 * backend is being built; docs/backends/daytona.md says what it will map
 * each capability to.
 *
 * Files by concern:
 *   logdemux.c  a session command's log: stdout and stderr apart by the
 *               daemon's line markers, fed as it grows
 *   policy.c    the policy's limits as members of the create request,
 *               fail-closed where Daytona cannot express them exactly
 *   lifecycle.c waiting for a created sandbox to start
 */
#ifndef SBX_DAYTONA_H
#define SBX_DAYTONA_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/plugin.h>

/* --- logdemux.c ------------------------------------------------------------ */

/*
 * The daemon labels each line of a session command's output with three
 * bytes, \x01\x01\x01 for stdout and \x02\x02\x02 for stderr, into one log
 * (daemon pkg/session/execute.go); a client takes the log's new bytes as it
 * grows and splits them. A marker may be cut between two feeds, so up to
 * two bytes that could start one are held back. Bytes before the first
 * marker belong to neither stream and are dropped, as the daemon's own
 * demultiplexer drops them.
 */
#define DAYTONA_MARKER_LEN 3

typedef struct daytona_demux {
    int stream;               /* 0 before the first marker, else SBX_STDOUT / SBX_STDERR */
    unsigned char pend;       /* 1 or 2: the byte of a marker that may be starting */
    size_t pend_n;            /* how many of it came (0..2), not given out yet */
    unsigned char buf[4096];  /* output of the current stream, not given out yet */
    size_t buf_len;
    int (*out)(void *ud, int stream, const void *data, size_t len);
    void *ud;
} daytona_demux;

void daytona_demux_init(daytona_demux *d, int (*out)(void *ud, int stream, const void *data,
                                                     size_t len), void *ud);
/* Feed the log's next bytes: SBX_OK, or the callback's non-zero return. */
int daytona_demux_feed(daytona_demux *d, const void *data, size_t len);
/* At the log's end: give out the bytes held back. */
int daytona_demux_finish(daytona_demux *d);

/* --- policy.c --------------------------------------------------------------- */

/* Daytona's units: whole CPU cores, memory and disk in whole GiB. */
#define DAYTONA_GIB (UINT64_C(1) << 30)
/* The most entries of networkAllowList (API network-validation.util.ts). */
#define DAYTONA_ALLOW_MAX 10

/*
 * daytona_policy_body - add to body (a create request, CreateSandbox) the
 * members that enforce limits: networkBlockAll for no network (and for an
 * empty allowlist), networkAllowList (IPv4 CIDRs; an address is a /32) for
 * an allowlist, cpu, memory and disk. An open network adds nothing.
 * Fail-closed: SBX_E_POLICY_NETWORK_ALLOWLIST for an allowlist entry
 * Daytona cannot enforce (a name, a port, IPv6, more than
 * DAYTONA_ALLOW_MAX), SBX_E_POLICY_MEMORY / SBX_E_POLICY_CPU /
 * SBX_E_POLICY_DISK for a limit its units would round up (a larger limit
 * is not the one asked for), SBX_E_POLICY_PIDS for a process limit, which
 * Daytona has not; a limit the core only defaulted (limits->defaulted) is
 * left out instead, and logged. SBX_E_NOMEM when the body cannot grow.
 * The detail goes through host->set_error.
 */
int daytona_policy_body(json_object *body, const sbx_host *host, const sbx_plugin_limits *limits);

/* --- lifecycle.c ------------------------------------------------------------ */

/* daytona_start_state's answer for a sandbox still on its way to `started`. */
#define DAYTONA_STARTING 1

/*
 * daytona_start_state - what a sandbox record (GET /sandbox/{id}) says of a
 * create waited for; its state is copied to state. SBX_OK: `started`;
 * DAYTONA_STARTING: still on its way (creating, starting, pulling the
 * snapshot, ...); SBX_E_BACKEND_FAILED for any other state (error,
 * build_failed, stopped, destroyed, ...), with Daytona's errorReason;
 * SBX_E_BACKEND_PROTOCOL for a record without a state.
 */
int daytona_start_state(json_object *record, const sbx_host *host, char *state, size_t state_size);
/*
 * daytona_start_timeout - SBX_E_BACKEND_START_TIMEOUT for a sandbox that
 * was still `state` when the wait's bound (waited_ms) passed, with
 * Daytona's reason if it gave one.
 */
int daytona_start_timeout(const sbx_host *host, const char *id, const char *state,
                          const char *reason, uint64_t waited_ms);

#endif
