/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dependency-free helpers of lib/ that the CLI, the core's neighbours and
 * every backend share (libsbxu): the two clocks, the strict base64 decoder, an exec errno as
 * its code.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sandboxio/errors.h>

#include <sbxu/base64.h>
#include <sbxu/clock.h>
#include <sbxu/exec_start.h>

/* --- clocks --------------------------------------------------------------- */

START_TEST(wall_clock_is_unix_milliseconds)
{
    int64_t before = (int64_t)time(NULL) * 1000;
    int64_t now = sbxu_wall_ms();
    int64_t after = (int64_t)time(NULL) * 1000 + 1000;
    ck_assert_int_ge(now, before);
    ck_assert_int_lt(now, after);
}
END_TEST

START_TEST(monotonic_clock_never_goes_back_and_counts_sleeps)
{
    int64_t a = sbxu_mono_ms();
    uint64_t na = sbxu_mono_ns();
    struct timespec pause = {0, 20 * 1000000};
    nanosleep(&pause, NULL);
    int64_t b = sbxu_mono_ms();
    uint64_t nb = sbxu_mono_ns();
    ck_assert_int_ge(b - a, 20);
    ck_assert_uint_ge(nb - na, 20u * 1000000u);
    /* The two resolutions read the same clock. */
    ck_assert_int_le(b, (int64_t)(sbxu_mono_ns() / 1000000u));
    ck_assert_int_ge(a, (int64_t)(na / 1000000u) - 1);
}
END_TEST

/* --- strict base64 --------------------------------------------------------- */

START_TEST(strict_base64_takes_what_the_encoder_writes)
{
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar", NULL};
    for (size_t i = 0; plain[i]; i++) {
        char *e = sbxu_base64_encode(plain[i], strlen(plain[i]));
        size_t n = 99;
        char *d = sbxu_base64_decode_strict(e, strlen(e), &n);
        ck_assert_ptr_nonnull(d);
        ck_assert_uint_eq(n, strlen(plain[i]));
        ck_assert_mem_eq(d, plain[i], n);
        ck_assert_int_eq(d[n], '\0');
        free(d);
        free(e);
    }
    /* Bytes with a NUL among them come back whole, and their count. */
    size_t n = 0;
    char *d = sbxu_base64_decode_strict("/wBh", 4, &n);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(n, 3);
    ck_assert_mem_eq(d, "\xff\x00" "a", 3);
    free(d);
    /* Only len bytes are read: what follows does not count. */
    d = sbxu_base64_decode_strict("Zm9vYmFyXXXX", 8, &n);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d, "foobar");
    free(d);
}
END_TEST

START_TEST(strict_base64_refuses_anything_else)
{
    static const char *const bad[] = {
        "Zg=",          /* not a multiple of 4 */
        "Zg",           /* unpadded */
        "Zm9vY",        /* a stray character */
        "-_8=",         /* the URL-safe alphabet */
        "Zg==Zg==",     /* padding before the end */
        "Z===",         /* three pads */
        "Zm=v",         /* a pad then a character */
        "Zm9v!A==",     /* outside the alphabet */
        "Zm9 ",         /* whitespace */
        NULL,
    };
    for (size_t i = 0; bad[i]; i++) {
        size_t n = 99;
        ck_assert_msg(sbxu_base64_decode_strict(bad[i], strlen(bad[i]), &n) == NULL,
                      "accepted \"%s\"", bad[i]);
    }
    /* A NUL inside the given length is a bad character, not the end. */
    size_t n;
    ck_assert_ptr_null(sbxu_base64_decode_strict("Zm\0v", 4, &n));
}
END_TEST

/* --- exec errno ----------------------------------------------------------- */

START_TEST(exec_errno_gives_not_found_denied_or_start)
{
    /* Not found: the CLI's 127. */
    ck_assert_int_eq(sbxu_exec_start_code(ENOENT), SBX_E_EXEC_NOT_FOUND);
    ck_assert_int_eq(sbxu_exec_start_code(ENOTDIR), SBX_E_EXEC_NOT_FOUND);
    /* Found, cannot be run: the CLI's 126. */
    ck_assert_int_eq(sbxu_exec_start_code(EACCES), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(EPERM), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(ENOEXEC), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(EISDIR), SBX_E_EXEC_DENIED);
    /* Anything else failed to start. */
    ck_assert_int_eq(sbxu_exec_start_code(E2BIG), SBX_E_EXEC_START);
    ck_assert_int_eq(sbxu_exec_start_code(ETXTBSY), SBX_E_EXEC_START);
    ck_assert_int_eq(sbxu_exec_start_code(0), SBX_E_EXEC_START);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lib/ base");
    TCase *t = tcase_create("clock");
    tcase_add_test(t, wall_clock_is_unix_milliseconds);
    tcase_add_test(t, monotonic_clock_never_goes_back_and_counts_sleeps);
    suite_add_tcase(s, t);
    t = tcase_create("base64");
    tcase_add_test(t, strict_base64_takes_what_the_encoder_writes);
    tcase_add_test(t, strict_base64_refuses_anything_else);
    suite_add_tcase(s, t);
    t = tcase_create("exec");
    tcase_add_test(t, exec_errno_gives_not_found_denied_or_start);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
