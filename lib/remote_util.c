/* SPDX-License-Identifier: Apache-2.0 */
/* Small parts remote backends share: a command's shape, why it did not start. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/remote.h>

void sbxu_remote_cmd_shape(const sbx_plugin_cmd *cmd, const char *dflt, size_t extra,
                          const char **path, size_t *nenv, char count[24], size_t *nargv)
{
    *path = dflt;
    *nenv = 0;
    *nargv = 0;
    for (; cmd->envp && cmd->envp[*nenv]; (*nenv)++)
        if (strncmp(cmd->envp[*nenv], "PATH=", 5) == 0)
            *path = cmd->envp[*nenv] + 5;
    while (cmd->argv[*nargv])
        (*nargv)++;
    snprintf(count, 24, "%zu", *nenv + extra);
}

int sbxu_remote_start_failure(const sbx_host *host, const char *plugin, int why,
                             const sbx_plugin_cmd *cmd)
{
    const char *prog = cmd->argv[0];
    switch (why) {
    case SBXU_REMOTE_START_NOCWD:
        return host->set_error(SBX_E_EXEC_START,
                               "%s: cannot run \"%s\": working directory %s does not exist", plugin,
                               prog, cmd->cwd);
    case SBXU_REMOTE_START_NOEXEC:
        return host->set_error(SBX_E_EXEC_NOT_FOUND, "%s: cannot run \"%s\": no such program",
                               plugin, prog);
    default:
        return host->set_error(SBX_E_EXEC_DENIED, "%s: cannot run \"%s\": not executable", plugin,
                               prog);
    }
}
