/* SPDX-License-Identifier: Apache-2.0 */
/*
 * process.Process/Start, a Connect server stream (connect protocol,
 * "Streaming RPCs", content type application/connect+json): the request
 * body is one envelope holding the JSON StartRequest; the answer is
 * envelopes of StartResponse {event: {start | data | end | keepalive}},
 * then the end-of-stream frame. envd sends the start event (the pid), the
 * data events as the command writes, the end event after the pipes close
 * and the process is reaped, then {} (infra packages/envd/internal/
 * services/process/start.go).
 *
 * The stream runs on a handle of its own (sbxu's sbxu_http_stream),
 * so the caller can poll a cancel descriptor and keep a deadline while it
 * flows, and several commands of one sandbox run at once. A 502/503/504 or
 * a refused connection before any event (E2B's proxy while envd comes up)
 * means the command never started: that alone is tried again.
 */
#include "e2b.h"
#include <sbxu/clock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/base64.h>

#define START_RETRY_DEADLINE_MS 30000

typedef struct strm {
    e2b_sandbox *sb;
    const e2b_stream_ops *ops;
    e2b_envelope env;
    int stop_rc;           /* why a callback stopped the transfer */
    bool started;          /* an event came: never try again */
} strm;

static int protocol(strm *s, const char *why)
{
    return s->sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                  "e2b: process.Process/Start: %s (from %s)", why,
                                  s->sb->envd_url);
}

static int data_event(strm *s, json_object *data)
{
    static const char *const names[] = {"stdout", "stderr", "pty"};
    static const int streams[] = {1, 2, 1};
    for (int i = 0; i < 3; i++) {
        json_object *v;
        if (!json_object_object_get_ex(data, names[i], &v))
            continue;
        if (!json_object_is_type(v, json_type_string))
            return protocol(s, "a data event that is not base64");
        size_t len = 0;
        char *bytes = sbxu_base64_decode(json_object_get_string(v), &len);
        if (!bytes)
            return protocol(s, "a data event that is not base64");
        int rc = len && s->ops->data ? s->ops->data(s->ops->ud, streams[i], bytes, len) : 0;
        free(bytes);
        return rc;
    }
    return protocol(s, "a data event with no output");
}

static int on_message(void *ud, const char *json, size_t len)
{
    strm *s = ud;
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return SBX_E_NOMEM;
    json_object *root = json_tokener_parse_ex(tok, json, (int)len);
    json_tokener_free(tok);
    json_object *ev = NULL, *v = NULL;
    int rc;
    s->started = true;
    if (!json_object_object_get_ex(root, "event", &ev) || !json_object_is_type(ev, json_type_object))
        rc = protocol(s, "a message without an event");
    else if (json_object_object_get_ex(ev, "start", &v)) {
        int64_t pid = sbxu_json_int(v, "pid", -1);
        rc = pid <= 0 || pid > UINT32_MAX ? protocol(s, "a start event without a pid")
             : s->ops->start ? s->ops->start(s->ops->ud, (uint32_t)pid)
                             : SBX_OK;
    } else if (json_object_object_get_ex(ev, "data", &v))
        rc = data_event(s, v);
    else if (json_object_object_get_ex(ev, "end", &v))
        rc = s->ops->end ? s->ops->end(s->ops->ud, v) : SBX_OK;
    else if (json_object_object_get_ex(ev, "keepalive", &v))
        rc = SBX_OK;
    else
        rc = protocol(s, "an event of an unknown kind");
    json_object_put(root);
    return rc;
}

static int on_end(void *ud, const char *json, size_t len)
{
    strm *s = ud;
    bool has_error = false;
    char code[64], message[512];
    if (e2b_end_error(json, len, &has_error, code, sizeof(code), message, sizeof(message)))
        return protocol(s, "an end-of-stream message that is not Connect's");
    if (!has_error)
        return SBX_OK;
    sbxu_http_scrub(&s->sb->envd, NULL, message, sizeof(message));
    int rc = e2b_connect_code(code);
    /* envd refuses a missing cwd or a command it cannot start as invalid_argument. */
    if (strcmp(code, "invalid_argument") == 0)
        rc = SBX_E_EXEC_START;
    return s->sb->host->set_error(rc, "e2b: process.Process/Start: %s: %s", code, message);
}

/* The 2xx body as it comes: envelopes. */
static int on_data(void *ud, const void *data, size_t len)
{
    strm *s = ud;
    int rc = e2b_envelope_feed(&s->env, data, len);
    if (rc == SBX_E_BACKEND_PROTOCOL && s->env.why)
        rc = protocol(s, s->env.why);
    s->stop_rc = rc;
    return rc != SBX_OK;
}

/* The request body: one envelope (flags 0) holding the JSON StartRequest. */
static char *envelope_of(const char *json, size_t *len)
{
    size_t n = strlen(json);
    char *b = malloc(n + 5);
    if (!b)
        return NULL;
    b[0] = 0;
    b[1] = (char)(n >> 24);
    b[2] = (char)(n >> 16);
    b[3] = (char)(n >> 8);
    b[4] = (char)n;
    memcpy(b + 5, json, n);
    *len = n + 5;
    return b;
}

