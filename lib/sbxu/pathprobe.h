/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/pathprobe.h - where a path of the files API really leads inside a
 * remote sandbox, and what is there (libsbxu).
 *
 * The core hands a backend paths free of "..", but a symlink planted by a
 * command may still lead out of the work dir, and a provider's file API
 * follows links. A backend that can run a shell in the sandbox runs
 * SBXU_PROBE_SCRIPT there first (`sh -c SCRIPT sh FULLPATH [leaf]`: the path
 * resolved with `realpath -m`, its last component left unresolved with
 * "leaf", for remove) and hands its output to sbxu_probe_parse(), which
 * refuses a path that resolves outside the work dir. Racy against a
 * command that swaps a link in between, as any check from outside is: the
 * sandbox is the boundary, not the work dir.
 */
#ifndef SBXU_PATHPROBE_H
#define SBXU_PATHPROBE_H

#include <stdbool.h>
#include <sandboxio/plugin.h>

/* The script: prints the type, a newline, and the resolved path. */
extern const char SBXU_PROBE_SCRIPT[];

enum sbxu_probe_type {
    SBXU_PROBE_NONE, SBXU_PROBE_FILE, SBXU_PROBE_DIR, SBXU_PROBE_LINK, SBXU_PROBE_OTHER,
    SBXU_PROBE_NOTDIR,  /* absent, and a part of its path is not a directory */
};

typedef struct sbxu_probe {
    int type;          /* enum sbxu_probe_type, -1 before a parse */
    char path[1024];   /* resolved, inside the work dir */
} sbxu_probe;

/*
 * sbxu_probe_parse - the script's output (text, NUL-terminated) for rel
 * below home into pr. SBX_OK; SBX_E_BACKEND_PROTOCOL for garbled output;
 * SBX_E_PATH_ESCAPE for a path that resolves outside home (the message
 * names where it leads).
 */
int sbxu_probe_parse(sbxu_probe *pr, const sbx_host *host, const char *plugin, const char *home,
                    const char *rel, char *text);

/*
 * sbxu_probe_wrong_type - the error for rel being of type where a file (or,
 * want_dir, a directory) was needed: SBX_E_NOT_FOUND, SBX_E_NOT_DIRECTORY,
 * SBX_E_IS_DIRECTORY or SBX_E_NOT_REGULAR.
 */
int sbxu_probe_wrong_type(const sbx_host *host, const char *plugin, const char *rel, int type,
                         bool want_dir);

#endif
