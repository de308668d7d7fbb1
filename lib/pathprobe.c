/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The in-sandbox path probe (see sbxu/pathprobe.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/pathprobe.h>

/* $1 = the path, $2 = "leaf" to leave its last component unresolved. */
const char SBXU_PROBE_SCRIPT[] =
    "if [ \"$2\" = leaf ]; then d=$(realpath -m -- \"${1%/*}\") || exit 2; p=$d/${1##*/}\n"
    "else p=$(realpath -m -- \"$1\") || exit 2; fi\n"
    "if [ -L \"$p\" ]; then t=link\n"
    "elif [ -d \"$p\" ]; then t=dir\n"
    "elif [ -f \"$p\" ]; then t=file\n"
    "elif [ -e \"$p\" ]; then t=other\n"
    "else t=none; a=${p%/*}\n"
    "  while [ -n \"$a\" ] && [ ! -e \"$a\" ]; do a=${a%/*}; done\n"
    "  [ -z \"$a\" ] || [ -d \"$a\" ] || t=notdir\n"
    "fi\n"
    "printf '%s\\n%s' \"$t\" \"$p\"\n";

int sbxu_probe_parse(sbxu_probe *pr, const sbx_host *host, const char *plugin, const char *home,
                    const char *rel, char *text)
{
    static const char *const names[] = {"none", "file", "dir", "link", "other", "notdir"};
    pr->type = -1;
    pr->path[0] = '\0';
    char *nl = text ? strchr(text, '\n') : NULL;
    if (!nl || strlen(nl + 1) >= sizeof(pr->path))
        return host->set_error(SBX_E_BACKEND_PROTOCOL,
                               "%s: the sandbox's answer for %s is garbled", plugin, rel);
    *nl = '\0';
    for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
        if (strcmp(text, names[i]) == 0)
            pr->type = i;
    snprintf(pr->path, sizeof(pr->path), "%s", nl + 1);
    size_t h = strlen(home);
    if (pr->type < 0)
        return host->set_error(SBX_E_BACKEND_PROTOCOL,
                               "%s: the sandbox's answer for %s is garbled", plugin, rel);
    if (strncmp(pr->path, home, h) != 0 || (pr->path[h] && pr->path[h] != '/'))
        return host->set_error(SBX_E_PATH_ESCAPE, "%s: %s leads out of the work dir (to %s)",
                               plugin, rel, pr->path);
    return SBX_OK;
}

int sbxu_probe_wrong_type(const sbx_host *host, const char *plugin, const char *rel, int type,
                         bool want_dir)
{
    switch (type) {
    case SBXU_PROBE_NONE:
        return host->set_error(SBX_E_NOT_FOUND, "%s: %s does not exist", plugin, rel);
    case SBXU_PROBE_NOTDIR:
        return host->set_error(SBX_E_NOT_DIRECTORY, "%s: a part of %s is not a directory",
                               plugin, rel);
    case SBXU_PROBE_DIR:
        return host->set_error(SBX_E_IS_DIRECTORY, "%s: %s is a directory", plugin, rel);
    default:
        if (want_dir)
            return host->set_error(SBX_E_NOT_DIRECTORY, "%s: %s is not a directory", plugin, rel);
        return host->set_error(SBX_E_NOT_REGULAR, "%s: %s is not a regular file", plugin, rel);
    }
}
