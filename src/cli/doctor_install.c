/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_install.c - the libsandboxio file in use, and the installs of it
 * on the machine. Two installs (Debian's package in /usr and a source
 * install in /usr/local) load each other's plugins and headers in ways that
 * are hard to see from an error alone: doctor names both.
 */
#include "config.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "doctor_install.h"

const char *sbx_cli_library_file(char *buf, size_t size)
{
    Dl_info info;
    char real[PATH_MAX];

    /* A symbol of the library itself, not of this program: the file the
     * dynamic linker chose, whatever LD_LIBRARY_PATH or rpath said. */
    if (!dladdr((const void *)sbx_version, &info) || !info.dli_fname || !info.dli_fname[0])
        return NULL;
    snprintf(buf, size, "%s", realpath(info.dli_fname, real) ? real : info.dli_fname);
    return buf;
}

/* The first file matching ROOT PREFIX PATTERN, into file; 0 when none. */
static int first_match(const char *root, const char *prefix, const char *pattern, char *file,
                       size_t size)
{
    char path[PATH_MAX];
    glob_t g;
    int found = 0;

    if ((size_t)snprintf(path, sizeof(path), "%s%s%s", root, prefix, pattern) >= sizeof(path))
        return 0;
    if (glob(path, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        snprintf(file, size, "%s", g.gl_pathv[0]);
        found = 1;
    }
    globfree(&g);
    return found;
}

size_t sbx_cli_installs_find(const char *root, struct sbx_cli_install *found, size_t max)
{
    static const char *const prefixes[] = { "/usr", "/usr/local" };
    static const char *const libdirs[] = { "/lib/libsandboxio.so.0", "/lib64/libsandboxio.so.0",
                                           "/lib/*/libsandboxio.so.0" };
    size_t n = 0;

    for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]) && n < max; p++) {
        for (size_t d = 0; d < sizeof(libdirs) / sizeof(libdirs[0]); d++) {
            if (first_match(root, prefixes[p], libdirs[d], found[n].file, sizeof(found[n].file))) {
                found[n++].prefix = prefixes[p];
                break;
            }
        }
    }
    return n;
}
