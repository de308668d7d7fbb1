/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal declarations of the docker backend: sandboxes are containers of a
 * Docker Engine, driven through its HTTP API with the HTTP, JSON, owner-label
 * and base64 helpers of lib/. Nothing here is exported; the module's
 * only public symbol is sandboxio_plugin_v1.
 *
 * Files by concern:
 *   endpoint.c  where the daemon is (DSN, DOCKER_HOST, TLS settings)
 *   conn.c      the HTTP session to the daemon (lib/sbxu/http.h)
 *   hijack.c    the raw two-way stream of an exec (connection upgrade)
 *   api.c       version negotiation, calls, error answers
 *   errmap.c    the daemon's failures to SBX_E codes
 *   options.c   the DSN's query options
 *   container.c create, start and remove containers (sandbox life cycle)
 *   demux.c     the multiplexed stdout/stderr stream decoder
 *   control.c   control lines of the exec wrapper and docker-init
 *   exec.c      commands: wrapper, stream, stdin, timeout, exit status
 *   exec_end.c  killing a command's session or a one-shot container, telling an OOM kill
 *   oneshot.c   one-shot runs: the command as the container's own process
 *   pathcheck.c paths in the container, refused when a symlink leads out
 *   files.c     files through the archive endpoints (libarchive)
 *   files_exec.c listing and removal, by exec
 *   listing.c   the listing command's output, parsed
 *   gc.c        removal of leaked containers (lib/sbxu/owner.h decides)
 *   named.c     named sandboxes with a TTL: open_named, attach, set_ttl, pause
 *   list.c      the named sandboxes of this user
 *   plugin.c    the descriptor
 */
#ifndef SBX_DOCKER_H
#define SBX_DOCKER_H

#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>
#include <json-c/json.h>
#include <sandboxio/exec.h>
#include <sandboxio/plugin.h>
#include "../analyzer-model.h"
#include <sandboxio/policy.h>

#include <sbxu/base64.h>
#include <sbxu/clock.h>
#include <sbxu/buf.h>
#include <sbxu/http.h>
#include <sbxu/json.h>
#include <sbxu/opts.h>
#include <sbxu/owner.h>

#define DK_NAME "docker"
#define DK_VERSION "0.1.0"

/* The oldest Engine API this backend speaks (Init, NanoCpus, WorkingDir on exec). */
#define DK_API_MIN_MAJOR 1
#define DK_API_MIN_MINOR 35
/* The newest it asks for; a newer daemon still serves this one. */
#define DK_API_MAX_MAJOR 1
#define DK_API_MAX_MINOR 43

/* --- endpoint.c ----------------------------------------------------------- */

enum dk_transport { DK_UNIX = 1, DK_TCP = 2 };

/* Where the daemon listens and how to talk to it. */
typedef struct dk_endpoint {
    int transport;        /* enum dk_transport */
    char *socket_path;    /* DK_UNIX */
    char *host_port;      /* DK_TCP: "host:port" */
    bool tls;             /* DK_TCP only */
    bool tls_verify;
    char *ca_file;        /* under DOCKER_CERT_PATH, when TLS */
    char *cert_file;
    char *key_file;
    char *display;        /* "unix:///var/run/docker.sock", for messages */
    char *base_url;       /* "http://docker" (unix), "https://host:port" */
} dk_endpoint;

/* Environment the endpoint is read from (NULL members = unset); for tests. */
typedef struct dk_env {
    const char *docker_host;
    const char *tls_verify;
    const char *cert_path;
} dk_env;

/* The process environment's DOCKER_* variables. */
dk_env dk_env_from_process(void);
/*
 * Parse a DOCKER_HOST-style URL ("unix:///path", "tcp://host:port") into ep,
 * with TLS as env says. Sets no error: returns 0, or -1 for an unusable URL
 * with *why saying what is wrong (static string), or -2 when out of memory.
 */
