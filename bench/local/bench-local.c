/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-local: figures for the local backend through the public API.
 *
 *   bench-local exec N     N execs of /usr/bin/true in one open sandbox, each
 *                          followed by a plain posix_spawn+wait of it (interleaved)
 *   bench-local stdout N   N bytes through `head -c N /dev/zero | cat`, streamed
 *                          from a sandbox, then the same pipeline on the host
 *                          read the same way; 5 rounds
 *   bench-local idle N     host memory of N open idle sandboxes (PSS and RSS)
 *   bench-local many N     open N sandboxes at once, exec in each, destroy all
 *   bench-local compare N CMD1 CMD2 ...
 *                          wall time of each shell-free command line (split on
 *                          spaces), run interleaved N times (1 2 3 1 2 3 ...),
 *                          so a change in the machine's load hits all alike:
 *                          median and minimum of each, and the median of the
 *                          per-round ratios to CMD1 and to CMD2; a word "N<PATH" opens
 *                          descriptor N (> 2) on PATH for each run instead
 *
 * Run from bench/local/run.sh, which prints the command lines it used.
 */
#include "config.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "../median.h"

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "bench-local: %s: %s %s\n", what, sbx_error_id(rc), e ? e->message : "");
    exit(1);
}

static sbx_sandbox *open_local(sbx_client *c)
{
    sbx_sandbox *sb;
    int rc = sbx_sandbox_open(&sb, c, "local://", NULL);
    if (rc)
        die("open", rc);
    return sb;
}

static void run(sbx_sandbox *sb, const char *const *argv)
{
    sbx_cmd *cmd;
    sbx_result *res;
    int rc = sbx_cmd_new(&cmd, argv);
    if (rc || (rc = sbx_exec(&res, sb, cmd)))
        die("exec", rc);
    if (sbx_result_exit_code(res) != 0)
        die("exec status", 0);
    sbx_result_free(res);
    sbx_cmd_free(cmd);
}

static double spawn_plain(const char *const *argv)
{
    pid_t pid;
    int st;
    double t0 = now_s();
    if (posix_spawn(&pid, argv[0], NULL, NULL, (char **)argv, environ) != 0
        || waitpid(pid, &st, 0) != pid)
        die("posix_spawn", 0);
    return now_s() - t0;
}

/* One exec in the sandbox, then one plain spawn, in turn: the load hits both alike. */
static int bench_exec(sbx_client *c, int n)
{
    const char *const argv[] = { "/usr/bin/true", NULL };
    double *in = calloc((size_t)n, sizeof *in), *plain = calloc((size_t)n, sizeof *plain),
           *ratio = calloc((size_t)n, sizeof *ratio);
    sbx_sandbox *sb = open_local(c);
    run(sb, argv); /* warm up */
    spawn_plain(argv);
    double sum_in = 0, sum_plain = 0;
    for (int i = 0; i < n; i++) {
        double t0 = now_s();
        run(sb, argv);
        in[i] = now_s() - t0;
        plain[i] = spawn_plain(argv);
        ratio[i] = in[i] / plain[i];
        sum_in += in[i];
        sum_plain += plain[i];
    }
    sbx_sandbox_destroy(sb);
    sbx_sandbox_free(sb);
    printf("exec_in_open_sandbox_us %.1f (median %.1f)\nplain_fork_exec_us %.1f (median %.1f)\n"
           "ratio_of_means %.2f\nmedian_ratio %.2f\n",
           sum_in / n * 1e6, bench_median(in, n) * 1e6, sum_plain / n * 1e6,
           bench_median(plain, n) * 1e6, sum_in / sum_plain, bench_median(ratio, n));
    free(in);
    free(plain);
    free(ratio);
    return 0;
}

static int count_bytes(void *u, int stream, const void *data, size_t len)
{
    (void)stream;
    (void)data;
    *(unsigned long long *)u += len;
    return 0;
}

/*
 * The same pipeline on the host, read by this process exactly as the
 * plugin reads a command's stdout (a 1 MiB pipe, 1 MiB reads): the
 * sandbox's own cost is the ratio between the two.
 */
