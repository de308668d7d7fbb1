/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_proxy_request.c - libFuzzer target: the local allowlist proxy's HTTP
 * request head parser (plugins/local/proxy/parse.c), fed whatever a sandbox
 * sends.
 *
 * Properties: a parsed head's offsets lie inside it in order, its host is
 * one px_host_ok() accepts and its port is not 0; so is a Host header's
 * host (none kept for a CONNECT), the same as the target's in origin
 * form; the head alone parses to the same request; one byte less of it
 * never parses (the parser decides on the blank line, not on what follows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/local/proxy/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse_copy(const uint8_t *data, size_t size, px_request *req)
{
    const char *why;
    char *copy = malloc(size ? size : 1); /* exactly size bytes: ASan sees any overread */
    if (!copy)
        abort();
    memcpy(copy, data, size);
    int r = px_parse_request(copy, size, req, &why);
    if (r == PX_BAD && (!why || !*why)) {
        fprintf(stderr, "request: refused without a reason\n");
        abort();
    }
    free(copy);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    px_request req, again;
    int r = parse_copy(data, size, &req);
    if (r != PX_DONE)
        return 0;
    if (req.head_len > size || req.head_len > PX_MAX_HEAD || req.port == 0
        || !px_host_ok(req.host)
        || (!req.connect && !(req.target_off <= req.path_off && req.path_off <= req.target_end
                              && req.target_end < req.head_len))) {
        fprintf(stderr, "request: inconsistent result (head %zu of %zu, port %u, host '%s')\n",
                req.head_len, size, req.port, req.host);
        abort();
    }
    if ((req.host_header[0] && (req.connect || !px_host_ok(req.host_header)))
        || (!req.host_header[0] && req.host_header_port)
        || (!req.connect && req.path_off == req.target_off
            && (strcmp(req.host_header, req.host) || req.host_header_port != req.port))) {
        fprintf(stderr, "request: inconsistent Host header ('%s' port %u, target '%s' port %u)\n",
                req.host_header, req.host_header_port, req.host, req.port);
        abort();
    }
    if (parse_copy(data, req.head_len, &again) != PX_DONE || memcmp(&req, &again, sizeof req)) {
        fprintf(stderr, "request: the head alone parses differently\n");
        abort();
    }
    if (parse_copy(data, req.head_len - 1, &again) == PX_DONE) {
        fprintf(stderr, "request: parsed without its blank line\n");
        abort();
    }
    return 0;
}
