/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Connect's server-streaming body (the connect protocol's "Streaming
 * RPCs", as envd's process.Process/Start answers): a sequence of envelopes
 * [flags, length as big-endian uint32, message], the last one flagged
 * end-of-stream and carrying {} or {"error":{...}}. A body that ends
 * without that last message was cut, whatever came before.
 */
#include "e2b.h"
#include <sbxu/frame.h>

#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <sandboxio/errors.h>

void e2b_envelope_init(e2b_envelope *e, int (*on_message)(void *ud, const char *json, size_t len),
                       int (*on_end)(void *ud, const char *json, size_t len), void *ud)
{
    memset(e, 0, sizeof(*e));
    e->on_message = on_message;
    e->on_end = on_end;
    e->ud = ud;
}

void e2b_envelope_clear(e2b_envelope *e)
{
    free(e->msg);
    e->msg = NULL;
    e->msg_len = e->msg_cap = 0;
}

static int protocol(e2b_envelope *e, const char *why)
{
    e->why = why;
    return SBX_E_BACKEND_PROTOCOL;
}

/* The header is whole: check it and make room for the message. */
static int begin_message(e2b_envelope *e)
{
    e->flags = e->hdr[0];
    e->need = (uint32_t)e->hdr[1] << 24 | (uint32_t)e->hdr[2] << 16 | (uint32_t)e->hdr[3] << 8 |
              (uint32_t)e->hdr[4];
    e->hdr_len = 0;
    /* No compression was offered, and no other flag exists. */
    if (e->flags & E2B_ENV_COMPRESSED)
        return protocol(e, "a compressed message, though none was asked for");
    if (e->flags & ~E2B_ENV_END_STREAM)
        return protocol(e, "an envelope with unknown flags");
    if (e->need > E2B_ENV_MAX_MESSAGE)
        return protocol(e, "a message larger than 16 MiB");
    if (e->msg_cap < (size_t)e->need + 1) {
        char *m = realloc(e->msg, (size_t)e->need + 1);
        if (!m)
            return SBX_E_NOMEM;
        e->msg = m;
        e->msg_cap = (size_t)e->need + 1;
    }
    e->msg_len = 0;
    e->in_message = true;
    return SBX_OK;
}

/* The message is whole: hand it on. */
static int end_message(e2b_envelope *e)
{
    e->msg[e->msg_len] = '\0';
    e->in_message = false;
    if (e->flags & E2B_ENV_END_STREAM) {
        e->ended = true;
        return e->on_end ? e->on_end(e->ud, e->msg, e->msg_len) : SBX_OK;
    }
    return e->on_message ? e->on_message(e->ud, e->msg, e->msg_len) : SBX_OK;
}

int e2b_envelope_feed(e2b_envelope *e, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len) {
        if (e->ended)
            return protocol(e, "data after the end-of-stream message");
        if (!e->in_message) {
            if (!sbxu_frame_header(e->hdr, sizeof(e->hdr), &e->hdr_len, &p, &len))
                return SBX_OK;
            int rc = begin_message(e);
            if (rc)
                return rc;
        }
        size_t take = e->need < len ? e->need : len;
        memcpy(e->msg + e->msg_len, p, take);
        e->msg_len += take;
        e->need -= (uint32_t)take;
        p += take;
        len -= take;
        if (e->need == 0) {
            int rc = end_message(e);
            if (rc)
                return rc;
        }
    }
    return SBX_OK;
}

int e2b_envelope_finish(e2b_envelope *e)
{
    if (e->in_message || e->hdr_len)
        return protocol(e, "the stream ended inside a message");
    if (!e->ended)
        return protocol(e, "the stream ended without its end-of-stream message");
    return SBX_OK;
}

static void copy_string(json_object *o, char *out, size_t size)
{
    if (!size)
        return;
    out[0] = '\0';
    if (o && json_object_is_type(o, json_type_string)) {
        const char *s = json_object_get_string(o);
        size_t n = strlen(s);
        if (n >= size)
            n = size - 1;
        memcpy(out, s, n);
        out[n] = '\0';
    }
}

int e2b_end_error(const char *json, size_t len, bool *has_error, char *code, size_t code_size,
                  char *message, size_t message_size)
{
    *has_error = false;
    copy_string(NULL, code, code_size);
    copy_string(NULL, message, message_size);
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return SBX_E_NOMEM;
    json_object *root = json_tokener_parse_ex(tok, json, (int)len);
    bool whole = json_tokener_get_error(tok) == json_tokener_success &&
                 json_tokener_get_parse_end(tok) == len;
    json_tokener_free(tok);
    int rc = SBX_E_BACKEND_PROTOCOL;
    if (whole && json_object_is_type(root, json_type_object)) {
        json_object *err = NULL, *c = NULL;
        if (!json_object_object_get_ex(root, "error", &err)) {
            rc = SBX_OK;
        } else if (json_object_is_type(err, json_type_object) &&
                   json_object_object_get_ex(err, "code", &c) &&
                   json_object_is_type(c, json_type_string)) {
            json_object *m = NULL;
            json_object_object_get_ex(err, "message", &m);
            *has_error = true;
            copy_string(c, code, code_size);
            copy_string(m, message, message_size);
            rc = SBX_OK;
        }
    }
    json_object_put(root);
    return rc;
}
