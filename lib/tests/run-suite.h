/* SPDX-License-Identifier: Apache-2.0 */
/* run-suite.h - the Check runner the lib/ and plugin tests share. */
#ifndef SBXU_TEST_RUN_SUITE_H
#define SBXU_TEST_RUN_SUITE_H

#include <check.h>

/* add_tcase - a test case named name in s, with tests (NULL-terminated); it is returned. */
static inline TCase *add_tcase(Suite *s, const char *name, const TTest *const *tests)
{
    TCase *tc = tcase_create(name);
    for (; *tests; tests++)
        tcase_add_test(tc, *tests);
    suite_add_tcase(s, tc);
    return tc;
}

/* Run a suite; the exit status for automake (0: every test passed). */
static inline int run_suite(Suite *s)
{
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}

#endif
