/*
 * The HTTP transport: every request of a sandbox goes through one curl easy
 * handle driven by one multi handle, whose connection cache keeps the
 * connection to the daemon open between requests. Driving the multi handle
 * by hand also lets a response body be pulled on demand (dk_pull), which
 * libarchive's read model needs, without a thread or holding the body.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Collected bodies (JSON answers, error messages) never grow past this. */
#define DK_BODY_MAX ((size_t)64 << 20)

void dk_response_clear(dk_response *rs)
{
    dk_buf_clear(&rs->body);
    free(rs->path_stat);
    free(rs->api_version);
    memset(rs, 0, sizeof(*rs));
}

int dk_conn_init(dk_conn *c, const sbx_host *host, dk_endpoint *ep_moved)
{
    memset(c, 0, sizeof(*c));
    c->host = host;
    c->ep = *ep_moved;
    memset(ep_moved, 0, sizeof(*ep_moved));
    c->multi = curl_multi_init();
    c->easy = curl_easy_init();
    if (!c->multi || !c->easy || pthread_mutex_init(&c->lock, NULL) != 0) {
        if (c->easy)
            curl_easy_cleanup(c->easy);
        if (c->multi)
            curl_multi_cleanup(c->multi);
        dk_endpoint_clear(&c->ep);
        memset(c, 0, sizeof(*c));
        return host->set_error(SBX_E_NOMEM, "docker: cannot set up a curl handle");
    }
    return SBX_OK;
}

void dk_conn_clear(dk_conn *c)
{
    if (!c->host)
        return;
    curl_easy_cleanup(c->easy);
    curl_multi_cleanup(c->multi);
    pthread_mutex_destroy(&c->lock);
    dk_endpoint_clear(&c->ep);
    memset(c, 0, sizeof(*c));
}

int dk_conn_setup_handle(dk_conn *c, CURL *h, char *errbuf)
{
    CURLcode cc = CURLE_OK;
    errbuf[0] = '\0';
#define SET(opt, val) \
    if (cc == CURLE_OK) cc = curl_easy_setopt(h, opt, val)
    SET(CURLOPT_ERRORBUFFER, errbuf);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_TCP_KEEPALIVE, 1L);
    SET(CURLOPT_CONNECTTIMEOUT_MS, 30000L);
    if (c->ep.transport == DK_UNIX) {
        SET(CURLOPT_UNIX_SOCKET_PATH, c->ep.socket_path);
    } else if (c->ep.tls) {
        SET(CURLOPT_CAINFO, c->ep.ca_file);
        SET(CURLOPT_SSL_VERIFYPEER, 1L);
        SET(CURLOPT_SSL_VERIFYHOST, 2L);
        /* Client certificates are optional, as for the docker CLI. */
        if (access(c->ep.cert_file, R_OK) == 0 && access(c->ep.key_file, R_OK) == 0) {
            SET(CURLOPT_SSLCERT, c->ep.cert_file);
            SET(CURLOPT_SSLKEY, c->ep.key_file);
        }
    }
#undef SET
    if (cc != CURLE_OK)
        return c->host->set_error(cc == CURLE_OUT_OF_MEMORY ? SBX_E_NOMEM : SBX_E_INTERNAL,
                                  "docker: setting up curl: %s", curl_easy_strerror(cc));
    return SBX_OK;
}

/* One transfer in flight on the connection. */
typedef struct xfer {
    dk_conn *c;
    const dk_request *rq;
    dk_response *rs;
    struct curl_slist *headers;
    char *url;
    bool added;
    bool done;
    CURLcode result;
    bool pull;                 /* 2xx body goes to chunk, read by dk_pull_read */
    dk_buf chunk;
    bool chunk_given;          /* chunk was handed to the reader: start a new one */
    bool nomem;
} xfer;

