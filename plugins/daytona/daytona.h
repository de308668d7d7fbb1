/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal declarations of the daytona backend: sandboxes are Daytona
 * sandboxes, driven through Daytona's control-plane REST API and the
 * toolbox API of the daemon inside each sandbox (reached through the
 * proxy at toolboxProxyUrl/{sandboxId}). Nothing here is exported;
 * docs/backends/daytona.md says what each capability maps to.
 *
 * Files by concern:
 *   plugin.c    the descriptor
 *   endpoint.c  where Daytona is: the DSN, DAYTONA_API_URL, the options
 *   api.c       the control plane: the kit's table, credentials, the
 *               list by label (gc and ping are the kit's: lib/sbxu/remote.h)
 *   sandbox.c   create (and the wait until started), delete, the id
 *   toolbox.c   the daemon through the proxy: its session, calls, errors
 *   quote.c     argv as a command line for the daemon's shell
 *   exec.c      a command: a session of its own, the wrapper, stdin, the
 *               timeout, output chunks, the exit report
 *   wrapper.c   the Perl program a command runs in
 *   files.c     files streamed both ways, list, mkdir, remove
 *   logdemux.c  a session command's log: stdout and stderr apart by the
 *               daemon's line markers, fed as it grows (unit-tested, not
 *               linked: the log cannot carry exact output, see exec.c)
 *   policy.c    the policy's limits as members of the create request,
 *               fail-closed where Daytona cannot express them exactly
 *   lifecycle.c waiting for a created sandbox to start
 */
#ifndef SBX_DAYTONA_H
#define SBX_DAYTONA_H

#include "config.h"

#include <pthread.h>
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

/* --- the backend ------------------------------------------------------------ */

#include <sbxu/buf.h>
#include <sbxu/http.h>
#include <sbxu/http_pool.h>
#include <sbxu/json.h>
#include <sbxu/remote.h>

#define DAYTONA_NAME "daytona"
#define DAYTONA_VERSION PACKAGE_VERSION
#define DAYTONA_URL_MAX 512
/* Daytona's control plane when neither the DSN nor DAYTONA_API_URL names one. */
#define DAYTONA_DEFAULT_API "https://app.daytona.io/api"

/* endpoint.c: a DSN resolved. */
typedef struct daytona_endpoint {
    char *snapshot;                 /* snapshot=NAME, "" for Daytona's default */
    char *image;                    /* image=REF: built from "FROM REF" instead */
    char *target;                   /* target=REGION, "" for the organisation's default */
    uint64_t ttl_s;                 /* ttl=SECONDS: ttlMinutes, the sandbox's longest life */
    uint64_t start_s;               /* start_timeout=SECONDS: the wait for `started` */
    char api_url[DAYTONA_URL_MAX];  /* no final '/' */
} daytona_endpoint;

/*
 * daytona_endpoint_parse - ep from the DSN and the environment. SBX_OK, or
 * SBX_E_DSN_BAD_AUTHORITY, SBX_E_DSN_UNKNOWN_OPTION,
 * SBX_E_DSN_BAD_OPTION_VALUE (both snapshot and image, a bad value),
 * SBX_E_INSECURE_ENDPOINT (http:// to an address not loopback).
 */
int daytona_endpoint_parse(daytona_endpoint *ep, const sbx_host *host, const sbx_plugin_dsn *dsn);
void daytona_endpoint_clear(daytona_endpoint *ep);
/* An http(s) URL checked as above (what names it in messages) into out, less a final '/'. */
int daytona_url_check(const sbx_host *host, const char *what, const char *value, char *out,
                      size_t size);

/*
 * The plugin's state is the kit's (sbxu_remote_state, sbxu/remote.h), its
 * table sbxu_remote_this_backend (api.c). HTTP sessions are the plugin's,
 * not a sandbox's: every call, to the control plane or to a sandbox's
 * toolbox (all behind one proxy), takes an idle session of its endpoint
 * and credentials from the pool and gives it back, so an open sandbox
 * holds no connection of its own.
 */

/* api.c: the control plane for one DSN. */
typedef struct daytona_api {
    sbxu_remote_api r;               /* first: the kit's calls take it */
    daytona_endpoint ep;
    char auth[512];                 /* "Authorization: Bearer ..." */
    char org[160];                  /* "X-Daytona-Organization-ID: ..." or "" */
    const char *headers[3];
} daytona_api;

