/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the core guarantees around every backend: capability refusals before
 * the plugin runs anything, lifecycle rules, path rules, the environment and
 * timeout actually passed, and the output cap with its truncated flag.
 */
#include "testutil.h"

static sbx_client *client;
static sbx_policy *policy;
static sbx_sandbox *sb;

static void open_with(uint64_t caps)
{
    testcaps_setup(caps | SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
}

static void teardown(void)
{
    sbx_sandbox_free(sb);
    sb = NULL;
    sbx_policy_free(policy);
    policy = NULL;
    sbx_client_free(client);
    client = NULL;
}

static sbx_cmd *cmd_of(const char *a0, const char *a1)
{
    const char *argv[] = {a0, a1, NULL};
    sbx_cmd *cmd = NULL;
    ck_assert_int_eq(sbx_cmd_new(&cmd, argv), SBX_OK);
    return cmd;
}

/* exec of cmd must be refused with code and never reach the plugin. */
static void assert_exec_refused(sbx_cmd *cmd, int code)
{
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec(&r, sb, cmd), code);
    ck_assert_ptr_null(r);
    ck_assert_msg(!testcaps_log_has("exec "), "refused command reached the plugin");
    sbx_cmd_free(cmd);
}

START_TEST(stdin_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("cat", NULL);
    ck_assert_int_eq(sbx_cmd_set_stdin(cmd, "hi", 2), SBX_OK);
    assert_exec_refused(cmd, SBX_E_CAP_STDIN);
}
END_TEST

START_TEST(cwd_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("pwd", NULL);
    ck_assert_int_eq(sbx_cmd_set_cwd(cmd, "sub"), SBX_OK);
    assert_exec_refused(cmd, SBX_E_CAP_CWD);
}
END_TEST

START_TEST(env_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("env", NULL);
    ck_assert_int_eq(sbx_cmd_set_env(cmd, "A", "1"), SBX_OK);
    assert_exec_refused(cmd, SBX_E_POLICY_ENV);
}
END_TEST

START_TEST(timeout_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("sleep", "1");
    ck_assert_int_eq(sbx_cmd_set_timeout(cmd, 100), SBX_OK);
    assert_exec_refused(cmd, SBX_E_POLICY_TIMEOUT);
}
END_TEST

static int count_cb(void *ud, int stream, const void *data, size_t len)
{
    *(size_t *)ud += len;
    return 0;
}

START_TEST(stream_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("true", NULL);
    size_t n = 0;
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec_stream(&r, sb, cmd, count_cb, &n), SBX_E_CAP_STREAM);
    ck_assert(!testcaps_log_has("exec "));
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(exec_refused_without_cap)
{
    testcaps_setup(SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", NULL), SBX_OK);
    assert_exec_refused(cmd_of("true", NULL), SBX_E_CAP_EXEC);
}
END_TEST

START_TEST(files_refused_without_cap)
{
    open_with(0);
    void *data = NULL;
    size_t len = 0;
    sbx_dirlist *l = NULL;
    ck_assert_code(sbx_file_write(sb, "a", "x", 1, 0644), SBX_E_CAP_FILES);
    ck_assert_code(sbx_file_read(sb, "a", &data, &len), SBX_E_CAP_FILES);
    ck_assert_code(sbx_file_list(sb, "", &l), SBX_E_CAP_FILES);
    ck_assert_code(sbx_file_mkdir(sb, "d"), SBX_E_CAP_FILES);
    ck_assert_code(sbx_file_remove(sb, "a", 0), SBX_E_CAP_FILES);
    ck_assert(!testcaps_log_has("file_"));
}
END_TEST

START_TEST(native_refused_without_cap)
{
    open_with(0);
    char *out = NULL;
    ck_assert_code(sbx_native(sb, "anything", NULL, &out), SBX_E_CAP_NATIVE);
    ck_assert(!testcaps_log_has("native"));
}
END_TEST

START_TEST(native_reaches_plugin_with_cap)
{
    open_with(SBX_CAP_NATIVE);
    char *out = NULL;
    ck_assert_code(sbx_native(sb, "stats", "{}", &out), SBX_OK);
    ck_assert_str_eq(out, "{}");
    sbx_free(out);
    ck_assert(testcaps_log_has("native stats"));
}
END_TEST

START_TEST(destroy_twice_is_ok_and_use_after_destroy_refused)
{
    open_with(SBX_CAP_FILES);
    ck_assert_code(sbx_sandbox_destroy(sb), SBX_OK);
    ck_assert_code(sbx_sandbox_destroy(sb), SBX_OK);
    sbx_cmd *cmd = cmd_of("true", NULL);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_E_SANDBOX_DESTROYED);
    ck_assert_code(sbx_file_write(sb, "a", "x", 1, 0644), SBX_E_SANDBOX_DESTROYED);
    sbx_cmd_free(cmd);
    char *log = testcaps_log();
    /* exactly one destroy reached the plugin */
    char *first = strstr(log, "destroy");
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_null(strstr(first + 1, "destroy"));
    free(log);
}
END_TEST

