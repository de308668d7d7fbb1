/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/fsmeta.h - file metadata (mode, mtime, symlinks) on a host
 * filesystem, for the backends whose sandbox files are reached from the
 * client through a directory descriptor (fake, local) (libsbxu).
 *
 * Every call works on one name under an already resolved directory
 * descriptor and never follows that name when it is a symlink: a link
 * planted there by a command in the sandbox is changed or replaced itself,
 * never written through. Each returns 0 or an errno value for the caller's
 * own errno-to-code map.
 */
#ifndef SBXU_FSMETA_H
#define SBXU_FSMETA_H

#include <stddef.h>
#include <sys/stat.h>
#include <sandboxio/plugin.h>

/*
 * Apply meta to dirfd/name. A mode asked on a symlink (which has none of
 * its own) gives EOPNOTSUPP; a time on a symlink is the link's own.
 */
int sbxu_fsmeta_set(int dirfd, const char *name, const sbx_plugin_file_meta *meta);

/*
 * Make dirfd/name a symlink to target (kept verbatim): made under a
 * temporary name and renamed over what is there, so a file or link there
 * is replaced, never followed; a directory there gives EISDIR.
 */
int sbxu_fsmeta_symlink(int dirfd, const char *name, const char *target);

/*
 * Fill ent's minor-3 members for dirfd/name whose lstat is st: the mtime,
 * and for a symlink its target, read into buf (size bytes) which must
 * outlive the use of ent. 0, or the errno of readlinkat.
 */
int sbxu_fsmeta_fill(int dirfd, const char *name, const struct stat *st, sbx_plugin_dirent *ent,
                    char *buf, size_t size);

#endif