int dk_endpoint_parse_url(const char *url, const dk_env *env, dk_endpoint *ep, const char **why);
/* The endpoint a DSN names (authority = tcp host, path = unix socket, else env). */
int dk_endpoint_from_dsn(const sbx_host *host, const sbx_plugin_dsn *dsn, const dk_env *env,
                         dk_endpoint *ep);
void dk_endpoint_clear(dk_endpoint *ep);

/* --- conn.c -------------------------------------------------------------- */

/* A connection to one daemon, reused for every request (lib/ HTTP). */
typedef struct dk_conn {
    const sbx_host *host;
    dk_endpoint ep;
    sbxu_http http;             /* http.prefix: the negotiated "/v1.41", "" before */
} dk_conn;

/* Where the engine's answer headers land in sbxu_http_response.header[]. */
enum { DK_HDR_API_VERSION = 0, DK_HDR_PATH_STAT = 1 };

int dk_conn_init(dk_conn *c, const sbx_host *host, dk_endpoint *ep_moved);
void dk_conn_clear(dk_conn *c);
/*
 * Send rq (path without the version prefix) and wait for the whole answer.
 * SBX_OK when an HTTP answer came (whatever its status); a transport failure
 * sets the error and returns it.
 */
int dk_http(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs);
/* A 2xx body read on demand: sbxu_http_pull_read(), sbxu_http_pull_end(). */
int dk_pull_begin(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs,
                  sbxu_http_pull **out);

/* --- hijack.c ------------------------------------------------------------- */

/* A raw two-way stream taken over from an HTTP request (exec start). */
typedef struct dk_hijack {
    dk_conn *conn;
    CURL *easy;
    int fd;                    /* the socket, for poll() */
    sbxu_buf pending;            /* stream bytes read along with the headers */
    char errbuf[CURL_ERROR_SIZE];
} dk_hijack;

/*
 * POST path with a JSON body asking for a connection upgrade. On SBX_OK the
 * stream follows; an HTTP error answer is mapped to a code with context.
 */
int dk_hijack_open(dk_conn *c, const char *path, const char *json, const char *context,
                   dk_hijack *hj);
/* Non-blocking: >0 bytes, 0 at EOF, -1 would block; -2 failed (error set). */
long dk_hijack_recv(dk_hijack *hj, void *buf, size_t len);
/* Non-blocking: bytes sent, -1 would block, -2 failed (no error set). */
long dk_hijack_send(dk_hijack *hj, const void *buf, size_t len);
/* Half-close: the far end sees EOF on stdin. */
int dk_hijack_close_write(dk_hijack *hj);
void dk_hijack_close(dk_hijack *hj);

/* --- api.c ---------------------------------------------------------------- */

/* Ask /_ping (then /version) for the daemon's API version and pick ours. */
int dk_api_negotiate(dk_conn *c);
/*
 * A request answered 2xx: SBX_OK; else the daemon's failure mapped to a code
 * with context ("creating the container") and the daemon's own message.
 */
int dk_api_call(dk_conn *c, const sbxu_http_request *rq, sbxu_http_response *rs, const char *context);
/* Same, parsing the JSON answer into *out (json_object_put() it). */
int dk_api_json(dk_conn *c, const char *method, const char *path, const char *body,
                const char *context, json_object **out);
/* Set the error for a non-2xx answer; returns the code. */
int dk_api_fail(dk_conn *c, const sbxu_http_response *rs, const char *context);

/* --- errmap.c ------------------------------------------------------------- */

/* The code for an HTTP failure status and the daemon's message. */
int dk_errmap_status(long status, const char *message);
/*
 * The policy code for a create warning saying a limit was dropped
 * ("Your kernel does not support memory limit capabilities ... Limitation
 * discarded."), or 0 for any other warning.
 */
int dk_errmap_limit_warning(const char *text);

/* --- options.c ------------------------------------------------------------ */

enum dk_pull_policy { DK_PULL_MISSING = 0, DK_PULL_NEVER = 1 };

