/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_tar.c - `sandboxio cp` with "-": a tar stream on stdin unpacked into a
 * sandbox, or a sandbox's file or tree packed onto stdout, entry by entry
 * (libarchive), so nothing is held in memory whole. Permission bits (never
 * setuid, setgid, sticky) and mtimes are kept, symlinks stay symlinks; a
 * directory's mode and time are set once the whole stream is in, so its
 * entries neither meet a read-only directory nor move its time.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cp.h"
#include "common/error.h"

/* A directory of the stream whose mode and mtime wait for the end. */
typedef struct pending_dir {
    char *path;
    uint32_t mode;
    int64_t mtime;
    uint32_t mtime_nsec;
} pending_dir;

typedef struct pending {
    pending_dir *v;
    size_t n, cap;
} pending;

static int pending_add(pending *p, const char *path, struct archive_entry *e)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        pending_dir *v = realloc(p->v, cap * sizeof(*v));
        if (!v)
            return SBX_E_NOMEM;
        p->v = v;
        p->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return SBX_E_NOMEM;
    pending_dir *d = &p->v[p->n++];
    d->path = copy; /* the list's now: pending_apply() frees it */
    d->mode = archive_entry_perm(e) & 0777;
    d->mtime = (int64_t)archive_entry_mtime(e);
    d->mtime_nsec = (uint32_t)archive_entry_mtime_nsec(e);
    return SBX_OK;
}

/* Deepest first (the reverse of the stream's order); frees p. */
static int pending_apply(sbx_sandbox *sb, pending *p, int rc)
{
    for (size_t i = p->n; i-- > 0;) {
        pending_dir *d = &p->v[i];
        int r = SBX_OK;
        if (rc == SBX_OK && (r = sbx_file_chmod(sb, d->path, d->mode)) == SBX_OK)
            r = sbx_file_set_mtime(sb, d->path, d->mtime, d->mtime_nsec);
        if (r != SBX_OK)
            rc = (sbx_cli_error_lib(r, d->path), r);
        free(d->path);
    }
    free(p->v);
    return rc;
}

static long entry_data(void *userdata, void *buf, size_t len)
{
    la_ssize_t n = archive_read_data(userdata, buf, len);
    return n < 0 ? -1 : (long)n;
}

/* One entry of the stream: directories, regular files and symlinks made, others skipped. */
static int unpack_one(sbx_sandbox *sb, struct archive *a, struct archive_entry *e,
                      const char *dir, pending *dirs)
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
        if (rc == SBX_OK)
            rc = pending_add(dirs, path, e);
        break;
    case AE_IFREG:
        rc = sbx_file_write_from(sb, path, (uint64_t)archive_entry_size(e),
                                 archive_entry_perm(e) & 0777, entry_data, a);
        if (rc == SBX_OK)
            rc = sbx_file_set_mtime(sb, path, (int64_t)archive_entry_mtime(e),
                                    (uint32_t)archive_entry_mtime_nsec(e));
        break;
    case AE_IFLNK:
        /* Kept verbatim wherever it points: the backend refuses any later path through it. */
        rc = archive_entry_symlink(e) ? sbx_file_symlink(sb, path, archive_entry_symlink(e))
                                      : SBX_E_BAD_PATH;
        if (rc == SBX_OK)
            rc = sbx_file_set_mtime(sb, path, (int64_t)archive_entry_mtime(e),
                                    (uint32_t)archive_entry_mtime_nsec(e));
        break;
    default:
        fprintf(stderr, "sandboxio: cp: skipping %s: not a file, directory or symlink\n",
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
    pending dirs = {0};
    int rc = cp_need_meta(sb), r;

    if (!a)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    archive_read_support_format_tar(a);
    if (rc == SBX_OK && *dir && (rc = sbx_file_mkdir(sb, dir)) != SBX_OK)
        sbx_cli_error_lib(rc, dir);
    if (rc == SBX_OK && archive_read_open_fd(a, fd, 64 * 1024) != ARCHIVE_OK)
        rc = (sbx_cli_error(SBX_E_BAD_PATH, "cp: stdin is not a tar stream: %s",
                            archive_error_string(a)), SBX_E_BAD_PATH);
    while (rc == SBX_OK && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK)
        rc = unpack_one(sb, a, e, dir, &dirs);
    if (rc == SBX_OK && r != ARCHIVE_EOF) {
        sbx_cli_error(SBX_E_BAD_PATH, "cp: bad tar stream on stdin: %s", archive_error_string(a));
        rc = SBX_E_BAD_PATH;
    }
    archive_read_free(a);
    return pending_apply(sb, &dirs, rc);
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
    archive_entry_set_mtime(e, (time_t)d->mtime, (long)d->mtime_nsec);
    archive_entry_set_filetype(e, d->type == SBX_FILE_DIRECTORY ? AE_IFDIR
                                  : d->type == SBX_FILE_SYMLINK ? AE_IFLNK : AE_IFREG);
    archive_entry_set_size(e, d->type == SBX_FILE_REGULAR ? (la_int64_t)d->size : 0);
    if (d->type == SBX_FILE_SYMLINK)
        archive_entry_set_symlink(e, d->link_target ? d->link_target : "");
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
        if (c->type == SBX_FILE_OTHER) {
            fprintf(stderr, "sandboxio: cp: skipping %s/%s: not a file, directory or symlink\n",
                    path, c->name);
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

int cp_tar_out(sbx_sandbox *sb, const char *path, int fd)
{
    struct archive *a = archive_write_new();
    sbx_dirlist *keep = NULL;
    /* The work dir itself: no entry of a parent to take a mode or time from. */
    sbx_dirent d = {.type = SBX_FILE_DIRECTORY, .mode = 0755, .mtime = (int64_t)time(NULL)};
    int rc = cp_need_meta(sb);

    if (!a)
        return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
    if (rc == SBX_OK && *path && (rc = cp_remote_stat(sb, path, &d, &keep)) != SBX_OK)
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
