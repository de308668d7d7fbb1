/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's parsers (parse.h): an HTTP/1.x request head (RFC 9112:
 * the request line and the header lines) and the server_name extension of
 * a TLS ClientHello (RFC 8446 4.1.2, RFC 6066 3), and whether that offers
 * Encrypted Client Hello (draft-ietf-tls-esni). Anything unusual is
 * refused rather than guessed at: the proxy only has to serve ordinary
 * clients, and every byte comes from the sandbox.
 */
#include "config.h"

#define _GNU_SOURCE 1
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

int px_host_ok(const char *host)
{
    unsigned char v6[16];
    size_t n = strlen(host);

    if (n == 0 || n > PX_MAX_HOST)
        return 0;
    if (strchr(host, ':'))
        return inet_pton(AF_INET6, host, v6) == 1;
    if (host[0] == '.' || strstr(host, ".."))
        return 0;
    return strspn(host, "abcdefghijklmnopqrstuvwxyz0123456789-_.") == n;
}

/* "host:port", "[v6]:port" (port required when need_port, else defport). */
static int parse_authority(const char *s, size_t len, int need_port, uint16_t defport,
                           px_request *req, const char **why)
{
    const char *host = s, *colon = NULL;
    size_t hlen;

    if (len && s[0] == '[') {
        const char *close = memchr(s, ']', len);
        if (!close)
            return *why = "unclosed '[' in the host", PX_BAD;
        host = s + 1;
        hlen = (size_t)(close - host);
        if (close + 1 < s + len) {
            if (close[1] != ':')
                return *why = "junk after ']' in the host", PX_BAD;
            colon = close + 1;
        }
    } else {
        colon = memchr(s, ':', len);
        hlen = colon ? (size_t)(colon - s) : len;
    }
    if (hlen == 0 || hlen > PX_MAX_HOST)
        return *why = "bad host length", PX_BAD;
    for (size_t i = 0; i < hlen; i++)
        req->host[i] = (char)tolower((unsigned char)host[i]);
    req->host[hlen] = '\0';
    if (hlen > 1 && req->host[hlen - 1] == '.' && !strchr(req->host, ':'))
        req->host[hlen - 1] = '\0'; /* "example.com." is example.com */
    if (!px_host_ok(req->host))
        return *why = "bad host name", PX_BAD;
    if (!colon) {
        if (need_port)
            return *why = "CONNECT needs host:port", PX_BAD;
        req->port = defport;
        return PX_DONE;
    }
    const char *p = colon + 1, *end = s + len;
    unsigned long port = 0;
    if (p == end || end - p > 5)
        return *why = "bad port", PX_BAD;
    for (; p < end; p++) {
        if (!isdigit((unsigned char)*p))
            return *why = "bad port", PX_BAD;
        port = port * 10 + (unsigned long)(*p - '0');
    }
    if (port == 0 || port > 65535)
        return *why = "bad port", PX_BAD;
    req->port = (uint16_t)port;
    return PX_DONE;
}

int px_parse_request(const char *buf, size_t len, px_request *req, const char **why)
{
    size_t scan = len < PX_MAX_HEAD ? len : PX_MAX_HEAD;
    const char *end = memmem(buf, scan, "\r\n\r\n", 4);

    memset(req, 0, sizeof *req);
    *why = "";
    if (!end) {
        if (len >= PX_MAX_HEAD)
            return *why = "request head too large", PX_BAD;
        return PX_MORE;
    }
    req->head_len = (size_t)(end - buf) + 4;
    const char *line_end = memmem(buf, req->head_len, "\r\n", 2);

    /* method SP target SP HTTP/1.x */
    size_t mlen = 0;
    while (mlen < 16 && buf[mlen] >= 'A' && buf[mlen] <= 'Z')
        mlen++;
    if (mlen == 0 || mlen == 16 || buf[mlen] != ' ')
        return *why = "bad request method", PX_BAD;
    req->connect = mlen == 7 && !memcmp(buf, "CONNECT", 7);
    const char *target = buf + mlen + 1;
    const char *sp = memchr(target, ' ', (size_t)(line_end - target));
    if (!sp || sp == target)
        return *why = "bad request line", PX_BAD;
    if (line_end - (sp + 1) != 8 || (memcmp(sp + 1, "HTTP/1.1", 8) && memcmp(sp + 1, "HTTP/1.0", 8)))
        return *why = "not HTTP/1.0 or 1.1", PX_BAD;
    req->target_off = (size_t)(target - buf);
    req->target_end = (size_t)(sp - buf);
    size_t tlen = req->target_end - req->target_off;
    if (memchr(target, '\0', tlen))
        return *why = "NUL in the request line", PX_BAD;

    int need_host = 0;
    if (req->connect) {
        if (parse_authority(target, tlen, 1, 0, req, why) != PX_DONE)
            return PX_BAD;
    } else if (tlen > 7 && !strncasecmp(target, "http://", 7)) {
        const char *auth = target + 7;
        size_t alen = 0;
        while (auth + alen < sp && !strchr("/?#", auth[alen]))
            alen++;
        if (memchr(auth, '@', alen))
            return *why = "user info in the URL", PX_BAD;
        if (parse_authority(auth, alen, 0, 80, req, why) != PX_DONE)
            return PX_BAD;
        req->path_off = (size_t)(auth + alen - buf);
    } else if (tlen > 8 && !strncasecmp(target, "https://", 8)) {
        return *why = "an https:// URL goes through CONNECT", PX_BAD;
    } else if (target[0] == '/') {
        need_host = 1;
        req->path_off = req->target_off;
    } else {
        return *why = "bad request target", PX_BAD;
    }

    /* The header lines: "name: value"; the Host of an origin-form request. */
    int hosts = 0;
    for (const char *l = line_end + 2; l < end + 2; ) {
        const char *le = memmem(l, (size_t)(end + 2 - l), "\r\n", 2);
        const char *colon = memchr(l, ':', (size_t)(le - l));
        if (!colon || colon == l || memchr(l, '\0', (size_t)(le - l)) || memchr(l, '\n', (size_t)(le - l)))
            return *why = "malformed header line", PX_BAD;
        for (const char *c = l; c < colon; c++)
            if (!isgraph((unsigned char)*c))
                return *why = "malformed header name", PX_BAD;
        if (colon - l == 4 && !strncasecmp(l, "host", 4)) {
            if (++hosts > 1)
                return *why = "two Host headers", PX_BAD;
            const char *v = colon + 1, *ve = le;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            /* Origin form: the Host is the target; absolute form: it is kept
             * aside, for the proxy to hold it against the target (a
             * CONNECT's goes nowhere). */
            px_request h = {0};
            px_request *into = need_host ? req : &h;
            if (!req->connect) {
                if (parse_authority(v, (size_t)(ve - v), 0, need_host ? 80 : 0, into, why)
                    != PX_DONE)
                    return PX_BAD;
                memcpy(req->host_header, into->host, sizeof req->host_header);
                req->host_header_port = into->port;
            }
        }
        l = le + 2;
    }
    if (need_host && !hosts)
        return *why = "no Host header", PX_BAD;
    return PX_DONE;
}

