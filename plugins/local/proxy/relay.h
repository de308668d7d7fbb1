/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's relay: once a connection is allowed (and its
 * ClientHello checked), its bytes only go across, both ways, between the
 * sandbox's socket and the upstream one. relay.c moves them with splice(2)
 * through a pipe per direction: the kernel hands the pages on, so the proxy
 * neither copies them nor wakes up per chunk.
 */
#ifndef SBX_PROXY_RELAY_H
#define SBX_PROXY_RELAY_H

#include <event2/event.h>

typedef struct px_relay px_relay;

/*
 * Relay between the connected, non-blocking sockets a and b (the caller
 * keeps them, and closes them after px_relay_free()). When a side ends, the
 * other gets what was on its way and then the end (shutdown SHUT_WR); when
 * both ways ended, an error happened on either, or nothing moved for idle_s
 * seconds, done(arg, why) is called once, why NULL for an orderly end, a
 * static string otherwise. done may free the relay. NULL: errno says why.
 */
px_relay *px_relay_new(struct event_base *base, int a, int b, int idle_s,
                       void (*done)(void *arg, const char *why), void *arg);
void px_relay_free(px_relay *r);

#endif