typedef struct dk_options {
    char *image;             /* default "busybox" */
    char *workdir;           /* absolute, default "/work" */
    uint64_t ttl_s;          /* default 3600; 0 = never expires */
    int pull;                /* enum dk_pull_policy */
} dk_options;

#define DK_DEFAULT_IMAGE "busybox"
#define DK_DEFAULT_WORKDIR "/work"
#define DK_DEFAULT_TTL_S 3600

/* Parse the DSN's query (unknown key: SBX_E_DSN_UNKNOWN_OPTION, bad value: ..._BAD_OPTION_VALUE). */
int dk_options_parse(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_options *opt);
void dk_options_clear(dk_options *opt);

/* --- container.c ---------------------------------------------------------- */

typedef struct dk_state {
    const sbx_host *host;
} dk_state;

/* One sandbox: a running container. */
typedef struct dk_sandbox {
    const sbx_host *host;
    dk_conn conn;
    dk_options opt;
    char id[80];               /* container id */
    pthread_mutex_t lock;      /* guards oom_seen */
    uint64_t oom_seen;         /* the cgroup's OOM-kill count last read */
    bool memory_limited;
    /* Sandboxes of open_named and attach (named.c); NULL/0 otherwise. */
    const sbx_plugin_sandbox_opts *named;  /* during dk_sandbox_create only */
    bool kept;                 /* made by open_named: has the lifecycle labels */
    char name[64];
    char *policy;
    int64_t created_ms, expires_ms;
} dk_sandbox;

/* Labels of the sandboxes open_named makes, besides the owner's. */
#define DK_LABEL_NAME "io.sandboxio.name"
#define DK_LABEL_POLICY "io.sandboxio.policy"
#define DK_LABEL_UID "io.sandboxio.owner-uid"
#define DK_LABEL_EXPIRES "io.sandboxio.expires-ms"
/* A label is fixed at create: a TTL moved later is a volume labelled so. */
#define DK_LABEL_TTL_FOR "io.sandboxio.ttl-for"
/* Container names of named sandboxes: the prefix, then the name. */
#define DK_NAME_PREFIX "sandboxio-"

/* A one-shot container's own process: the command, under the exec wrapper. */
typedef struct dk_process {
    const sbx_plugin_cmd *cmd;
    bool stdin_attached;
} dk_process;

/*
 * Create the sandbox's container, not started: with the keep-alive as its
 * process (proc NULL), or proc for a one-shot run. Removed again on failure.
 */
int dk_sandbox_create(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                      const dk_process *proc, const sbx_plugin_sandbox_opts *named,
                      dk_sandbox **out);
int dk_container_start(dk_sandbox *sb);
/* A handle with the DSN's options and a connection, no container yet. */
int dk_sandbox_new(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_sandbox **out);
/* Free the handle only (the container is the caller's to remove). */
void dk_sandbox_free(dk_sandbox *sb);
int dk_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
            void **sandbox);
int dk_destroy(void *sandbox);
const char *dk_sandbox_id(void *sandbox);
/* Force-remove a container and its anonymous volumes; a missing one is not an error. */
int dk_container_remove(dk_conn *c, const char *id);
/* Open a connection for a DSN and negotiate the API version. */
int dk_connect(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_conn *c);

/* --- demux.c -------------------------------------------------------------- */

/*
 * Decoder of the engine's multiplexed stream: frames of an 8-byte header
 * (stream byte, 3 zero bytes, big-endian 32-bit length) and payload. Feed
 * bytes in any split; complete or partial payloads go to out() at once.
 */
typedef struct dk_demux {
    unsigned char hdr[8];
    size_t hdr_len;
    int stream;                /* of the frame being read */
    uint32_t left;             /* payload bytes still to come */
    int (*out)(void *ud, int stream, const void *data, size_t len);
    void *ud;
} dk_demux;

void dk_demux_init(dk_demux *d, int (*out)(void *ud, int stream, const void *data, size_t len),
                   void *ud);
