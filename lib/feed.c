/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A command's stdin fed from a thread (see sbxu/feed.h).
 */
#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/feed.h>

static void *feed(void *ud)
{
    sbxu_feed *f = ud;
    const sbx_plugin_io *io = f->io;
    int ready = SBX_STRUCT_HAS(io, input_ready_fd) ? io->input_ready_fd : -1;
    char *buf = malloc(f->chunk);
    int rc = buf ? SBX_OK : SBX_E_NOMEM;
    while (rc == SBX_OK) {
        struct pollfd p[2] = {{.fd = ready, .events = POLLIN}, {.fd = f->stop[0], .events = POLLIN}};
        /* Without a readiness descriptor input() may block: stop is looked at between chunks. */
        if (ready >= 0 ? poll(p, 2, -1) < 0 || p[1].revents : poll(p + 1, 1, 0) > 0)
            break;
        long n = io->input(io->userdata, buf, f->chunk);
        if (n < 0)
            break;
        rc = f->send(f->ud, buf, (size_t)n);
        if (n == 0)
            break;
    }
    free(buf);
    __atomic_store_n(&f->rc, rc, __ATOMIC_RELEASE);
    return NULL;
}

int sbxu_feed_failed(sbxu_feed *f)
{
    return f->running ? __atomic_load_n(&f->rc, __ATOMIC_ACQUIRE) : SBX_OK;
}

int sbxu_feed_start(sbxu_feed *f, const sbx_host *host, const char *plugin,
                   const sbx_plugin_io *io, size_t chunk,
                   int (*send)(void *ud, const void *data, size_t n), void *ud)
{
    *f = (sbxu_feed){.io = io, .chunk = chunk, .send = send, .ud = ud, .stop = {-1, -1}};
    if (pipe(f->stop) != 0)
        return host->set_error(SBX_E_SYSTEM, "%s: pipe: %m", plugin);
    if (pthread_create(&f->thread, NULL, feed, f) != 0) {
        close(f->stop[0]);
        close(f->stop[1]);
        return host->set_error(SBX_E_SYSTEM, "%s: cannot start the stdin thread", plugin);
    }
    f->running = true;
    return SBX_OK;
}

void sbxu_feed_stop(sbxu_feed *f)
{
    if (!f->running)
        return;
    if (write(f->stop[1], "x", 1) < 0) {
        /* The pipe is ours and empty: a write cannot fail but by a bug; join anyway. */
    }
    pthread_join(f->thread, NULL);
    close(f->stop[0]);
    close(f->stop[1]);
    f->running = false;
}
