/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/url.h - an endpoint URL from the environment, checked (libsbxu).
 *
 * A backend that takes its endpoint from a variable (E2B_API_URL,
 * DAYTONA_API_URL, ...) or from a provider's answer (a proxy URL) sends
 * its key or token there: plain http:// is allowed only to a loopback
 * address, so a credential never crosses a network in clear.
 */
#ifndef SBXU_URL_H
#define SBXU_URL_H

#include <stdbool.h>
#include <stddef.h>
#include <sandboxio/plugin.h>

/* A host name with an optional port (letters, digits, '-', '.', one ':'), shorter than max. */
bool sbxu_url_host_ok(const char *name, size_t max);

/* The host part of a URL (what follows "http://") is a loopback address. */
bool sbxu_url_loopback(const char *after_scheme);

/*
 * sbxu_url_check - value, an http(s) URL, copied into out (size bytes) less
 * its final '/'s. SBX_OK; SBX_E_DSN_BAD_AUTHORITY for what is not an
 * http(s) URL or does not fit; SBX_E_INSECURE_ENDPOINT for http:// to an
 * address not loopback. what names the value in the message ("<plugin>:
 * <what> is not an http(s) URL"), set through host->set_error.
 */
int sbxu_url_check(const sbx_host *host, const char *plugin, const char *what, const char *value,
                  char *out, size_t size);

#endif
