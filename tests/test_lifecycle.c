/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's side of sandboxes that outlive a handle: names checked, name
 * and TTL and the stored policy handed to the plugin, old or incapable
 * plugins refused before they are called, the stored policy re-applied on
 * attach and never widened, detach refused without a TTL, list, TTL,
 * pause and resume.
 */
#include "testutil.h"

#include <sys/wait.h>
#include <time.h>

#define LC_CAPS (SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_TIMEOUT | SBX_CAP_ATTACH)

static sbx_client *client;
static sbx_policy *policy;
static sbx_sandbox *sb;
static sbx_sandbox *sb2;
static sbx_sandbox_opts *opts;

static void setup(uint64_t caps)
{
    testcaps_setup(caps, SBX_TIER_NAMESPACE);
    unsetenv("SBX_TESTCAPS_MINOR");
    unsetenv("SBX_TESTCAPS_STORED");
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_sandbox_opts_new(&opts), SBX_OK);
}

static void teardown(void)
{
    sbx_sandbox_free(sb);
    sbx_sandbox_free(sb2);
    sb = sb2 = NULL;
    sbx_sandbox_opts_free(opts);
    opts = NULL;
    sbx_policy_free(policy);
    policy = NULL;
    sbx_client_free(client);
    client = NULL;
}

/* A named sandbox with a one-minute TTL under policy. */
static void open_named(void)
{
    ck_assert_int_eq(sbx_sandbox_opts_set_name(opts, "job-1"), SBX_OK);
    ck_assert_int_eq(sbx_sandbox_opts_set_ttl(opts, 60000), SBX_OK);
    ck_assert_code(sbx_sandbox_open_with(&sb, client, "testcaps://", policy, opts), SBX_OK);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run "a" in s; the log then says which timeout reached the plugin. */
static void exec_a(sbx_sandbox *s)
{
    const char *argv[] = {"a", NULL};
    sbx_cmd *cmd = NULL;
    sbx_result *r = NULL;
    ck_assert_int_eq(sbx_cmd_new(&cmd, argv), SBX_OK);
    ck_assert_code(sbx_exec(&r, s, cmd), SBX_OK);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}

START_TEST(names_are_checked_by_the_core)
{
    setup(LC_CAPS);
    static const char *const bad[] = {"", "A", "-a", ".a", "a/b", "a b", "a:b", "ü"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_code(sbx_sandbox_opts_set_name(opts, bad[i]), SBX_E_BAD_SANDBOX_NAME);
    char long_name[65];
    memset(long_name, 'a', 64);
    long_name[64] = '\0';
    ck_assert_code(sbx_sandbox_opts_set_name(opts, long_name), SBX_E_BAD_SANDBOX_NAME);
    long_name[63] = '\0';
    ck_assert_code(sbx_sandbox_opts_set_name(opts, long_name), SBX_OK);
    ck_assert_code(sbx_sandbox_opts_set_name(opts, "0job-1.x_y"), SBX_OK);
    ck_assert_code(sbx_sandbox_opts_set_name(opts, NULL), SBX_OK);
    ck_assert_code(sbx_sandbox_opts_set_name(NULL, "a"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_sandbox_opts_set_ttl(NULL, 1), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_sandbox_opts_new(NULL), SBX_E_INVALID_ARGUMENT);
}
END_TEST

START_TEST(name_ttl_and_stored_policy_reach_the_plugin)
{
    setup(LC_CAPS | SBX_CAP_ENV);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 5000), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_env(policy, "TOKEN", "s3cret"), SBX_OK);
    int64_t before = now_ms();
    open_named();
    ck_assert(testcaps_log_has("open_named name=job-1 ttl=60000 "));
    ck_assert(testcaps_log_has("policy=sbx-policy/1 tier=1 net=0 "));
    ck_assert(testcaps_log_has(" timeout=5000 "));
    /* The environment may hold secrets: it is never stored. */
    ck_assert(!testcaps_log_has("s3cret"));
    ck_assert(!testcaps_log_has("TOKEN"));
    ck_assert_str_eq(sbx_sandbox_name(sb), "job-1");
    ck_assert(sbx_sandbox_expires(sb) >= before + 60000);
    ck_assert(sbx_sandbox_expires(sb) <= now_ms() + 60000);
}
END_TEST

START_TEST(no_name_no_ttl_is_a_plain_open)
{
    setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE);
    ck_assert_code(sbx_sandbox_open_with(&sb, client, "testcaps://", policy, opts), SBX_OK);
    ck_assert(testcaps_log_has("open network="));
    ck_assert_int_eq(sbx_sandbox_expires(sb), 0);
    ck_assert_str_eq(sbx_sandbox_name(sb), "");
}
END_TEST

