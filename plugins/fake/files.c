/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of a fake sandbox. Every path goes through beneath-resolution from
 * the root (beneath.c). A write lands in a temporary file of the target's
 * directory and is renamed into place, so a reader never sees half a file.
 */
#include "fake.h"
#include <sbxu/file.h>
#include <sbxu/fsmeta.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK_SIZE 65536

/* Split "a/b/c" into a malloc'd parent "a/b" ("" at the top) and a pointer to "c". */
static int split_path(const sbx_host *host, const char *path, char **parent, const char **base)
{
    const char *slash = strrchr(path, '/');

    if (path[0] == '\0')
        return host->set_error(SBX_E_BAD_PATH, "fake: the sandbox root itself is not a file");
    *parent = strndup(path, slash != NULL ? (size_t)(slash - path) : 0);
    if (*parent == NULL)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    *base = slash != NULL ? slash + 1 : path;
    return SBX_OK;
}

/* Pull exactly size bytes from read() into fd. */
static int copy_in(const sbx_host *host, int fd, const char *path, uint64_t size,
                   long (*read_cb)(void *, void *, size_t), void *userdata)
{
    char *buf = malloc(CHUNK_SIZE);
    uint64_t done = 0;
    int rc = SBX_OK;

    if (buf == NULL)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    while (done < size) {
        size_t want = size - done < CHUNK_SIZE ? (size_t)(size - done) : CHUNK_SIZE;
        long got = read_cb(userdata, buf, want);

        if (got < 0) {
            rc = host->set_error(SBX_E_EXEC_ABORTED, "fake: the source of \"%s\" stopped", path);
            break;
        }
        if (got == 0 || (size_t)got > want) {
            rc = host->set_error(SBX_E_INVALID_ARGUMENT,
                                 "fake: the source of \"%s\" gave %s after %llu of %llu bytes",
                                 path, got == 0 ? "EOF" : "too many bytes",
                                 (unsigned long long)done, (unsigned long long)size);
            break;
        }
        if (sbxu_write_all(fd, buf, (size_t)got) != 0) {
            rc = fake_errno_error(host, errno, "cannot write", path);
            break;
        }
        done += (uint64_t)got;
    }
    free(buf);
    return rc;
}

static int write_file(fake_sandbox *sb, const char *path, uint64_t size, uint32_t mode,
                      long (*read_cb)(void *, void *, size_t), void *userdata)
{
    const sbx_host *host = sb->host;
    char *parent = NULL, tmp[32];
    const char *base;
    int dir_fd = -1, fd = -1, probe_fd = -1, rc, err;

    rc = split_path(host, path, &parent, &base);
    if (rc != SBX_OK)
        return rc;
    /*
     * The target itself is replaced, never written through; still refuse a
     * symlink there that leads out, and anything but a regular file there
     * (a FIFO, socket or device), as a reader would be refused: every
     * backend refuses such a target the same way, none replaces it.
     */
    probe_fd = fake_openat2(sb->root_fd, path, O_PATH | O_CLOEXEC, 0);
    if (probe_fd >= 0) {
        struct stat st;
        if (fstat(probe_fd, &st) != 0)
            rc = fake_errno_error(host, errno, "cannot stat", path);
        else if (S_ISDIR(st.st_mode))
            rc = fake_errno_error(host, EISDIR, "cannot write", path);
        else if (!S_ISREG(st.st_mode))
            rc = host->set_error(SBX_E_NOT_REGULAR,
                                 "fake: cannot write \"%s\": not a regular file", path);
        close(probe_fd);
        if (rc != SBX_OK)
            goto out;
    } else if (errno != ENOENT) {
        rc = fake_errno_error(host, errno, "cannot write", path);
        goto out;
    }
    rc = fake_mkdir_beneath(sb, parent, &dir_fd);
    if (rc != SBX_OK)
        goto out;
    if ((err = sbxu_temp_name(tmp, sizeof(tmp), ".sbx-tmp-")) != 0) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: getrandom: %s", strerror(err));
        goto out;
    }
    rc = fake_openat_beneath(sb, dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &fd);
    if (rc != SBX_OK)
        goto out;
    rc = copy_in(host, fd, path, size, read_cb, userdata);
    if (rc == SBX_OK && fchmod(fd, mode & 07777) != 0)
        rc = fake_errno_error(host, errno, "cannot chmod", path);
    if (rc == SBX_OK && close(fd) != 0)
        rc = fake_errno_error(host, errno, "cannot write", path);
    fd = -1;
    if (rc == SBX_OK && renameat(dir_fd, tmp, dir_fd, base) != 0)
        rc = fake_errno_error(host, errno, "cannot write", path);
    if (rc != SBX_OK)
        unlinkat(dir_fd, tmp, 0);
