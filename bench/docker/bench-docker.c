/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-docker: figures for the docker backend through the public API.
 *
 *   bench-docker DSN phases N   mean time of open, one exec of `true`, and
 *                               destroy, over N sandboxes one after another
 *   bench-docker DSN exec N [CLI...]
 *                               N execs of `true` in one open sandbox; with
 *                               a docker CLI command line (e.g. `docker
 *                               --host unix://SOCK`), each is followed by
 *                               `CLI exec CONTAINER true` into the same
 *                               container, and the median of the per-pair
 *                               ratios is printed too
 *
 * Run from bench/docker/run.sh, which prints the command lines it used.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <sandboxio/sandboxio.h>

#include "../median.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "bench-docker: %s: %s %s\n", what, sbx_error_id(rc), e ? e->message : "");
    exit(1);
}

static void run_true(sbx_sandbox *sb)
{
    static const char *const argv[] = {"true", NULL};
    sbx_cmd *cmd;
    sbx_result *r;
    int rc = sbx_cmd_new(&cmd, argv);
    if (rc)
        die("sbx_cmd_new", rc);
    if ((rc = sbx_exec(&r, sb, cmd)))
        die("sbx_exec", rc);
    if (!sbx_result_exited(r) || sbx_result_exit_code(r) != 0)
        die("true did not exit 0", SBX_E_INTERNAL);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}

extern char **environ;

/* The docker CLI's exec of true into container id: its wall time. */
static double time_cli_exec(char **cli, int ncli, const char *id)
{
    char *argv[32];
    int n = 0;
    for (int i = 0; i < ncli && n < 27; i++)
        argv[n++] = cli[i];
    argv[n++] = "exec";
    argv[n++] = (char *)id;
    argv[n++] = "true";
    argv[n] = NULL;
    pid_t pid;
    int st;
    double t0 = now_s();
    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0 ||
        waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench-docker: %s exec failed\n", argv[0]);
        exit(1);
    }
    return now_s() - t0;
}

/* sbx_exec of true, then (with a CLI) the CLI's exec into the same container, in turn. */
static void bench_exec(sbx_sandbox *sb, int n, char **cli, int ncli)
{
    double *ours = calloc((size_t)n, sizeof *ours), *theirs = calloc((size_t)n, sizeof *theirs);
    double *ratio = calloc((size_t)n, sizeof *ratio), sum_ours = 0, sum_theirs = 0;
    const char *id = sbx_sandbox_id(sb);
    if (!ours || !theirs || !ratio || (ncli && !id))
        die("setting up", SBX_E_NOMEM);
    run_true(sb);    /* warm up */
    if (ncli)
        time_cli_exec(cli, ncli, id);
    for (int i = 0; i < n; i++) {
        double t0 = now_s();
        run_true(sb);
        ours[i] = now_s() - t0;
        sum_ours += ours[i];
        if (ncli) {
            theirs[i] = time_cli_exec(cli, ncli, id);
            sum_theirs += theirs[i];
            ratio[i] = ours[i] / theirs[i];
        }
    }
    printf("exec of true: %.2f ms (mean of %d), median %.2f ms\n", sum_ours / n * 1e3, n,
           bench_median(ours, n) * 1e3);
    if (ncli) {
        printf("docker CLI exec of true into the same container: %.2f ms (mean), median "
               "%.2f ms\n", sum_theirs / n * 1e3, bench_median(theirs, n) * 1e3);
        printf("median of per-pair ratios, sandboxio / docker CLI: %.2f\n", bench_median(ratio, n));
    }
    free(ours);
    free(theirs);
    free(ratio);
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[2], "phases") && strcmp(argv[2], "exec")) ||
        (strcmp(argv[2], "exec") && argc != 4)) {
        fprintf(stderr, "usage: bench-docker DSN phases N | bench-docker DSN exec N [CLI...]\n");
        return 2;
    }
    const char *dsn = argv[1];
    int n = atoi(argv[3]);
    if (n < 1)
        n = 1;
    sbx_client *c;
    sbx_sandbox *sb;
    int rc = sbx_client_new(&c);
    if (rc)
        die("sbx_client_new", rc);
    if (strcmp(argv[2], "phases") == 0) {
        double t_open = 0, t_exec = 0, t_destroy = 0;
        for (int i = 0; i < n; i++) {
            double t0 = now_s();
            if ((rc = sbx_sandbox_open(&sb, c, dsn, NULL)))
                die("sbx_sandbox_open", rc);
            double t1 = now_s();
            run_true(sb);
            double t2 = now_s();
            if ((rc = sbx_sandbox_destroy(sb)))
                die("sbx_sandbox_destroy", rc);
            double t3 = now_s();
            sbx_sandbox_free(sb);
            t_open += t1 - t0;
            t_exec += t2 - t1;
            t_destroy += t3 - t2;
        }
        printf("open %.1f ms, exec %.1f ms, destroy %.1f ms (mean of %d)\n", t_open / n * 1e3,
               t_exec / n * 1e3, t_destroy / n * 1e3, n);
    } else {
        if ((rc = sbx_sandbox_open(&sb, c, dsn, NULL)))
            die("sbx_sandbox_open", rc);
        bench_exec(sb, n, argv + 4, argc - 4);
        if ((rc = sbx_sandbox_destroy(sb)))
            die("sbx_sandbox_destroy", rc);
        sbx_sandbox_free(sb);
    }
    sbx_client_free(c);
    return 0;
}
