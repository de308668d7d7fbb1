/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_tar.c - `sandboxio cp` with "-": a tar stream on stdin unpacked into a
 * sandbox, or a sandbox's file or tree packed onto stdout, entry by entry
 * (libarchive), so nothing is held in memory whole.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp.h"
#include "util.h"

static long entry_data(void *userdata, void *buf, size_t len)
{
    la_ssize_t n = archive_read_data(userdata, buf, len);
    return n < 0 ? -1 : (long)n;
}

/* One entry of the stream: directories made, regular files written, others skipped. */
static int unpack_one(sbx_sandbox *sb, struct archive *a, struct archive_entry *e,
                      const char *dir)
{
    const char *name = archive_entry_pathname(e);
    int rc = SBX_OK;

    while (name && name[0] == '.' && name[1] == '/')
        name += 2;
    if (!name || !*name || strcmp(name, ".") == 0)
        return SBX_OK;
    char *path = cp_join(dir, name);
    if (!path)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    /* The library refuses an absolute name or a ".." (SBX_E_PATH_ESCAPE). */
    switch (archive_entry_filetype(e)) {
    case AE_IFDIR:
        rc = sbx_file_mkdir(sb, path);
        break;
    case AE_IFREG:
        rc = sbx_file_write_from(sb, path, (uint64_t)archive_entry_size(e),
                                 archive_entry_perm(e) & 0777, entry_data, a);
        break;
    default:
        fprintf(stderr, "sandboxio: cp: skipping %s: only files and directories are copied\n",
                name);
    }
    if (rc != SBX_OK)
        sbx_cli_error_lib(rc, path);
    free(path);
    return rc;
}

int cp_tar_in(sbx_sandbox *sb, int fd, const char *dir)
{
    struct archive *a = archive_read_new();
    struct archive_entry *e;
    int rc = SBX_OK, r;

    if (!a)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    archive_read_support_format_tar(a);
    if (*dir && (rc = sbx_file_mkdir(sb, dir)) != SBX_OK)
        sbx_cli_error_lib(rc, dir);
    if (rc == SBX_OK && archive_read_open_fd(a, fd, 64 * 1024) != ARCHIVE_OK)
        rc = (sbx_cli_error(SBX_E_BAD_PATH, "cp: stdin is not a tar stream: %s",
                            archive_error_string(a)), SBX_E_BAD_PATH);
    while (rc == SBX_OK && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK)
        rc = unpack_one(sb, a, e, dir);
    if (rc == SBX_OK && r != ARCHIVE_EOF) {
        sbx_cli_error(SBX_E_BAD_PATH, "cp: bad tar stream on stdin: %s", archive_error_string(a));
        rc = SBX_E_BAD_PATH;
    }
    archive_read_free(a);
    return rc;
}

static int entry_sink(void *userdata, const void *data, size_t len)
{
    return archive_write_data(userdata, data, len) == (la_ssize_t)len ? 0 : 1;
}

/* Add path (named name in the stream) of type/size/mode; a directory with all it holds. */
static int pack(sbx_sandbox *sb, struct archive *a, const char *path, const char *name,
                const sbx_dirent *d)
{
    struct archive_entry *e = archive_entry_new();
    int rc = SBX_OK;

    if (!e)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    archive_entry_set_pathname(e, name);
    archive_entry_set_perm(e, d->mode & 0777);
    archive_entry_set_filetype(e, d->type == SBX_FILE_DIRECTORY ? AE_IFDIR : AE_IFREG);
    archive_entry_set_size(e, d->type == SBX_FILE_DIRECTORY ? 0 : (la_int64_t)d->size);
    /* The stream carries every byte, zeros too: the bound is checked before the entry. */
    if (d->type == SBX_FILE_REGULAR && (rc = cp_bound_take(d->size)) != SBX_OK)
        sbx_cli_error_lib(rc, path);
    else if (archive_write_header(a, e) != ARCHIVE_OK)
        rc = (sbx_cli_error(SBX_E_SYSTEM, "cp: writing the tar stream: %s",
                            archive_error_string(a)), SBX_E_SYSTEM);
    archive_entry_free(e);
    if (rc == SBX_OK && d->type == SBX_FILE_REGULAR) {
        rc = sbx_file_read_to(sb, path, entry_sink, a);
        if (rc)
            sbx_cli_error_lib(rc, path);
    }
    if (rc != SBX_OK || d->type != SBX_FILE_DIRECTORY)
        return rc;
    sbx_dirlist *list = NULL;
    if ((rc = sbx_file_list(sb, path, &list)) != SBX_OK)
        return (sbx_cli_error_lib(rc, path), rc);
    for (size_t i = 0; rc == SBX_OK && i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *c = sbx_dirlist_get(list, i);
        if (c->type != SBX_FILE_REGULAR && c->type != SBX_FILE_DIRECTORY) {
            fprintf(stderr, "sandboxio: cp: skipping %s/%s: not a file or directory\n", path,
                    c->name);
            continue;
        }
        char *cpath = cp_join(path, c->name), *cname = cp_join(name, c->name);
        rc = cpath && cname ? pack(sb, a, cpath, cname, c)
                            : (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
        free(cpath);
        free(cname);
    }
    sbx_dirlist_free(list);
    return rc;
}

/* The entry of path as its parent lists it. */
static int stat_remote(sbx_sandbox *sb, const char *path, sbx_dirent *out, sbx_dirlist **keep)
{
    const char *base = cp_base(path);
    char *parent = strndup(path, (size_t)(base - path));
    int rc;

    if (!parent)
        return SBX_E_NOMEM;
    if (*parent && parent[strlen(parent) - 1] == '/')
        parent[strlen(parent) - 1] = '\0';
    rc = sbx_file_list(sb, parent, keep);
    free(parent);
    if (rc)
        return rc;
    for (size_t i = 0; i < sbx_dirlist_count(*keep); i++)
        if (strcmp(sbx_dirlist_get(*keep, i)->name, base) == 0) {
            *out = *sbx_dirlist_get(*keep, i);
            return SBX_OK;
        }
    return SBX_E_NOT_FOUND;
}

int cp_tar_out(sbx_sandbox *sb, const char *path, int fd)
{
    struct archive *a = archive_write_new();
    sbx_dirlist *keep = NULL;
    sbx_dirent d = {.type = SBX_FILE_DIRECTORY, .mode = 0755};
    int rc = SBX_OK;

    if (!a)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    if (*path && (rc = stat_remote(sb, path, &d, &keep)) != SBX_OK)
        sbx_cli_error_lib(rc, path);
    if (rc == SBX_OK && (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
                         archive_write_open_fd(a, fd) != ARCHIVE_OK))
        rc = (sbx_cli_error(SBX_E_SYSTEM, "cp: %s", archive_error_string(a)), SBX_E_SYSTEM);
    if (rc == SBX_OK)
        rc = pack(sb, a, path, *path ? cp_base(path) : ".", &d);
    if (archive_write_close(a) != ARCHIVE_OK && rc == SBX_OK)
        rc = (sbx_cli_error(SBX_E_SYSTEM, "cp: writing the tar stream: %s",
                            archive_error_string(a)), SBX_E_SYSTEM);
    archive_write_free(a);
    sbx_dirlist_free(keep);
    return rc;
}
