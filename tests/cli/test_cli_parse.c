/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cli_parse.c - the CLI's value parsing, output encoding and exit-code
 * mapping, checked value by value.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

#include "../../src/cli/encode.h"
#include "../../src/cli/common/error.h"
#include "../../src/cli/common/parse.h"

static uint64_t size_of(const char *text)
{
    uint64_t v = 12345;
    ck_assert_int_eq(sbx_cli_parse_size(text, &v), SBX_OK);
    return v;
}

static uint64_t ms_of(const char *text)
{
    uint64_t v = 12345;
    ck_assert_int_eq(sbx_cli_parse_duration_ms(text, &v), SBX_OK);
    return v;
}

START_TEST(sizes_use_powers_of_1024)
{
    ck_assert_uint_eq(size_of("0"), 0);
    ck_assert_uint_eq(size_of("123"), 123);
    ck_assert_uint_eq(size_of("64k"), 64 * 1024);
    ck_assert_uint_eq(size_of("64K"), 64 * 1024);
    ck_assert_uint_eq(size_of("512M"), UINT64_C(512) << 20);
    ck_assert_uint_eq(size_of("2G"), UINT64_C(2) << 30);
    ck_assert_uint_eq(size_of("2g"), UINT64_C(2) << 30);
    ck_assert_uint_eq(size_of("1T"), UINT64_C(1) << 40);
    ck_assert_uint_eq(size_of("1.5k"), 1536);
    ck_assert_uint_eq(size_of("0.5"), 1);   /* part of a byte rounds up */
    ck_assert_uint_eq(size_of("18446744073709551615"), UINT64_MAX);
}
END_TEST

START_TEST(bad_sizes_are_refused)
{
    static const char *const bad[] = {
        "", "12Q", "k", "-1", "+1", " 1", "1 ", "1.", ".5", "1.2.3", "1kk", "1KiB", "1e3",
        "0x10", "18446744073709551616", "16777216T", "1,5",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint64_t v = 7;
        ck_assert_msg(sbx_cli_parse_size(bad[i], &v) == SBX_E_BAD_SIZE, "'%s' parsed", bad[i]);
        ck_assert_uint_eq(v, 7);
    }
    ck_assert_int_eq(sbx_cli_parse_size(NULL, &(uint64_t){ 0 }), SBX_E_BAD_SIZE);
}
END_TEST

START_TEST(durations_default_to_seconds)
{
    ck_assert_uint_eq(ms_of("30"), 30000);
    ck_assert_uint_eq(ms_of("1.5"), 1500);
    ck_assert_uint_eq(ms_of("0.3"), 300);
    ck_assert_uint_eq(ms_of("0"), 0);
    ck_assert_uint_eq(ms_of("500ms"), 500);
    ck_assert_uint_eq(ms_of("2s"), 2000);
    ck_assert_uint_eq(ms_of("2m"), 120000);
    ck_assert_uint_eq(ms_of("1.5m"), 90000);
    ck_assert_uint_eq(ms_of("1h"), 3600000);
    ck_assert_uint_eq(ms_of("0.0001"), 1);   /* never rounds a real timeout down to "none" */
    ck_assert_uint_eq(ms_of("1.5ms"), 2);
}
END_TEST

START_TEST(bad_durations_are_refused)
{
    static const char *const bad[] = {
        "", "abc", "-1", "5d", "1ms2", "ms", "1 s", "1S", "1.", "1.5.5", "99999999999999999999",
        "18446744073709551615h",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint64_t v = 7;
        ck_assert_msg(sbx_cli_parse_duration_ms(bad[i], &v) == SBX_E_BAD_SIZE, "'%s' parsed", bad[i]);
        ck_assert_uint_eq(v, 7);
    }
}
END_TEST

START_TEST(cpus_and_counts)
{
    uint64_t v;

    ck_assert_int_eq(sbx_cli_parse_millis("1.5", &v), SBX_OK);
    ck_assert_uint_eq(v, 1500);
    ck_assert_int_eq(sbx_cli_parse_millis("2", &v), SBX_OK);
    ck_assert_uint_eq(v, 2000);
    ck_assert_int_eq(sbx_cli_parse_millis("many", &v), SBX_E_BAD_SIZE);
    ck_assert_int_eq(sbx_cli_parse_millis("1k", &v), SBX_E_BAD_SIZE);

    ck_assert_int_eq(sbx_cli_parse_uint("64", UINT32_MAX, &v), SBX_OK);
    ck_assert_uint_eq(v, 64);
    ck_assert_int_eq(sbx_cli_parse_uint("1.5", UINT32_MAX, &v), SBX_E_BAD_SIZE);
    ck_assert_int_eq(sbx_cli_parse_uint("4294967296", UINT32_MAX, &v), SBX_E_BAD_SIZE);
    ck_assert_int_eq(sbx_cli_parse_uint("", UINT32_MAX, &v), SBX_E_BAD_SIZE);
}
END_TEST

