/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbx_cancel: the API's exact codes, a cancel triggered before the exec
 * (nothing runs, nothing is created), the core's fallback through the
 * callbacks for a plugin that does not watch cancel_fd (testcaps), and a
 * silent command on the fake backend stopped from another thread and from a
 * signal handler.
 */
#include "testutil.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

/* Generous: the bound only tells "stopped" from "ran its 600 s". */
#define STOP_BOUND_S 15

static sbx_client *client;
static sbx_cancel *cancel;
static sbx_cmd *cmd;

static void teardown(void)
{
    sbx_cmd_free(cmd);
    cmd = NULL;
    sbx_cancel_free(cancel);
    cancel = NULL;
    sbx_client_free(client);
    client = NULL;
}

static sbx_cmd *cmd_of(const char *const *argv)
{
    sbx_cmd *c = NULL;
    ck_assert_int_eq(sbx_cmd_new(&c, argv), SBX_OK);
    return c;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(cancel_api_has_exact_codes)
{
    ck_assert_code(sbx_cancel_new(NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_cancel_trigger(NULL), SBX_E_INVALID_ARGUMENT);
    ck_assert_int_eq(sbx_cancel_triggered(NULL), 0);
    sbx_cancel_free(NULL);
    ck_assert_code(sbx_cancel_new(&cancel), SBX_OK);
    ck_assert_int_eq(sbx_cancel_triggered(cancel), 0);
    errno = EDOM;
    ck_assert_code(sbx_cancel_trigger(cancel), SBX_OK);
    ck_assert_int_eq(errno, EDOM); /* a signal handler's caller keeps its errno */
    ck_assert_int_eq(sbx_cancel_triggered(cancel), 1);
    ck_assert_code(sbx_cancel_trigger(cancel), SBX_OK); /* idempotent */
    ck_assert_int_eq(sbx_cancel_triggered(cancel), 1);
    ck_assert_code(sbx_cmd_set_cancel(NULL, cancel), SBX_E_INVALID_ARGUMENT);
    cmd = cmd_of((const char *const[]){"true", NULL});
    ck_assert_code(sbx_cmd_set_cancel(cmd, cancel), SBX_OK);
    ck_assert_code(sbx_cmd_set_cancel(cmd, NULL), SBX_OK);
}
END_TEST

START_TEST(cancelled_before_start_runs_and_creates_nothing)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    unsetenv("SBX_TESTCAPS_RUN");
    client = test_client();
    ck_assert_code(sbx_cancel_new(&cancel), SBX_OK);
    ck_assert_code(sbx_cancel_trigger(cancel), SBX_OK);
    cmd = cmd_of((const char *const[]){"true", NULL});
    ck_assert_code(sbx_cmd_set_cancel(cmd, cancel), SBX_OK);

    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, cmd), SBX_E_EXEC_CANCELLED);
    ck_assert_ptr_null(r);
    char *log = testcaps_log();
    ck_assert_msg(log[0] == '\0', "a cancelled run reached the plugin: %s", log);
    free(log);

    setenv("SBX_TESTCAPS_RUN", "1", 1); /* the plugin's one-shot path too */
    ck_assert_code(sbx_run(&r, client, "testcaps://", NULL, cmd), SBX_E_EXEC_CANCELLED);
    ck_assert_msg(!testcaps_log_has("run "), "a cancelled one-shot reached the plugin");
    unsetenv("SBX_TESTCAPS_RUN");

    sbx_sandbox *sb = NULL;
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", NULL), SBX_OK);
    ck_assert_code(sbx_exec(&r, sb, cmd), SBX_E_EXEC_CANCELLED);
    ck_assert_ptr_null(r);
    ck_assert_msg(!testcaps_log_has("exec "), "a cancelled exec reached the plugin");
    ck_assert_int_eq(sbx_error_last()->code, SBX_E_EXEC_CANCELLED);
    sbx_sandbox_free(sb);
}
END_TEST

static int trigger_on_output(void *ud, int stream, const void *data, size_t len)
{
    (void)stream, (void)data, (void)len;
    sbx_cancel_trigger(ud);
    return 0;
}

/* testcaps never looks at cancel_fd: the core stops it at its next output. */
START_TEST(plugin_ignoring_cancel_fd_is_stopped_through_its_output)
{
    testcaps_setup(SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    unsetenv("SBX_TESTCAPS_RUN");
    client = test_client();
    ck_assert_code(sbx_cancel_new(&cancel), SBX_OK);
    cmd = cmd_of((const char *const[]){"emit", "5000", NULL});
    ck_assert_code(sbx_cmd_set_cancel(cmd, cancel), SBX_OK);
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_run_stream(&r, client, "testcaps://", NULL, cmd, trigger_on_output, cancel),
                   SBX_E_EXEC_CANCELLED);
    ck_assert_ptr_null(r);
    ck_assert_msg(testcaps_log_has("destroy"), "the cancelled run left its sandbox");
}
END_TEST

