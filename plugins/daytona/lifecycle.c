/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Waiting for a created sandbox: what each record of GET /sandbox/{id}
 * says (api spec SandboxState), and the error when the wait's bound passes.
 * The SDK waits the same way (Sandbox.waitUntilStarted: `started` ends it,
 * `error` and `build_failed` fail it, anything else keeps it polling); the
 * adapter also fails at once on a state a create never passes through on
 * its way (stopped, destroyed, ...), rather than wait out its bound.
 */
#include "daytona.h"

#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/json.h>

#define NAME "daytona"

/* The states between a create's answer and `started`. */
static const char *const ON_THE_WAY[] = {
    "creating", "starting", "restoring", "pending_build", "building_snapshot",
    "pulling_snapshot", "unknown", NULL,
};

static bool on_the_way(const char *state)
{
    for (size_t i = 0; ON_THE_WAY[i]; i++)
        if (strcmp(state, ON_THE_WAY[i]) == 0)
            return true;
    return false;
}

int daytona_start_state(json_object *record, const sbx_host *host, char *state, size_t state_size)
{
    const char *id = sbxu_json_str(record, "id");
    const char *s = sbxu_json_str(record, "state");
    const char *reason = sbxu_json_str(record, "errorReason");
    if (!s)
        return host->set_error(SBX_E_BACKEND_PROTOCOL,
                               NAME ": the API's sandbox record has no state");
    snprintf(state, state_size, "%s", s);
    if (strcmp(s, "started") == 0)
        return SBX_OK;
    if (on_the_way(s))
        return DAYTONA_STARTING;
    return host->set_error(SBX_E_BACKEND_FAILED, NAME ": sandbox %s did not start: Daytona reports "
                                                 "it %s%s%s",
                           id ? id : "(no id)", s, reason && reason[0] ? ": " : "",
                           reason ? reason : "");
}

int daytona_start_timeout(const sbx_host *host, const char *id, const char *state,
                          const char *reason, uint64_t waited_ms)
{
    return host->set_error(SBX_E_BACKEND_START_TIMEOUT,
                           NAME ": sandbox %s did not start within %llu s: Daytona still "
                                "reports it %s%s%s",
                           id, (unsigned long long)(waited_ms / 1000), state,
                           reason && reason[0] ? ": " : "", reason ? reason : "");
}
