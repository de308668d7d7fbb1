/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal declarations of the e2b backend: sandboxes are E2B sandboxes,
 * driven through E2B's control-plane REST API and envd's Connect RPC (JSON
 * encoding over HTTP/1.1). Nothing here is exported; docs/backends/e2b.md
 * says what each capability maps to.
 *
 * Files by concern:
 *   plugin.c    the descriptor
 *   sandbox.c   open (create), destroy (kill), the sandbox's id
 *   lifecycle.c open_named, attach, detach, list, set_ttl, pause, resume
 *   api.c       the control plane: the kit's table, the key, the list
 *               by label (gc and ping are the kit's: lib/sbxu/remote.h)
 *   rpc.c       envd: its session, unary Connect calls, their errors
 *   stream.c    process.Process/Start as a server stream, driven by hand
 *   exec.c      a command: stdin, the timeout, the exit report
 *   exec_wrapper.c  the shell wrapper each command runs in
 *   files.c     /files streamed both ways, and the filesystem RPCs
 *   envelope.c  Connect's server-streaming body: 5-byte envelopes, the
 *               end-of-stream frame and its error
 *   process_end.c  envd's end event of a command as an exit report
 *   endpoint.c  where E2B is: the DSN, E2B_DOMAIN, E2B_API_URL, E2B_SANDBOX_URL
 */
#ifndef SBX_E2B_H
#define SBX_E2B_H

#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/common.h>
#include <sandboxio/plugin.h>

/* --- envelope.c ------------------------------------------------------------ */

/* Connect envelope flags (connect protocol, "Streaming RPCs"). */
#define E2B_ENV_COMPRESSED 0x01u
#define E2B_ENV_END_STREAM 0x02u
/* The largest message accepted: envd's data events are far smaller. */
#define E2B_ENV_MAX_MESSAGE (16u * 1024 * 1024)

/*
 * A decoder of a Connect server stream: each envelope is a flags byte, a
 * big-endian uint32 length and that many bytes of JSON. A read may end
 * anywhere, so the decoder keeps the partial header and message. Each whole
 * message goes to on_message; the end-of-stream message (flag 0x02) to
 * on_end. A non-zero return of a callback stops the feed and is returned.
 */
typedef struct e2b_envelope {
    unsigned char hdr[5];
    size_t hdr_len;
    uint8_t flags;
    uint32_t need;         /* bytes of the current message still to come */
    char *msg;
    size_t msg_len, msg_cap;
    bool in_message;
    bool ended;            /* the end-of-stream message was read */
    const char *why;       /* static reason of a protocol error */
    int (*on_message)(void *ud, const char *json, size_t len);
    int (*on_end)(void *ud, const char *json, size_t len);
    void *ud;
} e2b_envelope;

void e2b_envelope_init(e2b_envelope *e, int (*on_message)(void *ud, const char *json, size_t len),
                       int (*on_end)(void *ud, const char *json, size_t len), void *ud);
/* Feed bytes of the body: SBX_OK, a callback's code, or SBX_E_BACKEND_PROTOCOL (e->why). */
int e2b_envelope_feed(e2b_envelope *e, const void *data, size_t len);
/* At the body's end: SBX_OK only after a whole end-of-stream message. */
int e2b_envelope_finish(e2b_envelope *e);
void e2b_envelope_clear(e2b_envelope *e);

/*
 * The end-of-stream message's error, if any: {} is none (*has_error false);
 * {"error":{"code":"...","message":"..."}} gives both (truncated to fit,
 * message may be absent). SBX_OK, or SBX_E_BACKEND_PROTOCOL for anything
 * else (not JSON, an error without a code).
 */
int e2b_end_error(const char *json, size_t len, bool *has_error, char *code, size_t code_size,
                  char *message, size_t message_size);

/* --- process_end.c ------------------------------------------------------------ */

/*
 * e2b_process_end - fill x (exited, exit_code, signal) from envd's end
 * event `end` ({"exitCode","exited","status"}). SBX_OK, or
 * SBX_E_BACKEND_PROTOCOL when the event says neither an exit code in
 * 0..255 nor a signal Go would name. timed_out and oom_killed are left.
 */
int e2b_process_end(json_object *end, sbx_plugin_exit *x);

/* --- endpoint.c ---------------------------------------------------------------- */

#define E2B_URL_MAX 512
#define E2B_ENVD_PORT 49983

/* A DSN resolved: its options, and where the control plane and envd are. */
typedef struct e2b_endpoint {
    char *template_id;             /* template=ID or alias (default "base") */
    uint64_t timeout_s;            /* timeout=SECONDS: the sandbox's life (default 300) */
    char domain[E2B_URL_MAX / 2];  /* the authority, E2B_DOMAIN, or "e2b.app" */
    char api_url[E2B_URL_MAX];     /* no final '/' */
    char sandbox_url[E2B_URL_MAX]; /* E2B_SANDBOX_URL, or "" for 49983-<id>.<domain> */
} e2b_endpoint;

/*
 * e2b_endpoint_parse - ep from the DSN and the environment. SBX_OK, or:
 * SBX_E_DSN_BAD_AUTHORITY (a bad domain, a path, a URL that is not
 * http(s)), SBX_E_DSN_UNKNOWN_OPTION / SBX_E_DSN_BAD_OPTION_VALUE,
 * SBX_E_INSECURE_ENDPOINT (http:// to an address not loopback); the detail
 * through host->set_error. Free with e2b_endpoint_clear().
 */
int e2b_endpoint_parse(e2b_endpoint *ep, const sbx_host *host, const sbx_plugin_dsn *dsn);
/* e2b_endpoint_envd_url - envd's base URL for a sandbox into out. */
int e2b_endpoint_envd_url(char *out, size_t size, const e2b_endpoint *ep, const char *sandbox_id);
void e2b_endpoint_clear(e2b_endpoint *ep);


/* --- the backend ---------------------------------------------------------------- */

#include <sbxu/http.h>
#include <sbxu/http_pool.h>
#include <sbxu/json.h>
#include <sbxu/remote.h>

#define E2B_NAME "e2b"
#define E2B_VERSION PACKAGE_VERSION
/* The E2B user's home: the sandbox's work dir (envd resolves relative paths there). */
#define E2B_HOME "/home/user"

/* The control plane for one DSN: its endpoint and the key. */
typedef struct e2b_api {
    sbxu_remote_api r;              /* first: the kit's calls take it */
    e2b_endpoint ep;
    char key_header[256];
    const char *headers[2];
} e2b_api;

typedef struct e2b_sandbox {
    sbxu_remote_sandbox kit;     /* first: the kit's file members find files.c's table there */
    const sbx_host *host;
    e2b_api api;
    char id[64];
    char envd_url[E2B_URL_MAX];
    char token_header[160];
    char id_header[96];
    const char *envd_headers[3];
    sbxu_http envd;              /* unary RPCs and /files; exec streams have their own handles */
    uint64_t ttl_ms;            /* 0: dies with its handle */
    char *name, *policy;        /* as attach() found them, or NULL */
} e2b_sandbox;

/* api.c */
/* The plugin's state is the kit's (sbxu_remote_state); its table is sbxu_remote_this_backend. */
void e2b_api_clear(void *api);
/* A sandbox's name (open_named), and the core's policy it was made with. */
#define E2B_LABEL_NAME "io.sandboxio.name"
#define E2B_LABEL_POLICY "io.sandboxio.policy"

/* rpc.c */
int e2b_envd_open(e2b_sandbox *sb, const char *token);
/*
 * e2b_rpc - a unary Connect call (JSON) to envd: "filesystem.Filesystem/Stat"
 * with body; its answer in *out (may be NULL). Connect errors are mapped by
 * e2b_connect_code(), keeping envd's message.
 */
int e2b_rpc(e2b_sandbox *sb, const char *method, const char *body, bool idempotent,
            const char *context, json_object **out);
/* The code for a Connect error code ("not_found", ...). */
int e2b_connect_code(const char *code);
/* The code when envd's URL failed: the sandbox is gone (502 from E2B's proxy) or not. */
int e2b_envd_fail(e2b_sandbox *sb, long status, const char *body, const char *context);

/* stream.c */
typedef struct e2b_stream_ops {
    /* A start event's pid, then data events (stream 1 or 2), then the end event. */
    int (*start)(void *ud, uint32_t pid);
    int (*data)(void *ud, int stream, const void *data, size_t len);
    int (*end)(void *ud, json_object *end);
    /* Called between transfers (at least every poll_ms): non-zero stops the stream. */
    int (*tick)(void *ud);
    void *ud;
    int cancel_fd;               /* -1, or a descriptor polled with the stream */
    long poll_ms;                /* 0: 1000 */
} e2b_stream_ops;
/*
 * e2b_start - run process.Process/Start with the JSON body and drive its
 * stream until the end-of-stream frame. SBX_OK only after a whole stream;
 * a callback's code; SBX_E_BACKEND_PROTOCOL for a cut stream or a bad
 * message; the end frame's error mapped.
 */
int e2b_start(e2b_sandbox *sb, const char *body, uint64_t timeout_ms, const e2b_stream_ops *ops);
/* Run argv (no shell, cwd = the home) and collect its stdout (capped at 64 KiB). */
int e2b_run_quiet(e2b_sandbox *sb, const char *const *argv, sbxu_buf *out, sbx_plugin_exit *x);

/* exec_wrapper.c: the script of `/bin/sh -c SCRIPT sh N CWD PATH K=V... PROGRAM
 * ARGS...`; its first stderr line is "\001sbx-pid N" (the command's session)
 * or why the program did not start. */
extern const char e2b_exec_wrapper[];

/* exec.c */
int e2b_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
             sbx_plugin_exit *exit_out);