START_TEST(exit_codes_by_range)
{
    ck_assert_int_eq(sbx_cli_exit_code(SBX_OK), 0);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_DSN_NO_SCHEME), 120);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_USAGE), 120);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_BAD_SIZE), 120);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_PLUGIN_NOT_FOUND), 121);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_PLUGIN_ABI_MAJOR), 121);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_POLICY_NETWORK_NONE), 122);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_PATH_ESCAPE), 122);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_BACKEND_AUTH), 123);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_TIMEOUT), 124);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_OOM), 125);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_START), 125);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_DENIED), 126);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_NOT_FOUND), 127);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_EXEC_ABORTED), 125);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_NOMEM), 125);
    ck_assert_int_eq(sbx_cli_exit_code(SBX_E_SYSTEM), 125);
}
END_TEST

START_TEST(utf8_validation)
{
    ck_assert(sbx_cli_utf8_valid("", 0));
    ck_assert(sbx_cli_utf8_valid("plain ascii\n", 12));
    ck_assert(sbx_cli_utf8_valid("caf\xc3\xa9", 5));
    ck_assert(sbx_cli_utf8_valid("\xe2\x82\xac", 3));            /* euro sign */
    ck_assert(sbx_cli_utf8_valid("\xf0\x9f\x98\x80", 4));        /* emoji */
    ck_assert(sbx_cli_utf8_valid("a\0b", 3));                    /* NUL is UTF-8 */
    ck_assert(!sbx_cli_utf8_valid("\xff", 1));
    ck_assert(!sbx_cli_utf8_valid("\xc3", 1));                   /* cut short */
    ck_assert(!sbx_cli_utf8_valid("\xe2\x82", 2));
    ck_assert(!sbx_cli_utf8_valid("\xc0\xaf", 2));               /* overlong '/' */
    ck_assert(!sbx_cli_utf8_valid("\xe0\x80\xaf", 3));           /* overlong */
    ck_assert(!sbx_cli_utf8_valid("\xed\xa0\x80", 3));           /* surrogate */
    ck_assert(!sbx_cli_utf8_valid("\xf4\x90\x80\x80", 4));       /* past U+10FFFF */
    ck_assert(!sbx_cli_utf8_valid("\x80", 1));                   /* lone continuation */
    ck_assert(!sbx_cli_utf8_valid("\xc3\x28", 2));
}
END_TEST

START_TEST(json_escaped_length_is_what_json_c_writes)
{
    static const char sample[] = "a\"\\/\b\f\n\r\t\x01\x1f\x7f\xc3\xa9";
    size_t len = sizeof(sample) - 1;
    json_object *s = json_object_new_string_len(sample, (int)len);
    const char *text = json_object_to_json_string_ext(s, JSON_C_TO_STRING_NOSLASHESCAPE);

    ck_assert_ptr_nonnull(text);
    /* json-c's text, less its two quotes. */
    ck_assert_uint_eq(sbx_cli_json_escaped_len(sample, len), strlen(text) - 2);
    json_object_put(s);
}
END_TEST

START_TEST(json_encoding_is_the_compact_one)
{
    static char zeros[3000], text[3000];

    memset(text, 'a', sizeof(text));
    ck_assert_uint_eq(sbx_cli_base64_len(0), 0);
    ck_assert_uint_eq(sbx_cli_base64_len(4), 8);
    ck_assert(!sbx_cli_json_wants_base64(text, sizeof(text)));   /* text stays text */
    ck_assert(!sbx_cli_json_wants_base64("line\n", 5));
    ck_assert(sbx_cli_json_wants_base64("\xff", 1));              /* not UTF-8 */
    ck_assert(sbx_cli_json_wants_base64(zeros, sizeof(zeros)));  /* 6x as \u0000 */
    /* Mostly text with a few escapes stays text. */
    text[10] = '\0';
    ck_assert(!sbx_cli_json_wants_base64(text, sizeof(text)));
}
END_TEST

static Suite *cli_parse_suite(void)
{
    Suite *s = suite_create("cli-parse");
    TCase *tc = tcase_create("parse");

    tcase_add_test(tc, sizes_use_powers_of_1024);
    tcase_add_test(tc, bad_sizes_are_refused);
    tcase_add_test(tc, durations_default_to_seconds);
    tcase_add_test(tc, bad_durations_are_refused);
    tcase_add_test(tc, cpus_and_counts);
    tcase_add_test(tc, exit_codes_by_range);
    tcase_add_test(tc, utf8_validation);
    tcase_add_test(tc, json_escaped_length_is_what_json_c_writes);
    tcase_add_test(tc, json_encoding_is_the_compact_one);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_parse_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
