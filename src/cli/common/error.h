/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/error.h - how a command fails: the exit statuses of sandboxio's own failures,
 * and the error reports (code, message, man page and docs URL) on stderr.
 */
#ifndef SBX_CLI_COMMON_ERROR_H
#define SBX_CLI_COMMON_ERROR_H

#include "../error-codes.h" /* the tool's own codes */

/*
 * Exit statuses of sandboxio's own failures. `run` otherwise exits with the
 * command's status (128+N when signal N killed it), so these sit just below
 * the 126/127/128+N range shells use.
 */
#define SBX_CLI_EXIT_USAGE 120    /* 1xxx: usage, DSN, configuration */
#define SBX_CLI_EXIT_PLUGIN 121   /* 2xxx: plugin loading and ABI */
#define SBX_CLI_EXIT_POLICY 122   /* 3xxx: policy or capability refused */
#define SBX_CLI_EXIT_BACKEND 123  /* 4xxx: backend and provider */
#define SBX_CLI_EXIT_TIMEOUT 124  /* the command timed out */
#define SBX_CLI_EXIT_OTHER 125    /* other 5xxx, 9xxx */
#define SBX_CLI_EXIT_CANNOT_EXEC 126 /* SBX_E5012: found, not executable */
#define SBX_CLI_EXIT_NOT_FOUND 127 /* SBX_E5011: no such program */

/* The exit status for an sbx_code (SBX_OK gives 0). */
int sbx_cli_exit_code(int code);

/*
 * Print "sandboxio: SBX_Ennnn: <message>", "  see: man SBX_Ennnn" and
 * "   or: <docs url>" to stderr and return the exit status for code.
 */
int sbx_cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Same, for a code a library call returned: the message is the library's
 * detail (sbx_error_last()) when it is about this code, else the catalog's
 * summary; context, if not NULL, is prefixed ("opening fake://: ...").
 */
int sbx_cli_error_lib(int code, const char *context);

/*
 * The last error this process reported (its code in *code, 0 if none), with
 * its context, as printed; NULL if none. For a --json outcome.
 */
const char *sbx_cli_last_error(int *code);

/* The detail of the library's last failure if it is about code, else the catalog summary. */
const char *sbx_cli_error_message(int code);

/*
 * Report a usage error of command cmd (NULL for the global options) with
 * SBX_E_USAGE and a hint to --help; returns SBX_CLI_EXIT_USAGE.
 */
int sbx_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
