/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp.h - `sandboxio mcp`: the Model Context Protocol server.
 *
 * One server holds the operator's configuration (DSN, policy, limits) and
 * the sessions of its clients. A session is one client: stdio has exactly
 * one, streamable HTTP one per Mcp-Session-Id. A session owns the sandboxes
 * its client opened, under ids nobody else can guess, and destroys them all
 * when it ends. Transports hand whole JSON-RPC messages to
 * mcp_session_handle() and get back what to send through a sink.
 */
#ifndef SBX_CLI_MCP_H
#define SBX_CLI_MCP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

#include "../common/policy_opts.h"

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
uint64_t mcp_now_ms(void);
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

/*
 * protocol.c: one message in; its response, if any, and the notifications
 * of the work it started go out through send. With threaded, a tools/call
 * runs on a thread of its own and this returns 1 at once (the next message
 * may cancel it; the sink gets NULL when it is over); else, and for every
 * other message, the work is done when this returns 0.
 */
int mcp_session_handle(struct mcp_session *session, const char *data, size_t len,
                       mcp_send_fn send, void *userdata, int threaded);
/* Cancel every call of every session (the server is stopping). */
void mcp_server_cancel_all(struct mcp_server *server);
/* Cancel every call of the session (DELETE). */
void mcp_session_cancel_calls(struct mcp_session *session);
/* Cancel the calls whose sink has this userdata (an HTTP client that went away). */
void mcp_session_cancel_sink(struct mcp_session *session, void *userdata);
/* Send a JSON-RPC error response (id may be NULL for null). */
void mcp_send_error(mcp_send_fn send, void *userdata, json_object *id, int code,
                    const char *message);
/* Send a notifications/progress for a call that asked for it. */
void mcp_send_progress(struct mcp_call *call, double progress, const char *message);

/*
 * progress.c: the output of a command run for a call with a progressToken,
 * reported as it comes. The library captures it (sbx_exec_ext()); this
 * only observes.
 */
struct mcp_progress {
    struct mcp_call *call;
    uint64_t start_ms, last_ms;
    double last_progress;
};
/* Start the clock and send "started". */
void mcp_progress_start(struct mcp_progress *p, struct mcp_call *call);
/* An sbx_exec_opts observer (userdata: the mcp_progress); returns 0. */
int mcp_progress_observe(void *userdata, int stream, const void *data, size_t len);

/* tools.c: tools/call; returns the CallToolResult (never NULL but on OOM). */
json_object *mcp_tools_call(struct mcp_session *session, struct mcp_call *call,
                            const char *name, json_object *arguments, int *known);
/* schema.c: the tools/list result. */
json_object *mcp_tools_list(void);

/* args.c: reading tool arguments (see there). */
struct mcp_args {
    json_object *obj;
    char why[256];              /* what was wrong, when a getter failed */
};
int mcp_arg_string(struct mcp_args *a, const char *key, int required, const char **out);
int mcp_arg_uint(struct mcp_args *a, const char *key, uint64_t max, int *given, uint64_t *out);
int mcp_arg_bool(struct mcp_args *a, const char *key, int *out);
/* A NULL-terminated argv from an array of strings; free with free(). */
int mcp_arg_argv(struct mcp_args *a, const char *key, char ***out);
/* Only the keys listed (NULL-terminated) may be present. */
int mcp_arg_only(struct mcp_args *a, const char *const *keys);

/*
 * tighten.c: the network, limits and minimum tier a call that makes a
 * sandbox may ask for, never wider than the operator's
 * (SBX_E_MCP_POLICY_WIDER, the reason in a->why).
 */
struct mcp_tighten {
    int any;                    /* something was asked: the call needs a policy of its own */
    int network_given, network; /* an sbx_network */
    const char **hosts;         /* allow_hosts (borrowed from the arguments) */
    size_t nhosts;
    int memory_given, cpu_given, pids_given, disk_given, tier_given;
    uint64_t memory, disk;
    uint32_t cpu_millis, pids;
    int min_tier;               /* an sbx_tier */
};
/* The tightening keys a tool that takes them allows (see mcp_arg_only()). */
#define MCP_TIGHTEN_KEYS "network", "allow_hosts", "memory_bytes", "cpus", "pids", "disk_bytes", \
    "min_tier"
int mcp_tighten_read(struct mcp_tighten *t, struct mcp_session *s, struct mcp_args *a);
/* The operator's policy with t on top; free with sbx_policy_free(). */
int mcp_tighten_policy(sbx_policy **out, const struct mcp_config *cfg, const struct mcp_tighten *t);
void mcp_tighten_release(struct mcp_tighten *t);
/*
 * May a tool's env set variable name? Only a name --agent-env allows, and
 * never one the operator's policy sets: else SBX_E_MCP_POLICY_WIDER.
 */
