/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_doctor_install.c - `sandboxio doctor` names the libsandboxio file it
 * runs with, and finds each install of the library on the machine (here, in
 * a scratch root), so that two of them (/usr and /usr/local) are reported.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor_install.h"

static char root[] = "/tmp/sbx-doctor-install-XXXXXX";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(root, "/tmp/sbx-doctor-install-XXXXXX");
}

/* Create ROOT/REL (with its directories) as an empty file. */
static void touch(const char *rel)
{
    char path[512];
    snprintf(path, sizeof(path), "%s%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        ck_assert_msg(mkdir(path, 0755) == 0 || access(path, F_OK) == 0, "mkdir %s", path);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

START_TEST(no_install_is_found_in_an_empty_root)
{
    struct sbx_cli_install found[2];
    ck_assert_uint_eq(sbx_cli_installs_find(root, found, 2), 0);
}
END_TEST

START_TEST(one_package_install_is_found_under_its_multiarch_dir)
{
    struct sbx_cli_install found[2];
    char want[512];

    touch("/usr/lib/x86_64-linux-gnu/libsandboxio.so.0");
    ck_assert_uint_eq(sbx_cli_installs_find(root, found, 2), 1);
    ck_assert_str_eq(found[0].prefix, "/usr");
    snprintf(want, sizeof(want), "%s/usr/lib/x86_64-linux-gnu/libsandboxio.so.0", root);
    ck_assert_str_eq(found[0].file, want);
}
END_TEST

START_TEST(a_package_and_a_source_install_are_both_found)
{
    struct sbx_cli_install found[2];
    char want[512];

    touch("/usr/lib64/libsandboxio.so.0");
    touch("/usr/local/lib/libsandboxio.so.0");
    touch("/usr/local/lib/sandboxio/plugins/sandboxio-local.so");
    ck_assert_uint_eq(sbx_cli_installs_find(root, found, 2), 2);
    ck_assert_str_eq(found[0].prefix, "/usr");
    ck_assert_str_eq(found[1].prefix, "/usr/local");
    snprintf(want, sizeof(want), "%s/usr/local/lib/libsandboxio.so.0", root);
    ck_assert_str_eq(found[1].file, want);
    /* No room: what fits, and no more. */
    ck_assert_uint_eq(sbx_cli_installs_find(root, found, 1), 1);
}
END_TEST

START_TEST(the_loaded_library_file_is_named)
{
    char buf[4096];
    const char *file = sbx_cli_library_file(buf, sizeof(buf));

    ck_assert_ptr_nonnull(file);
    ck_assert_msg(file[0] == '/' && strstr(file, "/libsandboxio.so"), "loaded from '%s'", file);
    ck_assert_int_eq(access(file, R_OK), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("doctor_install");
    TCase *tc = tcase_create("installs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_install_is_found_in_an_empty_root);
    tcase_add_test(tc, one_package_install_is_found_under_its_multiarch_dir);
    tcase_add_test(tc, a_package_and_a_source_install_are_both_found);
    tcase_add_test(tc, the_loaded_library_file_is_named);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