/* Opened by sbxu_remote_api_open(); credentials from the environment: DAYTONA_API_KEY,
 * else DAYTONA_JWT_TOKEN and DAYTONA_ORGANIZATION_ID. */
void daytona_api_clear(void *api);

/* sandbox.c, toolbox.c */
typedef struct daytona_sandbox {
    sbxu_remote_sandbox kit;              /* first: the kit's file members find files.c's table there */
    const sbx_host *host;
    daytona_api api;
    char id[64];
    char toolbox_base[DAYTONA_URL_MAX];  /* toolboxProxyUrl; calls go to its /{id} */
    char home[256];                      /* the daemon's work dir */
    unsigned long counter;               /* names of exec sessions */
    pthread_mutex_t lock;                /* ended, n_ended */
    /* Sessions of execs that ended, to delete before the next exec (exec.c). */
#define DAYTONA_ENDED_MAX 8
    char ended[DAYTONA_ENDED_MAX][64];
    size_t n_ended;
} daytona_sandbox;

int daytona_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                 void **sandbox);
int daytona_destroy(void *sandbox);
const char *daytona_sandbox_id(void *sandbox);
bool daytona_id_ok(const char *id);
/* Whether the control plane still knows the sandbox (false after a delete or its TTL). */
#define daytona_sandbox_alive(sb) sbxu_remote_alive(&(sb)->api.r, (sb)->id)

/* The sandbox's toolbox is at proxy_url (its toolboxProxyUrl, checked) + /{id}. */
int daytona_toolbox_open(daytona_sandbox *sb, const char *proxy_url);
/*
 * daytona_tb_send - rq (its path after /{sandboxId}) to the daemon, on a
 * session from the plugin's pool held for the call: sbxu_http_send()'s
 * answer and codes.
 */
int daytona_tb_send(daytona_sandbox *sb, const sbxu_http_request *rq, sbxu_http_response *rs);
/*
 * daytona_tb_call - a JSON call to the daemon (path after /{sandboxId});
 * its answer in *out (may be NULL). Errors keep the daemon's message.
 */
int daytona_tb_call(daytona_sandbox *sb, const char *method, const char *path, const char *body,
                    int retry, const char *context, json_object **out, long *status);
/* The error for a failed toolbox answer (status, its body), Daytona's message kept. */
int daytona_tb_fail(daytona_sandbox *sb, long status, const char *body, size_t len,
                    const char *context);
/* "PREFIX?name=<path escaped>" (or "&name=" after a query) into out. */
int daytona_tb_path(daytona_sandbox *sb, char *out, size_t size, const char *prefix,
                    const char *name, const char *value);
/* Run a shell command line with /process/execute; its merged output in out (capped). */
int daytona_shell(daytona_sandbox *sb, const char *command, sbxu_buf *out, int *exit_code);
/* wrapper.c: the Perl program a command runs in; its arguments: the
 * output dir, 1 if stdin comes, cwd, PATH, the count of K=V words, those,
 * then argv. */
extern const char daytona_wrapper[];

/* quote.c: the command line that runs argv, each word single-quoted. NULL: out of memory. */
char *daytona_quote_argv(const char *const *argv);

/* exec.c */
int daytona_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                 sbx_plugin_exit *exit_out);

/* files.c: the kit's file members (sbxu/remote.h) on the toolbox's /files. */
extern const sbxu_remote_fs daytona_fs;

/* The exec wrapper's state, from its status (status.c). */
enum {
    DAYTONA_S_RUNNING,
    DAYTONA_S_EXIT,
    DAYTONA_S_SIGNAL,
    DAYTONA_S_NOCWD,
    DAYTONA_S_NOEXEC,
    DAYTONA_S_NOPERM,
};
/*
 * daytona_status_parse - the status's text[0..len): 0 with *status
 * (not DAYTONA_S_RUNNING) and *value (the exit code or signal, else 0), or
 * -1 for anything garbled. text need not be NUL-terminated.
 */
int daytona_status_parse(const char *text, size_t len, int *status, int *value);

#endif
