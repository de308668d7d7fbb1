/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/server.h - `sandboxio mcp`, the Model Context Protocol server: its
 * configuration, its sessions, their sandboxes and calls in flight.
 *
 * One server holds the operator's configuration (DSN, policy, limits) and
 * the sessions of its clients. A session is one client: stdio has exactly
 * one, streamable HTTP one per Mcp-Session-Id. A session owns the sandboxes
 * its client opened, under ids nobody else can guess, and destroys them all
 * when it ends. Transports hand whole JSON-RPC messages to
 * mcp_session_handle() (protocol.h) and get back what to send through a sink.
 */
#ifndef SBX_CLI_MCP_SERVER_H
#define SBX_CLI_MCP_SERVER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>
#include <sbxu/clock.h>

#include "../common/policy_opts.h"
#include "../error-codes.h" /* the tool's own codes */

/* The protocol revisions served, newest first (the first is offered). */
extern const char *const mcp_protocol_versions[];

struct mcp_config {
    struct policy_opts po;      /* the operator's DSN and policy (ceilings) */
    const char *dsn;            /* policy_opts_dsn(&po) */
    size_t max_sandboxes;       /* per session */
    size_t max_total_sandboxes; /* the whole server's: the sessions' and run's */
    size_t max_sessions;        /* HTTP sessions per bearer token (there is one token) */
    uint64_t idle_ttl_ms;       /* an unused sandbox is destroyed after this */
    uint64_t session_ttl_ms;    /* an HTTP session without requests ends after this (0: never) */
    size_t max_request;         /* bytes of one JSON-RPC message */
    const char *http;           /* ADDR:PORT for streamable HTTP, NULL for stdio */
    const char *token_file;
    unsigned pool;              /* warm sandboxes kept ready (0: none) */
    const char **agent_env;     /* --agent-env: the names (fnmatch patterns) a tool's env may set */
    size_t n_agent_env;         /* 0: a tool may set no variable at all */
    size_t replay_bytes;        /* HTTP: events a session keeps for resumption (0: none) */
    uint64_t resume_window_ms;  /* HTTP: a call whose event stream has no reader this long is cancelled */
};

struct mcp_server {
    const struct mcp_config *config;
    sbx_client *client;
    json_object *tools;         /* the tools/list result, built once */
    sbx_pool *pool;             /* --pool: ready sandboxes for run; NULL without */
    pthread_mutex_t lock;       /* guards sessions and stopping */
    pthread_cond_t wake;
    struct mcp_session *sessions;
    /* Sandboxes of all sessions, run's included. Its lock is taken with
     * others held (the reaper holds lock) and takes none itself. */
    pthread_mutex_t boxes_lock;
    size_t open_boxes;
    int stopping;
    pthread_t reaper;
    int reaper_running;
};

/*
 * A sink takes one finished JSON-RPC message (a response or a
 * notification). A call run on a thread of its own ends with one more
 * send of NULL: nothing of it will use the sink after that.
 */
typedef void (*mcp_send_fn)(void *userdata, json_object *message);

/* One sandbox of a session. */
struct mcp_box {
    char id[40];                /* "sbx-" + 128 random bits in hex */
    sbx_sandbox *sandbox;
    int refs;                   /* calls using it right now */
    int doomed;                 /* out of the table; the last user destroys it */
    uint64_t last_used_ms;      /* monotonic */
    struct mcp_box *next;
};

/* A tools/call in flight, for notifications/cancelled. */
struct mcp_call {
    json_object *id;            /* the request id (a reference) */
    json_object *arguments;     /* a reference */
    char *tool;
    mcp_send_fn send;           /* where its response and notifications go */
    void *send_userdata;
    json_object *progress_token; /* NULL when the client asked for no progress */
    sbx_cancel *cancel;         /* triggered by notifications/cancelled or the session's end */
    int cancelled;
    struct mcp_session *session;
    struct mcp_call *next;
};

struct mcp_session {
    struct mcp_server *server;
    char id[40];                /* HTTP: the Mcp-Session-Id; stdio: "stdio" */
    pthread_mutex_t lock;       /* guards everything below */
    pthread_cond_t calls_done;
    struct mcp_box *boxes;
    size_t open_boxes;
    struct mcp_call *calls;
    int running;                /* worker threads still going */
    int initialized;
    int closing;
    char protocol[16];
    int log_level;              /* logging/setLevel; messages at or below go out */
    uint64_t last_seen_ms;
    int http;                   /* of the HTTP transport: ends when idle past session_ttl_ms */
    int http_refs;              /* HTTP requests using it (guarded by server->lock) */
    int http_deleted;           /* DELETE seen: the last request closes it */
    /* replay.c: the event streams kept for resumption, oldest first. */
    pthread_mutex_t replay_lock; /* guards the streams and everything of each */
    struct mcp_stream *streams;
    size_t n_streams, replay_bytes;
    unsigned long next_stream;
    struct mcp_session *next;   /* in server->sessions */
};

/* server.c */
int mcp_server_init(struct mcp_server *server, const struct mcp_config *config);
/* The thread that destroys sandboxes idle past the TTL, and ends HTTP
 * sessions idle past theirs; stopped by _release(). */
int mcp_server_start_reaper(struct mcp_server *server);
void mcp_server_release(struct mcp_server *server);
/* Fill buf (at least 37 bytes) with prefix + 128 random bits in hex. 0 or -1. */
int mcp_random_id(char *buf, size_t size, const char *prefix);

/* session.c */
struct mcp_session *mcp_session_new(struct mcp_server *server, const char *id);
/* Wait for the session's calls, destroy its sandboxes, free it. */
void mcp_session_close(struct mcp_session *session);
/* Destroy the session's sandboxes unused for the idle TTL. */
void mcp_session_reap(struct mcp_session *session, uint64_t now_ms);
/* Add a new sandbox: SBX_OK with *box referenced, or SBX_E_MCP_SANDBOX_LIMIT. */
int mcp_session_add_box(struct mcp_session *session, sbx_sandbox *sandbox, struct mcp_box **box);
/* Find a sandbox by id and take a reference: SBX_OK or SBX_E_MCP_NO_SANDBOX. */
int mcp_session_get_box(struct mcp_session *session, const char *id, struct mcp_box **box);
void mcp_session_put_box(struct mcp_session *session, struct mcp_box *box);
/* Take it out of the table; destroyed now, or by the last call using it. */
int mcp_session_drop_box(struct mcp_session *session, const char *id);
/*
 * Reserve a place for a sandbox about to be made: the session's limit and
 * the server's are checked here. SBX_E_MCP_SANDBOX_LIMIT with *what
 * "session" or "server", the limit that is full.
 */
int mcp_session_reserve(struct mcp_session *session, const char **what);
void mcp_session_unreserve(struct mcp_session *session);
/*
 * A new HTTP session, referenced once: SBX_OK, SBX_E_NOMEM, or
 * SBX_E_MCP_SESSION_LIMIT when --max-sessions are open.
 */
int mcp_session_new_http(struct mcp_session **out, struct mcp_server *server, const char *id);
/*
 * A place among the server's --max-total-sandboxes for a sandbox about to be
 * made (SBX_OK or SBX_E_MCP_SANDBOX_LIMIT), and its release: n places.
 */
int mcp_server_reserve(struct mcp_server *server);
void mcp_server_unreserve(struct mcp_server *server, size_t n);

/* stdio.c and http.c: serve until EOF or a termination signal. */
int mcp_serve_stdio(struct mcp_server *server);
int mcp_serve_http(struct mcp_server *server);

#endif
