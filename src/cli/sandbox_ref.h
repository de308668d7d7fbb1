/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandbox_ref.h - finding a sandbox from what the user typed.
 *
 * A sandbox is named on the command line by "BACKEND:ID" (what `create` and
 * `ps` print), by its name, or by a unique prefix of its id, with or
 * without the backend. Without --dsn every installed backend that can list
 * (capability attach) is searched through "BACKEND://"; --dsn narrows the
 * search to that DSN. A prefix matching two sandboxes is refused with the
 * candidates (SBX_E_AMBIGUOUS_ID).
 */
#ifndef SBX_CLI_SANDBOX_REF_H
#define SBX_CLI_SANDBOX_REF_H

#include <sandboxio/sandboxio.h>

#include "error-codes.h"

/* The DSNs to search: dsn alone if not NULL, else each backend that can list. */
typedef struct sbx_cli_dsns {
    char **v;
    size_t n;
} sbx_cli_dsns;
int sbx_cli_dsns_get(sbx_client *client, const char *dsn, sbx_cli_dsns *out);
void sbx_cli_dsns_release(sbx_cli_dsns *d);

/* Is text's part before its first ':' an installed backend's name? */
int sbx_cli_ref_has_backend(sbx_client *client, const char *text);

/*
 * Attach to the sandbox ref names (policy NULL: its stored one). Returns 0
 * with *out set, or the exit status of the error reported for command cmd.
 */
int sbx_cli_ref_attach(sbx_client *client, const char *cmd, const char *ref, const char *dsn,
                       sbx_sandbox **out);

/*
 * Let go of an attached handle without ending the sandbox; reports a
 * failure. Returns status, or the failure's exit status if status was 0.
 */
int sbx_cli_ref_detach(sbx_sandbox *sandbox, int status);

/*
 * Split "ID:PATH" (ID may itself be "BACKEND:ID"): 1 with *ref and *path
 * malloc'd when text names a path in a sandbox, 0 when it is a host path
 * ("-", or starting with '/' or '.', or without ':'), -1 out of memory.
 * need_colon 0: text without ':' is an ID with path "" (for ls).
 */
int sbx_cli_ref_split(sbx_client *client, const char *text, int need_colon, char **ref,
                      char **path);

/* "BACKEND:ID" of a sandbox (malloc'd), as `create` and `ps` print it. */
char *sbx_cli_ref_of(const char *backend, const char *id);

#endif
