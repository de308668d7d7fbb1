/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HTTP and transport failures to SBX_E codes: the table every HTTP backend
 * shares, so a program reacts the same way on any provider (retry later,
 * fix the credentials, report). A backend whose provider says more in its
 * messages refines the code itself before falling back to this table.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/http.h>

int sbxu_http_status_code(long status)
{
    switch (status) {
    case 401:
    case 403:
        return SBX_E_BACKEND_AUTH;
    case 404:
        return SBX_E_NOT_FOUND;
    case 409:
        return SBX_E_BACKEND_CONFLICT;
    case 429:
        return SBX_E_BACKEND_RATE_LIMITED;
    default:
        break;
    }
    if (status >= 500 && status < 600)
        return SBX_E_BACKEND_UNAVAILABLE;
    if (status >= 400 && status < 500)
        return SBX_E_BACKEND_FAILED;
    /* No status, or a success or redirect where a failure was being classified. */
    return SBX_E_BACKEND_PROTOCOL;
}

int sbxu_http_fail(sbxu_http *s, const sbxu_http_request *rq, const sbxu_http_response *rs,
                  const char *context, const char *message)
{
    return sbxu_http_fail_as(s, sbxu_http_status_code(rs->status), rq, rs, context, message);
}

int sbxu_http_fail_as(sbxu_http *s, int code, const sbxu_http_request *rq,
                     const sbxu_http_response *rs, const char *context, const char *message)
{
    char msg[1024], wait[64] = "";
    snprintf(msg, sizeof(msg), "%s", message && message[0] ? message : "no message");
    sbxu_http_scrub(s, rq, msg, sizeof(msg));
    if (code == SBX_E_BACKEND_RATE_LIMITED && rs->retry_after_ms >= 0)
        snprintf(wait, sizeof(wait), "; rate limited, retry after %ld s",
                 (rs->retry_after_ms + 999) / 1000);
    return s->host->set_error(code, "%s: %s: %s (HTTP %ld from %s)%s", s->cfg.plugin, context, msg,
                              rs->status, s->cfg.display, wait);
}

int sbxu_http_curl_code(CURLcode cc, long os_errno)
{
    switch (cc) {
    case CURLE_OK:
        return SBX_OK;
    case CURLE_OUT_OF_MEMORY:
        return SBX_E_NOMEM;
    case CURLE_COULDNT_CONNECT:
        if (os_errno == EACCES || os_errno == EPERM)
            return SBX_E_BACKEND_PERMISSION;
        return SBX_E_BACKEND_UNAVAILABLE;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return SBX_E_BACKEND_UNAVAILABLE;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
        return SBX_E_BACKEND_AUTH;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_CONTENT_ENCODING:
        return SBX_E_BACKEND_PROTOCOL;
    default:
        return SBX_E_BACKEND_TRANSPORT;
    }
}
