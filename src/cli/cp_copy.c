/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_copy.c - `sandboxio cp` between a host path and a sandbox, keeping
 * what `docker cp` keeps: each file's permission bits and mtime, and
 * symlinks as symlinks, and widening nothing.
 *
 * The host side is walked and written through directory descriptors: below
 * the path the user named, every component is opened O_NOFOLLOW, a symlink
 * met in the source is copied as a link (never followed), and one met at the
 * destination is replaced or refused (never written through). A file lands
 * under a temporary name created 0600 and gets its mode and mtime before it
 * is renamed into place, so it is never readable wider than its source, even
 * for a moment, whatever the umask. The setuid, setgid and sticky bits are
 * never copied. A directory's mode and mtime are set after its contents, so
 * a read-only directory can be filled and its time is not moved by them; a
 * directory that already existed on the host keeps its own.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "cp.h"
#include "run.h"
#include "common/error.h"
#include <sbxu/file.h>
#include <sbxu/fsmeta.h>

/* The only bits a copy carries: never setuid, setgid or sticky. */
#define CP_PERM 0777u

static int sys_error(const char *what, const char *path, int err)
{
    return (sbx_cli_error(SBX_E_SYSTEM, "cp: %s %s: %s", what, path, strerror(err)),
            SBX_E_SYSTEM);
}

static int nomem(void)
{
    return (sbx_cli_error(SBX_E_NOMEM, "cp: out of memory"), SBX_E_NOMEM);
}

int cp_need_meta(sbx_sandbox *sb)
{
    if (sbx_sandbox_caps(sb) & SBX_CAP_FILE_META)
        return SBX_OK;
    sbx_cli_error(SBX_E_CAP_FILE_META,
                  "cp: this backend cannot keep file modes, mtimes and symlinks (no 'file-meta' "
                  "capability): nothing copied");
    return SBX_E_CAP_FILE_META;
}

int cp_remote_stat(sbx_sandbox *sb, const char *path, sbx_dirent *out, sbx_dirlist **keep)
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

static long fd_read(void *userdata, void *buf, size_t len)
{
    ssize_t n;

    do
        n = read(*(int *)userdata, buf, len);
    while (n < 0 && errno == EINTR);
    return (long)n;
}

/* --- host to sandbox ------------------------------------------------------ */

static int lib_failed(int rc, const char *path)
{
    return rc ? (sbx_cli_error_lib(rc, path), rc) : SBX_OK;
}

static int set_remote_time(sbx_sandbox *sb, const char *dst, const struct stat *st)
{
    return lib_failed(sbx_file_set_mtime(sb, dst, (int64_t)st->st_mtim.tv_sec,
                                         (uint32_t)st->st_mtim.tv_nsec), dst);
}

static int in_entry(sbx_sandbox *sb, int dirfd, const char *name, const char *shown,
                    const char *dst);

/* The directory fd (shown as src) into the sandbox directory dst. */
static int in_dir(sbx_sandbox *sb, int fd, const char *src, const char *dst)
{
    int rc = SBX_OK;
    DIR *d = fdopendir(fd);

    if (!d) {
        close(fd);
        return sys_error("cannot read", src, errno);
    }
    for (struct dirent *e; rc == SBX_OK && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *s = cp_join(src, e->d_name), *t = cp_join(dst, e->d_name);
        rc = s && t ? in_entry(sb, dirfd(d), e->d_name, s, t) : nomem();
        free(s);
        free(t);
    }
    closedir(d);
    return rc;
}