static double host_pipeline(const char *script, unsigned long long n)
{
    const char *const argv[] = { "sh", "-c", script, NULL };
    static char buf[1 << 20];
    int p[2];
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st;
    unsigned long long got = 0;
    double t0 = now_s();
    if (pipe2(p, O_CLOEXEC) < 0)
        die("pipe", 0);
    (void)fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    if (posix_spawnp(&pid, "sh", &fa, NULL, (char **)argv, environ) != 0)
        die("posix_spawn", 0);
    close(p[1]);
    for (ssize_t r; (r = read(p[0], buf, sizeof buf)) > 0;)
        got += (unsigned long long)r;
    close(p[0]);
    waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    if (got != n)
        die("host pipeline: short output", 0);
    return now_s() - t0;
}

/* Rounds of: the pipeline in the sandbox, streamed; the same on the host. */
static int bench_stdout(sbx_client *c, unsigned long long n, int rounds)
{
    char script[128];
    snprintf(script, sizeof script, "head -c %llu /dev/zero | cat", n);
    const char *const argv[] = { "sh", "-c", script, NULL };
    sbx_sandbox *sb = open_local(c);
    double best_in = 0, best_host = 0, *ratio = calloc((size_t)rounds, sizeof *ratio);
    for (int i = 0; i < rounds; i++) {
        sbx_cmd *cmd;
        sbx_result *res;
        unsigned long long got = 0;
        int rc = sbx_cmd_new(&cmd, argv);
        if (!rc)
            rc = sbx_cmd_set_env(cmd, "PATH", "/usr/bin:/bin");
        double t0 = now_s();
        if (rc || (rc = sbx_exec_stream(&res, sb, cmd, count_bytes, &got)))
            die("exec", rc);
        double in = (double)n / (now_s() - t0) / 1e9;
        if (got != n)
            die("short output", 0);
        sbx_result_free(res);
        sbx_cmd_free(cmd);
        double host = (double)n / host_pipeline(script, n) / 1e9;
        printf("round %d: sandbox %.2f GB/s  host %.2f GB/s\n", i + 1, in, host);
        ratio[i] = in / host;
        best_in = in > best_in ? in : best_in;
        best_host = host > best_host ? host : best_host;
    }
    printf("stdout_bytes %llu\nbest_GB_per_s %.2f\nhost_best_GB_per_s %.2f\n"
           "median_ratio_to_host %.2f\n", n, best_in, best_host, bench_median(ratio, rounds));
    free(ratio);
    sbx_sandbox_destroy(sb);
    sbx_sandbox_free(sb);
    return 0;
}

/* kB of a /proc/PID/smaps_rollup field. */
static long smaps_kb(int pid, const char *field)
{
    char path[64], line[256];
    long kb = 0;
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t fl = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, fl) == 0 && line[fl] == ':')
            kb = atol(line + fl + 1);
    fclose(f);
    return kb;
}

static int bench_idle(sbx_client *c, int n)
{
    sbx_sandbox **v = calloc((size_t)n, sizeof *v);
    long self_before = smaps_kb(getpid(), "Rss");
    for (int i = 0; i < n; i++)
        v[i] = open_local(c);
    long pss = 0, rss = 0;
    for (int i = 0; i < n; i++) {
        int pid = atoi(sbx_sandbox_id(v[i]) + strlen("local-"));
        pss += smaps_kb(pid, "Pss");
        rss += smaps_kb(pid, "Rss");
    }
    long self_delta = smaps_kb(getpid(), "Rss") - self_before;
    printf("sandboxes %d\ninit_pss_kib_each %.0f\ninit_rss_kib_each %.0f\n"
           "client_rss_kib_each %.1f\nhost_kib_per_idle_sandbox %.0f\n",
           n, (double)pss / n, (double)rss / n, (double)self_delta / n,
           (double)(pss + (self_delta > 0 ? self_delta : 0)) / n);
    for (int i = 0; i < n; i++) {
        sbx_sandbox_destroy(v[i]);
        sbx_sandbox_free(v[i]);
    }
    free(v);
    return 0;
}

