/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Modes, mtimes and symlinks (file-meta), each with one short exec in the
 * container: the archive endpoints can make a link or set a time only as a
 * new entry, not on what is there. Paths are resolved and checked against
 * symlink escapes first, the last component left unfollowed; then the
 * commands act on the entry itself (`touch -h`, `ln -sfT`, `chmod` only
 * once `[ -L ]` said it is no link). Racy against a command that swaps a
 * link in between, as every check from outside is: the container is the
 * boundary. `touch -d @SEC` takes whole seconds (busybox's too): an mtime's
 * nanoseconds are not kept.
 */
#include "docker.h"

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

/* Exit 4: the command failed, 5: a mode asked on a symlink, 6: a directory in the way. */
static const char symlink_script[] =
    "if [ -d \"$1\" ] && [ ! -L \"$1\" ]; then exit 6; fi;"
    " mkdir -p -- \"${1%/*}\" && ln -sfT -- \"$2\" \"$1\" || exit 4";

static const char meta_script[] =
    "if [ -n \"$2\" ]; then [ -L \"$1\" ] && exit 5; chmod \"$2\" -- \"$1\" || exit 4; fi;"
    " if [ -n \"$3\" ]; then touch -h -c -d \"@$3\" -- \"$1\" || exit 4; fi";

static int script_status(dk_sandbox *sb, int rc, int code, const char *what, const char *path)
{
    if (rc != SBX_OK || code == 0)
        return rc;
    if (code == 5)
        return sb->host->set_error(SBX_E_NOT_REGULAR,
                                   "docker: \"%s\" is a symlink: it has no mode of its own", path);
    if (code == 6)
        return sb->host->set_error(SBX_E_IS_DIRECTORY, "docker: \"%s\" is a directory", path);
    return sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: %s \"%s\" failed (status %d)", what,
                               path, code);
}

int dk_file_symlink(void *sandbox, const char *path, const char *target)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    char *abs;
    int code = -1, rc = meta_path(sb, path, true, &r, &abs);
    if (rc)
        return rc;
    const char *const argv[] = {"/bin/sh", "-c", symlink_script, "sbx-ln", abs, target, NULL};
    rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    rc = script_status(sb, rc, code, "making the symlink", path);
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
    if (meta->what & SBX_PLUGIN_META_MODE)
        snprintf(mode, sizeof(mode), "%o", (unsigned)(meta->mode & 07777));
    if (meta->what & SBX_PLUGIN_META_MTIME)
        snprintf(mtime, sizeof(mtime), "%lld", (long long)meta->mtime);
    const char *const argv[] = {"/bin/sh", "-c", meta_script, "sbx-meta", abs, mode, mtime, NULL};
    rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    rc = script_status(sb, rc, code, "setting the metadata of", path);
    free(abs);
    dk_resolved_clear(&r);
    return rc;
}
