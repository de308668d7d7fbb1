/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A missing plugin names the package that provides it, when the build set
 * a pattern (configure --with-plugin-package): the substitution itself, its
 * refusal of patterns that are not one "%s" in a name, and the message of
 * SBX_E2001 as this build makes it.
 */
#include "config.h"
#include "testutil.h"

/* The hidden function under test (src/core/plugin_package.c, compiled in). */
int sbx__plugin_package(char *buf, size_t size, const char *pattern, const char *scheme);

START_TEST(pattern_names_the_package)
{
    char buf[64];
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "sandboxio-plugin-%s", "docker"), 1);
    ck_assert_str_eq(buf, "sandboxio-plugin-docker");
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "%s-backend", "e2b"), 1);
    ck_assert_str_eq(buf, "e2b-backend");
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "%s", "local"), 1);
    ck_assert_str_eq(buf, "local");
}
END_TEST

START_TEST(no_pattern_names_nothing)
{
    char buf[64] = "untouched";
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), NULL, "docker"), 0);
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "sandboxio-plugins", "docker"), 0);
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "sandboxio-plugin-%s", NULL), 0);
    ck_assert_str_eq(buf, "untouched");
}
END_TEST

/* Any '%' but the one "%s" would be a format directive in other hands: refused. */
START_TEST(stray_percent_is_refused)
{
    char buf[64] = "untouched";
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "%s-%s", "docker"), 0);
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "%n%s", "docker"), 0);
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "pkg-%s%", "docker"), 0);
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "pkg-%d", "docker"), 0);
    ck_assert_str_eq(buf, "untouched");
}
END_TEST

START_TEST(too_small_a_buffer_writes_nothing)
{
    char buf[12] = "untouched";
    /* "plugin-local" is 12 bytes: no room for its NUL. */
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "plugin-%s", "local"), 0);
    ck_assert_str_eq(buf, "untouched");
    ck_assert_int_eq(sbx__plugin_package(buf, sizeof(buf), "plugin-%s", "loca"), 1);
    ck_assert_str_eq(buf, "plugin-loca");
    ck_assert_int_eq(sbx__plugin_package(buf, 0, "plugin-%s", "a"), 0);
}
END_TEST

/* SBX_E2001 for a scheme no directory holds, in this build's words. */
START_TEST(missing_plugin_error_names_its_package)
{
    sbx_client *c = test_client();
    sbx_sandbox *sb = NULL;
    ck_assert_code(sbx_sandbox_open(&sb, c, "nosuchbackend://", NULL), SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_ptr_null(sb);
    const char *msg = sbx_error_last()->message;
    ck_assert_ptr_nonnull(strstr(msg, "sandboxio-nosuchbackend.so"));
#ifdef SBX_PLUGIN_PACKAGE
    /* The configured pattern around the scheme, spelt out here by hand. */
    const char *pattern = SBX_PLUGIN_PACKAGE, *hole = strstr(pattern, "%s");
    ck_assert_ptr_nonnull(hole);
    char want[256];
    snprintf(want, sizeof(want), "the package %.*snosuchbackend%s provides it",
             (int)(hole - pattern), pattern, hole + 2);
    ck_assert_msg(strstr(msg, want), "\"%s\" lacks \"%s\"", msg, want);
#else
    ck_assert_msg(!strstr(msg, "package"), "no pattern configured, yet: %s", msg);
    ck_assert_ptr_nonnull(strstr(msg, "sandboxio doctor"));
#endif
    sbx_client_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plugin_package");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, pattern_names_the_package);
    tcase_add_test(tc, no_pattern_names_nothing);
    tcase_add_test(tc, stray_percent_is_refused);
    tcase_add_test(tc, too_small_a_buffer_writes_nothing);
    tcase_add_test(tc, missing_plugin_error_names_its_package);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
