/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The e2b backend's descriptor: the remote-backend kit's state, files, gc
 * and ping (init reaches nothing: the first request is made when a sandbox
 * is opened, gc runs or ping is asked), E2B's sandboxes and commands.
 */
#include "e2b.h"
/* E2B_SPEC_DATE, made from spec/SOURCES at build time (e2b.mk). */
#include "plugins/e2b/spec-date.h"

#include <sandboxio/errors.h>

/*
 * Only what the contract suite proves against the doubles: the kit's
 * (SBXU_REMOTE_CAPS), pause and attach. Not declared:
 * limit-memory, limit-cpu, limit-pids, limit-disk (the template fixes them;
 * E2B cannot set them per sandbox, so the core refuses a policy that asks),
 * oom-report (envd does not say), net-allowlist (E2B's egress rules have no
 * ports: it would allow more than the policy), snapshot, ports,
 * pty, native. attach and pause are proved by e2b-lifecycle-members.sh
 * through the descriptor until the contract suite has cases for them.
 */
#define E2B_CAPS (SBXU_REMOTE_CAPS | SBX_CAP_PAUSE | SBX_CAP_ATTACH)

/* Where the API key is read from (api.c); doctor names it. */
static const char *const credential_env[] = {"E2B_API_KEY", NULL};

/* The kit's members (sbxu/remote.h: state, files, gc, ping, E2B's sandboxes) and E2B's own. */
static const sbx_plugin descriptor = {
    SBXU_REMOTE_MEMBERS(e2b),
    /* The stored specs' date as semver build metadata: doctor shows it. */
    .name = E2B_NAME, .version = E2B_VERSION "+spec." E2B_SPEC_DATE,
    .description = "E2B sandboxes (Firecracker microVMs), through E2B's API and envd",
    .caps = E2B_CAPS, .tier = SBX_TIER_MICROVM,
    /* ABI minor 2 (lifecycle.c). */
    .open_named = e2b_open_named, .attach = e2b_attach, .detach = e2b_detach, .list = e2b_list,
    .set_ttl = e2b_set_ttl, .pause = e2b_pause, .resume = e2b_resume,
    /* ABI minor 4. */
    .credential_env = credential_env,
};

SBXU_REMOTE_EXPORT(descriptor)