/* dirfd/name (shown as shown) to the sandbox path dst, never following name. */
static int in_entry(sbx_sandbox *sb, int dirfd, const char *name, const char *shown,
                    const char *dst)
{
    struct stat st;
    int rc, fd;

    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return (sbx_cli_error(SBX_E_NOT_FOUND, "cp: %s: %s", shown, strerror(errno)),
                SBX_E_NOT_FOUND);
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);
        if (n < 0)
            return sys_error("cannot read the link", shown, errno);
        target[n] = '\0';
        rc = lib_failed(sbx_file_symlink(sb, dst, target), dst);
        return rc ? rc : set_remote_time(sb, dst, &st);
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "sandboxio: cp: skipping %s: not a file, directory or symlink\n",
                shown);
        return SBX_OK;
    }
    /* O_NOFOLLOW: what is opened is what was looked at, or the copy stops. */
    fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC |
                                 (S_ISDIR(st.st_mode) ? O_DIRECTORY : O_NONBLOCK));
    if (fd < 0 || fstat(fd, &st) != 0) {
        rc = sys_error("cannot open", shown, errno);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if (S_ISREG(st.st_mode)) {
        rc = lib_failed(sbx_file_write_from(sb, dst, (uint64_t)st.st_size, st.st_mode & CP_PERM,
                                            fd_read, &fd), dst);
        close(fd);
        return rc ? rc : set_remote_time(sb, dst, &st);
    }
    if (!S_ISDIR(st.st_mode)) {
        close(fd);
        return (sbx_cli_error(SBX_E_NOT_REGULAR, "cp: %s changed type while copied", shown),
                SBX_E_NOT_REGULAR);
    }
    if (*dst && (rc = sbx_file_mkdir(sb, dst)) != SBX_OK) {
        close(fd);
        return lib_failed(rc, dst);
    }
    rc = in_dir(sb, fd, shown, dst);
    if (rc == SBX_OK && *dst)
        rc = lib_failed(sbx_file_chmod(sb, dst, st.st_mode & CP_PERM), dst);
    if (rc == SBX_OK && *dst)
        rc = set_remote_time(sb, dst, &st);
    return rc;
}

int cp_copy_in(sbx_sandbox *sb, const char *src, const char *dst)
{
    int rc = cp_need_meta(sb);
    return rc ? rc : in_entry(sb, AT_FDCWD, src, src, dst);
}

/* --- sandbox to host ------------------------------------------------------ */

static int out_entry(sbx_sandbox *sb, const char *src, const sbx_dirent *d, int dirfd,
                     const char *name, const char *shown);

static int out_file(sbx_sandbox *sb, const char *src, const sbx_dirent *d, int dirfd,
                    const char *name, const char *shown)
{
    char tmp[32];
    int rc = SBX_OK, fd;

    if ((rc = sbxu_temp_name(tmp, sizeof(tmp), ".sbx-cp-")) != 0)
        return sys_error("cannot write", shown, rc);
    /* 0600 and O_EXCL: nobody else can open it until it has its final mode. */
    fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return sys_error("cannot write", shown, errno);
    /* Zero blocks become holes; the bytes count against --max-size. */
    rc = cp_out_file(sb, src, fd);
    if (rc)
        sbx_cli_error_lib(rc, src);
    struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT},
                             {.tv_sec = (time_t)d->mtime, .tv_nsec = (long)d->mtime_nsec}};
    if (rc == SBX_OK && (fchmod(fd, d->mode & CP_PERM) != 0 || futimens(fd, ts) != 0))
        rc = sys_error("cannot set the mode or time of", shown, errno);
    if (close(fd) != 0 && rc == SBX_OK)
        rc = sys_error("cannot write", shown, errno);
    /* rename() replaces a file or a symlink itself, never what a link points to. */
    if (rc == SBX_OK && renameat(dirfd, tmp, dirfd, name) != 0)
        rc = sys_error("cannot write", shown, errno);
    if (rc != SBX_OK)
        unlinkat(dirfd, tmp, 0);
    return rc;
}

static int out_link(const sbx_dirent *d, int dirfd, const char *name, const char *shown)
{
    sbx_plugin_file_meta m = {.struct_size = sizeof(m), .what = SBX_PLUGIN_META_MTIME,
                              .mtime = d->mtime, .mtime_nsec = d->mtime_nsec};
    int err;

    if (!d->link_target)
        return (sbx_cli_error(SBX_E_BACKEND_PROTOCOL, "cp: the backend gave no target for the "
                              "symlink %s", shown), SBX_E_BACKEND_PROTOCOL);
    if ((err = sbxu_fsmeta_symlink(dirfd, name, d->link_target)) != 0 ||
        (err = sbxu_fsmeta_set(dirfd, name, &m)) != 0)
        return sys_error("cannot make the symlink", shown, err);
    return SBX_OK;
}

