/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory handed across the API. One allocator for everything the library
 * gives out, so callers and plugins release it with sbx_free()/host->free.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const char *sbx_version(void)
{
    return SBX_VERSION_STRING;
}

void sbx_free(void *ptr)
{
    free(ptr);
}

void *sbx__calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        sbx__error_set(SBX_E_NOMEM, "out of memory allocating %zu bytes", n * size);
    return p;
}

char *sbx__strdup(const char *s)
{
    char *p = strdup(s ? s : "");
    if (!p)
        sbx__error_set(SBX_E_NOMEM, "out of memory copying a string");
    return p;
}
