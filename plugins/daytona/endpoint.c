/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where Daytona is, for one DSN:
 * daytona://[HOST]?snapshot=NAME|image=REF&target=REGION&ttl=SECONDS&start_timeout=SECONDS.
 * The control plane is https://HOST/api for a DSN that names a host, else
 * DAYTONA_API_URL, else Daytona's own (the SDK reads the same variable,
 * esm/Daytona.js). Plain http:// is refused but to a loopback address, so
 * the key never crosses a network in clear.
 */
#include "daytona.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/opts.h>
#include <sbxu/url.h>

/* A snapshot name, an image reference or a region: "" is the default. */
static bool name_ok(const char *v)
{
    return sbxu_opts_chars_ok(v, 0, 255, "-_./:@");
}

static const sbxu_opt OPTIONS[] = {
    {"snapshot", SBXU_OPT_STRING, "", offsetof(daytona_endpoint, snapshot), name_ok, NULL,
     " is not a snapshot name"},
    {"image", SBXU_OPT_STRING, "", offsetof(daytona_endpoint, image), name_ok, NULL,
     " is not an image reference"},
    {"target", SBXU_OPT_STRING, "", offsetof(daytona_endpoint, target), name_ok, NULL,
     " is not a region"},
    {"ttl", SBXU_OPT_SECONDS, "3600", offsetof(daytona_endpoint, ttl_s), NULL, NULL, NULL},
    {"start_timeout", SBXU_OPT_SECONDS, "120", offsetof(daytona_endpoint, start_s), NULL, NULL,
     NULL},
    {NULL},
};

int daytona_url_check(const sbx_host *host, const char *what, const char *value, char *out,
                      size_t size)
{
    return sbxu_url_check(host, DAYTONA_NAME, what, value, out, size);
}

int daytona_endpoint_parse(daytona_endpoint *ep, const sbx_host *host, const sbx_plugin_dsn *dsn)
{
    memset(ep, 0, sizeof(*ep));
    if (dsn->path[0] && strcmp(dsn->path, "/") != 0)
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY,
                               "daytona: a DSN takes no path (daytona://HOST?...)");
    if (dsn->authority[0] && !sbxu_url_host_ok(dsn->authority, DAYTONA_URL_MAX / 2))
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY, "daytona: \"%s\" is not a host name",
                               dsn->authority);
    int rc = sbxu_opts_parse(ep, host, DAYTONA_NAME, OPTIONS, dsn);
    if (rc)
        return rc;
    if (ep->snapshot[0] && ep->image[0])
        rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                             "daytona: give snapshot=NAME or image=REF, not both");
    /* ttlMinutes counts whole minutes; Daytona keeps a sandbox at most a day here. */
    else if (ep->ttl_s < 60 || ep->ttl_s > 24 * 3600)
        rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                             "daytona: ttl=%llu: the sandbox's life must be 60 s to 24 h",
                             (unsigned long long)ep->ttl_s);
    else if (ep->start_s == 0 || ep->start_s > 3600)
        rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                             "daytona: start_timeout=%llu: must be 1 s to 1 h",
                             (unsigned long long)ep->start_s);
    const char *env = getenv("DAYTONA_API_URL");
    if (rc == SBX_OK && dsn->authority[0])
        snprintf(ep->api_url, sizeof(ep->api_url), "https://%s/api", dsn->authority);
    else if (rc == SBX_OK && env && *env)
        rc = daytona_url_check(host, "DAYTONA_API_URL", env, ep->api_url, sizeof(ep->api_url));
    else if (rc == SBX_OK)
        snprintf(ep->api_url, sizeof(ep->api_url), "%s", DAYTONA_DEFAULT_API);
    if (rc)
        sbxu_opts_clear(ep, OPTIONS);
    return rc;
}

void daytona_endpoint_clear(daytona_endpoint *ep)
{
    sbxu_opts_clear(ep, OPTIONS);
}
