/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Modes, mtimes and symlinks (file-meta), each with one short exec in the
 * container (sbxu's metadata scripts): the archive endpoints can
 * make a link or set a time only as a new entry, not on what is there.
 * Paths are resolved and checked against symlink escapes first, the last
 * component left unfollowed.
 */
#include "docker.h"
#include <sbxu/metascript.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The absolute path of rel with its last component unfollowed; parents must exist unless mkdir. */
static int meta_path(dk_sandbox *sb, const char *rel, bool parents_may_miss, dk_resolved *r,
                     char **abs)
{
    int rc = dk_resolve(sb, rel, false, r);
    if (rc)
        return rc;
    *abs = NULL;
    if (r->rest[0] && r->st.type != 2)
        rc = sb->host->set_error(SBX_E_NOT_DIRECTORY, "docker: a parent of \"%s\" is not a "
                                 "directory", rel);
    else if (r->rest[0] && !parents_may_miss)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", rel);
    else if (!r->rest[0] && strcmp(r->real, sb->opt.workdir) == 0)
        rc = sb->host->set_error(SBX_E_BAD_PATH, "docker: the work dir's own metadata is fixed");
    else if (asprintf(abs, "%s%s%s", r->real, r->rest[0] ? "/" : "", r->rest) < 0)
        rc = sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    if (rc)
        dk_resolved_clear(r);
    return rc;
}

int dk_file_symlink(void *sandbox, const char *path, const char *target)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    char *abs;
    int code = -1, rc = meta_path(sb, path, true, &r, &abs);
    if (rc)
        return rc;
    const char *const argv[] = {"/bin/sh", "-c", SBXU_SYMLINK_SCRIPT, "sbx-ln", abs, target, NULL};
    rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    if (rc == SBX_OK)
        rc = sbxu_meta_status(sb->host, DK_NAME, code, "making the symlink", path);
    free(abs);
    dk_resolved_clear(&r);
    return rc;
}

int dk_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    char *abs, mode[16] = "", mtime[32] = "";
    int code = -1, rc = meta_path(sb, path, false, &r, &abs);
    if (rc)
        return rc;
    sbxu_meta_args(meta, mode, mtime);
    const char *const argv[] = {"/bin/sh", "-c", SBXU_META_SCRIPT, "sbx-meta", abs, mode, mtime,
                                NULL};
    rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    if (rc == SBX_OK)
        rc = sbxu_meta_status(sb->host, DK_NAME, code, "setting the metadata of", path);
    free(abs);
    dk_resolved_clear(&r);
    return rc;
}