START_TEST(minor_1_plugin_refused_before_it_is_called)
{
    setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE);
    setenv("SBX_TESTCAPS_MINOR", "1", 1);
    ck_assert_int_eq(sbx_sandbox_opts_set_ttl(opts, 1000), SBX_OK);
    ck_assert_code(sbx_sandbox_open_with(&sb, client, "testcaps://", policy, opts),
                   SBX_E_PLUGIN_NO_ATTACH);
    ck_assert_ptr_null(sb);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "x", NULL),
                   SBX_E_PLUGIN_NO_ATTACH);
    ck_assert_code(sbx_client_list(client, "testcaps://", (sbx_list_cb)1, NULL),
                   SBX_E_PLUGIN_NO_ATTACH);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    ck_assert_code(sbx_sandbox_set_ttl(sb, 1000), SBX_E_PLUGIN_NO_ATTACH);
    ck_assert_code(sbx_sandbox_pause(sb), SBX_E_PLUGIN_NO_PAUSE);
    ck_assert_code(sbx_sandbox_resume(sb), SBX_E_PLUGIN_NO_PAUSE);
    ck_assert(!testcaps_log_has("open_named"));
    ck_assert(!testcaps_log_has("attach"));
    ck_assert(!testcaps_log_has("list"));
    ck_assert(!testcaps_log_has("set_ttl"));
    ck_assert(!testcaps_log_has("pause"));
    unsetenv("SBX_TESTCAPS_MINOR");
}
END_TEST

/*
 * The loader checks a module once per process, so the first load must be
 * the minor-1 one: done in a child of our own (Check may run without fork).
 */
START_TEST(minor_1_plugin_declaring_attach_is_refused_at_load)
{
    setup(LC_CAPS);
    sbx_client_free(client);
    client = NULL;
    setenv("SBX_TESTCAPS_MINOR", "1", 1);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        sbx_client *c = test_client();
        sbx_sandbox *s = NULL;
        int rc = sbx_sandbox_open(&s, c, "testcaps://", NULL);
        sbx_sandbox_free(s);
        sbx_client_free(c);
        _exit(rc == SBX_E_PLUGIN_INCOMPLETE ? 0 : 1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "a minor-1 plugin declaring attach was not refused with SBX_E2010");
    unsetenv("SBX_TESTCAPS_MINOR");
}
END_TEST

START_TEST(without_the_capability_refused_before_the_plugin)
{
    setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE);
    ck_assert_int_eq(sbx_sandbox_opts_set_name(opts, "x"), SBX_OK);
    ck_assert_code(sbx_sandbox_open_with(&sb, client, "testcaps://", policy, opts),
                   SBX_E_CAP_ATTACH);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "x", NULL), SBX_E_CAP_ATTACH);
    ck_assert_code(sbx_client_list(client, "testcaps://", (sbx_list_cb)1, NULL),
                   SBX_E_CAP_ATTACH);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    ck_assert_code(sbx_sandbox_pause(sb), SBX_E_CAP_PAUSE);
    ck_assert_code(sbx_sandbox_set_ttl(sb, 5), SBX_E_CAP_ATTACH);
    ck_assert(!testcaps_log_has("open_named"));
    ck_assert(!testcaps_log_has("attach"));
    ck_assert(!testcaps_log_has("pause"));
}
END_TEST

