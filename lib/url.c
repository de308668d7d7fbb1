/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Endpoint URLs a backend is given (see sbxu/url.h): http(s) only, and
 * plain http only to loopback.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/url.h>

bool sbxu_url_host_ok(const char *d, size_t max)
{
    if (!*d || strlen(d) >= max || *d == '.' || *d == '-')
        return false;
    int colons = 0;
    for (const char *p = d; *p; p++) {
        if (*p == ':' && ++colons == 1 && p[1])
            continue;
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
            return false;
    }
    return true;
}

bool sbxu_url_loopback(const char *after_scheme)
{
    static const char *const names[] = {"127.", "localhost:", "localhost/", "[::1]"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strncmp(after_scheme, names[i], strlen(names[i])) == 0)
            return true;
    return strcmp(after_scheme, "localhost") == 0;
}

int sbxu_url_check(const sbx_host *host, const char *plugin, const char *what, const char *value,
                  char *out, size_t size)
{
    size_t n = strlen(value);
    while (n && value[n - 1] == '/')
        n--;
    bool https = strncmp(value, "https://", 8) == 0 && n > 8;
    bool http = strncmp(value, "http://", 7) == 0 && n > 7;
    if (n >= size || (!https && !http))
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY, "%s: %s is not an http(s) URL", plugin,
                               what);
    if (http && !sbxu_url_loopback(value + 7))
        return host->set_error(SBX_E_INSECURE_ENDPOINT,
                               "%s: %s=%.*s: plain http:// is only allowed to a loopback "
                               "address; use https://", plugin, what, (int)n, value);
    memcpy(out, value, n);
    out[n] = '\0';
    return SBX_OK;
}
