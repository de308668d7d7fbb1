/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The policy is enforced fail-closed: a control the backend cannot guarantee
 * refuses the open with the code naming it, and the plugin creates nothing.
 */
#include "testutil.h"

static sbx_client *client;
static sbx_policy *policy;

static void setup(void)
{
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
}

static void teardown(void)
{
    sbx_policy_free(policy);
    policy = NULL;
    sbx_client_free(client);
    client = NULL;
}

/* Open must fail with code, and the plugin must never have been asked to open. */
static void assert_refused(int code)
{
    sbx_sandbox *sb = (sbx_sandbox *)1;
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), code);
    ck_assert_ptr_null(sb);
    ck_assert_msg(!testcaps_log_has("open"), "the plugin was asked to open a refused sandbox");
    const sbx_error *e = sbx_error_last();
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, code);
    /* A refusal names the backend that could not guarantee the control. */
    if (code / 1000 == 3)
        ck_assert_ptr_nonnull(strstr(e->message, "testcaps"));
}

static void assert_opens(void)
{
    sbx_sandbox *sb = NULL;
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    ck_assert(testcaps_log_has("open"));
    sbx_sandbox_free(sb);
}

START_TEST(default_network_none_refused_without_net_none_cap)
{
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NAMESPACE);
    assert_refused(SBX_E_POLICY_NETWORK_NONE);
}
END_TEST

START_TEST(null_policy_means_defaults_and_is_refused_too)
{
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NAMESPACE);
    sbx_sandbox *sb = NULL;
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", NULL), SBX_E_POLICY_NETWORK_NONE);
    ck_assert(!testcaps_log_has("open"));
}
END_TEST

START_TEST(network_none_accepted_with_cap)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0"));
}
END_TEST

START_TEST(min_tier_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_min_tier(policy, SBX_TIER_CONTAINER), SBX_OK);
    assert_refused(SBX_E_POLICY_TIER);
}
END_TEST

START_TEST(min_tier_unknown_backend_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_UNKNOWN);
    ck_assert_int_eq(sbx_policy_set_min_tier(policy, SBX_TIER_NAMESPACE), SBX_OK);
    assert_refused(SBX_E_POLICY_TIER);
}
END_TEST

START_TEST(min_tier_met)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_MICROVM);
    ck_assert_int_eq(sbx_policy_set_min_tier(policy, SBX_TIER_CONTAINER), SBX_OK);
    assert_opens();
}
END_TEST

START_TEST(network_allowlist_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_network(policy, SBX_NET_ALLOWLIST), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(policy, "pypi.org:443"), SBX_OK);
    assert_refused(SBX_E_POLICY_NETWORK_ALLOWLIST);
}
END_TEST

START_TEST(network_allowlist_without_hosts_is_bad_policy)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_ALLOWLIST, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_network(policy, SBX_NET_ALLOWLIST), SBX_OK);
    assert_refused(SBX_E_BAD_POLICY);
}
END_TEST

START_TEST(hosts_without_allowlist_mode_is_bad_policy)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_allow_host(policy, "example.com"), SBX_OK);
    assert_refused(SBX_E_BAD_POLICY);
}
END_TEST

START_TEST(network_open_needs_no_cap)
{
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NONE);
    ck_assert_int_eq(sbx_policy_set_network(policy, SBX_NET_OPEN), SBX_OK);
    assert_opens();
    ck_assert(testcaps_log_has("open network=2"));
}
END_TEST

START_TEST(memory_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_memory(policy, 256u << 20), SBX_OK);
    assert_refused(SBX_E_POLICY_MEMORY);
}
END_TEST

START_TEST(cpu_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_cpu(policy, 500), SBX_OK);
    assert_refused(SBX_E_POLICY_CPU);
}
END_TEST

START_TEST(pids_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_pids(policy, 64), SBX_OK);
    assert_refused(SBX_E_POLICY_PIDS);
}
END_TEST

START_TEST(timeout_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 1000), SBX_OK);
    assert_refused(SBX_E_POLICY_TIMEOUT);
}
END_TEST

