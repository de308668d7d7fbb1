/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daytona backend's descriptor: the remote-backend kit's state (the
 * pool of HTTP sessions its sandboxes share), files, gc and ping (init
 * reaches nothing: the first request is made when a sandbox is opened, gc
 * runs or ping is asked), Daytona's sandboxes and commands.
 */
#include "daytona.h"

#include <sandboxio/errors.h>

/* DAYTONA_SPEC_DATE, made from spec/SOURCES at build time (daytona.mk). */
#include "plugins/daytona/spec-date.h"

/*
 * Only what the contract suite proves against the doubles: the kit's
 * (SBXU_REMOTE_CAPS). Not declared:
 * net-allowlist, limit-memory, limit-cpu, limit-disk (Daytona enforces
 * them in its runner, which the doubles do not stand for, so the contract
 * cannot prove them here; policy.c maps them for when it can), limit-pids
 * (Daytona has none), oom-report, attach and pause (not built yet),
 * snapshot, ports, pty, native.
 */
#define DAYTONA_CAPS SBXU_REMOTE_CAPS

/* The API key, or a JWT with its organisation (api.c); doctor names them. */
static const char *const credential_env[] = {"DAYTONA_API_KEY", "DAYTONA_JWT_TOKEN",
                                             "DAYTONA_ORGANIZATION_ID", NULL};

/* The kit's members (sbxu/remote.h: state, files, gc, ping, Daytona's sandboxes) and its name. */
static const sbx_plugin descriptor = {
    SBXU_REMOTE_MEMBERS(daytona),
    .name = DAYTONA_NAME, .version = DAYTONA_VERSION "+spec." DAYTONA_SPEC_DATE,
    .description = "Daytona sandboxes, through Daytona's API and the toolbox daemon",
    /* Not proved by any dated Daytona document: see docs/backends/daytona.md. */
    .caps = DAYTONA_CAPS, .tier = SBX_TIER_UNKNOWN,
    /* ABI minor 4. */
    .credential_env = credential_env,
};

SBXU_REMOTE_EXPORT(descriptor)
