/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where E2B is, for one DSN: e2b://[DOMAIN]?template=ID&timeout=SECONDS.
 * The domain is the DSN's authority, else E2B_DOMAIN, else e2b.app; the
 * control plane is E2B_API_URL, else https://api.<domain>; envd is
 * E2B_SANDBOX_URL for every sandbox, else https://49983-<id>.<domain>
 * (the SDK's form for a domain that is not E2B's own; E2B's proxy serves
 * both). The environment is read as the official SDK reads it
 * (src/connectionConfig.ts). Plain http:// is refused but to a loopback
 * address, so a key or an access token never crosses a network in clear.
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/opts.h>
#include <sbxu/url.h>

static bool template_ok(const char *v)
{
    return sbxu_opts_chars_ok(v, 1, 128, "-_./:");
}

static const sbxu_opt OPTIONS[] = {
    {"template", SBXU_OPT_STRING, "base", offsetof(e2b_endpoint, template_id), template_ok, NULL,
     " is not a template id or alias"},
    {"timeout", SBXU_OPT_SECONDS, "300", offsetof(e2b_endpoint, timeout_s), NULL, NULL, NULL},
    {NULL},
};

int e2b_endpoint_parse(e2b_endpoint *ep, const sbx_host *host, const sbx_plugin_dsn *dsn)
{
    memset(ep, 0, sizeof(*ep));
    if (dsn->path[0] && strcmp(dsn->path, "/") != 0)
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY, "e2b: a DSN takes no path (e2b://DOMAIN?...)");
    const char *domain = dsn->authority[0] ? dsn->authority : getenv("E2B_DOMAIN");
    if (!domain || !*domain)
        domain = "e2b.app";
    if (!sbxu_url_host_ok(domain, E2B_URL_MAX / 2))
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY, "e2b: \"%s\" is not a domain", domain);
    snprintf(ep->domain, sizeof(ep->domain), "%s", domain);

    int rc = sbxu_opts_parse(ep, host, "e2b", OPTIONS, dsn);
    if (rc)
        return rc;
    /* The control plane caps a sandbox's life; 0 would be its default of 15 s. */
    if (ep->timeout_s == 0 || ep->timeout_s > 24 * 3600) {
        sbxu_opts_clear(ep, OPTIONS);
        return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                               "e2b: timeout=%llu: the sandbox's life must be 1 s to 24 h",
                               (unsigned long long)ep->timeout_s);
    }

    const char *api = getenv("E2B_API_URL");
    if (api && *api)
        rc = sbxu_url_check(host, "e2b", "E2B_API_URL", api, ep->api_url, sizeof(ep->api_url));
    else
        snprintf(ep->api_url, sizeof(ep->api_url), "https://api.%s", ep->domain);
    const char *sandbox = getenv("E2B_SANDBOX_URL");
    if (!rc && sandbox && *sandbox)
        rc = sbxu_url_check(host, "e2b", "E2B_SANDBOX_URL", sandbox, ep->sandbox_url,
                           sizeof(ep->sandbox_url));
    if (rc)
        sbxu_opts_clear(ep, OPTIONS);
    return rc;
}

int e2b_endpoint_envd_url(char *out, size_t size, const e2b_endpoint *ep, const char *sandbox_id)
{
    int n = ep->sandbox_url[0]
                ? snprintf(out, size, "%s", ep->sandbox_url)
                : snprintf(out, size, "https://%d-%s.%s", E2B_ENVD_PORT, sandbox_id, ep->domain);
    return n > 0 && (size_t)n < size ? SBX_OK : SBX_E_INVALID_ARGUMENT;
}

void e2b_endpoint_clear(e2b_endpoint *ep)
{
    sbxu_opts_clear(ep, OPTIONS);
}
