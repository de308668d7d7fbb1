/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The warm pool (sbx_pool_*) against the testcaps plugin, whose call log
 * shows every open and destroy: the pool fills to its size, a taken
 * sandbox is never handed out again, a run destroys its sandbox, a bad
 * policy is refused before anything is opened, and nothing is left after
 * sbx_pool_free().
 */
#include "config.h"

#include <time.h>

#include "testutil.h"

static size_t count_lines(const char *prefix)
{
    char *log = testcaps_log(), *p = log;
    size_t n = 0, len = strlen(prefix);

    while (p && *p) {
        if (strncmp(p, prefix, len) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    free(log);
    return n;
}

static void wait_ready(sbx_pool *pool, size_t want)
{
    for (int i = 0; i < 500 && sbx_pool_ready(pool) < want; i++)
        nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
    ck_assert_uint_eq(sbx_pool_ready(pool), want);
}

START_TEST(pool_fills_to_its_size_and_never_hands_a_sandbox_out_twice)
{
    sbx_client *client;
    sbx_pool *pool = NULL;
    sbx_sandbox *taken[7] = { NULL };

    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", NULL, 3), SBX_OK);
    wait_ready(pool, 3);
    ck_assert_uint_eq(count_lines("open "), 3);
    /* More than the pool holds: the rest are opened on the spot. */
    for (size_t i = 0; i < 7; i++) {
        ck_assert_code(sbx_pool_take(pool, &taken[i]), SBX_OK);
        ck_assert_ptr_nonnull(taken[i]);
        for (size_t j = 0; j < i; j++)
            ck_assert_ptr_ne(taken[i], taken[j]);
    }
    /* It refills behind the takes. */
    wait_ready(pool, 3);
    ck_assert_uint_eq(count_lines("open "), 10);
    for (size_t i = 0; i < 7; i++)
        sbx_sandbox_free(taken[i]);
    ck_assert_uint_eq(count_lines("destroy"), 7);
    sbx_pool_free(pool);
    /* Nothing left: every sandbox opened was destroyed. */
    ck_assert_uint_eq(count_lines("destroy"), 10);
    sbx_client_free(client);
}
END_TEST

START_TEST(pool_run_uses_a_pooled_sandbox_once_and_destroys_it)
{
    const char *argv[] = { "true", NULL };
    sbx_client *client;
    sbx_pool *pool = NULL;
    sbx_cmd *cmd = NULL;
    sbx_result *result = NULL;

    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", NULL, 1), SBX_OK);
    wait_ready(pool, 1);
    ck_assert_code(sbx_cmd_new(&cmd, argv), SBX_OK);
    ck_assert_code(sbx_pool_run(&result, pool, cmd), SBX_OK);
    ck_assert_ptr_nonnull(result);
    ck_assert_uint_eq(count_lines("destroy"), 1);
    sbx_result_free(result);
    wait_ready(pool, 1);
    ck_assert_uint_eq(count_lines("open "), 2);
    sbx_cmd_free(cmd);
    sbx_pool_free(pool);
    ck_assert_uint_eq(count_lines("destroy"), 2);
    sbx_client_free(client);
}
END_TEST

START_TEST(pool_retire_destroys_in_the_background_and_never_hands_it_out_again)
{
    sbx_client *client;
    sbx_pool *pool = NULL;
    sbx_sandbox *first = NULL, *second = NULL;

    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", NULL, 1), SBX_OK);
    wait_ready(pool, 1);
    ck_assert_code(sbx_pool_take(pool, &first), SBX_OK);
    sbx_pool_retire(pool, first);
    for (int i = 0; i < 500 && count_lines("destroy") < 1; i++)
        nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
    ck_assert_uint_eq(count_lines("destroy"), 1);
    wait_ready(pool, 1);
    ck_assert_code(sbx_pool_take(pool, &second), SBX_OK);
    ck_assert_uint_ge(count_lines("open "), 2);
    /* A retire the thread has not reached yet is done by sbx_pool_free(). */
    sbx_pool_retire(pool, second);
    sbx_pool_free(pool);
    ck_assert_uint_eq(count_lines("destroy"), count_lines("open "));
    sbx_client_free(client);
}
END_TEST

START_TEST(pool_new_refuses_bad_arguments_and_policies_before_opening_anything)
{
    sbx_client *client;
    sbx_pool *pool = (sbx_pool *)1;
    sbx_policy *policy = NULL;

    /* The default policy asks network none; this backend cannot cut it. */
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", NULL, 2), SBX_E_POLICY_NETWORK_NONE);
    ck_assert_ptr_null(pool);
    ck_assert_code(sbx_policy_new(&policy), SBX_OK);
    ck_assert_code(sbx_policy_set_memory(policy, 1 << 20), SBX_OK);
    ck_assert_code(sbx_policy_set_network(policy, SBX_NET_OPEN), SBX_OK);
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", policy, 2), SBX_E_POLICY_MEMORY);
    ck_assert_code(sbx_pool_new(&pool, client, "testcaps://", NULL, 0), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_pool_new(&pool, client, "nope", NULL, 1), SBX_E_DSN_NO_SCHEME);
    ck_assert_code(sbx_pool_new(NULL, client, "testcaps://", NULL, 1), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_pool_take(NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_uint_eq(count_lines("open "), 0);
    sbx_pool_free(NULL);
    sbx_policy_free(policy);
    sbx_client_free(client);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, pool_fills_to_its_size_and_never_hands_a_sandbox_out_twice);
    tcase_add_test(tc, pool_run_uses_a_pooled_sandbox_once_and_destroys_it);
    tcase_add_test(tc, pool_retire_destroys_in_the_background_and_never_hands_it_out_again);
    tcase_add_test(tc, pool_new_refuses_bad_arguments_and_policies_before_opening_anything);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
