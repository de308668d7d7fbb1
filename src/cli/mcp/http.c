/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http.c - the streamable HTTP transport (MCP 2025-06-18 and later), served
 * by libmicrohttpd: POST /mcp carries one JSON-RPC message; the answer is
 * application/json, or text/event-stream when notifications (progress)
 * came before the response (http_stream.c); GET /mcp with Last-Event-ID
 * resumes such a stream (replay.c); DELETE /mcp ends a session. Every
 * request is checked before its body is read: Host and Origin (DNS
 * rebinding), the bearer token, the size (413).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "http.h"
#include "jsonrpc.h"
#include "server.h"
#include "protocol.h"
#include "auth.h"
#include "replay.h"
#include "../interrupt.h"
#include "../common/error.h"

#define MCP_PATH "/mcp"

struct http_server {
    struct mcp_server *server;
    char *token;                /* NULL: none required (loopback only) */
    char host[64];              /* the address bound, for the Host check */
    unsigned port;              /* the port bound, once known (0 before; atomic) */
};

static enum MHD_Result respond(struct MHD_Connection *conn, unsigned status, const char *type,
                               const char *body, const char *session_id)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
                                                             MHD_RESPMEM_MUST_COPY);
    enum MHD_Result ret;

    if (!r)
        return MHD_NO;
    if (type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"sandboxio\"");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "POST, DELETE");
    if (session_id)
        MHD_add_response_header(r, SESSION_HEADER, session_id);
    ret = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ret;
}

/* A JSON-RPC error as the body of an HTTP error status. */
static enum MHD_Result respond_rpc_error(struct MHD_Connection *conn, unsigned status, int code,
                                         const char *message)
{
    json_object *err = mcp_jsonrpc_error(NULL, code, message);
    enum MHD_Result ret;

    if (!err)
        return MHD_NO;
    ret = respond(conn, status, "application/json", json_object_to_json_string_ext(err, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), NULL);
    json_object_put(err);
    return ret;
}

static int authorized(const struct http_server *hs, struct MHD_Connection *conn)
{
    const char *auth;

    if (!hs->token)
        return 1;
    auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!auth || strncasecmp(auth, "Bearer ", 7) != 0)
        return 0;
    auth += 7;
    return mcp_token_equal(hs->token, auth, strlen(auth));
}

/* The checks made before any of the body is read; MHD_YES when passed. */
static enum MHD_Result refused(struct http_server *hs, struct MHD_Connection *conn,
                               const char *url, const char *method, int *answered)
{
    const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ORIGIN);
    const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

    *answered = 1;
    if (!mcp_host_allowed(host, hs->host))
        return respond_rpc_error(conn, MHD_HTTP_FORBIDDEN, JSONRPC_INVALID_REQUEST,
                                 "Host not allowed: not loopback or the address served");
    /* Without a token, the Origin check is all that stands between a web
     * page of another local origin and running code here: only the
     * server's own origin passes. With one, the token guards. */
    if (!mcp_origin_allowed(origin, hs->token ? MCP_ANY_PORT : __atomic_load_n(&hs->port, __ATOMIC_ACQUIRE)))
        return respond_rpc_error(conn, MHD_HTTP_FORBIDDEN, JSONRPC_INVALID_REQUEST,
                                 hs->token ? "Origin not allowed: not a loopback origin"
                                           : "Origin not allowed: without a token only the server's own origin");
    if (!authorized(hs, conn))
        return respond(conn, MHD_HTTP_UNAUTHORIZED, "text/plain", "bearer token required\n", NULL);
    if (strcmp(url, MCP_PATH) != 0)
        return respond(conn, MHD_HTTP_NOT_FOUND, "text/plain", "not found: the endpoint is " MCP_PATH "\n", NULL);
    /* GET only resumes a stream: the server has none of its own. */
    if (strcmp(method, "POST") != 0 && strcmp(method, "DELETE") != 0 &&
        !(strcmp(method, "GET") == 0 && hs->server->config->replay_bytes &&
          MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID")))
        return respond(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "use POST or DELETE\n", NULL);
    if (length && strtoull(length, NULL, 10) > hs->server->config->max_request)
        return respond_rpc_error(conn, MHD_HTTP_CONTENT_TOO_LARGE, JSONRPC_INVALID_REQUEST,
                                 "SBX_E1031: the body is larger than the server's --max-request");
    *answered = 0;
    return MHD_YES;
}

/* The session named by the request, referenced; NULL if none matches. */
static struct mcp_session *find_session(struct mcp_server *server, const char *id)
{
    struct mcp_session *found = NULL;

    if (!id)
        return NULL;
    pthread_mutex_lock(&server->lock);
    for (struct mcp_session *s = server->sessions; s; s = s->next) {
        if (!s->http_deleted && mcp_token_equal(s->id, id, strlen(id))) {
            found = s;
            s->http_refs++;
            break;
        }
    }
    pthread_mutex_unlock(&server->lock);
    return found;
}

static void release_session(struct mcp_server *server, struct mcp_session *s, int delete)
{
    int last;

    /* Idle from the end of its last request (a call may have run long). */
    pthread_mutex_lock(&s->lock);
    s->last_seen_ms = sbxu_mono_ms();
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&server->lock);
    if (delete)
        s->http_deleted = 1;
    last = --s->http_refs == 0 && s->http_deleted;
    pthread_mutex_unlock(&server->lock);
    if (last)
        mcp_session_close(s);
}