/* files.c: the kit's file members (sbxu/remote.h) on envd's /files and filesystem RPCs. */
extern const sbxu_remote_fs e2b_fs;

/* sandbox.c */
/* A handle with its control-plane session, no sandbox yet. */
int e2b_sandbox_new(e2b_sandbox **out, sbxu_remote_state *st, const sbx_plugin_dsn *dsn);
void e2b_sandbox_free(e2b_sandbox *sb);
bool e2b_id_ok(const char *id);
/* DELETE /sandboxes/{id}; one already gone is no failure. */
int e2b_kill(e2b_sandbox *sb);
/* open() with a name, a TTL and the policy (opts may be NULL: open()). */
int e2b_open_with(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  const sbx_plugin_sandbox_opts *opts, void **sandbox);
int e2b_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
             void **sandbox);
int e2b_destroy(void *sandbox);
const char *e2b_sandbox_id(void *sandbox);
/* Whether the control plane still knows the sandbox (false after its TTL or a kill). */
#define e2b_sandbox_alive(sb) sbxu_remote_alive(&(sb)->api.r, (sb)->id)

/* lifecycle.c: ABI minor 2 */
int e2b_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                   const sbx_plugin_sandbox_opts *opts, void **sandbox);
int e2b_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name, void **sandbox,
               sbx_plugin_sandbox_info *info);
int e2b_detach(void *sandbox);
int e2b_list(void *state, const sbx_plugin_dsn *dsn,
             int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata);
int e2b_set_ttl(void *sandbox, uint64_t ttl_ms);
int e2b_pause(void *sandbox);
int e2b_resume(void *sandbox);

#endif