/* --- a silent command on the fake backend -------------------------------- */

static atomic_long command_pid;

/* The command prints its pid on stderr, then is silent. */
static int note_pid(void *ud, int stream, const void *data, size_t len)
{
    (void)ud;
    if (stream == SBX_STDERR) {
        char buf[32] = "";
        memcpy(buf, data, len < sizeof(buf) - 1 ? len : sizeof(buf) - 1);
        atomic_store(&command_pid, strtol(buf, NULL, 10));
    }
    return 0;
}

static void wait_for_pid(void)
{
    for (int i = 0; i < 1000 && atomic_load(&command_pid) <= 0; i++)
        usleep(10000);
}

static void *trigger_later(void *arg)
{
    wait_for_pid();
    usleep(200000); /* well into its silence */
    sbx_cancel_trigger(arg);
    return NULL;
}

static sbx_cancel *signal_cancel;

static void on_usr1(int sig)
{
    (void)sig;
    sbx_cancel_trigger(signal_cancel);
}

static void *signal_later(void *arg)
{
    (void)arg;
    wait_for_pid();
    usleep(200000);
    kill(getpid(), SIGUSR1);
    return NULL;
}

static void fake_setup(void)
{
    ck_assert_code(sbx_client_new(&client), SBX_OK);
    ck_assert_code(sbx_cancel_new(&cancel), SBX_OK);
    cmd = cmd_of((const char *const[]){"sh", "-c", "echo $$ >&2; exec sleep 600", NULL});
    ck_assert_code(sbx_cmd_set_cancel(cmd, cancel), SBX_OK);
    atomic_store(&command_pid, 0);
}

static sbx_policy *open_policy(void)
{
    sbx_policy *p = NULL;
    ck_assert_code(sbx_policy_new(&p), SBX_OK);
    ck_assert_code(sbx_policy_set_network(p, SBX_NET_OPEN), SBX_OK);
    return p;
}

static void assert_command_gone(double started)
{
    ck_assert_msg(now_s() - started < STOP_BOUND_S, "the cancelled command ran %.1f s",
                  now_s() - started);
    long pid = atomic_load(&command_pid);
    ck_assert_int_gt(pid, 0);
    ck_assert_msg(kill((pid_t)pid, 0) != 0 && errno == ESRCH,
                  "the cancelled command (pid %ld) still runs", pid);
}

START_TEST(silent_exec_cancelled_from_another_thread)
{
    fake_setup();
    sbx_policy *p = open_policy();
    sbx_sandbox *sb = NULL;
    ck_assert_code(sbx_sandbox_open(&sb, client, "fake://", p), SBX_OK);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, trigger_later, cancel), 0);
    double started = now_s();
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec_stream(&r, sb, cmd, note_pid, NULL), SBX_E_EXEC_CANCELLED);
    ck_assert_ptr_null(r);
    pthread_join(t, NULL);
    assert_command_gone(started);
    /* The sandbox stays usable: only the command was cancelled. */
    sbx_cmd *ok = cmd_of((const char *const[]){"true", NULL});
    ck_assert_code(sbx_exec(&r, sb, ok), SBX_OK);
    ck_assert_int_eq(sbx_result_exit_code(r), 0);
    sbx_result_free(r);
    sbx_cmd_free(ok);
    sbx_sandbox_free(sb);
    sbx_policy_free(p);
}
END_TEST

START_TEST(silent_run_cancelled_from_a_signal_handler)
{
    fake_setup();
    signal_cancel = cancel;
    struct sigaction sa = {.sa_handler = on_usr1};
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
    sbx_policy *p = open_policy();
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, signal_later, NULL), 0);
    double started = now_s();
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_run_stream(&r, client, "fake://", p, cmd, note_pid, NULL),
                   SBX_E_EXEC_CANCELLED);
    ck_assert_ptr_null(r);
    pthread_join(t, NULL);
    assert_command_gone(started);
    sbx_policy_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cancel");
    TCase *tc = tcase_create("cancel");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, cancel_api_has_exact_codes);
    tcase_add_test(tc, cancelled_before_start_runs_and_creates_nothing);
    tcase_add_test(tc, plugin_ignoring_cancel_fd_is_stopped_through_its_output);
    tcase_add_test(tc, silent_exec_cancelled_from_another_thread);
    tcase_add_test(tc, silent_run_cancelled_from_a_signal_handler);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
