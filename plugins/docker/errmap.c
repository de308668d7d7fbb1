/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daemon's failures to SBX_E codes. The daemon's own message is
 * kept by the callers (it says which image, which container); the code only
 * classifies it so a program can react: retry, fix the setup, report.
 *
 * The engine's statuses are stable but coarse (500 covers most runtime
 * failures), so a few well-known messages refine them. The engine is not a
 * cloud API: its 403 is a permission, its 409 usually a name in use, so it
 * keeps this table rather than sbxu's sbxu_http_status_code(), and
 * transport failures go through sbxu's sbxu_http_curl_code().
 */
#include "docker.h"

#include <stdio.h>
#include <string.h>

static bool has(const char *message, const char *needle)
{
    return message && strcasestr(message, needle) != NULL;
}

int dk_errmap_status(long status, const char *message)
{
    switch (status) {
    case 400:
        if (has(message, "client version") || has(message, "API version"))
            return SBX_E_BACKEND_PROTOCOL;    /* "client version 1.20 is too old" */
        return SBX_E_BACKEND_FAILED;
    case 401:
        return SBX_E_BACKEND_AUTH;
    case 403:
        return SBX_E_BACKEND_PERMISSION;
    case 404:
        return SBX_E_NOT_FOUND;
    case 409:
        if (has(message, "already in use"))
            return SBX_E_EXISTS;
        return SBX_E_BACKEND_FAILED;          /* "container ... is not running" */
    case 502:
    case 504:
        return SBX_E_BACKEND_TRANSPORT;
    case 503:
        return SBX_E_BACKEND_UNAVAILABLE;
    default:
        break;
    }
    if (status >= 500 && status < 600) {
        if (has(message, "no space left on device") || has(message, "quota"))
            return SBX_E_BACKEND_QUOTA;
        if (has(message, "pull access denied") || has(message, "unauthorized") ||
            has(message, "authentication required"))
            return SBX_E_BACKEND_AUTH;
        if (has(message, "manifest unknown") || has(message, "No such image"))
            return SBX_E_NOT_FOUND;
        /* The daemon could not reach a registry: "dial tcp: lookup ...". */
        if (has(message, "dial tcp") || has(message, "no such host") ||
            has(message, "i/o timeout") || has(message, "TLS handshake timeout"))
            return SBX_E_BACKEND_TRANSPORT;
        return SBX_E_BACKEND_FAILED;
    }
    /* A success or redirect where a failure was being classified, or nonsense. */
    return SBX_E_BACKEND_PROTOCOL;
}

int dk_errmap_limit_warning(const char *text)
{
    if (!has(text, "discarded") && !has(text, "does not support"))
        return 0;
    /* No swap accounting: memory is still limited, only swap is not. */
    if (has(text, "swap"))
        return 0;
    if (has(text, "memory"))
        return SBX_E_POLICY_MEMORY;
    if (has(text, "pids"))
        return SBX_E_POLICY_PIDS;
    if (has(text, "cpu"))
        return SBX_E_POLICY_CPU;
    return 0;
}
