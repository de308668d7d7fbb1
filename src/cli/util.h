/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.h - helpers shared by the sandboxio commands: error reporting, exit
 * codes, option errors, size/duration parsing and JSON printing.
 */
#ifndef SBX_CLI_UTIL_H
#define SBX_CLI_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include <sandboxio/exec.h>

/* The TTL `create` gives a sandbox when --ttl is not given: one hour. */
#define SBX_CLI_DEFAULT_TTL_MS (UINT64_C(3600) * 1000)
#define SBX_CLI_DEFAULT_TTL_TEXT "1h"

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
 * -w DIR: an absolute DIR is a directory of the sandbox, any other is
 * relative to its work directory (as docker's -w, which knows only the
 * first). Returns the library's code.
 */
int sbx_cli_cmd_set_cwd(sbx_cmd *cmd, const char *dir);

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

struct option;

/*
 * Turn a getopt_long '?' or ':' result into a usage error. Call with opterr
 * set to 0, right after getopt_long returned opt; options (the table given
 * to getopt_long, or NULL) names the long option an unknown one is likely a
 * typo of ("did you mean --timeout?").
 */
int sbx_cli_option_error(const char *cmd, char **argv, int opt, const struct option *options);

/*
 * The one of the n names a mistyped word is likely meant to be (at most two
 * edits away, fewer than its length; the first of the nearest), or NULL.
 */
const char *sbx_cli_closest(const char *word, const char *const *names, size_t n);

/* Reset getopt so a command can parse its own argv. */
void sbx_cli_getopt_reset(void);

/*
 * Parse the options of a command whose only options are --json and --help;
 * permute != 0 lets options follow operands (getopt_long's default), 0 stops
 * at the first operand. Returns -1 to go on, with *json set and optind at the
 * first operand, else the status to exit with: 0 after --help (usage printed
 * to stdout), the usage error's status otherwise.
 */
int sbx_cli_json_options(const char *cmd, int argc, char **argv, int permute,
                         void (*usage)(FILE *out), int *json);

/*
 * Sizes: an integer or decimal with an optional k, M, G or T suffix (either
 * case, powers of 1024), e.g. 123, 64k, 512M, 1.5G. Fractions of a byte round
 * up. SBX_E_BAD_SIZE when text does not parse or overflows. The parsers
 * below leave *out untouched on failure.
 */
int sbx_cli_parse_size(const char *text, uint64_t *out);

/*
 * Durations in milliseconds: a number of seconds (30, 1.5) or a number with
 * a unit ms, s, m or h (500ms, 2m). Fractions of a millisecond round up.
 * SBX_E_BAD_SIZE when text does not parse or overflows.
 */
int sbx_cli_parse_duration_ms(const char *text, uint64_t *out);

/* A decimal count scaled by 1000: "1.5" -> 1500. SBX_E_BAD_SIZE on error. */
int sbx_cli_parse_millis(const char *text, uint64_t *out);

/* A plain unsigned integer no larger than max. SBX_E_BAD_SIZE on error. */
int sbx_cli_parse_uint(const char *text, uint64_t max, uint64_t *out);

/*
 * Print obj and a newline to stdout (pretty or on one line) and drop the
 * reference. Returns 0, or SBX_E_NOMEM / SBX_E_SYSTEM (already reported).
 */
int sbx_cli_print_json(json_object *obj, int pretty);

/*
 * Add key: value to obj, taking value's reference. A NULL value is a failed
 * json-c constructor: returns SBX_E_NOMEM then, as when the add fails. Use
 * sbx_cli_json_add_null() for a JSON null.
 */
int sbx_cli_json_add(json_object *obj, const char *key, json_object *value);
int sbx_cli_json_add_null(json_object *obj, const char *key);
/* Append value to array, taking its reference; NULL value gives SBX_E_NOMEM. */
int sbx_cli_json_push(json_object *array, json_object *value);

/* The JSON name of an sbx_file_type: "file", "directory", "symlink", "other". */
const char *sbx_cli_file_type_name(int type);

/*
 * Flush stdout and report a write error (a closed pipe, a full disk) as
 * SBX_E_SYSTEM. Returns status unchanged when all went out, else the exit
 * status for the failure.
 */
int sbx_cli_finish_output(int status);

/* write(2) all of data, again after EINTR; 0, or -1 with errno. */
int sbx_cli_write_all(int fd, const void *data, size_t len);

#endif
