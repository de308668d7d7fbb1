/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DSN parser: every malformed input fails with its exact code at its
 * exact byte, good inputs give the expected parts, printing redacts secrets
 * and parses back to the same DSN.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "../src/core/internal.h"

/* --- malformed input ------------------------------------------------------ */

struct bad_case {
    const char *name;
    const char *text;
    int code;
    long position;
};

static const struct bad_case bad_cases[] = {
    {"empty string", "", SBX_E_DSN_EMPTY, 0},
    {"no colon at all", "local", SBX_E_DSN_NO_SCHEME, 5},
    {"empty scheme", "://x", SBX_E_DSN_NO_SCHEME, 0},
    {"colon not followed by //", "python:3.12", SBX_E_DSN_NO_SCHEME, 6},
    {"single slash", "local:/x", SBX_E_DSN_NO_SCHEME, 5},
    {"upper-case first letter", "Docker://", SBX_E_DSN_BAD_SCHEME, 0},
    {"upper-case later letter", "dOcker://", SBX_E_DSN_BAD_SCHEME, 1},
    {"scheme starts with a digit", "1abc://", SBX_E_DSN_BAD_SCHEME, 0},
    {"dot-dot scheme", "../x://", SBX_E_DSN_BAD_SCHEME, 0},
    {"slash in scheme", "a/b://", SBX_E_DSN_BAD_SCHEME, 1},
    {"underscore in scheme", "a_b://", SBX_E_DSN_BAD_SCHEME, 1},
    {"space", "local:// ", SBX_E_DSN_BAD_CHARACTER, 8},
    {"tab in scheme", "lo\tcal://", SBX_E_DSN_BAD_CHARACTER, 2},
    {"newline in value", "docker://?image=a\nb", SBX_E_DSN_BAD_CHARACTER, 17},
    {"DEL byte", "local://\x7f", SBX_E_DSN_BAD_CHARACTER, 8},
    {"raw UTF-8", "local:///caf\xc3\xa9", SBX_E_DSN_BAD_CHARACTER, 12},
    {"fragment after authority", "fake://#frag", SBX_E_DSN_FRAGMENT, 7},
    {"fragment after query", "docker://?image=busybox#x", SBX_E_DSN_FRAGMENT, 23},
    {"user and password", "docker://user:hunter2@host", SBX_E_DSN_CREDENTIALS, 21},
    {"user only", "docker://user@host", SBX_E_DSN_CREDENTIALS, 13},
    {"encoded at-sign", "docker://user%40host", SBX_E_DSN_CREDENTIALS, 13},
    {"port zero", "docker://host:0", SBX_E_DSN_BAD_AUTHORITY, 14},
    {"port too big", "docker://host:65536", SBX_E_DSN_BAD_AUTHORITY, 14},
    {"empty port", "docker://host:", SBX_E_DSN_BAD_AUTHORITY, 13},
    {"letter in port", "docker://host:12a", SBX_E_DSN_BAD_AUTHORITY, 16},
    {"second colon", "docker://a:1:2", SBX_E_DSN_BAD_AUTHORITY, 12},
    {"port without host", "docker://:2375", SBX_E_DSN_BAD_AUTHORITY, 9},
    {"unclosed bracket", "docker://[::1", SBX_E_DSN_BAD_AUTHORITY, 9},
    {"unopened bracket", "docker://h]", SBX_E_DSN_BAD_AUTHORITY, 10},
    {"bracket not first", "docker://h[::1]", SBX_E_DSN_BAD_AUTHORITY, 10},
    {"junk after IPv6", "docker://[::1]x", SBX_E_DSN_BAD_AUTHORITY, 14},
    {"empty IPv6", "docker://[]", SBX_E_DSN_BAD_AUTHORITY, 9},
    {"bad IPv6 digit", "docker://[::g]", SBX_E_DSN_BAD_AUTHORITY, 12},
    {"escape in an IPv6 address", "docker://[F%5F2]", SBX_E_DSN_BAD_AUTHORITY, 11},
    {"escape in an IPv6 zone", "docker://[::1%25e%41]", SBX_E_DSN_BAD_AUTHORITY, 17},
    {"encoded colon in host", "docker://a%3Ab", SBX_E_DSN_BAD_AUTHORITY, 10},
    {"bad escape in host", "docker://ho%zz", SBX_E_DSN_BAD_PERCENT, 11},
    {"NUL escape in path", "local:///a%00b", SBX_E_DSN_BAD_PERCENT, 10},
    {"non-hex escape", "local:///a%G1", SBX_E_DSN_BAD_PERCENT, 10},
    {"truncated escape", "local:///a%4", SBX_E_DSN_BAD_PERCENT, 10},
    {"lone percent", "local:///a%", SBX_E_DSN_BAD_PERCENT, 10},
    {"bad escape in value", "docker://?image=%zz", SBX_E_DSN_BAD_PERCENT, 16},
    {"NUL escape in key", "docker://?%00=x", SBX_E_DSN_BAD_PERCENT, 10},
    {"double ampersand", "docker://?a=1&&b=2", SBX_E_DSN_BAD_QUERY, 14},
    {"bare words and ampersands", "docker://?a&&b", SBX_E_DSN_BAD_QUERY, 10},
    {"trailing ampersand", "docker://?a=1&", SBX_E_DSN_BAD_QUERY, 13},
    {"lone ampersand", "docker://?&", SBX_E_DSN_BAD_QUERY, 10},
    {"missing equals", "docker://?image", SBX_E_DSN_BAD_QUERY, 10},
    {"missing equals second", "docker://?a=1&image", SBX_E_DSN_BAD_QUERY, 14},
    {"empty key", "docker://?=x", SBX_E_DSN_BAD_QUERY, 10},
    {"duplicate key", "docker://?a=1&a=2", SBX_E_DSN_DUPLICATE_KEY, 14},
    {"duplicate after decoding", "docker://?a=1&b=2&%61=3", SBX_E_DSN_DUPLICATE_KEY, 18},
};

