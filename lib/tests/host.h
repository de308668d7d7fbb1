/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A plugin host for the lib/ and plugin tests: it records the last
 * error and every log line, so a test can assert codes and look for leaked
 * secrets; and the Check runner they share.
 */
#ifndef SBXU_TEST_HOST_H
#define SBXU_TEST_HOST_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/plugin.h>

static int last_code;
static char last_msg[2048];
static char logged[16384];

static int test_set_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
    va_end(ap);
    last_code = code;
    return code;
}

static void test_log(int level, const char *plugin, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    (void)level;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    size_t n = strlen(logged);
    snprintf(logged + n, sizeof(logged) - n, "%s: %s\n", plugin, line);
}

static const sbx_host host = {
    .struct_size = sizeof(sbx_host),
    .log = test_log,
    .set_error = test_set_error,
    .alloc = malloc,
    .realloc = realloc,
    .free = free,
};

static inline void host_reset(void)
{
    last_code = 0;
    last_msg[0] = '\0';
    logged[0] = '\0';
}

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
