/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/median.h - the median of a sample, for the benchmarks: figures here
 * are medians of per-round values, so one slow round does not move them.
 */
#ifndef SBX_BENCH_MEDIAN_H
#define SBX_BENCH_MEDIAN_H

#include <stdlib.h>

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v in place (its first element is then the minimum). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
