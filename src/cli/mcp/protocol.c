/* SPDX-License-Identifier: Apache-2.0 */
/*
 * protocol.c - the MCP methods: initialize and its version negotiation,
 * ping, tools/list, tools/call, logging/setLevel, and the notifications
 * initialized and cancelled. Misuse of the protocol is a JSON-RPC error;
 * a tool that fails answers with a result whose isError is true.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc.h"
#include "server.h"
#include "protocol.h"
#include "tools.h"
#include "../common/output.h"

/* Concurrent tools/call per session: past this the request is refused. */
#define MCP_MAX_CALLS 64

static const char instructions[] =
    "Run code in sandboxes. `run` runs one command (argv, or code + language) in a fresh "
    "sandbox; sandbox_create / sandbox_exec / sandbox_*_file / sandbox_destroy keep one across "
    "calls. Paths are relative to the sandbox's work directory. The operator's policy "
    "(network, limits, timeout) applies; arguments may only tighten it.";

static void send_msg(mcp_send_fn send, void *ud, json_object *msg)
{
    if (msg)
        send(ud, msg);
    json_object_put(msg);
}

void mcp_send_error(mcp_send_fn send, void *ud, json_object *id, int code, const char *message)
{
    send_msg(send, ud, mcp_jsonrpc_error(id, code, message));
}

static void reply(mcp_send_fn send, void *ud, json_object *id, json_object *result)
{
    if (!result) {
        mcp_send_error(send, ud, id, JSONRPC_INTERNAL_ERROR, "out of memory");
        return;
    }
    send_msg(send, ud, mcp_jsonrpc_response(id, result));
}

static const char *negotiate(json_object *params)
{
    json_object *v;

    if (params && json_object_object_get_ex(params, "protocolVersion", &v) &&
        json_object_is_type(v, json_type_string)) {
        for (size_t i = 0; mcp_protocol_versions[i]; i++) {
            if (strcmp(json_object_get_string(v), mcp_protocol_versions[i]) == 0)
                return mcp_protocol_versions[i];
        }
    }
    /* The spec: answer with the latest we support; the client decides. */
    return mcp_protocol_versions[0];
}

static json_object *initialize(struct mcp_session *s, json_object *params)
{
    json_object *result = json_object_new_object(), *caps = json_object_new_object();
    json_object *tools = json_object_new_object(), *info = json_object_new_object();
    const char *version = negotiate(params);
    int rc = result && caps && tools && info ? SBX_OK : SBX_E_NOMEM;

    pthread_mutex_lock(&s->lock);
    snprintf(s->protocol, sizeof(s->protocol), "%s", version);
    s->initialized = 1;
    pthread_mutex_unlock(&s->lock);

    if (!rc) rc = sbx_cli_json_add(tools, "listChanged", json_object_new_boolean(0));
    if (!rc) { rc = sbx_cli_json_add(caps, "tools", tools); tools = NULL; }
    if (!rc) rc = sbx_cli_json_add(caps, "logging", json_object_new_object());
    /* No resources, prompts or completions to offer; the lists say so. */
    if (!rc) rc = sbx_cli_json_add(caps, "resources", json_object_new_object());
    if (!rc) rc = sbx_cli_json_add(caps, "prompts", json_object_new_object());
    if (!rc) rc = sbx_cli_json_add(caps, "completions", json_object_new_object());
    if (!rc) rc = sbx_cli_json_add(info, "name", json_object_new_string("sandboxio"));
    if (!rc) rc = sbx_cli_json_add(info, "title", json_object_new_string("sandboxio"));
    if (!rc) rc = sbx_cli_json_add(info, "version", json_object_new_string(PACKAGE_VERSION));
    if (!rc) rc = sbx_cli_json_add(result, "protocolVersion", json_object_new_string(version));
    if (!rc) { rc = sbx_cli_json_add(result, "capabilities", caps); caps = NULL; }
    if (!rc) { rc = sbx_cli_json_add(result, "serverInfo", info); info = NULL; }
    if (!rc) rc = sbx_cli_json_add(result, "instructions", json_object_new_string(instructions));
    json_object_put(tools);
    json_object_put(caps);
    json_object_put(info);
    if (rc) {
        json_object_put(result);
        return NULL;
    }
    return result;
}

static void call_free(struct mcp_call *call)
{
    json_object_put(call->id);
    json_object_put(call->arguments);
    json_object_put(call->progress_token);
    sbx_cancel_free(call->cancel);
    free(call->tool);
    free(call);
}

/* Run one tools/call to its response, then forget it. */
static void call_run(struct mcp_call *call)
{
    struct mcp_session *s = call->session;
    json_object *result;
    int known = 1, cancelled;

    result = mcp_tools_call(s, call, call->tool, call->arguments, &known);
    pthread_mutex_lock(&s->lock);
    for (struct mcp_call **p = &s->calls; *p; p = &(*p)->next) {
        if (*p == call) {
            *p = call->next;
            break;
        }
    }
    cancelled = call->cancelled;
    pthread_mutex_unlock(&s->lock);
    /* A cancelled request gets no response (the spec: the client has
     * stopped waiting for it). */
    if (cancelled)
        json_object_put(result);
    else if (!known)
        mcp_send_error(call->send, call->send_userdata, call->id, JSONRPC_INVALID_PARAMS,
                       "unknown tool (tools/list names them)");
    else
        reply(call->send, call->send_userdata, call->id, result);
    call_free(call);
}

