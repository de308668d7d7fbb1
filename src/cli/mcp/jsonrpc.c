/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jsonrpc.c - parse and build JSON-RPC 2.0 messages. Everything a client
 * sends passes through mcp_jsonrpc_parse() first: it has a fuzz target
 * (fuzz_jsonrpc.c).
 */
#include "config.h"

#include <string.h>

#include "jsonrpc.h"

static int valid_id(json_object *id)
{
    /* MCP: a string or an integer, never null. */
    return id && (json_object_is_type(id, json_type_string) || json_object_is_type(id, json_type_int));
}

int mcp_jsonrpc_parse(const char *data, size_t len, struct mcp_msg *msg, const char **why)
{
    json_tokener *tok;
    json_object *v;
    int has_result, has_error;

    memset(msg, 0, sizeof(*msg));
    if (len > (size_t)INT32_MAX) {
        *why = "message too large";
        return JSONRPC_PARSE_ERROR;
    }
    tok = json_tokener_new_ex(JSONRPC_MAX_DEPTH);
    if (!tok) {
        *why = "out of memory";
        return JSONRPC_INTERNAL_ERROR;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    msg->root = json_tokener_parse_ex(tok, data, (int)len);
    if (json_tokener_get_error(tok) != json_tokener_success) {
        json_tokener_free(tok);
        json_object_put(msg->root);
        msg->root = NULL;
        *why = "not valid JSON";
        return JSONRPC_PARSE_ERROR;
    }
    /* One value, and nothing after it but white space. */
    for (size_t i = json_tokener_get_parse_end(tok); i < len; i++) {
        if (!strchr(" \t\r\n", data[i])) {
            json_tokener_free(tok);
            *why = "text after the JSON value";
            return JSONRPC_PARSE_ERROR;
        }
    }
    json_tokener_free(tok);

    if (json_object_is_type(msg->root, json_type_array)) {
        *why = "batches are not supported";
        return JSONRPC_INVALID_REQUEST;
    }
    if (!json_object_is_type(msg->root, json_type_object)) {
        *why = "a message must be a JSON object";
        return JSONRPC_INVALID_REQUEST;
    }
    if (json_object_object_get_ex(msg->root, "id", &v) && valid_id(v))
        msg->id = v;
    if (!json_object_object_get_ex(msg->root, "jsonrpc", &v) ||
        !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), "2.0") != 0) {
        *why = "\"jsonrpc\" must be \"2.0\"";
        return JSONRPC_INVALID_REQUEST;
    }
    int has_id = json_object_object_get_ex(msg->root, "id", &v);
    /* null only in an error response to a message whose id could not be read. */
    int null_id = has_id && v == NULL;
    if (has_id && !null_id && !valid_id(v)) {
        *why = "\"id\" must be a string or an integer";
        return JSONRPC_INVALID_REQUEST;
    }
    if (json_object_object_get_ex(msg->root, "method", &v)) {
        if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0) {
            *why = "\"method\" must be a non-empty string";
            return JSONRPC_INVALID_REQUEST;
        }
        msg->method = json_object_get_string(v);
        if (null_id) {
            *why = "\"id\" must be a string or an integer";
            return JSONRPC_INVALID_REQUEST;
        }
        if (json_object_object_get_ex(msg->root, "params", &v)) {
            if (!json_object_is_type(v, json_type_object)) {
                *why = "\"params\" must be an object";
                return JSONRPC_INVALID_REQUEST;
            }
            msg->params = v;
        }
        msg->kind = msg->id ? MCP_MSG_REQUEST : MCP_MSG_NOTIFICATION;
        return 0;
    }
    has_result = json_object_object_get_ex(msg->root, "result", NULL);
    has_error = json_object_object_get_ex(msg->root, "error", NULL);
    if (has_result == has_error || (!msg->id && !(null_id && has_error))) {
        *why = "neither a request, a notification nor a response";
        return JSONRPC_INVALID_REQUEST;
    }
    msg->kind = MCP_MSG_RESPONSE;
    return 0;
}

void mcp_msg_release(struct mcp_msg *msg)
{
    json_object_put(msg->root);
    memset(msg, 0, sizeof(*msg));
}

static json_object *envelope(void)
{
    json_object *obj = json_object_new_object();
    json_object *version = json_object_new_string("2.0");

    if (!obj || !version || json_object_object_add(obj, "jsonrpc", version) != 0) {
        json_object_put(version);
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static int add(json_object *obj, const char *key, json_object *value)
{
    if (!value || json_object_object_add(obj, key, value) != 0) {
        json_object_put(value);
        return -1;
    }
    return 0;
}

json_object *mcp_jsonrpc_response(json_object *id, json_object *result)
{
    json_object *obj = envelope();

    if (!obj || add(obj, "id", json_object_get(id)) || add(obj, "result", result)) {
        if (!obj)
            json_object_put(result);
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

json_object *mcp_jsonrpc_error(json_object *id, int code, const char *message)
{
    json_object *obj = envelope(), *error = json_object_new_object();

    if (!obj || !error || add(error, "code", json_object_new_int(code)) ||
        add(error, "message", json_object_new_string(message)) ||
        (id ? add(obj, "id", json_object_get(id)) : json_object_object_add(obj, "id", NULL)) ||
        add(obj, "error", error)) {
        if (!obj)
            json_object_put(error);
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

json_object *mcp_jsonrpc_notification(const char *method, json_object *params)
{
    json_object *obj = envelope();

    if (!obj || add(obj, "method", json_object_new_string(method)) ||
        (params && add(obj, "params", params))) {
        if (!obj)
            json_object_put(params);
        json_object_put(obj);
        return NULL;
    }
    return obj;
}