START_TEST(env_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_env(policy, "LANG", "C.UTF-8"), SBX_OK);
    assert_refused(SBX_E_POLICY_ENV);
}
END_TEST

START_TEST(limits_reach_the_plugin_when_declared)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_MEMORY | SBX_CAP_LIMIT_CPU |
                       SBX_CAP_LIMIT_PIDS | SBX_CAP_TIMEOUT | SBX_CAP_ENV,
                   SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_memory(policy, 1048576), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_cpu(policy, 1500), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_pids(policy, 32), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 2000), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_env(policy, "A", "1"), SBX_OK);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=1048576 cpu=1500 pids=32 disk=0 defaulted=0"));
}
END_TEST

START_TEST(disk_refused)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_PIDS, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_disk(policy, 1 << 20), SBX_OK);
    assert_refused(SBX_E_POLICY_DISK);
}
END_TEST

START_TEST(disk_reaches_the_plugin_when_declared)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_DISK, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_disk(policy, 5 << 20), SBX_OK);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=0 cpu=0 pids=0 disk=5242880 defaulted=0"));
}
END_TEST

/* The defaults go exactly to the controls the backend has, marked as defaults. */
START_TEST(default_limits_applied_where_declared)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_PIDS | SBX_CAP_LIMIT_MEMORY |
                       SBX_CAP_LIMIT_DISK | SBX_CAP_LIMIT_CPU,
                   SBX_TIER_NAMESPACE);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=2147483648 cpu=0 pids=1024 disk=1073741824 "
                               "defaulted=40a00"));
}
END_TEST

/* A default the backend cannot enforce is left out, never a refusal. */
START_TEST(default_limits_never_refuse)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_MEMORY | SBX_CAP_LIMIT_PIDS,
                   SBX_TIER_NAMESPACE);
    char mask[32];
    snprintf(mask, sizeof(mask), "%llx",
             (unsigned long long)(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_PIDS));
    setenv("SBX_TESTCAPS_PROBE", mask, 1);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=0 cpu=0 pids=1024 disk=0 defaulted=800"));
}
END_TEST

START_TEST(explicit_limit_replaces_its_default)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_PIDS | SBX_CAP_LIMIT_MEMORY,
                   SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_pids(policy, 50), SBX_OK);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=2147483648 cpu=0 pids=50 disk=0 "
                               "defaulted=200"));
}
END_TEST

START_TEST(default_limits_can_be_turned_off)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_PIDS | SBX_CAP_LIMIT_MEMORY |
                       SBX_CAP_LIMIT_DISK,
                   SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_policy_set_default_limits(policy, 0), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_pids(policy, 9), SBX_OK);
    assert_opens();
    ck_assert(testcaps_log_has("open network=0 memory=0 cpu=0 pids=9 disk=0 defaulted=0"));
}
END_TEST

START_TEST(policy_limit_reports_value_and_origin)
{
    uint64_t v = 7;
    int dflt = 7;
    ck_assert_code(sbx_policy_limit(&v, &dflt, policy, SBX_CAP_LIMIT_PIDS, SBX_CAP_LIMIT_PIDS),
                   SBX_OK);
    ck_assert_uint_eq(v, SBX_DEFAULT_PIDS);
    ck_assert_int_eq(dflt, 1);
    ck_assert_code(sbx_policy_limit(&v, &dflt, policy, 0, SBX_CAP_LIMIT_PIDS), SBX_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(dflt, 0);
    ck_assert_code(sbx_policy_limit(&v, NULL, policy, SBX_CAP_ALL_KNOWN, SBX_CAP_LIMIT_CPU), SBX_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(sbx_policy_set_disk(policy, 4096), SBX_OK);
    ck_assert_code(sbx_policy_limit(&v, &dflt, policy, 0, SBX_CAP_LIMIT_DISK), SBX_OK);
    ck_assert_uint_eq(v, 4096);
    ck_assert_int_eq(dflt, 0);
    ck_assert_code(sbx_policy_limit(&v, NULL, policy, 0, SBX_CAP_EXEC), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_limit(NULL, NULL, policy, 0, SBX_CAP_LIMIT_PIDS),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_disk(NULL, 1), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_default_limits(NULL, 0), SBX_E_INVALID_ARGUMENT);
}
END_TEST

START_TEST(probe_narrows_declared_caps)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_MEMORY, SBX_TIER_NAMESPACE);
    char mask[32];
    snprintf(mask, sizeof(mask), "%llx", (unsigned long long)(SBX_CAP_EXEC | SBX_CAP_NET_NONE));
    setenv("SBX_TESTCAPS_PROBE", mask, 1);
    ck_assert_int_eq(sbx_policy_set_memory(policy, 1048576), SBX_OK);
    assert_refused(SBX_E_POLICY_MEMORY);
}
END_TEST

