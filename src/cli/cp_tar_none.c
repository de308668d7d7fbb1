/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_tar_none.c - `sandboxio cp` with "-" in a build without libarchive
 * (configured without the docker backend): refused, as a usage error that
 * says why. Files and directories still copy (cmd_cp.c).
 */
#include "config.h"

#include "cp.h"
#include "common/error.h"

static int refused(void)
{
    sbx_cli_error(SBX_E_USAGE, "cp: tar streams (-) need libarchive, and this sandboxio was "
                               "built without it (configure with the docker backend); copy "
                               "files and directories by path instead");
    return SBX_E_USAGE;
}

int cp_tar_in(sbx_sandbox *sb, int fd, const char *dir)
{
    (void)sb, (void)fd, (void)dir;
    return refused();
}

int cp_tar_out(sbx_sandbox *sb, const char *path, int fd)
{
    (void)sb, (void)path, (void)fd;
    return refused();
}
