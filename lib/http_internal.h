/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals of libsbxu-curl shared by its files; not for plugins.
 */
#ifndef SBXU_HTTP_INTERNAL_H
#define SBXU_HTTP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <sbxu/clock.h>
#include <sbxu/http.h>

/* May rq be sent again? (method or the caller's word; never a streamed upload) */
bool sbxu__http_idempotent(const sbxu_http_request *rq);
/* Why a try with this outcome may be retried (static text), NULL when it may not. */
const char *sbxu__http_retryable(int curl_code, long status);
/* The jittered backoff before try attempt + 1. */
long sbxu__http_backoff_ms(const sbxu_http_retry *r, int attempt, unsigned *seed);
/* A Retry-After value (seconds or an HTTP date) in ms, -1 when absent or unreadable. */
long sbxu__http_retry_after_ms(const char *value, time_t now);
void sbxu__http_sleep_ms(long ms);
/* Is this header name one whose value is secret? */
bool sbxu__http_secret_name(const char *name, size_t len, const char *const *extra);

#endif
