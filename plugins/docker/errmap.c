/*
 * Daemon and transport failures to SBX_E codes. The daemon's own message is
 * kept by the callers (it says which image, which container); the code only
 * classifies it so a program can react: retry, fix the setup, report.
 *
 * The engine's statuses are stable but coarse (500 covers most runtime
 * failures), so a few well-known messages refine them.
 */
#include "docker.h"

#include <errno.h>
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

int dk_errmap_curl(CURLcode cc, long os_errno)
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

void dk_errmap_message(const char *body, size_t len, char *out, size_t out_len)
{
    if (!out_len)
        return;
    out[0] = '\0';
    if (!body || !len)
        return;
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, body, (int)(len > 1 << 20 ? 1 << 20 : len))
                         : NULL;
    json_object *m = NULL;
    if (o && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "message", &m) && json_object_is_type(m, json_type_string)) {
        snprintf(out, out_len, "%s", json_object_get_string(m));
    } else {
        /* Not the engine's JSON: keep the text, one line, printable only. */
        size_t n = 0;
        for (size_t i = 0; i < len && n + 1 < out_len; i++) {
            unsigned char ch = (unsigned char)body[i];
            out[n++] = (ch >= ' ' && ch < 0x7f) ? (char)ch : ' ';
        }
        while (n && out[n - 1] == ' ')
            n--;
        out[n] = '\0';
    }
    json_object_put(o);
    if (tok)
        json_tokener_free(tok);
}
