/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/create.h - a cloud sandbox's create call, tried again only where no
 * second sandbox can come of it (libsbxu).
 *
 * A create whose answer was lost may have made a sandbox, and a blind
 * second try would make another. A 429 made nothing (the provider's edge
 * refused it): it is tried again after the wait the provider asked for
 * (Retry-After), or a doubling wait. After a 5xx or no answer at all
 * (SBX_E_BACKEND_UNAVAILABLE, SBX_E_BACKEND_TRANSPORT) the sandbox the call
 * may have made is looked for by a label unique to the call and removed
 * (sweep) before the next try. At most SBXU_CREATE_TRIES tries; a wait
 * longer than SBXU_CREATE_WAIT_MAX_MS ends them.
 */
#ifndef SBXU_CREATE_H
#define SBXU_CREATE_H

#include <sandboxio/plugin.h>

#define SBXU_CREATE_TRIES 4
#define SBXU_CREATE_WAIT_MAX_MS 10000

typedef struct sbxu_create {
    const sbx_host *host;
    const char *plugin;
    /* One try: SBX_OK or the code (error set); *status the HTTP status (0: none), *retry_after_ms -1 if none. */
    int (*call)(void *ud, long *status, long *retry_after_ms);
    /* Remove what a try without a clear answer may have made: SBX_OK, or the code. */
    int (*sweep)(void *ud);
    void *ud;
} sbxu_create;

/* sbxu_create_run - the tries; the last try's code. */
int sbxu_create_run(const sbxu_create *c);

#endif
