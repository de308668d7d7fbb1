/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.h - internals shared by the runner, the capability refusals and
 * the reports. Not used by cases.
 */
#ifndef SBX_CONTRACT_RUNNER_H
#define SBX_CONTRACT_RUNNER_H

#include <stdio.h>

#include "case.h"

/* Longest reason a case can give. */
#define SBXC_REASON_MAX 1024

/* The outcome of one case, as the runner records it. */
typedef struct sbxc_outcome {
    const sbxc_case *c;
    int status;                   /* enum sbxc_status */
    char reason[SBXC_REASON_MAX];
    double seconds;
} sbxc_outcome;

/*
 * In the case process, before the case runs: SKIP (after checking the core
 * refuses) when the case needs a tier or capability the backend lacks.
 * Returns only when every need is met.
 */
void sbxc_check_needs(sbxc_ctx *ctx, const sbxc_case *c);

/* SANDBOXIO_CONTRACT_TIME_FACTOR: multiplies every time limit of the runner
 * (above 1 for slow machines and valgrind; below 1 lets the self-test see a
 * hang quickly); 1 when unset or not a number in (0, 100]. */
double sbxc_time_factor(void);

/* Learn the backend's caps and tier in a forked process (discover.c);
 * 0, or -1 with the reason in err. */
int sbxc_discover(const char *dsn, sbxc_backend *b, char *err, size_t err_size);

/* Have the backend collect sandboxes whose owner process is gone
 * (sbx_client_gc, in a forked process); how many, or -1 on failure. */
long sbxc_collect_leaked(const char *dsn);

/* rm -rf of a host directory made by the case (host.c). */
void sbxc_remove_tree(const char *dir);
/* Remove what sbxc_host_tmpdir() made for the case process case_pid. */
void sbxc_remove_case_dirs(pid_t case_pid);

/* Comma-separated names of the caps in mask ("exec,stdin"), or "-". */
void sbxc_caps_text(uint64_t mask, char *buf, size_t size);
const char *sbxc_status_word(int status);

/* Reports (report.c). */
int sbxc_write_junit(const char *path, const char *dsn, const sbxc_backend *b,
                     const sbxc_outcome *outs, size_t n);
int sbxc_print_json(FILE *out, const char *dsn, const sbxc_backend *b,
                    const sbxc_outcome *outs, size_t n);
/* The JSON document of a run that could not start: the error, one failure. */
int sbxc_print_json_bail(FILE *out, const char *dsn, const char *error);

#endif
