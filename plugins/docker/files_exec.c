/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Listing and removing files, with one short exec each: a GET of a
 * directory's archive would carry every byte under it, and the archive
 * endpoints cannot remove anything. The paths are resolved and checked
 * against symlink escapes first, as for the archive transfers.
 */
#include "docker.h"
#include <sbxu/metascript.h>

#include <sandboxio/files.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int enomem(dk_sandbox *sb)
{
    return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
}

/*
 * Prints the count, the names NUL-terminated, then "hexmode size mtime" per
 * name, then each symlink's target NUL-terminated, in the names' order
 * (read with a sentinel so a target's trailing newlines are kept); only a
 * count past $2 (the core's bound) when there are more, without reading
 * further (SBXU_LIST_NAMES_SH gathers the names). xargs splits them for
 * stat: 2 MiB of names may pass ARG_MAX.
 */
static const char list_script[] =
    SBXU_LIST_NAMES_SH
    " printf '%s\\0' \"$@\"; printf '%s\\0' \"$@\" | xargs -0 stat -c '%f %s %Y' -- || exit 4;"
    SBXU_LIST_TARGETS_SH;

/*
 * The most a listing within the core's bounds prints: names and link targets
 * (both counted as name bytes by the core), NULs, stat lines, the count.
 */
#define LIST_OUTPUT_MAX (2 * SBX_FILE_LIST_MAX_NAME_BYTES + SBX_FILE_LIST_MAX_ENTRIES * 64 + 64)

int dk_file_list(void *sandbox, const char *path,
                 int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    int rc = dk_resolve(sb, path ? path : "", true, &r);
    if (rc)
        return rc;
    if (r.rest[0] || r.st.type == 3)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (r.st.type != 2)
        rc = sb->host->set_error(SBX_E_NOT_DIRECTORY, "docker: \"%s\" is not a directory", path);
    sbxu_buf out = {0};
    int code = -1;
    if (rc == SBX_OK) {
        char max[24];
        snprintf(max, sizeof max, "%zu", SBX_FILE_LIST_MAX_ENTRIES);
        const char *const argv[] = {"/bin/sh", "-c", list_script, "sbx-ls", r.real, max, NULL};
        rc = dk_exec_simple(sb, argv, &out, LIST_OUTPUT_MAX, &code);
    }
    if (rc == SBX_OK && code != 0)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: listing \"%s\" failed (status %d)",
                                 path, code);
    /* Past the core's bounds: refused before anything is allocated for it. */
    if (rc == SBX_OK && out.len >= LIST_OUTPUT_MAX)
        rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "docker: \"%s\" has too many entries",
                                 path);
    dk_listing l = {0};
    int parsed = rc == SBX_OK ? dk_listing_parse(out.data ? out.data : "", out.len,
                                                 SBX_FILE_LIST_MAX_ENTRIES, &l)
                              : DK_LISTING_OK;
    if (parsed == DK_LISTING_TOO_LARGE)
        rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "docker: \"%s\" has too many entries",
                                 path);
    else if (parsed == DK_LISTING_NOMEM)
        rc = enomem(sb);
    else if (parsed != DK_LISTING_OK)
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: bad listing of \"%s\": %s",
                                 path, l.why);
    for (size_t i = 0; rc == SBX_OK && i < l.count; i++) {
        if (entry(userdata, &l.ents[i]) != 0)
            rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "docker: the lister of \"%s\" stopped",
                                     path);
    }
    dk_listing_clear(&l);
    sbxu_buf_clear(&out);
    dk_resolved_clear(&r);
    return rc;
}

/* Exit 3: missing, 4: could not remove, 5: directory not empty. */
static const char remove_script[] =
    "p=$1; if [ ! -e \"$p\" ] && [ ! -L \"$p\" ]; then exit 3; fi;"
    " if [ -d \"$p\" ] && [ ! -L \"$p\" ]; then"
    "  if [ \"$2\" = 1 ]; then rm -rf -- \"$p\" || exit 4; else rmdir -- \"$p\" 2>/dev/null || exit 5; fi;"
    " else rm -f -- \"$p\" || exit 4; fi";

int dk_file_remove(void *sandbox, const char *path, int recursive)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    /* The last component is removed itself, never what a symlink points to. */
    int rc = dk_resolve(sb, path, false, &r);
    if (rc)
        return rc;
    int code = -1;
    if (r.rest[0])
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (strcmp(r.real, sb->opt.workdir) == 0)
        rc = sb->host->set_error(SBX_E_BAD_PATH, "docker: the work dir itself cannot be removed");
    else {
        const char *const argv[] = {"/bin/sh", "-c", remove_script, "sbx-rm", r.real,
                                    recursive ? "1" : "0", NULL};
        rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    }
    if (rc == SBX_OK && code == 3)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (rc == SBX_OK && code == 5)
        rc = sb->host->set_error(SBX_E_NOT_EMPTY,
                                 "docker: cannot remove \"%s\": directory not empty (remove it "
                                 "recursively)",
                                 path);
    else if (rc == SBX_OK && code != 0)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: removing \"%s\" failed (status %d)",
                                 path, code);
    dk_resolved_clear(&r);
    return rc;
}
