/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local plugin driven directly through its descriptor: execs, stdio,
 * files and timeouts. Life cycle and options: test_local_lifecycle.c.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "../../../lib/tests/run-suite.h"

static void *sb;

static void setup(void)
{
    sb = th_fixture_open(NULL, NULL);
}

static void teardown(void)
{
    th_fixture_close(&sb);
}

START_TEST(descriptor_declares_namespace_tier_and_caps)
{
    ck_assert_str_eq(th_plugin->name, "local");
    ck_assert_int_eq(th_plugin->tier, SBX_TIER_NAMESPACE);
    uint64_t want = SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV
                    | SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_PERSIST
                    | SBX_CAP_NET_ALLOWLIST;
    ck_assert_uint_eq(th_plugin->caps & want, want);
    ck_assert_uint_eq(th_plugin->caps & SBX_CAP_PORTS, 0);
}
END_TEST

START_TEST(exec_captures_stdout_stderr_and_exit_code)
{
    th_result r;
    th_sh(sb, "echo out; echo err >&2; exit 3", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.exited, 1);
    ck_assert_int_eq(r.ex.exit_code, 3);
    ck_assert_str_eq(r.out, "out\n");
    ck_assert_str_eq(r.err, "err\n");
    th_result_free(&r);
}
END_TEST

START_TEST(exec_reports_the_killing_signal)
{
    th_result r;
    th_sh(sb, "kill -TERM $$", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.exited, 0);
    ck_assert_int_eq(r.ex.signal, SIGTERM);
    th_result_free(&r);
}
END_TEST

START_TEST(exec_gets_exactly_the_given_environment)
{
    const char *argv[] = { "env", NULL };
    const char *envp[] = { "A=1", "PATH=/usr/bin", "HOME=/h", NULL };
    th_result r;
    th_exec(sb, argv, envp, NULL, NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "A=1\nPATH=/usr/bin\nHOME=/h\n");
    th_result_free(&r);
    /* Without HOME, the work dir is the command's HOME, and nothing else is added. */
    envp[2] = NULL;
    th_exec(sb, argv, envp, NULL, NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "A=1\nPATH=/usr/bin\nHOME=/work\n");
    th_result_free(&r);
}
END_TEST

START_TEST(exec_runs_in_work_dir_or_given_cwd)
{
    th_result r;
    th_sh(sb, "pwd; mkdir -p sub", 0, &r);
    ck_assert_str_eq(r.out, "/work\n");
    th_result_free(&r);
    const char *argv[] = { "pwd", NULL };
    th_exec(sb, argv, NULL, "sub", NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "/work/sub\n");
    th_result_free(&r);
    th_exec(sb, argv, NULL, "/tmp", NULL, 0, 0, &r);
    ck_assert_str_eq(r.out, "/tmp\n");
    th_result_free(&r);
    /* A missing directory is made, with its parents, as `docker run -w` does. */
    th_exec(sb, argv, NULL, "missing/deeper", NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "/work/missing/deeper\n");
    th_result_free(&r);
    /* One that cannot be made is still a failure to start. */
    th_sh(sb, "touch afile", 0, &r);
    th_result_free(&r);
    th_exec(sb, argv, NULL, "afile/sub", NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_E_EXEC_START);
    th_result_free(&r);
}
END_TEST

START_TEST(exec_of_missing_command_is_not_found_unexecutable_is_denied)
{
    const char *argv[] = { "no-such-command-xyz", NULL };
    th_result r;
    th_exec(sb, argv, NULL, NULL, NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_E_EXEC_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(th_msg, "not found"));
    th_result_free(&r);
    const char *argv2[] = { "/etc/passwd", NULL };
    th_exec(sb, argv2, NULL, NULL, NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_E_EXEC_DENIED);
    th_result_free(&r);
    const char *argv3[] = { "/etc", NULL };
    th_exec(sb, argv3, NULL, NULL, NULL, 0, 0, &r);
    ck_assert_int_eq(r.rc, SBX_E_EXEC_DENIED);
    th_result_free(&r);
}
END_TEST