static uint32_t be(const uint8_t *p, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

int px_parse_sni(const uint8_t *buf, size_t len, char *sni, size_t cap, const char **why)
{
    *why = "";
    if (cap)
        sni[0] = '\0';
    if (len < 1)
        return PX_MORE;
    if (buf[0] != 0x16)
        return PX_NOT_TLS;
    if (len < 5)
        return PX_MORE;
    size_t rec = be(buf + 3, 2);
    if (buf[1] != 3 || rec < 4 || rec > 16384)
        return *why = "bad TLS record header", PX_BAD;
    if (len < 5 + rec)
        return PX_MORE;
    const uint8_t *p = buf + 5, *end;
    if (p[0] != 1)
        return *why = "first TLS handshake message is no ClientHello", PX_BAD;
    size_t hs = be(p + 1, 3);
    if (hs + 4 > rec)
        return *why = "ClientHello split over TLS records", PX_BAD;
    end = p + 4 + hs;
    p += 4;
#define NEED(n) do { if ((size_t)(end - p) < (size_t)(n)) \
        return *why = "truncated ClientHello", PX_BAD; } while (0)
    NEED(34);
    p += 34; /* legacy_version, random */
    NEED(1);
    size_t n = p[0];
    if (n > 32)
        return *why = "bad session id", PX_BAD;
    NEED(1 + n);
    p += 1 + n;
    NEED(2);
    n = be(p, 2);
    if (n < 2 || n % 2)
        return *why = "bad cipher suites", PX_BAD;
    NEED(2 + n);
    p += 2 + n;
    NEED(1);
    n = p[0];
    NEED(1 + n);
    p += 1 + n;
    if (p == end)
        return PX_DONE; /* no extensions: no server name */
    NEED(2);
    n = be(p, 2);
    p += 2;
    NEED(n);
    if (p + n != end)
        return *why = "junk after the extensions", PX_BAD;
    int found = 0;
    while (p < end) {
        NEED(4);
        size_t type = be(p, 2), elen = be(p + 2, 2);
        p += 4;
        NEED(elen);
        if (type == PX_TLS_EXT_ECH)
            return PX_ECH;
        if (type == 0) {
            if (found++)
                return *why = "two server_name extensions", PX_BAD;
            const uint8_t *q = p, *qe = p + elen;
            if (qe - q < 2 || be(q, 2) != (size_t)(qe - q - 2))
                return *why = "bad server_name list", PX_BAD;
            q += 2;
            /* One host_name entry (RFC 6066: at most one of each type). */
            if (qe - q < 3 || q[0] != 0)
                return *why = "bad server_name entry", PX_BAD;
            size_t nlen = be(q + 1, 2);
            q += 3;
            if (nlen == 0 || nlen > PX_MAX_HOST || nlen >= cap || (size_t)(qe - q) != nlen)
                return *why = "bad server name length", PX_BAD;
            for (size_t i = 0; i < nlen; i++)
                sni[i] = (char)tolower(q[i]);
            sni[nlen] = '\0';
            if (nlen > 1 && sni[nlen - 1] == '.')
                sni[nlen - 1] = '\0';
            if (!px_host_ok(sni) || strchr(sni, ':'))
                return *why = "bad server name", PX_BAD;
        }
        p += elen;
    }
#undef NEED
    return PX_DONE;
}