static int bench_many(sbx_client *c, int n)
{
    const char *const argv[] = { "/usr/bin/true", NULL };
    sbx_sandbox **v = calloc((size_t)n, sizeof *v);
    double t0 = now_s();
    for (int i = 0; i < n; i++)
        v[i] = open_local(c);
    double t1 = now_s();
    for (int i = 0; i < n; i++)
        run(v[i], argv);
    double t2 = now_s();
    for (int i = 0; i < n; i++) {
        sbx_sandbox_destroy(v[i]);
        sbx_sandbox_free(v[i]);
    }
    double t3 = now_s();
    printf("sandboxes %d\nopen_all_s %.3f\nexec_each_s %.3f\ndestroy_all_s %.3f\n", n, t1 - t0,
           t2 - t1, t3 - t2);
    free(v);
    return 0;
}

/* Wall time of one run of a command line split on spaces, output discarded. */
static double time_command(const char *line)
{
    char *copy = strdup(line), *argv[64], *save = NULL;
    int argc = 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    for (char *t = strtok_r(copy, " ", &save); t && argc < 63; t = strtok_r(NULL, " ", &save)) {
        /* "N<PATH": descriptor N opened on PATH for this run (bwrap's --seccomp N, --file N) */
        char *end;
        long fd = strtol(t, &end, 10);
        if (end != t && *end == '<' && fd > 2 && fd < 64)
            posix_spawn_file_actions_addopen(&fa, (int)fd, end + 1, O_RDONLY, 0);
        else
            argv[argc++] = t;
    }
    argv[argc] = NULL;
    pid_t pid;
    int st;
    double t0 = now_s();
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0 || waitpid(pid, &st, 0) != pid
        || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench-local: failed: %s\n", line);
        exit(1);
    }
    double dt = now_s() - t0;
    posix_spawn_file_actions_destroy(&fa);
    free(copy);
    return dt;
}

static int bench_compare(int n, int k, char **lines)
{
    double *t = calloc((size_t)(n * k), sizeof *t), *ratio = calloc((size_t)n, sizeof *ratio);
    for (int j = 0; j < k; j++) /* warm the caches */
        time_command(lines[j]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++)
            t[j * n + i] = time_command(lines[j]);
    /* r[j][b]: median of row j's per-round ratios to row b, for the first two rows */
    double (*r)[2] = calloc((size_t)k, sizeof *r);
    for (int j = 0; j < k; j++) /* every row's ratios before any row is sorted */
        for (int b = 0; b < 2 && b < k; b++) {
            for (int i = 0; i < n; i++)
                ratio[i] = t[j * n + i] / t[b * n + i];
            r[j][b] = bench_median(ratio, n);
        }
    for (int j = 0; j < k; j++) {
        double m = bench_median(t + j * n, n); /* sorts the row: its first is the minimum */
        printf("%d: median %.2f ms  min %.2f ms  median_ratio_to_1 %.2f", j + 1, m * 1e3,
               t[j * n] * 1e3, r[j][0]);
        if (k > 1)
            printf("  median_ratio_to_2 %.2f", r[j][1]);
        printf("  %s\n", lines[j]);
    }
    free(r);
    free(t);
    free(ratio);
    return 0;
}

int main(int argc, char **argv)
{
    sbx_client *c;
    if (argc >= 4 && !strcmp(argv[1], "compare"))
        return bench_compare(atoi(argv[2]), argc - 3, argv + 3);
    if (argc != 3) {
        fprintf(stderr, "usage: bench-local exec|stdout|idle|many N | compare N CMD...\n");
        return 2;
    }
    int rc = sbx_client_new(&c);
    if (rc)
        die("client", rc);
    unsigned long long n = strtoull(argv[2], NULL, 10);
    if (!strcmp(argv[1], "exec"))
        rc = bench_exec(c, (int)n);
    else if (!strcmp(argv[1], "stdout"))
        rc = bench_stdout(c, n, 5);
    else if (!strcmp(argv[1], "idle"))
        rc = bench_idle(c, (int)n);
    else if (!strcmp(argv[1], "many"))
        rc = bench_many(c, (int)n);
    else
        rc = 2;
    sbx_client_free(c);
    return rc;
}