START_TEST(probe_without_attach_refuses)
{
    setup(LC_CAPS);
    setenv("SBX_TESTCAPS_PROBE", "81", 1); /* exec | net-none: no attach here */
    ck_assert_int_eq(sbx_sandbox_opts_set_ttl(opts, 1000), SBX_OK);
    ck_assert_code(sbx_sandbox_open_with(&sb, client, "testcaps://", policy, opts),
                   SBX_E_CAP_ATTACH);
    ck_assert(!testcaps_log_has("open_named"));
    unsetenv("SBX_TESTCAPS_PROBE");
}
END_TEST

START_TEST(attach_without_policy_applies_the_stored_one)
{
    setup(LC_CAPS);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 5000), SBX_OK);
    open_named();
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", NULL), SBX_OK);
    ck_assert(testcaps_log_has("attach job-1"));
    ck_assert_str_eq(sbx_sandbox_name(sb2), "n1");
    ck_assert_int_eq(sbx_sandbox_expires(sb2), INT64_C(4102444800000));
    exec_a(sb2);
    ck_assert(testcaps_log_has("exec a timeout=5000"));
}
END_TEST

START_TEST(attach_with_a_wider_policy_is_refused)
{
    setup(LC_CAPS | SBX_CAP_NET_ALLOWLIST);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 5000), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_output_cap(policy, 1000), SBX_OK);
    open_named();
    sbx_policy *p = NULL;
    /* No timeout is wider than 5 s, and so is 10 s. */
    ck_assert_int_eq(sbx_policy_new(&p), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_output_cap(p, 1000), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    ck_assert_ptr_null(sb2);
    ck_assert_int_eq(sbx_policy_set_timeout(p, 10000), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    /* A larger output cap. */
    ck_assert_int_eq(sbx_policy_set_timeout(p, 5000), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_output_cap(p, 0), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    /* A network where the sandbox has none. */
    ck_assert_int_eq(sbx_policy_set_output_cap(p, 1000), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_network(p, SBX_NET_ALLOWLIST), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(p, "example.com"), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    sbx_policy_free(p);
    /* Each refusal let go of the plugin's handle and destroyed nothing. */
    ck_assert(testcaps_log_has("detach"));
    ck_assert(!testcaps_log_has("destroy"));
}
END_TEST

START_TEST(attach_may_narrow_per_command_controls_only)
{
    setup(LC_CAPS | SBX_CAP_LIMIT_MEMORY);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 5000), SBX_OK);
    open_named();
    sbx_policy *p = NULL;
    ck_assert_int_eq(sbx_policy_new(&p), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_timeout(p, 700), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p), SBX_OK);
    exec_a(sb2);
    ck_assert(testcaps_log_has("exec a timeout=700"));
    sbx_sandbox_free(sb2);
    sb2 = NULL;
    /* The memory limit was fixed at creation (the default): tighter is refused. */
    ck_assert_int_eq(sbx_policy_set_memory(p, 1 << 20), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_FIXED);
    /* And none at all is wider. */
    ck_assert_int_eq(sbx_policy_set_memory(p, 0), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_default_limits(p, 0), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    sbx_policy_free(p);
}
END_TEST

START_TEST(attach_keeps_the_stored_allowlist_exactly)
{
    setup(LC_CAPS | SBX_CAP_NET_ALLOWLIST);
    ck_assert_int_eq(sbx_policy_set_network(policy, SBX_NET_ALLOWLIST), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(policy, "a.example:443"), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(policy, "b.example"), SBX_OK);
    open_named();
    ck_assert(testcaps_log_has(" allow=a.example:443 allow=b.example "));
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", NULL), SBX_OK);
    sbx_sandbox_free(sb2);
    sb2 = NULL;
    sbx_policy *p = NULL;
    ck_assert_int_eq(sbx_policy_new(&p), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_network(p, SBX_NET_ALLOWLIST), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(p, "a.example:443"), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_FIXED);
    ck_assert_int_eq(sbx_policy_allow_host(p, "b.example"), SBX_OK);
    ck_assert_int_eq(sbx_policy_allow_host(p, "c.example"), SBX_OK);
    ck_assert_code(sbx_sandbox_attach(&sb2, client, "testcaps://", "job-1", p),
                   SBX_E_POLICY_WIDER);
    sbx_policy_free(p);
}
END_TEST

START_TEST(attach_without_a_readable_stored_policy_is_refused)
{
    setup(LC_CAPS);
    static const char *const bad[] = {
        "-", "", "garbage", "sbx-policy/2 tier=0",
        "sbx-policy/1 tier=0 net=0 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0",
        "sbx-policy/1 tier=0 net=0 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=1 cap=2",
        "sbx-policy/1 tier=0 net=7 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=1",
        "sbx-policy/1 tier=0 net=0 mem=-1 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=1",
        "sbx-policy/1 tier=0 net=0 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=1 x=1",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        setenv("SBX_TESTCAPS_STORED", bad[i], 1);
        ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "x", NULL),
                       SBX_E_STORED_POLICY);
        ck_assert_ptr_null(sb);
    }
    setenv("SBX_TESTCAPS_STORED",
           "sbx-policy/1 tier=0 net=0 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=1", 1);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "x", NULL), SBX_OK);
    ck_assert(!testcaps_log_has("destroy"));
    unsetenv("SBX_TESTCAPS_STORED");
}
END_TEST