START_TEST(malformed_dsn_fails_with_exact_code_and_position)
{
    const struct bad_case *c = &bad_cases[_i];
    sbx_dsn *dsn = (sbx_dsn *)0x1;

    sbx_error_clear();
    int rc = sbx_dsn_parse(&dsn, c->text);
    ck_assert_msg(rc == c->code, "%s: code %d, expected %d", c->name, rc, c->code);
    ck_assert_msg(dsn == NULL, "%s: *out not reset to NULL", c->name);
    const sbx_error *e = sbx_error_last();
    ck_assert_msg(e != NULL, "%s: no error recorded", c->name);
    ck_assert_int_eq(e->code, c->code);
    ck_assert_msg(e->position == c->position, "%s: position %ld, expected %ld", c->name,
                  e->position, c->position);
    ck_assert_msg(e->message && *e->message, "%s: empty message", c->name);
}
END_TEST

START_TEST(null_text_is_invalid_argument)
{
    sbx_dsn *dsn = NULL;

    ck_assert_int_eq(sbx_dsn_parse(&dsn, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_error_last()->code, SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_error_last()->position, -1);
    ck_assert_ptr_null(dsn);
    ck_assert_int_eq(sbx_dsn_parse(NULL, "local://"), SBX_E_INVALID_ARGUMENT);
}
END_TEST

/* A DSN of exactly n bytes: "local:///aaaa...". */
static char *dsn_of_length(size_t n)
{
    char *s = malloc(n + 1);

    ck_assert_ptr_nonnull(s);
    memcpy(s, "local:///", 9);
    memset(s + 9, 'a', n - 9);
    s[n] = '\0';
    return s;
}

START_TEST(dsn_longer_than_max_is_too_long)
{
    char *text = dsn_of_length(SBX_DSN_MAX + 1);
    sbx_dsn *dsn = NULL;

    ck_assert_int_eq(sbx_dsn_parse(&dsn, text), SBX_E_DSN_TOO_LONG);
    ck_assert_int_eq(sbx_error_last()->position, SBX_DSN_MAX);
    free(text);
}
END_TEST

START_TEST(dsn_of_exactly_max_bytes_parses)
{
    char *text = dsn_of_length(SBX_DSN_MAX);
    sbx_dsn *dsn = NULL;

    ck_assert_int_eq(sbx_dsn_parse(&dsn, text), SBX_OK);
    ck_assert_uint_eq(strlen(sbx_dsn_path(dsn)), SBX_DSN_MAX - 8);
    sbx_dsn_free(dsn);
    free(text);
}
END_TEST

START_TEST(credential_error_never_echoes_the_secret)
{
    static const char *const texts[] = {
        "docker://alice:hunter2@host", "docker://hunter2@host", "docker://hunter2%40host",
    };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        sbx_dsn *dsn = NULL;
        ck_assert_int_eq(sbx_dsn_parse(&dsn, texts[i]), SBX_E_DSN_CREDENTIALS);
        const char *msg = sbx_error_last()->message;
        ck_assert_ptr_null(strstr(msg, "hunter2"));
        ck_assert_ptr_null(strstr(msg, "alice"));
    }
}
END_TEST

