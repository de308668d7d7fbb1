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
 * The stream runs on a handle of its own, driven by curl's multi interface,
 * so the caller can poll a cancel descriptor and keep a deadline while it
 * flows, and several commands of one sandbox run at once. A 502/503/504 or
 * a refused connection before any event (E2B's proxy while envd comes up)
 * means the command never started: that alone is tried again.
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include "../lib/sbx-base64.h"

#define START_RETRY_DEADLINE_MS 30000

typedef struct strm {
    e2b_sandbox *sb;
    const e2b_stream_ops *ops;
    CURL *h;
    e2b_envelope env;
    long status;
    sbx_buf errbody;
    int stop_rc;           /* why a callback stopped the transfer */
    bool started;          /* an event came: never try again */
} strm;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
        char *bytes = sbx_base64_decode(json_object_get_string(v), &len);
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
        int64_t pid = sbx_json_int(v, "pid", -1);
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
    sbx_http_scrub(&s->sb->envd, NULL, message, sizeof(message));
    int rc = e2b_connect_code(code);
    /* envd refuses a missing cwd or a command it cannot start as invalid_argument. */
    if (strcmp(code, "invalid_argument") == 0)
        rc = SBX_E_EXEC_START;
    return s->sb->host->set_error(rc, "e2b: process.Process/Start: %s: %s", code, message);
}

static size_t on_write(char *data, size_t size, size_t n, void *ud)
{
    strm *s = ud;
    size_t len = size * n;
    if (!s->status)
        curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &s->status);
    if (s->status != 200) {
        if (s->errbody.len < 8192 && sbx_buf_append(&s->errbody, data, len) != SBX_OK)
            return 0;
        return len;
    }
    int rc = e2b_envelope_feed(&s->env, data, len);
    if (rc == SBX_E_BACKEND_PROTOCOL && s->env.why)
        rc = protocol(s, s->env.why);
    if (rc) {
        s->stop_rc = rc;
        return 0;
    }
    return len;
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
static int try_start(strm *s, const char *body, size_t body_len, const struct curl_slist *hdrs,
                     bool *again)
{
    e2b_sandbox *sb = s->sb;
    const e2b_stream_ops *ops = s->ops;
    char errbuf[CURL_ERROR_SIZE], url[E2B_URL_MAX + 64];
    *again = false;
    s->status = 0;
    s->stop_rc = 0;
    sbx_buf_clear(&s->errbody);
    e2b_envelope_init(&s->env, on_message, on_end, s);
    CURL *h = s->h = curl_easy_init();
    CURLM *m = curl_multi_init();
    if (!h || !m) {
        curl_easy_cleanup(h);
        curl_multi_cleanup(m);
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    }
    int rc = sbx_http_setup_handle(&sb->envd, h, errbuf);
    snprintf(url, sizeof(url), "%s/process.Process/Start", sb->envd_url);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)body_len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, s);
    if (rc == SBX_OK && curl_multi_add_handle(m, h) != CURLM_OK)
        rc = sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int running = rc == SBX_OK;
    while (running) {
        if (curl_multi_perform(m, &running) != CURLM_OK) {
            rc = sb->host->set_error(SBX_E_INTERNAL, "e2b: curl_multi_perform failed");
            break;
        }
        if (!running || s->stop_rc)
            break;
        if (ops->tick && (rc = ops->tick(ops->ud)) != SBX_OK)
            break;
        struct curl_waitfd extra = {.fd = ops->cancel_fd, .events = CURL_WAIT_POLLIN};
        curl_multi_poll(m, ops->cancel_fd >= 0 ? &extra : NULL, ops->cancel_fd >= 0 ? 1 : 0,
                        ops->poll_ms > 0 ? (int)ops->poll_ms : 1000, NULL);
    }
    CURLcode cc = CURLE_OK;
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(m, &left)))
        if (msg->msg == CURLMSG_DONE)
            cc = msg->data.result;
    long os_errno = 0;
    curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &os_errno);
    curl_multi_remove_handle(m, h);
    curl_easy_cleanup(h);
    curl_multi_cleanup(m);
    s->h = NULL;
    if (rc || s->stop_rc) {
        rc = rc ? rc : s->stop_rc;
    } else if (s->status && s->status != 200) {
        *again = !s->started && (s->status == 502 || s->status == 503 || s->status == 504);
        rc = e2b_envd_fail(sb, s->status, s->errbody.data, "process.Process/Start");
    } else if (cc != CURLE_OK) {
        *again = !s->started && !s->status && cc == CURLE_COULDNT_CONNECT;
        /* The connection dropped: a cut stream unless it ended properly first. */
        rc = s->env.ended ? SBX_OK
             : s->status  ? protocol(s, "the stream was cut before its end-of-stream message")
                          : sb->host->set_error(sbx_http_curl_code(cc, os_errno),
                                                "e2b: process.Process/Start: %s (%s)",
                                                errbuf[0] ? errbuf : curl_easy_strerror(cc),
                                                sb->envd_url);
    } else if (e2b_envelope_finish(&s->env) != SBX_OK) {
        rc = protocol(s, s->env.why);
    }
    e2b_envelope_clear(&s->env);
    return rc;
}

