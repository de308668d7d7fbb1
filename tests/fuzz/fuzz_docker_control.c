/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_docker_control.c - libFuzzer target: the docker backend's filter of
 * control lines in an exec's output (plugins/docker/control.c).
 *
 * The input after its first byte is cut into segments, each on stdout or
 * stderr (sizes and streams drawn from a generator the first byte seeds),
 * as the engine may deliver them. Property: feeding each segment whole, or
 * split into chunks of any sizes, passes on the same bytes on the same
 * streams and decodes the same control state (session, start failure, how
 * the command ended, its status, docker-init's fatal message).
 */
#include "../../plugins/docker/docker.h"
#include "chunks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct outcome {
    fz_record out;
    int rc;
    long session;
    int start_fail, ended, status;
    char fatal[sizeof(((dk_control *)0)->fatal)];
} outcome;

static void run(outcome *o, const uint8_t *data, size_t size, uint32_t seed, int chunked)
{
    dk_control c;
    dk_control_init(&c, fz_record_out, &o->out);
    uint32_t cut = seed, split = seed ^ 0x9e3779b9u;
    for (size_t off = 0; off < size && o->rc == 0;) {
        size_t seg = fz_next_chunk(&cut) * 4;
        int stream = 1 + (int)(cut >> 8 & 1);
        if (seg > size - off)
            seg = size - off;
        for (size_t done = 0; done < seg && o->rc == 0;) {
            size_t n = chunked ? fz_next_chunk(&split) : seg;
            if (n > seg - done)
                n = seg - done;
            o->rc = dk_control_feed(&c, stream, data + off + done, n);
            done += n;
        }
        off += seg;
    }
    if (o->rc == 0)
        o->rc = dk_control_flush(&c);
    o->session = c.session;
    o->start_fail = c.start_fail;
    o->ended = c.ended;
    o->status = c.status;
    memcpy(o->fatal, c.fatal, sizeof(o->fatal));
    dk_control_clear(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint32_t seed = data[0];
    outcome whole = {0}, chunked = {0};
    run(&whole, data + 1, size - 1, seed, 0);
    run(&chunked, data + 1, size - 1, seed, 1);
    fz_same("control", &whole.out, &chunked.out);
    if (whole.rc != chunked.rc || whole.session != chunked.session ||
        whole.start_fail != chunked.start_fail || whole.ended != chunked.ended ||
        whole.status != chunked.status || memcmp(whole.fatal, chunked.fatal, sizeof(whole.fatal))) {
        fprintf(stderr, "control: whole: rc %d session %ld fail %d ended %d status %d fatal \"%.40s\"; "
                "chunked: rc %d session %ld fail %d ended %d status %d fatal \"%.40s\"\n",
                whole.rc, whole.session, whole.start_fail, whole.ended, whole.status, whole.fatal,
                chunked.rc, chunked.session, chunked.start_fail, chunked.ended, chunked.status,
                chunked.fatal);
        abort();
    }
    free(whole.out.data);
    free(chunked.out.data);
    return 0;
}