/* --- good input ----------------------------------------------------------- */

static sbx_dsn *parse_ok(const char *text)
{
    sbx_dsn *dsn = NULL;
    int rc = sbx_dsn_parse(&dsn, text);

    ck_assert_msg(rc == SBX_OK, "\"%s\" failed with %d: %s", text, rc,
                  sbx_error_last() ? sbx_error_last()->message : "?");
    ck_assert_ptr_nonnull(dsn);
    return dsn;
}

START_TEST(bare_schemes_parse_with_empty_parts)
{
    static const char *const schemes[] = {"local", "fake", "e2b", "a+b.c-d"};
    char text[32];

    for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
        snprintf(text, sizeof(text), "%s://", schemes[i]);
        sbx_dsn *dsn = parse_ok(text);
        ck_assert_str_eq(sbx_dsn_scheme(dsn), schemes[i]);
        ck_assert_str_eq(sbx_dsn_authority(dsn), "");
        ck_assert_str_eq(sbx_dsn_path(dsn), "");
        ck_assert_uint_eq(sbx_dsn_query_count(dsn), 0);
        sbx_dsn_free(dsn);
    }
}
END_TEST

START_TEST(docker_socket_path_and_image)
{
    sbx_dsn *dsn = parse_ok("docker:///var/run/docker.sock?image=busybox");

    ck_assert_str_eq(sbx_dsn_scheme(dsn), "docker");
    ck_assert_str_eq(sbx_dsn_authority(dsn), "");
    ck_assert_str_eq(sbx_dsn_path(dsn), "/var/run/docker.sock");
    ck_assert_uint_eq(sbx_dsn_query_count(dsn), 1);
    ck_assert_str_eq(sbx_dsn_get(dsn, "image"), "busybox");
    ck_assert_ptr_null(sbx_dsn_get(dsn, "Image"));
    sbx_dsn_free(dsn);
}
END_TEST

START_TEST(percent_escapes_are_decoded_everywhere)
{
    sbx_dsn *dsn = parse_ok("docker://?image=python%3A3.12");
    ck_assert_str_eq(sbx_dsn_get(dsn, "image"), "python:3.12");
    sbx_dsn_free(dsn);

    dsn = parse_ok("x://h%61st/a%20b%3fc%2f?k%3D1=v%26w&p=%e2%82%ac");
    ck_assert_str_eq(sbx_dsn_authority(dsn), "hast");
    ck_assert_str_eq(sbx_dsn_path(dsn), "/a b?c/");
    ck_assert_str_eq(sbx_dsn_get(dsn, "k=1"), "v&w");
    ck_assert_str_eq(sbx_dsn_get(dsn, "p"), "\xe2\x82\xac");
    sbx_dsn_free(dsn);
}
END_TEST

