/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's parsers: an HTTP request head and the SNI of a TLS
 * ClientHello. Pure functions over untrusted bytes (the fuzz targets call
 * them as they are): no allocation, every length checked.
 */
#ifndef SBX_PROXY_PARSE_H
#define SBX_PROXY_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define PX_MAX_HEAD 16384     /* bytes of a request head, request line included */
#define PX_MAX_HOST 253       /* a DNS name's longest text form */
#define PX_MAX_HELLO 16389    /* one TLS record: 5-byte header + 2^14 */

/* Results of both parsers. */
enum { PX_BAD = -1, PX_MORE = 0, PX_DONE = 1, PX_NOT_TLS = 2, PX_ECH = 3 };

/* TLS Encrypted Client Hello's extension (encrypted_client_hello). */
#define PX_TLS_EXT_ECH 0xfe0d

typedef struct px_request {
    int connect;              /* CONNECT host:port */
    char host[PX_MAX_HOST + 1]; /* lower case; an IPv6 address without brackets */
    uint16_t port;
    size_t head_len;          /* through the blank line */
    /* Plain requests: the request target's bytes [target_off, target_end),
     * and where its origin form ("/path?q") starts (== target_end: "/"). */
    size_t target_off, target_end, path_off;
    /* A plain request's Host header: its host (as host above), "" without
     * one, and its port (0 if it names none in absolute form, 80 in origin
     * form): it must name the target's host (and port, if any), or the
     * server would serve another site than the one allowed. */
    char host_header[PX_MAX_HOST + 1];
    uint16_t host_header_port;
} px_request;

/*
 * Parse the request head at the start of buf[0..len). PX_DONE: *req filled;
 * PX_MORE: no blank line yet (and len < PX_MAX_HEAD); PX_BAD: *why says why
 * in a few words (a static string).
 */
int px_parse_request(const char *buf, size_t len, px_request *req, const char **why);

/*
 * The server name of the ClientHello at the start of buf[0..len): PX_DONE
 * with sni (lower case) set, "" when it names none; PX_MORE; PX_NOT_TLS when
 * the bytes are no TLS handshake; PX_ECH when it offers Encrypted Client
 * Hello (its SNI is then only the outer, public name: the name the server
 * serves is encrypted); PX_BAD with *why.
 */
int px_parse_sni(const uint8_t *buf, size_t len, char *sni, size_t cap, const char **why);

/* A valid host: a DNS name (letters, digits, '-', '_', '.') or an IP literal. */
int px_host_ok(const char *host);

#endif
