/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file.h - writing bytes to a descriptor and a small file whole (libsbxu).
 */
#ifndef SBXU_FILE_H
#define SBXU_FILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Write all len bytes to fd, again after EINTR and short writes. 0, or -1
 * with errno set (EIO when write() took nothing).
 */
int sbxu_write_all(int fd, const void *data, size_t len);

/*
 * Replace name (relative to dirfd, or AT_FDCWD) with a file of mode holding
 * data, so that a reader sees the old file or the new one, whole, never a
 * part: data goes to tmp first (a path in the same directory, relative to
 * dirfd too; a stale one a writer that died left is removed first), made
 * with O_EXCL and O_NOFOLLOW, which is then renamed over name. 0, or an
 * errno (tmp is then gone).
 */
int sbxu_file_replace(int dirfd, const char *tmp, const char *name, const void *data,
                      size_t len, mode_t mode);

/*
 * A name no one else uses in a directory, for a file or link made there
 * before its rename over the real one: prefix and 16 random hex digits
 * (".sbx-cp-0123456789abcdef"). 0, or an errno (getrandom() failed, or size
 * is too small).
 */
int sbxu_temp_name(char *buf, size_t size, const char *prefix);

#endif