/* One try. *again: it failed before the command started, in a way worth another try. */
static int try_start(strm *s, const char *body, size_t body_len, const char *const *headers,
                     bool *again)
{
    e2b_sandbox *sb = s->sb;
    const e2b_stream_ops *ops = s->ops;
    *again = false;
    s->stop_rc = 0;
    e2b_envelope_init(&s->env, on_message, on_end, s);
    sbxu_http_request rq = {
        .method = "POST",
        .path = "/process.Process/Start",
        .body = body,
        .body_len = body_len,
        .content_type = "application/connect+json",
        .headers = headers,
        .sink = on_data,
        .sink_ud = s,
        .body_cap = 8192,
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_watch watch = {.tick = ops->tick, .ud = ops->ud, .fd = ops->cancel_fd,
                            .every_ms = ops->poll_ms};
    sbxu_http_response rs = {0};
    int rc = sbxu_http_stream(&sb->envd, &rq, &watch, &rs);
    if (rc == SBX_OK && s->stop_rc) {
        rc = s->stop_rc;
    } else if (rc == SBX_OK && rs.status != 200) {
        *again = !s->started && (rs.status == 502 || rs.status == 503 || rs.status == 504);
        rc = e2b_envd_fail(sb, rs.status, rs.body.data, "process.Process/Start");
    } else if (rc != SBX_OK && rc != SBX_E_NOMEM && rs.curl_code != CURLE_OK) {
        *again = !s->started && !rs.status && rs.curl_code == CURLE_COULDNT_CONNECT;
        /* The connection dropped: a cut stream unless it ended properly first. */
        if (s->env.ended)
            rc = SBX_OK;
        else if (rs.status)
            rc = protocol(s, "the stream was cut before its end-of-stream message");
    } else if (rc == SBX_OK && e2b_envelope_finish(&s->env) != SBX_OK) {
        rc = protocol(s, s->env.why);
    }
    sbxu_http_response_clear(&rs);
    e2b_envelope_clear(&s->env);
    return rc;
}

int e2b_start(e2b_sandbox *sb, const char *json, uint64_t timeout_ms, const e2b_stream_ops *ops)
{
    size_t body_len = 0;
    char *body = envelope_of(json, &body_len);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    char timeout_hdr[64];
    const char *headers[3] = {"Connect-Protocol-Version: 1"};
    /* envd's own bound on the process: a backstop for a client that dies before its deadline. */
    if (timeout_ms) {
        snprintf(timeout_hdr, sizeof(timeout_hdr), "Connect-Timeout-Ms: %llu",
                 (unsigned long long)timeout_ms + 10000);
        headers[1] = timeout_hdr;
    }
    strm s = {.sb = sb, .ops = ops};
    int64_t give_up = sbxu_mono_ms() + START_RETRY_DEADLINE_MS;
    long wait = 100;
    int rc;
    bool again;
    while ((rc = try_start(&s, body, body_len, headers, &again)) != SBX_OK && again &&
           sbxu_mono_ms() + wait < give_up) {
        if (ops->tick && ops->tick(ops->ud) != SBX_OK)
            break;
        usleep((useconds_t)wait * 1000);
        wait = wait * 2 > 2000 ? 2000 : wait * 2;
    }
    free(body);
    return rc;
}

/* --- helper commands --------------------------------------------------------- */

typedef struct quiet {
    sbxu_buf *out;
    sbx_plugin_exit *x;
    bool ended;
    int rc;
} quiet;

static int quiet_data(void *ud, int stream, const void *data, size_t len)
{
    quiet *q = ud;
    if (stream == 1 && q->out->len + len <= 65536)
        return sbxu_buf_append(q->out, data, len);
    return SBX_OK;
}

static int quiet_end(void *ud, json_object *end)
{
    quiet *q = ud;
    q->ended = true;
    return e2b_process_end(end, q->x);
}

int e2b_run_quiet(e2b_sandbox *sb, const char *const *argv, sbxu_buf *out, sbx_plugin_exit *x)
{
    json_object *req = json_object_new_object(), *proc = json_object_new_object();
    int bad = !req || !proc;
    if (!bad) {
        bad |= sbxu_json_add_str(proc, "cmd", argv[0]);
        bad |= sbxu_json_add(proc, "args", sbxu_json_str_array(argv + 1));
        bad |= sbxu_json_add_str(proc, "cwd", E2B_HOME);
        bad |= sbxu_json_add(req, "process", proc);
        proc = NULL;
        bad |= sbxu_json_add(req, "stdin", json_object_new_boolean(0));
    }
    char *body = bad ? NULL : sbxu_json_text(req);
    json_object_put(proc);
    json_object_put(req);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    quiet q = {.out = out, .x = x};
    e2b_stream_ops ops = {.data = quiet_data, .end = quiet_end, .ud = &q, .cancel_fd = -1};
    int rc = e2b_start(sb, body, 0, &ops);
    free(body);
    if (rc == SBX_OK && !q.ended)
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: a command's stream had no end event");
    return rc;
}