int e2b_start(e2b_sandbox *sb, const char *json, uint64_t timeout_ms, const e2b_stream_ops *ops)
{
    size_t body_len = 0;
    char *body = envelope_of(json, &body_len);
    struct curl_slist *hdrs = NULL, *t;
    char timeout_hdr[64];
    const char *lines[8] = {"Content-Type: application/connect+json", "Connect-Protocol-Version: 1"};
    size_t n = 2;
    /* envd's own bound on the process: a backstop for a client that dies before its deadline. */
    if (timeout_ms) {
        snprintf(timeout_hdr, sizeof(timeout_hdr), "Connect-Timeout-Ms: %llu",
                 (unsigned long long)timeout_ms + 10000);
        lines[n++] = timeout_hdr;
    }
    for (size_t i = 0; sb->envd_headers[i]; i++)
        lines[n++] = sb->envd_headers[i];
    bool nomem = !body;
    for (size_t i = 0; i < n && !nomem; i++) {
        if (!(t = curl_slist_append(hdrs, lines[i])))
            nomem = true;
        else
            hdrs = t;
    }
    if (nomem) {
        free(body);
        curl_slist_free_all(hdrs);
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    }
    strm s = {.sb = sb, .ops = ops};
    int64_t give_up = now_ms() + START_RETRY_DEADLINE_MS;
    long wait = 100;
    int rc;
    bool again;
    while ((rc = try_start(&s, body, body_len, hdrs, &again)) != SBX_OK && again &&
           now_ms() + wait < give_up) {
        if (ops->tick && ops->tick(ops->ud) != SBX_OK)
            break;
        usleep((useconds_t)wait * 1000);
        wait = wait * 2 > 2000 ? 2000 : wait * 2;
    }
    sbx_buf_clear(&s.errbody);
    curl_slist_free_all(hdrs);
    free(body);
    return rc;
}

/* --- helper commands --------------------------------------------------------- */

typedef struct quiet {
    sbx_buf *out;
    sbx_plugin_exit *x;
    bool ended;
    int rc;
} quiet;

static int quiet_data(void *ud, int stream, const void *data, size_t len)
{
    quiet *q = ud;
    if (stream == 1 && q->out->len + len <= 65536)
        return sbx_buf_append(q->out, data, len);
    return SBX_OK;
}

static int quiet_end(void *ud, json_object *end)
{
    quiet *q = ud;
    q->ended = true;
    return e2b_process_end(end, q->x);
}

int e2b_run_quiet(e2b_sandbox *sb, const char *const *argv, sbx_buf *out, sbx_plugin_exit *x)
{
    json_object *req = json_object_new_object(), *proc = json_object_new_object();
    int bad = !req || !proc;
    if (!bad) {
        bad |= sbx_json_add_str(proc, "cmd", argv[0]);
        bad |= sbx_json_add(proc, "args", sbx_json_str_array(argv + 1));
        bad |= sbx_json_add_str(proc, "cwd", E2B_HOME);
        bad |= sbx_json_add(req, "process", proc);
        proc = NULL;
        bad |= sbx_json_add(req, "stdin", json_object_new_boolean(0));
    }
    char *body = bad ? NULL : sbx_json_text(req);
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
