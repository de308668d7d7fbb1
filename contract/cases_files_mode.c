/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_files_mode.c - SBX-FILE-010: the mode given to sbx_file_write is the
 * file's mode, on creation and on replacement, whatever the backend's umask:
 * a script written 0755 can be run, a key written 0600 is not left readable
 * to others.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

static const struct {
    const char *name;
    uint32_t mode;
} written[] = {
    {"run.sh", 0755},
    {"key", 0600},
    {"plain", 0644},
    {"shared", 0664},
};

#define SCRIPT "#!/bin/sh\necho ran-$((6*7))\n"

static uint32_t listed_mode(sbxc_ctx *ctx, sbx_sandbox *sb, const char *name)
{
    sbx_dirlist *list = NULL;
    SBXC_OK(ctx, "sbx_file_list(\"mode\")", sbx_file_list(sb, "mode", &list));
    uint32_t mode = 0;
    bool found = false;
    for (size_t i = 0; i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        if (strcmp(e->name, name) == 0) {
            mode = e->mode & 07777;
            found = true;
        }
    }
    sbx_dirlist_free(list);
    SBXC_CHECK(ctx, found, "mode/%s is not listed", name);
    return mode;
}

void sbxc_case_file_mode(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char path[64];
    for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
        snprintf(path, sizeof(path), "mode/%s", written[i].name);
        SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, path, SCRIPT, strlen(SCRIPT),
                                                      written[i].mode));
    }
    for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
        uint32_t mode = listed_mode(ctx, sb, written[i].name);
        SBXC_CHECK(ctx, mode == written[i].mode, "mode/%s was written %04o and is listed %04o",
                   written[i].name, written[i].mode, mode);
    }
    /* Replacing a file gives it the new mode too. */
    SBXC_OK(ctx, "sbx_file_write (replace)", sbx_file_write(sb, "mode/plain", SCRIPT,
                                                            strlen(SCRIPT), 0700));
    uint32_t mode = listed_mode(ctx, sb, "plain");
    SBXC_CHECK(ctx, mode == 0700, "mode/plain was replaced with mode 0700 and is listed %04o",
               mode);
    if (sbxc_has(ctx, SBX_CAP_EXEC)) {
        char *out = sbxc_sh_ok(ctx, sb, "./mode/run.sh");
        SBXC_CHECK(ctx, strcmp(out, "ran-42\n") == 0,
                   "a script written 0755 printed '%s' when run, not 'ran-42'", out);
        free(out);
    }
    sbxc_close(ctx, sb);
}