START_TEST(stdin_is_fed_then_closed)
{
    size_t len = 8u << 20;
    char *data = malloc(len);
    memset(data, 'x', len);
    const char *argv[] = { "wc", "-c", NULL };
    th_result r;
    th_exec(sb, argv, NULL, NULL, data, len, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(atol(r.out), (long)len);
    th_result_free(&r);
    /* A command that never reads its stdin must not block or kill the client. */
    const char *argv2[] = { "true", NULL };
    th_exec(sb, argv2, NULL, NULL, data, len, 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.exit_code, 0);
    th_result_free(&r);
    free(data);
}
END_TEST

START_TEST(large_stdout_and_stderr_stream_without_deadlock)
{
    th_result r;
    th_sh(sb, "head -c 33554432 /dev/zero & head -c 33554432 /dev/zero >&2; wait", 60000, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    /* A kill at the deadline is no data loss: say which it was. */
    ck_assert_msg(!r.ex.timed_out, "hit its 60 s deadline after %llu ms (machine too slow?)",
                  (unsigned long long)r.ms);
    ck_assert_msg(r.ex.exited && r.ex.exit_code == 0, "exited=%d code=%d signal=%d: %.200s",
                  r.ex.exited, r.ex.exit_code, r.ex.signal, r.err);
    ck_assert_uint_eq(r.out_len, 32u << 20);
    ck_assert_uint_eq(r.err_len, 32u << 20);
    th_result_free(&r);
}
END_TEST

static void *exec_thread(void *arg)
{
    th_result *r = arg;
    th_sh(sb, "head -c 4194304 /dev/zero; echo done >&2", 60000, r);
    return NULL;
}

START_TEST(concurrent_execs_share_one_sandbox)
{
    pthread_t t[8];
    th_result r[8];
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, exec_thread, &r[i]), 0);
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        ck_assert_int_eq(r[i].rc, SBX_OK);
        ck_assert_uint_eq(r[i].out_len, 4u << 20);
        ck_assert_str_eq(r[i].err, "done\n");
        th_result_free(&r[i]);
    }
}
END_TEST

START_TEST(files_persist_between_execs)
{
    th_result r;
    int rc = th_write(sb, "a/b/c.txt", "hello\n", 6, 0640);
    ck_assert_msg(rc == SBX_OK, "%d %s", rc, th_msg);
    th_sh(sb, "cat a/b/c.txt; stat -c %a a/b/c.txt; echo more >> a/b/c.txt; echo new > made", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "hello\n640\n");
    ck_assert_str_eq(r.err, "");
    th_result_free(&r);
    char *data;
    size_t len;
    ck_assert_int_eq(th_read(sb, "a/b/c.txt", &data, &len), SBX_OK);
    ck_assert_str_eq(data, "hello\nmore\n");
    free(data);
    ck_assert_int_eq(th_read(sb, "made", &data, &len), SBX_OK);
    ck_assert_str_eq(data, "new\n");
    free(data);
}
END_TEST

typedef struct names {
    char buf[512];
} names;

static int on_entry(void *u, const sbx_plugin_dirent *e)
{
    names *n = u;
    char line[128];
    snprintf(line, sizeof line, "%s:%d:%llu ", e->name, e->type, (unsigned long long)e->size);
    strcat(n->buf, line);
    return 0;
}