struct dk_pull {
    xfer x;
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
    if ((v = header_value(data, len, "Api-Version"))) {
        free(x->rs->api_version);
        x->rs->api_version = v;
    } else if ((v = header_value(data, len, "X-Docker-Container-Path-Stat"))) {
        free(x->rs->path_stat);
        x->rs->path_stat = v;
    }
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t len = size * n;
    long status = 0;
    curl_easy_getinfo(x->c->easy, CURLINFO_RESPONSE_CODE, &status);
    bool ok = status >= 200 && status < 300;
    if (ok && x->rq->sink) {
        if (x->rq->sink(x->rq->sink_ud, data, len) != 0) {
            x->rs->sink_stopped = true;
            return 0;
        }
        return len;
    }
    dk_buf *b = ok && x->pull ? &x->chunk : &x->rs->body;
    if (!(ok && x->pull) && b->len + len > DK_BODY_MAX)
        return len;    /* an error body or answer that large is cut, not fatal */
    if (dk_buf_append(b, data, len) != SBX_OK) {
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

static int xfer_setup(xfer *x)
{
    dk_conn *c = x->c;
    const dk_request *rq = x->rq;
    CURL *h = c->easy;
    CURLcode cc = CURLE_OK;
    curl_easy_reset(h);
    int rc = dk_conn_setup_handle(c, h, c->errbuf);
    if (rc)
        return rc;
    const char *base = c->ep.transport == DK_UNIX ? "http://docker"
                       : c->ep.tls                ? "https://"
                                                  : "http://";
    if (asprintf(&x->url, "%s%s%s%s", base, c->ep.transport == DK_UNIX ? "" : c->ep.host_port,
                 c->api, rq->path) < 0) {
        x->url = NULL;
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    struct curl_slist *hd = curl_slist_append(NULL, "Expect:");
    if (hd && (rq->json || !rq->upload))
        hd = curl_slist_append(hd, "Content-Type: application/json");
    if (hd && rq->upload)
        hd = curl_slist_append(hd, "Content-Type: application/x-tar");
    if (!hd)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    x->headers = hd;
#define SET(opt, val) \
    if (cc == CURLE_OK) cc = curl_easy_setopt(h, opt, val)
    SET(CURLOPT_URL, x->url);
    SET(CURLOPT_HTTPHEADER, hd);
    SET(CURLOPT_HEADERFUNCTION, on_header);
    SET(CURLOPT_HEADERDATA, x);
    SET(CURLOPT_WRITEFUNCTION, on_body);
    SET(CURLOPT_WRITEDATA, x);
    if (rq->timeout_ms > 0)
        SET(CURLOPT_TIMEOUT_MS, rq->timeout_ms);
    if (strcmp(rq->method, "HEAD") == 0) {
        SET(CURLOPT_NOBODY, 1L);
    } else if (rq->upload) {
        SET(CURLOPT_UPLOAD, 1L);
        SET(CURLOPT_READFUNCTION, on_upload);
        SET(CURLOPT_READDATA, x);
        SET(CURLOPT_INFILESIZE_LARGE, (curl_off_t)-1);
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (rq->json || strcmp(rq->method, "POST") == 0) {
        SET(CURLOPT_POSTFIELDS, rq->json ? rq->json : "");
        SET(CURLOPT_POSTFIELDSIZE, (long)(rq->json ? strlen(rq->json) : 0));
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (strcmp(rq->method, "GET") != 0) {
        SET(CURLOPT_CUSTOMREQUEST, rq->method);
    }
#undef SET
    if (cc != CURLE_OK)
        return c->host->set_error(cc == CURLE_OUT_OF_MEMORY ? SBX_E_NOMEM : SBX_E_INTERNAL,
                                  "docker: setting up a request: %s", curl_easy_strerror(cc));
    if (curl_multi_add_handle(c->multi, h) != CURLM_OK)
        return c->host->set_error(SBX_E_INTERNAL, "docker: curl_multi_add_handle failed");
    x->added = true;
    return SBX_OK;
}

static void xfer_finish(xfer *x)
{
    if (x->added)
        curl_multi_remove_handle(x->c->multi, x->c->easy);
    x->added = false;
    curl_slist_free_all(x->headers);
    x->headers = NULL;
    free(x->url);
    x->url = NULL;
    dk_buf_clear(&x->chunk);
}

/* Let curl work until the transfer is done or (pull) new body bytes came. */
static int xfer_pump(xfer *x)
{
    dk_conn *c = x->c;
    for (;;) {
        int running = 0, left = 0;
        CURLMcode mc = curl_multi_perform(c->multi, &running);
        if (mc != CURLM_OK)
            return c->host->set_error(SBX_E_INTERNAL, "docker: curl_multi_perform: %s",
                                      curl_multi_strerror(mc));
        CURLMsg *m;
        while ((m = curl_multi_info_read(c->multi, &left))) {
            if (m->msg == CURLMSG_DONE && m->easy_handle == c->easy) {
                x->done = true;
                x->result = m->data.result;
            }
        }
        if (x->done || (x->pull && x->chunk.len))
            return SBX_OK;
        mc = curl_multi_poll(c->multi, NULL, 0, 1000, NULL);
        if (mc != CURLM_OK)
            return c->host->set_error(SBX_E_INTERNAL, "docker: curl_multi_poll: %s",
                                      curl_multi_strerror(mc));
    }
}

/* The outcome of a finished transfer: SBX_OK if an answer came. */
static int xfer_result(xfer *x)
{
    dk_conn *c = x->c;
    curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &x->rs->status);
    if (x->nomem)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory reading an answer");
    if (x->result == CURLE_OK || x->rs->sink_stopped)
        return SBX_OK;
    if (x->rs->upload_aborted)
        return SBX_E_EXEC_ABORTED;    /* the upload source set the detail */
    long os_errno = 0;
    curl_easy_getinfo(c->easy, CURLINFO_OS_ERRNO, &os_errno);
    int code = dk_errmap_curl(x->result, os_errno);
    const char *detail = c->errbuf[0] ? c->errbuf : curl_easy_strerror(x->result);
    if (code == SBX_E_BACKEND_PERMISSION)
        return c->host->set_error(code,
                                  "docker: permission denied connecting to %s: %s "
                                  "(is this user allowed on the docker socket?)",
                                  c->ep.display, detail);
    if (code == SBX_E_BACKEND_UNAVAILABLE)
        return c->host->set_error(code,
                                  "docker: cannot connect to the Docker daemon at %s: %s "
                                  "(is the daemon running?)",
                                  c->ep.display, detail);
    return c->host->set_error(code, "docker: %s %s on %s: %s", x->rq->method, x->rq->path,
                              c->ep.display, detail);
}

int dk_http(dk_conn *c, const dk_request *rq, dk_response *rs)
{
    xfer x = {.c = c, .rq = rq, .rs = rs};
    pthread_mutex_lock(&c->lock);
    int rc = xfer_setup(&x);
    if (rc == SBX_OK)
        rc = xfer_pump(&x);
    if (rc == SBX_OK)
        rc = xfer_result(&x);
    xfer_finish(&x);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int dk_pull_begin(dk_conn *c, const dk_request *rq, dk_response *rs, dk_pull **out)
{
    dk_pull *p = calloc(1, sizeof(*p));
    if (!p)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    p->x = (xfer){.c = c, .rq = rq, .rs = rs, .pull = true};
    pthread_mutex_lock(&c->lock);
    int rc = xfer_setup(&p->x);
    if (rc == SBX_OK)
        rc = xfer_pump(&p->x);
    if (rc == SBX_OK && p->x.done)
        rc = xfer_result(&p->x);
    else if (rc == SBX_OK)
        curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &rs->status);
    if (rc != SBX_OK) {
        dk_pull_end(p);
        return rc;
    }
    *out = p;
    return SBX_OK;
}

int dk_pull_read(dk_pull *p, const void **data, size_t *len)
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

void dk_pull_end(dk_pull *p)
{
    if (!p)
        return;
    dk_conn *c = p->x.c;
    xfer_finish(&p->x);
    pthread_mutex_unlock(&c->lock);
    free(p);
}
