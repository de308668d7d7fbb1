/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/errors.h - stable error codes and the thread-local error object.
 *
 * Every function of the library that can fail returns an int: SBX_OK (0) on
 * success, otherwise one of the codes below (always positive). The details of
 * the most recent failure on the calling thread are kept in an sbx_error that
 * sbx_error_last() returns.
 *
 * Codes are part of the semver contract: a number is never reused or
 * renumbered. Each code NNNN has a page docs/errors/SBX_ENNNN.md. The codes
 * are listed, each with its one-line summary, in sandboxio/error-codes.def.
 * Ranges: 1xxx usage, DSN, configuration; 2xxx plugin loading and ABI;
 * 3xxx policy and capability refusals; 4xxx backend and provider;
 * 5xxx execution; 9xxx internal.
 *
 * The sandboxio tool has codes of its own, never returned by a library
 * function (its usage errors, and one code for an outcome that the C API
 * reports in an sbx_result: an OOM kill, truncated output). They are not in
 * this enum; sbx_error_id(), sbx_strerror() and sbx_error_docs_url() know
 * them too, so the tool's messages and JSON name them like any other.
 * SBX_E_EXEC_TIMEOUT is the C API's too: a result says it with
 * sbx_result_timed_out().
 */
#ifndef SANDBOXIO_ERRORS_H
#define SANDBOXIO_ERRORS_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The codes: one line each in sandboxio/error-codes.def, with its summary. */
typedef enum sbx_code {
    SBX_OK = 0,
#define SBX_ERROR(name, number, summary) name = number,
#include <sandboxio/error-codes.def>
#undef SBX_ERROR
} sbx_code;

/** Details of a failure. Valid until the next library call on the same thread. */
typedef struct sbx_error {
    int code;               /* an sbx_code */
    const char *id;         /* "SBX_E1003" */
    const char *message;    /* human-readable detail, never contains a secret */
    const char *docs_url;   /* page explaining the code */
    long position;          /* byte offset in the DSN for DSN errors, else -1 */
    int sys_errno;          /* errno behind SBX_E_SYSTEM and kin, else 0 */
} sbx_error;

/**
 * sbx_error_last - details of the last failure on the calling thread.
 *
 * Returns NULL if no call on this thread has failed since the last
 * sbx_error_clear(). The object is thread-local and owned by the library.
 */
SBX_API const sbx_error *sbx_error_last(void);

/** sbx_error_clear - forget the calling thread's last error. */
SBX_API void sbx_error_clear(void);

/**
 * sbx_strerror - the catalog's one-line summary of a code.
 *
 * Returns a static string for any input, "unknown error code" for numbers
 * that are not codes. Thread-safe.
 */
SBX_API const char *sbx_strerror(int code);

/** sbx_error_id - "SBX_Ennnn" for a code, "SBX_E????" for a non-code. Static. */
SBX_API const char *sbx_error_id(int code);

/** sbx_error_docs_url - the docs page of a code (static string, NULL for non-codes). */
SBX_API const char *sbx_error_docs_url(int code);

/**
 * sbx_error_catalog - iterate the catalog: the code at index i, or 0 past the end.
 * Used by the CLI and the tests that tie codes to docs pages.
 */
SBX_API int sbx_error_catalog(size_t i);

#ifdef __cplusplus
}
#endif
#endif
