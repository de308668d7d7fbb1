/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_e2b_envelope.c - libFuzzer target: the e2b backend's decoder of a
 * Connect server stream (plugins/e2b/envelope.c), which every byte of
 * envd's answer to process.Process/Start goes through.
 *
 * The first input byte seeds the chunk sizes; the rest is the body. Feeding
 * it whole, or cut into chunks of any sizes, must give the same messages,
 * the same end-of-stream message and the same verdict (the code of the
 * feed, then of finish(), and the reason of a protocol error). A finish()
 * that says OK must have seen a whole end-of-stream message, and no byte
 * may be taken after it.
 */
#include "../../plugins/e2b/e2b.h"
#include "chunks.h"

#include <sandboxio/errors.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct outcome {
    fz_record msgs;        /* stream 1: messages, stream 2: the end message */
    int feed_rc, finish_rc;
    const char *why;
    int ended;
} outcome;

static int on_message(void *ud, const char *json, size_t len)
{
    outcome *o = ud;
    fz_record_out(&o->msgs, 1, json, len);
    fz_record_out(&o->msgs, 1, "\n", 1);    /* a message boundary is part of the result */
    return 0;
}

static int on_end(void *ud, const char *json, size_t len)
{
    outcome *o = ud;
    fz_record_out(&o->msgs, 2, json, len);
    return 0;
}

static void run(outcome *o, const uint8_t *data, size_t size, uint32_t seed, int chunked)
{
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, o);
    for (size_t off = 0; off < size && o->feed_rc == SBX_OK;) {
        size_t n = chunked ? fz_next_chunk(&seed) : size - off;
        if (n > size - off)
            n = size - off;
        o->feed_rc = e2b_envelope_feed(&e, data + off, n);
        off += n;
    }
    o->finish_rc = o->feed_rc == SBX_OK ? e2b_envelope_finish(&e) : o->feed_rc;
    o->why = o->feed_rc == SBX_E_BACKEND_PROTOCOL || o->finish_rc == SBX_E_BACKEND_PROTOCOL
                 ? e.why : NULL;
    o->ended = e.ended;
    e2b_envelope_clear(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint32_t seed = data[0];
    outcome whole = {0}, chunked = {0};
    whole.msgs.last_stream = chunked.msgs.last_stream = -1;

    run(&whole, data + 1, size - 1, seed, 0);
    run(&chunked, data + 1, size - 1, seed, 1);
    fz_same("e2b envelope", &whole.msgs, &chunked.msgs);
    if (whole.feed_rc != chunked.feed_rc || whole.finish_rc != chunked.finish_rc ||
        whole.ended != chunked.ended || (whole.why == NULL) != (chunked.why == NULL) ||
        (whole.why && strcmp(whole.why, chunked.why) != 0)) {
        fprintf(stderr, "e2b envelope: chunked verdict %d/%d (%s) differs from whole %d/%d (%s)\n",
                chunked.feed_rc, chunked.finish_rc, chunked.why ? chunked.why : "-",
                whole.feed_rc, whole.finish_rc, whole.why ? whole.why : "-");
        abort();
    }
    if (whole.finish_rc == SBX_OK && !whole.ended) {
        fprintf(stderr, "e2b envelope: finish() said OK without an end-of-stream message\n");
        abort();
    }
    free(whole.msgs.data);
    free(chunked.msgs.data);
    return 0;
}
