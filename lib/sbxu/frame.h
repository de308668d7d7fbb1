/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/frame.h - the fixed-size header of a framed stream (the engine's
 * multiplexed output, a Connect envelope), which may arrive split across
 * any number of reads. Header only: the fuzzed readers that use it compile
 * alone.
 */
#ifndef SBXU_FRAME_H
#define SBXU_FRAME_H

#include <stddef.h>
#include <string.h>

/*
 * Move bytes of [*p, *p + *len) into hdr (size bytes, *have of them already
 * there), advancing *p and *len past what was taken. 1 once the header is
 * whole (the caller resets *have when it starts the next one), 0 while
 * more is to come.
 */
static inline int sbxu_frame_header(unsigned char *hdr, size_t size, size_t *have,
                                    const unsigned char **p, size_t *len)
{
    size_t take = size - *have;
    if (take > *len)
        take = *len;
    memcpy(hdr + *have, *p, take);
    *have += take;
    *p += take;
    *len -= take;
    return *have == size;
}

#endif
