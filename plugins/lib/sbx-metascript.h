/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbx-metascript.h - modes, mtimes and symlinks set by a command in the
 * sandbox, for the backends whose file API cannot set them (libsbxutil).
 *
 * The backend resolves and checks the path first (its last component left
 * unresolved), then runs `sh -c SCRIPT sh ABSPATH ARGS...`. The scripts act
 * on the entry itself: `touch -h`, `ln -sfT` (a file or link there is
 * replaced, never written through), and `chmod` only once `[ -L ]` said it
 * is no link. Racy against a command that swaps a link in between, as any
 * check from outside is: the sandbox is the boundary. `touch -d @SEC` takes
 * whole seconds (busybox's too): an mtime's nanoseconds are not kept.
 */
#ifndef SBX_LIB_METASCRIPT_H
#define SBX_LIB_METASCRIPT_H

#include <sandboxio/plugin.h>

/* $1 the absolute path, $2 the target; missing parents are made. */
extern const char SBX_SYMLINK_SCRIPT[];
/* $1 the absolute path, $2 an octal mode or "", $3 an mtime in Unix seconds or "". */
extern const char SBX_META_SCRIPT[];

/* meta as SBX_META_SCRIPT's $2 and $3 ("" for what is not asked). */
void sbx_meta_args(const sbx_plugin_file_meta *meta, char mode[16], char mtime[32]);

/*
 * The code for a script's exit status (0: SBX_OK; 5: a mode asked on a
 * symlink, SBX_E_NOT_REGULAR; 6: a directory in the way, SBX_E_IS_DIRECTORY;
 * else SBX_E_BACKEND_FAILED naming what failed on rel).
 */
int sbx_meta_status(const sbx_host *host, const char *plugin, int status, const char *what,
                    const char *rel);

#endif
