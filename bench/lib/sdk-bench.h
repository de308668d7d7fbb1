/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/lib/sdk-bench.h - the driver shared by the cloud backends'
 * benchmarks (bench/e2b, bench/daytona): a backend, through sandboxio's
 * public API, against the provider's official SDK on the same doubles, in
 * one run, interleaved. Each benchmark's main() names its labels and calls
 * bench_sdk_main():
 *
 *   NAME DSN oneshot N SDK...   N rounds; each is one sbx_run() of `true`
 *                               (create, run, delete) through the public
 *                               API, then one round of the SDK loop SDK...
 *                               (a process started once, warm: for each
 *                               "go" line it reads it does the same with
 *                               the SDK and prints "WALL_MS CPU_MS", its
 *                               milliseconds and the CPU milliseconds it
 *                               spent, user + system); medians and the
 *                               median of the per-round ratios, of wall
 *                               time and of the client's own CPU time
 *                               (the doubles' work, paid by both, is in
 *                               neither)
 *   NAME DSN memory M           M sandboxes open at once: this process's
 *                               RSS growth per sandbox
 */
#ifndef SBX_BENCH_SDK_BENCH_H
#define SBX_BENCH_SDK_BENCH_H

typedef struct bench_sdk_labels {
    const char *name;   /* the program, in messages: "bench-e2b" */
    const char *ours;   /* what a round of sbx_run() is, for the figures */
    const char *theirs; /* what a round of the SDK is */
} bench_sdk_labels;

/* The whole program: 0, 1 for a failure (said on stderr), 2 for bad usage. */
int bench_sdk_main(int argc, char **argv, const bench_sdk_labels *labels);

#endif