START_TEST(file_errors_have_exact_codes)
{
    char *data;
    size_t len;
    names n = { "" };
    ck_assert_int_eq(th_read(sb, "missing", &data, &len), SBX_E_NOT_FOUND);
    free(data);
    ck_assert_int_eq(th_plugin->file_mkdir(sb, "d/e"), SBX_OK);
    ck_assert_int_eq(th_plugin->file_mkdir(sb, "d/e"), SBX_OK);
    ck_assert_int_eq(th_read(sb, "d", &data, &len), SBX_E_IS_DIRECTORY);
    free(data);
    ck_assert_int_eq(th_write(sb, "d/f", "12345", 5, 0644), SBX_OK);
    ck_assert_int_eq(th_write(sb, "d", "x", 1, 0644), SBX_E_IS_DIRECTORY);
    ck_assert_int_eq(th_plugin->file_list(sb, "d/f", on_entry, &n), SBX_E_NOT_DIRECTORY);
    ck_assert_int_eq(th_plugin->file_list(sb, "nope", on_entry, &n), SBX_E_NOT_FOUND);
    ck_assert_int_eq(th_plugin->file_list(sb, "d", on_entry, &n), SBX_OK);
    ck_assert_str_eq(n.buf, "e:2:40 f:1:5 ");
    ck_assert_int_eq(th_plugin->file_remove(sb, "d", 0), SBX_E_NOT_EMPTY);
    ck_assert_int_eq(th_plugin->file_remove(sb, "nope", 0), SBX_E_NOT_FOUND);
    ck_assert_int_eq(th_plugin->file_remove(sb, "d/f", 0), SBX_OK);
    ck_assert_int_eq(th_plugin->file_remove(sb, "d", 1), SBX_OK);
    ck_assert_int_eq(th_read(sb, "d/f", &data, &len), SBX_E_NOT_FOUND);
    free(data);
    ck_assert_int_eq(th_plugin->file_remove(sb, "", 1), SBX_E_BAD_PATH);
    /* A FIFO planted inside is refused, not waited on. */
    th_result r;
    th_sh(sb, "mkfifo pipe", 0, &r);
    ck_assert_int_eq(r.ex.exit_code, 0);
    th_result_free(&r);
    ck_assert_int_eq(th_read(sb, "pipe", &data, &len), SBX_E_NOT_REGULAR);
    free(data);
}
END_TEST

/* Holds the FIFO open for reading (O_RDWR never blocks) until its timeout kills it. */
static void *fifo_holder(void *arg)
{
    th_result *r = arg;
    th_sh(sb, "exec 3<>pipe && : > held && exec sleep 30", 3000, r);
    return NULL;
}

/* Writing over a FIFO returns at once, whether or not something inside reads it. */
START_TEST(writing_a_fifo_is_refused_not_blocked)
{
    th_result r;
    th_sh(sb, "mkfifo pipe && mkdir d && mkfifo d/pipe", 0, &r);
    ck_assert_int_eq(r.ex.exit_code, 0);
    th_result_free(&r);
    ck_assert_int_eq(th_write(sb, "pipe", "x", 1, 0644), SBX_E_NOT_REGULAR);
    ck_assert_int_eq(th_write(sb, "d/pipe", "x", 1, 0644), SBX_E_NOT_REGULAR);
    /* With a reader the open succeeds: the type check must refuse it. */
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, fifo_holder, &r), 0);
    char *data = NULL;
    size_t len;
    for (int i = 0; i < 300 && th_read(sb, "held", &data, &len) != SBX_OK; i++) {
        free(data);
        data = NULL;
        usleep(10000);
    }
    free(data);
    ck_assert_int_eq(th_write(sb, "pipe", "data", 4, 0644), SBX_E_NOT_REGULAR);
    ck_assert_int_eq(th_read(sb, "pipe", &data, &len), SBX_E_NOT_REGULAR);
    free(data);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.ex.timed_out, 1); /* the holder held it all along */
    th_result_free(&r);
    th_sh(sb, "test -p pipe && echo fifo", 0, &r);
    ck_assert_str_eq(r.out, "fifo\n");
    th_result_free(&r);
}
END_TEST

START_TEST(timeout_kills_the_whole_tree_with_daemons)
{
    th_result r;
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    th_sh(sb, "setsid sh -c 'sleep 1000 & sleep 1000' & (sleep 1000 &) ; sleep 1000", 500, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.timed_out, 1);
    ck_assert_int_eq(r.ex.exited, 0);
    ck_assert_int_eq(r.ex.signal, SIGKILL);
    ck_assert_uint_lt(r.ms, 5000);
    th_result_free(&r);
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1); /* init alone */
}
END_TEST

