/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/common.h - visibility, versions and memory shared by every header.
 */
#ifndef SANDBOXIO_COMMON_H
#define SANDBOXIO_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SBX_BUILDING_LIBRARY) && defined(__GNUC__)
#define SBX_API __attribute__((visibility("default")))
#else
#define SBX_API
#endif

#define SBX_VERSION_MAJOR 0
#define SBX_VERSION_MINOR 1
#define SBX_VERSION_PATCH 0
#define SBX_VERSION_STRING "0.1.0"

/* Log levels (sbx_log_set_handler(), the plugin host's log). */
#define SBX_LOG_ERROR 0
#define SBX_LOG_WARN 1
#define SBX_LOG_INFO 2
#define SBX_LOG_DEBUG 3

/**
 * sbx_version - the library's version string, e.g. "0.1.0".
 *
 * Returns a static string. Thread-safe. Never fails.
 */
SBX_API const char *sbx_version(void);

/**
 * sbx_free - release memory the library handed to the caller.
 *
 * Buffers returned by sbx_file_read(), sbx_native(), sbx_dsn_to_string(),
 * sbx_dsn_redact() and the like are owned by the caller and must be released
 * with this function, never with the caller's own free() (the library may use
 * another allocator).
 * sbx_free(NULL) does nothing. Thread-safe.
 */
SBX_API void sbx_free(void *ptr);

#ifdef __cplusplus
}
#endif
#endif