/* 0, or out()'s non-zero return, or -1 for a malformed header. */
int dk_demux_feed(dk_demux *d, const void *data, size_t len);
/* True when no frame is half-read. */
bool dk_demux_idle(const dk_demux *d);

/* --- control.c ----------------------------------------------------------- */

/* Why the wrapper did not start the command. */
enum dk_start_fail { DK_START_OK = 0, DK_START_NOCWD, DK_START_NOEXEC, DK_START_NOPERM };
/* How docker-init saw the command end. */
enum dk_end { DK_END_UNKNOWN = 0, DK_END_EXITED, DK_END_SIGNALED };

/*
 * Filter of an exec's output: takes out the wrapper's and docker-init's
 * control lines and passes every other byte to out() in order.
 */
typedef struct dk_control {
    sbxu_buf hold[2];            /* per stream: bytes that may begin a control line */
    long session;              /* the wrapper's pid = the exec's session, 0 until known */
    int start_fail;            /* enum dk_start_fail */
    int ended;                 /* enum dk_end, from docker-init */
    int status;                /* exit status when DK_END_EXITED */
    char fatal[256];           /* docker-init's FATAL message, if any */
    /*
     * The exec runs on a terminal: one stream, SBX_STDOUT, carries what
     * both programs write to stdout and stderr, lines ending "\r\n".
     */
    bool tty;
    int (*out)(void *ud, int stream, const void *data, size_t len);
    void *ud;
} dk_control;

void dk_control_init(dk_control *c,
                     int (*out)(void *ud, int stream, const void *data, size_t len), void *ud);
/* 0, out()'s non-zero return, or -1 when out of memory. */
int dk_control_feed(dk_control *c, int stream, const void *data, size_t len);
/* At the end of the stream: pass on whatever is still held. */
int dk_control_flush(dk_control *c);
void dk_control_clear(dk_control *c);

/* --- exec.c --------------------------------------------------------------- */

int dk_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
            sbx_plugin_exit *exit_out);
/*
 * Run argv in the container to completion without the user's I/O, capturing
 * up to cap bytes of stdout into out (may be NULL). *exit_code gets the status.
 */
int dk_exec_simple(dk_sandbox *sb, const char *const *argv, sbxu_buf *out, size_t cap,
                   int *exit_code);

/* Does cmd ask for a terminal (SBX_PLUGIN_CMD_PTY, read where the struct has it)? */
bool dk_cmd_pty(const sbx_plugin_cmd *cmd);
/* Create an exec from its JSON body; *id gets its id. */
int dk_exec_create(dk_sandbox *sb, json_object *body, char *id, size_t id_size);
/*
 * The exec wrapper's arguments to /bin/sh for cmd, as a JSON array (NULL:
 * no memory). For a cmd on a terminal the wrapper sets its size first.
 */
json_object *dk_exec_sh_args(const char *workdir, const sbx_plugin_cmd *cmd);
/* SBX_E_EXEC_START for a program name the wrapper cannot run ("A=B"). */
int dk_exec_refuse_program(const sbx_host *host, const sbx_plugin_cmd *cmd);
/*
 * Run a one-shot container made with the wrapper as its process: attach,
 * start, stream, and read how it ended. The caller removes it.
 */
int dk_exec_oneshot(dk_sandbox *sb, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                    sbx_plugin_exit *exit_out);

/* --- exec_end.c ----------------------------------------------------------- */

/* SIGKILL every process of a session, from a second, detached exec. */
int dk_exec_kill_session(dk_sandbox *sb, long session);
/* Did the memory limit kill something since the last look? */
bool dk_exec_oom_happened(dk_sandbox *sb);
/* One-shot containers: SIGKILL the whole container; its exit status once
 * stopped; whether the engine recorded an OOM kill. */
int dk_container_kill(dk_sandbox *sb);
int dk_container_wait(dk_sandbox *sb, int *code);
bool dk_container_oom_killed(dk_sandbox *sb);

/* --- oneshot.c ------------------------------------------------------------ */