void mcp_server_cancel_all(struct mcp_server *server)
{
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;       /* no new call starts (and the reaper stops) */
    pthread_cond_broadcast(&server->wake);
    for (struct mcp_session *s = server->sessions; s; s = s->next) {
        pthread_mutex_lock(&s->lock);
        for (struct mcp_call *c = s->calls; c; c = c->next) {
            c->cancelled = 1;
            sbx_cancel_trigger(c->cancel);
        }
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&server->lock);
}

void mcp_session_cancel_calls(struct mcp_session *s)
{
    pthread_mutex_lock(&s->lock);
    for (struct mcp_call *c = s->calls; c; c = c->next) {
        c->cancelled = 1;
        sbx_cancel_trigger(c->cancel);
    }
    pthread_mutex_unlock(&s->lock);
}

void mcp_session_cancel_sink(struct mcp_session *s, void *userdata)
{
    pthread_mutex_lock(&s->lock);
    for (struct mcp_call *c = s->calls; c; c = c->next) {
        if (c->send_userdata == userdata) {
            c->cancelled = 1;
            sbx_cancel_trigger(c->cancel);
        }
    }
    pthread_mutex_unlock(&s->lock);
}

static void *call_thread(void *arg)
{
    struct mcp_call *call = arg;
    struct mcp_session *s = call->session;
    mcp_send_fn send = call->send;
    void *ud = call->send_userdata;

    call_run(call);
    send(ud, NULL);
    pthread_mutex_lock(&s->lock);
    if (--s->running == 0)
        pthread_cond_broadcast(&s->calls_done);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* 1 when the call went to a thread of its own. */
static int tools_call(struct mcp_session *s, struct mcp_msg *m, mcp_send_fn send, void *ud,
                      int threaded)
{
    json_object *name = NULL, *arguments = NULL, *meta = NULL, *token = NULL;
    struct mcp_call *call;
    size_t n = 0;
    pthread_t thread;
    pthread_attr_t attr;
    int refused;

    if (!m->params || !json_object_object_get_ex(m->params, "name", &name) ||
        !json_object_is_type(name, json_type_string)) {
        mcp_send_error(send, ud, m->id, JSONRPC_INVALID_PARAMS, "tools/call needs a \"name\"");
        return 0;
    }
    if (json_object_object_get_ex(m->params, "arguments", &arguments) &&
        !json_object_is_type(arguments, json_type_object)) {
        mcp_send_error(send, ud, m->id, JSONRPC_INVALID_PARAMS, "\"arguments\" must be an object");
        return 0;
    }
    if (json_object_object_get_ex(m->params, "_meta", &meta) &&
        json_object_is_type(meta, json_type_object) &&
        json_object_object_get_ex(meta, "progressToken", &token) &&
        !json_object_is_type(token, json_type_string) && !json_object_is_type(token, json_type_int))
        token = NULL;

    call = calloc(1, sizeof(*call));
    if (!call || !(call->tool = strdup(json_object_get_string(name))) ||
        sbx_cancel_new(&call->cancel) != SBX_OK) {
        if (call)
            free(call->tool);
        free(call);
        mcp_send_error(send, ud, m->id, JSONRPC_INTERNAL_ERROR, "out of memory");
        return 0;
    }
    call->id = json_object_get(m->id);
    call->arguments = json_object_get(arguments);
    call->progress_token = json_object_get(token);
    call->send = send;
    call->send_userdata = ud;
    call->session = s;

    pthread_mutex_lock(&s->server->lock);
    refused = s->server->stopping;
    pthread_mutex_unlock(&s->server->lock);
    pthread_mutex_lock(&s->lock);
    for (struct mcp_call *c = s->calls; c; c = c->next)
        n++;
    refused = refused || s->closing || n >= MCP_MAX_CALLS;
    if (!refused) {
        call->next = s->calls;
        s->calls = call;
        if (threaded)
            s->running++;
    }
    pthread_mutex_unlock(&s->lock);
    if (refused) {
        mcp_send_error(send, ud, m->id, JSONRPC_INTERNAL_ERROR, "too many calls in flight");
        call_free(call);
        return 0;
    }
    if (!threaded) {
        call_run(call);
        return 0;
    }
    int started = 1;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, call_thread, call) != 0) {
        pthread_mutex_lock(&s->lock);
        s->running--;
        pthread_mutex_unlock(&s->lock);
        call_run(call);
        started = 0;
    }
    pthread_attr_destroy(&attr);
    return started;
}

