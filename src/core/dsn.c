/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DSN parser: scheme://[authority][/path][?key=value&...]. Printing
 * (and redaction) is in dsn_print.c.
 *
 * The grammar and every error are described in docs/dsn.md. Two rules shape
 * this file: every parse error carries the byte offset of the offending input
 * so a caller can point at it, and no message ever quotes the input, because
 * a DSN typed by a user may hold a secret even though it should not.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* --- small character classes ------------------------------------------- */

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alnum(char c) { return is_lower(c) || (c >= 'A' && c <= 'Z') || is_digit(c); }

static bool is_scheme_char(char c)
{
    return is_lower(c) || is_digit(c) || c == '+' || c == '.' || c == '-';
}

static int hex_value(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int nomem(void)
{
    return sbx__error_set(SBX_E_NOMEM, "out of memory while parsing a DSN");
}

/*
 * Decode the len bytes at text+start into a new string. A malformed escape or
 * one that decodes to NUL (which would silently cut the value short) is
 * refused at the offset of its '%'.
 */
static int percent_decode(const char *text, size_t start, size_t len, char **out)
{
    char *dst = sbx__calloc(len + 1, 1);
    size_t n = 0;

    if (!dst)
        return nomem();
    for (size_t i = start; i < start + len; i++) {
        if (text[i] != '%') {
            dst[n++] = text[i];
            continue;
        }
        int hi = i + 1 < start + len ? hex_value(text[i + 1]) : -1;
        int lo = i + 2 < start + len ? hex_value(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            sbx_free(dst);
            return sbx__error_set_pos(SBX_E_DSN_BAD_PERCENT, (long)i,
                                      "DSN: bad percent-escape at byte %zu: '%%' must be followed "
                                      "by two hexadecimal digits", i);
        }
        if (hi == 0 && lo == 0) {
            sbx_free(dst);
            return sbx__error_set_pos(SBX_E_DSN_BAD_PERCENT, (long)i,
                                      "DSN: percent-escape at byte %zu decodes to a NUL byte", i);
        }
        dst[n++] = (char)(hi * 16 + lo);
        i += 2;
    }
    *out = dst;
    return SBX_OK;
}

/* --- the parts ------------------------------------------------------------ */

/* Bytes no part may hold raw: they must be percent-encoded, or are refused. */
static int check_characters(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x21 || c >= 0x7f)
            return sbx__error_set_pos(SBX_E_DSN_BAD_CHARACTER, (long)i,
                                      "DSN: byte 0x%02x at offset %zu is not allowed (spaces, "
                                      "control and non-ASCII bytes must be percent-encoded)", c, i);
        if (c == '#')
            return sbx__error_set_pos(SBX_E_DSN_FRAGMENT, (long)i,
                                      "DSN: '#' at byte %zu: a DSN has no fragment "
                                      "(write '%%23' for a literal '#')", i);
    }
    return SBX_OK;
}

/* The scheme is everything before the first ':', which must start "://". */
static int parse_scheme(sbx_dsn *d, const char *text, size_t len, size_t *rest)
{
    const char *colon = memchr(text, ':', len);
    size_t end = colon ? (size_t)(colon - text) : len;

    if (end == 0)
        return sbx__error_set_pos(SBX_E_DSN_NO_SCHEME, 0,
                                  "DSN: empty scheme (expected e.g. \"local://\")");
    if (!colon || strncmp(colon, "://", 3) != 0)
        return sbx__error_set_pos(SBX_E_DSN_NO_SCHEME, (long)end,
                                  "DSN: expected \"://\" after the scheme at byte %zu "
                                  "(a DSN looks like \"docker://?image=busybox\")", end);
    for (size_t i = 0; i < end; i++) {
        if (i == 0 ? !is_lower(text[i]) : !is_scheme_char(text[i]))
            return sbx__error_set_pos(SBX_E_DSN_BAD_SCHEME, (long)i,
                                      "DSN: bad scheme character at byte %zu (a scheme is a "
                                      "lower-case letter followed by [a-z0-9+.-])", i);
    }
    d->scheme = sbx__calloc(end + 1, 1);
    if (!d->scheme)
        return nomem();
    memcpy(d->scheme, text, end);
    *rest = end + 3;
    return SBX_OK;
}

static int bad_authority(size_t at, const char *what)
{
    return sbx__error_set_pos(SBX_E_DSN_BAD_AUTHORITY, (long)at,
                              "DSN: bad authority at byte %zu: %s", at, what);
}

/* Port: 1..65535 in decimal, raw digits only. */
static int check_port(const char *text, size_t colon, size_t end)
{
    unsigned long port = 0;

    if (colon + 1 == end)
        return bad_authority(colon, "empty port after ':'");
    for (size_t i = colon + 1; i < end; i++) {
        if (!is_digit(text[i]))
            return bad_authority(i, "a port is decimal digits only");
        port = port * 10 + (unsigned long)(text[i] - '0');
        if (port > 65535)
            return bad_authority(colon + 1, "port out of range 1..65535");
    }
    if (port == 0)
        return bad_authority(colon + 1, "port out of range 1..65535");
    return SBX_OK;
}

