/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/lib/sdk-bench.c - a backend against the provider's official SDK,
 * interleaved (sdk-bench.h). Run from bench/e2b/run.sh and
 * bench/daytona/run.sh, which start the rig and print the commands.
 */
#include "config.h"

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "../median.h"
#include "sdk-bench.h"

static const bench_sdk_labels *L;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's CPU seconds so far, user + system, every thread. */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "%s: %s: %s %s\n", L->name, what, sbx_error_id(rc), e ? e->message : "");
    exit(1);
}

static void run_true(sbx_client *c, const char *dsn, const sbx_cmd *cmd)
{
    sbx_result *r = NULL;
    int rc = sbx_run(&r, c, dsn, NULL, cmd);
    if (rc)
        die("sbx_run", rc);
    if (!sbx_result_exited(r) || sbx_result_exit_code(r) != 0)
        die("true did not exit 0", SBX_E_INTERNAL);
    sbx_result_free(r);
}

extern char **environ;

/*
 * The doubles' own time, when the rig counts it (BENCH_SERVED names the
 * counters of GET /_control/served to add: "front envd" through the front
 * door, "api envd" straight to the double): the SDK loop answers a
 * "served" line with "FRONT API ENVD", milliseconds so far. What a round
 * waited on the doubles is the growth of that sum across it; the rest of
 * its wall time is the client's own.
 */
static double served_ms(FILE *w, FILE *r, const char *which)
{
    char line[128];
    if (fputs("served\n", w) == EOF || fflush(w) || !fgets(line, sizeof(line), r))
        die("the SDK loop did not say the doubles' time", SBX_E_INTERNAL);
    double v[3];
    if (sscanf(line, "%lf %lf %lf", &v[0], &v[1], &v[2]) != 3)
        die("the SDK loop's served line is not 3 numbers", SBX_E_INTERNAL);
    static const char *const names[] = {"front", "api", "envd"};
    double sum = 0;
    for (int i = 0; i < 3; i++)
        if (strstr(which, names[i]))
            sum += v[i];
    return sum / 1e3;
}

