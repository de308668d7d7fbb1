/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/feed.h - a command's stdin fed from a thread of its own (libsbxu).
 *
 * A remote backend sends stdin in calls of its own (an input RPC, an input
 * endpoint) while its exec loop reads output. The feeder takes the
 * caller's bytes with io->input() - once io->input_ready_fd polls readable
 * where the core gives one, so an interactive client's keystrokes go as
 * they are typed and the feeder can be stopped while it waits - and hands
 * each chunk to send(); n == 0 is the end of stdin. It stops at the end,
 * at the first failed send() (its code kept in rc), or at sbxu_feed_stop().
 */
#ifndef SBXU_FEED_H
#define SBXU_FEED_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sandboxio/plugin.h>

typedef struct sbxu_feed {
    const sbx_plugin_io *io;
    size_t chunk;                                /* bytes per send() at most */
    int (*send)(void *ud, const void *data, size_t n);
    void *ud;
    int rc;                                      /* SBX_OK, or the failing send()'s code */
    /* private */
    pthread_t thread;
    int stop[2];
    bool running;
} sbxu_feed;

/*
 * sbxu_feed_start - start feeding io's stdin to send(ud, ...) in chunks of
 * at most chunk bytes. SBX_OK, or SBX_E_SYSTEM (no pipe, no thread) with
 * the error set through host, prefixed with plugin.
 */
int sbxu_feed_start(sbxu_feed *f, const sbx_host *host, const char *plugin,
                   const sbx_plugin_io *io, size_t chunk,
                   int (*send)(void *ud, const void *data, size_t n), void *ud);
/*
 * sbxu_feed_failed - while the feeder runs or after it stopped: the code of
 * the send() it stopped on, else SBX_OK. The exec loop looks at it, so a
 * command whose stdin could not be sent does not wait for it for ever.
 */
int sbxu_feed_failed(sbxu_feed *f);
/* sbxu_feed_stop - stop the feeder and wait for it (safe when never started). */
void sbxu_feed_stop(sbxu_feed *f);

#endif