out:
    if (fd >= 0)
        close(fd);
    if (dir_fd >= 0)
        close(dir_fd);
    free(parent);
    return rc;
}

int fake_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                    long (*read_cb)(void *userdata, void *buf, size_t len), void *userdata)
{
    fake_sandbox *sb = sandbox;
    int rc = fake_enter(sb);

    if (rc != SBX_OK)
        return rc;
    rc = write_file(sb, path, size, mode, read_cb, userdata);
    fake_leave(sb);
    return rc;
}

static int read_file(fake_sandbox *sb, const char *path,
                     int (*sink)(void *, const void *, size_t), void *userdata)
{
    const sbx_host *host = sb->host;
    struct stat st;
    char *buf;
    int fd, rc;

    /* O_NONBLOCK: a FIFO planted in the sandbox must not hang the open. */
    rc = fake_open_beneath(sb, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, &fd);
    if (rc != SBX_OK)
        return rc;
    if (fstat(fd, &st) != 0) {
        rc = fake_errno_error(host, errno, "cannot stat", path);
    } else if (S_ISDIR(st.st_mode)) {
        rc = fake_errno_error(host, EISDIR, "cannot read", path);
    } else if (!S_ISREG(st.st_mode)) {
        rc = host->set_error(SBX_E_NOT_REGULAR, "fake: cannot read \"%s\": not a regular file",
                             path);
    } else if ((buf = malloc(CHUNK_SIZE)) == NULL) {
        rc = host->set_error(SBX_E_NOMEM, "fake: out of memory");
    } else {
        for (;;) {
            ssize_t n = read(fd, buf, CHUNK_SIZE);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                rc = fake_errno_error(host, errno, "cannot read", path);
                break;
            }
            if (n == 0)
                break;
            if (sink(userdata, buf, (size_t)n) != 0) {
                rc = host->set_error(SBX_E_EXEC_ABORTED, "fake: the reader of \"%s\" stopped",
                                     path);
                break;
            }
        }
        free(buf);
    }
    close(fd);
    return rc;
}

int fake_file_read(void *sandbox, const char *path,
                   int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    fake_sandbox *sb = sandbox;
    int rc = fake_enter(sb);

    if (rc != SBX_OK)
        return rc;
    rc = read_file(sb, path, sink, userdata);
    fake_leave(sb);
    return rc;
}

static int dirent_type(mode_t mode)
{
    if (S_ISREG(mode))
        return 1;
    if (S_ISDIR(mode))
        return 2;
    if (S_ISLNK(mode))
        return 3;
    return 4;
}

static int list_dir(fake_sandbox *sb, const char *path,
                    int (*entry)(void *, const sbx_plugin_dirent *), void *userdata)
{
    const sbx_host *host = sb->host;
    struct dirent *de;
    DIR *dir;
    int fd, rc;

    rc = fake_open_beneath(sb, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, &fd);
    if (rc != SBX_OK)
        return rc;
    dir = fdopendir(fd);
    if (dir == NULL) {
        rc = fake_errno_error(host, errno, "cannot list", path);
        close(fd);
        return rc;
    }
    while ((errno = 0, de = readdir(dir)) != NULL) {
        sbx_plugin_dirent ent = {.struct_size = sizeof(ent), .name = de->d_name};
        struct stat st;
        char target[4096];
        int err;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT)
                continue;  /* removed while we listed */
            rc = fake_errno_error(host, errno, "cannot stat an entry of", path);
            break;
        }
        ent.type = dirent_type(st.st_mode);
        ent.size = (uint64_t)st.st_size;
        ent.mode = (uint32_t)(st.st_mode & 07777);
        if ((err = sbxu_fsmeta_fill(fd, de->d_name, &st, &ent, target, sizeof(target))) != 0) {
            if (err == ENOENT)
                continue;
            rc = fake_errno_error(host, err, "cannot read a link of", path);
            break;
        }
        if (entry(userdata, &ent) != 0) {
            rc = host->set_error(SBX_E_EXEC_ABORTED, "fake: the lister of \"%s\" stopped", path);
            break;
        }
    }
    if (de == NULL && errno != 0 && rc == SBX_OK)
        rc = fake_errno_error(host, errno, "cannot list", path);
    closedir(dir);
    return rc;
}

