/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allowlist proxy's seccomp filter (proxy/filter-rules.c), loaded as
 * the proxy loads it (px_confine): what the relay needs still works, and
 * each thing a taken-over proxy would try first kills it (SIGSYS): running
 * a program, opening a file, a unix socket (the host's daemons listen on
 * those), executable memory, tracing another process, a socket option
 * other than its buffers' sizes.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../proxy/confine.h"
#include "../../../lib/tests/run-suite.h"

/* Run fn in a child confined by the filter: its wait status. */
static int confined(int (*fn)(void))
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (px_confine() < 0)
            _exit(100);
        _exit(fn());
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return status;
}

static void assert_killed(int (*fn)(void))
{
    int status = confined(fn);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
                  "not killed by SIGSYS: wait status %#x", status);
}

/* The relay's own calls: a TCP socket, a pipe, splice between them, a log line. */
static int relay_calls(void)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int u = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int p[2], q[2];
    if (s < 0 || u < 0 || pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0 || pipe2(q, O_CLOEXEC) < 0)
        return 1;
    if (write(p[1], "abc", 3) != 3 || splice(p[0], NULL, q[1], NULL, 3, SPLICE_F_NONBLOCK) != 3)
        return 2;
    char buf[3];
    if (read(q[0], buf, 3) != 3 || fcntl(s, F_GETFL) < 0)
        return 3;
    struct sockaddr_storage name;
    socklen_t nlen = sizeof name;
    if (getsockname(u, (struct sockaddr *)&name, &nlen) < 0) /* where it would go from */
        return 3;
    int size = 64 * 1024; /* a connection's buffers, fixed */
    if (setsockopt(s, SOL_SOCKET, SO_RCVBUF, &size, sizeof size) < 0
        || setsockopt(s, SOL_SOCKET, SO_SNDBUF, &size, sizeof size) < 0)
        return 3;
    void *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || munmap(m, 1 << 20) < 0)
        return 4;
    void *big = malloc(1 << 22);
    if (!big)
        return 4;
    free(big);
    return close(s) || close(u) ? 5 : 0;
}

START_TEST(relay_calls_are_allowed)
{
    int status = confined(relay_calls);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status %#x", status);
}
END_TEST

static int run_a_program(void)
{
    execl("/bin/true", "true", (char *)NULL);
    return 1;
}

static int open_a_file(void)
{
    return open("/etc/passwd", O_RDONLY) < 0 ? 1 : 0;
}

static int make_a_unix_socket(void)
{
    return socket(AF_UNIX, SOCK_STREAM, 0) < 0 ? 1 : 0;
}

static int map_executable_memory(void)
{
    void *m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? 1 : 0;
}

static int make_memory_executable(void)
{
    void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED || mprotect(m, 4096, PROT_READ | PROT_EXEC) < 0 ? 1 : 0;
}

/* Any other option (here, where its packets go) is not the proxy's to set. */
static int set_another_socket_option(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0), mark = 1;
    return s < 0 || setsockopt(s, SOL_SOCKET, SO_MARK, &mark, sizeof mark) < 0 ? 1 : 0;
}

static int trace_a_process(void)
{
    return ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) < 0 ? 1 : 0;
}

START_TEST(running_a_program_kills_it) { assert_killed(run_a_program); }
END_TEST
START_TEST(opening_a_file_kills_it) { assert_killed(open_a_file); }
END_TEST
START_TEST(a_unix_socket_kills_it) { assert_killed(make_a_unix_socket); }
END_TEST
START_TEST(executable_memory_kills_it)
{
    assert_killed(map_executable_memory);
    assert_killed(make_memory_executable);
}
END_TEST
START_TEST(tracing_kills_it) { assert_killed(trace_a_process); }
END_TEST
START_TEST(another_socket_option_kills_it) { assert_killed(set_another_socket_option); }
END_TEST

int main(void)
{
    Suite *s = suite_create("proxy_filter");
    TCase *tc = tcase_create("filter");
    tcase_add_test(tc, relay_calls_are_allowed);
    tcase_add_test(tc, running_a_program_kills_it);
    tcase_add_test(tc, opening_a_file_kills_it);
    tcase_add_test(tc, a_unix_socket_kills_it);
    tcase_add_test(tc, executable_memory_kills_it);
    tcase_add_test(tc, tracing_kills_it);
    tcase_add_test(tc, another_socket_option_kills_it);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
