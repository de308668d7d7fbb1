/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/dsn.c - the DSN a command uses when none is given: one rule for
 * run, create, demo, mcp, gc and doctor, so that they never disagree about
 * which backend "the default" is.
 */
#include "config.h"

#include <stdlib.h>

#include "dsn.h"

const char *sbx_cli_env_dsn(void)
{
    const char *env = getenv("SANDBOXIO_DSN");

    return env && *env ? env : NULL;
}

const char *sbx_cli_default_dsn(void)
{
    const char *env = sbx_cli_env_dsn();

    return env ? env : SBX_CLI_DEFAULT_DSN;
}
