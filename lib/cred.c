/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Credentials from the environment: the only place a backend's secret may
 * come from. The message names the variable so the user knows what to set;
 * the value is never copied anywhere.
 */
#include "config.h"

#include <stdlib.h>
#include <sandboxio/errors.h>

#include <sbxu/cred.h>

int sbxu_cred_get(const char **out, const sbx_host *host, const char *plugin, const char *var,
                 const char *hint)
{
    const char *v = getenv(var);
    *out = NULL;
    if (!v || !v[0])
        return host->set_error(SBX_E_CREDENTIAL_MISSING,
                               "%s: the environment variable %s is not set (credentials are read "
                               "from the environment only)%s%s",
                               plugin, var, hint ? "; " : "", hint ? hint : "");
    *out = v;
    return SBX_OK;
}
