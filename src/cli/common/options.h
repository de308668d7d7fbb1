/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/options.h - reading a command's options: usage errors that name
 * the option likely meant, getopt reset, and the commands whose only
 * options are --json and --help.
 */
#ifndef SBX_CLI_COMMON_OPTIONS_H
#define SBX_CLI_COMMON_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "../error-codes.h" /* the tool's own codes */

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

#endif