static int is_initialize(const char *body, size_t len)
{
    struct mcp_msg m;
    const char *why;
    int yes = mcp_jsonrpc_parse(body, len, &m, &why) == 0 && m.kind == MCP_MSG_REQUEST &&
              strcmp(m.method, "initialize") == 0;

    mcp_msg_release(&m);
    return yes;
}

/* The id of the request body (a reference), for the error of a lost stream. */
static json_object *request_id(const char *body, size_t len)
{
    struct mcp_msg m;
    const char *why;
    json_object *id = NULL;

    if (mcp_jsonrpc_parse(body, len, &m, &why) == 0 && m.kind == MCP_MSG_REQUEST)
        id = json_object_get(m.id);
    mcp_msg_release(&m);
    return id;
}


/* The first message of a call: its response (JSON) or a notification (a stream). */
static int first_is_response(struct http_request *req, int *any)
{
    json_object *m;
    int yes;

    pthread_mutex_lock(&req->session->replay_lock);
    *any = json_object_array_length(req->st->queue) > 0;
    m = *any ? json_object_array_get_idx(req->st->queue, 0) : NULL;
    yes = m && json_object_object_get_ex(m, "id", NULL);
    pthread_mutex_unlock(&req->session->replay_lock);
    return yes;
}

/*
 * Answer with what the message brought: nothing (202), one response
 * (application/json), or notifications first (text/event-stream, written
 * as they come while a call runs, and resumable).
 */
static enum MHD_Result answer(struct MHD_Connection *conn, struct http_request *req,
                              const char *session_id)
{
    int any, response = first_is_response(req, &any);

    if (req->call_running && !response) {
        /* Wait for the first message: a call that ends at once needs no stream. */
        while (!http_finished(req) && !any && !req->gone) {
            http_wait_event(req);
            response = first_is_response(req, &any);
        }
        if (req->gone)
            return MHD_NO;
    }
    if (any && !response) {
        mcp_stream_make_resumable(req->st);
        return http_respond_stream(conn, req, session_id);
    }
    /* A response is the last message of a call: its end follows at once. */
    if (req->call_running)
        http_wait_finished(req);
    if (!any)
        return respond(conn, MHD_HTTP_ACCEPTED, NULL, "", session_id);
    /* The call is over: nothing changes the queue any more. */
    return respond(conn, MHD_HTTP_OK, "application/json",
                   json_object_to_json_string_ext(json_object_array_get_idx(req->st->queue, 0),
                                                  JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
                   session_id);
}

/* The session a request names; NULL with the answer queued in *ret. */
static struct mcp_session *session_of(struct http_server *hs, struct MHD_Connection *conn,
                                      enum MHD_Result *ret)
{
    const char *id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, SESSION_HEADER);
    struct mcp_session *s;

    if (!id)
        *ret = respond_rpc_error(conn, MHD_HTTP_BAD_REQUEST, JSONRPC_INVALID_REQUEST,
                                 "Mcp-Session-Id required (initialize first)");
    else if (!(s = find_session(hs->server, id)))
        *ret = respond_rpc_error(conn, MHD_HTTP_NOT_FOUND, JSONRPC_INVALID_REQUEST,
                                 "no such session (it ended, or never was)");
    else
        return s;
    return NULL;
}

static void watch_socket(struct MHD_Connection *conn, struct http_request *req)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

    req->sock = info ? info->connect_fd : -1;
}

