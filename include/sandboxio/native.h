/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/native.h - the escape hatch to provider-specific operations.
 *
 * Operations reached through sbx_native() are the backend's own, documented
 * by each plugin, and are OUTSIDE the semver contract of this library.
 */
#ifndef SANDBOXIO_NATIVE_H
#define SANDBOXIO_NATIVE_H

#include <sandboxio/common.h>
#include <sandboxio/sandbox.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * sbx_native - run backend operation op with a JSON argument (may be NULL).
 * *json_out (free with sbx_free()) receives the backend's JSON answer.
 * Errors: SBX_E_CAP_NATIVE if the backend has none, SBX_E_INVALID_ARGUMENT
 * for an unknown op, or what the backend reports.
 */
SBX_API int sbx_native(sbx_sandbox *sandbox, const char *op, const char *json_in,
                       char **json_out);

#ifdef __cplusplus
}
#endif
#endif
