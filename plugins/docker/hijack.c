/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The raw stream of an exec. Starting an exec with stdin makes the engine
 * take the HTTP connection over ("Upgrade: tcp"): after the answer's headers
 * the socket carries stdin one way and the multiplexed output the other, so
 * it cannot go through curl's HTTP engine (libcurl speaks no "Upgrade: tcp"
 * and would not hand the socket over), nor through sbxu's HTTP
 * session. curl still makes the connection
 * (unix socket, TCP, TLS) in CONNECT_ONLY mode; this file writes the one
 * request and reads the answer's head itself, then passes bytes both ways.
 */
#include "docker.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define DK_HEAD_MAX 65536

static int wait_fd(dk_hijack *hj, short events, int timeout_ms)
{
    struct pollfd p = {.fd = hj->fd, .events = events};
    int n;
    do {
        n = poll(&p, 1, timeout_ms);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return hj->conn->host->set_error(SBX_E_SYSTEM, "docker: poll: %s", strerror(errno));
    if (n == 0)
        return hj->conn->host->set_error(SBX_E_BACKEND_TRANSPORT,
                                         "docker: the daemon did not answer within %d s",
                                         timeout_ms / 1000);
    return SBX_OK;
}

long dk_hijack_recv(dk_hijack *hj, void *buf, size_t len)
{
    if (hj->pending.len) {
        size_t n = hj->pending.len < len ? hj->pending.len : len;
        memcpy(buf, hj->pending.data, n);
        memmove(hj->pending.data, hj->pending.data + n, hj->pending.len - n);
        hj->pending.len -= n;
        return (long)n;
    }
    size_t got = 0;
    CURLcode cc = curl_easy_recv(hj->easy, buf, len, &got);
    if (cc == CURLE_AGAIN)
        return -1;
    if (cc != CURLE_OK) {
        hj->conn->host->set_error(SBX_E_BACKEND_TRANSPORT, "docker: reading an exec stream from %s: %s",
                                  hj->conn->ep.display, curl_easy_strerror(cc));
        return -2;
    }
    return (long)got;
}

long dk_hijack_send(dk_hijack *hj, const void *buf, size_t len)
{
    /* No error is set here: a command that exits without reading all its
     * stdin closes the stream, which is not a failure of the exec. */
    size_t sent = 0;
    CURLcode cc = curl_easy_send(hj->easy, buf, len, &sent);
    if (cc == CURLE_AGAIN)
        return -1;
    if (cc != CURLE_OK)
        return -2;
    return (long)sent;
}

int dk_hijack_close_write(dk_hijack *hj)
{
    /*
     * The engine reads EOF on stdin only from a half-closed socket. Under
     * TLS this skips the close_notify alert; the engine treats the bare
     * EOF the same way.
     */
    if (shutdown(hj->fd, SHUT_WR) != 0 && errno != ENOTCONN)
        return hj->conn->host->set_error(SBX_E_SYSTEM, "docker: shutdown(SHUT_WR): %s",
                                         strerror(errno));
    return SBX_OK;
}

void dk_hijack_close(dk_hijack *hj)
{
    if (hj->easy)
        curl_easy_cleanup(hj->easy);
    sbxu_buf_clear(&hj->pending);
    hj->easy = NULL;
    hj->fd = -1;
}

static int send_all(dk_hijack *hj, const char *data, size_t len)
{
    while (len) {
        long n = dk_hijack_send(hj, data, len);
        if (n == -2)
            return hj->conn->host->set_error(SBX_E_BACKEND_TRANSPORT,
                                             "docker: sending a request to %s failed",
                                             hj->conn->ep.display);
        if (n < 0) {
            int rc = wait_fd(hj, POLLOUT, SBXU_HTTP_SEND_STALL_MS);
            if (rc)
                return rc;
            continue;
        }
        data += n;
        len -= (size_t)n;
    }
    return SBX_OK;
}

/* Read until the blank line ending the answer's head; extra bytes stay in head. */
static int read_head(dk_hijack *hj, sbxu_buf *head, size_t *head_len)
{
    char buf[4096];
    for (;;) {
        char *end = head->len ? strstr(head->data, "\r\n\r\n") : NULL;
        if (end) {
            *head_len = (size_t)(end - head->data) + 4;
            return SBX_OK;
        }
        if (head->len > DK_HEAD_MAX)
            return hj->conn->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                             "docker: the answer's headers never end");
        long n = dk_hijack_recv(hj, buf, sizeof(buf));
        if (n == -2)
            return SBX_E_BACKEND_TRANSPORT;
        if (n == 0)
            return hj->conn->host->set_error(SBX_E_BACKEND_TRANSPORT,
                                             "docker: %s closed the connection before answering",
                                             hj->conn->ep.display);
        if (n < 0) {
            int rc = wait_fd(hj, POLLIN, SBXU_HTTP_CALL_TIMEOUT_MS);
            if (rc)
                return rc;
            continue;
        }
        if (sbxu_buf_append(head, buf, (size_t)n))
            return hj->conn->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
}

/* An error answer: read its body (Content-Length or to EOF) and map it. */
static int fail_answer(dk_hijack *hj, long status, sbxu_buf *head, size_t head_len,
                       const char *context)
{
    sbxu_http_response rs = {.status = status};
    const char *cl = strcasestr(head->data, "\r\nContent-Length:");
    long want = cl && cl < head->data + head_len ? strtol(cl + 17, NULL, 10) : 64 * 1024;
    int rc = sbxu_buf_append(&rs.body, head->data + head_len, head->len - head_len);
    char buf[4096];
    while (rc == SBX_OK && (long)rs.body.len < want) {
        long n = dk_hijack_recv(hj, buf, sizeof(buf));
        if (n == 0 || n == -2)
            break;
        if (n < 0) {
            if (wait_fd(hj, POLLIN, SBXU_HTTP_ERROR_BODY_WAIT_MS))
                break;
            continue;
        }
        rc = sbxu_buf_append(&rs.body, buf, (size_t)n);
    }
    rc = dk_api_fail(hj->conn, &rs, context);
    sbxu_http_response_clear(&rs);
    return rc;
}

int dk_hijack_open(dk_conn *c, const char *path, const char *json, const char *context,
                   dk_hijack *hj)
{
    memset(hj, 0, sizeof(*hj));
    hj->conn = c;
    hj->fd = -1;
    hj->easy = curl_easy_init();
    if (!hj->easy)
        return c->host->set_error(SBX_E_NOMEM, "docker: cannot set up a curl handle");
    char url[512];
    snprintf(url, sizeof(url), "%s/", c->ep.base_url);
    int rc = sbxu_http_setup_handle(&c->http, hj->easy, hj->errbuf);
    CURLcode cc = CURLE_OK;
    if (rc == SBX_OK && ((cc = curl_easy_setopt(hj->easy, CURLOPT_URL, url)) != CURLE_OK ||
                         (cc = curl_easy_setopt(hj->easy, CURLOPT_CONNECT_ONLY, 1L)) != CURLE_OK))
        rc = c->host->set_error(SBX_E_INTERNAL, "docker: %s", curl_easy_strerror(cc));
    if (rc == SBX_OK && (cc = curl_easy_perform(hj->easy)) != CURLE_OK) {
        long os_errno = 0;
        curl_easy_getinfo(hj->easy, CURLINFO_OS_ERRNO, &os_errno);
        rc = c->host->set_error(sbxu_http_curl_code(cc, os_errno), "docker: connecting to %s: %s",
                                c->ep.display, hj->errbuf[0] ? hj->errbuf : curl_easy_strerror(cc));
    }
    curl_socket_t sock = CURL_SOCKET_BAD;
    if (rc == SBX_OK && (curl_easy_getinfo(hj->easy, CURLINFO_ACTIVESOCKET, &sock) != CURLE_OK ||
                         sock == CURL_SOCKET_BAD))
        rc = c->host->set_error(SBX_E_BACKEND_TRANSPORT, "docker: no socket to %s", c->ep.display);
    if (rc) {
        dk_hijack_close(hj);
        return rc;
    }
    hj->fd = sock;

    char *req = NULL;
    size_t blen = json ? strlen(json) : 0;
    int len = asprintf(&req,
                       "POST %s%s HTTP/1.1\r\nHost: %s\r\nUser-Agent: sandboxio-docker/" DK_VERSION
                       "\r\nContent-Type: application/json\r\nConnection: Upgrade\r\n"
                       "Upgrade: tcp\r\nContent-Length: %zu\r\n\r\n%s",
                       c->http.prefix, path, c->ep.transport == DK_UNIX ? "docker" : c->ep.host_port,
                       blen,
                       json ? json : "");
    if (len < 0) {
        dk_hijack_close(hj);
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    rc = send_all(hj, req, (size_t)len);
    free(req);
    sbxu_buf head = {0};
    size_t head_len = 0;
    if (rc == SBX_OK)
        rc = read_head(hj, &head, &head_len);
    long status = 0;
    if (rc == SBX_OK && (strncmp(head.data, "HTTP/1.", 7) != 0 ||
                         sscanf(head.data + 8, " %ld", &status) != 1))
        rc = c->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: %s sent no HTTP status line",
                                c->ep.display);
    if (rc == SBX_OK && status != 101 && status != 200)
        rc = fail_answer(hj, status, &head, head_len, context);
    if (rc == SBX_OK && head.len > head_len &&
        sbxu_buf_append(&hj->pending, head.data + head_len, head.len - head_len))
        rc = c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    sbxu_buf_clear(&head);
    if (rc)
        dk_hijack_close(hj);
    return rc;
}
