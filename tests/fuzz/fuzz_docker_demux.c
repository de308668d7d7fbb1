/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_docker_demux.c - libFuzzer target: the docker backend's decoder of
 * the engine's multiplexed stream (plugins/docker/demux.c).
 *
 * Property: feeding the input whole, or split into chunks of any sizes,
 * gives the same output bytes on the same streams, the same result (0 or
 * -1 for a bad header) and the same "idle" state at the end. The first
 * byte seeds the chunk sizes; the rest is the stream.
 */
#include "../../plugins/docker/docker.h"
#include "chunks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint32_t seed = data[0];
    data++, size--;

    fz_record whole = {0}, chunked = {0};
    dk_demux d;
    dk_demux_init(&d, fz_record_out, &whole);
    int whole_rc = dk_demux_feed(&d, data, size);
    int whole_idle = dk_demux_idle(&d);

    dk_demux_init(&d, fz_record_out, &chunked);
    int chunked_rc = 0;
    for (size_t off = 0; off < size && chunked_rc == 0;) {
        size_t n = fz_next_chunk(&seed);
        if (n > size - off)
            n = size - off;
        chunked_rc = dk_demux_feed(&d, data + off, n);
        off += n;
    }
    fz_same("demux", &whole, &chunked);
    if (whole_rc != chunked_rc || (whole_rc == 0 && whole_idle != dk_demux_idle(&d))) {
        fprintf(stderr, "demux: whole input: result %d idle %d; chunked: result %d idle %d\n",
                whole_rc, whole_idle, chunked_rc, dk_demux_idle(&d));
        abort();
    }
    free(whole.data);
    free(chunked.data);
    return 0;
}