int fake_file_list(void *sandbox, const char *path,
                   int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    fake_sandbox *sb = sandbox;
    int rc = fake_enter(sb);

    if (rc != SBX_OK)
        return rc;
    rc = list_dir(sb, path != NULL ? path : "", entry, userdata);
    fake_leave(sb);
    return rc;
}

static int remove_path(fake_sandbox *sb, const char *path, int recursive)
{
    const sbx_host *host = sb->host;
    char *parent;
    const char *base;
    struct stat st;
    int dir_fd, rc, err;

    rc = split_path(host, path, &parent, &base);
    if (rc != SBX_OK)
        return rc;
    rc = fake_open_beneath(sb, parent, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, &dir_fd);
    free(parent);
    if (rc != SBX_OK)
        return rc;
    /* lstat semantics: a symlink is removed itself, never what it points to. */
    if (fstatat(dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        rc = fake_errno_error(host, errno, "cannot remove", path);
    } else if (!S_ISDIR(st.st_mode)) {
        if (unlinkat(dir_fd, base, 0) != 0)
            rc = fake_errno_error(host, errno, "cannot remove", path);
    } else if (!recursive) {
        if (unlinkat(dir_fd, base, AT_REMOVEDIR) != 0) {
            err = errno;
            if (err == ENOTEMPTY || err == EEXIST)
                rc = host->set_error(SBX_E_NOT_EMPTY,
                                     "fake: cannot remove \"%s\": directory not empty "
                                     "(remove it recursively)", path);
            else
                rc = fake_errno_error(host, err, "cannot remove", path);
        }
    } else if ((err = fake_remove_tree(dir_fd, base)) != 0) {
        rc = fake_errno_error(host, err, "cannot remove", path);
    }
    close(dir_fd);
    return rc;
}

int fake_file_remove(void *sandbox, const char *path, int recursive)
{
    fake_sandbox *sb = sandbox;
    int rc = fake_enter(sb);

    if (rc != SBX_OK)
        return rc;
    rc = remove_path(sb, path, recursive);
    fake_leave(sb);
    return rc;
}

int fake_file_mkdir(void *sandbox, const char *path)
{
    fake_sandbox *sb = sandbox;
    int rc = fake_enter(sb);

    if (rc != SBX_OK)
        return rc;
    rc = fake_mkdir_beneath(sb, path, NULL);
    fake_leave(sb);
    return rc;
}

/* The parent of path, opened beneath the root (created if mkdir), and its last component. */
static int open_parent(fake_sandbox *sb, const char *path, bool mkdir, int *dir_fd,
                       const char **base)
{
    char *parent = NULL;
    int rc = split_path(sb->host, path, &parent, base);

    if (rc != SBX_OK)
        return rc;
    rc = mkdir ? fake_mkdir_beneath(sb, parent, dir_fd)
               : fake_open_beneath(sb, parent, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, dir_fd);
    free(parent);
    return rc;
}

int fake_file_symlink(void *sandbox, const char *path, const char *target)
{
    fake_sandbox *sb = sandbox;
    const char *base;
    int rc = fake_enter(sb), dir_fd = -1, err;

    if (rc != SBX_OK)
        return rc;
    if ((rc = open_parent(sb, path, true, &dir_fd, &base)) == SBX_OK &&
        (err = sbxu_fsmeta_symlink(dir_fd, base, target)) != 0)
        rc = fake_errno_error(sb->host, err, "cannot make the symlink", path);
    if (dir_fd >= 0)
        close(dir_fd);
    fake_leave(sb);
    return rc;
}

int fake_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    fake_sandbox *sb = sandbox;
    const char *base;
    int rc = fake_enter(sb), dir_fd = -1, err;

    if (rc != SBX_OK)
        return rc;
    if ((rc = open_parent(sb, path, false, &dir_fd, &base)) == SBX_OK &&
        (err = sbxu_fsmeta_set(dir_fd, base, meta)) != 0)
        rc = err == EOPNOTSUPP
                 ? sb->host->set_error(SBX_E_NOT_REGULAR,
                                       "fake: \"%s\" is a symlink: it has no mode of its own", path)
                 : fake_errno_error(sb->host, err, "cannot set the metadata of", path);
    if (dir_fd >= 0)
        close(dir_fd);
    fake_leave(sb);
    return rc;
}
