/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/dsn.h - the DSN that selects a backend and its settings.
 *
 *     scheme://[authority][/path][?key=value&...]
 *
 * e.g. "local://", "docker:///var/run/docker.sock?image=busybox",
 * "e2b://?template=base". The scheme names the plugin. Percent-escapes are
 * decoded in the authority, path, keys and values. Secrets never go in a DSN:
 * "user:password@" is refused (SBX_E_DSN_CREDENTIALS); credentials come from
 * the environment.
 *
 * A parsed sbx_dsn is immutable and may be shared between threads.
 */
#ifndef SANDBOXIO_DSN_H
#define SANDBOXIO_DSN_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_dsn sbx_dsn;

/** Longest DSN accepted, in bytes. */
#define SBX_DSN_MAX 4096

/**
 * sbx_dsn_parse - parse text into a new sbx_dsn (free with sbx_dsn_free()).
 *
 * Errors (sbx_error_last()->position gives the offending byte offset):
 * SBX_E_DSN_EMPTY, SBX_E_DSN_NO_SCHEME, SBX_E_DSN_BAD_SCHEME,
 * SBX_E_DSN_BAD_PERCENT, SBX_E_DSN_BAD_QUERY, SBX_E_DSN_DUPLICATE_KEY,
 * SBX_E_DSN_CREDENTIALS, SBX_E_DSN_BAD_CHARACTER, SBX_E_DSN_TOO_LONG,
 * SBX_E_DSN_FRAGMENT, SBX_E_DSN_BAD_AUTHORITY, SBX_E_INVALID_ARGUMENT, SBX_E_NOMEM.
 */
SBX_API int sbx_dsn_parse(sbx_dsn **out, const char *text);
SBX_API void sbx_dsn_free(sbx_dsn *dsn);

/** The scheme, lower case ("docker"). Valid while dsn lives. */
SBX_API const char *sbx_dsn_scheme(const sbx_dsn *dsn);
/** The decoded authority, "" if none. */
SBX_API const char *sbx_dsn_authority(const sbx_dsn *dsn);
/** The decoded path including its leading '/', "" if none. */
SBX_API const char *sbx_dsn_path(const sbx_dsn *dsn);
/** Number of query parameters, in order of appearance. */
SBX_API size_t sbx_dsn_query_count(const sbx_dsn *dsn);
/** The decoded key and value of parameter i (either out may be NULL). */
SBX_API int sbx_dsn_query_at(const sbx_dsn *dsn, size_t i, const char **key, const char **value);
/** The decoded value for key, or NULL if absent. */
SBX_API const char *sbx_dsn_get(const sbx_dsn *dsn, const char *key);

/**
 * sbx_dsn_to_string - the DSN as text, with the value of every query key that
 * looks secret (token, key, secret, password, auth...) replaced by "REDACTED".
 * *out is the caller's: free with sbx_free().
 */
SBX_API int sbx_dsn_to_string(const sbx_dsn *dsn, char **out);

/**
 * sbx_dsn_redact - parse text and print it redacted in one step; if text does
 * not parse, *out is "<invalid DSN>" and the parse error is returned.
 */
SBX_API int sbx_dsn_redact(const char *text, char **out);

#ifdef __cplusplus
}
#endif
#endif
