/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp.h - the parts of `sandboxio cp`: copies between the host and a
 * sandbox (cmd_cp.c) and tar streams on stdin/stdout (cp_tar.c).
 */
#ifndef SBX_CLI_CP_H
#define SBX_CLI_CP_H

#include <stdint.h>
#include <sandboxio/sandboxio.h>

#include "error-codes.h"

/* What one copy out may write on the host when --max-size is not given: 1 GiB. */
#define SBX_CLI_CP_MAX_DEFAULT ((uint64_t)1 << 30)

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

/* Set this process's copy-out bound (0: none) and start counting from 0. */
void cp_bound_set(uint64_t max);
/* Count n more bytes written out: SBX_OK, or SBX_E_COPY_TOO_LARGE (said on stderr) past the bound. */
int cp_bound_take(uint64_t n);
/*
 * Copy the sandbox's file src to fd: zero blocks become holes when fd is a
 * regular file, and the bytes count against the bound. SBX code, not reported
 * (a write failure's errno is said on stderr).
 */
int cp_out_file(sbx_sandbox *sb, const char *src, int fd);

#endif