static enum MHD_Result post(struct http_server *hs, struct MHD_Connection *conn, struct http_request *req)
{
    const char *id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, SESSION_HEADER);
    const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    const char *body = req->body ? req->body : "";
    enum MHD_Result ret = MHD_NO;
    struct mcp_session *s;
    json_object *rid;

    if (req->too_big)
        return respond_rpc_error(conn, MHD_HTTP_CONTENT_TOO_LARGE, JSONRPC_INVALID_REQUEST,
                                 "SBX_E1031: the body is larger than the server's --max-request");
    if (!type || strncasecmp(type, "application/json", 16) != 0)
        return respond(conn, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "text/plain",
                       "Content-Type must be application/json\n", NULL);
    if (!id && is_initialize(body, req->len)) {
        char sid[40];
        int rc = mcp_random_id(sid, sizeof(sid), "") != 0 ? SBX_E_SYSTEM
                 : mcp_session_new_http(&s, hs->server, sid);
        /* Full: unavailable until a session ends, as the reference SDKs answer. */
        if (rc == SBX_E_MCP_SESSION_LIMIT)
            return respond_rpc_error(conn, MHD_HTTP_SERVICE_UNAVAILABLE, JSONRPC_SERVER_ERROR,
                                     "SBX_E3022: the server has as many sessions open as its "
                                     "--max-sessions allows: end one (DELETE) or try again later");
        if (rc != SBX_OK)
            return respond_rpc_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, JSONRPC_INTERNAL_ERROR,
                                     "cannot create a session");
    } else if (!(s = session_of(hs, conn, &ret))) {
        return ret;
    }
    /* Held until the request is completed. */
    req->session = s;
    rid = request_id(body, req->len);
    req->st = mcp_stream_new(s, rid);
    json_object_put(rid);
    if (!req->st)
        return respond_rpc_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, JSONRPC_INTERNAL_ERROR,
                                 "out of memory");
    watch_socket(conn, req);
    mcp_stream_ref(req->st);    /* the call's, dropped by its last send (NULL) */
    req->call_running = mcp_session_handle(s, body, req->len, mcp_stream_send, req->st, 1);
    if (!req->call_running)
        mcp_stream_send(req->st, NULL);     /* answered already, on this thread */
    return answer(conn, req, s->id);
}

/* GET with Last-Event-ID: the rest of a stream whose client lost it. */
static enum MHD_Result resume(struct http_server *hs, struct MHD_Connection *conn, struct http_request *req)
{
    const char *last = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    enum MHD_Result ret = MHD_NO;
    struct mcp_session *s = session_of(hs, conn, &ret);

    if (!s)
        return ret;
    req->session = s;
    if (mcp_stream_find(s, last, &req->st, &req->pos) != SBX_OK)
        return respond_rpc_error(conn, MHD_HTTP_NOT_FOUND, JSONRPC_INVALID_REQUEST,
                                 "SBX_E1060: no event stream of this session has this Last-Event-ID");
    watch_socket(conn, req);
    return http_respond_stream(conn, req, s->id);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    struct http_server *hs = cls;
    struct http_request *req = *con_cls;
    size_t max = hs->server->config->max_request;
    int answered;

    (void)version;
    if (!req) {
        enum MHD_Result ret = refused(hs, conn, url, method, &answered);
        if (answered)
            return ret;
        if (!(req = calloc(1, sizeof(*req))))
            return MHD_NO;
        req->sock = -1;
        *con_cls = req;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!req->too_big && req->len + *upload_size > max) {
            req->too_big = 1;
            free(req->body);
            req->body = NULL;
            req->len = 0;
        }
        if (!req->too_big) {
            char *grown = realloc(req->body, req->len + *upload_size + 1);
            if (!grown)
                return MHD_NO;
            memcpy(grown + req->len, upload, *upload_size);
            req->body = grown;
            req->len += *upload_size;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "DELETE") == 0) {
        const char *id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, SESSION_HEADER);
        struct mcp_session *s = find_session(hs->server, id);
        if (!s)
            return respond(conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such session\n", NULL);
        /* Its calls in flight stop now; the session closes when the last ends. */
        mcp_session_cancel_calls(s);
        release_session(hs->server, s, 1);
        return respond(conn, MHD_HTTP_OK, NULL, "", NULL);
    }
    if (strcmp(method, "GET") == 0)
        return resume(hs, conn, req);
    return post(hs, conn, req);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct http_server *hs = cls;
    struct http_request *req = *con_cls;

    (void)conn, (void)toe;
    if (!req)
        return;
    /* A client gone before the end of its stream: a resumable one waits
     * for a reader; another call is stopped. The call's thread has a
     * reference of its own on the stream. */
    if (req->st && (req->reading || (req->call_running && !http_finished(req))))
        http_client_gone(req);
    mcp_stream_put(req->st);
    if (req->session)
        release_session(hs->server, req->session, 0);
    free(req->body);
    free(req->event);
    free(req);
    *con_cls = NULL;
}

