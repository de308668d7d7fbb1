/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The create loop of a cloud backend (see sbxu/create.h).
 */
#include "config.h"

#include <stdbool.h>
#include <unistd.h>
#include <sandboxio/common.h>
#include <sandboxio/errors.h>

#include <sbxu/create.h>

int sbxu_create_run(const sbxu_create *c)
{
    long wait = 500;
    int rc = SBX_OK;
    for (int try = 1; try <= SBXU_CREATE_TRIES; try++) {
        long status = 0, retry_after = -1;
        rc = c->call(c->ud, &status, &retry_after);
        bool refused = status == 429 && rc == SBX_E_BACKEND_RATE_LIMITED;
        bool unclear = rc == SBX_E_BACKEND_UNAVAILABLE || rc == SBX_E_BACKEND_TRANSPORT;
        if (rc == SBX_OK || try == SBXU_CREATE_TRIES || !(refused || unclear))
            break;
        if (unclear && c->sweep(c->ud) != SBX_OK)
            break;
        long ms = refused && retry_after >= 0 ? retry_after : wait;
        if (ms > SBXU_CREATE_WAIT_MAX_MS)
            break;
        if (c->host->log)
            c->host->log(SBX_LOG_INFO, c->plugin, "create answered HTTP %ld; trying again in %ld ms",
                         status, ms);
        usleep((useconds_t)ms * 1000);
        wait *= 2;
    }
    return rc;
}
