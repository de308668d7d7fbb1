/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of a local sandbox, done from the client through the work dir's
 * descriptor that init handed over at READY.
 *
 * Every path is resolved with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
 * relative to that descriptor: the kernel refuses, atomically and whatever
 * the sandbox renames meanwhile, any walk that leaves the work dir through
 * "..", an absolute symlink, a relative symlink climbing out or a /proc
 * magic link. Such a refusal is SBX_E_PATH_ESCAPE. Bytes go straight
 * between the client and the sandbox's tmpfs, without a trip through init.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sandboxio/files.h>

#include "local.h"
#include <sbxu/fsmeta.h>

#define IO_CHUNK (256 * 1024)

static int map_errno(const sbx_host *host, int err, const char *op, const char *path)
{
    int code;
    switch (err) {
    case EXDEV:
    case ELOOP: code = SBX_E_PATH_ESCAPE; break;
    case ENOENT: code = SBX_E_NOT_FOUND; break;
    case EISDIR: code = SBX_E_IS_DIRECTORY; break;
    case ENOTDIR: code = SBX_E_NOT_DIRECTORY; break;
    case EEXIST: code = SBX_E_EXISTS; break;
    case ENOTEMPTY: code = SBX_E_NOT_EMPTY; break;
    case EACCES: case EPERM: case EROFS: code = SBX_E_BACKEND_PERMISSION; break;
    case ENOSPC: case EDQUOT: case EFBIG: code = SBX_E_BACKEND_QUOTA; break;
    case ENAMETOOLONG: code = SBX_E_BAD_PATH; break;
    case ENOMEM: code = SBX_E_NOMEM; break;
    case ENOSYS: code = SBX_E_KERNEL_FEATURE; break;
    default: code = SBX_E_SYSTEM; break;
    }
    if (code == SBX_E_PATH_ESCAPE)
        return host->set_error(code, "local: %s '%s': the path leaves the work dir "
                               "(through a symlink or link loop)", op, path);
    if (code == SBX_E_KERNEL_FEATURE)
        return host->set_error(code, "local: %s needs openat2() (Linux 5.6 or later)", op);
    return host->set_error(code, "local: %s '%s': %s", op, path, strerror(err));
}

/*
 * The work dir is a tmpfs of the sandbox's user namespace: the kernel only
 * creates inodes there for a filesystem uid mapped in it. A root client maps
 * the sandbox to an unprivileged uid, so it takes that uid as its
 * filesystem uid, on this thread only, for the duration of the call.
 */
static void fs_enter(local_sandbox *sb)
{
    if (sb->owner_uid == (uid_t)-1)
        return;
    syscall(SYS_setfsgid, sb->owner_gid);
    syscall(SYS_setfsuid, sb->owner_uid);
}

static void fs_leave(local_sandbox *sb)
{
    if (sb->owner_uid == (uid_t)-1)
        return;
    int e = errno;
    syscall(SYS_setfsuid, 0);
    syscall(SYS_setfsgid, 0);
    errno = e;
}

/* Evaluate call with the sandbox's filesystem identity, keeping its errno. */
#define as_sandbox(sb, call) \
    ({ fs_enter(sb); long r_ = (long)(call); int e_ = errno; fs_leave(sb); errno = e_; r_; })

/* Open path beneath the work dir; -1 with errno on failure. */
static int open_beneath(local_sandbox *sb, const char *path, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
    };
    long fd = -1;
    fs_enter(sb);
    for (int tries = 0; tries < 16; tries++) {
        fd = syscall(SYS_openat2, sb->workfd, path[0] ? path : ".", &how, sizeof how);
        if (fd >= 0 || errno != EAGAIN)
            break;
    }
    fs_leave(sb);
    return (int)fd;
}

static int not_regular(const sbx_host *host, const char *op, const char *path)
{
    return host->set_error(SBX_E_NOT_REGULAR, "local: %s '%s': not a regular file (a FIFO, "
                           "socket or device is refused, never opened for I/O)", op, path);
}

/*
 * The code for an open of path that failed with err. A device cannot be
 * opened on the sandbox's nodev mounts (EACCES) and a socket or a FIFO
 * without a reader answers ENXIO: what is there, looked at through O_PATH
 * (which opens nothing), says whether it is SBX_E_NOT_REGULAR.
 */
