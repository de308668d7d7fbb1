/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A command line for the daemon's shell that runs argv as given: each word
 * single-quoted, a quote inside as '\''. No byte is special inside single
 * quotes, so no word is expanded, split or globbed.
 */
#include "daytona.h"

#include <sandboxio/errors.h>

char *daytona_quote_argv(const char *const *argv)
{
    sbxu_buf b = {0};
    int rc = SBX_OK;
    for (size_t i = 0; argv[i] && rc == SBX_OK; i++) {
        rc = sbxu_buf_append(&b, i ? " '" : "'", i ? 2 : 1);
        for (const char *p = argv[i]; *p && rc == SBX_OK; p++)
            rc = *p == '\'' ? sbxu_buf_append(&b, "'\\''", 4) : sbxu_buf_append(&b, p, 1);
        if (rc == SBX_OK)
            rc = sbxu_buf_append(&b, "'", 1);
    }
    if (rc != SBX_OK || !b.data) {
        sbxu_buf_clear(&b);
        return NULL;
    }
    return b.data;
}