START_TEST(probe_cannot_widen_declared_caps)
{
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NAMESPACE);
    char mask[32];
    snprintf(mask, sizeof(mask), "%llx", (unsigned long long)(SBX_CAP_EXEC | SBX_CAP_NET_NONE));
    setenv("SBX_TESTCAPS_PROBE", mask, 1);
    assert_refused(SBX_E_POLICY_NETWORK_NONE);
}
END_TEST

START_TEST(policy_allow_host_takes_wildcards_and_address_blocks)
{
    ck_assert_code(sbx_policy_allow_host(policy, "*.example.com"), SBX_OK);
    ck_assert_code(sbx_policy_allow_host(policy, "10.0.0.0/8"), SBX_OK);
    ck_assert_code(sbx_policy_allow_host(policy, "[fc00::/7]:443"), SBX_OK);
}
END_TEST

START_TEST(policy_setters_reject_bad_values)
{
    ck_assert_code(sbx_policy_set_min_tier(policy, 42), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_network(policy, 7), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_allow_host(policy, ""), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_allow_host(policy, "http://x/y"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_allow_host(policy, "example.com/8"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_allow_host(policy, "10.0.0.0/8/8"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_env(policy, "A=B", "c"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_env(policy, "", "c"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_set_memory(NULL, 1), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_policy_new(NULL), SBX_E_INVALID_ARGUMENT);
}
END_TEST

static Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("fail-closed");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, default_network_none_refused_without_net_none_cap);
    tcase_add_test(tc, null_policy_means_defaults_and_is_refused_too);
    tcase_add_test(tc, network_none_accepted_with_cap);
    tcase_add_test(tc, min_tier_refused);
    tcase_add_test(tc, min_tier_unknown_backend_refused);
    tcase_add_test(tc, min_tier_met);
    tcase_add_test(tc, network_allowlist_refused);
    tcase_add_test(tc, network_allowlist_without_hosts_is_bad_policy);
    tcase_add_test(tc, hosts_without_allowlist_mode_is_bad_policy);
    tcase_add_test(tc, network_open_needs_no_cap);
    tcase_add_test(tc, memory_refused);
    tcase_add_test(tc, cpu_refused);
    tcase_add_test(tc, pids_refused);
    tcase_add_test(tc, timeout_refused);
    tcase_add_test(tc, env_refused);
    tcase_add_test(tc, limits_reach_the_plugin_when_declared);
    tcase_add_test(tc, disk_refused);
    tcase_add_test(tc, disk_reaches_the_plugin_when_declared);
    tcase_add_test(tc, default_limits_applied_where_declared);
    tcase_add_test(tc, default_limits_never_refuse);
    tcase_add_test(tc, explicit_limit_replaces_its_default);
    tcase_add_test(tc, default_limits_can_be_turned_off);
    tcase_add_test(tc, policy_limit_reports_value_and_origin);
    tcase_add_test(tc, probe_narrows_declared_caps);
    tcase_add_test(tc, probe_cannot_widen_declared_caps);
    tcase_add_test(tc, policy_setters_reject_bad_values);
    tcase_add_test(tc, policy_allow_host_takes_wildcards_and_address_blocks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(policy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