static int open_failed(local_sandbox *sb, int err, const char *op, const char *path)
{
    if (err == ENXIO || err == EACCES || err == EPERM) {
        struct stat st;
        int fd = open_beneath(sb, path, O_PATH, 0);
        int other = fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
        if (fd >= 0)
            close(fd);
        if (other || err == ENXIO)
            return not_regular(sb->host, op, path);
    }
    return map_errno(sb->host, err, op, path);
}

/* SBX_OK if fd is a regular file; else the code for what it is. */
static int check_regular(const sbx_host *host, int fd, const char *op, const char *path)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return map_errno(host, errno, op, path);
    if (S_ISDIR(st.st_mode))
        return map_errno(host, EISDIR, op, path);
    return S_ISREG(st.st_mode) ? SBX_OK : not_regular(host, op, path);
}

/* Split "a/b/c" into its parent's descriptor and "c". */
static int open_parent(local_sandbox *sb, const char *path, char **name_out)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *name_out = (char *)path;
        return open_beneath(sb, ".", O_PATH | O_DIRECTORY, 0);
    }
    char *dir = strndup(path, (size_t)(slash - path));
    if (!dir)
        return -1;
    int fd = open_beneath(sb, dir, O_PATH | O_DIRECTORY, 0);
    int e = errno;
    free(dir);
    errno = e;
    *name_out = (char *)slash + 1;
    return fd;
}

/* mkdir -p of path (relative to the work dir). Returns 0 or an SBX code. */
static int make_dirs(local_sandbox *sb, const char *path, size_t upto)
{
    char *buf = strndup(path, upto);
    int rc = SBX_OK;
    if (!buf)
        return sb->host->set_error(SBX_E_NOMEM, "local: out of memory");
    for (char *p = buf; rc == SBX_OK; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        int fd = open_beneath(sb, buf, O_PATH | O_DIRECTORY, 0);
        if (fd < 0 && errno == ENOENT) {
            char *name;
            int parent = open_parent(sb, buf, &name);
            if (parent < 0)
                rc = map_errno(sb->host, errno, "mkdir", buf);
            else if (as_sandbox(sb, mkdirat(parent, name, 0755)) < 0 && errno != EEXIST)
                rc = map_errno(sb->host, errno, "mkdir", buf);
                        if (parent >= 0)
                close(parent);
        } else if (fd < 0) {
            rc = map_errno(sb->host, errno, "mkdir", buf);
        }
        if (fd >= 0)
            close(fd);
        *p = c;
        if (c == '\0')
            break;
    }
    free(buf);
    return rc;
}

int local_file_mkdir(void *sandbox, const char *path)
{
    local_sandbox *sb = sandbox;
    if (!path || !path[0])
        return SBX_OK; /* the work dir itself exists */
    return make_dirs(sb, path, strlen(path));
}

/*
 * A symlink at path that stays inside the work dir is removed, so the write
 * replaces it as the other backends' writes do, instead of writing through
 * it; one that leads out is refused, as any path through it is.
 */
static int unlink_inner_link(local_sandbox *sb, const char *path)
{
    struct stat st;
    char *name;
    int rc = SBX_OK, parent = open_parent(sb, path, &name);

    if (parent < 0)
        return map_errno(sb->host, errno, "write", path);
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
        int fd = open_beneath(sb, path, O_PATH, 0);
        if (fd >= 0)
            close(fd);
        if (fd < 0 && errno != ENOENT) /* it leads out, or loops */
            rc = open_failed(sb, errno, "write", path);
        else if (as_sandbox(sb, unlinkat(parent, name, 0)) < 0 && errno != ENOENT)
            rc = map_errno(sb->host, errno, "write", path);
    }
    close(parent);
    return rc;
}