/* The sandbox directory src into dirfd/name; meta: give it d's mode and time. */
static int out_dir(sbx_sandbox *sb, const char *src, const sbx_dirent *d, int dirfd,
                   const char *name, const char *shown, int meta)
{
    sbx_dirlist *list = NULL;
    int created = mkdirat(dirfd, name, meta ? 0700 : 0777) == 0, rc;
    struct stat st;

    if (!created && errno != EEXIST)
        return sys_error("cannot create", shown, errno);
    /* An existing entry is entered only if it is a directory itself, not a link to one. */
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
        return (sbx_cli_error(SBX_E_NOT_DIRECTORY, "cp: %s exists and is not a directory (a "
                              "symlink there is never followed)", shown), SBX_E_NOT_DIRECTORY);
    if (fd < 0 || fstat(fd, &st) != 0) {
        rc = sys_error("cannot open", shown, errno);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if ((rc = sbx_file_list(sb, src, &list)) != SBX_OK)
        sbx_cli_error_lib(rc, src);
    for (size_t i = 0; rc == SBX_OK && i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        /* A name from the backend is one component, or it could climb out of dst. */
        if (!*e->name || strchr(e->name, '/') || !strcmp(e->name, ".") || !strcmp(e->name, "..")) {
            rc = (sbx_cli_error(SBX_E_BACKEND_PROTOCOL, "cp: the backend listed '%s' in %s: not "
                                "a file name", e->name, src), SBX_E_BACKEND_PROTOCOL);
            break;
        }
        char *s = cp_join(src, e->name), *t = cp_join(shown, e->name);
        rc = s && t ? out_entry(sb, s, e, fd, e->name, t) : nomem();
        free(s);
        free(t);
    }
    sbx_dirlist_free(list);
    struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT},
                             {.tv_sec = (time_t)d->mtime, .tv_nsec = (long)d->mtime_nsec}};
    if (rc == SBX_OK && created && meta &&
        (fchmod(fd, d->mode & CP_PERM) != 0 || futimens(fd, ts) != 0))
        rc = sys_error("cannot set the mode or time of", shown, errno);
    close(fd);
    return rc;
}

static int out_entry(sbx_sandbox *sb, const char *src, const sbx_dirent *d, int dirfd,
                     const char *name, const char *shown)
{
    switch (d->type) {
    case SBX_FILE_REGULAR:
        return out_file(sb, src, d, dirfd, name, shown);
    case SBX_FILE_DIRECTORY:
        return out_dir(sb, src, d, dirfd, name, shown, 1);
    case SBX_FILE_SYMLINK:
        return out_link(d, dirfd, name, shown);
    default:
        fprintf(stderr, "sandboxio: cp: skipping %s: not a file, directory or symlink\n", src);
        return SBX_OK;
    }
}

int cp_copy_out(sbx_sandbox *sb, const char *src, const char *dst)
{
    sbx_dirlist *keep = NULL;
    sbx_dirent d = {.type = SBX_FILE_DIRECTORY};
    int rc = cp_need_meta(sb);

    if (rc == SBX_OK && *src && (rc = cp_remote_stat(sb, src, &d, &keep)) != SBX_OK)
        sbx_cli_error_lib(rc, src);
    /* The host path the user named is theirs to resolve; below it nothing is followed. */
    char *path = strdup(dst), *parent = NULL;
    size_t n = path ? strlen(path) : 0;
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    const char *base = path ? cp_base(path) : "";
    int dirfd = -1;
    if (rc == SBX_OK && (!path || !(parent = strndup(path, (size_t)(base - path)))))
        rc = nomem();
    if (rc == SBX_OK && *base == '\0')
        rc = (sbx_cli_error(SBX_E_BAD_PATH, "cp: %s: name the destination itself", dst),
              SBX_E_BAD_PATH);
    if (rc == SBX_OK && (dirfd = open(*parent ? parent : ".",
                                      O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        rc = sys_error("cannot open", *parent ? parent : ".", errno);
    if (rc == SBX_OK)
        rc = *src ? out_entry(sb, src, &d, dirfd, base, dst)
                  : out_dir(sb, src, &d, dirfd, base, dst, 0); /* the work dir: no mode to keep */
    if (dirfd >= 0)
        close(dirfd);
    free(parent);
    free(path);
    sbx_dirlist_free(keep);
    return rc;
}
