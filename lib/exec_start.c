/* SPDX-License-Identifier: Apache-2.0 */
/* exec_start.c - an exec errno as an SBX code (sbxu/exec_start.h). */
#include "config.h"

#include <errno.h>
#include <sandboxio/errors.h>

#include <sbxu/exec_start.h>

int sbxu_exec_start_code(int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return SBX_E_EXEC_NOT_FOUND;
    if (err == EACCES || err == EPERM || err == ENOEXEC || err == EISDIR)
        return SBX_E_EXEC_DENIED;
    return SBX_E_EXEC_START;
}