START_TEST(paths_escaping_the_root_refused)
{
    open_with(SBX_CAP_FILES);
    void *data = NULL;
    size_t len = 0;
    ck_assert_code(sbx_file_write(sb, "/etc/passwd", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_file_write(sb, "../x", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_file_read(sb, "a/../../b", &data, &len), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_file_remove(sb, "a/..", 1), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_file_write(sb, "", "x", 1, 0644), SBX_E_BAD_PATH);
    ck_assert_code(sbx_file_write(sb, "./", "x", 1, 0644), SBX_E_BAD_PATH);
    ck_assert_code(sbx_file_write(sb, "a", "x", 1, 01000000), SBX_E_INVALID_ARGUMENT);
    ck_assert(!testcaps_log_has("file_"));
}
END_TEST

START_TEST(paths_are_normalised_before_the_plugin)
{
    open_with(SBX_CAP_FILES);
    ck_assert_code(sbx_file_mkdir(sb, "./a//b/./c/"), SBX_OK);
    ck_assert(testcaps_log_has("file_mkdir a/b/c\n"));
}
END_TEST

START_TEST(plugin_error_detail_is_kept)
{
    open_with(SBX_CAP_FILES);
    void *data = NULL;
    size_t len = 0;
    ck_assert_code(sbx_file_read(sb, "missing.txt", &data, &len), SBX_E_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(sbx_error_last()->message, "missing.txt"));
    ck_assert_str_eq(sbx_error_last()->id, "SBX_E4004");
}
END_TEST

START_TEST(listing_is_sorted)
{
    open_with(SBX_CAP_FILES);
    sbx_dirlist *l = NULL;
    ck_assert_code(sbx_file_list(sb, "", &l), SBX_OK);
    ck_assert_uint_eq(sbx_dirlist_count(l), 3);
    ck_assert_str_eq(sbx_dirlist_get(l, 0)->name, "alpha");
    ck_assert_str_eq(sbx_dirlist_get(l, 1)->name, "mid");
    ck_assert_str_eq(sbx_dirlist_get(l, 2)->name, "zeta");
    ck_assert_ptr_null(sbx_dirlist_get(l, 3));
    sbx_dirlist_free(l);
}
END_TEST

/* List "many-N-L" of the test plugin: want_rc, and how many entries the plugin gave. */
static void assert_listing(size_t n, size_t len, int want_rc, size_t given)
{
    char path[64], line[64];
    snprintf(path, sizeof path, "many-%zu-%zu", n, len);
    sbx_dirlist *l = (sbx_dirlist *)1;
    FILE *log = fopen(getenv("SBX_TESTCAPS_LOG"), "w"); /* this call's lines only */
    if (log)
        fclose(log);
    ck_assert_code(sbx_file_list(sb, path, &l), want_rc);
    if (want_rc == SBX_OK) {
        ck_assert_uint_eq(sbx_dirlist_count(l), n);
        sbx_dirlist_free(l);
    } else {
        ck_assert_ptr_null(l);
        ck_assert_str_eq(sbx_error_last()->id, "SBX_E5007");
    }
    /* The plugin was stopped at the first entry past the bounds, not after. */
    snprintf(line, sizeof line, "file_list gave %zu\n", given);
    ck_assert_msg(testcaps_log_has(line), "the plugin did not stop after %zu entries", given);
}

START_TEST(listing_past_the_entry_bound_is_refused_and_stops_the_backend)
{
    open_with(SBX_CAP_FILES);
    assert_listing(SBX_FILE_LIST_MAX_ENTRIES, 8, SBX_OK, SBX_FILE_LIST_MAX_ENTRIES);
    assert_listing(SBX_FILE_LIST_MAX_ENTRIES + 1, 8, SBX_E_LIST_TOO_LARGE,
                   SBX_FILE_LIST_MAX_ENTRIES);
    /* A backend with 500,000 entries gives no more than the bound either. */
    assert_listing(500000, 8, SBX_E_LIST_TOO_LARGE, SBX_FILE_LIST_MAX_ENTRIES);
}
END_TEST

START_TEST(listing_past_the_name_bytes_bound_is_refused_and_stops_the_backend)
{
    open_with(SBX_CAP_FILES);
    size_t n = SBX_FILE_LIST_MAX_NAME_BYTES / 255;
    assert_listing(n, 255, SBX_OK, n);
    assert_listing(n + 1, 255, SBX_E_LIST_TOO_LARGE, n);
    assert_listing(500000, 255, SBX_E_LIST_TOO_LARGE, n);
}
END_TEST

START_TEST(environment_is_policy_then_command_and_nothing_inherited)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_ENV, SBX_TIER_NAMESPACE);
    setenv("SBX_SHOULD_NOT_LEAK", "host-value", 1);
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_env(policy, "A", "policy"), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_env(policy, "B", "policy"), SBX_OK);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    sbx_cmd *cmd = cmd_of("env", NULL);
    ck_assert_int_eq(sbx_cmd_set_env(cmd, "B", "command"), SBX_OK);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    ck_assert(testcaps_log_has("env=A=policy;B=command;\n"));
    ck_assert(!testcaps_log_has("SBX_SHOULD_NOT_LEAK"));
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(smaller_timeout_of_policy_and_command_applies)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_TIMEOUT, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_timeout(policy, 5000), SBX_OK);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    sbx_cmd *cmd = cmd_of("a", NULL);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    sbx_result_free(r);
    ck_assert(testcaps_log_has("exec a timeout=5000"));
    ck_assert_int_eq(sbx_cmd_set_timeout(cmd, 700), SBX_OK);
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    sbx_result_free(r);
    ck_assert(testcaps_log_has("exec a timeout=700"));
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(output_cap_truncates_and_says_so)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("emit", "5000");
    ck_assert_int_eq(sbx_cmd_set_output_cap(cmd, 1234), SBX_OK);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 1234);
    ck_assert_int_eq(out[0], 'x');
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 1);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDERR), 0);
    sbx_result_free(r);
    /* Exactly at the cap is not truncated. */
    ck_assert_int_eq(sbx_cmd_set_output_cap(cmd, 5000), SBX_OK);
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 5000);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 0);
    ck_assert_int_eq(sbx_result_exit_code(r), 0);
    ck_assert_int_eq(sbx_result_exited(r), 1);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(policy_output_cap_is_a_ceiling)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_output_cap(policy, 100), SBX_OK);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
    sbx_cmd *cmd = cmd_of("emit", "5000");
    ck_assert_int_eq(sbx_cmd_set_output_cap(cmd, 4000), SBX_OK);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    size_t len = 0;
    sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 100);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 1);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

