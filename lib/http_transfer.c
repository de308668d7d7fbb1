/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Requests on a session: one transfer at a time on the session's handle,
 * tried again as http_retry.c says; streams (sbxu_http_stream) on a handle
 * of their own, watched by the caller while they flow; errors and traces
 * with secrets redacted.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include "http_internal.h"

#define BODY_MAX_DEFAULT ((size_t)64 << 20)
#define HEADERS_MAX 40

/* One try of a request. */
typedef struct xfer {
    sbxu_http *s;
    CURL *h;                   /* the session's handle, or a stream's own */
    CURLM *m;
    char *errbuf;              /* CURL_ERROR_SIZE bytes */
    const sbxu_http_watch *watch;   /* a stream's: called while it flows */
    const sbxu_http_request *rq;
    sbxu_http_response *rs;
    struct curl_slist *headers;
    const char *trace_headers[HEADERS_MAX + 1];   /* redacted copies, for the trace hook */
    char *url;
    long timeout_ms;
    bool added;
    bool done;
    CURLcode result;
    bool pull;                 /* 2xx body goes to chunk, read by sbxu_http_pull_read */
    sbxu_buf chunk;
    bool chunk_given;          /* chunk was handed to the reader: start a new one */
    bool nomem;
} xfer;

struct sbxu_http_pull {
    xfer x;
    sbxu_http_request rq;       /* a copy: the caller's may be gone before the end */
};

static char *header_value(const char *line, size_t len, const char *name)
{
    size_t n = strlen(name);
    if (len <= n || strncasecmp(line, name, n) != 0 || line[n] != ':')
        return NULL;
    const char *v = line + n + 1;
    const char *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    return strndup(v, (size_t)(end - v));
}

static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t len = size * n;
    char *v;
    if ((v = header_value(data, len, "Retry-After"))) {
        x->rs->retry_after_ms = sbxu__http_retry_after_ms(v, time(NULL));
        free(v);
        return len;
    }
    for (size_t i = 0; x->rq->capture && x->rq->capture[i] && i < SBXU_HTTP_CAPTURE_MAX; i++) {
        if ((v = header_value(data, len, x->rq->capture[i]))) {
            free(x->rs->header[i]);
            x->rs->header[i] = v;
            break;
        }
    }
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t len = size * n;
    long status = 0;
    curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
    bool ok = status >= 200 && status < 300;
    if (ok && x->rq->sink) {
        if (x->rq->sink(x->rq->sink_ud, data, len) != 0) {
            x->rs->sink_stopped = true;
            return 0;
        }
        return len;
    }
    sbxu_buf *b = ok && x->pull ? &x->chunk : &x->rs->body;
    size_t cap = x->rq->body_cap ? x->rq->body_cap : BODY_MAX_DEFAULT;
    if (!(ok && x->pull) && b->len + len > cap)
        return len;    /* an error body or answer that large is cut, not fatal */
    if (sbxu_buf_append(b, data, len) != SBX_OK) {
        x->nomem = true;
        return 0;
    }
    return len;
}

static size_t on_upload(char *buf, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    long got = x->rq->upload(x->rq->upload_ud, buf, size * n);
    if (got < 0) {
        x->rs->upload_aborted = true;
        return CURL_READFUNC_ABORT;
    }
    return (size_t)got;
}

/* Add one header line, and its redacted copy for the trace. */
static bool add_header(xfer *x, size_t *count, const char *line)
{
    struct curl_slist *h = curl_slist_append(x->headers, line);
    if (!h)
        return false;
    x->headers = h;
    if (*count < HEADERS_MAX && (x->s->cfg.trace || x->rq->trace)) {
        char red[1024];
        sbxu_http_redact_header(line, x->s->cfg.redact, red, sizeof(red));
        if (!(x->trace_headers[*count] = strdup(red)))
            return false;
        (*count)++;
    }
    return true;
}

