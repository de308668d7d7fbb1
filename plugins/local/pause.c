/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pausing a local sandbox (SBX_CAP_PAUSE): the cgroup v2 freezer (cgroup.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local.h"

/*
 * Pause and resume: the sandbox's own v2 group is frozen whole (init
 * included: the keeper holds the deadline meanwhile), files and memory
 * kept. The group is the creator's record of it, or, for an attached
 * handle, the one init is in, as the host sees it (the pid in the id is
 * init's, and init is alive while it answers).
 */
static int set_frozen(local_sandbox *sb, int frozen)
{
    char group[sizeof sb->cg.mem];
    if (sb->cg.v2 && sb->cg.mem[0])
        snprintf(group, sizeof group, "%s", sb->cg.mem);
    else if (local_cgroup_of((pid_t)atoi(sb->id + 6), group, sizeof group) < 0)
        return sb->host->set_error(SBX_E_KERNEL_FEATURE,
                                   "local: sandbox %s has no cgroup of its own to freeze (pause "
                                   "needs a writable cgroup v2 hierarchy, as root, and a sandbox "
                                   "opened with a name or a TTL)", sb->id);
    if (local_cgroup_freeze(group, frozen) < 0)
        return sb->host->set_error(SBX_E_KERNEL_FEATURE, "local: %s sandbox %s: %s",
                                   frozen ? "freezing" : "thawing", sb->id, strerror(errno));
    local_record rec;
    if (sb->rundir >= 0 && local_record_read(sb->rundir, sb->id, &rec) == 0) {
        rec.state = frozen ? SBX_PLUGIN_STATE_PAUSED : SBX_PLUGIN_STATE_RUNNING;
        int w = local_record_write(sb->rundir, &rec);
        local_record_free(&rec);
        if (w < 0)
            return sb->host->set_error(SBX_E_SYSTEM, "local: sandbox %s is %s, but its record "
                                       "says otherwise: %s", sb->id,
                                       frozen ? "paused" : "running", strerror(errno));
    }
    return SBX_OK;
}

int local_pause(void *sandbox)
{
    return set_frozen(sandbox, 1);
}

int local_resume(void *sandbox)
{
    return set_frozen(sandbox, 0);
}
