/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Printing a parsed DSN, with the values of secret-looking query keys
 * replaced by "REDACTED" (the rule is in docs/dsn.md). What is printed parses
 * back to the same DSN (secret values reading "REDACTED"), and prints again
 * to the same text: the parser refuses a DSN whose printed form would be
 * longer than it accepts (sbx__dsn_printed_len()).
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * Does a query key name a secret? Matching is deliberately broad (fail
 * closed): a harmless key printed as REDACTED costs little, a leaked token a
 * lot. "key" counts only as a word or a word's suffix (api_key, apikey,
 * ssh-keys) so that e.g. "keyboard" stays readable.
 */
static bool key_is_secret(const char *key)
{
    static const char *const needles[] = {
        "token", "secret", "password", "passwd", "passphrase", "auth", "credential",
        "cookie", "session", "bearer", "signature",
    };
    char lower[SBX_DSN_MAX + 1];
    size_t n = 0;

    for (; n < SBX_DSN_MAX && key[n]; n++)
        lower[n] = (char)((key[n] >= 'A' && key[n] <= 'Z') ? key[n] - 'A' + 'a' : key[n]);
    lower[n] = '\0';
    for (size_t i = 0; i < sizeof(needles) / sizeof(needles[0]); i++)
        if (strstr(lower, needles[i]))
            return true;
    for (size_t s = 0; s < n;) {
        size_t e = s;
        while (e < n && is_alnum(lower[e]))
            e++;
        size_t w = e - s;
        if ((w >= 3 && memcmp(lower + e - 3, "key", 3) == 0) ||
            (w >= 4 && memcmp(lower + e - 4, "keys", 4) == 0))
            return true;
        s = e + 1;
    }
    return false;
}

/*
 * What each part must escape besides the bytes check_characters() refuses,
 * '%' and '#': the delimiters that would end it. No more than that: every
 * byte the parser took raw then prints raw, so a printed DSN is never longer
 * than the text it was parsed from, but for redaction. ('=' ends a key but
 * not a value: the first '=' of a pair splits it.)
 */
#define AUTHORITY_SPECIAL "/?@"
#define PATH_SPECIAL "?"
#define KEY_SPECIAL "&="
#define VALUE_SPECIAL "&"

static const char redacted[] = "REDACTED";

static bool needs_escape(unsigned char c, const char *special)
{
    return c < 0x21 || c >= 0x7f || c == '%' || c == '#' || strchr(special, c);
}

/* Append s percent-encoded for a part whose delimiters are special. */
static char *put_encoded(char *p, const char *s, const char *special)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (needs_escape(c, special)) {
            *p++ = '%';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
    }
    return p;
}

static size_t encoded_len(const char *s, const char *special)
{
    size_t n = 0;

    for (; *s; s++)
        n += needs_escape((unsigned char)*s, special) ? 3 : 1;
    return n;
}

size_t sbx__dsn_printed_len(const sbx_dsn *dsn)
{
    size_t n = strlen(dsn->scheme) + 3 + encoded_len(dsn->authority, AUTHORITY_SPECIAL) +
               encoded_len(dsn->path, PATH_SPECIAL);

    for (size_t i = 0; i < dsn->query_count; i++) {
        n += 2 + encoded_len(dsn->query[i].key, KEY_SPECIAL);  /* '?' or '&', and '=' */
        n += key_is_secret(dsn->query[i].key) ? sizeof(redacted) - 1
                                              : encoded_len(dsn->query[i].value, VALUE_SPECIAL);
    }
    return n;
}

SBX_API int sbx_dsn_to_string(const sbx_dsn *dsn, char **out)
{
    char *buf, *p;

    if (!dsn || !out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_dsn_to_string: %s is NULL",
                              dsn ? "out" : "dsn");
    buf = sbx__calloc(sbx__dsn_printed_len(dsn) + 1, 1);
    if (!buf)
        return sbx__error_set(SBX_E_NOMEM, "out of memory while printing a DSN");
    p = stpcpy(buf, dsn->scheme);
    p = stpcpy(p, "://");
    p = put_encoded(p, dsn->authority, AUTHORITY_SPECIAL);
    p = put_encoded(p, dsn->path, PATH_SPECIAL);
    for (size_t i = 0; i < dsn->query_count; i++) {
        *p++ = i == 0 ? '?' : '&';
        p = put_encoded(p, dsn->query[i].key, KEY_SPECIAL);
        *p++ = '=';
        if (key_is_secret(dsn->query[i].key))
            p = stpcpy(p, redacted);
        else
            p = put_encoded(p, dsn->query[i].value, VALUE_SPECIAL);
    }
    *p = '\0';
    *out = buf;
    return SBX_OK;
}

SBX_API int sbx_dsn_redact(const char *text, char **out)
{
    sbx_dsn *dsn = NULL;
    int rc;

    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_dsn_redact: out is NULL");
    *out = NULL;
    rc = sbx_dsn_parse(&dsn, text);
    if (rc) {
        /* Keep the parse error as the thread's last error: strdup sets none on success. */
        *out = sbx__strdup("<invalid DSN>");
        return rc;
    }
    rc = sbx_dsn_to_string(dsn, out);
    sbx_dsn_free(dsn);
    return rc;
}
