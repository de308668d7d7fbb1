/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp.h - the parts of `sandboxio cp`: copies between the host and a
 * sandbox (cmd_cp.c) and tar streams on stdin/stdout (cp_tar.c).
 */
#ifndef SBX_CLI_CP_H
#define SBX_CLI_CP_H

#include <sandboxio/sandboxio.h>

/* "a" + "/" + "b", with "" and trailing '/' handled; malloc'd, NULL out of memory. */
char *cp_join(const char *a, const char *b);
/* The last component of path ("" for ""). */
const char *cp_base(const char *path);

/* Is path a directory of the sandbox? 1 yes, 0 a file, else an SBX code. */
int cp_remote_is_dir(sbx_sandbox *sb, const char *path);

/* SBX_OK if the backend keeps modes, mtimes and symlinks; else SBX_E_CAP_FILE_META (reported). */
int cp_need_meta(sbx_sandbox *sb);
/* The entry of path as its parent lists it; *keep holds its strings (free it). */
int cp_remote_stat(sbx_sandbox *sb, const char *path, sbx_dirent *out, sbx_dirlist **keep);
/* Host path src (file, symlink or tree) to sandbox path dst. SBX code (reported). */
int cp_copy_in(sbx_sandbox *sb, const char *src, const char *dst);
/* Sandbox path src (file, symlink or tree) to host path dst. SBX code (reported). */
int cp_copy_out(sbx_sandbox *sb, const char *src, const char *dst);

/* Write the tar stream on fd under the sandbox directory dir. SBX code (reported). */
int cp_tar_in(sbx_sandbox *sb, int fd, const char *dir);
/* Write path of the sandbox (file or directory, recursive) as a tar stream on fd. */
int cp_tar_out(sbx_sandbox *sb, const char *path, int fd);

#endif
