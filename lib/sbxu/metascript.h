/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/metascript.h - modes, mtimes and symlinks set by a command in the
 * sandbox, for the backends whose file API cannot set them (libsbxu).
 *
 * The backend resolves and checks the path first (its last component left
 * unresolved), then runs `sh -c SCRIPT sh ABSPATH ARGS...`. The scripts act
 * on the entry itself: `touch -h`, `ln -sfT` (a file or link there is
 * replaced, never written through), and `chmod` only once `[ -L ]` said it
 * is no link. Racy against a command that swaps a link in between, as any
 * check from outside is: the sandbox is the boundary. `touch -d @SEC` takes
 * whole seconds (busybox's too): an mtime's nanoseconds are not kept.
 */
#ifndef SBXU_METASCRIPT_H
#define SBXU_METASCRIPT_H

#include <sandboxio/plugin.h>

/* $1 the absolute path, $2 the target; missing parents are made. */
extern const char SBXU_SYMLINK_SCRIPT[];
/* $1 the absolute path, $2 an octal mode or "", $3 an mtime in Unix seconds or "". */
extern const char SBXU_META_SCRIPT[];

/* meta as SBXU_META_SCRIPT's $2 and $3 ("" for what is not asked). */
void sbxu_meta_args(const sbx_plugin_file_meta *meta, char mode[16], char mtime[32]);

/*
 * The code for a script's exit status (0: SBX_OK; 5: a mode asked on a
 * symlink, SBX_E_NOT_REGULAR; 6: a directory in the way, SBX_E_IS_DIRECTORY;
 * else SBX_E_BACKEND_FAILED naming what failed on rel).
 */
int sbxu_meta_status(const sbx_host *host, const char *plugin, int status, const char *what,
                    const char *rel);

/*
 * The start of a listing script: `sh -c SCRIPT sh DIR MAX` enters DIR and
 * makes its entries (symlinks and dangling ones too, no . or ..) the
 * arguments "$@"; past MAX entries it prints only their count and exits 0,
 * else it prints the count and goes on (exits 0 at once for none). Each
 * name is kept in a variable of its own (v1, v2...) and they become the
 * arguments in one eval: appending to "$@" one by one costs time squared in
 * the number of names (200 s for 65,536 names in dash).
 */
#define SBXU_LIST_NAMES_SH \
    "cd -- \"$1\" || exit 3; n=0; for f in * .*; do case $f in .|..) ;; *)" \
    " if [ -e \"$f\" ] || [ -L \"$f\" ]; then n=$((n+1));" \
    " [ $n -gt \"$2\" ] && { echo $n; exit 0; }; eval \"v$n=\\$f\"; fi;; esac; done;" \
    " echo $n; [ $n -eq 0 ] && exit 0;" \
    " eval \"set -- $(i=1; while [ $i -le $n ]; do printf '\"$v%d\" ' $i; i=$((i+1)); done)\";"
/*
 * Then each symlink's target among "$@", in their order, each followed by a
 * NUL (read with a sentinel, so a target's trailing newlines are kept).
 */
#define SBXU_LIST_TARGETS_SH \
    " for f; do if [ -L \"$f\" ]; then t=$(readlink -- \"$f\"; echo x); printf '%s\\0' \"${t%?x}\";" \
    " fi; done"

#endif
