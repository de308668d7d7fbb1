/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/cred.h - a backend's credentials, from the environment only
 * (libsbxu).
 *
 * Secrets never come from a DSN (the core refuses user:password@) nor from
 * dotfiles: a backend names the environment variable that holds its key and
 * this reads it. The error names the variable, never a value.
 */
#ifndef SBXU_CRED_H
#define SBXU_CRED_H

#include <sandboxio/plugin.h>

/*
 * sbxu_cred_get - the value of the environment variable var in *out.
 *
 * The string belongs to the environment: copy it before the environment can
 * change, and never log it. An unset or empty variable is
 * SBX_E_CREDENTIAL_MISSING (SBX_E4017), with a message "<plugin>: the
 * environment variable <var> is not set (...); <hint>" through
 * host->set_error; hint (may be NULL) says where the user gets the key. Returns SBX_OK or the
 * code; *out is NULL on failure.
 */
int sbxu_cred_get(const char **out, const sbx_host *host, const char *plugin, const char *var,
                 const char *hint);

#endif
