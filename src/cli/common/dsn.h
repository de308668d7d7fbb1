/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/dsn.h - the one rule for the DSN a command uses when none is given
 * (docs/cli.md): $SANDBOXIO_DSN when set and not empty, else
 * SBX_CLI_DEFAULT_DSN. A command's --dsn, and a profile's dsn, come first
 * (policy_opts_dsn()).
 */
#ifndef SBX_CLI_COMMON_DSN_H
#define SBX_CLI_COMMON_DSN_H

/* The backend used when neither --dsn, a profile nor SANDBOXIO_DSN names one. */
#define SBX_CLI_DEFAULT_DSN "local://"

/* $SANDBOXIO_DSN, or NULL when it is unset or empty (an empty one names nothing). */
const char *sbx_cli_env_dsn(void);

/* The DSN when none is given: sbx_cli_env_dsn(), else SBX_CLI_DEFAULT_DSN. */
const char *sbx_cli_default_dsn(void);

#endif