/* The plugin's run: a container whose own process is the command. */
int dk_run(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
           const sbx_plugin_cmd *cmd, const sbx_plugin_io *io, sbx_plugin_exit *exit_out);

/* --- files.c -------------------------------------------------------------- */

int dk_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                  long (*read)(void *userdata, void *buf, size_t len), void *userdata);
int dk_file_read(void *sandbox, const char *path,
                 int (*sink)(void *userdata, const void *data, size_t len), void *userdata);
/* listing.c: the listing command's output, parsed in place (names and
 * targets point into it). */
typedef struct dk_listing {
    sbx_plugin_dirent *ents;
    size_t count;
    const char *why; /* what was wrong, when not DK_LISTING_OK */
} dk_listing;
enum { DK_LISTING_OK = 0, DK_LISTING_BAD = -1, DK_LISTING_TOO_LARGE = -2, DK_LISTING_NOMEM = -3 };
int dk_listing_parse(char *out, size_t len, size_t max_entries, dk_listing *l);
void dk_listing_clear(dk_listing *l);
/* files_exec.c */
int dk_file_list(void *sandbox, const char *path,
                 int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
int dk_file_remove(void *sandbox, const char *path, int recursive);
int dk_file_mkdir(void *sandbox, const char *path);
/* files_meta.c */
int dk_file_symlink(void *sandbox, const char *path, const char *target);
int dk_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta);

/* --- pathcheck.c ---------------------------------------------------------- */

/* What the archive stat says of a path. */
typedef struct dk_stat {
    bool exists;
    int type;                  /* SBX_FILE_* value */
    uint64_t size;
    uint32_t mode;             /* permission bits */
    char *link_target;         /* resolved absolute target, for symlinks (malloc'd) */
} dk_stat;
void dk_stat_clear(dk_stat *st);

/* HEAD the archive of an absolute container path (no symlink checks). */
int dk_stat_path(dk_sandbox *sb, const char *abs, dk_stat *st);

/*
 * A sandbox path resolved in the container: the deepest prefix that exists
 * with every symlink on the way followed and checked to stay inside the
 * work dir (else SBX_E_PATH_ESCAPE), and what is left of the path below it.
 */
typedef struct dk_resolved {
    char *real;                /* absolute, symlink-free, inside the work dir */
    const char *rest;          /* components still missing ("" = all exist), points into rel */
    dk_stat st;                /* stat of real */
} dk_resolved;
/* follow_last: also follow a symlink as the last component (not for remove). */
int dk_resolve(dk_sandbox *sb, const char *rel, bool follow_last, dk_resolved *out);
void dk_resolved_clear(dk_resolved *r);

/* --- named.c: minor-2 members ------------------------------------------- */

int dk_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  const sbx_plugin_sandbox_opts *opts, void **sandbox);
int dk_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name, void **sandbox,
              sbx_plugin_sandbox_info *info);
int dk_detach(void *sandbox);
int dk_set_ttl(void *sandbox, uint64_t ttl_ms);
int dk_pause(void *sandbox);
int dk_resume(void *sandbox);
/* The TTL volumes of container id (all of them for id ""), as the engine lists them. */
int dk_ttl_volumes(dk_conn *c, const char *id, json_object **out);
/* A container's end in Unix ms from its labels and the newest of vols, 0 = none. */
int64_t dk_expires_ms(json_object *labels, json_object *vols, const char *id);
/* A container's State.Status as an sbx_plugin_state. */
int dk_state_of(const char *status);
/* Remove the container and its TTL volumes. */
int dk_kept_remove(dk_conn *c, const char *id);

/* --- list.c --------------------------------------------------------------- */

int dk_list(void *state, const sbx_plugin_dsn *dsn,
            int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata);

/* --- gc.c ----------------------------------------------------------------- */

int dk_gc(void *state, const sbx_plugin_dsn *dsn,
          int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
          size_t *removed);
/* ping (ping.c): connect, negotiate, ask /version; creates nothing. */
int dk_ping(void *state, const sbx_plugin_dsn *dsn, char **detail);

#endif