int local_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                     long (*read_cb)(void *userdata, void *buf, size_t len), void *userdata)
{
    local_sandbox *sb = sandbox;
    const char *slash = strrchr(path, '/');
    int rc = SBX_OK, fd;

    if (!path[0])
        return sb->host->set_error(SBX_E_IS_DIRECTORY, "local: cannot write the work dir itself");
    if (slash && (rc = make_dirs(sb, path, (size_t)(slash - path))) != SBX_OK)
        return rc;
    /*
     * O_NONBLOCK: a FIFO planted where the file goes must not hang the
     * client. Without a reader its open fails with ENXIO (as a socket's
     * does); with one it opens, and fstat refuses it before any byte goes in.
     */
    if ((rc = unlink_inner_link(sb, path)) != SBX_OK)
        return rc;
    /*
     * O_NOFOLLOW: the file is written itself, never through a symlink; one
     * planted again since the unlink above fails the write (ELOOP: refused
     * as an escape) rather than be followed.
     */
    fd = open_beneath(sb, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW,
                      mode & 0777);
    if (fd < 0)
        return open_failed(sb, errno, "write", path);
    if ((rc = check_regular(sb->host, fd, "write", path)) != SBX_OK)
        goto out;
    if (fchmod(fd, mode & 0777) < 0) {
        rc = map_errno(sb->host, errno, "write", path);
        goto out;
    }
    char *buf = malloc(IO_CHUNK);
    if (!buf) {
        rc = sb->host->set_error(SBX_E_NOMEM, "local: out of memory");
        goto out;
    }
    for (uint64_t done = 0; done < size && rc == SBX_OK;) {
        size_t want = size - done < IO_CHUNK ? (size_t)(size - done) : IO_CHUNK;
        long n = read_cb ? read_cb(userdata, buf, want) : 0;
        if (n < 0)
            rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "local: write '%s': the source stopped",
                                     path);
        else if (n == 0 || (size_t)n > want)
            rc = sb->host->set_error(SBX_E_INVALID_ARGUMENT,
                                     "local: write '%s': the source gave %llu of %llu bytes", path,
                                     (unsigned long long)(done + (n > 0 ? (uint64_t)n : 0)),
                                     (unsigned long long)size);
        for (size_t off = 0; rc == SBX_OK && off < (size_t)n;) {
            ssize_t w = write(fd, buf + off, (size_t)n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                rc = map_errno(sb->host, w < 0 ? errno : EIO, "write", path);
            else
                off += (size_t)w;
        }
        if (rc == SBX_OK)
            done += (uint64_t)n;
    }
    free(buf);
out:
    if (close(fd) < 0 && rc == SBX_OK)
        rc = map_errno(sb->host, errno, "write", path);
    return rc;
}

int local_file_read(void *sandbox, const char *path,
                    int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    local_sandbox *sb = sandbox;
    int rc = SBX_OK;
    /* O_NONBLOCK: a FIFO planted in the work dir must not hang the client. */
    int fd = open_beneath(sb, path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0);
    if (fd < 0)
        return open_failed(sb, errno, "read", path);
    if ((rc = check_regular(sb->host, fd, "read", path)) == SBX_OK) {
        char *buf = malloc(IO_CHUNK);
        if (!buf)
            rc = sb->host->set_error(SBX_E_NOMEM, "local: out of memory");
        while (buf && rc == SBX_OK) {
            ssize_t n = read(fd, buf, IO_CHUNK);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                rc = map_errno(sb->host, errno, "read", path);
            else if (n == 0)
                break;
            else if (sink(userdata, buf, (size_t)n))
                rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "local: read '%s': the sink stopped",
                                         path);
        }
        free(buf);
    }
    close(fd);
    return rc;
}

typedef struct entry {
    char *name;
    struct stat st;
} entry;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

int local_file_list(void *sandbox, const char *path,
                    int (*cb)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    local_sandbox *sb = sandbox;
    entry *v = NULL;
    size_t n = 0, cap = 0;
    int rc = SBX_OK;
    int fd = open_beneath(sb, path, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0)
        return map_errno(sb->host, errno, "list", path);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return map_errno(sb->host, errno, "list", path);
    }
    size_t name_bytes = 0;
    for (struct dirent *e; rc == SBX_OK && (errno = 0, e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        /* The entries are sorted before they are given: stop at the core's bounds, not
           after holding a directory of any size. */
        size_t len = strlen(e->d_name);
        if (n == SBX_FILE_LIST_MAX_ENTRIES || len > SBX_FILE_LIST_MAX_NAME_BYTES - name_bytes) {
            rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "local: list '%s': too many entries",
                                     path);
            break;
        }
        if (n == cap) {
            entry *nv = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
            if (!nv) {
                rc = sb->host->set_error(SBX_E_NOMEM, "local: out of memory");
                break;
            }
            v = nv;
        }
        if (fstatat(dirfd(d), e->d_name, &v[n].st, AT_SYMLINK_NOFOLLOW) < 0)
            continue; /* removed meanwhile */
        if (!(v[n].name = strdup(e->d_name)))
            rc = sb->host->set_error(SBX_E_NOMEM, "local: out of memory");
        else {
            n++;
            name_bytes += len;
        }
    }
    if (rc == SBX_OK && errno)
        rc = map_errno(sb->host, errno, "list", path);
    if (n > 1)
        qsort(v, n, sizeof *v, by_name);
    for (size_t i = 0; i < n; i++) {
        mode_t m = v[i].st.st_mode;
        sbx_plugin_dirent ent = {
            .struct_size = sizeof ent, .name = v[i].name,
            .type = S_ISREG(m) ? 1 : S_ISDIR(m) ? 2 : S_ISLNK(m) ? 3 : 4,
            .size = (uint64_t)v[i].st.st_size, .mode = m & 07777,
        };
        char target[4096];
        int err = rc == SBX_OK ? sbxu_fsmeta_fill(dirfd(d), v[i].name, &v[i].st, &ent, target,
                                                 sizeof target) : 0;
        if (err && err != ENOENT)
            rc = map_errno(sb->host, err, "list", path);
        if (rc == SBX_OK && !err && cb(userdata, &ent))
            rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "local: list '%s': stopped", path);
        free(v[i].name);
    }
    closedir(d);
    free(v);
    return rc;
}

