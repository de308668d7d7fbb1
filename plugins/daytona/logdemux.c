/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A session command's log split into stdout and stderr by the daemon's
 * line markers, fed as the log grows (see daytona.h). A byte-wise state
 * machine, so a marker cut between two feeds is found all the same: up to
 * two bytes that may start a marker wait in pend until the next byte says.
 */
#include "daytona.h"

#include <string.h>
#include <sandboxio/errors.h>
#include <sandboxio/exec.h>

void daytona_demux_init(daytona_demux *d, int (*out)(void *ud, int stream, const void *data,
                                                     size_t len), void *ud)
{
    memset(d, 0, sizeof(*d));
    d->out = out;
    d->ud = ud;
}

/* Gives out what buf holds (dropped before the first marker: no stream). */
static int flush(daytona_demux *d)
{
    size_t n = d->buf_len;
    d->buf_len = 0;
    if (n == 0 || d->stream == 0)
        return SBX_OK;
    return d->out(d->ud, d->stream, d->buf, n);
}

static int put(daytona_demux *d, unsigned char c)
{
    if (d->buf_len == sizeof(d->buf)) {
        int rc = flush(d);
        if (rc != SBX_OK)
            return rc;
    }
    d->buf[d->buf_len++] = c;
    return SBX_OK;
}

/* The bytes held as a possible marker turned out to be output. */
static int put_pending(daytona_demux *d)
{
    for (; d->pend_n > 0; d->pend_n--) {
        int rc = put(d, d->pend);
        if (rc != SBX_OK)
            return rc;
    }
    return SBX_OK;
}

int daytona_demux_feed(daytona_demux *d, const void *data, size_t len)
{
    const unsigned char *p = data;
    int rc = SBX_OK;
    for (size_t i = 0; i < len && rc == SBX_OK; i++) {
        unsigned char c = p[i];
        if (d->pend_n > 0 && c == d->pend) {
            if (++d->pend_n < DAYTONA_MARKER_LEN)
                continue;
            /* A whole marker: what came before it is the old stream's. */
            d->pend_n = 0;
            rc = flush(d);
            d->stream = c == 1 ? SBX_STDOUT : SBX_STDERR;
            continue;
        }
        rc = put_pending(d);
        if (rc != SBX_OK)
            break;
        if (c == 1 || c == 2) {
            d->pend = c;
            d->pend_n = 1;
        } else {
            rc = put(d, c);
        }
    }
    /* What is certain is given out now, so output streams as it comes. */
    return rc == SBX_OK ? flush(d) : rc;
}

int daytona_demux_finish(daytona_demux *d)
{
    int rc = put_pending(d);
    return rc == SBX_OK ? flush(d) : rc;
}