static int abort_cb(void *ud, int stream, const void *data, size_t len)
{
    return 1;
}

START_TEST(stream_callback_can_abort)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = cmd_of("emit", "5000");
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec_stream(&r, sb, cmd, abort_cb, NULL), SBX_E_EXEC_ABORTED);
    ck_assert_ptr_null(r);
    size_t n = 0;
    ck_assert_code(sbx_exec_stream(&r, sb, cmd, count_cb, &n), SBX_OK);
    ck_assert_uint_eq(n, 5000);
    size_t len = 1;
    sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(stdin_reaches_plugin_then_eof)
{
    open_with(SBX_CAP_STDIN);
    sbx_cmd *cmd = cmd_of("cat", NULL);
    char big[3000];
    memset(big, 'a', sizeof(big));
    ck_assert_int_eq(sbx_cmd_set_stdin(cmd, big, sizeof(big)), SBX_OK);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    ck_assert(testcaps_log_has("stdin 3000"));
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(stdin_from_a_descriptor_is_streamed_then_eof)
{
    open_with(SBX_CAP_STDIN);
    sbx_cmd *cmd = cmd_of("cat", NULL);
    char big[5000];
    int fds[2];
    memset(big, 'b', sizeof(big));
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(write(fds[1], big, sizeof(big)), (int)sizeof(big));
    close(fds[1]);
    ck_assert_int_eq(sbx_cmd_set_stdin_fd(cmd, fds[0]), SBX_OK);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    ck_assert(testcaps_log_has("stdin ready-fd"));
    ck_assert(testcaps_log_has("stdin 5000"));
    /* Not owned: still open after the exec. */
    ck_assert_int_eq(close(fds[0]), 0);
    sbx_result_free(r);
    /* Bytes given later replace the descriptor: no ready-fd then. */
    testcaps_setup(SBX_CAP_STDIN | SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_cmd_set_stdin(cmd, "abc", 3), SBX_OK);
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    ck_assert(!testcaps_log_has("stdin ready-fd"));
    ck_assert(testcaps_log_has("stdin 3"));
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(stdin_fd_refused_without_cap)
{
    open_with(0);
    sbx_cmd *cmd = cmd_of("cat", NULL);
    ck_assert_int_eq(sbx_cmd_set_stdin_fd(cmd, 0), SBX_OK);
    assert_exec_refused(cmd, SBX_E_CAP_STDIN);
}
END_TEST

START_TEST(ping_reaches_the_plugin_or_says_nothing_to_contact)
{
    int reached = -1;
    char *detail = (char *)1;
    testcaps_setup(SBX_CAP_EXEC, SBX_TIER_NONE);
    unsetenv("SBX_TESTCAPS_PING");
    client = test_client();
    ck_assert_code(sbx_client_ping(&reached, &detail, client, "testcaps://"), SBX_OK);
    ck_assert_int_eq(reached, 0);
    ck_assert_ptr_null(detail);
    sbx_client_free(client);
    setenv("SBX_TESTCAPS_PING", "ok", 1);
    client = test_client();
    ck_assert_code(sbx_client_ping(&reached, &detail, client, "testcaps://"), SBX_OK);
    ck_assert_int_eq(reached, 1);
    ck_assert_str_eq(detail, "testcaps service 1.0");
    sbx_free(detail);
    sbx_client_free(client);
    setenv("SBX_TESTCAPS_PING", "gone", 1);
    client = test_client();
    ck_assert_code(sbx_client_ping(&reached, &detail, client, "testcaps://"), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(reached, 0);
    ck_assert_ptr_null(detail);
    ck_assert_str_eq(sbx_error_last()->message, "testcaps: cannot reach gone");
    ck_assert_code(sbx_client_ping(NULL, NULL, client, "testcaps://"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_ping(&reached, NULL, NULL, "testcaps://"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_ping(&reached, NULL, client, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_ping(&reached, NULL, client, "nope"), SBX_E_DSN_NO_SCHEME);
    unsetenv("SBX_TESTCAPS_PING");
}
END_TEST

START_TEST(pty_refused_without_cap)
{
    open_with(SBX_CAP_STDIN);
    sbx_cmd *cmd = cmd_of("sh", NULL);
    ck_assert_int_eq(sbx_cmd_set_pty(cmd, 24, 80), SBX_OK);
    assert_exec_refused(cmd, SBX_E_CAP_PTY);
}
END_TEST

START_TEST(bad_arguments_have_exact_codes)
{
    const char *empty[] = {"", NULL};
    const char *none[] = {NULL};
    sbx_cmd *cmd = NULL;
    sbx_client *c = NULL;
    ck_assert_code(sbx_cmd_new(&cmd, empty), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_new(&cmd, none), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_new(&cmd, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_client_new(NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_client_new(&c), SBX_OK);
    sbx_sandbox *s = NULL;
    ck_assert_code(sbx_sandbox_open(&s, c, NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_sandbox_open(&s, c, "nosuchbackend://", NULL), SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_code(sbx_sandbox_destroy(NULL), SBX_E_INVALID_ARGUMENT);
    sbx_client_free(c);
    const char *argv[] = {"x", NULL};
    ck_assert_int_eq(sbx_cmd_new(&cmd, argv), SBX_OK);
    ck_assert_code(sbx_cmd_set_cwd(cmd, "/abs"), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_cmd_set_cwd(cmd, "a/../.."), SBX_E_PATH_ESCAPE);
    ck_assert_code(sbx_cmd_set_env(cmd, "A=B", "x"), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_stdin(cmd, NULL, 3), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_stdin_fd(cmd, -1), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_stdin_fd(NULL, 0), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_pty(NULL, 24, 80), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_pty_resize(cmd, -1, NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cmd_set_pty_resize(NULL, 0, NULL, NULL), SBX_E_INVALID_ARGUMENT);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(backend_open_failure_keeps_its_message)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    client = test_client();
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://?fail=quota%20gone", NULL),
                   SBX_E_BACKEND_FAILED);
    ck_assert_ptr_nonnull(strstr(sbx_error_last()->message, "quota gone"));
    ck_assert_ptr_null(sb);
}
END_TEST

START_TEST(sandbox_reports_backend_tier_caps_and_redacted_dsn)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_CONTAINER);
    client = test_client();
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://?api_token=s3cr3t&x=1", NULL),
                   SBX_OK);
    ck_assert_str_eq(sbx_sandbox_backend(sb), "testcaps");
    ck_assert_int_eq(sbx_sandbox_tier(sb), SBX_TIER_CONTAINER);
    ck_assert(sbx_sandbox_caps(sb) == (SBX_CAP_EXEC | SBX_CAP_NET_NONE));
    ck_assert_ptr_null(strstr(sbx_sandbox_dsn(sb), "s3cr3t"));
    ck_assert_ptr_nonnull(strstr(sbx_sandbox_dsn(sb), "x=1"));
}
END_TEST

START_TEST(names_of_caps_tiers_and_codes)
{
    ck_assert_str_eq(sbx_cap_name(SBX_CAP_NET_NONE), "net-none");
    ck_assert(sbx_cap_from_name("limit-pids") == SBX_CAP_LIMIT_PIDS);
    ck_assert(sbx_cap_from_name("bogus") == 0);
    ck_assert_ptr_null(sbx_cap_name(SBX_CAP_EXEC | SBX_CAP_STDIN));
    for (uint64_t bit = 1; bit & SBX_CAP_ALL_KNOWN; bit <<= 1)
        ck_assert_msg(sbx_cap_from_name(sbx_cap_name(bit)) == bit, "cap bit %llx unnamed",
                      (unsigned long long)bit);
    int t = -1;
    ck_assert_code(sbx_tier_from_name("microvm", &t), SBX_OK);
    ck_assert_int_eq(t, SBX_TIER_MICROVM);
    ck_assert_code(sbx_tier_from_name("vm", &t), SBX_E_INVALID_ARGUMENT);
    ck_assert_str_eq(sbx_tier_name(99), "invalid");
    ck_assert_str_eq(sbx_version(), SBX_VERSION_STRING);
}
END_TEST

START_TEST(probe_reports_what_open_would_check)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_MEMORY, SBX_TIER_CONTAINER);
    char mask[32];
    snprintf(mask, sizeof(mask), "%llx", (unsigned long long)(SBX_CAP_EXEC | SBX_CAP_NET_NONE));
    setenv("SBX_TESTCAPS_PROBE", mask, 1);
    client = test_client();
    uint64_t caps = 0;
    int tier = -1;
    ck_assert_code(sbx_client_probe(client, "testcaps://", &caps, &tier), SBX_OK);
    ck_assert(caps == (SBX_CAP_EXEC | SBX_CAP_NET_NONE));
    ck_assert_int_eq(tier, SBX_TIER_CONTAINER);
    ck_assert(!testcaps_log_has("open"));
    ck_assert_code(sbx_client_probe(client, "testcaps://", NULL, NULL), SBX_OK);
    ck_assert_code(sbx_client_probe(client, "nosuch://", &caps, &tier), SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_code(sbx_client_probe(client, "no scheme", &caps, &tier), SBX_E_DSN_BAD_CHARACTER);
    ck_assert_code(sbx_client_probe(NULL, "testcaps://", &caps, &tier), SBX_E_INVALID_ARGUMENT);
}
END_TEST

/* --- sbx_run(): a sandbox for one command ------------------------------- */

static void oneshot_setup(uint64_t caps, int with_run)
{
    testcaps_setup(caps | SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    if (with_run)
        setenv("SBX_TESTCAPS_RUN", "1", 1);
    else
        unsetenv("SBX_TESTCAPS_RUN");
    unsetenv("SBX_TESTCAPS_DESTROY_FAIL");
    client = test_client();
}

START_TEST(oneshot_refused_before_anything_is_created)
{
    oneshot_setup(0, 1);
    sbx_cmd *cmd = cmd_of("cat", NULL);
    ck_assert_int_eq(sbx_cmd_set_stdin(cmd, "hi", 2), SBX_OK);
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, cmd), SBX_E_CAP_STDIN);
    ck_assert_ptr_null(r);
    size_t n = 0;
    ck_assert_code(sbx_run_stream(&r, client, "testcaps://", NULL, cmd, count_cb, &n),
                   SBX_E_CAP_STREAM);
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_memory(policy, 256u << 20), SBX_OK);
    sbx_cmd_free(cmd);
    cmd = cmd_of("true", NULL);
    ck_assert_code(sbx_run(&r, client, "testcaps://", policy, cmd), SBX_E_POLICY_MEMORY);
    ck_assert_ptr_null(r);
    sbx_cmd_free(cmd);
    char *log = testcaps_log();
    ck_assert_msg(log[0] == '\0', "a refused one-shot run reached the plugin: %s", log);
    free(log);
}
END_TEST

START_TEST(oneshot_without_plugin_run_opens_execs_destroys)
{
    oneshot_setup(0, 0);
    sbx_cmd *cmd = cmd_of("true", "5");
    sbx_result *r = NULL;
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, cmd), SBX_OK);
    size_t len = 0;
    ck_assert_mem_eq(sbx_result_stdout(r, &len), "xxxxx", 5);
    ck_assert_uint_eq(len, 5);
    ck_assert_int_eq(sbx_result_exit_code(r), 0);
    char *log = testcaps_log();
    char *open = strstr(log, "open "), *exec = strstr(log, "exec true"),
         *destroy = strstr(log, "destroy");
    ck_assert_msg(open && exec && destroy && open < exec && exec < destroy,
                  "expected open, exec, destroy in that order: %s", log);
    free(log);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(oneshot_uses_plugin_run_with_the_core_output_cap)
{
    oneshot_setup(0, 1);
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_output_cap(policy, 3), SBX_OK);
    sbx_cmd *cmd = cmd_of("true", "5");
    sbx_result *r = NULL;
    ck_assert_code(sbx_run(&r, client, "testcaps://", policy, cmd), SBX_OK);
    size_t len = 0;
    sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 1);
    ck_assert(testcaps_log_has("run network=0"));
    ck_assert_msg(!testcaps_log_has("open ") && !testcaps_log_has("destroy"),
                  "the plugin's run was not used alone");
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(oneshot_destroy_failure_outranks_the_command)
{
    oneshot_setup(0, 0);
    setenv("SBX_TESTCAPS_DESTROY_FAIL", "1", 1);
    sbx_cmd *cmd = cmd_of("true", NULL);
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, cmd), SBX_E_BACKEND_FAILED);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(sbx_error_last()->message, "asked to fail destroy"));
    unsetenv("SBX_TESTCAPS_DESTROY_FAIL");
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(oneshot_bad_arguments_have_exact_codes)
{
    oneshot_setup(0, 0);
    sbx_cmd *cmd = cmd_of("true", NULL);
    sbx_result *r = NULL;
    ck_assert_code(sbx_run(NULL, client, "testcaps://", NULL, cmd), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run(&r, NULL, "testcaps://", NULL, cmd), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run(&r, client, NULL, NULL, cmd), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run_stream(&r, client, "testcaps://", NULL, cmd, NULL, NULL),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run(&r, client, "nosuchbackend://", NULL, cmd), SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_ptr_null(r);
    char *log = testcaps_log();
    ck_assert_msg(log[0] == '\0', "a bad call reached the plugin: %s", log);
    free(log);
    sbx_cmd_free(cmd);
}
END_TEST

/* --- where a result ran, and one preparation for a live run ------------- */

START_TEST(result_says_where_it_ran_after_client_is_gone)
{
    oneshot_setup(0, 1);
    setenv("SBX_TESTCAPS_TIER", "3", 1); /* SBX_TIER_CONTAINER, read by the next client's init */
    sbx_client_free(client);
    client = test_client();
    sbx_cmd *cmd = cmd_of("true", NULL);
    sbx_result *r = NULL;
    ck_assert_code(sbx_run(&r, client, "testcaps://?api_token=s3cr3t&x=1", NULL, cmd), SBX_OK);
    /* The result owns copies: nothing of it points into the client or plugin. */
    sbx_client_free(client);
    client = NULL;
    ck_assert_str_eq(sbx_result_backend(r), "testcaps");
    ck_assert_int_eq(sbx_result_tier(r), SBX_TIER_CONTAINER);
    ck_assert_ptr_null(strstr(sbx_result_dsn(r), "s3cr3t"));
    ck_assert_ptr_nonnull(strstr(sbx_result_dsn(r), "testcaps://"));
    ck_assert_ptr_nonnull(strstr(sbx_result_dsn(r), "x=1"));
    ck_assert_int_eq(sbx_result_streamed(r), 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
    ck_assert_str_eq(sbx_result_backend(NULL), "");
    ck_assert_str_eq(sbx_result_dsn(NULL), "");
    ck_assert_int_eq(sbx_result_tier(NULL), SBX_TIER_UNKNOWN);
    ck_assert_int_eq(sbx_result_streamed(NULL), 0);
}
END_TEST

START_TEST(exec_result_says_where_it_ran_and_that_it_streamed)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = cmd_of("true", "4");
    sbx_result *r = NULL;
    size_t n = 0;
    ck_assert_code(sbx_exec_stream(&r, sb, cmd, count_cb, &n), SBX_OK);
    ck_assert_str_eq(sbx_result_backend(r), sbx_sandbox_backend(sb));
    ck_assert_str_eq(sbx_result_dsn(r), sbx_sandbox_dsn(sb));
    ck_assert_int_eq(sbx_result_tier(r), SBX_TIER_NAMESPACE);
    ck_assert_int_eq(sbx_result_streamed(r), 1);
    ck_assert_uint_eq(n, 4);
    sbx_result_free(r);
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_OK);
    ck_assert_int_eq(sbx_result_streamed(r), 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

/* sbx_run_live with caps: streamed or captured, and the backend probed once. */
static void assert_live_run(uint64_t caps, int streams)
{
    oneshot_setup(caps, 0);
    const char *plog = testcaps_probe_log_start();
    sbx_cmd *cmd = cmd_of("true", "5");
    sbx_result *r = NULL;
    size_t n = 0, len = 99;
    ck_assert_code(sbx_run_live(&r, client, "testcaps://", NULL, cmd, count_cb, &n), SBX_OK);
    ck_assert_int_eq(testcaps_probes_counted(plog), 1);
    ck_assert_int_eq(sbx_result_streamed(r), streams);
    ck_assert_uint_eq(n, streams ? 5 : 0);
    sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, streams ? 0 : 5);
    testcaps_probe_log_stop(plog);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}

START_TEST(live_run_without_stream_captures_and_probes_once)
{
    assert_live_run(0, 0);
}
END_TEST

START_TEST(live_run_with_stream_streams_and_probes_once)
{
    assert_live_run(SBX_CAP_STREAM, 1);
}
END_TEST

START_TEST(live_run_bad_arguments_have_exact_codes)
{
    oneshot_setup(0, 0);
    sbx_cmd *cmd = cmd_of("true", NULL);
    sbx_result *r = (sbx_result *)1;
    size_t n = 0;
    ck_assert_code(sbx_run_live(&r, client, "testcaps://", NULL, cmd, NULL, NULL),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run_live(NULL, client, "testcaps://", NULL, cmd, count_cb, &n),
                   SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_run_live(&r, client, "nosuchbackend://", NULL, cmd, count_cb, &n),
                   SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_ptr_null(r);
    ck_assert_code(sbx_cmd_set_stdin(cmd, "x", 1), SBX_OK);
    ck_assert_code(sbx_run_live(&r, client, "testcaps://", NULL, cmd, count_cb, &n),
                   SBX_E_CAP_STDIN);
    ck_assert_ptr_null(r);
    sbx_cmd_free(cmd);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("sandbox-api");
    TCase *tc = tcase_create("core-guarantees");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, stdin_refused_without_cap);
    tcase_add_test(tc, stdin_fd_refused_without_cap);
    tcase_add_test(tc, pty_refused_without_cap);
    tcase_add_test(tc, ping_reaches_the_plugin_or_says_nothing_to_contact);
    tcase_add_test(tc, stdin_from_a_descriptor_is_streamed_then_eof);
    tcase_add_test(tc, oneshot_refused_before_anything_is_created);
    tcase_add_test(tc, oneshot_without_plugin_run_opens_execs_destroys);
    tcase_add_test(tc, oneshot_uses_plugin_run_with_the_core_output_cap);
    tcase_add_test(tc, oneshot_destroy_failure_outranks_the_command);
    tcase_add_test(tc, oneshot_bad_arguments_have_exact_codes);
    tcase_add_test(tc, result_says_where_it_ran_after_client_is_gone);
    tcase_add_test(tc, exec_result_says_where_it_ran_and_that_it_streamed);
    tcase_add_test(tc, live_run_without_stream_captures_and_probes_once);
    tcase_add_test(tc, live_run_with_stream_streams_and_probes_once);
    tcase_add_test(tc, live_run_bad_arguments_have_exact_codes);
    tcase_add_test(tc, cwd_refused_without_cap);
    tcase_add_test(tc, env_refused_without_cap);
    tcase_add_test(tc, timeout_refused_without_cap);
    tcase_add_test(tc, stream_refused_without_cap);
    tcase_add_test(tc, exec_refused_without_cap);
    tcase_add_test(tc, files_refused_without_cap);
    tcase_add_test(tc, native_refused_without_cap);
    tcase_add_test(tc, native_reaches_plugin_with_cap);
    tcase_add_test(tc, destroy_twice_is_ok_and_use_after_destroy_refused);
    tcase_add_test(tc, paths_escaping_the_root_refused);
    tcase_add_test(tc, paths_are_normalised_before_the_plugin);
    tcase_add_test(tc, plugin_error_detail_is_kept);
    tcase_add_test(tc, listing_is_sorted);
    tcase_add_test(tc, listing_past_the_entry_bound_is_refused_and_stops_the_backend);
    tcase_add_test(tc, listing_past_the_name_bytes_bound_is_refused_and_stops_the_backend);
    tcase_add_test(tc, environment_is_policy_then_command_and_nothing_inherited);
    tcase_add_test(tc, smaller_timeout_of_policy_and_command_applies);
    tcase_add_test(tc, output_cap_truncates_and_says_so);
    tcase_add_test(tc, policy_output_cap_is_a_ceiling);
    tcase_add_test(tc, stream_callback_can_abort);
    tcase_add_test(tc, stdin_reaches_plugin_then_eof);
    tcase_add_test(tc, bad_arguments_have_exact_codes);
    tcase_add_test(tc, backend_open_failure_keeps_its_message);
    tcase_add_test(tc, sandbox_reports_backend_tier_caps_and_redacted_dsn);
    tcase_add_test(tc, names_of_caps_tiers_and_codes);
    tcase_add_test(tc, probe_reports_what_open_would_check);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(api_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