static int build_headers(xfer *x)
{
    const sbxu_http_config *cfg = &x->s->cfg;
    const sbxu_http_request *rq = x->rq;
    size_t count = 0;
    char ct[256];
    /* No "Expect: 100-continue" round trip before a body. */
    bool ok = add_header(x, &count, "Expect:");
    if (ok && rq->content_type) {
        snprintf(ct, sizeof(ct), "Content-Type: %s", rq->content_type);
        ok = add_header(x, &count, ct);
    }
    for (size_t i = 0; ok && cfg->headers && cfg->headers[i]; i++)
        ok = add_header(x, &count, cfg->headers[i]);
    for (size_t i = 0; ok && rq->headers && rq->headers[i]; i++)
        ok = add_header(x, &count, rq->headers[i]);
    return ok ? SBX_OK : x->s->host->set_error(SBX_E_NOMEM, "%s: out of memory", cfg->plugin);
}

static int xfer_setup(xfer *x)
{
    sbxu_http *s = x->s;
    const sbxu_http_request *rq = x->rq;
    CURL *h = x->h;
    CURLcode cc = CURLE_OK;
    curl_easy_reset(h);
    int rc = sbxu_http_setup_handle(s, h, x->errbuf);
    if (rc)
        return rc;
    if (asprintf(&x->url, "%s%s%s", s->cfg.base_url, s->prefix, rq->path) < 0) {
        x->url = NULL;
        return s->host->set_error(SBX_E_NOMEM, "%s: out of memory", s->cfg.plugin);
    }
    if ((rc = build_headers(x)))
        return rc;
#define SET(opt, val) \
    if (cc == CURLE_OK) cc = curl_easy_setopt(h, opt, val)
    SET(CURLOPT_URL, x->url);
    SET(CURLOPT_HTTPHEADER, x->headers);
    SET(CURLOPT_HEADERFUNCTION, on_header);
    SET(CURLOPT_HEADERDATA, x);
    SET(CURLOPT_WRITEFUNCTION, on_body);
    SET(CURLOPT_WRITEDATA, x);
    if (x->timeout_ms > 0)
        SET(CURLOPT_TIMEOUT_MS, x->timeout_ms);
    if (strcmp(rq->method, "HEAD") == 0) {
        SET(CURLOPT_NOBODY, 1L);
    } else if (rq->upload) {
        SET(CURLOPT_UPLOAD, 1L);
        SET(CURLOPT_READFUNCTION, on_upload);
        SET(CURLOPT_READDATA, x);
        SET(CURLOPT_INFILESIZE_LARGE, (curl_off_t)-1);
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (rq->body || strcmp(rq->method, "POST") == 0) {
        size_t len = !rq->body ? 0 : rq->body_len ? rq->body_len : strlen(rq->body);
        SET(CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
        SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (strcmp(rq->method, "GET") != 0) {
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    }
#undef SET
    if (cc != CURLE_OK)
        return s->host->set_error(cc == CURLE_OUT_OF_MEMORY ? SBX_E_NOMEM : SBX_E_INTERNAL,
                                  "%s: setting up a request: %s", s->cfg.plugin,
                                  curl_easy_strerror(cc));
    if (curl_multi_add_handle(x->m, h) != CURLM_OK)
        return s->host->set_error(SBX_E_INTERNAL, "%s: curl_multi_add_handle failed",
                                  s->cfg.plugin);
    x->added = true;
    return SBX_OK;
}

static void xfer_finish(xfer *x)
{
    if (x->added)
        curl_multi_remove_handle(x->m, x->h);
    x->added = false;
    curl_slist_free_all(x->headers);
    x->headers = NULL;
    for (size_t i = 0; x->trace_headers[i]; i++) {
        free((char *)x->trace_headers[i]);
        x->trace_headers[i] = NULL;
    }
    free(x->url);
    x->url = NULL;
    sbxu_buf_clear(&x->chunk);
}

/*
 * Let curl work until the transfer is done or (pull) new body bytes came;
 * a stream's watch is called between transfers, and its non-zero return
 * ends the pumping with that code.
 */
static int xfer_pump(xfer *x)
{
    sbxu_http *s = x->s;
    const sbxu_http_watch *w = x->watch;
    for (;;) {
        int running = 0, left = 0;
        CURLMcode mc = curl_multi_perform(x->m, &running);
        if (mc != CURLM_OK)
            return s->host->set_error(SBX_E_INTERNAL, "%s: curl_multi_perform: %s",
                                      s->cfg.plugin, curl_multi_strerror(mc));
        CURLMsg *m;
        while ((m = curl_multi_info_read(x->m, &left))) {
            if (m->msg == CURLMSG_DONE && m->easy_handle == x->h) {
                x->done = true;
                x->result = m->data.result;
            }
        }
        if (x->done || (x->pull && x->chunk.len))
            return SBX_OK;
        int rc = w && w->tick ? w->tick(w->ud) : SBX_OK;
        if (rc)
            return rc;
        struct curl_waitfd extra = {.fd = w ? w->fd : -1, .events = CURL_WAIT_POLLIN};
        bool watch_fd = w && w->fd >= 0;
        mc = curl_multi_poll(x->m, watch_fd ? &extra : NULL, watch_fd ? 1 : 0,
                             w && w->every_ms > 0 ? (int)w->every_ms : 1000, NULL);
        if (mc != CURLM_OK)
            return s->host->set_error(SBX_E_INTERNAL, "%s: curl_multi_poll: %s", s->cfg.plugin,
                                      curl_multi_strerror(mc));
    }
}

/* Set the error for a transfer that failed (secrets scrubbed); returns the code. */
static int transport_error(xfer *x)
{
    sbxu_http *s = x->s;
    const sbxu_http_config *cfg = &s->cfg;
    long os_errno = 0;
    curl_easy_getinfo(x->h, CURLINFO_OS_ERRNO, &os_errno);
    int code = sbxu_http_curl_code(x->result, os_errno);
    char detail[CURL_ERROR_SIZE + 64], tries[48] = "";
    /*
     * Over a unix socket curl speaks of the URL's host and "port 80", which
     * sends a user looking for a TCP port: say what failed, on which socket.
     */
    if (cfg->unix_socket && x->result == CURLE_COULDNT_CONNECT)
        snprintf(detail, sizeof(detail), "connecting to the socket %s: %s", cfg->unix_socket,
                 os_errno == ENOENT ? "no such file (nothing listens there)"
                 : os_errno ? strerror((int)os_errno) : "connection failed");
    else
        snprintf(detail, sizeof(detail), "%s",
                 x->errbuf[0] ? x->errbuf : curl_easy_strerror(x->result));
    sbxu_http_scrub(s, x->rq, detail, sizeof(detail));
    if (x->rs->attempts > 1)
        snprintf(tries, sizeof(tries), " (after %d tries)", x->rs->attempts);
    if (code == SBX_E_BACKEND_PERMISSION)
        return s->host->set_error(code, "%s: permission denied connecting to %s: %s%s%s",
                                  cfg->plugin, cfg->display, detail, tries,
                                  cfg->hint_permission ? cfg->hint_permission : "");
    if (code == SBX_E_BACKEND_UNAVAILABLE)
        return s->host->set_error(code, "%s: cannot connect to %s at %s: %s%s%s", cfg->plugin,
                                  cfg->service, cfg->display, detail, tries,
                                  cfg->hint_unavailable ? cfg->hint_unavailable : "");
    return s->host->set_error(code, "%s: %s %s on %s: %s%s", cfg->plugin, x->rq->method,
                              x->rq->path, cfg->display, detail, tries);
}

/* The outcome of a finished transfer: SBX_OK if an answer came. */
static int xfer_result(xfer *x)
{
    sbxu_http *s = x->s;
    curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &x->rs->status);
    x->rs->curl_code = (int)x->result;
    if (x->nomem)
        return s->host->set_error(SBX_E_NOMEM, "%s: out of memory reading an answer",
                                  s->cfg.plugin);
    if (x->result == CURLE_OK || x->rs->sink_stopped)
        return SBX_OK;
    if (x->rs->upload_aborted)
        return SBX_E_EXEC_ABORTED;    /* the upload source set the detail */
    return transport_error(x);
}

static void trace(xfer *x, long wait_ms, const char *why)
{
    const sbxu_http_config *cfg = &x->s->cfg;
    void (*hook)(void *, const sbxu_http_trace *) = x->rq->trace ? x->rq->trace : cfg->trace;
    void *ud = x->rq->trace ? x->rq->trace_ud : cfg->trace_ud;
    if (!hook)
        return;
    sbxu_http_trace t = {.method = x->rq->method, .url = x->url, .headers = x->trace_headers,
                        .attempt = x->rs->attempts, .status = x->rs->status,
                        .curl_code = (int)x->result, .wait_ms = wait_ms, .why = why};
    hook(ud, &t);
}

/* Forget what a failed try left in the response before the next one. */
static void response_reset(sbxu_http_response *rs)
{
    int attempts = rs->attempts;
    sbxu_http_response_clear(rs);
    rs->attempts = attempts;
    rs->retry_after_ms = -1;
}

/*
 * The wait before another try, or -1 with *why saying why there is none
 * (not retryable, out of tries, past the deadline).
 */
static long next_wait(sbxu_http *s, const sbxu_http_request *rq, const sbxu_http_response *rs,
                      CURLcode result, int64_t deadline, unsigned *seed, const char **why)
{
    const sbxu_http_retry *r = &s->cfg.retry;
    const char *because = sbxu__http_retryable((int)result, result == CURLE_OK ? rs->status : 0);
    *why = because ? because : "done";
    if (!because || rs->sink_stopped || rs->upload_aborted)
        return -1;
    if (!sbxu__http_idempotent(rq)) {
        *why = "not idempotent: never retried";
        return -1;
    }
    if (rs->attempts >= r->attempts) {
        *why = "out of tries";
        return -1;
    }
    long wait = rs->retry_after_ms >= 0 ? rs->retry_after_ms
                                        : sbxu__http_backoff_ms(r, rs->attempts, seed);
    if (deadline && sbxu_mono_ms() + wait >= deadline) {
        *why = "the deadline comes first";
        return -1;
    }
    /* Without a deadline, no wait is longer than the longest backoff. */
    if (!deadline && wait > (r->max_ms > 0 ? r->max_ms : 10000)) {
        *why = "Retry-After is longer than the longest wait";
        return -1;
    }
    return wait;
}

int sbxu_http_send(sbxu_http *s, const sbxu_http_request *rq, sbxu_http_response *rs)
{
    const sbxu_http_retry *r = &s->cfg.retry;
    int rc;
    /* The deadline is the request's own: time spent waiting for another
     * thread's request on the session is not taken from it. */
    pthread_mutex_lock(&s->lock);
    int64_t start = sbxu_mono_ms();
    int64_t deadline = r->deadline_ms > 0 ? start + r->deadline_ms : 0;
    unsigned seed = (unsigned)start ^ (unsigned)getpid();
    rs->retry_after_ms = -1;
    for (;;) {
        xfer x = {.s = s, .h = s->easy, .m = s->multi, .errbuf = s->errbuf, .rq = rq, .rs = rs,
                  .timeout_ms = rq->timeout_ms};
        if (deadline) {
            long left = (long)(deadline - sbxu_mono_ms());
            if (left < 1)
                left = 1;
            if (x.timeout_ms <= 0 || x.timeout_ms > left)
                x.timeout_ms = left;
        }
        rs->attempts++;
        rc = xfer_setup(&x);
        if (rc == SBX_OK)
            rc = xfer_pump(&x);
        const char *why = NULL;
        long wait = -1;
        if (rc == SBX_OK) {
            curl_easy_getinfo(x.h, CURLINFO_RESPONSE_CODE, &rs->status);
            wait = next_wait(s, rq, rs, x.result, deadline, &seed, &why);
            trace(&x, wait, why);
            if (wait < 0)
                rc = xfer_result(&x);
        }
        if (rc == SBX_OK && wait >= 0)
            s->host->log(SBX_LOG_INFO, s->cfg.plugin, "%s %s: %s; try %d in %ld ms", rq->method,
                         rq->path, why, rs->attempts + 1, wait);
        xfer_finish(&x);
        if (rc != SBX_OK || wait < 0)
            break;
        response_reset(rs);
        sbxu__http_sleep_ms(wait);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int sbxu_http_pull_begin(sbxu_http_pull **out, sbxu_http *s, const sbxu_http_request *rq,
                        sbxu_http_response *rs)
{
    sbxu_http_pull *p = calloc(1, sizeof(*p));
    if (!p)
        return s->host->set_error(SBX_E_NOMEM, "%s: out of memory", s->cfg.plugin);
    p->rq = *rq;
    p->x = (xfer){.s = s, .h = s->easy, .m = s->multi, .errbuf = s->errbuf, .rq = &p->rq,
                  .rs = rs, .pull = true, .timeout_ms = rq->timeout_ms};
    pthread_mutex_lock(&s->lock);
    rs->retry_after_ms = -1;
    rs->attempts = 1;
    int rc = xfer_setup(&p->x);
    if (rc == SBX_OK)
        rc = xfer_pump(&p->x);
    if (rc == SBX_OK && p->x.done)
        rc = xfer_result(&p->x);
    else if (rc == SBX_OK)
        curl_easy_getinfo(p->x.h, CURLINFO_RESPONSE_CODE, &rs->status);
    if (rc != SBX_OK) {
        sbxu_http_pull_end(p);
        return rc;
    }
    *out = p;
    return SBX_OK;
}

int sbxu_http_pull_read(sbxu_http_pull *p, const void **data, size_t *len)
{
    xfer *x = &p->x;
    /* The previous chunk was handed out whole: start a new one. */
    if (x->chunk_given)
        x->chunk.len = 0;
    while (!x->chunk.len && !x->done) {
        int rc = xfer_pump(x);
        if (rc)
            return rc;
    }
    if (!x->chunk.len && x->done) {
        int rc = xfer_result(x);
        if (rc)
            return rc;
    }
    *data = x->chunk.data;
    *len = x->chunk.len;
    x->chunk_given = true;
    return SBX_OK;
}

void sbxu_http_pull_end(sbxu_http_pull *p)
{
    if (!p)
        return;
    sbxu_http *s = p->x.s;
    xfer_finish(&p->x);
    pthread_mutex_unlock(&s->lock);
    free(p);
}

int sbxu_http_stream(sbxu_http *s, const sbxu_http_request *rq, const sbxu_http_watch *watch,
                    sbxu_http_response *rs)
{
    char errbuf[CURL_ERROR_SIZE] = "";
    xfer x = {.s = s, .h = curl_easy_init(), .m = curl_multi_init(), .errbuf = errbuf,
              .watch = watch, .rq = rq, .rs = rs, .timeout_ms = rq->timeout_ms};
    int rc = x.h && x.m ? SBX_OK
                        : s->host->set_error(SBX_E_NOMEM, "%s: cannot set up a curl handle",
                                             s->cfg.plugin);
    rs->retry_after_ms = -1;
    rs->attempts = 1;
    if (rc == SBX_OK)
        rc = xfer_setup(&x);
    if (rc == SBX_OK)
        rc = xfer_pump(&x);
    if (rc == SBX_OK) {
        rc = xfer_result(&x);
        trace(&x, -1, "a stream: never retried");
    } else {
        curl_easy_getinfo(x.h, CURLINFO_RESPONSE_CODE, &rs->status);
    }
    xfer_finish(&x);
    curl_multi_cleanup(x.m);
    curl_easy_cleanup(x.h);
    return rc;
}
