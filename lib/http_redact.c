/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Keeping secrets out of text: header lines are redacted by name before a
 * trace sees them, and any text quoting a server (its error body, curl's
 * message) is scrubbed of the secret values themselves.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http_internal.h"

static const char *const builtin[] = {"Authorization", "X-API-Key", "X-Access-Token",
                                      "Proxy-Authorization", "Cookie", NULL};

static bool in_list(const char *name, size_t len, const char *const *list)
{
    for (size_t i = 0; list && list[i]; i++)
        if (strlen(list[i]) == len && strncasecmp(list[i], name, len) == 0)
            return true;
    return false;
}

bool sbxu__http_secret_name(const char *name, size_t len, const char *const *extra)
{
    return in_list(name, len, builtin) || in_list(name, len, extra);
}

void sbxu_http_redact_header(const char *line, const char *const *extra, char *out, size_t len)
{
    const char *colon = strchr(line, ':');
    if (colon && sbxu__http_secret_name(line, (size_t)(colon - line), extra))
        snprintf(out, len, "%.*s: [redacted]", (int)(colon - line), line);
    else
        snprintf(out, len, "%s", line);
}

/* Replace every occurrence of the value of a secret header line in text. */
static void scrub_line(const char *line, const char *const *extra, char *text, size_t size)
{
    static const char mask[] = "[redacted]";
    const char *colon = strchr(line, ':');
    if (!colon || !sbxu__http_secret_name(line, (size_t)(colon - line), extra))
        return;
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    size_t vlen = strlen(v);
    if (vlen < 4)
        return;    /* too short to be a secret worth hiding, and would mask everything */
    char *hit, *from = text;
    while ((hit = strstr(from, v))) {
        size_t tail = strlen(hit + vlen);
        size_t mlen = sizeof(mask) - 1;
        size_t room = size - (size_t)(hit - text) - 1;
        if (mlen > room)
            mlen = room;
        if (tail > room - mlen)
            tail = room - mlen;
        memmove(hit + mlen, hit + vlen, tail);
        memcpy(hit, mask, mlen);
        hit[mlen + tail] = '\0';
        from = hit + mlen;
    }
    /* A bearer token also stands alone after "Bearer ". */
    if (strncasecmp(v, "Bearer ", 7) == 0 && vlen > 11) {
        char bare[1024];
        snprintf(bare, sizeof(bare), "X: %s", v + 7);
        scrub_line(bare, (const char *const[]){"X", NULL}, text, size);
    }
}

void sbxu_http_scrub_headers(const char *const *headers, const char *const *redact, char *text,
                            size_t size)
{
    for (size_t i = 0; size && headers && headers[i]; i++)
        scrub_line(headers[i], redact, text, size);
}

void sbxu_http_scrub(const sbxu_http *s, const sbxu_http_request *rq, char *text, size_t size)
{
    sbxu_http_scrub_headers(s->cfg.headers, s->cfg.redact, text, size);
    sbxu_http_scrub_headers(rq ? rq->headers : NULL, s->cfg.redact, text, size);
}