START_TEST(attach_to_a_missing_sandbox_is_not_found)
{
    setup(LC_CAPS);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "missing", NULL),
                   SBX_E_NOT_FOUND);
    ck_assert_ptr_null(sb);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", "", NULL),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_sandbox_attach(&sb, client, "testcaps://", NULL, NULL),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_sandbox_attach(NULL, client, "testcaps://", "x", NULL),
                   SBX_E_INVALID_ARGUMENT);
}
END_TEST

START_TEST(detach_without_ttl_refused_then_free_destroys)
{
    setup(LC_CAPS);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    ck_assert_code(sbx_sandbox_detach(sb), SBX_E_DETACH_NO_TTL);
    ck_assert(!testcaps_log_has("detach"));
    sbx_sandbox_free(sb);
    sb = NULL;
    ck_assert(testcaps_log_has("destroy"));
    ck_assert_code(sbx_sandbox_detach(NULL), SBX_E_INVALID_ARGUMENT);
}
END_TEST

START_TEST(detach_keeps_the_sandbox)
{
    setup(LC_CAPS);
    open_named();
    ck_assert_code(sbx_sandbox_detach(sb), SBX_OK);
    sb = NULL;
    ck_assert(testcaps_log_has("detach"));
    ck_assert(!testcaps_log_has("destroy"));
}
END_TEST

START_TEST(set_ttl_moves_the_end_and_allows_detach)
{
    setup(LC_CAPS);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    ck_assert_code(sbx_sandbox_set_ttl(sb, 0), SBX_E_INVALID_ARGUMENT);
    ck_assert(!testcaps_log_has("set_ttl"));
    int64_t before = now_ms();
    ck_assert_code(sbx_sandbox_set_ttl(sb, 90000), SBX_OK);
    ck_assert(testcaps_log_has("set_ttl 90000"));
    ck_assert(sbx_sandbox_expires(sb) >= before + 90000);
    ck_assert_code(sbx_sandbox_detach(sb), SBX_OK);
    sb = NULL;
    ck_assert_code(sbx_sandbox_set_ttl(NULL, 1), SBX_E_INVALID_ARGUMENT);
}
END_TEST

