/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dependency-free helpers of lib/ that the CLI, the core's neighbours and
 * every backend share (libsbxu): the two clocks.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <time.h>

#include <sbxu/clock.h>

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

static Suite *suite(void)
{
    Suite *s = suite_create("lib/ base");
    TCase *t = tcase_create("clock");
    tcase_add_test(t, wall_clock_is_unix_milliseconds);
    tcase_add_test(t, monotonic_clock_never_goes_back_and_counts_sleeps);
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
