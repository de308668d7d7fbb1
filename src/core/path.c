/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lexical clean-up of sandbox paths, the same for every backend: relative to
 * the work dir, no "..", no absolute form. What a symlink resolves to is the
 * backend's to check, since only it sees the sandbox's file system.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int sbx__path_clean(const char *path, bool allow_empty, char **out)
{
    if (!path)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "path is NULL");
    if (path[0] == '/')
        return sbx__error_set(SBX_E_PATH_ESCAPE,
                              "absolute path '%s' refused: paths are relative to the "
                              "sandbox's work directory", path);
    size_t len = strlen(path);
    char *clean = malloc(len + 1);
    if (!clean)
        return sbx__error_set(SBX_E_NOMEM, "out of memory");
    size_t o = 0;
    const char *p = path;
    while (*p) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            free(clean);
            return sbx__error_set(SBX_E_PATH_ESCAPE, "path '%s' refused: '..' components "
                                  "are not allowed", path);
        }
        if (n > 0 && !(n == 1 && p[0] == '.')) {
            if (o)
                clean[o++] = '/';
            memcpy(clean + o, p, n);
            o += n;
        }
        p += n;
        if (*p == '/')
            p++;
    }
    clean[o] = '\0';
    if (o == 0 && !allow_empty) {
        free(clean);
        return sbx__error_set(SBX_E_BAD_PATH, "path '%s' names no file", path);
    }
    *out = clean;
    return SBX_OK;
}