/* notifications/cancelled: the request it names stops, and gets no response. */
static void cancelled(struct mcp_session *s, json_object *params)
{
    json_object *id;

    if (!params || !json_object_object_get_ex(params, "requestId", &id))
        return;
    pthread_mutex_lock(&s->lock);
    for (struct mcp_call *c = s->calls; c; c = c->next) {
        if (json_object_equal(c->id, id)) {
            c->cancelled = 1;
            sbx_cancel_trigger(c->cancel);
        }
    }
    pthread_mutex_unlock(&s->lock);
}

static const char *const log_levels[] = { "emergency", "alert", "critical", "error", "warning",
                                          "notice", "info", "debug", NULL };

static int set_level(struct mcp_session *s, json_object *params)
{
    json_object *v;

    if (!params || !json_object_object_get_ex(params, "level", &v) ||
        !json_object_is_type(v, json_type_string))
        return -1;
    for (int i = 0; log_levels[i]; i++) {
        if (strcmp(json_object_get_string(v), log_levels[i]) == 0) {
            pthread_mutex_lock(&s->lock);
            s->log_level = i;
            pthread_mutex_unlock(&s->lock);
            return 0;
        }
    }
    return -1;
}

/* {"<key>": []}: what resources/list and the like answer, having none. */
static json_object *empty_list(const char *key)
{
    json_object *obj = json_object_new_object();

    if (obj && sbx_cli_json_add(obj, key, json_object_new_array())) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static json_object *no_completion(void)
{
    json_object *obj = json_object_new_object(), *c = json_object_new_object();
    int rc = obj && c ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(c, "values", json_object_new_array());
    if (!rc) rc = sbx_cli_json_add(c, "hasMore", json_object_new_boolean(0));
    if (!rc) {
        rc = sbx_cli_json_add(obj, "completion", c);
        c = NULL;
    }
    json_object_put(c);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

int mcp_session_handle(struct mcp_session *s, const char *data, size_t len, mcp_send_fn send,
                       void *ud, int threaded)
{
    struct mcp_msg m;
    const char *why = NULL;
    int code = mcp_jsonrpc_parse(data, len, &m, &why), initialized, started = 0;

    pthread_mutex_lock(&s->lock);
    s->last_seen_ms = sbxu_mono_ms();
    initialized = s->initialized;
    pthread_mutex_unlock(&s->lock);

    if (code) {
        mcp_send_error(send, ud, m.id, code, why);
    } else if (m.kind == MCP_MSG_RESPONSE) {
        /* We send no requests; a stray response is dropped. */
    } else if (m.kind == MCP_MSG_NOTIFICATION) {
        if (strcmp(m.method, "notifications/cancelled") == 0)
            cancelled(s, m.params);
        /* notifications/initialized and unknown notifications: nothing to do. */
    } else if (strcmp(m.method, "initialize") == 0) {
        reply(send, ud, m.id, initialize(s, m.params));
    } else if (strcmp(m.method, "ping") == 0) {
        reply(send, ud, m.id, json_object_new_object());
    } else if (!initialized) {
        mcp_send_error(send, ud, m.id, JSONRPC_INVALID_REQUEST, "initialize first");
    } else if (strcmp(m.method, "tools/list") == 0) {
        reply(send, ud, m.id, json_object_get(s->server->tools));
    } else if (strcmp(m.method, "tools/call") == 0) {
        started = tools_call(s, &m, send, ud, threaded);
    } else if (strcmp(m.method, "resources/list") == 0) {
        reply(send, ud, m.id, empty_list("resources"));
    } else if (strcmp(m.method, "resources/templates/list") == 0) {
        reply(send, ud, m.id, empty_list("resourceTemplates"));
    } else if (strcmp(m.method, "prompts/list") == 0) {
        reply(send, ud, m.id, empty_list("prompts"));
    } else if (strcmp(m.method, "completion/complete") == 0) {
        reply(send, ud, m.id, no_completion());
    } else if (strcmp(m.method, "logging/setLevel") == 0) {
        if (set_level(s, m.params))
            mcp_send_error(send, ud, m.id, JSONRPC_INVALID_PARAMS, "\"level\" is not a log level");
        else
            reply(send, ud, m.id, json_object_new_object());
    } else {
        mcp_send_error(send, ud, m.id, JSONRPC_METHOD_NOT_FOUND, "method not found");
    }
    mcp_msg_release(&m);
    return started;
}

void mcp_send_progress(struct mcp_call *call, double progress, const char *message)
{
    json_object *params;

    if (!call->progress_token)
        return;
    params = json_object_new_object();
    if (!params || sbx_cli_json_add(params, "progressToken", json_object_get(call->progress_token)) ||
        sbx_cli_json_add(params, "progress", json_object_new_double(progress)) ||
        (message && sbx_cli_json_add(params, "message", json_object_new_string(message)))) {
        json_object_put(params);
        return;
    }
    send_msg(call->send, call->send_userdata, mcp_jsonrpc_notification("notifications/progress", params));
}