int mcp_tighten_env(const struct mcp_config *cfg, struct mcp_args *a, const char *name);

/* result.c: CallToolResult objects. */
/* structured (taken) as structuredContent, and serialized as the text content. */
json_object *mcp_result_ok(json_object *structured);
/* A failure of sandboxio as an isError result with the code, message and docs URL. */
json_object *mcp_result_error(int code, const char *message);
/* Like mcp_result_error() with the library's last detail for code. */
json_object *mcp_result_lib_error(int code, const char *context);

/* auth.c */
int mcp_token_equal(const char *expected, const char *given, size_t given_len);
int mcp_host_is_loopback(const char *host);
/*
 * Origin is acceptable: absent (not a browser), or http(s) on a loopback
 * host and, unless port is MCP_ANY_PORT, that port: a server without a
 * token takes no browser page but its own origin's.
 */
#define MCP_ANY_PORT 0xffffffffu
int mcp_origin_allowed(const char *origin, unsigned port);
/* Host header names a loopback host or the bound address. */
int mcp_host_allowed(const char *host, const char *bound_host);

/*
 * replay.c: the messages of one HTTP answer (the sink of its call), kept
 * for a reader and, once made resumable, for a reader that resumes it
 * (GET with Last-Event-ID). Event i of stream n has the id "n-i".
 */
struct mcp_stream {
    struct mcp_session *session;
    int refs;                   /* the request's, the call's thread's, the session list's, readers' */
    unsigned long no;           /* its number in the session, once resumable */
    json_object *request_id;    /* of the request it answers (a reference; may be NULL) */
    json_object *queue;         /* the events kept: queue[i] is event base + i */
    size_t base, count;         /* the first kept; all ever queued */
    size_t bytes;               /* of the kept events, once listed */
    size_t sent;                /* events a reader has taken */
    int finished;               /* the call's thread sent its NULL */
    int listed;                 /* in session->streams */
    int reader;                 /* a connection is writing it */
    unsigned reader_gen;        /* the reader that may write it; an older one stops */
    int given_up;               /* its call was cancelled for want of a reader */
    uint64_t detached_ms;       /* when its last reader went away */
    int wake_fd;                /* eventfd: an event was queued, or the end */
    struct mcp_stream *next;
};
enum { MCP_STREAM_EVENT, MCP_STREAM_WAIT, MCP_STREAM_END, MCP_STREAM_LOST, MCP_STREAM_ABANDONED,
       MCP_STREAM_TAKEN };
struct mcp_stream *mcp_stream_new(struct mcp_session *session, json_object *request_id);
void mcp_stream_ref(struct mcp_stream *st);
void mcp_stream_put(struct mcp_stream *st);
/* The sink (mcp_send_fn) of a call; its NULL drops the reference the caller took for it. */
void mcp_stream_send(void *userdata, json_object *message);
/* Give it a number and keep it in the session (1), or 0 when --replay-buffer is 0. */
int mcp_stream_make_resumable(struct mcp_stream *st);
/* Resumable, and not yet delivered to its end or forgotten. */
int mcp_stream_listed(struct mcp_stream *st);
/* A reader takes it over (*gen: its generation) and lets it go again. */
void mcp_stream_attach(struct mcp_stream *st, unsigned *gen);
void mcp_stream_detach(struct mcp_stream *st, unsigned gen);
/* The event at *pos (then *pos is the next), or what else there is: MCP_STREAM_*. */
int mcp_stream_next(struct mcp_stream *st, unsigned gen, size_t *pos, json_object **message);
/* Out of the session: delivered to the end, or lost. */
void mcp_stream_forget(struct mcp_stream *st);
/* The stream of a Last-Event-ID, referenced, and the position after it; SBX_E_MCP_STREAM_LOST. */
int mcp_stream_find(struct mcp_session *s, const char *last_event_id, struct mcp_stream **out,
                    size_t *pos);
/* Cancel the calls whose stream had no reader for --resume-window. */
void mcp_replay_reap(struct mcp_session *s, uint64_t now_ms);
/* The session ends: forget its streams. */
void mcp_replay_release(struct mcp_session *s);

/* stdio.c and http.c: serve until EOF or a termination signal. */
int mcp_serve_stdio(struct mcp_server *server);
int mcp_serve_http(struct mcp_server *server);

#endif
