/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's multiplexed stream (exec without a TTY): each frame is an
 * 8-byte header [stream, 0, 0, 0, size as big-endian uint32] and size bytes
 * of payload, stream 1 = stdout, 2 = stderr (0 = stdin, never sent to us).
 * A socket read may end anywhere in a header or a payload, so the decoder
 * keeps a partial header and the payload bytes still owed, and passes
 * payload on as it arrives rather than waiting for a whole frame.
 */
#include "docker.h"
#include <sbxu/frame.h>

#include <string.h>

void dk_demux_init(dk_demux *d, int (*out)(void *ud, int stream, const void *data, size_t len),
                   void *ud)
{
    memset(d, 0, sizeof(*d));
    d->out = out;
    d->ud = ud;
}

bool dk_demux_idle(const dk_demux *d)
{
    return d->hdr_len == 0 && d->left == 0;
}

int dk_demux_feed(dk_demux *d, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len) {
        if (d->left == 0) {
            if (!sbxu_frame_header(d->hdr, sizeof(d->hdr), &d->hdr_len, &p, &len))
                return 0;
            d->hdr_len = 0;
            if (d->hdr[0] > 2 || d->hdr[1] || d->hdr[2] || d->hdr[3])
                return -1;
            d->stream = d->hdr[0] == 0 ? 1 : d->hdr[0];
            d->left = (uint32_t)d->hdr[4] << 24 | (uint32_t)d->hdr[5] << 16 |
                      (uint32_t)d->hdr[6] << 8 | (uint32_t)d->hdr[7];
            continue;    /* a zero-length frame is legal: nothing to pass on */
        }
        size_t take = d->left < len ? d->left : len;
        int rc = d->out(d->ud, d->stream, p, take);
        d->left -= (uint32_t)take;
        p += take;
        len -= take;
        if (rc)
            return rc;
    }
    return 0;
}