/* ADDR:PORT, [V6]:PORT or PORT (loopback) into a socket address. */
static int parse_address(const char *text, struct sockaddr_storage *ss, char *host, size_t size)
{
    const char *colon = strrchr(text, ':');
    char addr[64];
    char *end;
    unsigned long port;

    memset(ss, 0, sizeof(*ss));
    if (!colon) {
        snprintf(addr, sizeof(addr), "127.0.0.1");
        colon = text - 1;
    } else if (text[0] == '[' && colon > text && colon[-1] == ']') {
        snprintf(addr, sizeof(addr), "%.*s", (int)(colon - text - 2), text + 1);
    } else if (colon == text) {
        snprintf(addr, sizeof(addr), "127.0.0.1");
    } else {
        snprintf(addr, sizeof(addr), "%.*s", (int)(colon - text), text);
    }
    errno = 0;
    port = strtoul(colon + 1, &end, 10);
    if (!colon[1] || *end || errno || port > 65535)
        return -1;
    snprintf(host, size, "%s", addr);
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        return 0;
    }
    if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        return 0;
    }
    return -1;
}

/* The token: $SANDBOXIO_MCP_TOKEN, or the first line of --token-file. */
static int load_token(const struct mcp_config *cfg, char **token)
{
    const char *env = getenv("SANDBOXIO_MCP_TOKEN");
    char line[4096];
    FILE *f;

    *token = NULL;
    if (cfg->token_file) {
        if (!(f = fopen(cfg->token_file, "re")))
            return sbx_cli_error(SBX_E_MCP_CONFIG, "--token-file %s: %s", cfg->token_file, strerror(errno));
        if (!fgets(line, sizeof(line), f))
            line[0] = '\0';
        fclose(f);
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            return sbx_cli_error(SBX_E_MCP_CONFIG, "--token-file %s: no token in it", cfg->token_file);
        env = line;
    }
    if (env && *env && !(*token = strdup(env)))
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    return 0;
}

/* Close what clients left open: their sessions and sandboxes. */
static void close_all(struct mcp_server *server)
{
    for (;;) {
        pthread_mutex_lock(&server->lock);
        struct mcp_session *s = server->sessions;
        pthread_mutex_unlock(&server->lock);
        if (!s)
            break;
        mcp_session_close(s);
    }
}

int mcp_serve_http(struct mcp_server *server)
{
    struct http_server hs = { .server = server };
    struct sockaddr_storage ss;
    struct MHD_Daemon *daemon;
    const union MHD_DaemonInfo *info;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION;
    int status;

    if (parse_address(server->config->http, &ss, hs.host, sizeof(hs.host)) != 0)
        return sbx_cli_error(SBX_E_MCP_CONFIG, "--http: '%s' is not ADDR:PORT", server->config->http);
    if ((status = load_token(server->config, &hs.token)))
        return status;
    hs.port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                             : ((struct sockaddr_in *)&ss)->sin_port);
    if (!hs.token && !mcp_host_is_loopback(hs.host)) {
        free(hs.token);
        return sbx_cli_error(SBX_E_MCP_CONFIG,
                             "--http %s is not a loopback address: refusing to serve it without a "
                             "token (SANDBOXIO_MCP_TOKEN or --token-file)", server->config->http);
    }
    if (ss.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &hs,
                              MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                              MHD_OPTION_NOTIFY_COMPLETED, on_completed, &hs,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)256,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)600,
                              MHD_OPTION_END);
    if (!daemon) {
        free(hs.token);
        return sbx_cli_error(SBX_E_MCP_CONFIG, "cannot listen on %s: %s", server->config->http,
                             strerror(errno));
    }
    info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    /* Port 0 asked for any: what was bound is known only now. */
    __atomic_store_n(&hs.port, info ? info->port : 0, __ATOMIC_RELEASE);
    fprintf(stderr, "sandboxio mcp: serving http://%s%s%s:%u" MCP_PATH "%s\n",
            ss.ss_family == AF_INET6 ? "[" : "", hs.host, ss.ss_family == AF_INET6 ? "]" : "",
            info ? info->port : 0, hs.token ? "" : " (no token: loopback only)");
    fflush(stderr);

    for (;;) {
        struct pollfd fd = { .fd = sbx_cli_interrupt_fd(), .events = POLLIN };
        if (poll(&fd, 1, -1) > 0 || (errno != EINTR))
            break;
    }
    /* Calls in flight hold their connection's thread: stop them first, or
     * stopping the daemon would wait for their commands to end. */
    mcp_server_cancel_all(server);
    MHD_stop_daemon(daemon);
    close_all(server);
    free(hs.token);
    return sbx_cli_interrupted() ? 128 + sbx_cli_interrupted() : 0;
}