START_TEST(background_processes_end_with_their_exec)
{
    th_result r;
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    th_sh(sb, "setsid sleep 1000 & echo started", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.exit_code, 0);
    ck_assert_str_eq(r.out, "started\n");
    ck_assert_uint_lt(r.ms, 5000);
    th_result_free(&r);
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1);
}
END_TEST

static int stop_at_once(void *u, int stream, const void *d, size_t l)
{
    (void)u; (void)stream; (void)d; (void)l;
    return 1;
}

START_TEST(output_callback_can_abort)
{
    const char *argv[] = { "sh", "-c", "while :; do echo spam; done", NULL };
    const char *envp[] = { "PATH=/usr/bin", NULL };
    sbx_plugin_cmd cmd = { .struct_size = sizeof cmd, .argv = argv, .envp = envp };
    sbx_plugin_io io = { .struct_size = sizeof io, .output = stop_at_once, .cancel_fd = -1,
                         .input_ready_fd = -1, .resize_fd = -1 };
    sbx_plugin_exit ex = { .struct_size = sizeof ex };
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    int rc = th_plugin->exec(sb, &cmd, &io, &ex);
    /* The message says which path failed when it is not the abort. */
    ck_assert_msg(rc == SBX_E_EXEC_ABORTED, "exec returned %d: %s", rc, th_msg);
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1);
}
END_TEST

/* A descriptor that becomes readable after ms: what cancel_fd is to a plugin. */
static int readable_after(long ms)
{
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    struct itimerspec at = { .it_value = { ms / 1000, (ms % 1000) * 1000000L } };
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(timerfd_settime(fd, 0, &at, NULL), 0);
    return fd;
}

START_TEST(silent_command_is_cancelled_through_cancel_fd)
{
    const char *argv[] = { "sh", "-c", "sleep 600 & sleep 600", NULL };
    const char *envp[] = { "PATH=/usr/bin:/bin", NULL };
    sbx_plugin_cmd cmd = { .struct_size = sizeof cmd, .argv = argv, .envp = envp };
    int cancel_fd = readable_after(300);
    sbx_plugin_io io = { .struct_size = sizeof io, .cancel_fd = cancel_fd, .input_ready_fd = -1,
                         .resize_fd = -1 };
    sbx_plugin_exit ex = { .struct_size = sizeof ex };
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    ck_assert_int_eq(th_plugin->exec(sb, &cmd, &io, &ex), SBX_E_EXEC_CANCELLED);
    /* Both sleeps are gone: only the sandbox's init is left. */
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1);
    close(cancel_fd);
}
END_TEST

static Suite *local_suite(void)
{
    Suite *s = suite_create("local");
    TCase *tc = tcase_create("sandbox");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, descriptor_declares_namespace_tier_and_caps);
    tcase_add_test(tc, exec_captures_stdout_stderr_and_exit_code);
    tcase_add_test(tc, exec_reports_the_killing_signal);
    tcase_add_test(tc, exec_gets_exactly_the_given_environment);
    tcase_add_test(tc, exec_runs_in_work_dir_or_given_cwd);
    tcase_add_test(tc, exec_of_missing_command_is_not_found_unexecutable_is_denied);
    tcase_add_test(tc, stdin_is_fed_then_closed);
    tcase_add_test(tc, large_stdout_and_stderr_stream_without_deadlock);
    tcase_add_test(tc, concurrent_execs_share_one_sandbox);
    tcase_add_test(tc, files_persist_between_execs);
    tcase_add_test(tc, file_errors_have_exact_codes);
    tcase_add_test(tc, writing_a_fifo_is_refused_not_blocked);
    tcase_add_test(tc, timeout_kills_the_whole_tree_with_daemons);
    tcase_add_test(tc, background_processes_end_with_their_exec);
    tcase_add_test(tc, output_callback_can_abort);
    tcase_add_test(tc, silent_command_is_cancelled_through_cancel_fd);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    th_skip_without_userns();
    return run_suite(local_suite());
}