static int bench_oneshot(sbx_client *c, const char *dsn, int n, char **sdk)
{
    int to[2], from[2];
    pid_t pid;
    posix_spawn_file_actions_t fa;
    if (pipe(to) || pipe(from) || posix_spawn_file_actions_init(&fa))
        die("pipe", SBX_E_SYSTEM);
    posix_spawn_file_actions_adddup2(&fa, to[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from[1], 1);
    posix_spawn_file_actions_addclose(&fa, to[1]);
    posix_spawn_file_actions_addclose(&fa, from[0]);
    if (posix_spawnp(&pid, sdk[0], &fa, NULL, sdk, environ) != 0)
        die("starting the SDK loop", SBX_E_SYSTEM);
    close(to[0]);
    close(from[1]);
    FILE *w = fdopen(to[1], "w"), *r = fdopen(from[0], "r");
    static const char *const argv[] = {"true", NULL};
    sbx_cmd *cmd;
    int rc = sbx_cmd_new(&cmd, argv);
    double *ours = calloc((size_t)n, sizeof *ours), *theirs = calloc((size_t)n, sizeof *theirs);
    double *ratio = calloc((size_t)n, sizeof *ratio);
    double *our_cpu = calloc((size_t)n, sizeof *our_cpu), *their_cpu = calloc((size_t)n, sizeof *their_cpu);
    double *cpu_ratio = calloc((size_t)n, sizeof *cpu_ratio);
    const char *served = getenv("BENCH_SERVED");
    /* A pause before each client's round, for doubles that clean up and
     * prepare after a round: neither client then pays for the other's. */
    const char *settle_env = getenv("BENCH_SETTLE_MS");
    useconds_t settle = settle_env ? (useconds_t)strtoul(settle_env, NULL, 10) * 1000 : 0;
    double *our_own = calloc((size_t)n, sizeof *our_own), *their_own = calloc((size_t)n, sizeof *their_own);
    double *our_srv = calloc((size_t)n, sizeof *our_srv), *their_srv = calloc((size_t)n, sizeof *their_srv);
    double *own_ratio = calloc((size_t)n, sizeof *own_ratio);
    if (rc || !w || !r || !ours || !theirs || !ratio || !our_cpu || !their_cpu || !cpu_ratio ||
        !our_own || !their_own || !our_srv || !their_srv || !own_ratio)
        die("setting up", rc ? rc : SBX_E_NOMEM);
    char line[64];
    /* A warm-up round on each side: the SDK's module load and JIT, our plugin's load. */
    run_true(c, dsn, cmd);
    for (int i = -1; i < n; i++) {
        if (settle)
            usleep(settle);
        double s0 = served ? served_ms(w, r, served) : 0;
        double t0 = now_s(), c0 = cpu_s();
        if (i >= 0)
            run_true(c, dsn, cmd);
        double t1 = now_s(), c1 = cpu_s();
        if (settle)
            usleep(settle);
        double s1 = served ? served_ms(w, r, served) : 0;
        if (fputs("go\n", w) == EOF || fflush(w) || !fgets(line, sizeof(line), r))
            die("the SDK loop stopped", SBX_E_INTERNAL);
        double s2 = served ? served_ms(w, r, served) : 0;
        if (i < 0)
            continue;
        our_srv[i] = s1 - s0;
        their_srv[i] = s2 - s1;
        ours[i] = t1 - t0;
        char *end;
        theirs[i] = strtod(line, &end) / 1e3;
        their_cpu[i] = strtod(end, NULL) / 1e3;
        ratio[i] = ours[i] / theirs[i];
        our_cpu[i] = c1 - c0;
        cpu_ratio[i] = their_cpu[i] > 0 ? our_cpu[i] / their_cpu[i] : 0;
        our_own[i] = ours[i] - our_srv[i];
        their_own[i] = theirs[i] - their_srv[i];
        own_ratio[i] = their_own[i] > 0 ? our_own[i] / their_own[i] : 0;
        if (getenv("BENCH_ROUNDS"))
            printf("round %d: sandboxio %.1f ms, SDK %.1f ms\n", i, ours[i] * 1e3, theirs[i] * 1e3);
    }
    fclose(w);
    fclose(r);
    int st;
    waitpid(pid, &st, 0);
    printf("%s: median %.1f ms over %d rounds\n", L->ours, bench_median(ours, n) * 1e3, n);
    printf("%s: median %.1f ms\n", L->theirs, bench_median(theirs, n) * 1e3);
    printf("median of per-round ratios, sandboxio / SDK: %.2f\n", bench_median(ratio, n));
    printf("client CPU per round (user + system): sandboxio median %.2f ms, SDK median %.2f ms\n",
           bench_median(our_cpu, n) * 1e3, bench_median(their_cpu, n) * 1e3);
    printf("median of per-round client CPU ratios, sandboxio / SDK: %.2f\n",
           bench_median(cpu_ratio, n));
    if (served) {
        printf("the doubles' time per round (%s): sandboxio median %.1f ms, SDK median %.1f ms\n",
               served, bench_median(our_srv, n) * 1e3, bench_median(their_srv, n) * 1e3);
        printf("the client's own time per round (wall - the doubles'): sandboxio median %.1f ms, "
               "SDK median %.1f ms\n",
               bench_median(our_own, n) * 1e3, bench_median(their_own, n) * 1e3);
        printf("median of per-round ratios of the client's own time, sandboxio / SDK: %.2f\n",
               bench_median(own_ratio, n));
    }
    sbx_cmd_free(cmd);
    free(our_cpu);
    free(their_cpu);
    free(cpu_ratio);
    free(ours);
    free(theirs);
    free(ratio);
    free(our_own);
    free(their_own);
    free(our_srv);
    free(their_srv);
    free(own_ratio);
    posix_spawn_file_actions_destroy(&fa);
    return 0;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

static int bench_memory(sbx_client *c, const char *dsn, int m)
{
    sbx_sandbox **sb = calloc((size_t)m + 1, sizeof *sb);
    if (!sb)
        die("calloc", SBX_E_NOMEM);
    /* One first, so the plugin, libcurl and TLS are loaded before the baseline. */
    int rc = sbx_sandbox_open(&sb[m], c, dsn, NULL);
    if (rc)
        die("sbx_sandbox_open", rc);
    long before = rss_kib();
    for (int i = 0; i < m; i++)
        if ((rc = sbx_sandbox_open(&sb[i], c, dsn, NULL)))
            die("sbx_sandbox_open", rc);
    long after = rss_kib();
    printf("client memory per open sandbox: %.1f KiB (RSS %ld -> %ld KiB for %d more)\n",
           (double)(after - before) / m, before, after, m);
    for (int i = 0; i <= m; i++)
        sbx_sandbox_free(sb[i]);
    free(sb);
    return 0;
}

int bench_sdk_main(int argc, char **argv, const bench_sdk_labels *labels)
{
    L = labels;
    if (argc < 4 || (strcmp(argv[2], "oneshot") == 0 && argc < 5)) {
        fprintf(stderr, "usage: %s DSN oneshot N SDK... | %s DSN memory M\n", L->name, L->name);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    sbx_client *c;
    int rc = sbx_client_new(&c);
    if (rc)
        die("sbx_client_new", rc);
    int n = atoi(argv[3]);
    if (n <= 0)
        return 2;
    rc = strcmp(argv[2], "oneshot") == 0 ? bench_oneshot(c, argv[1], n, argv + 4)
         : strcmp(argv[2], "memory") == 0 ? bench_memory(c, argv[1], n)
                                          : 2;
    sbx_client_free(c);
    return rc;
}
