/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_proxy_sni.c - libFuzzer target: the local allowlist proxy's TLS
 * ClientHello parser (plugins/local/proxy/parse.c), which reads the first
 * bytes a sandbox sends through a CONNECT tunnel.
 *
 * Properties: a server name found is "" or a valid host name, never an
 * address with ':'; the first record alone gives the same answer; with its
 * last byte missing the parser asks for more instead of deciding. A
 * ClientHello offering Encrypted Client Hello is PX_ECH from its first
 * record alone too (the proxy refuses it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/local/proxy/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse_copy(const uint8_t *data, size_t size, char *sni)
{
    const char *why;
    uint8_t *copy = malloc(size ? size : 1); /* exactly size bytes: ASan sees any overread */
    if (!copy)
        abort();
    memcpy(copy, data, size);
    int r = px_parse_sni(copy, size, sni, PX_MAX_HOST + 1, &why);
    if (r == PX_BAD && (!why || !*why)) {
        fprintf(stderr, "sni: refused without a reason\n");
        abort();
    }
    free(copy);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char sni[PX_MAX_HOST + 1], again[PX_MAX_HOST + 1];
    int r = parse_copy(data, size, sni);
    if (r == PX_ECH) {
        size_t record = 5 + ((size_t)data[3] << 8 | data[4]);
        if (parse_copy(data, record, again) != PX_ECH) {
            fprintf(stderr, "sni: ECH seen in more than the first record\n");
            abort();
        }
        return 0;
    }
    if (r != PX_DONE)
        return 0;
    if (sni[0] && (!px_host_ok(sni) || strchr(sni, ':'))) {
        fprintf(stderr, "sni: bad name accepted: '%s'\n", sni);
        abort();
    }
    size_t record = 5 + ((size_t)data[3] << 8 | data[4]);
    if (parse_copy(data, record, again) != PX_DONE || strcmp(sni, again)) {
        fprintf(stderr, "sni: the first record alone parses differently\n");
        abort();
    }
    if (parse_copy(data, record - 1, again) != PX_MORE) {
        fprintf(stderr, "sni: decided without the whole record\n");
        abort();
    }
    return 0;
}
