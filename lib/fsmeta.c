/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fsmeta.c - mode, mtime and symlinks on a host filesystem, never
 * following the name they act on (see sbxu/fsmeta.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sbxu/file.h>
#include <sbxu/fsmeta.h>

int sbxu_fsmeta_set(int dirfd, const char *name, const sbx_plugin_file_meta *meta)
{
    /*
     * glibc's fchmodat(AT_SYMLINK_NOFOLLOW) pins the inode with an O_PATH
     * descriptor opened O_NOFOLLOW and changes that very inode, so a link
     * swapped in meanwhile is refused (EOPNOTSUPP), never followed.
     */
    if ((meta->what & SBX_PLUGIN_META_MODE) &&
        fchmodat(dirfd, name, (mode_t)(meta->mode & 07777), AT_SYMLINK_NOFOLLOW) != 0)
        return errno;
    if (meta->what & SBX_PLUGIN_META_MTIME) {
        struct timespec ts[2] = {
            {.tv_nsec = UTIME_OMIT},
            {.tv_sec = (time_t)meta->mtime, .tv_nsec = (long)meta->mtime_nsec},
        };
        if (utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW) != 0)
            return errno;
    }
    return 0;
}

int sbxu_fsmeta_symlink(int dirfd, const char *name, const char *target)
{
    char tmp[40];
    int err = sbxu_temp_name(tmp, sizeof(tmp), ".sbx-link-");

    if (err)
        return err;
    if (symlinkat(target, dirfd, tmp) != 0)
        return errno;
    /* rename() replaces a file or a link itself; over a directory it fails. */
    if (renameat(dirfd, tmp, dirfd, name) != 0) {
        err = errno == ENOTDIR ? EISDIR : errno;
        unlinkat(dirfd, tmp, 0);
        return err;
    }
    return 0;
}

int sbxu_fsmeta_fill(int dirfd, const char *name, const struct stat *st, sbx_plugin_dirent *ent,
                    char *buf, size_t size)
{
    ent->mtime = (int64_t)st->st_mtim.tv_sec;
    ent->mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
    ent->link_target = NULL;
    if (!S_ISLNK(st->st_mode))
        return 0;
    ssize_t n = readlinkat(dirfd, name, buf, size - 1);
    if (n < 0)
        return errno;
    buf[n] = '\0';
    ent->link_target = buf;
    return 0;
}
