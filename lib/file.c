/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file.c - writing all of a buffer, replacing a small file whole, and the
 * temporary names files are made under (sbxu/file.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>  /* renameat */
#include <sys/random.h>
#include <unistd.h>

#include <sbxu/file.h>

int sbxu_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int sbxu_temp_name(char *buf, size_t size, const char *prefix)
{
    unsigned long long rnd;
    if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
        return errno ? errno : EIO;
    int n = snprintf(buf, size, "%s%016llx", prefix, rnd);
    return n < 0 || (size_t)n >= size ? ENAMETOOLONG : 0;
}

int sbxu_file_replace(int dirfd, const char *tmp, const char *name, const void *data,
                      size_t len, mode_t mode)
{
    if (unlinkat(dirfd, tmp, 0) < 0 && errno != ENOENT)
        return errno;
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return errno;
    int err = sbxu_write_all(fd, data, len) == 0 ? 0 : errno;
    if (close(fd) < 0 && !err)
        err = errno;
    if (!err && renameat(dirfd, tmp, dirfd, name) == 0)
        return 0;
    if (!err)
        err = errno;
    unlinkat(dirfd, tmp, 0);
    return err;
}
