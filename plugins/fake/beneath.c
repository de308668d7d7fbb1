/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Path resolution that cannot leave the sandbox root. The core already
 * refused "..", absolute paths and empty components, but a command in the
 * sandbox can plant a symlink to /etc; openat2(RESOLVE_BENEATH) makes the
 * kernel refuse any resolution that would leave the root, atomically, so no
 * check-then-use race exists.
 */
#include "fake.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int fake_openat2(int dirfd, const char *path, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)flags,
        .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
    };
    long fd;

    do
        fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
    while (fd < 0 && (errno == EINTR || errno == EAGAIN));
    return (int)fd;
}

int fake_errno_error(const sbx_host *host, int err, const char *what, const char *path)
{
    int code;

    switch (err) {
    case ENOENT:
        code = SBX_E_NOT_FOUND;
        break;
    case EISDIR:
        code = SBX_E_IS_DIRECTORY;
        break;
    case ENOTDIR:
        code = SBX_E_NOT_DIRECTORY;
        break;
    case EEXIST:
        code = SBX_E_EXISTS;
        break;
    case EXDEV:
        /* From beneath-resolution: a symlink that leads out. */
        return host->set_error(SBX_E_PATH_ESCAPE,
                               "fake: %s \"%s\": a symlink leads out of the sandbox", what, path);
    case ELOOP:
        /* A symlink loop or a magic link: resolution could not be kept beneath the root. */
        return host->set_error(SBX_E_PATH_ESCAPE,
                               "fake: %s \"%s\": symlinks loop or use a magic link (%s)", what,
                               path, strerror(err));
    case ENXIO:
        /* An open's ENXIO: a socket, or a FIFO without a reader, opened non-blocking. */
        return host->set_error(SBX_E_NOT_REGULAR, "fake: %s \"%s\": not a regular file", what,
                               path);
    case ENOSYS:
        return host->set_error(SBX_E_KERNEL_FEATURE,
                               "fake: %s \"%s\": openat2() is missing (Linux >= 5.6 needed)",
                               what, path);
    case ENOMEM:
        code = SBX_E_NOMEM;
        break;
    default:
        code = SBX_E_SYSTEM;
        break;
    }
    return host->set_error(code, "fake: %s \"%s\": %s", what, path, strerror(err));
}

int fake_openat_beneath(fake_sandbox *sb, int dirfd, const char *name, int flags, mode_t mode,
                        int *fd_out)
{
    int fd = fake_openat2(dirfd, name[0] != '\0' ? name : ".", flags, mode);

    if (fd < 0)
        return fake_errno_error(sb->host, errno, "cannot open", name);
    *fd_out = fd;
    return SBX_OK;
}

int fake_open_beneath(fake_sandbox *sb, const char *path, int flags, mode_t mode, int *fd_out)
{
    return fake_openat_beneath(sb, sb->root_fd, path, flags, mode, fd_out);
}

int fake_mkdir_beneath(fake_sandbox *sb, const char *path, int *fd_out)
{
    const int dir_flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    char *prefix;
    int fd = -1, rc = SBX_OK;

    /* Usually the directory exists: one call settles it. */
    fd = fake_openat2(sb->root_fd, path[0] != '\0' ? path : ".", dir_flags, 0);
    if (fd < 0 && errno != ENOENT)
        return fake_errno_error(sb->host, errno, "cannot open directory", path);
    if (fd >= 0)
        goto done;

    prefix = strdup(path);
    if (prefix == NULL)
        return sb->host->set_error(SBX_E_NOMEM, "fake: out of memory");
    fd = dup(sb->root_fd);
    /* Each step resolves the whole prefix from the root, so no step can leave it. */
    for (char *end = prefix; fd >= 0;) {
        char *slash = strchr(end, '/');
        const char *name;
        int next;

        if (slash != NULL)
            *slash = '\0';
        name = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
        next = fake_openat2(sb->root_fd, prefix, dir_flags, 0);
        if (next < 0 && errno == ENOENT) {
            if (mkdirat(fd, name, 0755) != 0 && errno != EEXIST) {
                rc = fake_errno_error(sb->host, errno, "cannot create directory", prefix);
                break;
            }
            next = fake_openat2(sb->root_fd, prefix, dir_flags, 0);
        }
        if (next < 0) {
            /* EEXIST from mkdirat then ENOENT: a dangling symlink is in the way. */
            rc = fake_errno_error(sb->host, errno == ENOENT ? ENOTDIR : errno,
                                  "cannot create directory", prefix);
            break;
        }
        close(fd);
        fd = next;
        if (slash == NULL)
            break;
        *slash = '/';
        end = slash + 1;
    }
    if (fd < 0 && rc == SBX_OK)
        rc = fake_errno_error(sb->host, errno, "cannot open directory", "");
    free(prefix);
    if (rc != SBX_OK) {
        if (fd >= 0)
            close(fd);
        return rc;
    }
done:
    if (fd_out != NULL)
        *fd_out = fd;
    else
        close(fd);
    return SBX_OK;
}

/* Open name under dirfd as a directory, making it searchable first if we must. */
static int open_subdir(int dirfd, const char *name)
{
    const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(dirfd, name, flags);

    if (fd < 0 && errno == EACCES) {
        /* A command may have chmod 000 a directory of its own; we still own it. */
        if (fchmodat(dirfd, name, 0700, AT_SYMLINK_NOFOLLOW) == 0)
            fd = openat(dirfd, name, flags);
        else
            errno = EACCES;
    }
    return fd;
}

int fake_remove_tree(int dirfd, const char *name)
{
    struct stat st;
    struct dirent *de;
    DIR *dir;
    int fd, err = 0;

    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return unlinkat(dirfd, name, 0) == 0 ? 0 : errno;
    fd = open_subdir(dirfd, name);
    if (fd < 0)
        return errno;
    /* Write permission is needed to unlink the entries. */
    if ((st.st_mode & 0700) != 0700)
        fchmod(fd, 0700);
    dir = fdopendir(fd);
    if (dir == NULL) {
        err = errno;
        close(fd);
        return err;
    }
    while ((errno = 0, de = readdir(dir)) != NULL) {
        int e;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        e = fake_remove_tree(fd, de->d_name);
        if (e != 0 && e != ENOENT && err == 0)
            err = e;
    }
    if (errno != 0 && err == 0)
        err = errno;
    closedir(dir);
    if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && err == 0)
        err = errno;
    return err;
}
