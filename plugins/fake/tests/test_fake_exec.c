/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake backend runs commands: exit status, argv, environment, working
 * directory, stdin, large and binary output, timeouts and aborts.
 */
#include "config.h"
#include "harness.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const base_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};

START_TEST(exit_codes_0_1_255_are_reported)
{
    static const int codes[] = {0, 1, 255};
    void *sb = th_open();

    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        char script[32];
        const char *argv[] = {"sh", "-c", script, NULL};
        th_result r = {0};

        snprintf(script, sizeof(script), "exit %d", codes[i]);
        th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
        ck_assert_int_eq(r.exit.exited, 1);
        ck_assert_int_eq(r.exit.exit_code, codes[i]);
        ck_assert_int_eq(r.exit.signal, 0);
        ck_assert_int_eq(r.exit.timed_out, 0);
    }
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(signal_death_is_reported)
{
    void *sb = th_open();
    const char *argv[] = {"sh", "-c", "kill -TERM $$", NULL};
    th_result r = {0};

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exited, 0);
    ck_assert_int_eq(r.exit.signal, SIGTERM);
    ck_assert_int_eq(r.exit.timed_out, 0);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(argv_reaches_the_command_verbatim_without_a_shell)
{
    void *sb = th_open();
    /* sh prints each of its arguments followed by a NUL byte. */
    const char *argv[] = {"sh", "-c", "for a in \"$@\"; do printf '%s\\000' \"$a\"; done", "sh",
                          "two words", "'q\"uo\\tes'", "ünïcødé ✓", "", "$HOME;`id`", "*",
                          NULL};
    static const char want[] = "two words\0'q\"uo\\tes'\0ünïcødé ✓\0\0$HOME;`id`\0*\0";
    th_result r = {.keep = true};

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_uint_eq(r.out_len, sizeof(want) - 1);
    ck_assert(memcmp(r.out, want, sizeof(want) - 1) == 0);
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(environment_is_exactly_the_one_given)
{
    void *sb = th_open();
    const char *argv[] = {"/usr/bin/env", NULL};
    const char *envp[] = {"FOO=bar baz", "EMPTY=", "UTF=é", "HOME=/h", NULL};
    th_result r = {.keep = true}, r2 = {.keep = true};

    setenv("SBX_FAKE_TEST_CANARY", "leaked", 1);
    th_assert_code(th_exec(sb, argv, envp, NULL, 0, &r), SBX_OK);
    ck_assert_str_eq(r.out, "FOO=bar baz\nEMPTY=\nUTF=é\nHOME=/h\n");
    /* No environment at all: only HOME, the work dir, as on the real backends. */
    th_assert_code(th_exec(sb, argv, NULL, NULL, 0, &r2), SBX_OK);
    ck_assert_uint_gt(r2.out_len, 6);
    ck_assert(strncmp(r2.out, "HOME=/", 6) == 0);
    ck_assert_ptr_null(memchr(r2.out, '\n', r2.out_len - 1));
    ck_assert_int_eq(r2.exit.exit_code, 0);
    th_result_free(&r);
    th_result_free(&r2);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(program_is_searched_in_the_commands_path)
{
    void *sb = th_open();
    static const char script[] = "#!/bin/sh\necho found \"$1\"\n";
    const char *argv[] = {"hello-sbx", "x", NULL};
    const char *envp[] = {"PATH=/nonexistent:tools/bin", NULL};
    th_result r = {.keep = true};

    th_assert_code(th_write(sb, "tools/bin/hello-sbx", script, strlen(script), 0755), SBX_OK);
    th_assert_code(th_exec(sb, argv, envp, NULL, 0, &r), SBX_OK);
    ck_assert_str_eq(r.out, "found x\n");
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(missing_command_fails_to_start)
{
    void *sb = th_open();
    const char *missing[] = {"no-such-command-sbx", NULL};
    const char *absent[] = {"/nonexistent/dir/prog", NULL};
    const char *plain[] = {"./plain.txt", NULL};
    th_result r = {0};

    th_assert_code(th_exec(sb, missing, base_env, NULL, 0, &r), SBX_E_EXEC_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(th_last_message(), "No such file"));
    th_assert_code(th_exec(sb, absent, base_env, NULL, 0, &r), SBX_E_EXEC_NOT_FOUND);
    th_assert_code(th_write(sb, "plain.txt", "echo hi\n", 8, 0644), SBX_OK);
    th_assert_code(th_exec(sb, plain, base_env, NULL, 0, &r), SBX_E_EXEC_DENIED);
    ck_assert_ptr_nonnull(strstr(th_last_message(), "Permission denied"));
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(cwd_is_resolved_under_the_root)
{
    void *sb = th_open();
    const char *argv[] = {"pwd", "-P", NULL};
    char want[4096];
    th_result r = {.keep = true}, top = {.keep = true}, abs = {.keep = true}, bad = {0};

    th_assert_code(th_plugin->file_mkdir(sb, "a/b c"), SBX_OK);
    th_assert_code(th_exec(sb, argv, base_env, "a/b c", 0, &r), SBX_OK);
    snprintf(want, sizeof(want), "%s/a/b c\n", th_root(sb));
    ck_assert_str_eq(r.out, want);
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &top), SBX_OK);
    snprintf(want, sizeof(want), "%s\n", th_root(sb));
    ck_assert_str_eq(top.out, want);

    /* Inside the fake, the root's host path is its absolute path. */
    snprintf(want, sizeof(want), "%s/a/b c", th_root(sb));
    th_assert_code(th_exec(sb, argv, base_env, want, 0, &abs), SBX_OK);
    ck_assert_str_eq(abs.out, r.out);
    snprintf(want, sizeof(want), "%s-sibling", th_root(sb));
    th_assert_code(th_exec(sb, argv, base_env, want, 0, &bad), SBX_E_PATH_ESCAPE);
    th_assert_code(th_exec(sb, argv, base_env, "/etc", 0, &bad), SBX_E_PATH_ESCAPE);
    /* A missing directory is made, with its parents, as `docker run -w` does. */
    th_result made = {.keep = true};
    th_assert_code(th_exec(sb, argv, base_env, "missing/deeper", 0, &made), SBX_OK);
    snprintf(want, sizeof(want), "%s/missing/deeper\n", th_root(sb));
    ck_assert_str_eq(made.out, want);
    th_result_free(&made);
    th_sh(sb, "ln -s /etc out && echo x > file");
    th_assert_code(th_exec(sb, argv, base_env, "out", 0, &bad), SBX_E_PATH_ESCAPE);
    th_assert_code(th_exec(sb, argv, base_env, "file", 0, &bad), SBX_E_NOT_DIRECTORY);
    th_result_free(&r);
    th_result_free(&top);
    th_result_free(&abs);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(stdin_is_fed_then_closed)
{
    void *sb = th_open();
    const char *cat[] = {"cat", NULL};
    th_result r = {.keep = true, .in = "line one\nline two", .in_len = 17};
    th_result none = {.keep = true};

    th_assert_code(th_exec(sb, cat, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_str_eq(r.out, "line one\nline two");
    /* Without stdin the command sees EOF at once instead of hanging. */
    th_assert_code(th_exec(sb, cat, base_env, NULL, 5000, &none), SBX_OK);
    ck_assert_int_eq(none.exit.timed_out, 0);
    ck_assert_uint_eq(none.out_len, 0);
    th_result_free(&r);
    th_result_free(&none);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(stdin_refused_by_the_command_is_not_an_error)
{
    void *sb = th_open();
    static char chunk[65536];
    const char *argv[] = {"sh", "-c", "exec 0<&-; echo closed", NULL};
    th_result r = {.keep = true, .in = chunk, .in_len = sizeof(chunk), .in_repeat = 128};

    /* The writes hit EPIPE: the test process must not die of SIGPIPE. */
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_str_eq(r.out, "closed\n");
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(large_output_on_both_streams_does_not_deadlock)
{
    void *sb = th_open();
    const char *argv[] = {"sh", "-c",
                          "head -c 67108864 /dev/zero & head -c 67108864 /dev/zero >&2; wait",
                          NULL};
    th_result r = {0};

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_uint_eq(r.out_count, 64u << 20);
    ck_assert_uint_eq(r.err_count, 64u << 20);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(large_stdin_and_stdout_flow_together)
{
    void *sb = th_open();
    static char chunk[1 << 20];
    const char *argv[] = {"sh", "-c", "cat; cat /dev/null >&2", NULL};
    th_result r = {.in = chunk, .in_len = sizeof(chunk), .in_repeat = 32};

    memset(chunk, 'x', sizeof(chunk));
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_uint_eq(r.out_count, 32u << 20);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(binary_output_keeps_nul_bytes)
{
    void *sb = th_open();
    char bytes[256];
    const char *argv[] = {"cat", "bin", NULL};
    th_result r = {.keep = true};

    for (int i = 0; i < 256; i++)
        bytes[i] = (char)i;
    th_assert_code(th_write(sb, "bin", bytes, sizeof(bytes), 0644), SBX_OK);
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_uint_eq(r.out_len, sizeof(bytes));
    ck_assert(memcmp(r.out, bytes, sizeof(bytes)) == 0);
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

static long read_pid_file(void *sb, const char *path)
{
    char *data;
    size_t len;
    long pid;

    th_assert_code(th_read(sb, path, &data, &len), SBX_OK);
    pid = strtol(data, NULL, 10);
    free(data);
    ck_assert_int_gt(pid, 1);
    return pid;
}

START_TEST(timeout_kills_the_whole_tree)
{
    void *sb = th_open();
    const char *argv[] = {"sh", "-c", "sleep 100 & echo $! > bg.pid; sleep 100", NULL};
    th_result r = {0};
    uint64_t start = sbxu_mono_ms(), took;

    th_assert_code(th_exec(sb, argv, base_env, NULL, 300, &r), SBX_OK);
    took = sbxu_mono_ms() - start;
    ck_assert_msg(took >= 290 && took < 3000, "exec took %llu ms", (unsigned long long)took);
    ck_assert_int_eq(r.exit.timed_out, 1);
    ck_assert_int_eq(r.exit.exited, 0);
    ck_assert_int_eq(r.exit.signal, SIGKILL);
    ck_assert_msg(th_pid_gone(read_pid_file(sb, "bg.pid"), 2000), "background sleep survived");
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(background_children_die_with_the_leader)
{
    void *sb = th_open();
    const char *argv[] = {"sh", "-c", "sleep 100 & echo $! > bg.pid", NULL};
    th_result r = {0};
    uint64_t start = sbxu_mono_ms();

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_uint_lt(sbxu_mono_ms() - start, 3000);
    ck_assert_int_eq(r.exit.exited, 1);
    ck_assert_int_eq(r.exit.timed_out, 0);
    ck_assert_msg(th_pid_gone(read_pid_file(sb, "bg.pid"), 2000), "background sleep survived");
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(process_that_left_the_group_does_not_hang_the_exec)
{
    void *sb = th_open();
    /* setsid puts the sleep out of reach of the group kill; it keeps stdout open. */
    const char *argv[] = {"sh", "-c", "setsid sleep 30 & echo $! > escaped.pid; echo started",
                          NULL};
    th_result r = {.keep = true};
    uint64_t start = sbxu_mono_ms(), took;
    long escaped;

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    took = sbxu_mono_ms() - start;
    escaped = read_pid_file(sb, "escaped.pid");
    kill((pid_t)escaped, SIGKILL);
    ck_assert_msg(took < 10000, "exec took %llu ms", (unsigned long long)took);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_str_eq(r.out, "started\n");
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(output_callback_abort_kills_the_command)
{
    void *sb = th_open();
    const char *argv[] = {"sh", "-c", "echo $$ > leader.pid; exec yes", NULL};
    th_result r = {.abort_after = 1 << 20};
    uint64_t start = sbxu_mono_ms();

    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_E_EXEC_ABORTED);
    ck_assert_uint_lt(sbxu_mono_ms() - start, 5000);
    ck_assert_msg(th_pid_gone(read_pid_file(sb, "leader.pid"), 2000), "yes survived");
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(input_callback_failure_aborts)
{
    void *sb = th_open();
    const char *argv[] = {"cat", NULL};
    th_result r = {.in_fail = true};

    th_assert_code(th_exec(sb, argv, base_env, NULL, 10000, &r), SBX_E_EXEC_ABORTED);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

static Suite *exec_suite(void)
{
    Suite *s = suite_create("fake-exec");
    TCase *basic = tcase_create("basic");
    TCase *io = tcase_create("io");
    TCase *kill = tcase_create("kill");

    tcase_add_test(basic, exit_codes_0_1_255_are_reported);
    tcase_add_test(basic, signal_death_is_reported);
    tcase_add_test(basic, argv_reaches_the_command_verbatim_without_a_shell);
    tcase_add_test(basic, environment_is_exactly_the_one_given);
    tcase_add_test(basic, program_is_searched_in_the_commands_path);
    tcase_add_test(basic, missing_command_fails_to_start);
    tcase_add_test(basic, cwd_is_resolved_under_the_root);
    suite_add_tcase(s, basic);
    tcase_add_test(io, stdin_is_fed_then_closed);
    tcase_add_test(io, stdin_refused_by_the_command_is_not_an_error);
    tcase_add_test(io, large_output_on_both_streams_does_not_deadlock);
    tcase_add_test(io, large_stdin_and_stdout_flow_together);
    tcase_add_test(io, binary_output_keeps_nul_bytes);
    suite_add_tcase(s, io);
    tcase_add_test(kill, timeout_kills_the_whole_tree);
    tcase_add_test(kill, background_children_die_with_the_leader);
    tcase_add_test(kill, process_that_left_the_group_does_not_hang_the_exec);
    tcase_add_test(kill, output_callback_abort_kills_the_command);
    tcase_add_test(kill, input_callback_failure_aborts);
    suite_add_tcase(s, kill);
    return s;
}

int main(void)
{
    return th_run_suite(exec_suite());
}
