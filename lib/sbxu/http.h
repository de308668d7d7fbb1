/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/http.h - HTTP for backends, over libcurl (libsbxu-curl).
 *
 * A session is one curl handle whose connection is kept and reused for
 * every request, over a unix socket or TCP (TLS when the base URL is
 * https://), guarded by a lock so threads may share it. A request's answer
 * is streamed to a callback or collected into a capped buffer; its body is
 * a string or streamed from a callback. Idempotent requests are retried with
 * exponential backoff and jitter on connect errors and on 429, 502, 503 and
 * 504, honouring Retry-After, within the request's deadline.
 *
 * Secrets: the values of Authorization, X-API-Key, X-Access-Token and of
 * every header the config names in redact never appear in a log line, a
 * trace or an error message this library writes; they are replaced by
 * "[redacted]", also where a server echoes them back in an error body.
 *
 * All strings of a config must outlive the session. Errors go through the
 * host's set_error with the config's plugin name as prefix.
 */
#ifndef SBXU_HTTP_H
#define SBXU_HTTP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>
#include <sandboxio/plugin.h>

#include <sbxu/buf.h>

/* Response headers a request may capture. */
#define SBXU_HTTP_CAPTURE_MAX 4

/*
 * How long the backends wait, in ms, named once so that every backend waits
 * alike and a change is made in one place.
 */
#define SBXU_HTTP_CONNECT_TIMEOUT_MS 30000L   /* a session that names none (a local daemon) */
#define SBXU_HTTP_CLOUD_CONNECT_TIMEOUT_MS 15000L /* TCP and TLS to a cloud service */
#define SBXU_HTTP_CALL_TIMEOUT_MS 120000L     /* one control-plane call (create, list, delete) */
#define SBXU_HTTP_AGENT_TIMEOUT_MS 60000L     /* one call to the agent in a sandbox */
#define SBXU_HTTP_PING_TIMEOUT_MS 30000L      /* asking a daemon who it is */
#define SBXU_HTTP_SEND_STALL_MS 60000L        /* a peer that takes no more of a request */
#define SBXU_HTTP_ERROR_BODY_WAIT_MS 10000L   /* the rest of an error answer's body */

/*
 * A request path that carries one escaped file path ("/files?path=..."):
 * a sandbox path whose escaped form does not fit is refused (SBX_E_BAD_PATH).
 */
#define SBXU_HTTP_PATH_MAX 1400

/* How a session retries; all zero = never retry. */
typedef struct sbxu_http_retry {
    int attempts;          /* tries in all, including the first; <= 1: no retry */
    long base_ms;          /* the first backoff (default 100); doubled each try */
    long max_ms;           /* cap of one backoff (default 10000); Retry-After may exceed it
                              within a deadline, never without one */
    long deadline_ms;      /* a request's tries and waits together (0: no deadline) */
} sbxu_http_retry;

/* What the trace hook is told of each try. */
typedef struct sbxu_http_trace {
    const char *method;
    const char *url;
    const char *const *headers;   /* request headers as sent, secrets redacted */
    int attempt;                  /* 1 for the first try */
    long status;                  /* the answer's status, 0 when none came */
    int curl_code;                /* CURLcode of the transfer */
    long wait_ms;                 /* the wait before the next try; -1: no next try */
    const char *why;              /* why there is (no) next try, static text */
} sbxu_http_trace;

typedef struct sbxu_http_config {
    const char *plugin;           /* prefix of messages: "docker", "e2b" */
    const char *base_url;         /* "http://docker", "https://api.example:443" (no final slash) */
    const char *unix_socket;      /* path of a unix socket to connect to, or NULL for TCP */
    const char *ca_file;          /* TLS: CA bundle (NULL: the system's) */
    const char *cert_file;        /* TLS: client certificate and key, used when both are readable */
    const char *key_file;
    const char *display;          /* where, in messages ("unix:///run/docker.sock"); NULL: base */
    const char *service;          /* who is there ("the Docker daemon"); NULL: "the server" */
    const char *hint_unavailable; /* appended when nothing answers (" (is the daemon running?)") */
    const char *hint_permission;  /* appended when the socket refuses this user */
    const char *const *headers;   /* "Name: value" lines sent with every request, NULL-terminated */
    const char *const *redact;    /* more header names whose values are secret, NULL-terminated */
    long connect_timeout_ms;      /* 0: SBXU_HTTP_CONNECT_TIMEOUT_MS */
    sbxu_http_retry retry;
    /* Called after every try, for tests and debugging (NULL: none). */
    void (*trace)(void *ud, const sbxu_http_trace *t);
    void *trace_ud;
} sbxu_http_config;

typedef struct sbxu_http {
    const sbx_host *host;
    sbxu_http_config cfg;
    char prefix[32];              /* between base_url and every path ("/v1.41"); "" by default */
    pthread_mutex_t lock;
    CURLM *multi;                 /* owns the connection cache */
    CURL *easy;
    char errbuf[CURL_ERROR_SIZE];
} sbxu_http;

enum sbxu_http_retry_mode {
    SBXU_HTTP_RETRY_AUTO = 0,      /* GET, HEAD, PUT, DELETE, OPTIONS are retried; others not */
    SBXU_HTTP_RETRY_NEVER = 1,
    SBXU_HTTP_RETRY_ALWAYS = 2,    /* the caller knows this POST is idempotent */
};

/* One request. */
typedef struct sbxu_http_request {
    const char *method;           /* "GET", "POST", "PUT", "DELETE", "HEAD", ... */
    const char *path;             /* after base_url and prefix: "/containers/json" */
    const char *body;             /* request body as text, or NULL; a POST without one sends "" */
    const char *content_type;     /* Content-Type to send, or NULL */
    const char *const *headers;   /* more "Name: value" lines, NULL-terminated, or NULL */
    /* Streamed request body: pull up to len bytes, 0 at the end, <0 to abort (never retried). */
    long (*upload)(void *ud, char *buf, size_t len);
    void *upload_ud;
    /* Streamed 2xx answer; a non-zero return stops the transfer. NULL: collect it. */
    int (*sink)(void *ud, const void *data, size_t len);
    void *sink_ud;
    size_t body_cap;              /* bytes collected at most, the rest is cut (0: 64 MiB) */
    const char *const *capture;   /* response header names to keep (<= SBXU_HTTP_CAPTURE_MAX) */
    long timeout_ms;              /* one try, whole; 0: none */
    int retry;                    /* enum sbxu_http_retry_mode */
    /* This request's own trace hook, called instead of the session's (NULL: the session's). */
    void (*trace)(void *ud, const sbxu_http_trace *t);
    void *trace_ud;
    size_t body_len;              /* bytes of body when it may hold NULs (0: strlen(body)) */
} sbxu_http_request;

typedef struct sbxu_http_response {
    long status;                  /* HTTP status of the last try, 0 if none came */
    sbxu_buf body;                 /* the collected body (error answers always) */
    char *header[SBXU_HTTP_CAPTURE_MAX];  /* values of rq->capture[i], NULL if not sent */
    long retry_after_ms;          /* the last Retry-After, -1 if none */
    int attempts;                 /* tries made */
    bool sink_stopped;            /* the sink asked to stop */
    bool upload_aborted;          /* the upload callback failed */
    int curl_code;                /* the last try's CURLcode (CURLE_OK when it completed) */
} sbxu_http_response;

/* sbxu_http_init - a session for cfg (copied; its strings are not). SBX_OK or SBX_E_NOMEM. */
int sbxu_http_init(sbxu_http *s, const sbx_host *host, const sbxu_http_config *cfg);
/* sbxu_http_clear - close the connection and free the session (safe on a zeroed one). */
void sbxu_http_clear(sbxu_http *s);
/* sbxu_http_response_clear - free what a response holds and zero it. */
void sbxu_http_response_clear(sbxu_http_response *rs);

/*
 * sbxu_http_send - send rq, retrying as the config says, and wait for the
 * whole answer. SBX_OK when an HTTP answer came, whatever its status; a
 * transport failure of the last try sets the error and returns its code
 * (SBX_E_BACKEND_UNAVAILABLE when nothing answers, ...). rs must be zeroed.
 * Takes the session's lock.
 */
int sbxu_http_send(sbxu_http *s, const sbxu_http_request *rq, sbxu_http_response *rs);

/*
 * A 2xx body read on demand (for libarchive's pull model): begin sends the
 * request (never retried) and waits for the status; read gives the next
 * bytes (*len 0 at the end). rq is copied (its strings and callbacks must
 * last until the end). The session's lock is held from begin to end.
 */
typedef struct sbxu_http_pull sbxu_http_pull;
int sbxu_http_pull_begin(sbxu_http_pull **out, sbxu_http *s, const sbxu_http_request *rq,
                        sbxu_http_response *rs);
int sbxu_http_pull_read(sbxu_http_pull *p, const void **data, size_t *len);
void sbxu_http_pull_end(sbxu_http_pull *p);

/*
 * A stream: an answer that flows for as long as a command runs, while the
 * caller keeps watch. tick (may be NULL) is called between transfers, at
 * least every every_ms (0: 1000) and whenever fd (-1: none) is readable;
 * its non-zero return stops the stream and is what sbxu_http_stream returns.
 */
typedef struct sbxu_http_watch {
    int (*tick)(void *ud);
    void *ud;
    int fd;
    long every_ms;
} sbxu_http_watch;
/*
 * sbxu_http_stream - send rq once (a stream is never retried: what the sink
 * has seen cannot be taken back; the caller knows what is worth another
 * try) on a curl handle of its own, with the session's transport and
 * headers, so several streams of one session run at once and none takes
 * the session's lock. rq->sink gets a 2xx body as it comes, other bodies
 * are collected in rs->body. SBX_OK when an answer came (rs->status; a
 * stopped sink is rs->sink_stopped); a tick's code; or a transport
 * failure's code with the error set (rs->status says whether an answer had
 * begun, rs->curl_code what failed). No session retry deadline applies:
 * only rq->timeout_ms bounds it.
 */
int sbxu_http_stream(sbxu_http *s, const sbxu_http_request *rq, const sbxu_http_watch *watch,
                    sbxu_http_response *rs);

/*
 * sbxu_http_setup_handle - apply the session's transport (socket, TLS,
 * timeouts) to another curl handle h, for a connection the caller drives
 * itself (CURLOPT_CONNECT_ONLY). errbuf has CURL_ERROR_SIZE bytes.
 */
int sbxu_http_setup_handle(sbxu_http *s, CURL *h, char *errbuf);
/* sbxu_http_escape - s URL-encoded (curl_free() it), NULL when out of memory. */
char *sbxu_http_escape(sbxu_http *s, const char *s_in);

/*
 * The shared map of HTTP failures to codes: 401/403 SBX_E_BACKEND_AUTH,
 * 404 SBX_E_NOT_FOUND, 409 SBX_E_BACKEND_CONFLICT, 429
 * SBX_E_BACKEND_RATE_LIMITED, 5xx SBX_E_BACKEND_UNAVAILABLE, other 4xx
 * SBX_E_BACKEND_FAILED, anything else (no status, 1xx-3xx where a failure was
 * expected) SBX_E_BACKEND_PROTOCOL.
 */
int sbxu_http_status_code(long status);
/*
 * sbxu_http_fail - set the error for a non-2xx answer and return its code:
 * "<plugin>: <context>: <message> (HTTP <status> from <display>)", with
 * "; rate limited, retry after N s" for a 429 that said when. message is
 * the provider's own text (may be NULL); the secrets of the session and of
 * rq (may be NULL) are redacted from it.
 */
int sbxu_http_fail(sbxu_http *s, const sbxu_http_request *rq, const sbxu_http_response *rs,
                  const char *context, const char *message);
/* The same with the code a backend's own map chose (its provider says more). */
int sbxu_http_fail_as(sbxu_http *s, int code, const sbxu_http_request *rq,
                     const sbxu_http_response *rs, const char *context, const char *message);
/* sbxu_http_curl_code - the code for a libcurl failure (os_errno: CURLINFO_OS_ERRNO). */
int sbxu_http_curl_code(CURLcode cc, long os_errno);

/*
 * sbxu_http_redact_header - line ("Name: value") with the value replaced by
 * "[redacted]" when Name is secret (the built-in names or one of extra,
 * case-insensitive), into out (always NUL-terminated).
 */
void sbxu_http_redact_header(const char *line, const char *const *extra, char *out, size_t len);
/*
 * sbxu_http_scrub - replace in text (in place) every occurrence of a secret
 * header value of the session's config or of rq (may be NULL) with
 * "[redacted]" (cut to fit); for messages that quote a server.
 */
void sbxu_http_scrub(const sbxu_http *s, const sbxu_http_request *rq, char *text, size_t size);
/* The same for the secret header lines of headers (NULL-terminated; may be NULL). */
void sbxu_http_scrub_headers(const char *const *headers, const char *const *redact, char *text,
                            size_t size);

#endif