/* An IPv6 literal: hex digits, ':' and '.', then an optional "%25zone". */
static int check_ipv6(const char *text, size_t open, size_t close)
{
    bool in_zone = false;

    if (close == open + 1)
        return bad_authority(open, "empty IPv6 literal \"[]\"");
    for (size_t i = open + 1; i < close; i++) {
        char c = text[i];
        if (!in_zone && c == '%') {
            if (i + 3 > close || strncmp(text + i, "%25", 3) != 0)
                return bad_authority(i, "in an IPv6 literal only \"%25\" (a zone) may be "
                                        "escaped");
            in_zone = true;
            i += 2;
        } else if (!in_zone && !(hex_value(c) >= 0 || c == ':' || c == '.')) {
            return bad_authority(i, "not a valid character in an IPv6 address");
        } else if (in_zone && !(is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~')) {
            return bad_authority(i, "not a valid character in an IPv6 zone");
        }
    }
    return SBX_OK;
}

/*
 * The structure is checked on the raw text so that positions are exact, and
 * escapes may not smuggle in the characters that carry that structure: a
 * decoded ':' or bracket would print back as a different authority.
 */
static int parse_authority(sbx_dsn *d, const char *text, size_t start, size_t end)
{
    size_t host_end = end;

    for (size_t i = start; i < end; i++) {
        if (text[i] == '@')
            return sbx__error_set_pos(SBX_E_DSN_CREDENTIALS, (long)i,
                                      "DSN: '@' at byte %zu: credentials never go in a DSN; "
                                      "give them to the backend through its environment "
                                      "variables", i);
        if (text[i] == '%' && i + 2 < end && hex_value(text[i + 1]) >= 0 &&
            hex_value(text[i + 2]) >= 0) {
            char c = (char)(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            if (c == '@')
                return sbx__error_set_pos(SBX_E_DSN_CREDENTIALS, (long)i,
                                          "DSN: encoded '@' at byte %zu: credentials never go "
                                          "in a DSN", i);
            if (c == ':' || c == '[' || c == ']')
                return bad_authority(i, "':', '[' and ']' may not be percent-encoded");
        }
    }
    if (start < end && text[start] == '[') {
        const char *close = memchr(text + start, ']', end - start);
        if (!close)
            return bad_authority(start, "'[' without a matching ']'");
        size_t c = (size_t)(close - text);
        int rc = check_ipv6(text, start, c);
        if (rc)
            return rc;
        if (c + 1 < end && text[c + 1] != ':')
            return bad_authority(c + 1, "only \":port\" may follow an IPv6 literal");
        host_end = c + 1;
    } else {
        for (size_t i = start; i < end; i++) {
            if (text[i] == '[' || text[i] == ']')
                return bad_authority(i, text[i] == '[' ? "'[' must open the authority"
                                                       : "']' without a matching '['");
            if (text[i] == ':') {
                host_end = i;
                break;
            }
        }
        if (host_end == start && host_end < end)
            return bad_authority(start, "empty host before the port");
    }
    if (host_end < end) {
        int rc = check_port(text, host_end, end);
        if (rc)
            return rc;
    }
    return percent_decode(text, start, end - start, &d->authority);
}

static int bad_query(size_t at, const char *what)
{
    return sbx__error_set_pos(SBX_E_DSN_BAD_QUERY, (long)at,
                              "DSN: bad query at byte %zu: %s", at, what);
}

/* One "key=value" at [s, e); e is the '&' after it or the end of the text. */
static int parse_pair(sbx_dsn *d, const char *text, size_t s, size_t e, size_t len)
{
    const char *eq = memchr(text + s, '=', e - s);
    sbx_plugin_kv *kv = &d->query[d->query_count];
    char *key = NULL, *value = NULL;
    int rc;

    if (s == e)
        return bad_query(e < len ? e : s - 1, "empty parameter (\"&&\", or a stray '&')");
    if (!eq)
        return bad_query(s, "parameter without '=' (write key=value)");
    if ((size_t)(eq - text) == s)
        return bad_query(s, "empty key before '='");
    size_t q = (size_t)(eq - text);
    if ((rc = percent_decode(text, s, q - s, &key)))
        return rc;
    if ((rc = percent_decode(text, q + 1, e - q - 1, &value))) {
        sbx_free(key);
        return rc;
    }
    for (size_t i = 0; i < d->query_count; i++) {
        if (strcmp(d->query[i].key, key) == 0) {
            sbx_free(key);
            sbx_free(value);
            return sbx__error_set_pos(SBX_E_DSN_DUPLICATE_KEY, (long)s,
                                      "DSN: the query key at byte %zu was already given", s);
        }
    }
    kv->key = key;
    kv->value = value;
    d->query_count++;
    return SBX_OK;
}

/* The query runs from after '?' at start to the end; "" means no parameters. */
static int parse_query(sbx_dsn *d, const char *text, size_t start, size_t len)
{
    size_t pairs = 1;

    if (start == len)
        return SBX_OK;
    for (size_t i = start; i < len; i++)
        pairs += text[i] == '&';
    d->query = sbx__calloc(pairs, sizeof(*d->query));
    if (!d->query)
        return nomem();
    for (size_t s = start;;) {
        const char *amp = memchr(text + s, '&', len - s);
        size_t e = amp ? (size_t)(amp - text) : len;
        int rc = parse_pair(d, text, s, e, len);
        if (rc)
            return rc;
        if (!amp)
            break;
        s = e + 1;
    }
    return SBX_OK;
}

static int parse_all(sbx_dsn *d, const char *text, size_t len)
{
    size_t pos = 0, auth_end, path_end;
    int rc;

    if ((rc = check_characters(text, len)) || (rc = parse_scheme(d, text, len, &pos)))
        return rc;
    auth_end = pos + strcspn(text + pos, "/?");
    if ((rc = parse_authority(d, text, pos, auth_end)))
        return rc;
    path_end = auth_end + strcspn(text + auth_end, "?");
    if ((rc = percent_decode(text, auth_end, path_end - auth_end, &d->path)))
        return rc;
    if (path_end < len && (rc = parse_query(d, text, path_end + 1, len)))
        return rc;
    d->text = sbx__strdup(text);
    if (!d->text)
        return nomem();
    d->view.struct_size = sizeof(d->view);
    d->view.scheme = d->scheme;
    d->view.authority = d->authority;
    d->view.path = d->path;
    d->view.query_count = d->query_count;
    d->view.query = d->query;
    return SBX_OK;
}

SBX_API int sbx_dsn_parse(sbx_dsn **out, const char *text)
{
    size_t len;
    sbx_dsn *d;
    int rc;

    if (!out || !text)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_dsn_parse: %s is NULL", out ? "text" : "out");
    *out = NULL;
    len = strnlen(text, SBX_DSN_MAX + 1);
    if (len == 0)
        return sbx__error_set_pos(SBX_E_DSN_EMPTY, 0, "DSN: empty string (e.g. \"local://\")");
    if (len > SBX_DSN_MAX)
        return sbx__error_set_pos(SBX_E_DSN_TOO_LONG, SBX_DSN_MAX,
                                  "DSN: longer than %d bytes", SBX_DSN_MAX);
    d = sbx__calloc(1, sizeof(*d));
    if (!d)
        return nomem();
    if ((rc = parse_all(d, text, len))) {
        sbx_dsn_free(d);
        return rc;
    }
    /*
     * Printing never lengthens a DSN but for redaction ("REDACTED" for a
     * shorter secret): refuse what would print past the limit, so that
     * every DSN accepted here prints to text accepted here.
     */
    if (sbx__dsn_printed_len(d) > SBX_DSN_MAX) {
        sbx_dsn_free(d);
        return sbx__error_set_pos(SBX_E_DSN_TOO_LONG, 0,
                                  "DSN: printed with its secret values as REDACTED it would be "
                                  "longer than %d bytes", SBX_DSN_MAX);
    }
    *out = d;
    return SBX_OK;
}

SBX_API void sbx_dsn_free(sbx_dsn *dsn)
{
    if (!dsn)
        return;
    for (size_t i = 0; i < dsn->query_count; i++) {
        sbx_free((char *)dsn->query[i].key);
        sbx_free((char *)dsn->query[i].value);
    }
    sbx_free(dsn->query);
    sbx_free(dsn->path);
    sbx_free(dsn->authority);
    sbx_free(dsn->scheme);
    sbx_free(dsn->text);
    sbx_free(dsn);
}

/* --- accessors ------------------------------------------------------------ */

SBX_API const char *sbx_dsn_scheme(const sbx_dsn *dsn) { return dsn ? dsn->scheme : NULL; }
SBX_API const char *sbx_dsn_authority(const sbx_dsn *dsn) { return dsn ? dsn->authority : NULL; }
SBX_API const char *sbx_dsn_path(const sbx_dsn *dsn) { return dsn ? dsn->path : NULL; }
SBX_API size_t sbx_dsn_query_count(const sbx_dsn *dsn) { return dsn ? dsn->query_count : 0; }

SBX_API int sbx_dsn_query_at(const sbx_dsn *dsn, size_t i, const char **key, const char **value)
{
    if (!dsn || i >= dsn->query_count)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_dsn_query_at: %s", dsn ? "index out of range" : "dsn is NULL");
    if (key)
        *key = dsn->query[i].key;
    if (value)
        *value = dsn->query[i].value;
    return SBX_OK;
}

SBX_API const char *sbx_dsn_get(const sbx_dsn *dsn, const char *key)
{
    if (!dsn || !key)
        return NULL;
    for (size_t i = 0; i < dsn->query_count; i++)
        if (strcmp(dsn->query[i].key, key) == 0)
            return dsn->query[i].value;
    return NULL;
}