START_TEST(query_keeps_plus_equals_and_empty_values)
{
    sbx_dsn *dsn = parse_ok("e2b://?template=base&expr=a+b=c&empty=&q=x?y");
    const char *k, *v;

    ck_assert_uint_eq(sbx_dsn_query_count(dsn), 4);
    ck_assert_int_eq(sbx_dsn_query_at(dsn, 0, &k, &v), SBX_OK);
    ck_assert_str_eq(k, "template");
    ck_assert_str_eq(v, "base");
    ck_assert_int_eq(sbx_dsn_query_at(dsn, 1, &k, NULL), SBX_OK);
    ck_assert_str_eq(k, "expr");
    ck_assert_str_eq(sbx_dsn_get(dsn, "expr"), "a+b=c");
    ck_assert_str_eq(sbx_dsn_get(dsn, "empty"), "");
    ck_assert_str_eq(sbx_dsn_get(dsn, "q"), "x?y");
    ck_assert_int_eq(sbx_dsn_query_at(dsn, 4, &k, &v), SBX_E_INVALID_ARGUMENT);
    sbx_dsn_free(dsn);
}
END_TEST

START_TEST(empty_query_means_no_parameters)
{
    sbx_dsn *dsn = parse_ok("docker://?");

    ck_assert_uint_eq(sbx_dsn_query_count(dsn), 0);
    sbx_dsn_free(dsn);
}
END_TEST

START_TEST(host_port_and_ipv6_authorities)
{
    static const char *const good[][2] = {
        {"docker://host:65535", "host:65535"},
        {"docker://host:1/p", "host:1"},
        {"docker://[::1]:2375", "[::1]:2375"},
        {"docker://[::1]", "[::1]"},
        {"docker://[2001:db8::1]:80?x=1", "[2001:db8::1]:80"},
        {"docker://[fe80::1%25eth0]:2375", "[fe80::1%eth0]:2375"},
        {"docker://127.0.0.1:2375", "127.0.0.1:2375"},
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        sbx_dsn *dsn = parse_ok(good[i][0]);
        ck_assert_str_eq(sbx_dsn_authority(dsn), good[i][1]);
        sbx_dsn_free(dsn);
    }
}
END_TEST

START_TEST(plugin_view_points_into_the_parse)
{
    sbx_dsn *dsn = parse_ok("docker://h:1/p?a=1&b=2");
    const sbx_plugin_dsn *view = &dsn->view;

    ck_assert_uint_eq(view->struct_size, sizeof(sbx_plugin_dsn));
    ck_assert_ptr_eq(view->scheme, sbx_dsn_scheme(dsn));
    ck_assert_ptr_eq(view->authority, sbx_dsn_authority(dsn));
    ck_assert_ptr_eq(view->path, sbx_dsn_path(dsn));
    ck_assert_uint_eq(view->query_count, 2);
    ck_assert_str_eq(view->query[1].key, "b");
    ck_assert_str_eq(view->query[1].value, "2");
    ck_assert_str_eq(dsn->text, "docker://h:1/p?a=1&b=2");
    sbx_dsn_free(dsn);
}
END_TEST

