/* SPDX-License-Identifier: Apache-2.0 */
/*
 * When a failed try is tried again, and after how long. Only idempotent
 * requests are retried (a POST may have been carried out before the answer
 * was lost), only on failures that say "try later": nothing accepted the
 * connection, 429, 502, 503, 504. The wait doubles from base_ms up to
 * max_ms with full jitter (a random point in the upper half), so clients
 * that failed together do not come back together; a Retry-After the server
 * sent wins. No wait runs past the request's deadline.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <curl/curl.h>

#include <sbxu/clock.h>

#include "http_internal.h"

bool sbxu__http_idempotent(const sbxu_http_request *rq)
{
    if (rq->retry == SBXU_HTTP_RETRY_NEVER || rq->upload)
        return false;
    if (rq->retry == SBXU_HTTP_RETRY_ALWAYS)
        return true;
    static const char *const safe[] = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", NULL};
    for (size_t i = 0; safe[i]; i++)
        if (strcmp(rq->method, safe[i]) == 0)
            return true;
    return false;
}

const char *sbxu__http_retryable(int curl_code, long status)
{
    switch (curl_code) {
    case CURLE_COULDNT_CONNECT:
        return "connection refused";
    case CURLE_COULDNT_RESOLVE_HOST:
        return "host not found";
    case CURLE_OK:
        break;
    default:
        return NULL;
    }
    switch (status) {
    case 429:
        return "rate limited (429)";
    case 502:
    case 503:
    case 504:
        return "server unavailable (5xx)";
    default:
        return NULL;
    }
}

long sbxu__http_backoff_ms(const sbxu_http_retry *r, int attempt, unsigned *seed)
{
    long base = r->base_ms > 0 ? r->base_ms : 100;
    long cap = r->max_ms > 0 ? r->max_ms : 10000;
    long d = base;
    for (int i = 1; i < attempt && d < cap; i++)
        d *= 2;
    if (d > cap)
        d = cap;
    /* Full jitter over the upper half: [d/2, d]. */
    return d / 2 + (long)(rand_r(seed) % (unsigned)(d / 2 + 1));
}

long sbxu__http_retry_after_ms(const char *value, time_t now)
{
    if (!value)
        return -1;
    char *end;
    long s = strtol(value, &end, 10);
    if (end != value && *end == '\0' && s >= 0)
        return s > 86400 ? 86400000L : s * 1000;
    /* The other form is an HTTP date. */
    time_t when = curl_getdate(value, NULL);
    if (when < 0)
        return -1;
    return when <= now ? 0 : (long)(when - now) * 1000;
}

void sbxu__http_sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        continue;
}