START_TEST(pause_and_resume_reach_the_plugin)
{
    setup(LC_CAPS | SBX_CAP_PAUSE);
    open_named();
    ck_assert_code(sbx_sandbox_pause(sb), SBX_OK);
    ck_assert_code(sbx_sandbox_resume(sb), SBX_OK);
    ck_assert(testcaps_log_has("pause\nresume\n"));
    ck_assert_code(sbx_sandbox_destroy(sb), SBX_OK);
    ck_assert_code(sbx_sandbox_pause(sb), SBX_E_SANDBOX_DESTROYED);
    ck_assert_code(sbx_sandbox_pause(NULL), SBX_E_INVALID_ARGUMENT);
}
END_TEST

struct seen {
    int n;
    char ids[4][16];
    char names[4][16];
    int64_t expires[4];
    int states[4];
    int stop_after;
};

static int on_entry(void *ud, const sbx_sandbox_info *info)
{
    struct seen *s = ud;
    ck_assert_str_eq(info->backend, "testcaps");
    snprintf(s->ids[s->n], sizeof(s->ids[0]), "%s", info->id);
    snprintf(s->names[s->n], sizeof(s->names[0]), "%s", info->name);
    ck_assert_ptr_nonnull(info->owner);
    s->expires[s->n] = info->expires_ms;
    s->states[s->n] = info->state;
    return ++s->n == s->stop_after;
}

START_TEST(list_reports_each_sandbox)
{
    setup(LC_CAPS);
    struct seen s = {0};
    ck_assert_code(sbx_client_list(client, "testcaps://", on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.ids[0], "tc1");
    ck_assert_str_eq(s.names[0], "n1");
    ck_assert_str_eq(s.names[1], "");
    ck_assert_int_eq(s.expires[0], INT64_C(4102444800000));
    ck_assert_int_eq(s.expires[1], 0);
    ck_assert_str_eq(sbx_sandbox_state_name(s.states[0]), "running");
    ck_assert_str_eq(sbx_sandbox_state_name(s.states[1]), "paused");
    ck_assert_str_eq(sbx_sandbox_state_name(99), "unknown");
    struct seen one = {.stop_after = 1};
    ck_assert_code(sbx_client_list(client, "testcaps://", on_entry, &one), SBX_OK);
    ck_assert_int_eq(one.n, 1);
    ck_assert_code(sbx_client_list(client, "testcaps://", NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_list(NULL, "testcaps://", on_entry, &s), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_list(client, "nope", on_entry, &s), SBX_E_DSN_NO_SCHEME);
}
END_TEST

static Suite *lifecycle_suite(void)
{
    Suite *s = suite_create("lifecycle");
    TCase *tc = tcase_create("lifecycle");
    tcase_add_checked_fixture(tc, NULL, teardown);
    /* First: it needs a process that has not loaded testcaps yet. */
    tcase_add_test(tc, minor_1_plugin_declaring_attach_is_refused_at_load);
    tcase_add_test(tc, names_are_checked_by_the_core);
    tcase_add_test(tc, name_ttl_and_stored_policy_reach_the_plugin);
    tcase_add_test(tc, no_name_no_ttl_is_a_plain_open);
    tcase_add_test(tc, minor_1_plugin_refused_before_it_is_called);
    tcase_add_test(tc, without_the_capability_refused_before_the_plugin);
    tcase_add_test(tc, probe_without_attach_refuses);
    tcase_add_test(tc, attach_without_policy_applies_the_stored_one);
    tcase_add_test(tc, attach_with_a_wider_policy_is_refused);
    tcase_add_test(tc, attach_may_narrow_per_command_controls_only);
    tcase_add_test(tc, attach_keeps_the_stored_allowlist_exactly);
    tcase_add_test(tc, attach_without_a_readable_stored_policy_is_refused);
    tcase_add_test(tc, attach_to_a_missing_sandbox_is_not_found);
    tcase_add_test(tc, detach_without_ttl_refused_then_free_destroys);
    tcase_add_test(tc, detach_keeps_the_sandbox);
    tcase_add_test(tc, set_ttl_moves_the_end_and_allows_detach);
    tcase_add_test(tc, pause_and_resume_reach_the_plugin);
    tcase_add_test(tc, list_reports_each_sandbox);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lifecycle_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