START_TEST(null_handles_are_harmless)
{
    sbx_dsn_free(NULL);
    ck_assert_ptr_null(sbx_dsn_scheme(NULL));
    ck_assert_uint_eq(sbx_dsn_query_count(NULL), 0);
    ck_assert_ptr_null(sbx_dsn_get(NULL, "a"));
    ck_assert_int_eq(sbx_dsn_query_at(NULL, 0, NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_dsn_to_string(NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_dsn_redact("local://", NULL), SBX_E_INVALID_ARGUMENT);
}
END_TEST

/* --- printing and redaction ---------------------------------------------- */

static char *print(const char *text)
{
    sbx_dsn *dsn = parse_ok(text);
    char *out = NULL;

    ck_assert_int_eq(sbx_dsn_to_string(dsn, &out), SBX_OK);
    sbx_dsn_free(dsn);
    return out;
}

START_TEST(secret_values_are_redacted)
{
    static const char *const secret_keys[] = {
        "token", "API_TOKEN", "secret", "client_secret", "password", "Passwd", "key",
        "api_key", "apikey", "API-KEY", "ssh_keys", "x-auth", "Authorization",
        "credentials", "cookie", "session_id", "passphrase",
    };
    char text[128];

    for (size_t i = 0; i < sizeof(secret_keys) / sizeof(secret_keys[0]); i++) {
        snprintf(text, sizeof(text), "e2b://?template=base&%s=abc123", secret_keys[i]);
        char *out = print(text);
        ck_assert_msg(strstr(out, "abc123") == NULL, "%s leaked: %s", secret_keys[i], out);
        ck_assert_msg(strstr(out, "=REDACTED") != NULL, "%s not redacted: %s", secret_keys[i],
                      out);
        ck_assert_ptr_nonnull(strstr(out, "template=base"));
        sbx_free(out);
    }
}
END_TEST

START_TEST(ordinary_values_are_printed)
{
    char *out = print("docker:///var/run/docker.sock?image=busybox&keyboard=us&monk=1");

    ck_assert_str_eq(out, "docker:///var/run/docker.sock?image=busybox&keyboard=us&monk=1");
    sbx_free(out);
}
END_TEST

START_TEST(printing_percent_encodes_what_needs_it)
{
    char *out = print("x://h%2Fx%25y/a%20b%3F%23c?k%26%3D=v%3D%26%0A%C3%A9+");

    /* '=' needs no escape in a value: the first '=' of a pair ends the key. */
    ck_assert_str_eq(out, "x://h%2Fx%25y/a%20b%3F%23c?k%26%3D=v=%26%0A%C3%A9+");
    sbx_free(out);
    out = print("docker://?image=python:3.12");
    ck_assert_str_eq(out, "docker://?image=python:3.12");
    sbx_free(out);
}
END_TEST

START_TEST(redact_prints_a_valid_dsn_without_its_token)
{
    char *out = NULL;

    ck_assert_int_eq(sbx_dsn_redact("e2b://?template=base&token=abc", &out), SBX_OK);
    ck_assert_str_eq(out, "e2b://?template=base&token=REDACTED");
    sbx_free(out);
}
END_TEST

START_TEST(redact_of_an_invalid_dsn_returns_the_parse_error)
{
    char *out = NULL;

    ck_assert_int_eq(sbx_dsn_redact("docker://alice:hunter2@host?token=abc", &out),
                     SBX_E_DSN_CREDENTIALS);
    ck_assert_str_eq(out, "<invalid DSN>");
    ck_assert_int_eq(sbx_error_last()->code, SBX_E_DSN_CREDENTIALS);
    ck_assert_int_eq(sbx_error_last()->position, 22);
    ck_assert_ptr_null(strstr(sbx_error_last()->message, "hunter2"));
    sbx_free(out);

    out = NULL;
    ck_assert_int_eq(sbx_dsn_redact("token=abc", &out), SBX_E_DSN_NO_SCHEME);
    ck_assert_str_eq(out, "<invalid DSN>");
    sbx_free(out);
}
END_TEST

/* --- round trip ----------------------------------------------------------- */

/* Same parts; with redacted_ok a value may read REDACTED (its key looks secret). */
static void assert_same_parts(const sbx_dsn *a, const sbx_dsn *b, bool redacted_ok)
{
    ck_assert_str_eq(sbx_dsn_scheme(a), sbx_dsn_scheme(b));
    ck_assert_str_eq(sbx_dsn_authority(a), sbx_dsn_authority(b));
    ck_assert_str_eq(sbx_dsn_path(a), sbx_dsn_path(b));
    ck_assert_uint_eq(sbx_dsn_query_count(a), sbx_dsn_query_count(b));
    for (size_t i = 0; i < sbx_dsn_query_count(a); i++) {
        const char *ka, *va, *kb, *vb;
        ck_assert_int_eq(sbx_dsn_query_at(a, i, &ka, &va), SBX_OK);
        ck_assert_int_eq(sbx_dsn_query_at(b, i, &kb, &vb), SBX_OK);
        ck_assert_str_eq(ka, kb);
        ck_assert_msg(strcmp(va, vb) == 0 || (redacted_ok && strcmp(vb, "REDACTED") == 0),
                      "value of '%s' changed", ka);
    }
}

/*
 * The round trip for one accepted text: its print is accepted (so never
 * past SBX_DSN_MAX), parses to the same parts and prints again the same.
 */
static void assert_round_trip(const sbx_dsn *first, bool redacted_ok)
{
    char *printed = NULL, *again = NULL;
    sbx_dsn *second = NULL;

    ck_assert_int_eq(sbx_dsn_to_string(first, &printed), SBX_OK);
    ck_assert_msg(sbx_dsn_parse(&second, printed) == SBX_OK, "printed form refused: %s (%s)",
                  sbx_error_last()->message, sbx_error_id(sbx_error_last()->code));
    assert_same_parts(first, second, redacted_ok);
    ck_assert_int_eq(sbx_dsn_to_string(second, &again), SBX_OK);
    ck_assert_str_eq(printed, again);
    sbx_free(printed);
    sbx_free(again);
    sbx_dsn_free(second);
}

/* The fuzz-found case: a long run of '=' in a value used to print as %3D each. */
START_TEST(long_query_of_equals_prints_within_the_limit)
{
    char text[16 + 1400];
    char *out = NULL;

    strcpy(text, "fake://?a=");
    memset(text + 10, '=', 1400);
    text[1410] = '\0';
    sbx_dsn *dsn = parse_ok(text);
    ck_assert_int_eq(sbx_dsn_to_string(dsn, &out), SBX_OK);
    ck_assert_str_eq(out, text);
    assert_round_trip(dsn, true);
    sbx_free(out);
    sbx_dsn_free(dsn);
}
END_TEST

/* A text at the limit made of escapes prints no longer than it is. */
START_TEST(escaped_dsn_at_the_limit_round_trips)
{
    char text[SBX_DSN_MAX + 1];
    size_t n = (size_t)sprintf(text, "x://h/p?k=");

    while (n + 3 <= SBX_DSN_MAX)
        n += (size_t)sprintf(text + n, "%s", (n / 3) % 2 ? "%3D" : "%41");
    text[n] = '\0';
    sbx_dsn *dsn = parse_ok(text);
    assert_round_trip(dsn, true);
    sbx_dsn_free(dsn);
}
END_TEST

/* Many short secret values: "REDACTED" would print past the limit. */
START_TEST(dsn_printing_past_the_limit_when_redacted_is_too_long)
{
    char text[SBX_DSN_MAX + 64];
    size_t n = (size_t)sprintf(text, "x://?");
    sbx_dsn *dsn = NULL;

    for (int i = 0; n + 16 < SBX_DSN_MAX; i++)
        n += (size_t)sprintf(text + n, "%s%dkey=v", i ? "&" : "", i);
    ck_assert_int_eq(sbx_dsn_parse(&dsn, text), SBX_E_DSN_TOO_LONG);
    ck_assert_ptr_null(dsn);
    ck_assert_int_eq(sbx_error_last()->position, 0);
    /* A few of them print fine, and round-trip. */
    dsn = parse_ok("x://?1key=v&2key=&api_token=abc");
    assert_round_trip(dsn, true);
    sbx_dsn_free(dsn);
}
END_TEST

/*
 * The property the fuzz target checks, over many generated texts (fixed
 * seed): whatever parses round-trips.
 */
START_TEST(every_accepted_dsn_round_trips)
{
    static const char *const pieces[] = {
        "a", "Z", "0", "=", "&", "?", "/", ":", "[", "]", "%3D", "%26", "%3F", "%2F", "%25",
        "%23", "%20", "%41", "%C3%A9", "%3A", "%00", "%", "key", "token", "==", "@", "+", "~",
        "[::1]", ":80", "%25eth0", "===========",
    };
    const size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
    unsigned long state = 12345;
    size_t accepted = 0;

    for (int round = 0; round < 20000; round++) {
        char text[SBX_DSN_MAX + 64];
        size_t n = (size_t)sprintf(text, "x://");
        state = state * 6364136223846793005ul + 1442695040888963407ul;
        size_t count = (state >> 33) % 40 + (round % 100 == 0 ? 1200 : 0);
        for (size_t i = 0; i < count; i++) {
            state = state * 6364136223846793005ul + 1442695040888963407ul;
            const char *piece = pieces[(state >> 33) % npieces];
            if (n + strlen(piece) > SBX_DSN_MAX)
                break;
            n += (size_t)sprintf(text + n, "%s", piece);
        }
        sbx_dsn *dsn = NULL;
        if (sbx_dsn_parse(&dsn, text) != SBX_OK)
            continue;
        accepted++;
        assert_round_trip(dsn, true);
        sbx_dsn_free(dsn);
    }
    /* The generator must really reach the printer. */
    ck_assert_uint_gt(accepted, 1000);
}
END_TEST

static const char *const round_trip_dsns[] = {
    "local://",
    "fake://",
    "docker://?",
    "docker:///var/run/docker.sock?image=busybox",
    "docker://?image=python%3A3.12",
    "e2b://?template=base",
    "docker://[::1]:2375/p",
    "docker://[fe80::1%25eth0]:2375",
    "x://h%2Fx%3Fy%20/a%20b%3F%25c?k%26%3D=v%3D%26%0A%C3%A9+&b=&c=d?e",
    "x://a&b=c/?A=1&a=2",
};

START_TEST(printed_dsn_parses_back_to_the_same_parts)
{
    sbx_dsn *first = parse_ok(round_trip_dsns[_i]);

    assert_round_trip(first, false);
    sbx_dsn_free(first);
}
END_TEST

static Suite *dsn_suite(void)
{
    Suite *s = suite_create("dsn");
    TCase *bad = tcase_create("malformed");
    TCase *good = tcase_create("good");
    TCase *out = tcase_create("printing");

    tcase_add_loop_test(bad, malformed_dsn_fails_with_exact_code_and_position, 0,
                        sizeof(bad_cases) / sizeof(bad_cases[0]));
    tcase_add_test(bad, null_text_is_invalid_argument);
    tcase_add_test(bad, dsn_longer_than_max_is_too_long);
    tcase_add_test(bad, credential_error_never_echoes_the_secret);
    suite_add_tcase(s, bad);

    tcase_add_test(good, dsn_of_exactly_max_bytes_parses);
    tcase_add_test(good, bare_schemes_parse_with_empty_parts);
    tcase_add_test(good, docker_socket_path_and_image);
    tcase_add_test(good, percent_escapes_are_decoded_everywhere);
    tcase_add_test(good, query_keeps_plus_equals_and_empty_values);
    tcase_add_test(good, empty_query_means_no_parameters);
    tcase_add_test(good, host_port_and_ipv6_authorities);
    tcase_add_test(good, plugin_view_points_into_the_parse);
    tcase_add_test(good, null_handles_are_harmless);
    suite_add_tcase(s, good);

    tcase_add_test(out, secret_values_are_redacted);
    tcase_add_test(out, ordinary_values_are_printed);
    tcase_add_test(out, printing_percent_encodes_what_needs_it);
    tcase_add_test(out, redact_prints_a_valid_dsn_without_its_token);
    tcase_add_test(out, redact_of_an_invalid_dsn_returns_the_parse_error);
    tcase_add_loop_test(out, printed_dsn_parses_back_to_the_same_parts, 0,
                        sizeof(round_trip_dsns) / sizeof(round_trip_dsns[0]));
    tcase_add_test(out, long_query_of_equals_prints_within_the_limit);
    tcase_add_test(out, escaped_dsn_at_the_limit_round_trips);
    tcase_add_test(out, dsn_printing_past_the_limit_when_redacted_is_too_long);
    tcase_add_test(out, every_accepted_dsn_round_trips);
    suite_add_tcase(s, out);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(dsn_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
