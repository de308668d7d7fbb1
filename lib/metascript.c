/* SPDX-License-Identifier: Apache-2.0 */
/*
 * metascript.c - the commands that set modes, mtimes and symlinks inside a
 * sandbox (see sbxu/metascript.h).
 */
#include "config.h"

#include <stdio.h>
#include <sandboxio/errors.h>

#include <sbxu/metascript.h>

/* Exit 4: the command failed, 6: a directory in the way. */
const char SBXU_SYMLINK_SCRIPT[] =
    "if [ -d \"$1\" ] && [ ! -L \"$1\" ]; then exit 6; fi;"
    " mkdir -p -- \"${1%/*}\" && ln -sfT -- \"$2\" \"$1\" || exit 4";

/* Exit 3: missing, 4: the command failed, 5: a mode asked on a symlink. */
const char SBXU_META_SCRIPT[] =
    "if [ ! -e \"$1\" ] && [ ! -L \"$1\" ]; then exit 3; fi;"
    " if [ -n \"$2\" ]; then [ -L \"$1\" ] && exit 5; chmod \"$2\" -- \"$1\" || exit 4; fi;"
    " if [ -n \"$3\" ]; then touch -h -c -d \"@$3\" -- \"$1\" || exit 4; fi";

void sbxu_meta_args(const sbx_plugin_file_meta *meta, char mode[16], char mtime[32])
{
    mode[0] = mtime[0] = '\0';
    if (meta->what & SBX_PLUGIN_META_MODE)
        snprintf(mode, 16, "%o", (unsigned)(meta->mode & 07777));
    if (meta->what & SBX_PLUGIN_META_MTIME)
        snprintf(mtime, 32, "%lld", (long long)meta->mtime);
}

int sbxu_meta_status(const sbx_host *host, const char *plugin, int status, const char *what,
                    const char *rel)
{
    switch (status) {
    case 0:
        return SBX_OK;
    case 3:
        return host->set_error(SBX_E_NOT_FOUND, "%s: \"%s\" does not exist", plugin, rel);
    case 5:
        return host->set_error(SBX_E_NOT_REGULAR,
                               "%s: \"%s\" is a symlink: it has no mode of its own", plugin, rel);
    case 6:
        return host->set_error(SBX_E_IS_DIRECTORY, "%s: \"%s\" is a directory", plugin, rel);
    default:
        return host->set_error(SBX_E_BACKEND_FAILED, "%s: %s \"%s\" failed (status %d)", plugin,
                               what, rel, status);
    }
}