/* rm -r below an already-opened directory; never follows a symlink. */
static int remove_tree(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOTDIR || errno == ELOOP ? unlinkat(parent, name, 0) : -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
            rc = remove_tree(dirfd(d), e->d_name);
        else
            rc = unlinkat(dirfd(d), e->d_name, 0);
        if (rc < 0 && errno == ENOENT)
            rc = 0;
    }
    int e = errno;
    closedir(d);
    errno = e;
    return rc < 0 ? -1 : unlinkat(parent, name, AT_REMOVEDIR);
}

int local_file_remove(void *sandbox, const char *path, int recursive)
{
    local_sandbox *sb = sandbox;
    struct stat st;
    char *name;
    int rc = SBX_OK;

    if (!path[0])
        return sb->host->set_error(SBX_E_BAD_PATH, "local: cannot remove the work dir itself");
    int parent = open_parent(sb, path, &name);
    if (parent < 0)
        return map_errno(sb->host, errno, "remove", path);
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        rc = map_errno(sb->host, errno, "remove", path);
    else if (!S_ISDIR(st.st_mode)) {
        if (as_sandbox(sb, unlinkat(parent, name, 0)) < 0)
            rc = map_errno(sb->host, errno, "remove", path);
    } else if (!recursive) {
        if (as_sandbox(sb, unlinkat(parent, name, AT_REMOVEDIR)) < 0)
            rc = errno == ENOTEMPTY || errno == EEXIST
                     ? sb->host->set_error(SBX_E_NOT_EMPTY,
                                           "local: remove '%s': directory not empty "
                                           "(remove it recursively)", path)
                     : map_errno(sb->host, errno, "remove", path);
    } else if (as_sandbox(sb, remove_tree(parent, name)) < 0) {
        rc = map_errno(sb->host, errno, "remove", path);
    }
    close(parent);
    return rc;
}

int local_file_symlink(void *sandbox, const char *path, const char *target)
{
    local_sandbox *sb = sandbox;
    const char *slash = strrchr(path, '/');
    char *name;
    int rc, err;

    if (slash && (rc = make_dirs(sb, path, (size_t)(slash - path))) != SBX_OK)
        return rc;
    int parent = open_parent(sb, path, &name);
    if (parent < 0)
        return map_errno(sb->host, errno, "symlink", path);
    err = (int)as_sandbox(sb, sbxu_fsmeta_symlink(parent, name, target));
    close(parent);
    return err ? map_errno(sb->host, err, "symlink", path) : SBX_OK;
}

int local_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    local_sandbox *sb = sandbox;
    char *name;
    int err;

    if (!path[0])
        return sb->host->set_error(SBX_E_BAD_PATH, "local: the work dir's own metadata is fixed");
    int parent = open_parent(sb, path, &name);
    if (parent < 0)
        return map_errno(sb->host, errno, "set metadata of", path);
    err = (int)as_sandbox(sb, sbxu_fsmeta_set(parent, name, meta));
    close(parent);
    if (err == EOPNOTSUPP)
        return sb->host->set_error(SBX_E_NOT_REGULAR,
                                   "local: '%s' is a symlink: it has no mode of its own", path);
    return err ? map_errno(sb->host, err, "set metadata of", path) : SBX_OK;
}
