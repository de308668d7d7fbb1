/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gc sweep: a backend lists its labelled sandboxes, this decides from
 * the labels which are leaked and removes them through the backend.
 */
#include "config.h"

#include <time.h>
#include <sandboxio/errors.h>

#include <sbxu/owner.h>

int sbxu_gc_sweep(const sbxu_gc_list *list,
                 int (*report)(void *userdata, const char *id, const char *reason),
                 void *userdata, size_t *removed)
{
    sbxu_owner self;
    sbxu_owner_self(&self);
    int64_t now = (int64_t)time(NULL);
    size_t count = 0;
    int rc = SBX_OK;
    for (size_t i = 0; i < list->count; i++) {
        const char *id = list->id(list->ud, i);
        if (!id)
            continue;
#define L(key) list->label(list->ud, i, key)
        const char *why = sbxu_gc_verdict(&self, L(SBXU_LABEL_HOST), L(SBXU_LABEL_BOOT),
                                         L(SBXU_LABEL_PID), L(SBXU_LABEL_START),
                                         L(SBXU_LABEL_CREATED), L(SBXU_LABEL_TTL), now,
                                         sbxu_owner_proc_start);
#undef L
        if (!why)
            continue;
        rc = list->remove(list->ud, i);
        if (rc)
            break;
        count++;
        if (report && report(userdata, id, why) != 0)
            break;
    }
    if (removed)
        *removed = count;
    return rc;
}
