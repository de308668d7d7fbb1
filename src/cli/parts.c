/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parts.c - finding and starting the parts of the program (parts.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "parts.h"
#include "common/error.h"

#ifndef SBX_CLI_PARTDIR
#define SBX_CLI_PARTDIR "/usr/libexec/sandboxio"
#endif

/*
 * A program of the build tree runs as src/.libs/sandboxio behind libtool's
 * wrapper src/sandboxio; the parts are built beside it: executables as
 * wrappers in src/, modules in src/.libs/. Anywhere else, the installed ones.
 */
const char *sbx_cli_part_path(const char *name, int module, char *buf, size_t cap)
{
    static const char libs[] = "/.libs";
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *slash;

    if (n > 0) {
        self[n] = '\0';
        slash = strrchr(self, '/');
        if (slash && (size_t)(slash - self) >= sizeof libs - 1 &&
            memcmp(slash - (sizeof libs - 1), libs, sizeof libs - 1) == 0) {
            if (!module)
                slash -= sizeof libs - 1;   /* the wrapper, in the parent */
            *slash = '\0';
            if ((size_t)snprintf(buf, cap, "%s/%s%s", self, name, module ? ".so" : "") < cap &&
                access(buf, module ? R_OK : X_OK) == 0)
                return buf;
        }
    }
    snprintf(buf, cap, "%s/%s%s", SBX_CLI_PARTDIR, name, module ? ".so" : "");
    return buf;
}

int sbx_cli_exec_part(const char *name, int argc, char **argv)
{
    char path[4096];

    (void)argc;
    fflush(NULL);
    sbx_cli_part_path(name, 0, path, sizeof path);
    execv(path, argv);
    return sbx_cli_error(SBX_E_PLUGIN_NOT_LOADABLE,
                         "%s: the program's part %s cannot be started: %s (reinstall sandboxio)",
                         argv[0], path, strerror(errno));
}
