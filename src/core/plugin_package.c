/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The package that provides a plugin, for the message of a missing one.
 * A distribution that ships each backend as its own package sets the
 * pattern at build time (configure --with-plugin-package=PATTERN, e.g.
 * sandboxio-plugin-%s); the loader then names the package to install.
 * The pattern is never used as a printf format: its one "%s" is replaced
 * here, so a pattern cannot make the loader read arguments it lacks.
 */
#include "internal.h"

#include <string.h>

int sbx__plugin_package(char *buf, size_t size, const char *pattern, const char *scheme)
{
    const char *hole = pattern ? strstr(pattern, "%s") : NULL;
    if (!hole || !scheme || size == 0)
        return 0;
    size_t head = (size_t)(hole - pattern), name = strlen(scheme), tail = strlen(hole + 2);
    /* configure accepts one "%s" and no other '%'; refuse anything else. */
    if (memchr(pattern, '%', head) || strchr(hole + 2, '%'))
        return 0;
    if (head + name + tail >= size)
        return 0;
    memcpy(buf, pattern, head);
    memcpy(buf + head, scheme, name);
    memcpy(buf + head + name, hole + 2, tail + 1);
    return 1;
}
